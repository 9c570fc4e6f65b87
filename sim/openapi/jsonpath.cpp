#include "sim/openapi/jsonpath.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <variant>

namespace c5c3::sim::openapi {

struct jsonpath::step {
  enum class kind { field, wildcard, index, filter };
  enum class op { exists, eq, ne, lt, gt, le, ge };
  using literal = std::variant<std::string, std::int64_t, double, bool>;

  kind k = kind::field;
  std::string name;               // field
  std::int64_t idx = 0;           // index
  std::vector<step> left;         // filter: the path after "@"
  op compare = op::exists;        // filter
  literal right;                  // filter
};

namespace {

using step = jsonpath::step;

step make_step(step::kind k) {
  step st;
  st.k = k;
  return st;
}
step field_step(std::string name) {
  step st = make_step(step::kind::field);
  st.name = std::move(name);
  return st;
}
step index_step(std::int64_t idx) {
  step st = make_step(step::kind::index);
  st.idx = idx;
  return st;
}

class parser {
 public:
  explicit parser(std::string_view s) : s_(s) {}

  bool parse_path(std::vector<step>& out, bool in_filter) {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '.') {
        ++i_;
        if (peek('.')) return fail("recursive descent (..) is not supported");
        if (peek('*')) {
          ++i_;
          out.push_back(make_step(step::kind::wildcard));
          continue;
        }
        std::size_t start = i_;
        while (i_ < s_.size() && s_[i_] != '.' && s_[i_] != '[' &&
               !(in_filter && is_filter_stop(s_[i_])))
          ++i_;
        if (i_ == start) return fail("empty field name");
        out.push_back(field_step(std::string(s_.substr(start, i_ - start))));
      } else if (c == '[') {
        ++i_;
        if (!parse_bracket(out)) return false;
      } else if (in_filter) {
        return true;
      } else {
        return fail(std::string("unexpected character '") + c + "'");
      }
    }
    return true;
  }

  bool done() const { return i_ == s_.size(); }
  const std::string& error() const { return error_; }

 private:
  static bool is_filter_stop(char c) {
    return c == ' ' || c == '=' || c == '!' || c == '<' || c == '>' || c == ')';
  }
  bool peek(char c) const { return i_ < s_.size() && s_[i_] == c; }
  bool fail(std::string msg) {
    if (error_.empty()) error_ = msg + " at offset " + std::to_string(i_);
    return false;
  }
  void skip_spaces() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool expect(char c) {
    skip_spaces();
    if (!peek(c)) return fail(std::string("expected '") + c + "'");
    ++i_;
    return true;
  }

  bool parse_quoted(std::string& out) {
    char q = s_[i_++];
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
      out.push_back(s_[i_++]);
    }
    if (i_ == s_.size()) return fail("unterminated string");
    ++i_;
    return true;
  }

  bool parse_bracket(std::vector<step>& out) {
    skip_spaces();
    if (peek('*')) {
      ++i_;
      out.push_back(make_step(step::kind::wildcard));
      return expect(']');
    }
    if (peek('\'') || peek('"')) {
      step st = make_step(step::kind::field);
      if (!parse_quoted(st.name)) return false;
      out.push_back(std::move(st));
      return expect(']');
    }
    if (peek('?')) {
      ++i_;
      if (!expect('(')) return false;
      skip_spaces();
      if (!peek('@')) return fail("a filter starts with @");
      ++i_;
      step st = make_step(step::kind::filter);
      if (!parse_path(st.left, true)) return false;
      skip_spaces();
      if (peek(')')) {
        st.compare = step::op::exists;
      } else {
        if (!parse_operator(st.compare) || !parse_literal(st.right)) return false;
      }
      out.push_back(std::move(st));
      return expect(')') && expect(']');
    }
    std::int64_t n = 0;
    std::size_t start = i_;
    if (peek('-')) ++i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    auto [ptr, ec] = std::from_chars(s_.data() + start, s_.data() + i_, n);
    if (ec != std::errc() || ptr != s_.data() + i_) return fail("expected an array index");
    skip_spaces();
    if (peek(':')) return fail("array slices are not supported");
    out.push_back(index_step(n));
    return expect(']');
  }

  bool parse_operator(step::op& op) {
    skip_spaces();
    auto two = s_.substr(i_, 2);
    if (two == "==") op = step::op::eq;
    else if (two == "!=") op = step::op::ne;
    else if (two == "<=") op = step::op::le;
    else if (two == ">=") op = step::op::ge;
    else if (peek('<')) op = step::op::lt;
    else if (peek('>')) op = step::op::gt;
    else return fail("expected a comparison operator");
    i_ += (op == step::op::lt || op == step::op::gt) ? 1 : 2;
    return true;
  }

  bool parse_literal(step::literal& out) {
    skip_spaces();
    if (peek('\'') || peek('"')) {
      std::string s;
      if (!parse_quoted(s)) return false;
      out = std::move(s);
      return true;
    }
    if (s_.substr(i_, 4) == "true") {
      i_ += 4;
      out = true;
      return true;
    }
    if (s_.substr(i_, 5) == "false") {
      i_ += 5;
      out = false;
      return true;
    }
    std::size_t start = i_;
    if (peek('-')) ++i_;
    bool is_float = false;
    while (i_ < s_.size() &&
           (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e' ||
            s_[i_] == 'E' || ((s_[i_] == '+' || s_[i_] == '-') && i_ > start &&
                              (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E')))) {
      if (!std::isdigit(static_cast<unsigned char>(s_[i_]))) is_float = true;
      ++i_;
    }
    if (i_ == start) return fail("expected a literal");
    std::string text(s_.substr(start, i_ - start));
    if (is_float) {
      try {
        std::size_t used = 0;
        double d = std::stod(text, &used);
        if (used != text.size()) return fail("malformed number");
        out = d;
      } catch (...) {
        return fail("malformed number");
      }
      return true;
    }
    std::int64_t n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || ptr != text.data() + text.size()) return fail("malformed number");
    out = n;
    return true;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::string error_;
};

// Evaluation. Returns false on a type error (the whole expression then
// selects nothing, as kube's FindResults errors do).
using values = std::vector<const k8s::json_value*>;

bool eval(const std::vector<step>& steps, values current, values& out);

// -1, 0, 1; nullopt when the types cannot be compared.
std::optional<int> compare(const k8s::json_value& v, const step::literal& lit) {
  auto sign = [](auto a, auto b) { return a < b ? -1 : (b < a ? 1 : 0); };
  if (const auto* s = std::get_if<std::string>(&lit)) {
    if (!v.IsString()) return std::nullopt;
    return sign(k8s::as_string_view(v), std::string_view(*s));
  }
  if (const auto* b = std::get_if<bool>(&lit)) {
    if (!v.IsBool()) return std::nullopt;
    return sign(v.GetBool(), *b);
  }
  if (const auto* n = std::get_if<std::int64_t>(&lit)) {
    if (!v.IsInt64()) return std::nullopt;  // int64 against float64 is a Go type error
    return sign(v.GetInt64(), *n);
  }
  const double d = std::get<double>(lit);
  if (!v.IsNumber() || v.IsInt64() || v.IsUint64()) return std::nullopt;
  return sign(v.GetDouble(), d);
}

bool apply(const step& st, const values& in, values& out) {
  for (const auto* v : in) {
    switch (st.k) {
      case step::kind::field:
        if (v->IsObject())
          if (const auto* m = k8s::member(*v, st.name)) out.push_back(m);
        break;
      case step::kind::wildcard:
        if (v->IsArray()) {
          for (const auto& e : v->GetArray()) out.push_back(&e);
        } else if (v->IsObject()) {
          for (const auto& m : v->GetObject()) out.push_back(&m.value);
        }
        break;
      case step::kind::index: {
        if (!v->IsArray()) return false;
        auto n = static_cast<std::int64_t>(v->Size());
        std::int64_t i = st.idx < 0 ? st.idx + n : st.idx;
        if (i >= 0 && i < n) out.push_back(&(*v)[static_cast<rapidjson::SizeType>(i)]);
        break;
      }
      case step::kind::filter: {
        if (!v->IsArray()) return false;
        for (const auto& e : v->GetArray()) {
          values lefts;
          if (!eval(st.left, {&e}, lefts)) {
            if (st.compare == step::op::exists) continue;
            return false;
          }
          if (st.compare == step::op::exists) {
            if (!lefts.empty()) out.push_back(&e);
            continue;
          }
          if (lefts.empty()) continue;
          if (lefts.size() > 1) return false;  // "can only compare one element at a time"
          bool pass = false;
          auto c = compare(*lefts[0], st.right);
          if (!c) {
            // Go's template comparison: equality of different kinds is an
            // error, as is ordering of non-ordered kinds.
            return false;
          }
          switch (st.compare) {
            case step::op::eq: pass = *c == 0; break;
            case step::op::ne: pass = *c != 0; break;
            case step::op::lt: pass = *c < 0; break;
            case step::op::gt: pass = *c > 0; break;
            case step::op::le: pass = *c <= 0; break;
            case step::op::ge: pass = *c >= 0; break;
            case step::op::exists: break;
          }
          if (pass) out.push_back(&e);
        }
        break;
      }
    }
  }
  return true;
}

bool eval(const std::vector<step>& steps, values current, values& out) {
  for (const auto& st : steps) {
    values next;
    if (!apply(st, current, next)) return false;
    current = std::move(next);
    // A null value yields nothing further (Go's template.Indirect of nil).
  }
  out = std::move(current);
  return true;
}

}  // namespace

std::optional<jsonpath> jsonpath::parse(std::string_view expr, std::string* error) {
  // Accept "{.a.b}" and "$.a.b" as well as ".a.b".
  auto trim = [](std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
  };
  expr = trim(expr);
  if (expr.size() >= 2 && expr.front() == '{' && expr.back() == '}')
    expr = trim(expr.substr(1, expr.size() - 2));
  if (!expr.empty() && expr.front() == '$') expr.remove_prefix(1);
  if (expr.empty()) {
    if (error) *error = "empty JSONPath expression";
    return std::nullopt;
  }
  auto steps = std::make_shared<std::vector<step>>();
  parser p(expr);
  if (!p.parse_path(*steps, false) || !p.done()) {
    if (error) *error = p.error().empty() ? "malformed JSONPath expression" : p.error();
    return std::nullopt;
  }
  return jsonpath(std::move(steps));
}

std::vector<const k8s::json_value*> jsonpath::find(const k8s::json_value& root) const {
  values out;
  if (!eval(*steps_, {&root}, out)) return {};
  return out;
}

}  // namespace c5c3::sim::openapi
