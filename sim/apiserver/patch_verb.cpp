// PATCH: JSON merge patch, JSON patch, strategic merge patch (built-ins) and
// server-side apply.
#include "k8s/patch.hpp"
#include "k8s/yaml.hpp"
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/bridges.hpp"
#include "sim/apiserver/kind_rules.hpp"
#include "sim/validation/go_format.hpp"

#include <fmt/format.h>

namespace c5c3::sim {

using k8s::json_document;

namespace {

std::string media_type(std::string_view ct) {
  auto semi = ct.find(';');
  std::string t(ct.substr(0, semi));
  while (!t.empty() && t.back() == ' ') t.pop_back();
  return t;
}

k8s::api_error unsupported_patch(bool strategic) {
  return k8s::make_unsupported_media_type(fmt::format(
      "the body of the request was in an unknown format - accepted media types include: "
      "application/json-patch+json, application/merge-patch+json, {}application/apply-patch+yaml",
      strategic ? "application/strategic-merge-patch+json, " : ""));
}

k8s::api_error patch_error(std::string message) {
  k8s::api_error e;
  e.code = 422;
  e.reason = k8s::reasons::invalid;
  e.message = std::move(message);
  return e;
}

// Server-side apply builds a typed object of the applied configuration first: an
// undeclared field fails that with kube's 500, whatever fieldValidation says.
void refuse_undeclared_applied(const k8s::api_resource& r, const k8s::json_value& config) {
  json_document copy = k8s::copy_document(config);
  auto undeclared = drop_unknown_fields(r, copy, is_builtin(r), &custom_undeclared);
  if (undeclared.empty()) return;
  k8s::api_error e;
  e.code = 500;
  e.message = fmt::format("failed to create typed patch object ({}/{}; {}/{}, Kind={}): .{}: field not declared in schema",
                          k8s::get_string(config, {"metadata", "namespace"}),
                          k8s::get_string(config, {"metadata", "name"}), r.group, r.version, r.kind,
                          undeclared.front());
  fail(std::move(e));
}

}  // namespace

k8s::object apiserver::impl::patch(const k8s::http_request& req, request_info& ri, bool dry_run,
                                   int& created, std::string& verb, std::vector<std::string>& warnings,
                                   k8s::object* before) {
  auto mode = parse_field_validation(req.param("fieldValidation").value_or("")).value_or(field_validation::warn);
  const auto& r = *ri.kind;
  std::string type = media_type(req.header("Content-Type"));
  bool strategic_ok = is_builtin(r);
  write_context ctx{field_manager_of(req), r.api_version(), ri.subresource, r.status_subresource,
                    req.param("force").value_or("") == "true", &r};
  std::string err;
  if (type == "application/apply-patch+yaml" || type == "application/apply-patch+json") {
    verb = "apply";
    auto fm = req.param("fieldManager");
    if (!fm || fm->empty())
      fail(k8s::make_bad_request("PATCH requests with apply must specify a fieldManager"));
    auto config = k8s::yaml_to_json(req.body, &err);
    if (!config || !config->IsObject())
      fail(k8s::make_bad_request("error decoding YAML: " + (err.empty() ? "not an object" : err)));
    refuse_undeclared_applied(r, *config);
    std::lock_guard lock(mu_);
    auto& sr = resource_locked(r);
    auto it = sr.objects.find({r.namespaced ? ri.namespace_ : "", ri.name});
    if (it == sr.objects.end()) {
      if (!ri.subresource.empty()) fail(k8s::make_not_found(r.group, r.plural, ri.name));
      auto applied = server_side_apply(nullptr, *config, ctx);
      auto& a = applied.GetAllocator();
      auto& md = k8s::ensure_object(applied, {"metadata"}, a);
      auto body_name = k8s::get_string(md, {"name"});
      if (!body_name.empty() && body_name != ri.name)
        fail(k8s::make_bad_request(fmt::format(
            "the name of the object ({}) does not match the name on the URL ({})", body_name, ri.name)));
      k8s::set_member(md, "name", k8s::make_string(ri.name, a), a);
      auto o = create_locked(ri, std::move(applied), dry_run, nullptr);
      if (!dry_run) save_state_locked();
      created = 1;
      return o;
    }
    k8s::object live = convert_for(it->second, r);
    auto applied = server_side_apply(&live.json(), *config, ctx);
    // The applied object carries the live resourceVersion: no conflict check.
    auto o = update_locked(ri, std::move(applied), dry_run, nullptr, true, before);
    if (!dry_run) save_state_locked();
    return o;
  }
  std::optional<json_document> patch_doc;
  // Duplicates are kept for fieldValidation to report (a JSON patch has none
  // to report: Go's decoder keeps the last key).
  patch_doc = k8s::parse_json(req.body, &err,
                              type == "application/json-patch+json" ? k8s::duplicate_keys::last_wins
                                                                    : k8s::duplicate_keys::keep);
  if (type != "application/merge-patch+json" && type != "application/json-patch+json" &&
      type != "application/strategic-merge-patch+json")
    fail(unsupported_patch(strategic_ok));
  if (type == "application/strategic-merge-patch+json" && !strategic_ok) fail(unsupported_patch(false));
  if (!patch_doc) fail(k8s::make_bad_request("error decoding patch: " + err));
  field_findings found;
  found.custom = !is_builtin(r);
  if (type != "application/json-patch+json")
    found.duplicates = drop_duplicate_fields(*patch_doc, patch_doc->GetAllocator(), !found.custom);
  std::lock_guard lock(mu_);
  auto& sr = resource_locked(r);
  auto it = sr.objects.find({r.namespaced ? ri.namespace_ : "", ri.name});
  if (it == sr.objects.end()) fail(k8s::make_not_found(r.group, r.plural, ri.name));
  k8s::object live = convert_for(it->second, r);
  json_document next;
  if (type == "application/merge-patch+json") {
    if (!patch_doc->IsObject()) fail(k8s::make_bad_request("a merge patch must be a JSON object"));
    next = k8s::merge_patched(live.json(), *patch_doc);
  } else if (type == "application/json-patch+json") {
    if (!patch_doc->IsArray())
      fail(k8s::make_bad_request(
          "json: cannot unmarshal object into Go value of type jsonpatch.Patch"));
    next = k8s::copy_document(live.json());
    // kube-apiserver 1.34 answers any JSON patch that does not apply with this generic
    // 422 (the library's reason is not shown).
    if (auto e = k8s::apply_json_patch(next, *patch_doc))
      fail(patch_error("the server rejected our request due to an error in our request"));
  } else {
    auto s = strategic_merge(r, live.json(), *patch_doc, &err);
    if (!s) fail(err.empty() ? unsupported_patch(false) : patch_error(err));
    next = std::move(*s);
  }
  // Field validation of the patched object (kube decodes it strictly): Strict refuses with
  // the value it could not decode (the patched object; a strategic patch itself).
  std::string value = k8s::to_json(type == "application/strategic-merge-patch+json"
                                       ? static_cast<const k8s::json_value&>(*patch_doc)
                                       : static_cast<const k8s::json_value&>(next));
  found.unknown = drop_unknown_fields(r, next, !found.custom, &custom_undeclared);
  if (!found.empty() && mode == field_validation::strict)
    fail(patch_error(fmt::format(" \"\" is invalid: patch: Invalid value: {}: {}", validation::go_quote(value),
                                 found.strict_error())));
  if (!found.empty() && mode == field_validation::warn) warnings = found.warning_headers();
  auto o = update_locked(ri, std::move(next), dry_run, &ctx, true, before);
  if (!dry_run) save_state_locked();
  return o;
}

}  // namespace c5c3::sim
