#include "sim/ssa/schema.hpp"

namespace c5c3::sim::ssa {

using k8s::json_value;

schema_ptr schema_node::field(std::string_view name) const {
  auto it = properties.find(std::string(name));
  if (it != properties.end()) return it->second;
  return additional;
}

bool schema_node::has_strategy(std::string_view s) const {
  std::string_view rest = patch_strategy;
  while (!rest.empty()) {
    auto comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    if (part == s) return true;
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return false;
}

namespace {

std::string_view str(const json_value& v, const char* name) {
  const json_value* m = k8s::member(v, name);
  return m && m->IsString() ? k8s::as_string_view(*m) : std::string_view();
}

bool flag(const json_value& v, const char* name) {
  const json_value* m = k8s::member(v, name);
  return m && m->IsBool() && m->GetBool();
}

}  // namespace

schema_ptr schema_from_openapi(const json_value& s) {
  auto node = std::make_shared<schema_node>();
  if (!s.IsObject()) return node;
  std::string_view type = str(s, "type");
  node->patch_strategy = std::string(str(s, "x-kubernetes-patch-strategy"));
  node->patch_merge_key = std::string(str(s, "x-kubernetes-patch-merge-key"));
  if (const json_value* d = k8s::member(s, "default")) node->default_json = k8s::to_json(*d);

  const json_value* props = k8s::member(s, "properties");
  const json_value* additional = k8s::member(s, "additionalProperties");
  const json_value* items = k8s::member(s, "items");

  if (type == "array" || (type.empty() && items)) {
    node->kind = schema_node::kind_t::list;
    std::string_view lt = str(s, "x-kubernetes-list-type");
    if (lt == "set")
      node->list = list_type::set;
    else if (lt == "map")
      node->list = list_type::map;
    else if (lt.empty() && node->has_strategy("merge"))
      // Built-in kinds without a list type: structured-merge-diff reads the
      // patch strategy, a merge key making a map, none a set.
      node->list = node->patch_merge_key.empty() ? list_type::set : list_type::map;
    if (const json_value* keys = k8s::member(s, "x-kubernetes-list-map-keys");
        keys && keys->IsArray()) {
      for (auto& k : keys->GetArray())
        if (k.IsString()) node->keys.emplace_back(k8s::as_string_view(k));
    }
    if (node->list == list_type::map && node->keys.empty() && !node->patch_merge_key.empty())
      node->keys.push_back(node->patch_merge_key);
    if (items) node->items = schema_from_openapi(*items);
    return node;
  }
  bool has_props = props && props->IsObject() && props->MemberCount() > 0;
  bool has_additional = additional && (additional->IsObject() || additional->IsTrue());
  if (type == "object" || (type.empty() && (has_props || has_additional))) {
    if (!has_props && !has_additional) return node;  // deduced: anything goes
    node->kind = schema_node::kind_t::object;
    if (str(s, "x-kubernetes-map-type") == "atomic") node->map = map_type::atomic;
    if (has_props)
      for (auto& m : props->GetObject())
        node->properties.emplace(std::string(k8s::as_string_view(m.name)),
                                 schema_from_openapi(m.value));
    if (has_additional && additional->IsObject())
      node->additional = schema_from_openapi(*additional);
    else if (has_additional)
      node->additional = std::make_shared<schema_node>();  // untyped values
    return node;
  }
  if (flag(s, "x-kubernetes-preserve-unknown-fields") && type.empty()) return node;
  if (!type.empty() || flag(s, "x-kubernetes-int-or-string")) node->kind = schema_node::kind_t::scalar;
  return node;
}

namespace {

schema_ptr scalar() {
  auto n = std::make_shared<schema_node>();
  n->kind = schema_node::kind_t::scalar;
  return n;
}

schema_ptr string_map() {
  auto n = std::make_shared<schema_node>();
  n->kind = schema_node::kind_t::object;
  n->additional = scalar();
  return n;
}

}  // namespace

schema_ptr object_meta_schema() {
  static const schema_ptr meta = [] {
    auto n = std::make_shared<schema_node>();
    n->kind = schema_node::kind_t::object;
    for (const char* f : {"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion",
                          "generation", "creationTimestamp", "deletionTimestamp",
                          "deletionGracePeriodSeconds"})
      n->properties.emplace(f, scalar());
    n->properties.emplace("labels", string_map());
    n->properties.emplace("annotations", string_map());

    auto finalizers = std::make_shared<schema_node>();
    finalizers->kind = schema_node::kind_t::list;
    finalizers->list = list_type::set;
    finalizers->items = scalar();
    finalizers->patch_strategy = "merge";
    n->properties.emplace("finalizers", finalizers);

    auto owner_ref = std::make_shared<schema_node>();
    owner_ref->kind = schema_node::kind_t::object;
    for (const char* f : {"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"})
      owner_ref->properties.emplace(f, scalar());
    auto owners = std::make_shared<schema_node>();
    owners->kind = schema_node::kind_t::list;
    owners->list = list_type::map;
    owners->keys = {"uid"};
    owners->items = owner_ref;
    owners->patch_strategy = "merge";
    owners->patch_merge_key = "uid";
    n->properties.emplace("ownerReferences", owners);

    auto managed = std::make_shared<schema_node>();
    managed->kind = schema_node::kind_t::list;  // atomic
    n->properties.emplace("managedFields", managed);
    return schema_ptr(n);
  }();
  return meta;
}

type_schema object_schema_from_openapi(const json_value* openapi) {
  std::shared_ptr<schema_node> root;
  if (openapi && openapi->IsObject()) {
    auto parsed = schema_from_openapi(*openapi);
    root = std::make_shared<schema_node>(*parsed);
  } else {
    root = std::make_shared<schema_node>();
  }
  if (root->kind == schema_node::kind_t::untyped) {
    // Deduced below metadata; keys are undeclared except the three below.
    root->kind = schema_node::kind_t::object;
    root->additional = std::make_shared<schema_node>();
  }
  root->properties["apiVersion"] = scalar();
  root->properties["kind"] = scalar();
  root->properties["metadata"] = object_meta_schema();
  type_schema out;
  out.root = root;
  return out;
}

}  // namespace c5c3::sim::ssa
