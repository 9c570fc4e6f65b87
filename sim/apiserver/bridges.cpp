#include "sim/apiserver/bridges.hpp"

#include "k8s/patch.hpp"
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/kind_rules.hpp"
#include "sim/openapi/discovery.hpp"
#include "sim/openapi/openapi.hpp"
#include "sim/openapi/table.hpp"
#include "sim/ssa/builtin_schemas.hpp"
#include "sim/ssa/server_side_apply.hpp"
#include "sim/ssa/strategic_merge.hpp"
#include "sim/validation/validation.hpp"

#include <map>
#include <mutex>

namespace c5c3::sim {

namespace {

bool contains(std::string_view h, std::string_view w) { return h.find(w) != std::string_view::npos; }


discovery_answer json_answer(const k8s::json_value& v, std::string ct = "application/json") {
  return {200, std::move(ct), k8s::to_json(v)};
}

ssa::type_schema schema_for(const write_context& ctx) {
  if (ctx.resource) {
    if (auto s = ssa::builtin_schema(ctx.api_version, ctx.resource->kind)) return *s;
    return ssa::object_schema_from_openapi(ctx.resource->schema ? ctx.resource->schema.get() : nullptr);
  }
  return {};
}

std::vector<std::string> ignored(const write_context& ctx) {
  if (!ctx.status_subresource) return {};
  if (ctx.subresource == "status") return {"spec"};
  return {"status"};
}

[[noreturn]] void fail_with(int code, const std::string& message) {
  k8s::api_error e;
  e.code = code;
  e.reason = code == 409   ? std::string(k8s::reasons::conflict)
             : code == 422 ? std::string(k8s::reasons::invalid)
             : code == 400 ? std::string(k8s::reasons::bad_request)
                           : std::string(k8s::reasons::internal_error);
  e.message = message;
  fail(e);
}

enum class v2_format { none, json, protobuf };

// The format of /openapi/v2 an Accept header asks for, clause by clause.
v2_format openapi_v2_format(std::string_view accept) {
  if (accept.empty()) return v2_format::json;
  std::size_t i = 0;
  while (i <= accept.size()) {
    auto j = accept.find(',', i);
    if (j == std::string_view::npos) j = accept.size();
    auto clause = accept.substr(i, j - i);
    clause = clause.substr(0, clause.find(';'));
    while (!clause.empty() && clause.front() == ' ') clause.remove_prefix(1);
    while (!clause.empty() && clause.back() == ' ') clause.remove_suffix(1);
    if (clause == "application/json" || clause == "application/*" || clause == "*/*") return v2_format::json;
    if (clause == openapi::openapi_v2_protobuf_type || clause == openapi::openapi_v2_protobuf_type_deprecated)
      return v2_format::protobuf;
    i = j + 1;
  }
  return v2_format::none;
}

}  // namespace

std::optional<discovery_answer> discovery(const std::string& path, const std::string& accept,
                                          const std::vector<k8s::api_resource>& served,
                                          const std::string& server_address) {
  auto segs = split_path(path);
  bool aggregated = contains(accept, "as=APIGroupDiscoveryList");
  auto dv = contains(accept, "v=v2;") || contains(accept, "v=v2,") ||
                    (contains(accept, "v=v2") && !contains(accept, "v=v2beta1"))
                ? openapi::discovery_version::v2
                : openapi::discovery_version::v2beta1;
  if (segs.size() == 1 && (segs[0] == "api" || segs[0] == "apis")) {
    bool core = segs[0] == "api";
    if (aggregated)
      return json_answer(openapi::aggregated_discovery(served, core, dv),
                         openapi::aggregated_discovery_content_type(dv));
    if (core) return json_answer(openapi::api_versions(server_address));
    return json_answer(openapi::api_group_list(served));
  }
  if (segs.size() == 2 && segs[0] == "api") {
    auto d = openapi::api_resource_list(served, "", segs[1]);
    if (d) return json_answer(*d);
    return std::nullopt;
  }
  if (segs.size() == 2 && segs[0] == "apis") {
    auto d = openapi::api_group(served, segs[1]);
    if (d) return json_answer(*d);
    return std::nullopt;
  }
  if (segs.size() == 3 && segs[0] == "apis") {
    auto d = openapi::api_resource_list(served, segs[1], segs[2]);
    if (d) return json_answer(*d);
    return std::nullopt;
  }
  if (!segs.empty() && segs[0] == "openapi") {
    if (segs.size() == 2 && segs[1] == "v2") {
      // kube-openapi's handler: the first Accept clause it can serve wins.
      auto want = openapi_v2_format(accept);
      if (want == v2_format::none)
        return discovery_answer{406, "application/json",
                                k8s::to_json(k8s::make_status_body(k8s::make_not_acceptable(
                                    "only the following media types are accepted: application/json, " +
                                    std::string(openapi::openapi_v2_protobuf_type))))};
      auto doc = openapi::openapi_v2(served);
      if (want == v2_format::protobuf)
        return discovery_answer{200, std::string(openapi::openapi_v2_protobuf_type),
                                openapi::openapi_v2_protobuf(doc)};
      return json_answer(doc);
    }
    if (segs.size() == 2 && segs[1] == "v3") return json_answer(openapi::openapi_v3_index(served));
    if (segs.size() >= 3 && segs[1] == "v3") {
      std::string rest;
      for (std::size_t i = 2; i < segs.size(); ++i) rest += (i > 2 ? "/" : "") + segs[i];
      auto d = openapi::openapi_v3_document(served, rest);
      if (d) return json_answer(*d);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {
openapi::table_options table_opts(const std::string& include_object) {
  openapi::table_options o;
  auto inc = openapi::parse_include_object(include_object);
  if (!inc)
    fail(k8s::make_bad_request("unrecognized includeObject value: \"" + include_object + "\""));
  o.include = *inc;
  o.now = k8s::clock::now();
  return o;
}
}  // namespace

k8s::json_document table_of(const k8s::api_resource& r, const std::vector<k8s::object>& items,
                            const std::string& resource_version, const std::string& continue_token,
                            const std::string& include_object, std::optional<std::int64_t> remaining) {
  openapi::list_meta meta;
  meta.resource_version = resource_version;
  meta.continue_token = continue_token;
  meta.remaining_item_count = remaining;
  return openapi::render_table(r, items, meta, table_opts(include_object));
}

k8s::json_document table_of(const k8s::api_resource& r, const k8s::object& obj,
                            const std::string& include_object) {
  return openapi::render_table(r, obj, table_opts(include_object));
}

k8s::json_document with_managed_fields(const k8s::json_value* old, const k8s::json_value& updated,
                                       const write_context& ctx) {
  ssa::update_options o;
  o.manager = ctx.manager;
  o.api_version = ctx.api_version;
  o.subresource = ctx.subresource;
  o.now = k8s::format_rfc3339(k8s::clock::now());
  o.ignored_fields = ignored(ctx);
  o.schema = schema_for(ctx);
  auto r = ssa::update_managed_fields(old, updated, o);
  if (!r.ok) fail_with(r.code ? r.code : 500, r.message);
  return std::move(r.object);
}

k8s::json_document server_side_apply(const k8s::json_value* live, const k8s::json_value& config,
                                     const write_context& ctx) {
  ssa::apply_options o;
  o.manager = ctx.manager;
  o.force = ctx.force;
  o.api_version = ctx.api_version;
  o.subresource = ctx.subresource;
  o.now = k8s::format_rfc3339(k8s::clock::now());
  o.ignored_fields = ignored(ctx);
  o.schema = schema_for(ctx);
  auto r = ssa::apply(live, config, o);
  if (!r.ok) {
    if (r.code == 409) {
      auto body = r.status();
      k8s::api_error e = k8s::parse_status(409, k8s::to_json(body));
      fail(e);
    }
    fail_with(r.code ? r.code : 500, r.message);
  }
  return std::move(r.object);
}

std::optional<k8s::json_document> strategic_merge(const k8s::api_resource& r,
                                                  const k8s::json_value& original,
                                                  const k8s::json_value& patch, std::string* error) {
  if (!ssa::supports_strategic_merge(r.api_version(), r.kind)) return std::nullopt;
  auto schema = ssa::builtin_schema(r.api_version(), r.kind);
  auto doc = k8s::copy_document(original);
  if (auto e = ssa::apply_strategic_merge_patch(doc, patch, schema ? *schema : ssa::type_schema{})) {
    k8s::api_error err;
    err.code = e->code;
    err.reason = e->code == 422 ? std::string(k8s::reasons::invalid) : std::string(k8s::reasons::bad_request);
    err.message = e->message;
    fail(err);
  }
  (void)error;
  return doc;
}

namespace {

std::shared_ptr<const validation::compiled_schema> compiled(const k8s::json_value& schema) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const validation::compiled_schema>> cache;
  auto key = k8s::to_json(schema);
  std::lock_guard lock(mu);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  auto c = validation::compile(schema, "spec.versions[0].schema.openAPIV3Schema");
  if (cache.size() > 256) cache.clear();
  cache[key] = c.schema;
  return c.schema;
}

}  // namespace

void validate_custom(const k8s::api_resource& r, k8s::json_document& doc, const k8s::json_value* old) {
  if (!r.schema) return;
  auto c = compiled(*r.schema);
  if (!c) return;
  validation::prune(*c, doc);
  validation::apply_defaults(*c, doc, doc.GetAllocator());
  auto errs = validation::validate(*c, doc, old);
  if (!errs.empty())
    fail(validation::invalid_error(r.group, r.kind, k8s::get_string(doc, {"metadata", "name"}), errs));
}

std::vector<std::string> custom_undeclared(const k8s::api_resource& r, k8s::json_value& obj) {
  if (!r.schema) return {};
  auto c = compiled(*r.schema);
  return c ? validation::prune(*c, obj) : std::vector<std::string>{};
}

field_findings check_fields(const k8s::api_resource& r, k8s::json_document& doc) {
  field_findings f;
  bool builtin = is_builtin(r);
  f.custom = !builtin;
  f.duplicates = drop_duplicate_fields(doc, doc.GetAllocator(), builtin);
  f.unknown = drop_unknown_fields(r, doc, builtin, &custom_undeclared);
  return f;
}

void validate_crd_schemas(const k8s::json_value& crd) {
  const auto* vs = k8s::find(crd, {"spec", "versions"});
  if (!vs || !vs->IsArray()) return;
  std::vector<validation::field_error> errs;
  for (rapidjson::SizeType i = 0; i < vs->Size(); ++i) {
    const auto* s = k8s::find((*vs)[i], {"schema", "openAPIV3Schema"});
    if (!s) {
      errs.push_back(validation::required(
          "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema",
          "schemas are required"));
      continue;
    }
    auto c = validation::compile(*s, "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema");
    for (auto& e : c.errors) errs.push_back(e);
  }
  if (!errs.empty())
    fail(validation::invalid_error("apiextensions.k8s.io", "CustomResourceDefinition",
                                   k8s::get_string(crd, {"metadata", "name"}), errs));
}

}  // namespace c5c3::sim
