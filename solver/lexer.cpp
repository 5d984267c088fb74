#include "solver/lexer.hpp"

#include <cstdio>

namespace refract::solver {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool is_identifier_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_identifier_part(char c) {
  return is_identifier_start(c) || is_digit(c);
}

std::string printable(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return std::string(1, c);
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\x%02x", byte);
  return buffer;
}

}  // namespace

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::kNewline:
      return "end of line";
    case TokenKind::kEnd:
      return "end of file";
    case TokenKind::kString:
      return "\"" + token.text + "\"";
    case TokenKind::kOther: {
      std::string out = "'";
      for (char c : token.text) out += printable(c);
      return out + "'";
    }
    default:
      return "'" + token.text + "'";
  }
}

Lexer::Lexer(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {
  skip_continuations();
}

void Lexer::reset(const Mark& mark) {
  pos_ = mark.pos;
  line_ = mark.line;
  column_ = mark.column;
  line_start_ = mark.line_start;
}

bool Lexer::at_continuation() const {
  if (at_end() || text_[pos_] != '\\') return false;
  for (std::size_t p = pos_ + 1; p < text_.size(); ++p) {
    if (text_[p] == '\n') return true;
    if (!is_blank(text_[p])) return false;
  }
  return true;  // a backslash ending the last line joins it with nothing
}

void Lexer::skip_continuations() {
  while (at_continuation()) {
    while (!at_end() && text_[pos_] != '\n') {
      ++pos_;
      ++column_;
    }
    if (at_end()) return;
    ++pos_;  // the line break
    ++line_;
    column_ = 1;
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) {
      ++pos_;
      ++column_;
    }
  }
}

void Lexer::advance() {
  if (at_end()) return;
  const char c = text_[pos_++];
  if (c == '\n') {
    ++line_;
    column_ = 1;
    line_start_ = true;
  } else {
    ++column_;
    if (!is_blank(c)) line_start_ = false;
  }
  skip_continuations();
}

char Lexer::following() const {
  Lexer copy = *this;
  copy.advance();
  return copy.current();
}

bool Lexer::at_line_comment() const {
  return current() == '/' && following() == '/';
}

bool Lexer::skip_blanks() {
  bool skipped = false;
  for (;;) {
    if (is_blank(current())) {
      advance();
    } else if ((current() == '#' && line_start_) || at_line_comment()) {
      while (!at_end() && current() != '\n') advance();
    } else {
      return skipped;
    }
    skipped = true;
  }
}

Token Lexer::next() {
  Token token;
  token.space_before = skip_blanks();
  token.where = here();
  if (at_end()) {
    token.kind = TokenKind::kEnd;
    return token;
  }
  const char c = current();
  auto single = [&](TokenKind kind) {
    token.kind = kind;
    token.text = std::string(1, c);
    advance();
    return token;
  };
  auto maybe_double = [&](char second, TokenKind one, TokenKind two) {
    token.text = std::string(1, c);
    advance();
    if (current() == second) {
      token.text += second;
      advance();
      token.kind = two;
    } else {
      token.kind = one;
    }
    return token;
  };

  if (is_identifier_start(c)) {
    token.kind = TokenKind::kIdentifier;
    while (is_identifier_part(current())) {
      token.text += current();
      advance();
    }
    return token;
  }
  if (is_digit(c)) {
    token.kind = TokenKind::kNumber;
    while (is_digit(current())) {
      token.text += current();
      advance();
    }
    return token;
  }
  switch (c) {
    case '\n':
      token.kind = TokenKind::kNewline;
      advance();
      return token;
    case '"': {
      advance();
      while (!at_end() && current() != '"' && current() != '\n') {
        token.text += current();
        advance();
      }
      if (current() != '"') throw InputError(token.where, "unterminated quoted name");
      advance();
      token.kind = TokenKind::kString;
      return token;
    }
    case '(':
      return single(TokenKind::kLParen);
    case ')':
      return single(TokenKind::kRParen);
    case ',':
      return single(TokenKind::kComma);
    case '.':
      return single(TokenKind::kDot);
    case '*':
      return single(TokenKind::kStar);
    case '=':
      return single(TokenKind::kEq);
    case ':':
      return maybe_double('-', TokenKind::kColon, TokenKind::kImplies);
    case '!':
      return maybe_double('=', TokenKind::kBang, TokenKind::kNe);
    case '<':
      return maybe_double('=', TokenKind::kLt, TokenKind::kLe);
    case '>':
      return maybe_double('=', TokenKind::kGt, TokenKind::kGe);
    default:
      return single(TokenKind::kOther);
  }
}

Token Lexer::peek() {
  const Mark saved = mark();
  Token token = next();
  reset(saved);
  return token;
}

std::optional<Token> Lexer::next_word() {
  Token token;
  token.space_before = skip_blanks();
  token.where = here();
  if (at_end() || current() == '\n') return std::nullopt;
  if (current() == '"') {
    advance();
    while (!at_end() && current() != '"' && current() != '\n') {
      token.text += current();
      advance();
    }
    if (current() != '"') throw InputError(token.where, "unterminated quoted name");
    advance();
    token.kind = TokenKind::kString;
    return token;
  }
  token.kind = TokenKind::kWord;
  while (!at_end() && current() != '\n' && !is_blank(current()) && !at_line_comment()) {
    token.text += current();
    advance();
  }
  return token;
}

Token Lexer::rest_of_line() {
  Token token;
  token.space_before = skip_blanks();
  token.where = here();
  token.kind = TokenKind::kWord;
  while (!at_end() && current() != '\n' && !at_line_comment()) {
    token.text += current();
    advance();
  }
  while (!token.text.empty() && is_blank(token.text.back())) token.text.pop_back();
  return token;
}

}  // namespace refract::solver
