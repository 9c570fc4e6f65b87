#include "sim/validation/cel_value.hpp"

#include "k8s/time.hpp"
#include "sim/validation/schema.hpp"

#include <cmath>
#include <set>

namespace c5c3::sim::validation::cel {

namespace {

const std::set<std::string>& escaped_keywords() {
  static const std::set<std::string> k = {
      "true",  "false",    "null", "in",     "as",     "break",   "const",     "continue",
      "else",  "for",      "function", "if", "import", "let",     "loop",      "package",
      "namespace", "return", "var", "void",  "while"};
  return k;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
}

// The numeric value of a number as a long double, for cross-type comparison.
bool is_number(const value& v) {
  return v.kind == value_kind::int_ || v.kind == value_kind::uint_ || v.kind == value_kind::double_;
}

bool number_equal(const value& a, const value& b) {
  if (a.kind == value_kind::double_ || b.kind == value_kind::double_) {
    auto as_d = [](const value& v) {
      return v.kind == value_kind::double_ ? v.d
             : v.kind == value_kind::int_  ? static_cast<double>(v.i)
                                           : static_cast<double>(v.u);
    };
    return as_d(a) == as_d(b);
  }
  if (a.kind == b.kind) return a.kind == value_kind::int_ ? a.i == b.i : a.u == b.u;
  const value& s = a.kind == value_kind::int_ ? a : b;
  const value& u = a.kind == value_kind::uint_ ? a : b;
  return s.i >= 0 && static_cast<std::uint64_t>(s.i) == u.u;
}

bool strict_equal(const value& a, const value& b);

bool lists_equal(const value& a, const value& b) {
  auto& la = *a.list;
  auto& lb = *b.list;
  if (la.size() != lb.size()) return false;
  if (!a.unordered && !b.unordered) {
    for (std::size_t k = 0; k < la.size(); ++k)
      if (!strict_equal(la[k], lb[k])) return false;
    return true;
  }
  std::vector<bool> used(lb.size(), false);
  for (auto& x : la) {
    bool found = false;
    for (std::size_t k = 0; k < lb.size() && !found; ++k)
      if (!used[k] && strict_equal(x, lb[k])) used[k] = found = true;
    if (!found) return false;
  }
  return true;
}

bool maps_equal(const value& a, const value& b) {
  if (a.map->size() != b.map->size()) return false;
  for (auto& [k, v] : *a.map) {
    bool found = false;
    for (auto& [k2, v2] : *b.map) {
      if (strict_equal(k, k2)) {
        if (!strict_equal(v, v2)) return false;
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

bool strict_equal(const value& a, const value& b) {
  if (is_number(a) && is_number(b)) return number_equal(a, b);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case value_kind::null_: return true;
    case value_kind::boolean: return a.b == b.b;
    case value_kind::string:
    case value_kind::bytes:
    case value_kind::type: return a.s == b.s;
    case value_kind::duration:
    case value_kind::timestamp: return a.i == b.i;
    case value_kind::list: return lists_equal(a, b);
    case value_kind::map: return maps_equal(a, b);
    default: return false;
  }
}

std::optional<std::string> base64_decode(std::string_view in) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  std::string out;
  int bits = 0, acc = 0;
  for (char c : in) {
    if (c == '=') break;
    int v = val(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

value number_from_json(const k8s::json_value& v, bool want_int) {
  if (v.IsInt64()) return value::integer(v.GetInt64());
  if (v.IsUint64()) return value::uinteger(v.GetUint64());
  double d = v.GetDouble();
  if (want_int && std::floor(d) == d && std::fabs(d) < 9.2e18) return value::integer(static_cast<std::int64_t>(d));
  return value::dbl(d);
}

value string_from_json(const k8s::json_value& v, const std::string& format) {
  std::string s(k8s::as_string_view(v));
  if (format == "duration") {
    auto d = k8s::parse_go_duration(s);
    if (!d) return value::error("invalid duration: " + s);
    return value::duration(d->count());
  }
  if (format == "date-time") {
    auto t = k8s::parse_rfc3339(s);
    if (!t) return value::error("invalid date-time: " + s);
    return value::timestamp(std::chrono::duration_cast<std::chrono::nanoseconds>(t->time_since_epoch()).count());
  }
  if (format == "date") {
    auto t = k8s::parse_rfc3339(s + "T00:00:00Z");
    if (!t) return value::error("invalid date: " + s);
    return value::timestamp(std::chrono::duration_cast<std::chrono::nanoseconds>(t->time_since_epoch()).count());
  }
  if (format == "byte") {
    auto b = base64_decode(s);
    if (!b) return value::error("invalid base64: " + s);
    return value::bytes(*b);
  }
  return value::string(std::move(s));
}

}  // namespace

std::string unescape_field(const std::string& name) {
  if (name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0) {
    std::string inner = name.substr(2, name.size() - 4);
    if (escaped_keywords().count(inner)) return inner;
  }
  std::string out = name;
  replace_all(out, "__underscores__", "\x01");
  replace_all(out, "__dot__", ".");
  replace_all(out, "__dash__", "-");
  replace_all(out, "__slash__", "/");
  replace_all(out, "\x01", "__");
  return out;
}

std::string escape_field(const std::string& name) {
  if (name.empty()) return {};
  auto ok_first = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '/';
  };
  if (!ok_first(name[0])) return {};
  for (char c : name)
    if (!(ok_first(c) || std::isdigit(static_cast<unsigned char>(c)))) return {};
  if (escaped_keywords().count(name)) return "__" + name + "__";
  std::string out;
  for (std::size_t k = 0; k < name.size(); ++k) {
    char c = name[k];
    if (c == '_' && k + 1 < name.size() && name[k + 1] == '_') {
      out += "__underscores__";
      ++k;
    } else if (c == '.') {
      out += "__dot__";
    } else if (c == '-') {
      out += "__dash__";
    } else if (c == '/') {
      out += "__slash__";
    } else {
      out += c;
    }
  }
  return out;
}

std::string type_name(const value& v) {
  switch (v.kind) {
    case value_kind::null_: return "null_type";
    case value_kind::boolean: return "bool";
    case value_kind::int_: return "int";
    case value_kind::uint_: return "uint";
    case value_kind::double_: return "double";
    case value_kind::string: return "string";
    case value_kind::bytes: return "bytes";
    case value_kind::list: return "list";
    case value_kind::map: return "map";
    case value_kind::duration: return "google.protobuf.Duration";
    case value_kind::timestamp: return "google.protobuf.Timestamp";
    case value_kind::type: return "type";
    case value_kind::error: return "error";
  }
  return "unknown";
}

value equals(const value& a, const value& b) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  return value::boolean(strict_equal(a, b));
}

value from_json(const k8s::json_value& v, const schema_node* schema, bool resource_root) {
  if (v.IsNull()) return value::null();
  if (v.IsBool()) return value::boolean(v.GetBool());
  if (v.IsNumber()) {
    if (schema && schema->type == "number") return value::dbl(v.GetDouble());
    return number_from_json(v, true);
  }
  if (v.IsString()) return string_from_json(v, schema ? schema->format : std::string());
  if (v.IsArray()) {
    value_list out;
    const schema_node* items = schema ? schema->items.get() : nullptr;
    for (auto& e : v.GetArray()) out.push_back(from_json(e, items));
    bool unordered = schema && (schema->list_type == "set" || schema->list_type == "map");
    return value::make_list(std::move(out), unordered);
  }
  value_map out;
  bool object = schema && !schema->additional_properties &&
                !(schema->preserve_unknown_fields && schema->properties.empty());
  for (auto& m : v.GetObject()) {
    std::string key(k8s::as_string_view(m.name));
    const schema_node* child = nullptr;
    if (resource_root && (key == "apiVersion" || key == "kind")) {
      child = nullptr;
    } else if (resource_root && key == "metadata") {
      value_map meta;
      if (m.value.IsObject()) {
        for (auto* f : {"name", "generateName"}) {
          auto it = m.value.FindMember(f);
          if (it != m.value.MemberEnd() && it->value.IsString())
            meta.emplace_back(value::string(f), value::string(std::string(k8s::as_string_view(it->value))));
        }
      }
      out.emplace_back(value::string(key), value::make_map(std::move(meta), true));
      continue;
    } else if (schema) {
      child = schema->property(key);
      if (!child && schema->additional_properties) child = schema->additional_properties.get();
      if (!child && !schema->preserve_unknown_fields && !schema->embedded_resource) continue;
    }
    out.emplace_back(value::string(key), from_json(m.value, child));
  }
  return value::make_map(std::move(out), object);
}

}  // namespace c5c3::sim::validation::cel
