// SetupClusterForPrometheus, the access setup (apis-monitoring.md 4.2 steps
// 2-4): the Rancher token or the ServiceAccount trickster and its token
// Secret; ClusterRole and RoleBinding appscode:trickster:proxy.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/prometheus_steps.hpp"
#include "k8s/base64.hpp"

#include <chrono>

namespace c5c3::monitoring::prom {

namespace {

bool has_data(const k8s::object& secret, std::string_view key) { return secret.get({"data", key}) != nullptr; }

// The 6-character suffix of the token Secret's name, from the
// ServiceAccount's UID (upstream picks it at random; a pure plan derives it,
// so a retried create names the same Secret). utilrand's alphabet.
std::string token_suffix(std::string_view uid) {
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::uint64_t h = 1469598103934665603ull;
  for (char c : uid) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  std::string out;
  for (int i = 0; i < 6; ++i) {
    out.push_back(alphabet[h % alphabet.size()]);
    h /= alphabet.size();
  }
  return out;
}

k8s::json_value subject(k8s::json_allocator& a, std::string_view kind, std::string_view name, std::string_view ns) {
  k8s::json_value s(rapidjson::kObjectType);
  // The API server defaults a User's apiGroup; written out so the live
  // object is what the plan asks for.
  if (kind == "User") s.AddMember("apiGroup", "rbac.authorization.k8s.io", a);
  s.AddMember("kind", k8s::make_string(kind, a), a);
  s.AddMember("name", k8s::make_string(name, a), a);
  if (!ns.empty()) s.AddMember("namespace", k8s::make_string(ns, a), a);
  return s;
}

}  // namespace

std::string secret_data(const k8s::object& secret, std::string_view key) {
  auto v = k8s::base64_decode(secret.get_string({"data", key}));
  return v ? *v : std::string();
}

const k8s::object* trickster_token_secret(const std::vector<k8s::object>& secrets, bool& pending) {
  for (const auto& s : secrets) {
    if (s.get_string({"type"}) != sa_token_type || s.annotation(sa_name_annotation) != trickster_sa) continue;
    if (has_data(s, "token") && has_data(s, "ca.crt")) return &s;
    pending = true;
  }
  return nullptr;
}

bool access_setup(const view& v, const std::string& state, access& out, runtime::order_plan& p) {
  if (v.f.rancher && !v.cfg.rancher_auth_secret.empty()) {
    p.stage = "rancher token";
    const auto* secret = v.s.one(rancher_secret_slot);
    if (!secret) {
      p.error = "secrets \"" + v.cfg.rancher_auth_secret + "\" not found";
      return true;
    }
    auto step = find_token(*secret, state, v.s, v.cfg.backend.timeout);
    if (!step.calls.empty() || !step.error.empty()) {
      p.calls = std::move(step.calls);
      p.error = std::move(step.error);
      return true;
    }
    out.rancher = step.found;
    out.ca = secret_data(*secret, "ca.crt");
    return false;
  }
  if (ace_managed_spoke(v.s) && !v.f.openshift) return false;  // no token, no CA
  p.stage = "serviceaccount";
  const auto fresh_sa = new_object(serviceaccount_gvk, v.ns, trickster_sa);
  const auto* sa = live_or_met(v.s, v.s.one(sa_slot), fresh_sa);
  auto w = create_or_patch(sa, fresh_sa, [&](k8s::object_builder& b) {
    set_owner_references(b, {controller_ref(v.prom(), prometheus_gvk)});
  });
  if (w) {
    p.writes.push_back(std::move(*w));
    return true;
  }
  bool pending = false;
  const auto* token = trickster_token_secret(v.s.list(tokens_slot), pending);
  if (!token) {
    p.stage = "serviceaccount token";
    if (pending) {
      p.requeue = std::chrono::seconds(1);  // the token controller has not filled it yet
      return true;
    }
    k8s::object_builder b{"v1", "Secret", v.ns, trickster_sa + "-token-" + token_suffix(sa->uid())};
    b.set_string({"type"}, sa_token_type);
    b.set_annotation(sa_name_annotation, trickster_sa);
    b.add_owner_reference(controller_ref(*sa, serviceaccount_gvk));
    p.writes.push_back(runtime::make_create(std::move(b).freeze()));
    return true;
  }
  out.sa_token = secret_data(*token, "token");
  out.ca = secret_data(*token, "ca.crt");
  return false;
}

void rbac_and_preset(const view& v, const k8s::object& svc, const access& a, runtime::order_plan& p) {
  p.stage = "rbac";
  if (!v.f.openshift) {
    auto w = create_or_patch(v.s, v.s.one(clusterrole_slot), new_object(clusterrole_gvk, "", trickster_proxy),
                             [](k8s::object_builder& b) {
                               auto& al = b.alloc();
                               k8s::json_value rule(rapidjson::kObjectType);
                               k8s::json_value groups(rapidjson::kArrayType), resources(rapidjson::kArrayType),
                                   verbs(rapidjson::kArrayType);
                               groups.PushBack("", al);
                               resources.PushBack("services/proxy", al);
                               verbs.PushBack("*", al);
                               rule.AddMember("apiGroups", std::move(groups), al);
                               rule.AddMember("resources", std::move(resources), al);
                               rule.AddMember("verbs", std::move(verbs), al);
                               k8s::json_value rules(rapidjson::kArrayType);
                               rules.PushBack(std::move(rule), al);
                               b.set({"rules"}, std::move(rules));
                             });
    if (w) p.writes.push_back(std::move(*w));
  }
  const auto rb_slot = svc.namespace_() == v.ns ? rolebinding_slot : rolebinding_openshift_slot;
  auto rb = create_or_patch(
      v.s, v.s.one(rb_slot), new_object(rolebinding_gvk, svc.namespace_(), trickster_proxy), [&](k8s::object_builder& b) {
        auto& al = b.alloc();
        set_owner_references(b, {controller_ref(svc, service_gvk)});
        b.set_string({"roleRef", "apiGroup"}, "rbac.authorization.k8s.io");
        b.set_string({"roleRef", "kind"}, "ClusterRole");
        b.set_string({"roleRef", "name"}, v.f.openshift ? cluster_monitoring_view : trickster_proxy);
        k8s::json_value subjects(rapidjson::kArrayType);
        if (a.rancher)
          subjects.PushBack(subject(al, "User", a.rancher->user_id, ""), al);
        else if (ace_managed_spoke(v.s) && !v.f.openshift)
          subjects.PushBack(subject(al, "ServiceAccount", trickster_sa, ace_spoke_sa_namespace), al);
        else
          subjects.PushBack(subject(al, "ServiceAccount", trickster_sa, v.ns), al);
        b.set({"subjects"}, std::move(subjects));
      });
  if (rb) p.writes.push_back(std::move(*rb));
  add_preset(v, p);  // goes out with them
}

}  // namespace c5c3::monitoring::prom
