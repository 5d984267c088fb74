#include "solver/parser.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/checker.hpp"
#include "solver/lexer.hpp"

namespace refract::solver {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxDomainSize = std::uint64_t{1} << 62;

// Decimal digits to a number; nothing if empty, not all digits, or too large.
std::optional<std::uint64_t> parse_decimal(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<std::string> read_whole_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return contents.str();
}

// The same file reached by different spellings has the same identity.
fs::path identity_of(const fs::path& file) {
  std::error_code error;
  fs::path canonical = fs::weakly_canonical(file, error);
  if (error) return fs::absolute(file, error).lexically_normal();
  return canonical;
}

std::string normal_directory(const fs::path& directory) {
  fs::path normal = directory.lexically_normal();
  if (normal.has_relative_path() && normal.filename().empty()) normal = normal.parent_path();
  return normal.string();
}

std::string warning(const SourceLocation& where, const std::string& message) {
  return where.to_string() + ": warning: " + message;
}

// bddbddb's rule options; refract implements none of them.
constexpr std::array<std::string_view, 11> kRuleOptions = {
    "split", "number", "single", "cacheafterrename", "findbestorder", "trace", "tracefull",
    "pri",   "pre",    "post",   "modifies"};

// bddbddb directives that change what is computed or how: refract cannot
// honour them, so a program using them is rejected rather than run differently.
constexpr std::array<std::string_view, 5> kUnsupportedDirectives = {
    "findbestorder", "incremental", "dot", "split_all_rules", "bddminfree"};

// bddbddb directives that only change its logging or how strictly it reads
// declarations. Results do not depend on them, so refract accepts them with a
// warning instead of refusing programs written for bddbddb.
constexpr std::array<std::string_view, 5> kIgnoredDirectives = {"noisy", "trace", "report_stats",
                                                                "strict", "singleignore"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct IncludeFrame {
  fs::path identity;
  std::string display;
};

// What all files of one program share while they are parsed.
struct ParseState {
  Program& program;
  std::vector<IncludeFrame> includes;  // the files being parsed, outermost first
  std::unordered_map<std::string, std::size_t> domain_index;
  std::unordered_map<std::string, std::size_t> relation_index;
};

class FileParser {
 public:
  FileParser(ParseState& state, std::string_view text, std::string display, fs::path directory)
      : state_(state), lexer_(text, std::move(display)), directory_(std::move(directory)) {}

  void parse();

 private:
  enum class Statement { kDomain, kRelation, kRule };

  Program& program() { return state_.program; }
  [[noreturn]] static void fail(const SourceLocation& where, const std::string& message) {
    throw InputError(where, message);
  }
  [[noreturn]] static void fail_expected(const Token& found, const std::string& expected);
  void end_of_line(const std::string& after);

  Statement classify();
  void domain();
  void relation();
  void directive();
  void include(const Token& directive_token);
  void base_dir();
  std::uint64_t positive_number_argument(const std::string& directive);

  // Rules may span lines: these skip line ends and record tokens for Rule::text.
  Token rule_next();
  Token rule_peek();
  void rule();
  Atom atom(const Token& first, bool negated);
  Term term(const Token& token);
  Literal literal();
  void rule_options();

  ParseState& state_;
  Lexer lexer_;
  fs::path directory_;
  std::vector<Token> rule_tokens_;
  SourceLocation rule_start_;
};

void FileParser::fail_expected(const Token& found, const std::string& expected) {
  if (found.kind == TokenKind::kOther) fail(found.where, "unexpected character " + describe(found));
  fail(found.where, "expected " + expected + ", found " + describe(found));
}

void FileParser::end_of_line(const std::string& after) {
  if (std::optional<Token> extra = lexer_.next_word())
    fail(extra->where, "unexpected " + describe(*extra) + " after " + after);
  lexer_.next();  // the line break (or the end of the text)
}

void FileParser::parse() {
  for (;;) {
    const Token token = lexer_.peek();
    switch (token.kind) {
      case TokenKind::kEnd:
        return;
      case TokenKind::kNewline:
        lexer_.next();
        break;
      case TokenKind::kDot:
        directive();
        break;
      case TokenKind::kBang:
        rule();
        break;
      case TokenKind::kIdentifier:
        switch (classify()) {
          case Statement::kDomain:
            domain();
            break;
          case Statement::kRelation:
            relation();
            break;
          case Statement::kRule:
            rule();
            break;
        }
        break;
      default:
        fail_expected(token, "a domain, relation, rule or directive");
    }
  }
}

// A line starting with a name is a domain (a size follows), a relation
// declaration (`name ( attr :`, or `name ( )` without `.`/`:-` next) or a rule.
FileParser::Statement FileParser::classify() {
  const Lexer::Mark start = lexer_.mark();
  const Token name = lexer_.next();
  const Token second = lexer_.next();
  Statement statement = Statement::kRule;
  if (second.kind == TokenKind::kNumber) {
    statement = Statement::kDomain;
  } else if (second.kind != TokenKind::kLParen) {
    fail_expected(second, "'(' after relation name '" + name.text + "'");
  } else {
    const Token third = lexer_.next();
    if (third.kind == TokenKind::kIdentifier) {
      const TokenKind fourth = lexer_.next().kind;
      if (fourth == TokenKind::kColon) {
        statement = Statement::kRelation;
      } else if (fourth == TokenKind::kIdentifier) {
        // `r (a D)`: a declaration missing its ':' unless the line goes on as a rule.
        statement = Statement::kRelation;
        for (TokenKind kind = fourth; kind != TokenKind::kNewline && kind != TokenKind::kEnd;
             kind = lexer_.next().kind)
          if (kind == TokenKind::kImplies || kind == TokenKind::kDot) statement = Statement::kRule;
      }
    } else if (third.kind == TokenKind::kRParen) {
      const TokenKind fourth = lexer_.next().kind;
      if (fourth != TokenKind::kDot && fourth != TokenKind::kImplies)
        statement = Statement::kRelation;
    }
  }
  lexer_.reset(start);
  return statement;
}

void FileParser::domain() {
  const Token name = lexer_.next();
  const std::optional<Token> size_token = lexer_.next_word();  // classify() saw a number
  if (!all_digits(size_token->text))
    fail(size_token->where, "invalid size '" + size_token->text + "' of domain '" + name.text +
                                "'; expected a decimal number");
  const std::optional<std::uint64_t> size = parse_decimal(size_token->text);
  if (!size || *size == 0 || *size > kMaxDomainSize)
    fail(size_token->where, "size " + size_token->text + " of domain '" + name.text +
                                "' is out of range; it must be between 1 and 2^62 (" +
                                std::to_string(kMaxDomainSize) + ")");
  DomainDecl decl;
  decl.name = name.text;
  decl.size = *size;
  decl.where = name.where;
  if (std::optional<Token> map = lexer_.next_word()) decl.map_file = map->text;
  end_of_line("the declaration of domain '" + name.text + "'");

  auto [it, inserted] = state_.domain_index.emplace(decl.name, program().domains.size());
  if (!inserted)
    fail(name.where, "domain '" + name.text + "' is declared twice (first at " +
                         program().domains[it->second].where.to_string() + ")");
  program().domains.push_back(std::move(decl));
}

void FileParser::relation() {
  const Token name = lexer_.next();
  lexer_.next();  // '(' (classify() saw it)
  RelationDecl decl;
  decl.name = name.text;
  decl.where = name.where;
  const std::string context = "in the declaration of relation '" + name.text + "'";
  if (lexer_.peek().kind == TokenKind::kRParen)
    fail(lexer_.peek().where, "relation '" + name.text + "' must have at least one attribute");
  for (;;) {
    const Token attribute = lexer_.next();
    if (attribute.kind != TokenKind::kIdentifier)
      fail_expected(attribute, "an attribute name " + context);
    const Token colon = lexer_.next();
    if (colon.kind != TokenKind::kColon)
      fail_expected(colon, "':' after attribute '" + attribute.text + "'");
    const Token domain = lexer_.next();
    if (domain.kind != TokenKind::kIdentifier)
      fail_expected(domain, "a domain name for attribute '" + attribute.text + "'");
    // The domain name is split into domain and instance once all domains are
    // known (see resolve_attribute_domains).
    decl.attributes.push_back(
        AttributeDecl{attribute.text, domain.text, std::nullopt, domain.where});
    const Token separator = lexer_.next();
    if (separator.kind == TokenKind::kRParen) break;
    if (separator.kind != TokenKind::kComma) fail_expected(separator, "',' or ')' " + context);
  }
  while (std::optional<Token> option = lexer_.next_word()) {
    static const std::array<std::pair<std::string_view, RelationFlag>, 6> kFlags = {{
        {"input", RelationFlag::kInput},
        {"inputtuples", RelationFlag::kInputTuples},
        {"output", RelationFlag::kOutput},
        {"outputtuples", RelationFlag::kOutputTuples},
        {"printsize", RelationFlag::kPrintSize},
        {"printtuples", RelationFlag::kPrintTuples},
    }};
    const auto flag = std::find_if(kFlags.begin(), kFlags.end(), [&](const auto& entry) {
      return option->kind == TokenKind::kWord && entry.first == option->text;
    });
    if (flag == kFlags.end())
      fail(option->where, "unsupported relation option " + describe(*option));
    if (!decl.has(flag->second)) decl.flags.push_back(flag->second);
  }
  lexer_.next();  // the line break

  auto [it, inserted] = state_.relation_index.emplace(decl.name, program().relations.size());
  if (!inserted)
    fail(name.where, "relation '" + name.text + "' is declared twice (first at " +
                         program().relations[it->second].where.to_string() + ")");
  program().relations.push_back(std::move(decl));
}

std::uint64_t FileParser::positive_number_argument(const std::string& directive) {
  const std::optional<Token> argument = lexer_.next_word();
  if (!argument) fail(lexer_.here(), "directive '" + directive + "' needs a number");
  const std::optional<std::uint64_t> value =
      argument->kind == TokenKind::kWord ? parse_decimal(argument->text) : std::nullopt;
  if (!value || *value == 0)
    fail(argument->where,
         "directive '" + directive + "' needs a positive number, found " + describe(*argument));
  return *value;
}

void FileParser::directive() {
  const Token dot = lexer_.next();
  const Token name = lexer_.peek();
  if (name.kind != TokenKind::kIdentifier || name.space_before)
    fail_expected(name, "a directive name after '.'");
  lexer_.next();
  const std::string directive = "." + name.text;
  if (name.text == "include") {
    include(dot);
  } else if (name.text == "basedir") {
    base_dir();
  } else if (name.text == "bddvarorder") {
    const Token order = lexer_.rest_of_line();
    if (order.text.empty()) fail(order.where, "directive '.bddvarorder' needs a variable order");
    program().var_order = order.text;
    program().var_order_where = order.where;
  } else if (name.text == "bddnodes") {
    program().bdd_nodes = positive_number_argument(directive);
  } else if (name.text == "bddcache") {
    program().bdd_cache = positive_number_argument(directive);
  } else if (contains(kUnsupportedDirectives, name.text)) {
    fail(dot.where, "directive '" + directive + "' is not supported by refract");
  } else if (contains(kIgnoredDirectives, name.text)) {
    program().warnings.push_back(
        warning(dot.where, "directive '" + directive + "' has no effect in refract"));
    lexer_.rest_of_line();
  } else {
    program().warnings.push_back(
        warning(dot.where, "unknown directive '" + directive + "' is ignored"));
    lexer_.rest_of_line();
  }
  end_of_line("directive '" + directive + "'");
}

void FileParser::include(const Token& directive_token) {
  const std::optional<Token> argument = lexer_.next_word();
  if (!argument) fail(lexer_.here(), "directive '.include' needs a file name");
  const fs::path name = argument->text;

  std::vector<fs::path> candidates;
  if (name.is_absolute()) {
    candidates.push_back(name);
  } else {
    candidates.push_back((directory_ / name).lexically_normal());
    if (program().base_dir) candidates.push_back((*program().base_dir / name).lexically_normal());
  }
  std::optional<fs::path> found;
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (fs::is_regular_file(candidate, error)) {
      found = candidate;
      break;
    }
  }
  if (!found) {
    std::string tried;
    for (const fs::path& candidate : candidates)
      tried += (tried.empty() ? "'" : ", '") + candidate.string() + "'";
    fail(argument->where,
         "cannot find included file '" + argument->text + "' (tried " + tried + ")");
  }

  const fs::path identity = identity_of(*found);
  const auto open =
      std::find_if(state_.includes.begin(), state_.includes.end(),
                   [&](const IncludeFrame& frame) { return frame.identity == identity; });
  if (open != state_.includes.end()) {
    std::string cycle;
    for (auto frame = open; frame != state_.includes.end(); ++frame)
      cycle += frame->display + " -> ";
    fail(directive_token.where, "include cycle: " + cycle + open->display);
  }
  const std::optional<std::string> text = read_whole_file(*found);
  if (!text) fail(argument->where, "cannot read included file '" + found->string() + "'");
  // The rest of this line is checked before the included file is parsed.
  if (std::optional<Token> extra = lexer_.next_word())
    fail(extra->where, "unexpected " + describe(*extra) + " after directive '.include'");

  state_.includes.push_back(IncludeFrame{identity, found->string()});
  FileParser(state_, *text, found->string(), found->parent_path()).parse();
  state_.includes.pop_back();
}

void FileParser::base_dir() {
  const std::optional<Token> argument = lexer_.next_word();
  if (!argument) fail(lexer_.here(), "directive '.basedir' needs a directory");
  // Relative to the folder of the file that says it (an absolute one replaces it).
  program().base_dir = normal_directory(directory_ / fs::path(argument->text));
}

Token FileParser::rule_next() {
  bool line_break = false;
  for (;;) {
    Token token = lexer_.next();
    if (token.kind == TokenKind::kNewline) {
      line_break = true;
      continue;
    }
    if (token.kind == TokenKind::kEnd)
      fail(token.where, "unexpected end of file in the rule that starts at " +
                            rule_start_.to_string() + "; a rule ends with '.'");
    token.space_before = token.space_before || line_break;
    rule_tokens_.push_back(token);
    return token;
  }
}

Token FileParser::rule_peek() {
  const Lexer::Mark start = lexer_.mark();
  Token token = lexer_.next();
  while (token.kind == TokenKind::kNewline) token = lexer_.next();
  lexer_.reset(start);
  return token;
}

Term FileParser::term(const Token& token) {
  Term term;
  term.where = token.where;
  switch (token.kind) {
    case TokenKind::kIdentifier:
      term.kind = token.text == "_" ? Term::Kind::kWildcard : Term::Kind::kVariable;
      if (term.kind == Term::Kind::kVariable) term.text = token.text;
      return term;
    case TokenKind::kStar:
      term.kind = Term::Kind::kUniverse;
      return term;
    case TokenKind::kNumber: {
      const std::optional<std::uint64_t> value = parse_decimal(token.text);
      if (!value) fail(token.where, "number " + token.text + " is too large");
      term.kind = Term::Kind::kNumber;
      term.number = *value;
      return term;
    }
    case TokenKind::kString:
      term.kind = Term::Kind::kName;
      term.text = token.text;
      return term;
    default:
      fail_expected(token, "a variable, '_', '*', a number or a quoted name");
  }
}

Atom FileParser::atom(const Token& first, bool negated) {
  Token name = first;
  if (negated) {
    name = rule_next();
    if (name.kind != TokenKind::kIdentifier) fail_expected(name, "a relation name after '!'");
  }
  Atom atom;
  atom.relation = name.text;
  atom.negated = negated;
  atom.where = name.where;
  const Token open = rule_next();
  if (open.kind != TokenKind::kLParen)
    fail_expected(open, "'(' after relation name '" + name.text + "'");
  if (rule_peek().kind == TokenKind::kRParen) {
    rule_next();
    return atom;
  }
  for (;;) {
    atom.arguments.push_back(term(rule_next()));
    const Token separator = rule_next();
    if (separator.kind == TokenKind::kRParen) return atom;
    if (separator.kind != TokenKind::kComma)
      fail_expected(separator, "',' or ')' in the arguments of '" + name.text + "'");
  }
}

Literal FileParser::literal() {
  const Token first = rule_next();
  if (first.kind == TokenKind::kBang) return atom(first, true);
  if (first.kind == TokenKind::kIdentifier && rule_peek().kind == TokenKind::kLParen)
    return atom(first, false);
  Comparison comparison;
  comparison.left = term(first);
  comparison.where = first.where;
  const Token op = rule_next();
  switch (op.kind) {
    case TokenKind::kEq:
      comparison.op = CompareOp::kEq;
      break;
    case TokenKind::kNe:
      comparison.op = CompareOp::kNe;
      break;
    case TokenKind::kLt:
      comparison.op = CompareOp::kLt;
      break;
    case TokenKind::kLe:
      comparison.op = CompareOp::kLe;
      break;
    case TokenKind::kGt:
      comparison.op = CompareOp::kGt;
      break;
    case TokenKind::kGe:
      comparison.op = CompareOp::kGe;
      break;
    default:
      fail_expected(op, first.kind == TokenKind::kIdentifier
                            ? "'(' or a comparison operator after '" + first.text + "'"
                            : "a comparison operator");
  }
  comparison.right = term(rule_next());
  return comparison;
}

void FileParser::rule() {
  rule_tokens_.clear();
  rule_start_ = lexer_.peek().where;
  Rule rule;
  rule.where = rule_start_;
  const Token first = rule_next();
  if (first.kind == TokenKind::kBang) fail(first.where, "the head of a rule cannot be negated");
  rule.head = atom(first, false);
  const Token separator = rule_next();
  if (separator.kind == TokenKind::kImplies) {
    for (;;) {
      rule.body.push_back(literal());
      const Token next = rule_next();
      if (next.kind == TokenKind::kDot) break;
      if (next.kind != TokenKind::kComma) fail_expected(next, "',' or '.' after a literal");
    }
  } else if (separator.kind != TokenKind::kDot) {
    fail_expected(separator, "':-' or '.' after the rule head");
  }
  for (const Token& token : rule_tokens_) {
    if (!rule.text.empty() && token.space_before) rule.text += ' ';
    rule.text += token.kind == TokenKind::kString ? "\"" + token.text + "\"" : token.text;
  }
  rule_options();
  program().rules.push_back(std::move(rule));
}

// bddbddb reads options for the rule after its '.' on the same line.
void FileParser::rule_options() {
  const Token option = lexer_.next();
  if (option.kind == TokenKind::kNewline || option.kind == TokenKind::kEnd) return;
  if (option.kind == TokenKind::kIdentifier && contains(kRuleOptions, option.text))
    fail(option.where, "rule option '" + option.text + "' is not supported by refract");
  if (option.kind == TokenKind::kOther && option.text == "{")
    fail(option.where, "rule code blocks '{ ... }' are not supported by refract");
  if (option.kind == TokenKind::kIdentifier)
    fail(option.where, "unknown rule option '" + option.text + "'");
  fail(option.where, "unexpected " + describe(option) + " after the end of the rule");
}

// bddbddb reads `V1` as instance 1 of domain V: trailing digits name the
// instance, unless the whole name is itself a declared domain (`H2`).
void resolve_attribute_domains(Program& program) {
  for (RelationDecl& relation : program.relations) {
    for (AttributeDecl& attribute : relation.attributes) {
      if (attribute.instance || program.find_domain(attribute.domain)) continue;
      const std::string written = attribute.domain;
      std::size_t digits = written.size();
      while (digits > 0 && written[digits - 1] >= '0' && written[digits - 1] <= '9') --digits;
      if (digits == 0 || digits == written.size()) continue;  // the checker names it
      const std::optional<std::uint64_t> instance = parse_decimal(written.substr(digits));
      if (!instance || *instance > static_cast<std::uint64_t>(INT_MAX))
        throw InputError(attribute.where,
                         "domain instance number in '" + written + "' is too large");
      attribute.domain = written.substr(0, digits);
      attribute.instance = static_cast<int>(*instance);
    }
  }
}

void parse_into(Program& program, std::string_view text, const std::string& display,
                const fs::path& directory, const fs::path& identity) {
  ParseState state{program, {}, {}, {}};
  state.includes.push_back(IncludeFrame{identity_of(identity), display});
  FileParser(state, text, display, directory).parse();
  resolve_attribute_domains(program);
  for (std::string& message : program_warnings(program))
    program.warnings.push_back(std::move(message));
}

}  // namespace

Program parse_program_file(const fs::path& file) {
  Program program;
  program.file = file.string();
  const std::optional<std::string> text = read_whole_file(file);
  if (!text) throw InputError(SourceLocation{program.file, 0, 0}, "cannot read the program file");
  parse_into(program, *text, program.file, file.parent_path(), file);
  return program;
}

Program parse_program_text(std::string_view text, const std::string& file_name,
                           const fs::path& directory) {
  Program program;
  program.file = file_name;
  parse_into(program, text, file_name, directory, directory / fs::path(file_name).filename());
  return program;
}

}  // namespace refract::solver
