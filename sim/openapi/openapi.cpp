#include "sim/openapi/openapi.hpp"

#include "sim/openapi/builtin_schemas.hpp"
#include "sim/openapi/json_build.hpp"
#include "sim/openapi/openapi_detail.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace c5c3::sim::openapi {

using detail::flavor;
using detail::json_builder;
using detail::list_schema_name;
using detail::ref;
using k8s::json_document;
using k8s::json_value;

namespace {

constexpr std::string_view v3_root = "#/components/schemas/";
constexpr std::string_view v2_root = "#/definitions/";
constexpr std::string_view info_version = "v1.32.0";

std::string reversed_group(std::string_view group) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= group.size()) {
    auto dot = group.find('.', start);
    if (dot == std::string_view::npos) dot = group.size();
    parts.push_back(group.substr(start, dot - start));
    start = dot + 1;
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += '.';
    out += *it;
  }
  return out;
}

// "io.k8s.api.core.v1." or "io.c5c3.v1alpha1.".
std::string schema_prefix(const k8s::api_resource& r) {
  std::string builtin = detail::builtin_schema_name(r.group, r.version, r.kind);
  if (!builtin.empty()) return builtin.substr(0, builtin.size() - r.kind.size());
  return reversed_group(r.group) + "." + r.version + ".";
}

json_value gvk_list(json_builder& b, const k8s::api_resource& r, std::string_view kind) {
  json_value a = json_builder::arr();
  json_value g = json_builder::obj();
  b.add(g, "group", r.group);
  b.add(g, "kind", kind);
  b.add(g, "version", r.version);
  b.push(a, std::move(g));
  return a;
}

void rewrite_refs(json_value& v, flavor f, k8s::json_allocator& alloc) {
  if (f == flavor::v3) return;
  if (v.IsObject()) {
    for (auto& m : v.GetObject()) {
      if (k8s::as_string_view(m.name) == "$ref" && m.value.IsString()) {
        std::string_view s = k8s::as_string_view(m.value);
        if (s.substr(0, v3_root.size()) == v3_root)
          m.value = k8s::make_string(std::string(v2_root) + std::string(s.substr(v3_root.size())), alloc);
      } else {
        rewrite_refs(m.value, f, alloc);
      }
    }
  } else if (v.IsArray()) {
    for (auto& e : v.GetArray()) rewrite_refs(e, f, alloc);
  }
}

// Swagger 2.0 knows no nullable, oneOf, anyOf or not: kube drops them when it
// publishes CRD schemas in v2.
void strip_for_v2(json_value& v) {
  if (v.IsObject()) {
    for (const char* key : {"nullable", "oneOf", "anyOf", "not"}) k8s::remove_member(v, key);
    for (auto& m : v.GetObject()) strip_for_v2(m.value);
  } else if (v.IsArray()) {
    for (auto& e : v.GetArray()) strip_for_v2(e);
  }
}

void collect_refs(const json_value& v, flavor f, std::set<std::string>& out) {
  const std::string_view root = f == flavor::v3 ? v3_root : v2_root;
  if (v.IsObject()) {
    for (const auto& m : v.GetObject()) {
      if (k8s::as_string_view(m.name) == "$ref" && m.value.IsString()) {
        std::string_view s = k8s::as_string_view(m.value);
        if (s.substr(0, root.size()) == root) out.emplace(s.substr(root.size()));
      } else {
        collect_refs(m.value, f, out);
      }
    }
  } else if (v.IsArray()) {
    for (const auto& e : v.GetArray()) collect_refs(e, f, out);
  }
}

json_value string_prop(json_builder& b, std::string_view description) {
  json_value p = json_builder::obj();
  b.add(p, "description", description);
  b.add(p, "type", "string");
  return p;
}

constexpr std::string_view api_version_description =
    "APIVersion defines the versioned schema of this representation of an object.";
constexpr std::string_view kind_description =
    "Kind is a string value representing the REST resource this object represents.";

json_value metadata_prop(json_builder& b, flavor f, std::string_view target,
                         std::string_view description) {
  json_value p = json_builder::obj();
  if (f == flavor::v3) {
    json_value all_of = json_builder::arr();
    json_value r = json_builder::obj();
    b.add(r, "$ref", ref(f, target));
    b.push(all_of, std::move(r));
    b.add(p, "allOf", std::move(all_of));
    b.add(p, "default", json_builder::obj());
  } else {
    b.add(p, "$ref", ref(f, target));
  }
  b.add(p, "description", description);
  return p;
}

// The schema of a kind: its own (CRD) or hand-written (built-in) schema with
// apiVersion, kind and metadata first and the group-version-kind extension.
json_value kind_schema(json_builder& b, const k8s::api_resource& r, flavor f) {
  json_value base;
  std::string builtin = detail::builtin_schema_name(r.group, r.version, r.kind);
  if (!builtin.empty()) {
    base = b.copy(*k8s::member(detail::builtin_schemas(), builtin));
  } else if (r.schema && r.schema->IsObject()) {
    base = b.copy(*r.schema);
  } else {
    base = json_builder::obj();
    b.add(base, "type", "object");
    b.add(base, "x-kubernetes-preserve-unknown-fields", true);
  }
  json_value out = json_builder::obj();
  json_value props = json_builder::obj();
  b.add(props, "apiVersion", string_prop(b, api_version_description));
  b.add(props, "kind", string_prop(b, kind_description));
  b.add(props, "metadata",
        metadata_prop(b, f, detail::object_meta_schema,
                      "Standard object's metadata: name, namespace, labels, annotations, owners."));
  for (auto& m : base.GetObject()) {
    std::string_view key = k8s::as_string_view(m.name);
    if (key == "properties" && m.value.IsObject()) {
      for (auto& p : m.value.GetObject()) {
        std::string_view pk = k8s::as_string_view(p.name);
        if (pk == "apiVersion" || pk == "kind" || pk == "metadata") continue;
        props.AddMember(p.name, p.value, b.alloc());
      }
      continue;
    }
    if (key == "x-kubernetes-group-version-kind") continue;
    if (key == "type") continue;
    out.AddMember(m.name, m.value, b.alloc());
  }
  b.add(out, "properties", std::move(props));
  b.add(out, "type", "object");
  b.add(out, "x-kubernetes-group-version-kind", gvk_list(b, r, r.kind));
  if (f == flavor::v2) strip_for_v2(out);
  rewrite_refs(out, f, b.alloc());
  return out;
}

json_value list_schema(json_builder& b, const k8s::api_resource& r, flavor f) {
  json_value out = json_builder::obj();
  b.add(out, "description", r.list_kind + " is a list of " + r.kind + ".");
  json_value required = json_builder::arr();
  b.push(required, b.str("items"));
  b.add(out, "required", std::move(required));
  json_value props = json_builder::obj();
  b.add(props, "apiVersion", string_prop(b, api_version_description));
  json_value items = json_builder::obj();
  b.add(items, "description", "List of " + r.plural + ".");
  json_value item_ref = json_builder::obj();
  b.add(item_ref, "$ref", ref(f, schema_name(r)));
  b.add(items, "items", std::move(item_ref));
  b.add(items, "type", "array");
  b.add(props, "items", std::move(items));
  b.add(props, "kind", string_prop(b, kind_description));
  b.add(props, "metadata",
        metadata_prop(b, f, detail::list_meta_schema, "Standard list metadata."));
  b.add(out, "properties", std::move(props));
  b.add(out, "type", "object");
  b.add(out, "x-kubernetes-group-version-kind", gvk_list(b, r, r.list_kind));
  return out;
}

// Every schema the resources need: the kinds, their lists and the built-in
// schemas they reference, transitively. Sorted by name.
std::map<std::string, json_value> schemas_for(json_builder& b,
                                              const std::vector<const k8s::api_resource*>& rs,
                                              flavor f) {
  std::map<std::string, json_value> out;
  for (const auto* r : rs) {
    out.emplace(schema_name(*r), kind_schema(b, *r, f));
    out.emplace(list_schema_name(*r), list_schema(b, *r, f));
  }
  std::set<std::string> pending;
  for (const auto& [name, s] : out) collect_refs(s, f, pending);
  while (!pending.empty()) {
    std::string name = *pending.begin();
    pending.erase(pending.begin());
    if (out.count(name)) continue;
    const json_value* s = k8s::member(detail::builtin_schemas(), name);
    if (s == nullptr) continue;
    json_value copy = b.copy(*s);
    rewrite_refs(copy, f, b.alloc());
    collect_refs(copy, f, pending);
    out.emplace(name, std::move(copy));
  }
  return out;
}

json_value info(json_builder& b) {
  json_value i = json_builder::obj();
  b.add(i, "title", "Kubernetes");
  b.add(i, "version", info_version);
  return i;
}

std::vector<const k8s::api_resource*> resources_at(const resource_list& all, std::string_view group,
                                                   std::string_view version) {
  std::vector<const k8s::api_resource*> out;
  for (const auto& r : all)
    if (r.group == group && r.version == version) out.push_back(&r);
  std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->plural < b->plural; });
  return out;
}

}  // namespace

namespace detail {

std::string ref(flavor f, std::string_view name) {
  return std::string(f == flavor::v3 ? v3_root : v2_root) + std::string(name);
}

std::string list_schema_name(const k8s::api_resource& r) { return schema_prefix(r) + r.list_kind; }

}  // namespace detail

std::string schema_name(const k8s::api_resource& r) { return schema_prefix(r) + r.kind; }

std::vector<std::string> openapi_v3_paths(const resource_list& resources) {
  std::set<std::string> set;
  for (const auto& r : resources)
    set.insert(r.group.empty() ? "api/" + r.version : "apis/" + r.group + "/" + r.version);
  return {set.begin(), set.end()};
}

std::optional<json_document> openapi_v3_document(const resource_list& resources,
                                                 std::string_view path) {
  std::string group, version;
  if (path.substr(0, 4) == "api/") {
    version = std::string(path.substr(4));
  } else if (path.substr(0, 5) == "apis/") {
    auto rest = path.substr(5);
    auto slash = rest.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    group = std::string(rest.substr(0, slash));
    version = std::string(rest.substr(slash + 1));
    if (group.empty()) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (version.empty() || version.find('/') != std::string::npos) return std::nullopt;
  auto rs = resources_at(resources, group, version);
  if (rs.empty()) return std::nullopt;

  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "openapi", "3.0.0");
  b.add(d, "info", info(b));
  json_value paths = json_builder::obj();
  for (const auto* r : rs) detail::add_paths(paths, b, *r, flavor::v3);
  b.add(d, "paths", std::move(paths));
  json_value components = json_builder::obj();
  json_value schemas = json_builder::obj();
  for (auto& [name, s] : schemas_for(b, rs, flavor::v3)) b.add(schemas, name, std::move(s));
  b.add(components, "schemas", std::move(schemas));
  b.add(d, "components", std::move(components));
  return d;
}

std::string openapi_hash(const json_value& document) {
  std::string text = k8s::to_json(document);
  std::array<unsigned char, SHA512_DIGEST_LENGTH> digest{};
  SHA512(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest.data());
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : digest) {
    out.push_back(hex[c >> 4]);
    out.push_back(hex[c & 0xF]);
  }
  return out;
}

json_document openapi_v3_index(const resource_list& resources) {
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  json_value paths = json_builder::obj();
  for (const auto& p : openapi_v3_paths(resources)) {
    auto doc = openapi_v3_document(resources, p);
    if (!doc) continue;
    json_value entry = json_builder::obj();
    b.add(entry, "serverRelativeURL", "/openapi/v3/" + p + "?hash=" + openapi_hash(*doc));
    b.add(paths, p, std::move(entry));
  }
  b.add(d, "paths", std::move(paths));
  return d;
}

json_document openapi_v2(const resource_list& resources) {
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "swagger", "2.0");
  b.add(d, "info", info(b));
  std::vector<const k8s::api_resource*> all;
  for (const auto& r : resources) all.push_back(&r);
  std::sort(all.begin(), all.end(), [](const auto* x, const auto* y) {
    return std::tie(x->group, x->version, x->plural) < std::tie(y->group, y->version, y->plural);
  });
  json_value paths = json_builder::obj();
  for (const auto* r : all) detail::add_paths(paths, b, *r, flavor::v2);
  b.add(d, "paths", std::move(paths));
  json_value defs = json_builder::obj();
  for (auto& [name, s] : schemas_for(b, all, flavor::v2)) b.add(defs, name, std::move(s));
  b.add(d, "definitions", std::move(defs));
  return d;
}

}  // namespace c5c3::sim::openapi
