#include "sim/validation/go_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

namespace c5c3::sim::validation {

std::string go_float(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  // Shortest round-trip digits, then Go's %v layout: %e when the exponent is
  // below -4 or at least 21, plain decimal otherwise.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  auto epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (char ch : mant)
    if (ch != '.') digits += ch;
  std::string out;
  if (exp < -4 || exp >= 21) {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += eb;
  } else if (exp < 0) {
    out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  } else if (static_cast<std::size_t>(exp) + 1 >= digits.size()) {
    out = digits + std::string(static_cast<std::size_t>(exp) + 1 - digits.size(), '0');
  } else {
    out = digits.substr(0, static_cast<std::size_t>(exp) + 1) + "." +
          digits.substr(static_cast<std::size_t>(exp) + 1);
  }
  return neg ? "-" + out : out;
}

std::string go_number(const k8s::json_value& v) {
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  return go_float(v.GetDouble());
}

namespace {
std::string json_escape(std::string_view s) {
  // encoding/json escapes <, > and & too (HTML-safe output).
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}
}  // namespace

std::string go_json(const k8s::json_value& v) {
  if (v.IsNull()) return "null";
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  if (v.IsNumber()) return go_number(v);
  if (v.IsString()) return json_escape(k8s::as_string_view(v));
  std::string out;
  if (v.IsArray()) {
    out = "[";
    bool first = true;
    for (auto& e : v.GetArray()) {
      if (!first) out += ',';
      first = false;
      out += go_json(e);
    }
    return out + "]";
  }
  std::vector<std::pair<std::string_view, const k8s::json_value*>> members;
  for (auto& m : v.GetObject()) members.emplace_back(k8s::as_string_view(m.name), &m.value);
  std::sort(members.begin(), members.end(),
            [](auto& a, auto& b) { return a.first < b.first; });
  out = "{";
  bool first = true;
  for (auto& [k, val] : members) {
    if (!first) out += ',';
    first = false;
    out += json_escape(k) + ":" + go_json(*val);
  }
  return out + "}";
}

}  // namespace c5c3::sim::validation
