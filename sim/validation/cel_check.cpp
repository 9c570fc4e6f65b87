#include "sim/validation/cel_check.hpp"

#include "sim/validation/cel_value.hpp"
#include "sim/validation/schema.hpp"

#include <map>
#include "sim/validation/regex.hpp"
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

// What the checker knows about an expression: the schema node of its value
// (nullptr: dynamic), and whether it is a resource root.
struct info {
  const schema_node* node = nullptr;
  bool root = false;
};

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
      : self_{&self, root}, old_self_allowed_(old_self_allowed) {}

  bool uses_old_self = false;

  info run(const expr& e) {
    switch (e.kind) {
      case expr_kind::literal:
        return {};
      case expr_kind::ident:
        return ident(e);
      case expr_kind::select: {
        auto in = run(*e.operand);
        return select(in, e.name, e.offset);
      }
      case expr_kind::index: {
        auto in = run(*e.operand);
        run(*e.args[0]);
        if (in.node && in.node->items) return {in.node->items.get(), false};
        if (in.node && in.node->additional_properties) return {in.node->additional_properties.get(), false};
        return {};
      }
      case expr_kind::call:
        return call(e);
      case expr_kind::list:
      case expr_kind::map:
      case expr_kind::cond:
        for (auto& a : e.args) run(*a);
        return {};
      case expr_kind::macro:
        return macro(e);
    }
    return {};
  }

 private:
  [[noreturn]] static void fail(int offset, const std::string& m) {
    throw check_failure("offset " + std::to_string(offset) + ": " + m);
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

  info select(const info& in, const std::string& field, int offset) {
    const schema_node* n = in.node;
    if (!n) return {};
    if (in.root) {
      if (field == "apiVersion" || field == "kind") return {&string_schema(), false};
      if (field == "metadata") return {&root_metadata_schema(), false};
    }
    if (n->preserve_unknown_fields || n->int_or_string || n->embedded_resource) return {};
    if (n->additional_properties) return {n->additional_properties.get(), false};
    if (n->type == "object") {
      for (auto& [pname, pnode] : n->properties)
        if (escape_field(pname) == field) return {&pnode, false};
      fail(offset, "undefined field '" + field + "'");
    }
    if (n->type.empty()) return {};
    fail(offset, "type '" + n->type + "' does not support field selection");
  }

  info call(const expr& e) {
    if (e.operand) run(*e.operand);
    for (auto& a : e.args) run(*a);
    auto& table = e.operand ? member_functions() : global_functions();
    auto it = table.find(e.name);
    if (it == table.end())
      fail(e.offset, "function '" + e.name + "' is outside the CEL subset this emulator supports");
    if (!it->second.count(e.args.size()))
      fail(e.offset, "found no matching overload for '" + e.name + "' with " +
                         std::to_string(e.args.size()) + " argument(s)");
    // A constant pattern must compile.
    if (e.name == "matches") {
      const expr& pat = *e.args.back();
      if (pat.kind == expr_kind::literal && pat.lit.kind == literal_kind::string) {
        try {
          std::regex re(pat.lit.s, std::regex::ECMAScript);
        } catch (const std::regex_error&) {
          fail(pat.offset, "invalid regular expression: " + pat.lit.s);
        }
      }
    }
    return {};
  }

  info macro(const expr& e) {
    auto in = run(*e.operand);
    info elem;
    if (in.node && in.node->items) elem = {in.node->items.get(), false};
    if (in.node && (in.node->additional_properties || in.node->type == "object")) elem = {&string_schema(), false};
    if (e.var == "self" || e.var == "oldSelf") fail(e.offset, "iteration variable may not shadow " + e.var);
    scope_.emplace_back(e.var, elem);
    for (auto& a : e.args) run(*a);
    scope_.pop_back();
    return {};
  }

  info self_;
  bool old_self_allowed_;
  std::vector<std::pair<std::string, info>> scope_;
};

}  // namespace

check_result check(const expr& e, const schema_node& self, bool resource_root, bool old_self_allowed) {
  checker c(self, resource_root, old_self_allowed);
  check_result r;
  try {
    c.run(e);
    r.uses_old_self = c.uses_old_self;
  } catch (const check_failure& f) {
    r.error = f.what();
  }
  return r;
}

}  // namespace c5c3::sim::validation::cel
