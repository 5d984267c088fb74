#include "frontend/extractor_snapshot.hpp"

#include <fstream>
#include <iterator>
#include <string_view>

#include "frontend/fact_schema.hpp"
#include "support/atomic_file.hpp"
#include "support/content_hash.hpp"
#include "support/error.hpp"

namespace refract::frontend {

namespace {

constexpr std::string_view kMagic = "refract extractor snapshot 1\n";
constexpr std::size_t kChecksumSize = 32;  // ContentHash::hex()

class PayloadWriter {
 public:
  void number(std::uint64_t n) {
    while (n >= 0x80) {
      bytes_.push_back(static_cast<char>((n & 0x7f) | 0x80));
      n >>= 7;
    }
    bytes_.push_back(static_cast<char>(n));
  }
  void text(std::string_view s) {
    number(s.size());
    bytes_.append(s);
  }
  void type(const JavaType& t) {
    number(static_cast<std::uint64_t>(t.base));
    text(t.class_name);
    number(t.dims);
  }
  void optional(const std::optional<std::uint32_t>& n) {
    number(n ? 1 : 0);
    if (n) number(*n);
  }
  void sites(const std::vector<UnmodelledSite>& sites) {
    number(sites.size());
    for (const UnmodelledSite& s : sites) {
      text(s.method);
      number(s.pc);
      text(s.what);
    }
  }
  void names(const std::vector<std::string>& names) {
    number(names.size());
    for (const std::string& n : names) text(n);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class PayloadReader {
 public:
  PayloadReader(std::string_view bytes, std::uint64_t base, const std::filesystem::path& file)
      : bytes_(bytes), base_(base), file_(file) {}

  std::uint64_t number(const char* what) {
    const std::uint64_t at = offset();
    std::uint64_t n = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (pos_ == bytes_.size()) fail(at, std::string("the snapshot ends in ") + what);
      const auto byte = static_cast<std::uint8_t>(bytes_[pos_++]);
      if (shift == 63 && byte > 1) fail(at, std::string(what) + " does not fit 64 bits");
      n |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return n;
    }
  }
  // A count of items of at least `min_bytes` each, no more than the bytes left hold.
  std::uint64_t count(const char* what, std::uint64_t min_bytes = 1) {
    const std::uint64_t at = offset();
    const std::uint64_t n = number(what);
    if (n > (bytes_.size() - pos_) / min_bytes)
      fail(at, std::string(what) + " " + std::to_string(n) + " runs past the end of the file");
    return n;
  }
  std::string text(const char* what) {
    const std::uint64_t n = count(what);
    std::string out(bytes_.substr(pos_, n));
    pos_ += n;
    return out;
  }
  JavaType type() {
    const std::uint64_t at = offset();
    JavaType t;
    const std::uint64_t base = number("a type's kind");
    if (base > static_cast<std::uint64_t>(BaseKind::kReference)) fail(at, "not a type's kind");
    t.base = static_cast<BaseKind>(base);
    t.class_name = text("a type's class name");
    const std::uint64_t dims = number("a type's dimensions");
    if (dims > 255) fail(at, "a type of more than 255 dimensions");
    t.dims = static_cast<std::uint8_t>(dims);
    return t;
  }
  std::optional<std::uint32_t> optional(const char* what) {
    const std::uint64_t at = offset();
    const std::uint64_t present = number(what);
    if (present > 1) fail(at, std::string(what) + " is neither absent nor present");
    if (present == 0) return std::nullopt;
    const std::uint64_t n = number(what);
    if (n > UINT32_MAX) fail(at, std::string(what) + " does not fit 32 bits");
    return static_cast<std::uint32_t>(n);
  }
  std::vector<UnmodelledSite> sites(const char* what) {
    std::vector<UnmodelledSite> out(count(what, 3));
    for (UnmodelledSite& s : out) {
      s.method = text("a site's method");
      const std::uint64_t at = offset();
      const std::uint64_t pc = number("a site's pc");
      if (pc > UINT32_MAX) fail(at, "a site's pc does not fit 32 bits");
      s.pc = static_cast<std::uint32_t>(pc);
      s.what = text("a site's description");
    }
    return out;
  }
  std::vector<std::string> names(const char* what) {
    std::vector<std::string> out(count(what));
    for (std::string& n : out) n = text(what);
    return out;
  }
  bool flag(const char* what) {
    const std::uint64_t at = offset();
    const std::uint64_t n = number(what);
    if (n > 1) fail(at, std::string(what) + " is neither 0 nor 1");
    return n == 1;
  }
  std::uint64_t offset() const { return base_ + pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  [[noreturn]] void fail(std::uint64_t at, const std::string& message) const {
    throw InputError({file_.string()}, "at byte " + std::to_string(at) + ": " + message);
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::uint64_t base_;
  const std::filesystem::path& file_;
};

void write_facts(PayloadWriter& out, const FactDatabase& facts) {
  out.number(facts.domains().size());
  for (const FactDomain& d : facts.domains()) {
    out.text(d.name());
    out.number(facts.jdk_part_size(d.name()));
    out.names(d.names());
  }
  out.number(facts.relations().size());
  for (const FactRelation& r : facts.relations()) {
    out.text(r.name());
    out.number(r.raw_values().size());
    for (const std::uint64_t v : r.raw_values()) out.number(v);
  }
}

void read_domains(PayloadReader& in, FactDatabase& facts) {
  const std::uint64_t domains = in.count("the domain count");
  for (std::uint64_t i = 0; i < domains; ++i) {
    const std::uint64_t at = in.offset();
    const std::string name = in.text("a domain's name");
    if (!facts.has_domain(name)) in.fail(at, "the facts have no domain " + name);
    FactDomain& domain = facts.domain(name);
    if (domain.size() != 0) in.fail(at, "domain " + name + " comes twice");
    const std::uint64_t jdk_part = in.number("a domain's JDK part");
    const std::uint64_t size = in.count("a domain's size");
    domain.reserve(size);
    for (std::uint64_t e = 0; e < size; ++e) {
      const std::uint64_t element_at = in.offset();
      if (domain.intern(in.text("an element's name")) != e)
        in.fail(element_at, "an element of domain " + name + " comes twice");
    }
    if (jdk_part > size) in.fail(at, "domain " + name + "'s JDK part is larger than it");
    if (jdk_part != 0) facts.set_jdk_part_size(name, jdk_part);
  }
}

// After the domains: each value is checked against its domain's size.
void read_relations(PayloadReader& in, FactDatabase& facts) {
  const std::uint64_t relations = in.count("the relation count");
  for (std::uint64_t i = 0; i < relations; ++i) {
    const std::uint64_t at = in.offset();
    const std::string name = in.text("a relation's name");
    if (!facts.has_relation(name)) in.fail(at, "the facts have no relation " + name);
    FactRelation& relation = facts.relation(name);
    if (relation.raw_size() != 0) in.fail(at, "relation " + name + " comes twice");
    const std::uint64_t values = in.count("a relation's value count");
    if (values % relation.arity() != 0)
      in.fail(at, "relation " + name + " has values for part of a tuple");
    std::vector<std::uint64_t> limits;
    for (const FactAttribute& a : relation.attributes())
      limits.push_back(facts.domain(a.domain).size());
    std::vector<std::uint64_t> tuple(relation.arity());
    for (std::uint64_t v = 0; v < values; ++v) {
      const std::uint64_t value_at = in.offset();
      const std::size_t column = v % relation.arity();
      tuple[column] = in.number("a tuple's value");
      if (tuple[column] >= limits[column])
        in.fail(value_at, "a value of relation " + name + " is outside its domain");
      if (column + 1 == tuple.size()) relation.add(tuple);
    }
  }
}

void write_state(PayloadWriter& out, const ExtractorResumeState& state) {
  const FactCounts& c = state.counts;
  for (const std::size_t n : {c.classes, c.methods, c.methods_with_code, c.instructions,
                              c.statements, c.lambdas, c.string_concats})
    out.number(n);
  out.sites(c.unsupported_invokedynamic);
  out.sites(c.dynamic_constants);
  out.sites(c.unresolved);
  out.number(state.types.size());
  for (const JavaType& t : state.types) out.type(t);
  out.number(state.lambda_classes.size());
  for (const auto& [name, supers] : state.lambda_classes) {
    out.text(name);
    out.number(supers.size());
    for (const JavaType& t : supers) out.type(t);
  }
  out.number(state.positions.size());
  for (const InvocationPosition& p : state.positions) {
    out.optional(p.pc);
    out.optional(p.line);
  }
  out.number(state.jvm_objects ? 1 : 0);
  out.number(state.jvm_objects_added ? 1 : 0);
}

ExtractorResumeState read_state(PayloadReader& in) {
  ExtractorResumeState state;
  FactCounts& c = state.counts;
  for (std::size_t* n : {&c.classes, &c.methods, &c.methods_with_code, &c.instructions,
                         &c.statements, &c.lambdas, &c.string_concats})
    *n = in.number("a count");
  c.unsupported_invokedynamic = in.sites("the unsupported invokedynamic sites");
  c.dynamic_constants = in.sites("the dynamic constants");
  c.unresolved = in.sites("the unresolved references");
  state.types.resize(in.count("the type count", 3));
  for (JavaType& t : state.types) t = in.type();
  const std::uint64_t lambdas = in.count("the lambda class count", 2);
  for (std::uint64_t i = 0; i < lambdas; ++i) {
    std::string name = in.text("a lambda class's name");
    std::vector<JavaType> supers(in.count("a lambda class's supertype count", 3));
    for (JavaType& t : supers) t = in.type();
    state.lambda_classes.emplace(std::move(name), std::move(supers));
  }
  state.positions.resize(in.count("the position count", 2));
  for (InvocationPosition& p : state.positions) {
    p.pc = in.optional("a pc");
    p.line = in.optional("a line");
  }
  state.jvm_objects = in.flag("whether the JVM's objects are asked for");
  state.jvm_objects_added = in.flag("whether the JVM's objects are added");
  return state;
}

}  // namespace

void write_extractor_snapshot(const std::filesystem::path& file,
                              const ExtractorSnapshot& snapshot) {
  PayloadWriter payload;
  write_facts(payload, snapshot.facts);
  write_state(payload, snapshot.state);
  payload.names(snapshot.queued);
  payload.names(snapshot.loaded);
  payload.names(snapshot.phantoms);
  ContentHash hash;
  hash.add(payload.bytes());
  AtomicOutputFile out(file);
  out.stream() << kMagic << payload.bytes() << hash.hex();
  out.commit();
}

ExtractorSnapshot read_extractor_snapshot(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError({file.string()}, "cannot open the extractor snapshot");
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw InputError({file.string()}, "cannot read the extractor snapshot");
  auto fail = [&](std::uint64_t at, const std::string& message) {
    throw InputError({file.string()}, "at byte " + std::to_string(at) + ": " + message);
  };
  if (!bytes.starts_with(kMagic)) fail(0, "not an extractor snapshot");
  if (bytes.size() < kMagic.size() + kChecksumSize) fail(kMagic.size(), "no checksum");
  const std::string_view payload =
      std::string_view(bytes).substr(kMagic.size(), bytes.size() - kMagic.size() - kChecksumSize);
  ContentHash hash;
  hash.add(payload);
  if (hash.hex() != std::string_view(bytes).substr(bytes.size() - kChecksumSize))
    fail(bytes.size() - kChecksumSize, "the checksum does not match the contents");

  PayloadReader reader(payload, kMagic.size(), file);
  ExtractorSnapshot snapshot{make_fact_schema(), {}, {}, {}, {}};
  read_domains(reader, snapshot.facts);
  read_relations(reader, snapshot.facts);
  snapshot.state = read_state(reader);
  snapshot.queued = reader.names("the queued classes");
  snapshot.loaded = reader.names("the loaded classes");
  snapshot.phantoms = reader.names("the phantom classes");
  if (!reader.at_end()) fail(reader.offset(), "bytes after the snapshot");
  return snapshot;
}

}  // namespace refract::frontend
