// The REST paths of the OpenAPI documents: list, create, deletecollection,
// get, replace, patch, delete and the status subresource, each operation with
// kube's x-kubernetes-action and x-kubernetes-group-version-kind.
#include "sim/openapi/builtin_schemas.hpp"
#include "sim/openapi/openapi.hpp"
#include "sim/openapi/openapi_detail.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace c5c3::sim::openapi::detail {

using k8s::json_value;

namespace {

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

}  // namespace

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

}  // namespace c5c3::sim::openapi::detail
