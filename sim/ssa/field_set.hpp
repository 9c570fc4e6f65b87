// Field paths and field sets as structured-merge-diff models them, with the
// FieldsV1 encoding found in metadata.managedFields.
//
// A path is a list of elements: a field name (`.spec`), a list-map key
// (`[name="a",port=80]`), a set value (`[="x"]`) or an index (`[0]`). A set
// is a tree: at each node, `members` are paths that end there and `children`
// are prefixes with deeper paths. FieldsV1 writes a node as a JSON object
// whose names are `f:<field>`, `k:<json key object>`, `v:<json value>` or
// `i:<index>`; `.` marks a node that is itself a member and has children.
#pragma once

#include "k8s/json.hpp"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace c5c3::sim::ssa {

struct path_element {
  enum class kind_t { field, key, value, index };
  kind_t kind = kind_t::field;
  std::string name;  // field
  // key: (field name, compact JSON of its value), sorted by field name
  std::vector<std::pair<std::string, std::string>> key;
  std::string value;  // value: compact JSON
  int index = 0;      // index

  static path_element field(std::string name);
  static path_element make_key(std::vector<std::pair<std::string, std::string>> fields);
  static path_element make_value(std::string json);
  static path_element make_index(int i);

  // `.name`, `[k=v,...]`, `[=v]`, `[i]` as fieldpath.PathElement.String().
  std::string to_string() const;
  // `f:name`, `k:{...}`, `v:...`, `i:n` as FieldsV1 writes it.
  std::string to_fields_v1() const;
  static std::optional<path_element> from_fields_v1(std::string_view text);

  // structured-merge-diff's order: fields < keys < values < indexes; fields by
  // name, keys field by field, values by type then value.
  friend int compare(const path_element& a, const path_element& b);
  friend bool operator<(const path_element& a, const path_element& b) { return compare(a, b) < 0; }
  friend bool operator==(const path_element& a, const path_element& b) {
    return compare(a, b) == 0;
  }
};

using path = std::vector<path_element>;

// `.spec.ports[port=80,protocol="TCP"].name`
std::string path_to_string(const path& p);

// Orders JSON scalars (and anything else by their text) as value.Compare does.
int compare_json_text(const std::string& a, const std::string& b);

class field_set {
 public:
  bool empty() const { return members_.empty() && children_.empty(); }
  void insert(const path& p);
  bool has(const path& p) const;
  // Whether `p` or any path below it is in the set.
  bool has_prefix(const path& p) const;
  // The subtree at `p` (null when absent).
  const field_set* child(const path_element& pe) const;
  bool is_member(const path_element& pe) const { return members_.count(pe) > 0; }

  field_set union_with(const field_set& o) const;
  field_set difference(const field_set& o) const;
  field_set intersection(const field_set& o) const;
  // Every path with the given prefix removed (the prefix itself included).
  field_set without_prefix(const path& prefix) const;

  // Paths in structured-merge-diff's iteration order: a node's members, then
  // its children depth first, each in element order.
  void for_each(const std::function<void(const path&)>& f) const;
  std::vector<path> paths() const;

  // FieldsV1 JSON object.
  k8s::json_value to_fields_v1(k8s::json_allocator& alloc) const;
  std::string to_fields_v1_string() const;
  static std::optional<field_set> from_fields_v1(const k8s::json_value& v);

  const std::set<path_element>& members() const { return members_; }
  const std::map<path_element, field_set>& children() const { return children_; }

  friend bool operator==(const field_set&, const field_set&) = default;

 private:
  void for_each_prefixed(path& prefix, const std::function<void(const path&)>& f) const;
  static void erase_prefix(field_set& node, const path& prefix, std::size_t i);
  std::set<path_element> members_;
  std::map<path_element, field_set> children_;
};

}  // namespace c5c3::sim::ssa
