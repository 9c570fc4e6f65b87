#include "actors/monitoring/token_refresher.hpp"

#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/rancher_token.hpp"
#include "k8s/base64.hpp"
#include "k8s/json.hpp"
#include "k8s/json_answer.hpp"

#include <fmt/format.h>

namespace c5c3::monitoring {

namespace {

using runtime::locator;
using runtime::sense_snapshot;

// The cluster's State() is read from these (cluster_meta.hpp).
const std::string kube_system_slot = "kube-system";
const std::string ace_info_slot = "ace-info";

std::string who(const k8s::object& secret) {
  return "rancher auth secret " + std::string(secret.namespace_()) + "/" + std::string(secret.name());
}

// Every error names the Secret once.
std::string named(const k8s::object& secret, const std::string& error) {
  const auto w = who(secret);
  return error.rfind(w, 0) == 0 ? error : w + ": " + error;
}

std::string data(const k8s::object& secret, std::string_view key) {
  auto v = k8s::base64_decode(secret.get_string({"data", key}));
  return v ? *v : std::string();
}

std::string trimmed(std::string base) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

void come_back(runtime::order_plan& p, k8s::time_point expires_at, k8s::time_point now) {
  if (auto at = renewal_at(expires_at, now)) p.timers[renewal_timer] = *at;
}

}  // namespace

bool renewal_due(k8s::time_point expires_at, k8s::time_point now) { return expires_at - now <= renew_within; }

std::optional<k8s::time_point> renewal_at(k8s::time_point expires_at, k8s::time_point now) {
  auto at = expires_at - renew_within;
  if (at <= now) return std::nullopt;
  return at;
}

runtime::service_call renew_request(const std::string& base_url, const std::string& token, k8s::time_point now,
                                    std::chrono::milliseconds timeout) {
  runtime::service_call c;
  c.id = renew_call_id;
  c.service = rancher_service;
  c.request.method = "POST";
  c.request.url = trimmed(base_url) + "/tokens";
  c.request.authorization = "Bearer " + token;
  c.request.insecure_skip_verify = true;
  c.request.timeout = timeout;
  const auto unix_seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  c.request.body = fmt::format(R"({{"description":"monitoring-operator-{}","ttl":{}}})", unix_seconds, renewed_ttl_ms);
  return c;
}

std::optional<renewed_token> read_renewal(const runtime::service_answer& a, k8s::time_point now, std::string& error) {
  if (!a.answered()) {
    error = "renewing its token failed: " + a.error;
    return std::nullopt;
  }
  auto d = k8s::parse_answer_json(a.body);
  if (a.status >= 300) {
    std::string code = d && d->IsObject() ? std::string(k8s::get_string(*d, {"code"})) : std::string();
    error = fmt::format("renewing its token failed: Rancher answered {}{}", a.status,
                        code.empty() ? "" : " (" + code + ")");
    return std::nullopt;
  }
  renewed_token t;
  if (d && d->IsObject()) t.token = std::string(k8s::get_string(*d, {"token"}));
  if (t.token.find(':') == std::string::npos) {
    error = fmt::format("renewing its token: Rancher's answer ({}) carries no token", a.status);
    return std::nullopt;
  }
  t.expires_at = std::string(k8s::get_string(*d, {"expiresAt"}));
  auto at = k8s::parse_rfc3339(t.expires_at);
  t.expiry = at ? *at : now + std::chrono::milliseconds(k8s::get_int(*d, {"ttl"}).value_or(0));
  return t;
}

std::optional<runtime::child_write> renewal_patch(const k8s::object& secret, const renewed_token& t,
                                                  const std::string& state) {
  const std::pair<const char*, const std::string*> keys[] = {
      {"token.next", &t.token}, {"token.state", &state}, {"token.expiresAt", &t.expires_at}};
  bool same = true;
  for (const auto& [k, v] : keys) same = same && data(secret, k) == *v && secret.get({"data", k});
  if (same) return std::nullopt;
  k8s::object_builder b("v1", "Secret", secret.namespace_(), secret.name());
  for (const auto& [k, v] : keys) b.set_string({"data", k}, k8s::base64_encode(*v));
  return runtime::make_merge_patch(std::move(b).freeze());
}

runtime::order_plan plan_token_refresher(const token_refresher_settings& cfg, const sense_snapshot& s) {
  runtime::order_plan p;
  const auto& secret = s.order;
  const auto* ks = s.one(kube_system_slot);
  const auto* info = s.one(ace_info_slot);
  std::string why;
  auto md = cluster_metadata_of(ks ? *ks : k8s::object{}, info ? *info : k8s::object{}, cfg.cluster_name, &why);
  if (!md) {
    p.error = named(secret, "the cluster's state: " + why);
    return p;
  }
  const auto state = md->state();
  // Renewed this pass: the answer decides (the lookups are of the old keys).
  if (const auto* renewal = s.answer(renew_call_id)) {
    p.stage = "renew";
    std::string error;
    auto t = read_renewal(*renewal, s.now, error);
    if (!t) {
      p.error = named(secret, error);
      return p;
    }
    if (auto w = renewal_patch(secret, *t, state)) p.writes.push_back(std::move(*w));
    come_back(p, t->expiry, s.now);
    return p;
  }
  p.stage = "find-token";
  auto found = find_token(secret, state, s, cfg.timeout);
  if (!found.calls.empty()) {
    p.calls = std::move(found.calls);
    return p;
  }
  if (!found.found) {
    p.error = named(secret, found.error);
    return p;
  }
  if (!renewal_due(found.found->expires_at, s.now)) {
    come_back(p, found.found->expires_at, s.now);
    return p;
  }
  p.stage = "renew";
  p.calls.push_back(renew_request(data(secret, "baseURL"), found.found->token, s.now, cfg.timeout));
  return p;
}

std::shared_ptr<const runtime::kind_declaration> token_refresher_declaration(token_refresher_settings cfg) {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = token_refresher_controller;
  k->gvk = secret_gvk;
  k->admission = false;
  k->order_namespace = cfg.pod_namespace;
  k->order_name = cfg.secret;
  k->reads.push_back(runtime::named(kube_system_slot, namespace_gvk, [](const sense_snapshot&) -> std::optional<locator> {
    return locator{"", kube_system};
  }));
  auto info = runtime::named(ace_info_slot, configmap_gvk, [](const sense_snapshot&) -> std::optional<locator> {
    return locator{kube_public, ace_info};
  });
  info.watch_namespace = kube_public;
  k->reads.push_back(std::move(info));
  k->plan = [cfg](const sense_snapshot& s) { return plan_token_refresher(cfg, s); };
  return k;
}

}  // namespace c5c3::monitoring
