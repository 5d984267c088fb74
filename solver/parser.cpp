#include "solver/parser.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <fstream>
#include <map>
#include <optional>
#include <set>
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

// Two declarations of a relation with the same attributes (names and domains, in order).
bool same_attributes(const RelationDecl& a, const RelationDecl& b) {
  if (a.attributes.size() != b.attributes.size()) return false;
  for (std::size_t i = 0; i < a.attributes.size(); ++i)
    if (a.attributes[i].name != b.attributes[i].name ||
        a.attributes[i].domain != b.attributes[i].domain ||
        a.attributes[i].instance != b.attributes[i].instance)
      return false;
  return true;
}

// ... and the same options: flags and order constraints.
bool same_options(const RelationDecl& a, const RelationDecl& b) {
  const std::set<RelationFlag> a_flags(a.flags.begin(), a.flags.end());
  const std::set<RelationFlag> b_flags(b.flags.begin(), b.flags.end());
  if (a_flags != b_flags || a.order_constraints.size() != b.order_constraints.size()) return false;
  for (std::size_t i = 0; i < a.order_constraints.size(); ++i)
    if (a.order_constraints[i].text != b.order_constraints[i].text) return false;
  return true;
}

// bddbddb's rule options that change how it evaluates a rule, never what the rule derives:
// splitting it into binary joins, its priority in the iteration order, caching before or
// after renames, searching for a better order, tracing. refract accepts and ignores them.
constexpr std::array<std::string_view, 6> kRuleHints = {
    "split", "pri", "cacheafterrename", "findbestorder", "trace", "tracefull"};

// bddbddb directives that change what is computed or produced: refract cannot honour them,
// so a program using them is rejected rather than run differently. `.dot` writes graph files
// of relations that refract does not write.
constexpr std::array<std::string_view, 1> kUnsupportedDirectives = {"dot"};

// bddbddb directives that only change its logging, how strictly it reads declarations, or how
// it evaluates (splitting rules, order search and learning, incremental evaluation, the BDD
// library's free-node threshold). Results do not depend on them, so refract accepts them with
// a warning instead of refusing programs written for bddbddb.
constexpr std::array<std::string_view, 9> kIgnoredDirectives = {
    "noisy",         "trace",          "report_stats", "singleignore", "split_all_rules",
    "findbestorder", "learnbestorder", "incremental",  "bddminfree"};

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
  std::set<std::string> hints_named;  // evaluation hints already warned about, once each
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
  void rule_options(Rule& rule);
  void skip_rule_option_number(const Token& option);
  void modified_relations(const Token& option);
  void relation_option(RelationDecl& decl, const Token& option);
  void name_hint(const SourceLocation& where, const std::string& what);
  bool query_follows(const Token& token);

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
  if (!inserted) {
    // bddbddb reports a repeated domain and goes on with the first declaration.
    const DomainDecl& first = program().domains[it->second];
    const bool same = first.size == decl.size && first.map_file == decl.map_file;
    program().warnings.push_back(
        warning(name.where, "domain '" + name.text + "' is declared again (first at " +
                                first.where.to_string() + ")" + (same ? "" : " differently") +
                                "; the first declaration holds, as in bddbddb"));
    return;
  }
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
  while (std::optional<Token> option = lexer_.next_word()) relation_option(decl, *option);
  lexer_.next();  // the line break

  auto [it, inserted] = state_.relation_index.emplace(decl.name, program().relations.size());
  if (!inserted) {
    // bddbddb's parser of the examples' time reported a repeated declaration and kept the
    // first, options and all (its later parser rejects any repeat). A repeat with other
    // attributes would make the rules written after it mean something else: an error.
    const RelationDecl& first = program().relations[it->second];
    if (!same_attributes(first, decl))
      fail(name.where, "relation '" + name.text +
                           "' is declared twice with different attributes (first at " +
                           first.where.to_string() + ")");
    program().warnings.push_back(
        warning(name.where, "relation '" + name.text + "' is declared again (first at " +
                                first.where.to_string() + "); the first declaration holds" +
                                (same_options(first, decl) ? "" : ", with its options") +
                                ", as in bddbddb"));
    return;
  }
  program().relations.push_back(std::move(decl));
}

// One option after a relation's attributes: a flag, bddbddb's `pri=N` hint, or an order
// constraint between two attributes (`a<b`: a's instance above b's; `a=b`: interleaved).
void FileParser::relation_option(RelationDecl& decl, const Token& option) {
  static const std::array<std::pair<std::string_view, RelationFlag>, 6> kFlags = {{
      {"input", RelationFlag::kInput},
      {"inputtuples", RelationFlag::kInputTuples},
      {"output", RelationFlag::kOutput},
      {"outputtuples", RelationFlag::kOutputTuples},
      {"printsize", RelationFlag::kPrintSize},
      {"printtuples", RelationFlag::kPrintTuples},
  }};
  const std::string& text = option.text;
  if (option.kind == TokenKind::kWord) {
    const auto flag = std::find_if(kFlags.begin(), kFlags.end(),
                                   [&](const auto& entry) { return entry.first == text; });
    if (flag != kFlags.end()) {
      if (!decl.has(flag->second)) decl.flags.push_back(flag->second);
      return;
    }
    if (text.rfind("pri=", 0) == 0) {
      const std::string_view number = std::string_view(text).substr(text[4] == '-' ? 5 : 4);
      if (!all_digits(number))
        fail(option.where, "relation option '" + text + "' needs a whole number after 'pri='");
      name_hint(option.where, "relation option 'pri'");
      return;
    }
    if (text == "{")
      fail(option.where,
           "relation code blocks '{ ... }' are not supported by refract (bddbddb runs their Java "
           "code whenever the relation changes)");
    const std::size_t op = text.find_first_of("<=");
    auto is_word = [](std::string_view w) {
      return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
      });
    };
    if (op != std::string::npos && is_word(std::string_view(text).substr(0, op)) &&
        is_word(std::string_view(text).substr(op + 1))) {
      // bddbddb takes the last attribute of a repeated name.
      auto attribute = [&](const std::string& attribute_name) {
        std::optional<std::size_t> found;
        for (std::size_t i = 0; i < decl.attributes.size(); ++i)
          if (decl.attributes[i].name == attribute_name) found = i;
        if (!found)
          fail(option.where, "order constraint '" + text + "' names '" + attribute_name +
                                 "', not an attribute of relation '" + decl.name + "'");
        return *found;
      };
      OrderConstraint constraint;
      constraint.left = attribute(text.substr(0, op));
      constraint.right = attribute(text.substr(op + 1));
      constraint.interleaved = text[op] == '=';
      constraint.text = text;
      constraint.where = option.where;
      decl.order_constraints.push_back(std::move(constraint));
      return;
    }
  }
  fail(option.where, "unsupported relation option " + describe(option));
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
  } else if (name.text == "strict") {
    const std::string value = lexer_.rest_of_line().text;  // bddbddb: on unless "no"/"false"
    program().strict_declarations = value != "no" && value != "false";
  } else if (contains(kUnsupportedDirectives, name.text)) {
    fail(dot.where, "directive '" + directive +
                        "' is not supported by refract (bddbddb writes .dot graphs of relations, "
                        "which refract does not)");
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
      if (const Token next = rule_peek(); next.kind == TokenKind::kGt && !next.space_before)
        fail(op.where,
             "the domain map operator '=>' is not supported by refract (bddbddb grows the "
             "right-hand domain by the elements of the left-hand one, at offsets that depend on "
             "the order its hash table lists such maps)");
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
  if (separator.kind != TokenKind::kImplies && separator.kind != TokenKind::kDot &&
      query_follows(separator))
    fail(rule_start_,
         "bddbddb queries ('...?') are not supported by refract; write a rule into "
         "a printtuples relation instead");
  if (separator.kind == TokenKind::kImplies) {
    for (;;) {
      rule.body.push_back(literal());
      const Token next = rule_next();
      if (next.kind == TokenKind::kDot) break;
      if (query_follows(next))
        fail(rule_start_,
             "bddbddb queries ('...?') are not supported by refract; write a rule "
             "into a printtuples relation instead");
      if (next.kind != TokenKind::kComma) fail_expected(next, "',' or '.' after a literal");
    }
  } else if (separator.kind != TokenKind::kDot) {
    fail_expected(separator, "':-' or '.' after the rule head");
  }
  for (const Token& token : rule_tokens_) {
    if (!rule.text.empty() && token.space_before) rule.text += ' ';
    rule.text += token.kind == TokenKind::kString ? "\"" + token.text + "\"" : token.text;
  }
  rule_options(rule);
  program().rules.push_back(std::move(rule));
}

// A bddbddb query is a line of literals ending in '?': true if `token` or the rest of its
// line is one.
bool FileParser::query_follows(const Token& token) {
  if (token.kind == TokenKind::kOther && token.text == "?") return true;
  const Lexer::Mark start = lexer_.mark();
  bool query = false;
  for (Token t = lexer_.next(); t.kind != TokenKind::kNewline && t.kind != TokenKind::kEnd;
       t = lexer_.next()) {
    if (t.kind == TokenKind::kOther && t.text == "?") query = true;
    if (t.kind == TokenKind::kDot) break;
  }
  lexer_.reset(start);
  return query;
}

void FileParser::name_hint(const SourceLocation& where, const std::string& what) {
  if (!state_.hints_named.insert(what).second) return;
  program().warnings.push_back(
      warning(where, what + " is a bddbddb evaluation hint that refract does not use"));
}

// bddbddb reads options for the rule after its '.' on the same line. Those that change how it
// evaluates the rule are accepted (and named once); `number` makes the rule a path numbering;
// those that change what it derives are errors.
void FileParser::rule_options(Rule& rule) {
  for (;;) {
    const Token option = lexer_.next();
    if (option.kind == TokenKind::kNewline || option.kind == TokenKind::kEnd) return;
    if (option.kind == TokenKind::kOther && option.text == "{")
      fail(option.where,
           "rule code blocks '{ ... }' are not supported by refract (bddbddb runs "
           "their Java code around the rule)");
    if (option.kind != TokenKind::kIdentifier)
      fail(option.where, "unexpected " + describe(option) + " after the end of the rule");
    if (contains(kRuleHints, option.text)) {
      if (option.text == "pri") skip_rule_option_number(option);
      name_hint(option.where, "rule option '" + option.text + "'");
    } else if (option.text == "modifies") {
      modified_relations(option);
      name_hint(option.where, "rule option 'modifies'");
    } else if (option.text == "number") {
      rule.numbering = option.where;
    } else if (option.text == "single") {
      fail(option.where,
           "rule option 'single' is not supported by refract (bddbddb then keeps "
           "one tuple of the rule's result, whichever the BDD yields first)");
    } else if (option.text == "pre" || option.text == "post") {
      fail(option.where, "rule option '" + option.text +
                             "' is not supported by refract (bddbddb runs its Java code block "
                             "around the rule)");
    } else {
      fail(option.where, "unknown rule option '" + option.text + "'");
    }
  }
}

// `pri=N`, `pri = N` or `pri N`, N a whole number (bddbddb's iteration priority).
void FileParser::skip_rule_option_number(const Token& option) {
  Token next = lexer_.next();
  if (next.kind == TokenKind::kEq) next = lexer_.next();
  if (next.kind == TokenKind::kOther && next.text == "-") next = lexer_.next();
  if (next.kind != TokenKind::kNumber)
    fail_expected(next, "a number after rule option '" + option.text + "'");
}

// `modifies R` or `modifies (R, S, ...)`: relations bddbddb's code blocks change. Without code
// blocks nothing changes them, so only the names are checked, as bddbddb does.
void FileParser::modified_relations(const Token& option) {
  auto relation_name = [&](const Token& name) {
    if (name.kind != TokenKind::kIdentifier)
      fail_expected(name, "a relation name after rule option '" + option.text + "'");
    if (state_.relation_index.count(name.text) == 0)
      fail(name.where, "rule option 'modifies' names relation '" + name.text +
                           "', which is not declared before it");
  };
  const Token first = lexer_.next();
  if (first.kind != TokenKind::kLParen) {
    relation_name(first);
    return;
  }
  for (;;) {
    relation_name(lexer_.next());
    const Token separator = lexer_.next();
    if (separator.kind == TokenKind::kRParen) return;
    if (separator.kind != TokenKind::kComma)
      fail_expected(separator, "',' or ')' in the relations of rule option 'modifies'");
  }
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

// Without .strict, bddbddb declares a relation a rule uses but no declaration names from that
// first use: an attribute per argument, named and typed after its variable.
void declare_implicit_relations(Program& program) {
  if (program.strict_declarations) return;
  for (const Rule& rule : program.rules) {
    std::vector<const Atom*> atoms{&rule.head};
    for (const Literal& literal : rule.body)
      if (const Atom* atom = std::get_if<Atom>(&literal)) atoms.push_back(atom);
    for (const Atom* atom : atoms) {
      if (program.find_relation(atom->relation) != nullptr) continue;
      const std::map<std::string, std::string> domains = variable_domains(program, rule);
      RelationDecl decl;
      decl.name = atom->relation;
      decl.where = atom->where;
      std::string shape;
      for (const Term& t : atom->arguments) {
        const auto domain = t.kind == Term::Kind::kVariable ? domains.find(t.text) : domains.end();
        if (domain == domains.end())
          throw InputError(t.where, "relation '" + atom->relation +
                                        "' is not declared, and this argument does not say "
                                        "the domain of its attribute (a variable of a declared "
                                        "relation's atom would)");
        decl.attributes.push_back(AttributeDecl{t.text, domain->second, std::nullopt, t.where});
        shape += (shape.empty() ? "" : ", ") + t.text + " : " + domain->second;
      }
      program.warnings.push_back(
          warning(atom->where, "relation '" + atom->relation +
                                   "' is not declared; its first use declares it, as in "
                                   "bddbddb: " +
                                   atom->relation + " (" + shape + ")"));
      program.relations.push_back(std::move(decl));
    }
  }
}

void parse_into(Program& program, std::string_view text, const std::string& display,
                const fs::path& directory, const fs::path& identity) {
  ParseState state{program, {}, {}, {}, {}};
  state.includes.push_back(IncludeFrame{identity_of(identity), display});
  FileParser(state, text, display, directory).parse();
  resolve_attribute_domains(program);
  declare_implicit_relations(program);
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
