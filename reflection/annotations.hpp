// The user's annotation file (`--reflection-annotations FILE`): what a reflective call site
// resolves to, or that it never runs; the analysis takes it instead of inferring the site.
//
// Format (also in reflection/README.md): one annotation a line, fields separated by one TAB,
//   SITE<TAB>KIND[<TAB>TARGET]
// Empty lines, lines of only blanks and lines whose first non-blank character is `#` are
// ignored. SITE is an invocation site as the facts name I elements,
// `<caller sig>/Decl.name/n` (frontend/FACTS.md), e.g.
// `<antlr.Utils: java.lang.Object
// createInstanceOf(java.lang.String)>/java.lang.Class.newInstance/0` (Soot's quotes in the caller
// signature may be left out). KIND and TARGET:
//   never        the site is never executed; no TARGET
//   class        a class or array type (`a.B$C`, `int[]`): what a Class.forName /
//                ClassLoader.loadClass site returns, what a Class.newInstance /
//                Array.newInstance site instantiates (for Array.newInstance the array type,
//                `java.lang.String[]`, as TamiFlex logs it), or the Class receiver of a
//                getMethod(s) / getField(s) / getConstructor(s) site (and their getDeclared*
//                forms)
//   method       a Soot method signature: what a getMethod / getDeclaredMethod / getMethods /
//                getDeclaredMethods site returns, or what a Method.invoke site calls
//   constructor  a Soot signature of an <init>: what a getConstructor(s) /
//                getDeclaredConstructor(s) site returns, or what a Constructor.newInstance /
//                Class.newInstance site runs
//   field        a Soot field signature: what a getField(s) / getDeclaredField(s) site returns,
//                or what a Field.get* / Field.set* site accesses
// A site may carry several annotations; each adds a target.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "support/error.hpp"

namespace refract::reflection {

enum class AnnotationKind { kNever, kClass, kMethod, kConstructor, kField };

std::string_view annotation_kind_name(AnnotationKind kind);

struct Annotation {
  std::string site;  // the I element name, normalised as the facts spell it
  AnnotationKind kind = AnnotationKind::kNever;
  std::string target;           // as written; empty for never
  SourceLocation where;         // the line, at the SITE's column
  SourceLocation kind_where;    // the line, at the KIND's column
  SourceLocation target_where;  // the line, at the TARGET's column (the KIND's for never)
};

// Every annotation of the file at `path`, in file order. A malformed line is an InputError at
// FILE:LINE:COL saying what is wrong (a bad SITE or TARGET, an unknown KIND, a missing or an
// extra TARGET, a wrong separator).
std::vector<Annotation> read_annotations(const std::filesystem::path& path);
// The same for text already in memory; `file` names it in errors.
std::vector<Annotation> parse_annotations(std::string_view text, const std::string& file);

}  // namespace refract::reflection
