// The emulator's hooks for RBAC (sim/apiserver/rbac.hpp; the guard on
// granting it, rbac_escalation.hpp), ServiceAccount tokens (TokenRequest and
// their authentication) and the OwnerReferencesPermissionEnforcement
// admission plugin.
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/rbac.hpp"
#include "sim/apiserver/rbac_escalation.hpp"
#include "sim/apiserver/service_account_token.hpp"
#include "sim/validation/go_format.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;

namespace {

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(k8s::clock::now().time_since_epoch()).count();
}

const std::map<k8s::object_key, k8s::object>* objects_of(const std::map<std::string, stored_resource>& resources,
                                                         const std::string& qualified) {
  auto it = resources.find(qualified);
  return it == resources.end() ? nullptr : &it->second.objects;
}

rbac::policy policy_of(const std::map<std::string, stored_resource>& resources) {
  return {objects_of(resources, "roles.rbac.authorization.k8s.io"),
          objects_of(resources, "clusterroles.rbac.authorization.k8s.io"),
          objects_of(resources, "rolebindings.rbac.authorization.k8s.io"),
          objects_of(resources, "clusterrolebindings.rbac.authorization.k8s.io")};
}

std::vector<const json_value*> refs_of(const json_value* o) {
  std::vector<const json_value*> out;
  if (!o) return out;
  if (const auto* refs = k8s::find(*o, {"metadata", "ownerReferences"}); refs && refs->IsArray())
    for (const auto& r : refs->GetArray()) out.push_back(&r);
  return out;
}

bool blocking(const json_value& ref) { return k8s::get_bool(ref, {"blockOwnerDeletion"}).value_or(false); }

}  // namespace

std::optional<k8s::api_error> apiserver::impl::check_access(const k8s::http_request& req, const identity& who,
                                                            const std::string& verb) const {
  if (!rbac_enabled()) return std::nullopt;
  auto a = rbac::request_attributes(req.method, req.path, req.param("watch"), req.param("fieldSelector"));
  if (!verb.empty()) a.verb = verb;
  a.user = {who.user, who.groups};
  rbac::decision d;
  {
    std::lock_guard lock(mu_);
    d = rbac::authorize(a, policy_of(resources_));
  }
  if (d.allowed) return std::nullopt;
  return rbac::forbidden(a, d.reason);
}

std::optional<identity> apiserver::impl::authenticate_service_account(std::string_view token) const {
  auto claims = verify_service_account_token(sa_key_, token, unix_now());
  if (!claims) return std::nullopt;
  std::lock_guard lock(mu_);
  const auto* sas = objects_of(resources_, "serviceaccounts");
  if (!sas) return std::nullopt;
  auto it = sas->find({claims->namespace_, claims->name});
  if (it == sas->end() || it->second.uid() != claims->uid) return std::nullopt;
  identity id{rbac::service_account_user(claims->namespace_, claims->name),
              rbac::service_account_groups(claims->namespace_), std::string(token)};
  id.groups.push_back("system:authenticated");
  return id;
}

std::string apiserver::impl::issue_token_locked(const std::string& ns, const std::string& name,
                                                std::int64_t seconds, std::vector<std::string> audiences) const {
  const auto* sas = objects_of(resources_, "serviceaccounts");
  const k8s::object* sa = nullptr;
  if (sas)
    if (auto it = sas->find({ns, name}); it != sas->end()) sa = &it->second;
  if (!sa) fail(k8s::make_not_found("", "serviceaccounts", name));
  service_account_claims c{ns, name, std::string(sa->uid()), std::move(audiences), unix_now(), 0};
  c.expires_at = c.issued_at + seconds;
  return issue_service_account_token(sa_key_, c);
}

void apiserver::impl::serve_token_request(const k8s::http_request& req, k8s::http_responder& res,
                                          const request_info& ri) {
  if (ri.verb != "create")
    fail(k8s::make_method_not_allowed("the server does not allow this method on the requested resource"));
  std::int64_t seconds = 3600;
  std::vector<std::string> audiences;
  if (!req.body.empty()) {
    auto body = parse_body(req);
    seconds = k8s::get_int(body, {"spec", "expirationSeconds"}).value_or(3600);
    if (const auto* aud = k8s::find(body, {"spec", "audiences"}); aud && aud->IsArray())
      for (const auto& v : aud->GetArray())
        if (v.IsString()) audiences.emplace_back(k8s::as_string_view(v));
  }
  if (seconds < 600)
    fail(k8s::make_invalid("authentication.k8s.io", "TokenRequest", ri.name,
                           {{"FieldValueInvalid",
                             fmt::format("Invalid value: {}: may not specify a duration less than 10 minutes", seconds),
                             "spec.expirationSeconds"}}));
  if (audiences.empty()) audiences.emplace_back(service_account_issuer);
  std::string token;
  {
    std::lock_guard lock(mu_);
    token = issue_token_locked(ri.namespace_, ri.name, seconds, audiences);
  }
  json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("kind", "TokenRequest", a);
  d.AddMember("apiVersion", "authentication.k8s.io/v1", a);
  json_value md(rapidjson::kObjectType);
  md.AddMember("name", k8s::make_string(ri.name, a), a);
  md.AddMember("namespace", k8s::make_string(ri.namespace_, a), a);
  md.AddMember("creationTimestamp", json_value(rapidjson::kNullType), a);
  d.AddMember("metadata", md, a);
  json_value spec(rapidjson::kObjectType);
  json_value aud(rapidjson::kArrayType);
  for (const auto& s : audiences) aud.PushBack(k8s::make_string(s, a), a);
  spec.AddMember("audiences", aud, a);
  spec.AddMember("expirationSeconds", seconds, a);
  spec.AddMember("boundObjectRef", json_value(rapidjson::kNullType), a);
  d.AddMember("spec", spec, a);
  json_value status(rapidjson::kObjectType);
  status.AddMember("token", k8s::make_string(token, a), a);
  status.AddMember("expirationTimestamp",
                   k8s::make_string(k8s::format_rfc3339(k8s::clock::now() + std::chrono::seconds(seconds)), a), a);
  d.AddMember("status", status, a);
  res.send({201, {{"Content-Type", "application/json"}, {"Cache-Control", "no-cache, private"}}, k8s::to_json(d)});
}

void apiserver::impl::serve_self_subject_review(k8s::http_responder& res, const request_info& ri,
                                                 const identity& who) {
  if (ri.verb != "create" || !ri.name.empty())
    fail(k8s::make_method_not_allowed("the server does not allow this method on the requested resource"));
  json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("kind", "SelfSubjectReview", a);
  d.AddMember("apiVersion", "authentication.k8s.io/v1", a);
  json_value md(rapidjson::kObjectType);
  md.AddMember("creationTimestamp", json_value(rapidjson::kNullType), a);
  d.AddMember("metadata", md, a);
  json_value user(rapidjson::kObjectType);
  user.AddMember("username", k8s::make_string(who.user, a), a);
  json_value groups(rapidjson::kArrayType);
  for (const auto& g : who.groups) groups.PushBack(k8s::make_string(g, a), a);
  user.AddMember("groups", groups, a);
  json_value status(rapidjson::kObjectType);
  status.AddMember("userInfo", user, a);
  d.AddMember("status", status, a);
  res.send({201, {{"Content-Type", "application/json"}, {"Cache-Control", "no-cache, private"}}, k8s::to_json(d)});
}

void apiserver::impl::ensure_bootstrap_policy_locked() {
  if (!rbac_enabled()) return;
  for (auto& doc : rbac::bootstrap_policy()) {
    std::string plural = k8s::get_string(doc, {"kind"}) == "ClusterRole" ? "clusterroles" : "clusterrolebindings";
    const auto* kind = find_kind_locked("rbac.authorization.k8s.io", "v1", plural);
    auto& sr = resource_locked(*kind);
    if (sr.objects.count({"", std::string(k8s::get_string(doc, {"metadata", "name"}))})) continue;
    k8s::api_resource copy = *kind;
    create_locked(own_create(copy), std::move(doc), false, nullptr);
  }
}

void apiserver::impl::admit_locked(const request_info& ri, const json_value* old, const json_value& next) const {
  if (!ri.who || !rbac_enabled()) return;
  // The RBAC storage's own guard: no grant of what the writer does not hold.
  if (ri.group == "rbac.authorization.k8s.io" && ri.subresource.empty())
    if (auto e = rbac::check_grant({ri.who->user, ri.who->groups}, ri.plural, ri.namespace_, old, next,
                                   policy_of(resources_)))
      fail(std::move(*e));
  const auto& plugins = opts_.admission_plugins;
  if (std::find(plugins.begin(), plugins.end(), "OwnerReferencesPermissionEnforcement") == plugins.end()) return;
  if (ri.group.empty() && ri.plural == "pods" && ri.subresource == "status") return;
  auto new_refs = refs_of(&next), old_refs = refs_of(old);
  bool changing = old ? new_refs.size() != old_refs.size() : !new_refs.empty();
  for (std::size_t i = 0; old && !changing && i < new_refs.size(); ++i)
    changing = !k8s::json_equal(*new_refs[i], *old_refs[i]);
  if (!changing) return;
  std::string name = ri.name.empty() ? std::string(k8s::get_string(next, {"metadata", "name"})) : ri.name;
  auto deny = [&](const std::string& why) {
    k8s::api_error e = k8s::make_forbidden(fmt::format("{} {} is forbidden: {}",
                                                       k8s::qualified_resource(ri.group, ri.plural),
                                                       validation::go_quote(name), why));
    e.group = ri.group;
    e.kind = ri.plural;
    e.name = name;
    fail(std::move(e));
  };
  auto p = policy_of(resources_);
  rbac::attributes a;
  a.user = {ri.who->user, ri.who->groups};
  a.resource_request = true;
  a.namespace_ = ri.namespace_;
  if (old) {
    // Changing the owners of an existing object needs the power to delete it.
    a.verb = "delete";
    a.group = ri.group;
    a.version = ri.version;
    a.resource = ri.plural;
    a.subresource = ri.subresource;
    a.name = name;
    auto d = rbac::authorize(a, p);
    if (!d.allowed) deny(fmt::format("cannot set an ownerRef on a resource you can't delete: {}, <nil>", d.reason));
  }
  for (const auto* ref : new_refs) {
    if (!blocking(*ref)) continue;
    // Only a reference that becomes blocking (new, or false before) is checked.
    const json_value* before = nullptr;
    for (const auto* o : old_refs)
      if (k8s::get_string(*o, {"uid"}) == k8s::get_string(*ref, {"uid"})) before = o;
    if (before && blocking(*before)) continue;
    auto gv = k8s::gvk::from_api_version(k8s::get_string(*ref, {"apiVersion"}), k8s::get_string(*ref, {"kind"}));
    std::vector<std::string> plurals;
    for (const auto& [key, r] : served_)
      if (r.group == gv.group && r.version == gv.version && r.kind == gv.kind) plurals.push_back(r.plural);
    if (plurals.empty())
      deny(fmt::format("cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion {} "
                       "Kind {}: no matches for kind {} in version {}",
                       gv.api_version(), gv.kind, validation::go_quote(gv.kind), validation::go_quote(gv.api_version())));
    for (const auto& plural : plurals) {
      a.verb = "update";
      a.group = gv.group;
      a.version = gv.version;
      a.resource = plural;
      a.subresource = "finalizers";
      a.name = std::string(k8s::get_string(*ref, {"name"}));
      auto d = rbac::authorize(a, p);
      if (!d.allowed)
        deny(fmt::format("cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set "
                         "finalizers on: {}, <nil>",
                         d.reason));
    }
  }
}

}  // namespace c5c3::sim
