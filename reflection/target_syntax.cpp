#include "reflection/target_syntax.hpp"

#include <array>

#include "frontend/names.hpp"

namespace refract::reflection {

namespace {

constexpr std::array<std::string_view, 8> kPrimitives = {"boolean", "byte",  "char", "short",
                                                         "int",     "float", "long", "double"};

bool is_primitive(std::string_view name) {
  for (std::string_view p : kPrimitives)
    if (p == name) return true;
  return false;
}

// A byte that may appear in a name part. JVMS 4.2.2 forbids only `. ; [ /` in unqualified
// names; the separators of signatures and CALLERs, quotes and control characters are refused
// too, so that every name splits one way.
bool is_name_byte(unsigned char c) {
  if (c >= 0x80) return true;  // UTF-8 of non-ASCII identifiers
  if (c <= 0x20 || c == 0x7f) return false;
  switch (c) {
    case '.':
    case ';':
    case '[':
    case ']':
    case '/':
    case '<':
    case '>':
    case ':':
    case ',':
    case '(':
    case ')':
    case '\'':
      return false;
    default:
      return true;
  }
}

std::string describe(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u < 0x20 || u == 0x7f) {
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
  }
  if (c == ' ') return "' '";
  return std::string("'") + c + "'";
}

// A left-to-right reader of one name; errors carry the offset where they were found.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool at_end() const { return at_ == text_.size(); }
  std::size_t offset() const { return at_; }
  bool peek(char c) const { return at_ < text_.size() && text_[at_] == c; }
  bool peek(std::string_view s) const { return text_.substr(at_).starts_with(s); }
  bool accept(char c) {
    if (!peek(c)) return false;
    ++at_;
    return true;
  }
  bool accept(std::string_view s) {
    if (!peek(s)) return false;
    at_ += s.size();
    return true;
  }
  void expect(std::string_view s, std::string_view what) {
    if (!accept(s)) fail("expected '" + std::string(s) + "' " + std::string(what));
  }
  [[noreturn]] void fail(const std::string& message) const {
    const std::string found = at_end() ? "the end" : describe(text_[at_]);
    throw NameSyntaxError(at_, message + ", found " + found);
  }
  void expect_end(std::string_view after) {
    if (!at_end()) fail("unexpected text after " + std::string(after));
  }

  // One part of a dotted name, unquoted: a run of name bytes or Soot's `'quoted'` form.
  std::string part(std::string_view what) {
    const bool quoted = accept('\'');
    const std::size_t start = at_;
    while (at_ < text_.size() && is_name_byte(static_cast<unsigned char>(text_[at_]))) ++at_;
    if (at_ == start) fail("expected " + std::string(what));
    std::string out(text_.substr(start, at_ - start));
    if (quoted && !accept('\'')) fail("expected the closing quote of '" + out);
    return out;
  }

  // A binary class name `a.b.C$D`, with a hidden class's `/suffix` if there is one.
  std::string class_name() {
    std::string out = part("a class name");
    while (accept('.')) out += "." + part("a name after '.'");
    if (accept('/')) out += "/" + part("a hidden class suffix after '/'");
    return out;
  }

  // A type in Java source form, or an array type in the JVM's form; Java source form out.
  std::string type(bool allow_void) {
    if (peek('[')) return jvm_array_type();
    const std::size_t start = at_;
    const bool quoted = peek('\'');
    std::string out = class_name();
    if (out == "void" && !quoted) {
      if (!allow_void) throw NameSyntaxError(start, "void is not a type here");
      return out;
    }
    while (accept('[')) {
      expect("]", "after '[' in an array type");
      out += "[]";
    }
    return out;
  }

 private:
  // `[I`, `[[La.B;`: Class.getName() of an array class.
  std::string jvm_array_type() {
    std::size_t dimensions = 0;
    while (accept('[')) ++dimensions;
    std::string element;
    if (accept('L')) {
      element = class_name();
      expect(";", "after the class name of a JVM array type");
    } else {
      static constexpr std::string_view kCodes = "ZBCSIFJD";
      const std::size_t code = at_end() ? std::string_view::npos : kCodes.find(text_[at_]);
      if (code == std::string_view::npos)
        fail("expected a JVM element type (L<class>; or one of ZBCSIFJD)");
      element = kPrimitives[code];
      ++at_;
    }
    for (std::size_t i = 0; i < dimensions; ++i) element += "[]";
    return element;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

// A method name: `<init>`, `<clinit>` or one name part.
std::string method_name(Cursor& in) {
  if (in.accept("<init>")) return "<init>";
  if (in.accept("<clinit>")) return "<clinit>";
  return in.part("a member name");
}

std::string quoted_type(std::string_view type) {
  std::string_view base = type;
  std::size_t dimensions = 0;
  while (base.ends_with("[]")) {
    base.remove_suffix(2);
    ++dimensions;
  }
  std::string out =
      is_primitive(base) || base == "void" ? std::string(base) : frontend::soot_quote(base);
  for (std::size_t i = 0; i < dimensions; ++i) out += "[]";
  return out;
}

}  // namespace

std::string parse_type_name(std::string_view text) {
  Cursor in(text);
  std::string out = in.type(false);
  in.expect_end("the type name");
  return out;
}

MemberSignature parse_member_signature(std::string_view text) {
  Cursor in(text);
  MemberSignature out;
  in.expect("<", "at the start of a Soot signature");
  out.declaring_class = in.class_name();
  in.expect(": ", "after the declaring class");
  out.type = in.type(true);
  in.expect(" ", "after the type");
  out.name = method_name(in);
  if (in.accept('(')) {
    out.parameters.emplace();
    if (!in.accept(')')) {
      do {
        out.parameters->push_back(in.type(false));
      } while (in.accept(','));
      in.expect(")", "after the parameter types");
    }
  } else if (out.type == "void") {
    throw NameSyntaxError(in.offset(), "a field cannot have type void");
  } else if (out.name == "<init>" || out.name == "<clinit>") {
    throw NameSyntaxError(in.offset(), "expected '(' after " + out.name);
  }
  in.expect(">", "at the end of the signature");
  in.expect_end("the signature");
  return out;
}

CallerName parse_caller(std::string_view text) {
  const std::size_t dot = text.rfind('.');
  if (dot == std::string_view::npos)
    throw NameSyntaxError(0, "expected declaring.Class.methodName, found no '.'");
  CallerName out;
  Cursor cls(text.substr(0, dot));
  out.declaring_class = cls.class_name();
  cls.expect_end("the class name");
  Cursor method(text.substr(dot + 1));
  try {
    out.method = method_name(method);
    method.expect_end("the method name");
  } catch (const NameSyntaxError& e) {
    throw NameSyntaxError(dot + 1 + e.offset(), e.what());
  }
  return out;
}

std::string parse_invocation_site(std::string_view text) {
  const std::size_t last = text.rfind('/');
  const std::size_t middle = last == std::string_view::npos || last == 0
                                 ? std::string_view::npos
                                 : text.rfind('/', last - 1);
  if (middle == std::string_view::npos)
    throw NameSyntaxError(text.size(), "expected <caller signature>/Decl.name/n");
  const std::string_view caller = text.substr(0, middle);
  std::string out;
  if (caller == "<jvm>") {
    out = caller;
  } else {
    const MemberSignature method = parse_member_signature(caller);
    if (!method.is_method())
      throw NameSyntaxError(0, "the site's caller must be a method signature");
    out = soot_signature(method);
  }
  CallerName called;
  try {
    called = parse_caller(text.substr(middle + 1, last - middle - 1));
  } catch (const NameSyntaxError& e) {
    throw NameSyntaxError(middle + 1 + e.offset(), std::string("in Decl.name: ") + e.what());
  }
  const std::string_view n = text.substr(last + 1);
  const bool numeric = !n.empty() && n.size() <= 9 &&
                       n.find_first_not_of("0123456789") == std::string_view::npos &&
                       (n == "0" || n.front() != '0');
  if (!numeric) throw NameSyntaxError(last + 1, "expected the site's number n after the last '/'");
  return out + "/" + called.declaring_class + "." + called.method + "/" + std::string(n);
}

std::string soot_signature(const MemberSignature& member) {
  std::string out = "<" + frontend::soot_quote(member.declaring_class) + ": " +
                    quoted_type(member.type) + " " + frontend::soot_quote(member.name);
  if (member.parameters) {
    out += '(';
    for (std::size_t i = 0; i < member.parameters->size(); ++i) {
      if (i > 0) out += ',';
      out += quoted_type((*member.parameters)[i]);
    }
    out += ')';
  }
  return out + ">";
}

}  // namespace refract::reflection
