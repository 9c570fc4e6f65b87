#include "sim/validation/cel_eval.hpp"

#include "sim/validation/re2.hpp"

#include "k8s/time.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <map>
#include <vector>

namespace c5c3::sim::validation::cel {

namespace {

// Compiled patterns of matches(), per thread; nullopt for one that does not compile.
const std::optional<re2_pattern>& cached_regex(const std::string& pattern) {
  thread_local std::map<std::string, std::optional<re2_pattern>> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    if (cache.size() > 1024) cache.clear();
    it = cache.emplace(pattern, re2_pattern::compile(pattern)).first;
  }
  return it->second;
}

value no_overload() { return value::error("no such overload"); }

bool is_num(const value& v) {
  return v.kind == value_kind::int_ || v.kind == value_kind::uint_ || v.kind == value_kind::double_;
}

// -1, 0, 1; nullopt when the two cannot be ordered.
std::optional<int> compare(const value& a, const value& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (is_num(a) && is_num(b)) {
    if (a.kind == value_kind::double_ || b.kind == value_kind::double_) {
      auto d = [](const value& v) {
        return v.kind == value_kind::double_ ? v.d
               : v.kind == value_kind::int_  ? static_cast<double>(v.i)
                                             : static_cast<double>(v.u);
      };
      double x = d(a), y = d(b);
      if (std::isnan(x) || std::isnan(y)) return std::nullopt;
      return sign(x, y);
    }
    if (a.kind == b.kind) return a.kind == value_kind::int_ ? sign(a.i, b.i) : sign(a.u, b.u);
    if (a.kind == value_kind::int_) return a.i < 0 ? -1 : sign(static_cast<std::uint64_t>(a.i), b.u);
    return b.i < 0 ? 1 : sign(a.u, static_cast<std::uint64_t>(b.i));
  }
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
    case value_kind::string:
    case value_kind::bytes: return sign(a.s, b.s);
    case value_kind::boolean: return sign(a.b, b.b);
    case value_kind::duration:
    case value_kind::timestamp: return sign(a.i, b.i);
    default: return std::nullopt;
  }
}

std::int64_t code_points(const std::string& s) {
  std::int64_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

value add_int(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return value::error("integer overflow");
  return value::integer(r);
}
value sub_int(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return value::error("integer overflow");
  return value::integer(r);
}

std::int64_t to_ns(k8s::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

class evaluator {
 public:
  evaluator(const value& self, const value* old_self) : self_(self), old_self_(old_self) {}

  value eval(const expr& e) {
    switch (e.kind) {
      case expr_kind::literal: return literal_value(e.lit);
      case expr_kind::ident: return ident(e.name);
      case expr_kind::select: return select(e);
      case expr_kind::index: return index(e);
      case expr_kind::call: return call(e);
      case expr_kind::list: {
        value_list out;
        for (auto& a : e.args) {
          auto v = eval(*a);
          if (v.is_error()) return v;
          out.push_back(std::move(v));
        }
        return value::make_list(std::move(out));
      }
      case expr_kind::map: {
        value_map out;
        for (std::size_t k = 0; k + 1 < e.args.size(); k += 2) {
          auto key = eval(*e.args[k]);
          if (key.is_error()) return key;
          auto val = eval(*e.args[k + 1]);
          if (val.is_error()) return val;
          for (auto& [k2, v2] : out)
            if (equals(k2, key).is_true()) return value::error("Failed with repeated key");
          out.emplace_back(std::move(key), std::move(val));
        }
        return value::make_map(std::move(out));
      }
      case expr_kind::cond: {
        auto c = eval(*e.args[0]);
        if (c.is_error()) return c;
        if (c.kind != value_kind::boolean) return no_overload();
        return eval(*e.args[c.b ? 1 : 2]);
      }
      case expr_kind::macro: return macro(e);
    }
    return no_overload();
  }

 private:
  static value literal_value(const literal& l) {
    switch (l.kind) {
      case literal_kind::null_: return value::null();
      case literal_kind::boolean: return value::boolean(l.b);
      case literal_kind::int_: return value::integer(l.i);
      case literal_kind::uint_: return value::uinteger(l.u);
      case literal_kind::double_: return value::dbl(l.d);
      case literal_kind::string: return value::string(l.s);
      case literal_kind::bytes: return value::bytes(l.s);
    }
    return value::null();
  }

  value ident(const std::string& name) {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == name) return it->second;
    if (name == "self") return self_;
    if (name == "oldSelf") return old_self_ ? *old_self_ : value::error("no such attribute: oldSelf");
    return value::error("no such attribute: " + name);
  }

  value select(const expr& e) {
    auto target = eval(*e.operand);
    if (target.is_error()) return target;
    if (target.kind != value_kind::map) {
      if (e.test_only) return no_overload();
      return value::error("type '" + type_name(target) + "' does not support field selection");
    }
    std::string key = target.object ? unescape_field(e.name) : e.name;
    for (auto& [k, v] : *target.map) {
      if (k.kind == value_kind::string && k.s == key) return e.test_only ? value::boolean(true) : v;
    }
    if (e.test_only) return value::boolean(false);
    return value::error("no such key: " + key);
  }

  value index(const expr& e) {
    auto target = eval(*e.operand);
    if (target.is_error()) return target;
    auto idx = eval(*e.args[0]);
    if (idx.is_error()) return idx;
    if (target.kind == value_kind::list) {
      std::int64_t i;
      if (idx.kind == value_kind::int_) i = idx.i;
      else if (idx.kind == value_kind::uint_) i = static_cast<std::int64_t>(idx.u);
      else if (idx.kind == value_kind::double_ && std::floor(idx.d) == idx.d) i = static_cast<std::int64_t>(idx.d);
      else return no_overload();
      if (i < 0 || i >= static_cast<std::int64_t>(target.list->size()))
        return value::error("index out of bounds: " + std::to_string(i));
      return (*target.list)[static_cast<std::size_t>(i)];
    }
    if (target.kind == value_kind::map) {
      for (auto& [k, v] : *target.map)
        if (equals(k, idx).is_true()) return v;
      return value::error("no such key: " + (idx.kind == value_kind::string ? idx.s : type_name(idx)));
    }
    return no_overload();
  }

  value logical(const expr& e, bool is_and) {
    auto l = eval(*e.args[0]);
    if (l.kind == value_kind::boolean && l.b != is_and) return l;  // short circuit
    auto r = eval(*e.args[1]);
    if (r.kind == value_kind::boolean && r.b != is_and) return r;
    if (l.is_error()) return l;
    if (r.is_error()) return r;
    if (l.kind != value_kind::boolean || r.kind != value_kind::boolean) return no_overload();
    return value::boolean(is_and);
  }

  value call(const expr& e) {
    const std::string& n = e.name;
    if (n == "_&&_") return logical(e, true);
    if (n == "_||_") return logical(e, false);
    std::vector<value> args;
    if (e.operand) args.push_back(eval(*e.operand));
    for (auto& a : e.args) args.push_back(eval(*a));
    for (auto& a : args)
      if (a.is_error()) return a;
    if (e.operand) return member(n, args);
    return global(n, args);
  }

  value global(const std::string& n, std::vector<value>& a) {
    if (n == "!_") return a[0].kind == value_kind::boolean ? value::boolean(!a[0].b) : no_overload();
    if (n == "-_") {
      if (a[0].kind == value_kind::int_) return sub_int(0, a[0].i);
      if (a[0].kind == value_kind::double_) return value::dbl(-a[0].d);
      if (a[0].kind == value_kind::duration) return value::duration(-a[0].i);
      return no_overload();
    }
    if (n == "_==_") return equals(a[0], a[1]);
    if (n == "_!=_") {
      auto r = equals(a[0], a[1]);
      return r.is_error() ? r : value::boolean(!r.b);
    }
    if (n == "_<_" || n == "_<=_" || n == "_>_" || n == "_>=_") {
      auto c = compare(a[0], a[1]);
      if (!c) return no_overload();
      bool r = n == "_<_" ? *c < 0 : n == "_<=_" ? *c <= 0 : n == "_>_" ? *c > 0 : *c >= 0;
      return value::boolean(r);
    }
    if (n == "@in") {
      if (a[1].kind == value_kind::list) {
        for (auto& x : *a[1].list)
          if (equals(a[0], x).is_true()) return value::boolean(true);
        return value::boolean(false);
      }
      if (a[1].kind == value_kind::map) {
        for (auto& [k, v] : *a[1].map)
          if (equals(a[0], k).is_true()) return value::boolean(true);
        return value::boolean(false);
      }
      return no_overload();
    }
    if (n == "_+_") return add(a[0], a[1]);
    if (n == "_-_") return subtract(a[0], a[1]);
    if (n == "_*_" || n == "_/_" || n == "_%_") return arith(n[1], a[0], a[1]);
    if (n == "size") return size(a[0]);
    if (n == "matches") return member("matches", a);
    if (n == "dyn") return a[0];
    if (n == "type") return value::type_value(type_name(a[0]));
    if (n == "duration") {
      if (a[0].kind == value_kind::duration) return a[0];
      if (a[0].kind == value_kind::string) {
        auto d = k8s::parse_go_duration(a[0].s);
        if (!d) return value::error("invalid duration: " + a[0].s);
        return value::duration(d->count());
      }
      return no_overload();
    }
    if (n == "timestamp") {
      if (a[0].kind == value_kind::timestamp) return a[0];
      if (a[0].kind == value_kind::string) {
        auto t = k8s::parse_rfc3339(a[0].s);
        if (!t) return value::error("invalid timestamp: " + a[0].s);
        return value::timestamp(to_ns(*t));
      }
      if (a[0].kind == value_kind::int_) return value::timestamp(a[0].i * 1000000000LL);
      return no_overload();
    }
    if (n == "int") {
      switch (a[0].kind) {
        case value_kind::int_: return a[0];
        case value_kind::uint_:
          if (a[0].u > static_cast<std::uint64_t>(INT64_MAX)) return value::error("integer overflow");
          return value::integer(static_cast<std::int64_t>(a[0].u));
        case value_kind::double_:
          if (!(a[0].d > -9.223372036854775e18 && a[0].d < 9.223372036854775e18)) return value::error("integer overflow");
          return value::integer(static_cast<std::int64_t>(a[0].d));
        case value_kind::string: {
          char* end = nullptr;
          errno = 0;
          long long v = std::strtoll(a[0].s.c_str(), &end, 10);
          if (a[0].s.empty() || *end || errno) return value::error("cannot convert '" + a[0].s + "' to int");
          return value::integer(v);
        }
        case value_kind::timestamp: {
          std::int64_t s = a[0].i / 1000000000LL;
          if (a[0].i < 0 && a[0].i % 1000000000LL) --s;
          return value::integer(s);
        }
        default: return no_overload();
      }
    }
    if (n == "uint") {
      switch (a[0].kind) {
        case value_kind::uint_: return a[0];
        case value_kind::int_:
          if (a[0].i < 0) return value::error("unsigned integer overflow");
          return value::uinteger(static_cast<std::uint64_t>(a[0].i));
        case value_kind::double_:
          if (!(a[0].d >= 0 && a[0].d < 1.8446744073709552e19)) return value::error("unsigned integer overflow");
          return value::uinteger(static_cast<std::uint64_t>(a[0].d));
        case value_kind::string: {
          char* end = nullptr;
          errno = 0;
          unsigned long long v = std::strtoull(a[0].s.c_str(), &end, 10);
          if (a[0].s.empty() || *end || errno || a[0].s[0] == '-') return value::error("cannot convert '" + a[0].s + "' to uint");
          return value::uinteger(v);
        }
        default: return no_overload();
      }
    }
    if (n == "double") {
      switch (a[0].kind) {
        case value_kind::double_: return a[0];
        case value_kind::int_: return value::dbl(static_cast<double>(a[0].i));
        case value_kind::uint_: return value::dbl(static_cast<double>(a[0].u));
        case value_kind::string: {
          char* end = nullptr;
          double v = std::strtod(a[0].s.c_str(), &end);
          if (a[0].s.empty() || *end) return value::error("cannot convert '" + a[0].s + "' to double");
          return value::dbl(v);
        }
        default: return no_overload();
      }
    }
    if (n == "string") {
      switch (a[0].kind) {
        case value_kind::string: return a[0];
        case value_kind::bytes: return value::string(a[0].s);
        case value_kind::boolean: return value::string(a[0].b ? "true" : "false");
        case value_kind::int_: return value::string(std::to_string(a[0].i));
        case value_kind::uint_: return value::string(std::to_string(a[0].u));
        case value_kind::double_: {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%g", a[0].d);
          return value::string(buf);
        }
        case value_kind::duration: {
          // cel-go prints durations as seconds with an "s" suffix.
          std::int64_t ns = a[0].i;
          std::string s = std::to_string(ns / 1000000000LL);
          std::int64_t frac = std::llabs(ns % 1000000000LL);
          if (frac) {
            char buf[16];
            std::snprintf(buf, sizeof buf, ".%09lld", static_cast<long long>(frac));
            std::string f = buf;
            while (f.back() == '0') f.pop_back();
            if (ns < 0 && ns > -1000000000LL) s = "-0";
            s += f;
          }
          return value::string(s + "s");
        }
        case value_kind::timestamp:
          return value::string(k8s::format_rfc3339(k8s::time_point(
              std::chrono::duration_cast<k8s::clock::duration>(std::chrono::nanoseconds(a[0].i)))));
        default: return no_overload();
      }
    }
    if (n == "bool") {
      if (a[0].kind == value_kind::boolean) return a[0];
      if (a[0].kind == value_kind::string) {
        static const std::vector<std::string> t = {"1", "t", "true", "TRUE", "True"};
        static const std::vector<std::string> f = {"0", "f", "false", "FALSE", "False"};
        if (std::find(t.begin(), t.end(), a[0].s) != t.end()) return value::boolean(true);
        if (std::find(f.begin(), f.end(), a[0].s) != f.end()) return value::boolean(false);
        return value::error("type conversion error from 'string' to 'bool'");
      }
      return no_overload();
    }
    if (n == "bytes") {
      if (a[0].kind == value_kind::bytes) return a[0];
      if (a[0].kind == value_kind::string) return value::bytes(a[0].s);
      return no_overload();
    }
    return value::error("unknown function: " + n);
  }

  static value size(const value& v) {
    switch (v.kind) {
      case value_kind::string: return value::integer(code_points(v.s));
      case value_kind::bytes: return value::integer(static_cast<std::int64_t>(v.s.size()));
      case value_kind::list: return value::integer(static_cast<std::int64_t>(v.list->size()));
      case value_kind::map: return value::integer(static_cast<std::int64_t>(v.map->size()));
      default: return no_overload();
    }
  }

  static value add(const value& x, const value& y) {
    if (x.kind == value_kind::int_ && y.kind == value_kind::int_) return add_int(x.i, y.i);
    if (x.kind == value_kind::uint_ && y.kind == value_kind::uint_) {
      std::uint64_t r;
      if (__builtin_add_overflow(x.u, y.u, &r)) return value::error("unsigned integer overflow");
      return value::uinteger(r);
    }
    if (x.kind == value_kind::double_ && y.kind == value_kind::double_) return value::dbl(x.d + y.d);
    if (x.kind == value_kind::string && y.kind == value_kind::string) return value::string(x.s + y.s);
    if (x.kind == value_kind::bytes && y.kind == value_kind::bytes) return value::bytes(x.s + y.s);
    if (x.kind == value_kind::list && y.kind == value_kind::list) {
      value_list out = *x.list;
      out.insert(out.end(), y.list->begin(), y.list->end());
      return value::make_list(std::move(out));
    }
    if (x.kind == value_kind::duration && y.kind == value_kind::duration) {
      auto r = add_int(x.i, y.i);
      return r.is_error() ? r : value::duration(r.i);
    }
    if ((x.kind == value_kind::timestamp && y.kind == value_kind::duration) ||
        (x.kind == value_kind::duration && y.kind == value_kind::timestamp)) {
      auto r = add_int(x.i, y.i);
      return r.is_error() ? r : value::timestamp(r.i);
    }
    return no_overload();
  }

  static value subtract(const value& x, const value& y) {
    if (x.kind == value_kind::int_ && y.kind == value_kind::int_) return sub_int(x.i, y.i);
    if (x.kind == value_kind::uint_ && y.kind == value_kind::uint_) {
      if (y.u > x.u) return value::error("unsigned integer overflow");
      return value::uinteger(x.u - y.u);
    }
    if (x.kind == value_kind::double_ && y.kind == value_kind::double_) return value::dbl(x.d - y.d);
    if (x.kind == value_kind::duration && y.kind == value_kind::duration) {
      auto r = sub_int(x.i, y.i);
      return r.is_error() ? r : value::duration(r.i);
    }
    if (x.kind == value_kind::timestamp && y.kind == value_kind::timestamp) {
      auto r = sub_int(x.i, y.i);
      return r.is_error() ? r : value::duration(r.i);
    }
    if (x.kind == value_kind::timestamp && y.kind == value_kind::duration) {
      auto r = sub_int(x.i, y.i);
      return r.is_error() ? r : value::timestamp(r.i);
    }
    return no_overload();
  }

  static value arith(char op, const value& x, const value& y) {
    if (x.kind == value_kind::int_ && y.kind == value_kind::int_) {
      if (op == '*') {
        std::int64_t r;
        if (__builtin_mul_overflow(x.i, y.i, &r)) return value::error("integer overflow");
        return value::integer(r);
      }
      if (y.i == 0) return value::error(op == '/' ? "division by zero" : "modulus by zero");
      if (x.i == INT64_MIN && y.i == -1) return value::error("integer overflow");
      return value::integer(op == '/' ? x.i / y.i : x.i % y.i);
    }
    if (x.kind == value_kind::uint_ && y.kind == value_kind::uint_) {
      if (op == '*') {
        std::uint64_t r;
        if (__builtin_mul_overflow(x.u, y.u, &r)) return value::error("unsigned integer overflow");
        return value::uinteger(r);
      }
      if (y.u == 0) return value::error(op == '/' ? "division by zero" : "modulus by zero");
      return value::uinteger(op == '/' ? x.u / y.u : x.u % y.u);
    }
    if (x.kind == value_kind::double_ && y.kind == value_kind::double_ && op != '%')
      return value::dbl(op == '*' ? x.d * y.d : x.d / y.d);
    return no_overload();
  }

  value member(const std::string& n, std::vector<value>& a) {
    const value& t = a[0];
    if (n == "size") return size(t);
    if (n == "startsWith" || n == "endsWith" || n == "contains" || n == "matches") {
      if (t.kind != value_kind::string || a[1].kind != value_kind::string) return no_overload();
      const std::string& s = t.s;
      const std::string& p = a[1].s;
      if (n == "startsWith") return value::boolean(s.rfind(p, 0) == 0);
      if (n == "endsWith") return value::boolean(s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0);
      if (n == "contains") return value::boolean(s.find(p) != std::string::npos);
      auto& re = cached_regex(p);
      if (!re) return value::error("invalid regular expression: " + p);
      return value::boolean(re->search(s));
    }
    if (n == "lowerAscii" || n == "upperAscii") {
      if (t.kind != value_kind::string) return no_overload();
      std::string s = t.s;
      for (auto& c : s) {
        if (n == "lowerAscii" && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (n == "upperAscii" && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      return value::string(s);
    }
    if (n == "trim") {
      if (t.kind != value_kind::string) return no_overload();
      auto b = t.s.find_first_not_of(" \t\n\r\f\v");
      if (b == std::string::npos) return value::string("");
      auto e = t.s.find_last_not_of(" \t\n\r\f\v");
      return value::string(t.s.substr(b, e - b + 1));
    }
    if (n == "join") {
      if (t.kind != value_kind::list) return no_overload();
      std::string sep;
      if (a.size() > 1) {
        if (a[1].kind != value_kind::string) return no_overload();
        sep = a[1].s;
      }
      std::string out;
      bool first = true;
      for (auto& x : *t.list) {
        if (x.kind != value_kind::string) return no_overload();
        if (!first) out += sep;
        first = false;
        out += x.s;
      }
      return value::string(out);
    }
    if (n == "getHours" || n == "getMinutes" || n == "getSeconds" || n == "getMilliseconds") {
      if (t.kind != value_kind::duration) return no_overload();
      std::int64_t div = n == "getHours" ? 3600000000000LL
                         : n == "getMinutes" ? 60000000000LL
                         : n == "getSeconds" ? 1000000000LL
                                             : 1000000LL;
      return value::integer(t.i / div);
    }
    return value::error("unknown function: " + n);
  }

  value macro(const expr& e) {
    auto target = eval(*e.operand);
    if (target.is_error()) return target;
    std::vector<value> elems;
    if (target.kind == value_kind::list) elems = *target.list;
    else if (target.kind == value_kind::map)
      for (auto& [k, v] : *target.map) elems.push_back(k);
    else return no_overload();

    const std::string& m = e.name;
    std::optional<value> first_error;
    std::size_t trues = 0;
    value_list out;
    for (auto& el : elems) {
      scope_.emplace_back(e.var, el);
      value r = eval(*e.args[0]);
      std::optional<value> mapped;
      if (m == "map" && e.args.size() == 1) {
        mapped = r;
      } else if (m == "map" && r.is_true()) {
        mapped = eval(*e.args[1]);
      }
      scope_.pop_back();
      if (r.is_error()) {
        if (m == "map" || m == "filter" || m == "exists_one") return r;
        if (!first_error) first_error = r;
        continue;
      }
      if (m == "map") {
        if (e.args.size() == 2 && r.kind != value_kind::boolean) return no_overload();
        if (mapped) {
          if (mapped->is_error()) return *mapped;
          out.push_back(*mapped);
        }
        continue;
      }
      if (r.kind != value_kind::boolean) return no_overload();
      if (m == "all" && !r.b) return value::boolean(false);
      if (m == "exists" && r.b) return value::boolean(true);
      if (r.b) ++trues;
      if (m == "filter" && r.b) out.push_back(el);
    }
    if (m == "map" || m == "filter") return value::make_list(std::move(out));
    if (first_error) return *first_error;
    if (m == "all") return value::boolean(true);
    if (m == "exists") return value::boolean(false);
    return value::boolean(trues == 1);  // exists_one
  }

  const value& self_;
  const value* old_self_;
  std::vector<std::pair<std::string, value>> scope_;
};

}  // namespace

value evaluate(const expr& e, const value& self, const value* old_self) {
  evaluator ev(self, old_self);
  return ev.eval(e);
}

}  // namespace c5c3::sim::validation::cel
