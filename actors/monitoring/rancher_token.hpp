// FindToken (apis-monitoring.md 10.2) as the PrometheusReconciler uses it:
// the Rancher auth Secret's token (and its renewed token.next, when the
// Secret's token.state is the cluster's state) looked up at the Rancher API,
// keeping the one that expires later. The lookups are the plan's calls to the
// "rancher" service (TLS not verified, as norman's client is configured):
// GET <baseURL>/tokens/<id> with the token as Bearer. Simplified from norman:
// the schema discovery (GET <baseURL>, X-API-Schemas) is not made; a token the
// API refuses is refused at the token's own URL just the same. Where upstream
// exits the process (no token works), the pass fails instead.
#pragma once

#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/time.hpp"

#include <optional>
#include <string>
#include <vector>

namespace c5c3::monitoring {

struct rancher_token_found {
  std::string user_id;
  std::string token_id;
  std::string token;  // "<id>:<secret>", the bearer the backend gets
  k8s::time_point expires_at{};
};

struct find_token_step {
  std::vector<runtime::service_call> calls;  // asked this round (no answer yet)
  std::optional<rancher_token_found> found;
  std::string error;  // the pass fails with it
};

// One round of FindToken over `secret` (the Rancher auth Secret as read),
// `state` the cluster's State(), and the answers in `s`.
find_token_step find_token(const k8s::object& secret, const std::string& state, const runtime::sense_snapshot& s,
                           std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace c5c3::monitoring
