#include "reflection/annotations.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "reflection/target_syntax.hpp"
#include "support/text_file.hpp"

namespace refract::reflection {

namespace {

struct KindName {
  AnnotationKind kind;
  std::string_view name;
};

constexpr std::array kKinds = std::to_array<KindName>({
    {AnnotationKind::kNever, "never"},
    {AnnotationKind::kClass, "class"},
    {AnnotationKind::kMethod, "method"},
    {AnnotationKind::kConstructor, "constructor"},
    {AnnotationKind::kField, "field"},
});

std::optional<AnnotationKind> kind_named(std::string_view name) {
  for (const KindName& k : kKinds)
    if (k.name == name) return k.kind;
  return std::nullopt;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// Checks TARGET against its KIND; NameSyntaxError with the offset of the problem.
void check_target(AnnotationKind kind, std::string_view target) {
  if (kind == AnnotationKind::kClass) {
    parse_type_name(target);
    return;
  }
  const MemberSignature member = parse_member_signature(target);
  const bool initializer = member.name == "<init>" || member.name == "<clinit>";
  switch (kind) {
    case AnnotationKind::kMethod:
      if (!member.is_method()) throw NameSyntaxError(0, "expected a method, found a field");
      if (initializer)
        throw NameSyntaxError(
            0, "expected a method, found " + member.name + " (use kind constructor for an <init>)");
      return;
    case AnnotationKind::kConstructor:
      if (!member.is_constructor()) throw NameSyntaxError(0, "expected the signature of an <init>");
      if (member.type != "void") throw NameSyntaxError(0, "a constructor returns void");
      return;
    case AnnotationKind::kField:
      if (member.is_method()) throw NameSyntaxError(0, "expected a field, found a method");
      return;
    default:
      return;
  }
}

Annotation parse_line(std::string_view line, const std::string& file, std::uint64_t number) {
  auto fail = [&](std::size_t column, const std::string& message) {
    throw InputError({file, number, column + 1}, message);
  };
  std::vector<std::string_view> fields;
  std::vector<std::size_t> columns;
  for (std::size_t start = 0;;) {
    const std::size_t end = line.find('\t', start);
    fields.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    columns.push_back(start);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (fields.size() == 1)
    fail(line.size(), "expected SITE<TAB>KIND[<TAB>TARGET], found no TAB after the SITE");

  Annotation out;
  out.where = {file, number, 1};
  try {
    out.site = parse_invocation_site(fields[0]);
  } catch (const NameSyntaxError& e) {
    fail(e.offset(), std::string("malformed SITE: ") + e.what());
  }
  if (fields[1].empty()) fail(columns[1], "empty KIND: fields are separated by exactly one TAB");
  const std::optional<AnnotationKind> kind = kind_named(fields[1]);
  if (!kind) {
    fail(columns[1], "unknown annotation kind '" + std::string(fields[1]) +
                         "' (expected never, class, method, constructor or field)");
  }
  out.kind = *kind;
  out.kind_where = {file, number, columns[1] + 1};
  if (fields.size() > 3) fail(columns[3] - 1, "extra TAB-separated field after the TARGET");
  const std::string_view kind_name = annotation_kind_name(*kind);
  if (*kind == AnnotationKind::kNever) {
    if (fields.size() == 3) fail(columns[2] - 1, "kind never must not have a TARGET");
    out.target_where = {file, number, columns[1] + 1};
    return out;
  }
  if (fields.size() == 2 || fields[2].empty())
    fail(line.size(), "kind " + std::string(kind_name) + " needs a TARGET");
  try {
    check_target(*kind, fields[2]);
  } catch (const NameSyntaxError& e) {
    fail(columns[2] + e.offset(), "malformed " + std::string(kind_name) + " TARGET: " + e.what());
  }
  out.target = fields[2];
  out.target_where = {file, number, columns[2] + 1};
  return out;
}

}  // namespace

std::string_view annotation_kind_name(AnnotationKind kind) {
  for (const KindName& k : kKinds)
    if (k.kind == kind) return k.name;
  return "?";
}

std::vector<Annotation> parse_annotations(std::string_view text, const std::string& file) {
  std::vector<Annotation> out;
  std::uint64_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (is_blank(line) || line[line.find_first_not_of(" \t")] == '#') continue;
    out.push_back(parse_line(line, file, number));
  }
  return out;
}

std::vector<Annotation> read_annotations(const std::filesystem::path& path) {
  return parse_annotations(read_text_file(path, "annotation file"), path.string());
}

}  // namespace refract::reflection
