// Runtime values of the CEL subset, and the conversion of a JSON value typed
// by its structural schema (what apiextensions-apiserver's UnstructuredToVal does).
#pragma once

#include "k8s/json.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace c5c3::sim::validation {
struct schema_node;
}

namespace c5c3::sim::validation::cel {

enum class value_kind { null_, boolean, int_, uint_, double_, string, bytes, list, map, duration, timestamp, type, error };

struct value;
using value_list = std::vector<value>;
using value_map = std::vector<std::pair<value, value>>;

struct value {
  value_kind kind = value_kind::null_;
  bool b = false;
  std::int64_t i = 0;  // int, duration (ns), timestamp (ns since the epoch)
  std::uint64_t u = 0;
  double d = 0;
  std::string s;  // string, bytes, type name, error message
  std::shared_ptr<const value_list> list;
  std::shared_ptr<const value_map> map;
  bool unordered = false;  // x-kubernetes-list-type set/map: equality ignores order
  bool object = false;     // a schema object: field names are CEL-escaped

  static value null() { return {}; }
  static value boolean(bool v) { value x; x.kind = value_kind::boolean; x.b = v; return x; }
  static value integer(std::int64_t v) { value x; x.kind = value_kind::int_; x.i = v; return x; }
  static value uinteger(std::uint64_t v) { value x; x.kind = value_kind::uint_; x.u = v; return x; }
  static value dbl(double v) { value x; x.kind = value_kind::double_; x.d = v; return x; }
  static value string(std::string v) { value x; x.kind = value_kind::string; x.s = std::move(v); return x; }
  static value bytes(std::string v) { value x; x.kind = value_kind::bytes; x.s = std::move(v); return x; }
  static value duration(std::int64_t ns) { value x; x.kind = value_kind::duration; x.i = ns; return x; }
  static value timestamp(std::int64_t ns) { value x; x.kind = value_kind::timestamp; x.i = ns; return x; }
  static value type_value(std::string n) { value x; x.kind = value_kind::type; x.s = std::move(n); return x; }
  static value error(std::string m) { value x; x.kind = value_kind::error; x.s = std::move(m); return x; }
  static value make_list(value_list l, bool unordered = false) {
    value x;
    x.kind = value_kind::list;
    x.list = std::make_shared<const value_list>(std::move(l));
    x.unordered = unordered;
    return x;
  }
  static value make_map(value_map m, bool object = false) {
    value x;
    x.kind = value_kind::map;
    x.map = std::make_shared<const value_map>(std::move(m));
    x.object = object;
    return x;
  }

  bool is_error() const { return kind == value_kind::error; }
  bool is_true() const { return kind == value_kind::boolean && b; }
};

// CEL's type name of a value ("int", "string", "list", "map", "google.protobuf.Duration", ...).
std::string type_name(const value& v);

// Heterogeneous CEL equality (numbers compare across int/uint/double; lists of
// type set/map ignore order). An error when a side is an error.
value equals(const value& a, const value& b);

// The value of `v` typed by `schema` (nullptr: dynamic). With `resource_root`,
// only apiVersion, kind and metadata.name/generateName of the metadata are kept.
value from_json(const k8s::json_value& v, const schema_node* schema, bool resource_root = false);

// CEL field-name escaping of apiserver/pkg/cel: "__namespace__" -> "namespace",
// "__dash__" -> "-", "__dot__" -> ".", "__slash__" -> "/", "__underscores__" -> "__".
std::string unescape_field(const std::string& name);
// The CEL name of a property; empty when it cannot be referenced from CEL.
std::string escape_field(const std::string& name);

}  // namespace c5c3::sim::validation::cel
