// Splits bddbddb Datalog text into tokens for the parser. The language is
// line-oriented (declarations and directives end at the end of their line,
// rules may span lines), so the end of every logical line is a token of its
// own. A line ending in a backslash continues on the next one: the backslash,
// the line break and the next line's leading blanks vanish, as in bddbddb,
// which joins such lines before it tokenizes them. `//` starts a comment
// anywhere; `#` starts one only as the first non-blank character of a line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "support/error.hpp"

namespace refract::solver {

enum class TokenKind {
  kIdentifier,  // [A-Za-z_$][A-Za-z0-9_$]*, including the lone "_"
  kNumber,      // [0-9]+ (the parser converts and range-checks it)
  kString,      // "..." without escapes; text holds the contents
  kWord,        // a blank-delimited word, only from next_word()/rest_of_line()
  kLParen,
  kRParen,
  kComma,
  kColon,
  kImplies,  // :-
  kDot,
  kBang,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kStar,
  kOther,    // any other character, for "unexpected character" errors
  kNewline,  // the end of a logical line
  kEnd,      // the end of the text
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // as written; for kString the contents without quotes
  SourceLocation where;
  bool space_before = false;  // blanks, a comment or a line break precede it
};

// How a token reads in a message: 'text', "quoted", end of line, end of file.
std::string describe(const Token& token);

class Lexer {
 public:
  Lexer(std::string_view text, std::string file);

  // The next token; kNewline ends each logical line, kEnd repeats at the end.
  Token next();
  Token peek();

  // Saves and restores the position, for lookahead of several tokens.
  struct Mark {
    std::size_t pos = 0;
    std::uint64_t line = 1;
    std::uint64_t column = 1;
    bool line_start = true;
  };
  Mark mark() const { return {pos_, line_, column_, line_start_}; }
  void reset(const Mark& mark);

  // Line mode, for declarations and directives: the next blank-delimited word
  // of the current line (kWord), or a quoted one (kString); nothing at the end
  // of the line, whose kNewline is left for next().
  std::optional<Token> next_word();
  // The rest of the current line, blanks trimmed and any comment removed (kWord).
  Token rest_of_line();

  SourceLocation here() const { return {file_, line_, column_}; }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char current() const { return at_end() ? '\0' : text_[pos_]; }
  char following() const;  // the character after current(), continuations skipped
  void advance();
  void skip_continuations();
  bool at_continuation() const;
  bool at_line_comment() const;  // "//" here
  // Skips blanks and comments, never a line break; true if anything was skipped.
  bool skip_blanks();

  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  std::uint64_t line_ = 1;
  std::uint64_t column_ = 1;
  bool line_start_ = true;  // only blanks since the last line break
};

}  // namespace refract::solver
