#include "sim/validation/cel_check.hpp"

#include "sim/validation/cel_value.hpp"
#include "sim/validation/re2.hpp"
#include "sim/validation/schema.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace c5c3::sim::validation::cel {

const schema_node& string_schema() {
  static const schema_node s = [] {
    schema_node n;
    n.type = "string";
    return n;
  }();
  return s;
}

const schema_node& root_metadata_schema() {
  static const schema_node s = [] {
    schema_node n;
    n.type = "object";
    n.properties["name"].type = "string";
    n.properties["generateName"].type = "string";
    return n;
  }();
  return s;
}

namespace {

struct check_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Static CEL types; dyn is "not known before run time".
enum class ct { dyn, null_, bool_, int_, uint_, double_, string, bytes, duration, timestamp, list, map, type };

std::string name_of(ct t) {
  switch (t) {
    case ct::dyn: return "dyn";
    case ct::null_: return "null_type";
    case ct::bool_: return "bool";
    case ct::int_: return "int";
    case ct::uint_: return "uint";
    case ct::double_: return "double";
    case ct::string: return "string";
    case ct::bytes: return "bytes";
    case ct::duration: return "google.protobuf.Duration";
    case ct::timestamp: return "google.protobuf.Timestamp";
    case ct::list: return "list";
    case ct::map: return "map";
    case ct::type: return "type";
  }
  return "dyn";
}

bool numeric(ct t) { return t == ct::int_ || t == ct::uint_ || t == ct::double_; }

// What the checker knows about an expression.
struct info {
  const schema_node* node = nullptr;  // the schema of the value, when it is one of self's
  bool root = false;                  // a resource root (apiVersion, kind, metadata implicit)
  ct type = ct::dyn;
  ct elem = ct::dyn;  // list element / map value type
};

ct type_of(const schema_node* n) {
  if (!n || n->int_or_string) return ct::dyn;
  if (n->type == "string") {
    if (n->format == "duration") return ct::duration;
    if (n->format == "date-time" || n->format == "date") return ct::timestamp;
    if (n->format == "byte") return ct::bytes;
    return ct::string;
  }
  if (n->type == "integer") return ct::int_;
  if (n->type == "number") return ct::double_;
  if (n->type == "boolean") return ct::bool_;
  if (n->type == "array") return ct::list;
  if (n->type == "object") return ct::map;
  return ct::dyn;
}

info of_node(const schema_node* n, bool root = false) {
  info i;
  i.node = n;
  i.root = root;
  i.type = type_of(n);
  if (n && n->items) i.elem = type_of(n->items.get());
  if (n && n->additional_properties) i.elem = type_of(n->additional_properties.get());
  return i;
}

info of_type(ct t, ct elem = ct::dyn) {
  info i;
  i.type = t;
  i.elem = elem;
  return i;
}

// Global functions: name -> accepted argument counts.
const std::map<std::string, std::set<std::size_t>>& global_functions() {
  static const std::map<std::string, std::set<std::size_t>> f = {
      {"size", {1}},      {"duration", {1}}, {"timestamp", {1}}, {"int", {1}},
      {"uint", {1}},      {"double", {1}},   {"string", {1}},    {"bool", {1}},
      {"bytes", {1}},     {"dyn", {1}},      {"type", {1}},
      {"_||_", {2}},      {"_&&_", {2}},     {"!_", {1}},        {"-_", {1}},
      {"_==_", {2}},      {"_!=_", {2}},     {"_<_", {2}},       {"_<=_", {2}},
      {"_>_", {2}},       {"_>=_", {2}},     {"@in", {2}},       {"_+_", {2}},
      {"_-_", {2}},       {"_*_", {2}},      {"_/_", {2}},       {"_%_", {2}},
      {"matches", {2}}};
  return f;
}

// Member functions: name -> accepted argument counts (the target not counted).
const std::map<std::string, std::set<std::size_t>>& member_functions() {
  static const std::map<std::string, std::set<std::size_t>> f = {
      {"size", {0}},       {"startsWith", {1}},   {"endsWith", {1}},      {"contains", {1}},
      {"matches", {1}},    {"lowerAscii", {0}},   {"upperAscii", {0}},    {"trim", {0}},
      {"join", {0, 1}},    {"getHours", {0}},     {"getMinutes", {0}},    {"getSeconds", {0}},
      {"getMilliseconds", {0}}};
  return f;
}

class checker {
 public:
  checker(const schema_node& self, bool root, bool old_self_allowed)
      : self_(of_node(&self, root)), old_self_allowed_(old_self_allowed) {}

  bool uses_old_self = false;

  info run(const expr& e) {
    switch (e.kind) {
      case expr_kind::literal: return of_type(literal_type(e.lit));
      case expr_kind::ident: return ident(e);
      case expr_kind::select: return select(e);
      case expr_kind::index: return index(e);
      case expr_kind::call: return call(e);
      case expr_kind::list: {
        ct elem = ct::dyn;
        bool first = true;
        for (auto& a : e.args) {
          ct t = run(*a).type;
          elem = first ? t : (elem == t ? elem : ct::dyn);
          first = false;
        }
        return of_type(ct::list, elem);
      }
      case expr_kind::map:
        for (auto& a : e.args) run(*a);
        return of_type(ct::map);
      case expr_kind::cond: {
        auto c = run(*e.args[0]);
        if (c.type != ct::bool_ && c.type != ct::dyn)
          fail(e.offset, "found no matching overload for '_?_:_' applied to '(" + name_of(c.type) + ", ...)'");
        auto a = run(*e.args[1]);
        auto b = run(*e.args[2]);
        if (a.type == b.type) return a.node == b.node ? a : of_type(a.type, a.elem == b.elem ? a.elem : ct::dyn);
        return {};
      }
      case expr_kind::macro: return macro(e);
    }
    return {};
  }

  [[noreturn]] static void fail(int offset, const std::string& m) {
    throw check_failure("offset " + std::to_string(offset) + ": " + m);
  }

 private:
  static ct literal_type(const literal& l) {
    switch (l.kind) {
      case literal_kind::null_: return ct::null_;
      case literal_kind::boolean: return ct::bool_;
      case literal_kind::int_: return ct::int_;
      case literal_kind::uint_: return ct::uint_;
      case literal_kind::double_: return ct::double_;
      case literal_kind::string: return ct::string;
      case literal_kind::bytes: return ct::bytes;
    }
    return ct::dyn;
  }

  info ident(const expr& e) {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == e.name) return it->second;
    if (e.name == "self") return self_;
    if (e.name == "oldSelf") {
      if (!old_self_allowed_)
        fail(e.offset, "oldSelf cannot be used on the uncorrelatable portion of the schema");
      uses_old_self = true;
      return self_;
    }
    fail(e.offset, "undeclared reference to '" + e.name + "'");
  }

  info select(const expr& e) {
    auto in = run(*e.operand);
    info out = field(in, e.name, e.offset);
    if (e.test_only) return of_type(ct::bool_);
    return out;
  }

  info field(const info& in, const std::string& name, int offset) {
    if (in.type != ct::map && in.type != ct::dyn)
      fail(offset, "type '" + name_of(in.type) + "' does not support field selection");
    const schema_node* n = in.node;
    if (!n) return {};
    if (in.root) {
      if (name == "apiVersion" || name == "kind") return of_node(&string_schema());
      if (name == "metadata") return of_node(&root_metadata_schema());
    }
    if (n->preserve_unknown_fields || n->int_or_string || n->embedded_resource) {
      if (auto* p = n->property(unescape_field(name))) return of_node(p);
      return {};
    }
    if (n->additional_properties) return of_node(n->additional_properties.get());
    if (n->type == "object") {
      for (auto& [pname, pnode] : n->properties)
        if (escape_field(pname) == name) return of_node(&pnode);
      fail(offset, "undefined field '" + name + "'");
    }
    return {};
  }

  info index(const expr& e) {
    auto in = run(*e.operand);
    auto idx = run(*e.args[0]);
    if (in.type == ct::list) {
      if (idx.type != ct::dyn && !numeric(idx.type))
        fail(e.offset, "found no matching overload for '_[_]' applied to '(list, " + name_of(idx.type) + ")'");
      return in.node && in.node->items ? of_node(in.node->items.get()) : of_type(in.elem);
    }
    if (in.type == ct::map) {
      if (in.node && in.node->additional_properties) return of_node(in.node->additional_properties.get());
      return of_type(in.elem);
    }
    if (in.type != ct::dyn)
      fail(e.offset, "found no matching overload for '_[_]' applied to '(" + name_of(in.type) + ", " + name_of(idx.type) + ")'");
    return {};
  }

  static std::string signature(const std::string& fn, const std::vector<ct>& args, bool member) {
    std::string s = "found no matching overload for '" + fn + "' applied to '";
    std::size_t k = 0;
    if (member) s += name_of(args[k++]) + ".";
    s += "(";
    for (bool first = true; k < args.size(); ++k, first = false) s += (first ? "" : ", ") + name_of(args[k]);
    return s + ")'";
  }

  info call(const expr& e) {
    std::vector<ct> t;
    std::vector<info> in;
    if (e.operand) in.push_back(run(*e.operand));
    for (auto& a : e.args) in.push_back(run(*a));
    for (auto& i : in) t.push_back(i.type);
    auto& table = e.operand ? member_functions() : global_functions();
    auto it = table.find(e.name);
    if (it == table.end())
      fail(e.offset, "function '" + e.name + "' is outside the CEL subset this emulator supports");
    if (!it->second.count(e.args.size()))
      fail(e.offset, "found no matching overload for '" + e.name + "' with " + std::to_string(e.args.size()) +
                         " argument(s)");
    auto r = e.operand ? member_type(e, t, in) : global_type(e.name, t, in);
    if (!r) fail(e.offset, signature(e.name, t, e.operand != nullptr));
    if (e.name == "matches") {
      const expr& pat = *e.args.back();
      if (pat.kind == expr_kind::literal && pat.lit.kind == literal_kind::string) {
        std::string err;
        if (!re2_pattern::compile(pat.lit.s, &err)) fail(pat.offset, "invalid regular expression: " + err);
      }
    }
    return *r;
  }

  // The result type of a global function or operator, nullopt when no overload accepts the arguments.
  static std::optional<info> global_type(const std::string& n, const std::vector<ct>& t, const std::vector<info>& in) {
    auto is = [](ct x, std::initializer_list<ct> ok) {
      if (x == ct::dyn) return true;
      for (auto o : ok)
        if (x == o) return true;
      return false;
    };
    auto known = [](ct x) { return x != ct::dyn; };
    if (n == "_||_" || n == "_&&_")
      return is(t[0], {ct::bool_}) && is(t[1], {ct::bool_}) ? std::optional(of_type(ct::bool_)) : std::nullopt;
    if (n == "!_") return is(t[0], {ct::bool_}) ? std::optional(of_type(ct::bool_)) : std::nullopt;
    if (n == "-_") return is(t[0], {ct::int_, ct::double_, ct::duration}) ? std::optional(of_type(t[0])) : std::nullopt;
    if (n == "_==_" || n == "_!=_") {
      bool ok = !known(t[0]) || !known(t[1]) || t[0] == t[1] || t[0] == ct::null_ || t[1] == ct::null_ ||
                (numeric(t[0]) && numeric(t[1]));
      return ok ? std::optional(of_type(ct::bool_)) : std::nullopt;
    }
    if (n == "_<_" || n == "_<=_" || n == "_>_" || n == "_>=_") {
      auto orderable = [&](ct x) {
        return is(x, {ct::int_, ct::uint_, ct::double_, ct::string, ct::bytes, ct::bool_, ct::duration, ct::timestamp});
      };
      bool ok = orderable(t[0]) && orderable(t[1]) &&
                (!known(t[0]) || !known(t[1]) || t[0] == t[1] || (numeric(t[0]) && numeric(t[1])));
      return ok ? std::optional(of_type(ct::bool_)) : std::nullopt;
    }
    if (n == "@in") return is(t[1], {ct::list, ct::map}) ? std::optional(of_type(ct::bool_)) : std::nullopt;
    if (n == "_+_" || n == "_-_" || n == "_*_" || n == "_/_" || n == "_%_") {
      if (!known(t[0]) || !known(t[1])) return of_type(known(t[0]) ? t[0] : t[1]);
      ct a = t[0], b = t[1];
      if (a == b && (a == ct::int_ || a == ct::uint_)) return of_type(a);
      if (a == b && a == ct::double_ && n != "_%_") return of_type(a);
      if (n == "_+_") {
        if (a == b && (a == ct::string || a == ct::bytes || a == ct::duration)) return of_type(a);
        if (a == b && a == ct::list) return of_type(ct::list, in[0].elem == in[1].elem ? in[0].elem : ct::dyn);
        if ((a == ct::timestamp && b == ct::duration) || (a == ct::duration && b == ct::timestamp)) return of_type(ct::timestamp);
      }
      if (n == "_-_") {
        if (a == b && (a == ct::duration || a == ct::timestamp)) return of_type(ct::duration);
        if (a == ct::timestamp && b == ct::duration) return of_type(ct::timestamp);
      }
      return std::nullopt;
    }
    if (n == "size") return is(t[0], {ct::string, ct::bytes, ct::list, ct::map}) ? std::optional(of_type(ct::int_)) : std::nullopt;
    if (n == "matches") return is(t[0], {ct::string}) && is(t[1], {ct::string}) ? std::optional(of_type(ct::bool_)) : std::nullopt;
    if (n == "dyn") return of_type(ct::dyn);
    if (n == "type") return of_type(ct::type);
    if (n == "duration") return is(t[0], {ct::string, ct::duration}) ? std::optional(of_type(ct::duration)) : std::nullopt;
    if (n == "timestamp")
      return is(t[0], {ct::string, ct::timestamp, ct::int_}) ? std::optional(of_type(ct::timestamp)) : std::nullopt;
    if (n == "int")
      return is(t[0], {ct::int_, ct::uint_, ct::double_, ct::string, ct::timestamp}) ? std::optional(of_type(ct::int_)) : std::nullopt;
    if (n == "uint") return is(t[0], {ct::uint_, ct::int_, ct::double_, ct::string}) ? std::optional(of_type(ct::uint_)) : std::nullopt;
    if (n == "double") return is(t[0], {ct::double_, ct::int_, ct::uint_, ct::string}) ? std::optional(of_type(ct::double_)) : std::nullopt;
    if (n == "string")
      return is(t[0], {ct::string, ct::bytes, ct::bool_, ct::int_, ct::uint_, ct::double_, ct::duration, ct::timestamp})
                 ? std::optional(of_type(ct::string))
                 : std::nullopt;
    if (n == "bool") return is(t[0], {ct::bool_, ct::string}) ? std::optional(of_type(ct::bool_)) : std::nullopt;
    if (n == "bytes") return is(t[0], {ct::bytes, ct::string}) ? std::optional(of_type(ct::bytes)) : std::nullopt;
    return std::nullopt;
  }

  std::optional<info> member_type(const expr& e, const std::vector<ct>& t, const std::vector<info>& in) {
    const std::string& n = e.name;
    auto is = [](ct x, std::initializer_list<ct> ok) {
      if (x == ct::dyn) return true;
      for (auto o : ok)
        if (x == o) return true;
      return false;
    };
    if (n == "size") return is(t[0], {ct::string, ct::bytes, ct::list, ct::map}) ? std::optional(of_type(ct::int_)) : std::nullopt;
    if (n == "startsWith" || n == "endsWith" || n == "contains" || n == "matches")
      return is(t[0], {ct::string}) && is(t[1], {ct::string}) ? std::optional(of_type(ct::bool_)) : std::nullopt;
    if (n == "lowerAscii" || n == "upperAscii" || n == "trim")
      return is(t[0], {ct::string}) ? std::optional(of_type(ct::string)) : std::nullopt;
    if (n == "join") {
      bool ok = is(t[0], {ct::list}) && is(in[0].elem, {ct::string}) && (t.size() == 1 || is(t[1], {ct::string}));
      return ok ? std::optional(of_type(ct::string)) : std::nullopt;
    }
    // getHours() and friends: on durations only (timestamps need time zones).
    if (t[0] == ct::timestamp)
      fail(e.offset, "'" + n + "' on a timestamp is outside the CEL subset this emulator supports");
    return is(t[0], {ct::duration}) ? std::optional(of_type(ct::int_)) : std::nullopt;
  }

  info macro(const expr& e) {
    auto in = run(*e.operand);
    info elem;
    if (in.type == ct::list) {
      elem = in.node && in.node->items ? of_node(in.node->items.get()) : of_type(in.elem);
    } else if (in.type == ct::map) {
      elem = of_node(&string_schema());
    } else if (in.type != ct::dyn) {
      fail(e.offset, "found no matching overload for '" + e.name + "' applied to '" + name_of(in.type) + "'");
    }
    if (e.var == "self" || e.var == "oldSelf") fail(e.offset, "iteration variable may not shadow " + e.var);
    scope_.emplace_back(e.var, elem);
    std::vector<info> body;
    for (auto& a : e.args) body.push_back(run(*a));
    scope_.pop_back();
    bool predicate_first = e.name != "map" || e.args.size() == 2;
    if (predicate_first && body[0].type != ct::bool_ && body[0].type != ct::dyn)
      fail(e.offset, "the predicate of '" + e.name + "' must be a bool, not " + name_of(body[0].type));
    if (e.name == "map") return of_type(ct::list, body.back().type);
    if (e.name == "filter") return of_type(ct::list, elem.type);
    return of_type(ct::bool_);
  }

  info self_;
  bool old_self_allowed_;
  std::vector<std::pair<std::string, info>> scope_;
};

}  // namespace

check_result check(const expr& e, const schema_node& self, bool resource_root, bool old_self_allowed,
                   bool want_string) {
  checker c(self, resource_root, old_self_allowed);
  check_result r;
  try {
    auto t = c.run(e).type;
    if (!want_string && t != ct::bool_ && t != ct::dyn)
      checker::fail(e.offset, "rule must evaluate to a bool, not " + name_of(t));
    if (want_string && t != ct::string && t != ct::dyn)
      checker::fail(e.offset, "messageExpression must evaluate to a string, not " + name_of(t));
    r.uses_old_self = c.uses_old_self;
  } catch (const check_failure& f) {
    r.error = f.what();
  }
  return r;
}

}  // namespace c5c3::sim::validation::cel
