#include "actors/c5c3/rabbitmqvhost/teardown.hpp"

namespace c5c3::c5c3::rabbitmqvhost {

sweep_result sweep_rabbitmq_vhost_children(const teardown_snapshot& s) {
  const vhost_order& o = *s.order;
  vhost_names n(o.ref);
  sweep_result out = sweep_order_lists(o.ref, {{&s.push_secrets, {}}, {&s.permissions, {}}, {&s.users, {}}});

  // The topology operator reads the policy off the Vhost it deletes.
  const std::string want = o.spec.topology_deletion_policy();
  sweep_result vhosts = sweep_order_list(o.ref, s.vhosts);
  for (auto& vhost : s.vhosts) {
    if (!owns_order_child(vhost, o.ref) || vhost.terminating()) continue;
    if (vhost.get_string({"spec", "deletionPolicy"}) == want) continue;
    k8s::object_builder patch("rabbitmq.com/v1beta1", "Vhost", std::string(vhost.namespace_()),
                              std::string(vhost.name()));
    patch.set_string({"spec", "deletionPolicy"}, want);
    out.writes.push_back(make_merge_patch(std::move(patch).freeze()));
  }
  out.append(std::move(vhosts));

  const std::string password_prefix = n.password_prefix();
  out.append(sweep_order_list(o.ref, s.secrets, [&](const k8s::object& obj) {
    return obj.name().starts_with(password_prefix);
  }));
  out.append(sweep_delivered_secret(s.delivered_secret, o.owner));
  return out;
}

teardown_plan plan_teardown(const teardown_snapshot& s) {
  teardown_plan plan;
  if (!s.has_finalizer) return plan;
  sweep_result swept = sweep_rabbitmq_vhost_children(s);
  auto decision = order_teardown(s.has_finalizer, s.control_plane_present, swept.count);
  plan.writes = std::move(swept.writes);
  plan.remaining = swept.count;
  plan.release_finalizer = decision.release_finalizer;
  plan.requeue = decision.requeue;
  return plan;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
