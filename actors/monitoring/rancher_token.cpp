#include "actors/monitoring/rancher_token.hpp"

#include "actors/monitoring/constants.hpp"
#include "k8s/base64.hpp"
#include "k8s/json_answer.hpp"

namespace c5c3::monitoring {

namespace {

std::string secret_value(const k8s::object& secret, std::string_view key) {
  auto v = k8s::base64_decode(secret.get_string({"data", key}));
  return v ? *v : std::string();
}

runtime::service_call lookup(const std::string& id, const std::string& base_url, const std::string& token,
                             std::chrono::milliseconds timeout) {
  runtime::service_call c;
  c.id = id;
  c.service = rancher_service;
  auto base = base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  c.request.method = "GET";
  c.request.url = base + "/tokens/" + token.substr(0, token.find(':'));
  c.request.authorization = "Bearer " + token;
  c.request.insecure_skip_verify = true;
  c.request.timeout = timeout;
  return c;
}

// The token the answer describes, when the lookup succeeded.
std::optional<rancher_token_found> decoded(const runtime::service_answer* a, const std::string& token,
                                           k8s::time_point now) {
  if (!a || !a->answered() || a->status != 200) return std::nullopt;
  auto d = k8s::parse_answer_json(a->body);
  if (!d || !d->IsObject()) return std::nullopt;
  rancher_token_found t;
  t.token = token;
  t.token_id = token.substr(0, token.find(':'));
  t.user_id = std::string(k8s::get_string(*d, {"userId"}));
  auto at = k8s::parse_rfc3339(k8s::get_string(*d, {"expiresAt"}));
  t.expires_at = at ? *at : now + std::chrono::milliseconds(k8s::get_int(*d, {"ttl"}).value_or(0));
  return t;
}

}  // namespace

find_token_step find_token(const k8s::object& secret, const std::string& state, const runtime::sense_snapshot& s,
                           std::chrono::milliseconds timeout) {
  find_token_step out;
  const auto who = std::string(secret.namespace_()) + "/" + std::string(secret.name());
  for (const char* k : {"baseURL", "token"})
    if (secret_value(secret, k).empty()) {
      out.error = "rancher auth secret " + who + " is missing key " + k;
      return out;
    }
  const auto base = secret_value(secret, "baseURL");
  const auto primary = secret_value(secret, "token");
  const auto next = secret_value(secret, "token.next");
  const bool use_next = !next.empty() && secret_value(secret, "token.state") == state;
  if (primary.find(':') == std::string::npos && !use_next) {
    out.error = "rancher token format is invalid";
    return out;
  }
  const bool ask_primary = primary.find(':') != std::string::npos;
  if (ask_primary && !s.answer("rancher-token")) out.calls.push_back(lookup("rancher-token", base, primary, timeout));
  if (use_next && !s.answer("rancher-token-next")) out.calls.push_back(lookup("rancher-token-next", base, next, timeout));
  if (!out.calls.empty()) return out;
  auto first = ask_primary ? decoded(s.answer("rancher-token"), primary, s.now) : std::nullopt;
  auto second = use_next ? decoded(s.answer("rancher-token-next"), next, s.now) : std::nullopt;
  if (second && (!first || second->expires_at > first->expires_at)) first = second;
  if (!first) out.error = "no active rancher token found";
  out.found = first;
  return out;
}

}  // namespace c5c3::monitoring
