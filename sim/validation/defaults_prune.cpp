// Structural defaulting and pruning (apiextensions-apiserver's
// schema/defaulting and schema/pruning algorithms).
#include "sim/validation/validation.hpp"

#include <string>
#include <vector>

namespace c5c3::sim::validation {

namespace {

using k8s::json_value;

const schema_node* field_schema(const schema_node* s, const std::string& key) {
  if (!s) return nullptr;
  if (auto* p = s->property(key)) return p;
  return s->additional_properties.get();
}

bool non_nullable_null(const json_value& v, const schema_node* s) {
  return v.IsNull() && s && !s->nullable;
}

// Non-nullable nulls without a default are dropped; those with one are left
// for default() to replace.
void prune_nulls(json_value& v, const schema_node* s) {
  if (v.IsObject()) {
    std::vector<std::string> drop;
    for (auto& m : v.GetObject()) {
      std::string key(k8s::as_string_view(m.name));
      auto* fs = field_schema(s, key);
      if (non_nullable_null(m.value, fs) && !fs->default_value) drop.push_back(key);
      else prune_nulls(m.value, fs);
    }
    for (auto& k : drop) k8s::remove_member(v, k);
  } else if (v.IsArray()) {
    for (auto& e : v.GetArray()) prune_nulls(e, s ? s->items.get() : nullptr);
  }
}

void default_value(json_value& v, const schema_node* s, k8s::json_allocator& alloc) {
  if (!s) return;
  if (v.IsObject()) {
    for (auto& [name, prop] : s->properties) {
      if (!prop.default_value) continue;
      auto* cur = k8s::member(v, name);
      if (!cur || non_nullable_null(*cur, &prop))
        k8s::set_member(v, name, k8s::copy_json(*prop.default_value, alloc), alloc);
    }
    for (auto& m : v.GetObject()) {
      std::string key(k8s::as_string_view(m.name));
      if (auto* p = s->property(key)) {
        default_value(m.value, p, alloc);
      } else if (s->additional_properties) {
        auto* ap = s->additional_properties.get();
        if (non_nullable_null(m.value, ap) && ap->default_value) m.value.CopyFrom(*ap->default_value, alloc);
        default_value(m.value, ap, alloc);
      }
    }
  } else if (v.IsArray()) {
    auto* items = s->items.get();
    for (auto& e : v.GetArray()) {
      if (non_nullable_null(e, items) && items->default_value) e.CopyFrom(*items->default_value, alloc);
      default_value(e, items, alloc);
    }
  }
}

void prune_value(json_value& v, const schema_node* s, bool resource_root, const std::string& path,
                 std::vector<std::string>& pruned) {
  if (!s) return;
  if (v.IsArray()) {
    std::size_t i = 0;
    for (auto& e : v.GetArray()) prune_value(e, s->items.get(), false, path + "[" + std::to_string(i++) + "]", pruned);
    return;
  }
  if (!v.IsObject()) return;
  bool keep_meta = resource_root || s->embedded_resource;
  std::vector<std::string> drop;
  for (auto& m : v.GetObject()) {
    std::string key(k8s::as_string_view(m.name));
    std::string cpath = path.empty() ? key : path + "." + key;
    if (keep_meta && (key == "apiVersion" || key == "kind" || key == "metadata")) continue;
    if (auto* p = s->property(key)) {
      prune_value(m.value, p, false, cpath, pruned);
    } else if (s->additional_properties) {
      prune_value(m.value, s->additional_properties.get(), false, cpath, pruned);
    } else if (!s->preserve_unknown_fields) {
      drop.push_back(key);
      pruned.push_back(cpath);
    }
  }
  for (auto& k : drop) k8s::remove_member(v, k);
}

}  // namespace

void apply_defaults(const compiled_schema& schema, json_value& obj, k8s::json_allocator& alloc) {
  prune_nulls(obj, &schema.root);
  default_value(obj, &schema.root, alloc);
}

std::vector<std::string> prune(const compiled_schema& schema, json_value& obj) {
  std::vector<std::string> pruned;
  prune_value(obj, &schema.root, true, "", pruned);
  return pruned;
}

}  // namespace c5c3::sim::validation
