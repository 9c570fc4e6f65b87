#include "actors/c5c3/keystoneuser/teardown.hpp"

namespace c5c3::c5c3::keystoneuser {

sweep_result sweep_keystone_user_children(const teardown_snapshot& s) {
  const order_ref& ref = s.order->id.ref;
  user_names n(ref);
  const auto managed = n.user();
  const auto password_prefix = n.password_prefix();
  sweep_result out = sweep_order_lists(
      ref, {{&s.push_secrets, {}},
            {&s.users, [&](const k8s::object& o) { return o.name() == managed; }},
            {&s.secrets, [&](const k8s::object& o) { return o.name().starts_with(password_prefix); }}});
  out.append(sweep_delivered_secret(s.delivered_secret, s.order->id.owner));
  return out;
}

teardown_plan plan_teardown(const teardown_snapshot& s) {
  teardown_plan plan;
  if (!s.has_finalizer) return plan;
  const order_ref& ref = s.order->id.ref;
  plan.hold = korc::reference_hold(s.role_assignments, s.application_credentials, "userRef", ref.name,
                                   ref.namespace_, "user",
                                   "deleting the user deletes its application credentials in Keystone before K-ORC "
                                   "could");
  if (plan.hold.held) {
    plan.requeue = plan.hold.requeue;
    return plan;
  }
  sweep_result swept = sweep_keystone_user_children(s);
  auto decision = order_teardown(s.has_finalizer, s.control_plane_present, swept.count);
  plan.writes = std::move(swept.writes);
  plan.remaining = swept.count;
  plan.release_finalizer = decision.release_finalizer;
  plan.requeue = decision.requeue;
  return plan;
}

}  // namespace c5c3::c5c3::keystoneuser
