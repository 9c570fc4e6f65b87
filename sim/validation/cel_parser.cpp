// Recursive-descent parser for the CEL grammar:
//   Expr     = Or ["?" Or ":" Expr]
//   Or       = And {"||" And}          And = Relation {"&&" Relation}
//   Relation = Add {("<"|"<="|">="|">"|"=="|"!="|"in") Add}
//   Add      = Mul {("+"|"-") Mul}     Mul = Unary {("*"|"/"|"%") Unary}
//   Unary    = Member | "!" {"!"} Member | "-" {"-"} Member
//   Member   = Primary {"." IDENT ["(" args ")"] | "[" Expr "]"}
//   Primary  = ["."] IDENT ["(" args ")"] | "(" Expr ")" | "[" list "]" | "{" map "}" | literal
#include "sim/validation/cel_ast.hpp"

#include <cctype>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace c5c3::sim::validation::cel {

namespace {

struct syntax_error : std::runtime_error {
  int offset;
  syntax_error(int off, const std::string& m) : std::runtime_error(m), offset(off) {}
};

enum class tok { end, ident, reserved, int_, uint_, double_, string, bytes, punct };

struct token {
  tok kind = tok::end;
  std::string text;  // identifier, punctuation or decoded string
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
  bool int_overflow = false;
  int offset = 0;
};

const std::set<std::string> reserved_words = {
    "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let",
    "loop", "package", "namespace", "return", "var", "void", "while"};

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class lexer {
 public:
  explicit lexer(const std::string& s) : src_(s) {}

  token next() {
    skip_space();
    token t;
    t.offset = static_cast<int>(pos_);
    if (pos_ >= src_.size()) return t;
    char c = src_[pos_];
    // String and bytes literals, with r/b prefixes.
    {
      std::size_t p = pos_;
      bool raw = false, bytes = false;
      for (int k = 0; k < 2 && p < src_.size(); ++k) {
        char q = src_[p];
        if ((q == 'r' || q == 'R') && !raw) {
          raw = true;
          ++p;
        } else if ((q == 'b' || q == 'B') && !bytes) {
          bytes = true;
          ++p;
        } else {
          break;
        }
      }
      if (p < src_.size() && (src_[p] == '"' || src_[p] == '\'') && (raw || bytes || p == pos_)) {
        pos_ = p;
        t.kind = bytes ? tok::bytes : tok::string;
        t.text = read_string(raw);
        return t;
      }
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t b = pos_;
      while (pos_ < src_.size() &&
             (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_'))
        ++pos_;
      t.text = src_.substr(b, pos_ - b);
      t.kind = reserved_words.count(t.text) ? tok::reserved : tok::ident;
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_ + 1])))) {
      return read_number(t);
    }
    static const char* two[] = {"==", "!=", "<=", ">=", "&&", "||"};
    for (auto* op : two) {
      if (src_.compare(pos_, 2, op) == 0) {
        pos_ += 2;
        t.kind = tok::punct;
        t.text = op;
        return t;
      }
    }
    if (std::string("+-*/%!<>?:.,()[]{}").find(c) != std::string::npos) {
      ++pos_;
      t.kind = tok::punct;
      t.text = std::string(1, c);
      return t;
    }
    throw syntax_error(t.offset, std::string("token recognition error at: '") + c + "'");
  }

 private:
  void skip_space() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  token read_number(token& t) {
    std::size_t b = pos_;
    if (src_.compare(pos_, 2, "0x") == 0 || src_.compare(pos_, 2, "0X") == 0) {
      pos_ += 2;
      std::size_t hb = pos_;
      while (pos_ < src_.size() && std::isxdigit(static_cast<unsigned char>(src_[pos_]))) ++pos_;
      if (hb == pos_) throw syntax_error(static_cast<int>(b), "malformed hex literal");
      std::string digits = src_.substr(hb, pos_ - hb);
      errno = 0;
      unsigned long long v = std::strtoull(digits.c_str(), nullptr, 16);
      bool overflow = errno == ERANGE;
      return finish_int(t, v, overflow);
    }
    while (pos_ < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_]))) ++pos_;
    bool is_double = false;
    if (pos_ + 1 < src_.size() && src_[pos_] == '.' &&
        std::isdigit(static_cast<unsigned char>(src_[pos_ + 1]))) {
      is_double = true;
      ++pos_;
      while (pos_ < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_]))) ++pos_;
    }
    if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
      std::size_t save = pos_;
      ++pos_;
      if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) ++pos_;
      if (pos_ < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_]))) {
        is_double = true;
        while (pos_ < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_]))) ++pos_;
      } else {
        pos_ = save;
      }
    }
    std::string text = src_.substr(b, pos_ - b);
    if (is_double) {
      t.kind = tok::double_;
      t.d = std::strtod(text.c_str(), nullptr);
      return t;
    }
    errno = 0;
    unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    return finish_int(t, v, errno == ERANGE);
  }

  token finish_int(token& t, unsigned long long v, bool overflow) {
    if (pos_ < src_.size() && (src_[pos_] == 'u' || src_[pos_] == 'U')) {
      ++pos_;
      if (overflow) throw syntax_error(t.offset, "uint literal out of range");
      t.kind = tok::uint_;
      t.u = v;
      return t;
    }
    t.kind = tok::int_;
    t.u = v;
    t.int_overflow = overflow || v > 9223372036854775808ULL;
    t.i = v > 9223372036854775807ULL ? 0 : static_cast<std::int64_t>(v);
    return t;
  }

  std::string read_string(bool raw) {
    int start = static_cast<int>(pos_);
    char q = src_[pos_];
    bool triple = src_.compare(pos_, 3, std::string(3, q)) == 0;
    pos_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (pos_ >= src_.size()) throw syntax_error(start, "unterminated string literal");
      char c = src_[pos_];
      if (triple ? src_.compare(pos_, 3, std::string(3, q)) == 0 : c == q) {
        pos_ += triple ? 3 : 1;
        return out;
      }
      if (!triple && c == '\n') throw syntax_error(start, "unterminated string literal");
      if (c == '\\' && !raw) {
        out += read_escape();
        continue;
      }
      out += c;
      ++pos_;
    }
  }

  std::string read_escape() {
    int at = static_cast<int>(pos_);
    ++pos_;
    if (pos_ >= src_.size()) throw syntax_error(at, "invalid escape sequence");
    char e = src_[pos_++];
    switch (e) {
      case 'a': return "\a";
      case 'b': return "\b";
      case 'f': return "\f";
      case 'n': return "\n";
      case 'r': return "\r";
      case 't': return "\t";
      case 'v': return "\v";
      case '\\': return "\\";
      case '\'': return "'";
      case '"': return "\"";
      case '`': return "`";
      case '?': return "?";
      case 'x': case 'X': case 'u': case 'U': {
        int n = (e == 'x' || e == 'X') ? 2 : e == 'u' ? 4 : 8;
        if (pos_ + static_cast<std::size_t>(n) > src_.size()) throw syntax_error(at, "invalid escape sequence");
        std::string hex = src_.substr(pos_, static_cast<std::size_t>(n));
        for (char h : hex)
          if (!std::isxdigit(static_cast<unsigned char>(h))) throw syntax_error(at, "invalid escape sequence");
        pos_ += static_cast<std::size_t>(n);
        auto cp = static_cast<std::uint32_t>(std::strtoul(hex.c_str(), nullptr, 16));
        std::string out;
        if (n == 2) out += static_cast<char>(cp);
        else append_utf8(out, cp);
        return out;
      }
      default:
        if (e >= '0' && e <= '3' && pos_ + 1 < src_.size()) {
          std::string oct = std::string(1, e) + src_.substr(pos_, 2);
          for (char o : oct)
            if (o < '0' || o > '7') throw syntax_error(at, "invalid escape sequence");
          pos_ += 2;
          return std::string(1, static_cast<char>(std::strtoul(oct.c_str(), nullptr, 8)));
        }
        throw syntax_error(at, "invalid escape sequence");
    }
  }

  const std::string& src_;
  std::size_t pos_ = 0;
};

class parser {
 public:
  explicit parser(const std::string& s) : lex_(s) { advance(); }

  expr_ptr parse_all() {
    auto e = parse_expr();
    if (cur_.kind != tok::end) fail("mismatched input '" + cur_.text + "'");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& m) { throw syntax_error(cur_.offset, m); }
  void advance() { cur_ = lex_.next(); }
  bool is(const char* p) const { return cur_.kind == tok::punct && cur_.text == p; }
  bool accept(const char* p) {
    if (!is(p)) return false;
    advance();
    return true;
  }
  void expect(const char* p) {
    if (!accept(p)) fail(std::string("expected '") + p + "'" + (cur_.kind == tok::end ? " at end of input" : " near '" + cur_.text + "'"));
  }

  static expr_ptr make_call(int off, std::string name, std::vector<expr_ptr> args, expr_ptr target = nullptr) {
    auto e = std::make_shared<expr>();
    e->kind = expr_kind::call;
    e->offset = off;
    e->name = std::move(name);
    e->args = std::move(args);
    e->operand = std::move(target);
    return e;
  }

  expr_ptr parse_expr() {
    // cel-go refuses deeper nesting too; it also keeps the recursion bounded.
    struct depth_guard {
      int& d;
      explicit depth_guard(int& x) : d(x) { ++d; }
      ~depth_guard() { --d; }
    } guard(depth_);
    if (depth_ > 100) fail("expression recursion limit exceeded: 100");
    int off = cur_.offset;
    auto c = parse_or();
    if (accept("?")) {
      auto a = parse_or();
      expect(":");
      auto b = parse_expr();
      auto e = std::make_shared<expr>();
      e->kind = expr_kind::cond;
      e->offset = off;
      e->args = {c, a, b};
      return e;
    }
    return c;
  }

  expr_ptr parse_or() {
    auto l = parse_and();
    while (is("||")) {
      int off = cur_.offset;
      advance();
      l = make_call(off, "_||_", {l, parse_and()});
    }
    return l;
  }

  expr_ptr parse_and() {
    auto l = parse_relation();
    while (is("&&")) {
      int off = cur_.offset;
      advance();
      l = make_call(off, "_&&_", {l, parse_relation()});
    }
    return l;
  }

  expr_ptr parse_relation() {
    auto l = parse_add();
    while (true) {
      int off = cur_.offset;
      std::string op;
      for (auto* p : {"<", "<=", ">=", ">", "==", "!="})
        if (is(p)) op = p;
      if (op.empty() && cur_.kind == tok::ident && cur_.text == "in") op = "in";
      if (op.empty()) return l;
      advance();
      l = make_call(off, op == "in" ? "@in" : "_" + op + "_", {l, parse_add()});
    }
  }

  expr_ptr parse_add() {
    auto l = parse_mul();
    while (is("+") || is("-")) {
      int off = cur_.offset;
      std::string op = cur_.text;
      advance();
      l = make_call(off, "_" + op + "_", {l, parse_mul()});
    }
    return l;
  }

  expr_ptr parse_mul() {
    auto l = parse_unary();
    while (is("*") || is("/") || is("%")) {
      int off = cur_.offset;
      std::string op = cur_.text;
      advance();
      l = make_call(off, "_" + op + "_", {l, parse_unary()});
    }
    return l;
  }

  expr_ptr parse_unary() {
    int off = cur_.offset;
    if (is("!")) {
      int n = 0;
      while (accept("!")) ++n;
      auto e = parse_member();
      for (int k = 0; k < n; ++k) e = make_call(off, "!_", {e});
      return e;
    }
    if (is("-")) {
      int n = 0;
      while (accept("-")) ++n;
      // -9223372036854775808 is an int literal, not a negated overflow.
      if (cur_.kind == tok::int_ && n % 2 == 1 && cur_.u == 9223372036854775808ULL) {
        auto e = std::make_shared<expr>();
        e->offset = off;
        e->lit.kind = literal_kind::int_;
        e->lit.i = INT64_MIN;
        advance();
        return parse_member_suffix(e);
      }
      auto e = parse_member();
      for (int k = 0; k < n; ++k) e = make_call(off, "-_", {e});
      return e;
    }
    return parse_member();
  }

  expr_ptr parse_member() { return parse_member_suffix(parse_primary()); }

  expr_ptr parse_member_suffix(expr_ptr e) {
    while (true) {
      int off = cur_.offset;
      if (accept(".")) {
        if (cur_.kind == tok::reserved) fail("reserved identifier: " + cur_.text);
        if (cur_.kind != tok::ident) fail("expected a field name after '.'");
        std::string name = cur_.text;
        advance();
        if (accept("(")) {
          auto args = parse_args(")");
          e = member_call(off, e, name, std::move(args));
        } else {
          auto s = std::make_shared<expr>();
          s->kind = expr_kind::select;
          s->offset = off;
          s->operand = e;
          s->name = name;
          e = s;
        }
      } else if (accept("[")) {
        auto idx = parse_expr();
        expect("]");
        auto s = std::make_shared<expr>();
        s->kind = expr_kind::index;
        s->offset = off;
        s->operand = e;
        s->args = {idx};
        e = s;
      } else if (is("?")) {
        // `?.` / `[?` optional syntax is outside the subset; a ternary '?' is handled above.
        return e;
      } else {
        return e;
      }
    }
  }

  expr_ptr member_call(int off, expr_ptr target, const std::string& name, std::vector<expr_ptr> args) {
    static const std::set<std::string> macros = {"all", "exists", "exists_one", "map", "filter"};
    if (macros.count(name) && (args.size() == 2 || (name == "map" && args.size() == 3))) {
      if (args[0]->kind != expr_kind::ident) throw syntax_error(args[0]->offset, "argument must be a simple name");
      auto m = std::make_shared<expr>();
      m->kind = expr_kind::macro;
      m->offset = off;
      m->name = name;
      m->operand = std::move(target);
      m->var = args[0]->name;
      m->args.assign(args.begin() + 1, args.end());
      return m;
    }
    return make_call(off, name, std::move(args), std::move(target));
  }

  std::vector<expr_ptr> parse_args(const char* close) {
    std::vector<expr_ptr> args;
    if (accept(close)) return args;
    while (true) {
      args.push_back(parse_expr());
      if (accept(close)) return args;
      expect(",");
      if (accept(close)) return args;  // trailing comma
    }
  }

  expr_ptr parse_primary() {
    int off = cur_.offset;
    auto e = std::make_shared<expr>();
    e->offset = off;
    switch (cur_.kind) {
      case tok::end: fail("unexpected end of input");
      case tok::reserved: fail("reserved identifier: " + cur_.text);
      case tok::int_:
        if (cur_.int_overflow || cur_.u > 9223372036854775807ULL) fail("integer literal out of range");
        e->lit.kind = literal_kind::int_;
        e->lit.i = cur_.i;
        advance();
        return e;
      case tok::uint_:
        e->lit.kind = literal_kind::uint_;
        e->lit.u = cur_.u;
        advance();
        return e;
      case tok::double_:
        e->lit.kind = literal_kind::double_;
        e->lit.d = cur_.d;
        advance();
        return e;
      case tok::string:
      case tok::bytes:
        e->lit.kind = cur_.kind == tok::string ? literal_kind::string : literal_kind::bytes;
        e->lit.s = cur_.text;
        advance();
        return e;
      case tok::ident: {
        std::string name = cur_.text;
        advance();
        if (name == "true" || name == "false") {
          e->lit.kind = literal_kind::boolean;
          e->lit.b = name == "true";
          return e;
        }
        if (name == "null") return e;
        if (name == "in") fail("unexpected 'in'");
        if (accept("(")) {
          auto args = parse_args(")");
          if (name == "has") {
            if (args.size() != 1 || args[0]->kind != expr_kind::select)
              throw syntax_error(off, "invalid argument to has() macro");
            auto s = std::make_shared<expr>(*args[0]);
            s->test_only = true;
            return s;
          }
          return make_call(off, name, std::move(args));
        }
        e->kind = expr_kind::ident;
        e->name = name;
        return e;
      }
      case tok::punct:
        break;
    }
    if (accept(".")) {
      if (cur_.kind != tok::ident) fail("expected an identifier after '.'");
      e->kind = expr_kind::ident;
      e->name = cur_.text;
      advance();
      return e;
    }
    if (accept("(")) {
      auto inner = parse_expr();
      expect(")");
      return inner;
    }
    if (accept("[")) {
      e->kind = expr_kind::list;
      e->args = parse_args("]");
      return e;
    }
    if (accept("{")) {
      e->kind = expr_kind::map;
      if (accept("}")) return e;
      while (true) {
        e->args.push_back(parse_expr());
        expect(":");
        e->args.push_back(parse_expr());
        if (accept("}")) return e;
        expect(",");
        if (accept("}")) return e;
      }
    }
    fail("unexpected '" + cur_.text + "'");
  }

  lexer lex_;
  token cur_;
  int depth_ = 0;
};

}  // namespace

expr_ptr parse(const std::string& source, std::string* error) {
  try {
    parser p(source);
    return p.parse_all();
  } catch (const syntax_error& e) {
    if (error) *error = "Syntax error at offset " + std::to_string(e.offset) + ": " + e.what();
    return nullptr;
  }
}

}  // namespace c5c3::sim::validation::cel
