// ranchertoken.TokenRefresher (monitoring-controllers.txt; apis-monitoring.md
// 10.1-10.3) as a kind on the order runner: the order is the Rancher auth
// Secret (--rancher-auth-secret in the operator's namespace), watched alone
// (a watch of that namespace with metadata.name=<secret>). A pass finds the
// token through the cluster's State() (FindToken, rancher_token.hpp); when it
// expires within 24 h it asks Rancher for a new one (POST <baseURL>/tokens,
// 365 days) and writes token.next, token.state and token.expiresAt into the
// Secret; the order actor's own timer `renewal` brings it back at the newest
// expiry - 24 h. A failure names the Secret; no token reaches an error, a
// log line (the runner logs calls by service, method and URL) or a metric.
#pragma once

#include "actors/runtime/runner/declaration.hpp"
#include "k8s/time.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace c5c3::monitoring {

inline const std::string token_refresher_controller = "ranchertoken";
inline const std::string renewal_timer = "renewal";
inline const std::string renew_call_id = "rancher-renew";
// Renew when the token expires within this; come back this long before expiry.
inline constexpr std::chrono::hours renew_within{24};
// What a renewal asks for: 365 days in ms (upstream's ttl).
inline constexpr std::int64_t renewed_ttl_ms = 31'536'000'000;

struct token_refresher_settings {
  std::string secret;         // --rancher-auth-secret
  std::string pod_namespace;  // where it lives
  std::string cluster_name;   // --cluster-name (State() when no metadata names one)
  std::chrono::milliseconds timeout{30'000};  // each Rancher request
};

// Pure steps.
// Whether a token expiring at `expires_at` is renewed at `now` (24 h or less left).
bool renewal_due(k8s::time_point expires_at, k8s::time_point now);
// When to come back for a token expiring at `expires_at`: 24 h before, or
// nothing when that is not after `now` (upstream: a negative requeue is none).
std::optional<k8s::time_point> renewal_at(k8s::time_point expires_at, k8s::time_point now);
// POST <baseURL>/tokens as `token` (Bearer), description monitoring-operator-<unix seconds>.
runtime::service_call renew_request(const std::string& base_url, const std::string& token, k8s::time_point now,
                                    std::chrono::milliseconds timeout);

struct renewed_token {
  std::string token;       // "<id>:<secret>"
  std::string expires_at;  // as Rancher wrote it (token.expiresAt)
  k8s::time_point expiry{};
};
// The renewal's answer read: the new token, or `error` (never with the token
// or the body: the status and norman's error code only).
std::optional<renewed_token> read_renewal(const runtime::service_answer& a, k8s::time_point now, std::string& error);

// The merge patch of the Secret writing token.next, token.state and
// token.expiresAt (data, base64); nullopt when the Secret holds them already.
std::optional<runtime::child_write> renewal_patch(const k8s::object& secret, const renewed_token& t,
                                                  const std::string& state);

runtime::order_plan plan_token_refresher(const token_refresher_settings& cfg, const runtime::sense_snapshot& s);

std::shared_ptr<const runtime::kind_declaration> token_refresher_declaration(token_refresher_settings cfg);

}  // namespace c5c3::monitoring
