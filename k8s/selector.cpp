#include "k8s/selector.hpp"
#include "k8s/field_value.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace c5c3::k8s {
namespace {

using op = label_requirement::op;

bool is_key_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
         c == '/';
}
bool is_value_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

// A label key: optional DNS-subdomain prefix and '/', then a name of at most
// 63 characters starting and ending alphanumeric.
bool valid_key(std::string_view k) {
  auto slash = k.find('/');
  std::string_view name = slash == std::string_view::npos ? k : k.substr(slash + 1);
  if (slash != std::string_view::npos && (slash == 0 || slash > 253)) return false;
  if (name.empty() || name.size() > 63) return false;
  if (!std::isalnum(static_cast<unsigned char>(name.front())) ||
      !std::isalnum(static_cast<unsigned char>(name.back())))
    return false;
  return std::all_of(name.begin(), name.end(), is_value_char);
}

bool valid_value(std::string_view v) {
  if (v.empty()) return true;
  if (v.size() > 63) return false;
  if (!std::isalnum(static_cast<unsigned char>(v.front())) ||
      !std::isalnum(static_cast<unsigned char>(v.back())))
    return false;
  return std::all_of(v.begin(), v.end(), is_value_char);
}

struct lexer {
  std::string_view s;
  std::size_t pos = 0;
  void skip_ws() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool done() {
    skip_ws();
    return pos >= s.size();
  }
  bool eat(std::string_view tok) {
    skip_ws();
    if (s.substr(pos, tok.size()) == tok) {
      pos += tok.size();
      return true;
    }
    return false;
  }
  std::string word(bool (*pred)(char)) {
    skip_ws();
    std::size_t start = pos;
    while (pos < s.size() && pred(s[pos])) ++pos;
    return std::string(s.substr(start, pos - start));
  }
  // "in" / "notin" as whole words.
  bool eat_keyword(std::string_view kw) {
    skip_ws();
    if (s.substr(pos, kw.size()) != kw) return false;
    std::size_t after = pos + kw.size();
    if (after < s.size() && is_key_char(s[after])) return false;
    pos = after;
    return true;
  }
};

bool fail(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
  return false;
}

// The literal of the next token, as kube's selector lexer would name it in an error:
// a word, an operator, one other character, or "" at the end of the string.
std::string next_literal(lexer& lx) {
  lx.skip_ws();
  if (lx.pos >= lx.s.size()) return "";
  std::size_t end = lx.pos;
  while (end < lx.s.size() && is_value_char(lx.s[end])) ++end;
  if (end > lx.pos) return std::string(lx.s.substr(lx.pos, end - lx.pos));
  for (std::string_view op : {"==", "!="})
    if (lx.s.substr(lx.pos, 2) == op) return std::string(op);
  return std::string(lx.s.substr(lx.pos, 1));
}

// kube-apiserver's wording (k8s.io/apimachinery/pkg/labels, parseValues and
// parseIdentifiersList), e.g. "found '', expected: ',' or ')'".
bool parse_values(lexer& lx, std::vector<std::string>& out, std::string* error) {
  if (!lx.eat("(")) return fail(error, "found '" + next_literal(lx) + "' expected: '('");
  if (lx.eat(")")) return true;  // "in ()" parses; it matches nothing
  while (true) {
    std::string v = lx.word(is_value_char);
    if (!valid_value(v)) return fail(error, fmt::format("invalid label value: \"{}\"", v));
    out.push_back(v);
    if (lx.eat(",")) continue;
    if (lx.eat(")")) return true;
    return fail(error, "found '" + next_literal(lx) + "', expected: ',' or ')'");
  }
}

}  // namespace

bool label_requirement::matches(const std::map<std::string, std::string>& labels) const {
  auto it = labels.find(key);
  bool has = it != labels.end();
  auto in_values = [&] {
    return has && std::find(values.begin(), values.end(), it->second) != values.end();
  };
  switch (operation) {
    case op::equals:
    case op::in:
      return in_values();
    case op::not_equals:
    case op::not_in:
      return !in_values();
    case op::exists:
      return has;
    case op::does_not_exist:
      return !has;
    case op::greater_than:
    case op::less_than: {
      if (!has || values.size() != 1) return false;
      char* end = nullptr;
      long long lv = std::strtoll(it->second.c_str(), &end, 10);
      if (!end || *end) return false;
      long long rv = std::strtoll(values[0].c_str(), nullptr, 10);
      return operation == op::greater_than ? lv > rv : lv < rv;
    }
  }
  return false;
}

std::string label_requirement::to_string() const {
  auto joined = [&] {
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + values[i];
    return s;
  };
  switch (operation) {
    case op::equals: return key + "=" + (values.empty() ? "" : values[0]);
    case op::not_equals: return key + "!=" + (values.empty() ? "" : values[0]);
    case op::in: return key + " in (" + joined() + ")";
    case op::not_in: return key + " notin (" + joined() + ")";
    case op::exists: return key;
    case op::does_not_exist: return "!" + key;
    case op::greater_than: return key + ">" + joined();
    case op::less_than: return key + "<" + joined();
  }
  return key;
}

std::optional<label_selector> label_selector::parse(std::string_view text, std::string* error) {
  label_selector sel;
  lexer lx{text};
  if (lx.done()) return sel;
  while (true) {
    label_requirement r;
    bool negated = lx.eat("!");
    r.key = lx.word(is_key_char);
    if (!valid_key(r.key)) {
      fail(error, fmt::format("unable to parse requirement: invalid label key \"{}\"", r.key));
      return std::nullopt;
    }
    if (negated) {
      r.operation = op::does_not_exist;
    } else if (lx.eat("==") || lx.eat("=")) {
      r.operation = op::equals;
    } else if (lx.eat("!=")) {
      r.operation = op::not_equals;
    } else if (lx.eat(">")) {
      r.operation = op::greater_than;
    } else if (lx.eat("<")) {
      r.operation = op::less_than;
    } else if (lx.eat_keyword("notin")) {
      r.operation = op::not_in;
    } else if (lx.eat_keyword("in")) {
      r.operation = op::in;
    } else {
      r.operation = op::exists;
    }
    if (r.operation == op::equals || r.operation == op::not_equals ||
        r.operation == op::greater_than || r.operation == op::less_than) {
      std::string v = lx.word(is_value_char);
      bool numeric = r.operation == op::greater_than || r.operation == op::less_than;
      if (numeric ? (v.empty() || v.find_first_not_of("-0123456789") != std::string::npos)
                  : !valid_value(v)) {
        fail(error, fmt::format("unable to parse requirement: invalid label value: \"{}\"", v));
        return std::nullopt;
      }
      r.values.push_back(v);
    } else if (r.operation == op::in || r.operation == op::not_in) {
      std::string err;
      if (!parse_values(lx, r.values, &err)) {
        fail(error, "unable to parse requirement: " + err);
        return std::nullopt;
      }
    }
    sel.add(std::move(r));
    if (lx.done()) break;
    if (!lx.eat(",")) {
      fail(error, fmt::format("found '{}', expected: ',' or 'end of string'",
                              lx.s.substr(lx.pos, 1)));
      return std::nullopt;
    }
  }
  return sel;
}

std::optional<label_selector> label_selector::from_json(const json_value& v, std::string* error) {
  label_selector sel;
  if (v.IsNull()) return sel;
  if (!v.IsObject()) {
    fail(error, "a label selector must be an object");
    return std::nullopt;
  }
  if (const json_value* ml = member(v, "matchLabels"); ml && ml->IsObject()) {
    for (auto& m : ml->GetObject()) {
      if (!m.value.IsString()) {
        fail(error, "matchLabels values must be strings");
        return std::nullopt;
      }
      sel.add({std::string(as_string_view(m.name)), op::equals,
               {std::string(as_string_view(m.value))}});
    }
  }
  if (const json_value* me = member(v, "matchExpressions"); me && me->IsArray()) {
    for (auto& e : me->GetArray()) {
      label_requirement r;
      r.key = get_string(e, {"key"});
      std::string_view o = get_string(e, {"operator"});
      if (o == "In") r.operation = op::in;
      else if (o == "NotIn") r.operation = op::not_in;
      else if (o == "Exists") r.operation = op::exists;
      else if (o == "DoesNotExist") r.operation = op::does_not_exist;
      else {
        fail(error, fmt::format("\"{}\" is not a valid label selector operator", o));
        return std::nullopt;
      }
      if (const json_value* vals = member(e, "values"); vals && vals->IsArray())
        for (auto& x : vals->GetArray())
          if (x.IsString()) r.values.emplace_back(as_string_view(x));
      sel.add(std::move(r));
    }
  }
  return sel;
}

label_selector label_selector::equals(const std::map<std::string, std::string>& labels) {
  label_selector sel;
  for (auto& [k, v] : labels) sel.add({k, op::equals, {v}});
  return sel;
}

label_selector& label_selector::add(label_requirement r) {
  std::sort(r.values.begin(), r.values.end());
  r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
  requirements_.push_back(std::move(r));
  std::stable_sort(requirements_.begin(), requirements_.end(),
                   [](auto& a, auto& b) { return a.key < b.key; });
  return *this;
}

bool label_selector::matches(const std::map<std::string, std::string>& labels) const {
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&](auto& r) { return r.matches(labels); });
}

std::string label_selector::to_string() const {
  std::string s;
  for (std::size_t i = 0; i < requirements_.size(); ++i)
    s += (i ? "," : "") + requirements_[i].to_string();
  return s;
}

namespace {

// apimachinery's fields.splitTerms: commas split terms unless escaped (the
// backslash stays in the term).
std::vector<std::string_view> split_field_terms(std::string_view s) {
  std::vector<std::string_view> terms;
  if (s.empty()) return terms;
  std::size_t start = 0;
  bool slash = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (slash) slash = false;
    else if (s[i] == '\\') slash = true;
    else if (s[i] == ',') {
      terms.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  terms.push_back(s.substr(start));
  return terms;
}

// fields.UnescapeValue: `\\`, `\,` and `\=` only; a bare `,` or `=` is an error.
std::optional<std::string> unescape_field_value(std::string_view s, std::string* error) {
  std::string out;
  bool slash = false;
  for (char c : s) {
    if (slash) {
      if (c != '\\' && c != ',' && c != '=') {
        if (error) *error = fmt::format("invalid field selector: invalid escape sequence: \\{}", c);
        return std::nullopt;
      }
      out.push_back(c);
      slash = false;
    } else if (c == '\\') {
      slash = true;
    } else if (c == ',' || c == '=') {
      if (error) *error = fmt::format("invalid field selector: unescaped character in value: {}", int(c));
      return std::nullopt;
    } else {
      out.push_back(c);
    }
  }
  if (slash) {
    if (error) *error = "invalid field selector: invalid escape sequence: \\";
    return std::nullopt;
  }
  return out;
}

std::string escape_field_value(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == ',' || c == '=') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace

// As apimachinery's fields.ParseSelector: terms sorted, the first position
// where `!=`, `==` or `=` starts splits a term (no escaping on the left),
// escaped values on the right.
std::optional<field_selector> field_selector::parse(std::string_view text, std::string* error) {
  field_selector sel;
  auto terms = split_field_terms(text);
  std::sort(terms.begin(), terms.end());
  for (auto term : terms) {
    if (term.empty()) continue;
    std::size_t opos = std::string_view::npos, oplen = 0;
    field_requirement r;
    for (std::size_t i = 0; i < term.size() && opos == std::string_view::npos; ++i) {
      auto rest = term.substr(i);
      if (rest.substr(0, 2) == "!=") {
        r.negated = true;
        oplen = 2;
      } else if (rest.substr(0, 2) == "==") {
        oplen = 2;
      } else if (rest.front() == '=') {
        oplen = 1;
      } else {
        continue;
      }
      opos = i;
    }
    if (opos == std::string_view::npos) {
      if (error) *error = fmt::format("invalid selector: '{}'; can't understand '{}'", text, term);
      return std::nullopt;
    }
    r.field = term.substr(0, opos);
    auto value = unescape_field_value(term.substr(opos + oplen), error);
    if (!value) return std::nullopt;
    r.value = std::move(*value);
    sel.requirements_.push_back(std::move(r));
  }
  return sel;
}

std::string field_value(const object& o, std::string_view field) {
  const json_value* cur = &o.json();
  std::string_view path = field;
  while (cur && !path.empty()) {
    auto dot = path.find('.');
    cur = member(*cur, path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  if (!cur) return {};
  if (cur->IsString()) return std::string(as_string_view(*cur));
  if (cur->IsBool()) return cur->GetBool() ? "true" : "false";
  if (cur->IsInt64()) return std::to_string(cur->GetInt64());
  return {};
}

bool field_selector::matches(const object& o) const {
  for (auto& r : requirements_)
    if ((field_value(o, r.field) == r.value) == r.negated) return false;
  return true;
}

std::string field_selector::to_string() const {
  std::string s;
  for (std::size_t i = 0; i < requirements_.size(); ++i)
    s += (i ? "," : "") + requirements_[i].field + (requirements_[i].negated ? "!=" : "=") +
         escape_field_value(requirements_[i].value);
  return s;
}

}  // namespace c5c3::k8s
