#include "actors/c5c3/keystoneapplicationcredential/teardown.hpp"

#include <algorithm>

namespace c5c3::c5c3::keystoneapplicationcredential {

teardown_plan plan_teardown(const teardown_snapshot& s) {
  teardown_plan plan;
  if (!s.has_finalizer) return plan;
  const order_ref& ref = s.order->id.ref;
  const credential_names n(ref);
  const bool credential_listed = std::any_of(s.credentials.begin(), s.credentials.end(),
                                             [&](const k8s::object& ac) { return owns_order_child(ac, ref); });
  plan.mint_cloud_held = credential_listed && s.control_plane_present;
  std::vector<k8s::object> secrets;
  for (const auto& secret : s.secrets)
    if (!plan.mint_cloud_held || secret.name() != n.mint_cloud()) secrets.push_back(secret);
  const auto secret_prefix = n.secret_prefix();
  sweep_result swept = sweep_order_lists(
      ref, {{&s.push_secrets, {}},
            {&s.credentials, {}},
            {&secrets, [&](const k8s::object& o) { return o.name().starts_with(secret_prefix); }}});
  if (!plan.mint_cloud_held) swept.append(sweep_delivered_secret(s.delivered_secret, s.order->id.owner));
  auto decision = order_teardown(s.has_finalizer, s.control_plane_present, swept.count);
  plan.writes = std::move(swept.writes);
  plan.remaining = swept.count;
  plan.release_finalizer = decision.release_finalizer;
  plan.requeue = decision.requeue;
  return plan;
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
