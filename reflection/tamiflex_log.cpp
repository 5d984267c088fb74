#include "reflection/tamiflex_log.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

#include "reflection/target_syntax.hpp"
#include "support/atomic_file.hpp"
#include "support/text_file.hpp"

namespace refract::reflection {

namespace {

struct KindShape {
  std::string_view kind;
  TargetShape shape;
};

// TamiFlex's labels (Kind.java of plast-lab/tamiflex, the classic and the opt-in modern ones)
// and the kinds refract names that TamiFlex does not log (reflection/api.cpp).
constexpr std::array kShapes = std::to_array<KindShape>({
    {"Array.newInstance", TargetShape::kType},
    {"Class.cast", TargetShape::kType},
    {"Class.forName", TargetShape::kType},
    {"Class.getComponentType", TargetShape::kType},
    {"Class.getConstructor", TargetShape::kConstructor},
    {"Class.getConstructors", TargetShape::kType},
    {"Class.getDeclaredConstructor", TargetShape::kConstructor},
    {"Class.getDeclaredConstructors", TargetShape::kType},
    {"Class.getDeclaredField", TargetShape::kField},
    {"Class.getDeclaredFields", TargetShape::kType},
    {"Class.getDeclaredMethod", TargetShape::kMethod},
    {"Class.getDeclaredMethods", TargetShape::kType},
    {"Class.getField", TargetShape::kField},
    {"Class.getFields", TargetShape::kType},
    {"Class.getInterfaces", TargetShape::kType},
    {"Class.getMethod", TargetShape::kMethod},
    {"Class.getMethods", TargetShape::kType},
    {"Class.getModifiers", TargetShape::kType},
    {"Class.getSuperclass", TargetShape::kType},
    {"Class.newInstance", TargetShape::kType},
    {"ClassLoader.loadClass", TargetShape::kType},
    {"Constructor.getModifiers", TargetShape::kConstructor},
    {"Constructor.newInstance", TargetShape::kConstructor},
    {"Constructor.toGenericString", TargetShape::kConstructor},
    {"Constructor.toString", TargetShape::kConstructor},
    {"Field.get*", TargetShape::kField},
    {"Field.getDeclaringClass", TargetShape::kField},
    {"Field.getModifiers", TargetShape::kField},
    {"Field.getName", TargetShape::kField},
    {"Field.set*", TargetShape::kField},
    {"Field.toGenericString", TargetShape::kField},
    {"Field.toString", TargetShape::kField},
    {"Method.getDeclaringClass", TargetShape::kMethod},
    {"Method.getModifiers", TargetShape::kMethod},
    {"Method.getName", TargetShape::kMethod},
    {"Method.invoke", TargetShape::kMethod},
    {"Method.toGenericString", TargetShape::kMethod},
    {"Method.toString", TargetShape::kMethod},
    {"MethodHandles.Lookup.findConstructor", TargetShape::kConstructor},
    {"MethodHandles.Lookup.findGetter", TargetShape::kField},
    {"MethodHandles.Lookup.findSetter", TargetShape::kField},
    {"MethodHandles.Lookup.findSpecial", TargetShape::kMethod},
    {"MethodHandles.Lookup.findStatic", TargetShape::kMethod},
    {"MethodHandles.Lookup.findStaticGetter", TargetShape::kField},
    {"MethodHandles.Lookup.findStaticSetter", TargetShape::kField},
    {"MethodHandles.Lookup.findStaticVarHandle", TargetShape::kField},
    {"MethodHandles.Lookup.findVarHandle", TargetShape::kField},
    {"MethodHandles.Lookup.findVirtual", TargetShape::kMethod},
    {"MethodHandles.Lookup.unreflect", TargetShape::kMethod},
    {"MethodHandles.Lookup.unreflectConstructor", TargetShape::kConstructor},
    {"MethodHandles.Lookup.unreflectGetter", TargetShape::kField},
    {"MethodHandles.Lookup.unreflectSetter", TargetShape::kField},
    {"MethodHandles.Lookup.unreflectSpecial", TargetShape::kMethod},
    {"Proxy.newProxyInstance", TargetShape::kType},
    {"Unsafe.allocateInstance", TargetShape::kType},
});

constexpr std::array<std::string_view, 6> kSootKinds = {
    "Class.forName", "Class.newInstance", "Constructor.newInstance",
    "Method.invoke", "Field.set*",        "Field.get*",
};

// A problem in one field: the offset within the field and the message.
struct FieldProblem {
  std::size_t offset;
  std::string message;
};

std::optional<FieldProblem> kind_problem(std::string_view kind) {
  if (kind.empty()) return FieldProblem{0, "empty KIND"};
  for (std::size_t i = 0; i < kind.size(); ++i) {
    const char c = kind[i];
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '*' || c == '_' || c == '$';
    if (!ok) return FieldProblem{i, "KIND may hold only letters, digits and . * _ $"};
  }
  return std::nullopt;
}

std::string_view shape_name(TargetShape shape) {
  switch (shape) {
    case TargetShape::kType:
      return "a class or array type";
    case TargetShape::kMethod:
      return "a Soot method signature";
    case TargetShape::kConstructor:
      return "a Soot signature of a constructor";
    case TargetShape::kField:
      return "a Soot field signature";
    case TargetShape::kAny:
      return "a type or a Soot signature";
  }
  return "?";
}

// Checks TARGET against the shape its KIND needs.
std::optional<FieldProblem> target_problem(std::string_view kind, std::string_view target) {
  if (target.empty()) return FieldProblem{0, "empty TARGET"};
  const TargetShape shape = target_shape(kind);
  const std::string prefix =
      "TARGET of " + std::string(kind) + " must be " + std::string(shape_name(shape)) + ": ";
  try {
    const bool signature = target.front() == '<';
    if (shape == TargetShape::kType || (shape == TargetShape::kAny && !signature)) {
      // TamiFlex logs the array Array.newInstance creates: component + "[]" per dimension.
      if (!parse_type_name(target).ends_with("[]") && kind == "Array.newInstance")
        return FieldProblem{0, prefix + "an array type"};
      return std::nullopt;
    }
    const MemberSignature member = parse_member_signature(target);
    if (shape == TargetShape::kField && member.is_method())
      return FieldProblem{0, prefix + "found a method signature"};
    if ((shape == TargetShape::kMethod || shape == TargetShape::kConstructor) &&
        !member.is_method())
      return FieldProblem{0, prefix + "found a field signature"};
    if (shape == TargetShape::kConstructor && !member.is_constructor())
      return FieldProblem{0, prefix + "found method " + member.name};
    if (member.is_constructor() && member.type != "void")
      return FieldProblem{0, prefix + "a constructor returns void"};
    return std::nullopt;
  } catch (const NameSyntaxError& e) {
    return FieldProblem{e.offset(), prefix + e.what()};
  }
}

std::optional<FieldProblem> caller_problem(std::string_view caller) {
  if (caller.empty()) return FieldProblem{0, "empty CALLER"};
  try {
    parse_caller(caller);
    return std::nullopt;
  } catch (const NameSyntaxError& e) {
    return FieldProblem{e.offset(),
                        std::string("CALLER must be declaring.Class.methodName: ") + e.what()};
  }
}

std::optional<FieldProblem> meta_problem(std::string_view meta) {
  for (std::size_t i = 0; i < meta.size(); ++i) {
    const auto c = static_cast<unsigned char>(meta[i]);
    if (c < 0x20 || c == 0x7f || c == ';')
      return FieldProblem{i, "META holds a control character or ';'"};
  }
  return std::nullopt;
}

// A decimal number field (LINE, COUNT): digits only, within the range of Number. `fail(offset,
// message)` throws.
template <typename Number, typename Fail>
std::optional<Number> parse_number(std::string_view text, std::string_view field, Fail&& fail) {
  if (text.empty()) return std::nullopt;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9')
      fail(i, std::string(field) + " must be empty or a decimal number");
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    fail(0, std::string(field) + " " + std::string(text) + " is out of range");
  return value;
}

// Splits a line at ';' into its six fields, gluing back a JVM-form array class target
// (`[La.B;` gives the fields "[La.B" and "" around its own ';').
struct SplitLine {
  std::vector<std::string_view> fields;
  std::vector<std::size_t> columns;  // 0-based start of each field in the line
};

SplitLine split_fields(std::string_view line) {
  SplitLine out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = line.find(';', start);
    out.fields.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    out.columns.push_back(start);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (out.fields.size() == 7) {
    const std::string_view target = out.fields[1];
    const std::size_t brackets = target.find_first_not_of('[');
    if (brackets > 0 && brackets != std::string_view::npos && target[brackets] == 'L' &&
        out.fields[2].empty()) {
      out.fields[1] = line.substr(out.columns[1], target.size() + 1);
      out.fields.erase(out.fields.begin() + 2);
      out.columns.erase(out.columns.begin() + 2);
    }
  }
  return out;
}

LogEntry parse_line(std::string_view line, const std::string& file, std::uint64_t number) {
  auto fail = [&](std::size_t column, const std::string& message) {
    throw InputError({file, number, column + 1}, message);
  };
  const SplitLine split = split_fields(line);
  if (split.fields.size() != 6) {
    const std::size_t column = split.fields.size() > 6 ? split.columns[6] - 1 : line.size();
    fail(column, "expected 6 fields KIND;TARGET;CALLER;LINE;META;COUNT, found " +
                     std::to_string(split.fields.size()));
  }
  const auto& f = split.fields;
  auto check = [&](std::size_t field, const std::optional<FieldProblem>& problem) {
    if (problem) fail(split.columns[field] + problem->offset, problem->message);
  };
  auto fail_in = [&](std::size_t field) {
    return [&, field](std::size_t offset, const std::string& message) {
      fail(split.columns[field] + offset, message);
    };
  };
  LogEntry entry;
  check(0, kind_problem(f[0]));
  check(1, target_problem(f[0], f[1]));
  check(2, caller_problem(f[2]));
  entry.line = parse_number<std::uint32_t>(f[3], "LINE", fail_in(3));
  check(4, meta_problem(f[4]));
  entry.count = parse_number<std::uint64_t>(f[5], "COUNT", fail_in(5));
  entry.kind_text = f[0];
  entry.kind = kind_from_log_name(f[0]);
  entry.target = f[1];
  entry.caller = f[2];
  entry.meta = f[4];
  entry.where = {file, number, 0};
  return entry;
}

// The target as Soot looks it up: types in Java source form, signatures with Soot's quoting.
std::string soot_target(const LogEntry& entry) {
  if (target_shape(entry.kind_text) == TargetShape::kType) return parse_type_name(entry.target);
  return soot_signature(parse_member_signature(entry.target));
}

std::string soot_caller(std::string_view caller) {
  const CallerName name = parse_caller(caller);
  return name.declaring_class + "." + name.method;
}

}  // namespace

TargetShape target_shape(std::string_view kind_text) {
  const auto it =
      std::lower_bound(kShapes.begin(), kShapes.end(), kind_text,
                       [](const KindShape& k, std::string_view name) { return k.kind < name; });
  if (it == kShapes.end() || it->kind != kind_text) return TargetShape::kAny;
  return it->shape;
}

bool is_soot_log_kind(std::string_view kind_text) {
  return std::find(kSootKinds.begin(), kSootKinds.end(), kind_text) != kSootKinds.end();
}

std::vector<LogEntry> parse_tamiflex_log(std::string_view text, const std::string& file) {
  std::vector<LogEntry> entries;
  std::uint64_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty()) continue;
    entries.push_back(parse_line(line, file, number));
  }
  return entries;
}

std::vector<LogEntry> read_tamiflex_log(const std::filesystem::path& path) {
  return parse_tamiflex_log(read_text_file(path, "TamiFlex log"), path.string());
}

LogWriteCounts write_tamiflex_log(const std::filesystem::path& path,
                                  std::span<const LogEntry> entries) {
  using Key = std::tuple<std::string, std::string, std::string, std::optional<std::uint32_t>>;
  struct Merged {
    std::string meta;
    std::optional<std::uint64_t> count;
  };
  std::map<Key, Merged> lines;
  LogWriteCounts counts;
  for (const LogEntry& e : entries) {
    if (!is_soot_log_kind(e.kind_text)) {
      ++counts.skipped;
      continue;
    }
    const auto invalid = [&](const std::string& message) {
      throw std::invalid_argument("TamiFlex log entry " + e.kind_text + ";" + e.target + ";" +
                                  e.caller + ": " + message);
    };
    if (const auto p = target_problem(e.kind_text, e.target)) invalid(p->message);
    if (const auto p = caller_problem(e.caller)) invalid(p->message);
    if (const auto p = meta_problem(e.meta)) invalid(p->message);
    const std::string target = soot_target(e);
    if (target.find(';') != std::string::npos) invalid("TARGET holds ';'");
    auto [it, added] = lines.try_emplace(Key{e.kind_text, target, soot_caller(e.caller), e.line},
                                         Merged{e.meta, e.count});
    if (added) continue;
    it->second.meta = std::min(it->second.meta, e.meta);
    if (!e.count) continue;
    const std::uint64_t before = it->second.count.value_or(0);
    if (before > std::numeric_limits<std::uint64_t>::max() - *e.count)
      invalid("the COUNTs of its duplicates overflow");
    it->second.count = before + *e.count;
  }
  std::vector<std::string> text;
  text.reserve(lines.size());
  for (const auto& [key, merged] : lines) {
    const auto& [kind, target, caller, line] = key;
    std::string out = kind + ";" + target + ";" + caller + ";";
    if (line) out += std::to_string(*line);
    out += ";" + merged.meta + ";";
    if (merged.count) out += std::to_string(*merged.count);
    text.push_back(std::move(out));
  }
  std::sort(text.begin(), text.end());
  AtomicOutputFile file(path);
  for (const std::string& line : text) file.stream() << line << '\n';
  file.commit();
  counts.lines = text.size();
  return counts;
}

}  // namespace refract::reflection
