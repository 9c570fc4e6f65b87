#include "sim/openapi/openapi.hpp"

#include "sim/openapi/builtin_schemas.hpp"
#include "sim/openapi/json_build.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace c5c3::sim::openapi {

using detail::json_builder;
using k8s::json_document;
using k8s::json_value;

namespace {

enum class flavor { v3, v2 };

constexpr std::string_view v3_root = "#/components/schemas/";
constexpr std::string_view v2_root = "#/definitions/";
constexpr std::string_view info_version = "v1.32.0";

std::string ref(flavor f, std::string_view name) {
  return std::string(f == flavor::v3 ? v3_root : v2_root) + std::string(name);
}

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

std::string list_schema_name(const k8s::api_resource& r) { return schema_prefix(r) + r.list_kind; }

// "C5c3Io", "RbacAuthorization", "Core" for operation ids.
std::string camel_group(std::string_view group) {
  if (group.empty()) return "Core";
  std::string g(group);
  constexpr std::string_view suffix = ".k8s.io";
  if (g.size() > suffix.size() && g.compare(g.size() - suffix.size(), suffix.size(), suffix) == 0)
    g.resize(g.size() - suffix.size());
  std::string out;
  bool up = true;
  for (char c : g) {
    if (c == '.' || c == '-') {
      up = true;
      continue;
    }
    out.push_back(up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    up = false;
  }
  return out;
}

std::string capitalized(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

json_value gvk_json(json_builder& b, const k8s::api_resource& r) {
  json_value g = json_builder::obj();
  b.add(g, "group", r.group);
  b.add(g, "kind", r.kind);
  b.add(g, "version", r.version);
  return g;
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

// --- paths ---------------------------------------------------------------

struct path_context {
  json_builder& b;
  flavor f;
  const k8s::api_resource& r;
};

json_value parameter(path_context& c, std::string_view name, std::string_view in,
                     std::string_view description, bool required) {
  json_value p = json_builder::obj();
  c.b.add(p, "name", name);
  c.b.add(p, "in", in);
  c.b.add(p, "description", description);
  if (required) c.b.add(p, "required", true);
  if (c.f == flavor::v3) {
    json_value schema = json_builder::obj();
    c.b.add(schema, "type", "string");
    c.b.add(schema, "uniqueItems", true);
    c.b.add(p, "schema", std::move(schema));
  } else {
    c.b.add(p, "type", "string");
    c.b.add(p, "uniqueItems", true);
  }
  return p;
}

json_value write_parameters(path_context& c, bool patch) {
  json_value ps = json_builder::arr();
  c.b.push(ps, parameter(c, "dryRun", "query",
                         "When present, modifications are not persisted. Valid value: All.", false));
  c.b.push(ps, parameter(c, "fieldManager", "query",
                         "A name associated with the actor making these changes.", false));
  c.b.push(ps, parameter(c, "fieldValidation", "query",
                         "How the server treats unknown or duplicate fields: Ignore, Warn or Strict.",
                         false));
  if (patch)
    c.b.push(ps, parameter(c, "force", "query",
                           "Force an Apply request to take over conflicting fields.", false));
  return ps;
}

json_value response_ok(path_context& c, std::string_view schema) {
  json_value responses = json_builder::obj();
  json_value ok = json_builder::obj();
  c.b.add(ok, "description", "OK");
  json_value s = json_builder::obj();
  c.b.add(s, "$ref", ref(c.f, schema));
  if (c.f == flavor::v3) {
    json_value content = json_builder::obj();
    for (const char* mt : {"application/json", "application/yaml"}) {
      json_value media = json_builder::obj();
      c.b.add(media, "schema", c.b.copy(s));
      c.b.add(content, mt, std::move(media));
    }
    c.b.add(ok, "content", std::move(content));
  } else {
    c.b.add(ok, "schema", std::move(s));
  }
  c.b.add(responses, "200", std::move(ok));
  return responses;
}

std::vector<std::string> patch_types(const k8s::api_resource& r) {
  std::vector<std::string> t = {"application/json-patch+json", "application/merge-patch+json"};
  // Strategic merge patch needs Go types: built-ins only.
  if (!detail::builtin_schema_name(r.group, r.version, r.kind).empty())
    t.push_back("application/strategic-merge-patch+json");
  t.push_back("application/apply-patch+yaml");
  return t;
}

json_value operation(path_context& c, std::string_view action, std::string_view op_verb,
                     std::string_view description, std::string_view response_schema,
                     bool collection, bool status) {
  auto& b = c.b;
  json_value op = json_builder::obj();
  std::string tag = c.r.group.empty() ? "core_" + c.r.version
                                      : camel_group(c.r.group) + "_" + c.r.version;
  tag[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(tag[0])));
  json_value tags = json_builder::arr();
  b.push(tags, b.str(tag));
  b.add(op, "tags", std::move(tags));
  b.add(op, "description", description);
  b.add(op, "operationId", std::string(op_verb) + camel_group(c.r.group) + capitalized(c.r.version) +
                               (c.r.namespaced ? "Namespaced" : "") + c.r.kind +
                               (collection && action != "post" ? "List" : "") +
                               (status ? "Status" : ""));
  const bool write = action == "post" || action == "put" || action == "patch";
  json_value params = write ? write_parameters(c, action == "patch") : json_builder::arr();
  if (c.f == flavor::v2 && write) {
    json_value body = json_builder::obj();
    b.add(body, "name", "body");
    b.add(body, "in", "body");
    b.add(body, "required", true);
    json_value s = json_builder::obj();
    if (action == "patch") {
      b.add(s, "type", "object");
    } else {
      b.add(s, "$ref", ref(c.f, schema_name(c.r)));
    }
    b.add(body, "schema", std::move(s));
    b.push(params, std::move(body));
  }
  b.add(op, "parameters", std::move(params));
  if (c.f == flavor::v3 && write) {
    json_value rb = json_builder::obj();
    json_value content = json_builder::obj();
    std::vector<std::string> types =
        action == "patch" ? patch_types(c.r) : std::vector<std::string>{"*/*"};
    for (const auto& t : types) {
      json_value media = json_builder::obj();
      json_value s = json_builder::obj();
      if (action == "patch") b.add(s, "type", "object");
      else b.add(s, "$ref", ref(c.f, schema_name(c.r)));
      b.add(media, "schema", std::move(s));
      b.add(content, t, std::move(media));
    }
    b.add(rb, "content", std::move(content));
    b.add(rb, "required", true);
    b.add(op, "requestBody", std::move(rb));
  }
  if (c.f == flavor::v2 && action == "patch") {
    json_value consumes = b.str_array(patch_types(c.r));
    b.add(op, "consumes", std::move(consumes));
  }
  b.add(op, "responses", response_ok(c, response_schema));
  // The verb kube reports: list, post, get, put, patch, delete, deletecollection.
  std::string k8s_action = op_verb == "read"      ? "get"
                           : op_verb == "replace" ? "put"
                           : op_verb == "create"  ? "post"
                           : op_verb == "delete" && collection ? "deletecollection"
                                                               : std::string(op_verb);
  b.add(op, "x-kubernetes-action", k8s_action);
  b.add(op, "x-kubernetes-group-version-kind", gvk_json(b, c.r));
  return op;
}

json_value path_parameters(path_context& c, bool with_name) {
  json_value ps = json_builder::arr();
  if (with_name)
    c.b.push(ps, parameter(c, "name", "path", "name of the " + c.r.kind, true));
  if (c.r.namespaced)
    c.b.push(ps, parameter(c, "namespace", "path",
                           "object name and auth scope, such as for teams and projects", true));
  c.b.push(ps, parameter(c, "pretty", "query", "If 'true', then the output is pretty printed.", false));
  return ps;
}

void add_paths(json_value& paths, json_builder& b, const k8s::api_resource& r, flavor f) {
  path_context c{b, f, r};
  std::string base = r.group.empty() ? "/api/" + r.version : "/apis/" + r.group + "/" + r.version;
  std::string coll = base + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.plural;
  const std::string kind_schema_name = schema_name(r);
  const std::string list_name = list_schema_name(r);
  auto has = [&](std::string_view v) { return std::find(r.verbs.begin(), r.verbs.end(), v) != r.verbs.end(); };

  json_value collection = json_builder::obj();
  if (has("list"))
    b.add(collection, "get", operation(c, "get", "list", "list or watch objects of kind " + r.kind, list_name, true, false));
  if (has("create"))
    b.add(collection, "post", operation(c, "post", "create", "create " + r.singular, kind_schema_name, true, false));
  if (has("deletecollection"))
    b.add(collection, "delete", operation(c, "delete", "delete", "delete collection of " + r.kind, kind_schema_name, true, false));
  b.add(collection, "parameters", path_parameters(c, false));
  b.add(paths, coll, std::move(collection));

  json_value item = json_builder::obj();
  if (has("get")) b.add(item, "get", operation(c, "get", "read", "read the specified " + r.kind, kind_schema_name, false, false));
  if (has("update")) b.add(item, "put", operation(c, "put", "replace", "replace the specified " + r.kind, kind_schema_name, false, false));
  if (has("delete")) b.add(item, "delete", operation(c, "delete", "delete", "delete " + r.singular, kind_schema_name, false, false));
  if (has("patch")) b.add(item, "patch", operation(c, "patch", "patch", "partially update the specified " + r.kind, kind_schema_name, false, false));
  b.add(item, "parameters", path_parameters(c, true));
  b.add(paths, coll + "/{name}", std::move(item));

  if (r.status_subresource) {
    json_value status = json_builder::obj();
    b.add(status, "get", operation(c, "get", "read", "read status of the specified " + r.kind, kind_schema_name, false, true));
    b.add(status, "put", operation(c, "put", "replace", "replace status of the specified " + r.kind, kind_schema_name, false, true));
    b.add(status, "patch", operation(c, "patch", "patch", "partially update status of the specified " + r.kind, kind_schema_name, false, true));
    b.add(status, "parameters", path_parameters(c, true));
    b.add(paths, coll + "/{name}/status", std::move(status));
  }
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
  for (const auto* r : rs) add_paths(paths, b, *r, flavor::v3);
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
  for (const auto* r : all) add_paths(paths, b, *r, flavor::v2);
  b.add(d, "paths", std::move(paths));
  json_value defs = json_builder::obj();
  for (auto& [name, s] : schemas_for(b, all, flavor::v2)) b.add(defs, name, std::move(s));
  b.add(d, "definitions", std::move(defs));
  return d;
}

}  // namespace c5c3::sim::openapi
