#include "sim/apiserver/field_validation.hpp"

#include "sim/openapi/openapi.hpp"
#include "sim/validation/go_format.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace c5c3::sim {

using k8s::json_value;

std::optional<field_validation> parse_field_validation(std::string_view value) {
  if (value.empty() || value == "Warn") return field_validation::warn;
  if (value == "Strict") return field_validation::strict;
  if (value == "Ignore") return field_validation::ignore;
  return std::nullopt;
}

namespace {

std::string join(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : path + "." + std::string(name);
}

// Merges `from` into `into` as Go's decoder does a second time into the same struct:
// objects member by member, anything else replaced.
void merge_into(json_value& into, json_value& from, k8s::json_allocator& alloc) {
  if (!into.IsObject() || !from.IsObject()) {
    into = std::move(from);
    return;
  }
  for (auto& m : from.GetObject()) {
    if (auto* old = k8s::member(into, k8s::as_string_view(m.name))) {
      merge_into(*old, m.value, alloc);
    } else {
      into.AddMember(json_value(m.name, alloc), std::move(m.value), alloc);
    }
  }
}

void dedupe(json_value& v, const std::string& path, k8s::json_allocator& alloc, bool merge,
            std::vector<std::string>& out) {
  if (v.IsArray()) {
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i)
      dedupe(v[i], path + "[" + std::to_string(i) + "]", alloc, merge, out);
    return;
  }
  if (!v.IsObject()) return;
  std::map<std::string, rapidjson::SizeType> first;
  std::vector<rapidjson::SizeType> drop;
  for (rapidjson::SizeType i = 0; i < v.MemberCount(); ++i) {
    auto& m = *(v.MemberBegin() + i);
    std::string name(k8s::as_string_view(m.name));
    auto [it, fresh] = first.emplace(name, i);
    if (fresh) continue;
    out.push_back(join(path, name));
    auto& kept = (v.MemberBegin() + it->second)->value;
    if (merge) {
      merge_into(kept, m.value, alloc);
    } else {
      kept = std::move(m.value);
    }
    drop.push_back(i);
  }
  for (auto i = drop.rbegin(); i != drop.rend(); ++i) v.EraseMember(v.MemberBegin() + *i);
  for (auto& m : v.GetObject()) dedupe(m.value, join(path, k8s::as_string_view(m.name)), alloc, merge, out);
}

const std::set<std::string, std::less<>>& object_meta_fields() {
  static const std::set<std::string, std::less<>> f{
      "name",       "generateName", "namespace",       "selfLink",   "uid",
      "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
      "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences",
      "finalizers", "managedFields"};
  return f;
}

const json_value* resolve(const json_value* s) {
  for (int depth = 0; s && depth < 8; ++depth) {
    if (auto* ref = k8s::member(*s, "$ref"); ref && ref->IsString()) {
      s = openapi::builtin_schema_ref(k8s::as_string_view(*ref));
      continue;
    }
    if (auto* all = k8s::member(*s, "allOf"); all && all->IsArray() && all->Size() == 1) {
      s = &(*all)[0];
      continue;
    }
    break;
  }
  return s;
}

// Walks `v` against a built-in schema; removes and records what it does not declare.
void walk(const json_value* schema, json_value& v, const std::string& path, std::vector<std::string>& out) {
  schema = resolve(schema);
  if (!schema || k8s::get_bool(*schema, {"x-kubernetes-preserve-unknown-fields"}).value_or(false)) return;
  if (v.IsArray()) {
    if (auto* items = k8s::member(*schema, "items"))
      for (rapidjson::SizeType i = 0; i < v.Size(); ++i)
        walk(items, v[i], path + "[" + std::to_string(i) + "]", out);
    return;
  }
  if (!v.IsObject()) return;
  const auto* props = k8s::member(*schema, "properties");
  const auto* extra = k8s::member(*schema, "additionalProperties");
  if (!props) {
    if (extra && extra->IsObject())
      for (auto& m : v.GetObject()) walk(extra, m.value, join(path, k8s::as_string_view(m.name)), out);
    return;
  }
  for (auto m = v.MemberBegin(); m != v.MemberEnd();) {
    auto name = k8s::as_string_view(m->name);
    if (auto* p = k8s::member(*props, name)) {
      walk(p, m->value, join(path, name), out);
      ++m;
    } else if (extra && extra->IsObject()) {
      walk(extra, m->value, join(path, name), out);
      ++m;
    } else {
      out.push_back(join(path, name));
      m = v.EraseMember(m);
    }
  }
}

void drop_unknown_metadata(json_value& obj, std::vector<std::string>& out) {
  auto* md = k8s::member(obj, "metadata");
  if (!md || !md->IsObject()) return;
  for (auto m = md->MemberBegin(); m != md->MemberEnd();) {
    auto name = k8s::as_string_view(m->name);
    if (object_meta_fields().contains(name)) {
      ++m;
      continue;
    }
    out.push_back(join("metadata", name));
    m = md->EraseMember(m);
  }
}

}  // namespace

std::vector<std::string> drop_duplicate_fields(json_value& v, k8s::json_allocator& alloc, bool merge_objects) {
  std::vector<std::string> out;
  dedupe(v, "", alloc, merge_objects, out);
  return out;
}

std::vector<std::string> drop_unknown_fields(const k8s::api_resource& r, json_value& obj, bool builtin,
                                             custom_unknown_fn custom_unknown) {
  std::vector<std::string> out;
  if (!obj.IsObject()) return out;
  if (!builtin) {
    drop_unknown_metadata(obj, out);
    if (custom_unknown) {
      auto pruned = custom_unknown(r, obj);
      std::sort(pruned.begin(), pruned.end());
      out.insert(out.end(), pruned.begin(), pruned.end());
    }
    return out;
  }
  // A built-in kind: document order, metadata where it stands. The CRD kind's own schema
  // (JSONSchemaProps) is not modelled field by field: only its metadata is checked.
  const auto* schema = r.group == "apiextensions.k8s.io" ? nullptr
                                                          : openapi::builtin_kind_schema(r.group, r.version, r.kind);
  for (auto m = obj.MemberBegin(); m != obj.MemberEnd();) {
    auto name = k8s::as_string_view(m->name);
    if (name == "apiVersion" || name == "kind") {
      ++m;
    } else if (name == "metadata") {
      drop_unknown_metadata(obj, out);
      ++m;
    } else if (!schema) {
      ++m;
    } else if (auto* p = k8s::find(*resolve(schema), {"properties", name})) {
      walk(p, m->value, std::string(name), out);
      ++m;
    } else {
      out.push_back(std::string(name));
      m = obj.EraseMember(m);
    }
  }
  return out;
}

std::vector<std::string> field_findings::messages() const {
  std::vector<std::string> out;
  auto dup = [&] {
    for (const auto& d : duplicates) out.push_back("duplicate field " + validation::go_quote(d));
  };
  if (custom) dup();
  for (const auto& u : unknown) out.push_back("unknown field " + validation::go_quote(u));
  if (!custom) dup();
  return out;
}

std::string field_findings::strict_error() const {
  std::string s = "strict decoding error: ";
  auto m = messages();
  for (std::size_t i = 0; i < m.size(); ++i) s += (i ? ", " : "") + m[i];
  return s;
}

std::vector<std::string> field_findings::warning_headers() const {
  std::vector<std::string> out;
  for (const auto& m : messages()) out.push_back("299 - " + validation::go_quote(m));
  return out;
}

}  // namespace c5c3::sim
