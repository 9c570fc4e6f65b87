#include "actors/c5c3/rabbitmqvhost/pass.hpp"

#include "actors/c5c3/rabbitmqvhost/messaging_gate.hpp"
#include "actors/c5c3/rabbitmqvhost/teardown.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

namespace c5c3::c5c3::rabbitmqvhost {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view name) {
  for (auto& o : objs)
    if (o.name() == name) return &o;
  return nullptr;
}

void finish_status(pass_plan& p, const k8s::object& order, const vhost_order& o, k8s::time_point now) {
  p.status.observed_generation = o.generation;
  std::vector<k8s::condition> conds = order.conditions();
  for (auto& c : p.conditions) k8s::set_condition(conds, c, now);
  k8s::set_condition(conds, aggregate_ready(conds, sub_condition_types, o.generation), now);
  p.status_changed = conds != order.conditions() || p.status != read_status(order);
  p.conditions = std::move(conds);
}

}  // namespace

pass_plan plan_pass(const pass_snapshot& given) {
  // List items may come without apiVersion and kind; every write names both.
  pass_snapshot s = given;
  s.vhosts = typed_items(given.vhosts, "rabbitmq.com/v1beta1", "Vhost");
  s.users = typed_items(given.users, "rabbitmq.com/v1beta1", "User");
  s.permissions = typed_items(given.permissions, "rabbitmq.com/v1beta1", "Permission");
  s.secrets = typed_items(given.secrets, "v1", "Secret");
  s.push_secrets = typed_items(given.push_secrets, "external-secrets.io/v1alpha1", "PushSecret");
  std::optional<k8s::object> delivered;
  if (given.delivered_secret && *given.delivered_secret) {
    delivered = typed_items({*given.delivered_secret}, "v1", "Secret").front();
    s.delivered_secret = &*delivered;
  }

  const k8s::object& order = *s.order;
  const vhost_order o = make_vhost_order(order, s.cluster);
  vhost_names n(o.ref);
  pass_plan p;
  p.status = o.status;

  if (order.terminating()) {
    teardown_snapshot t{&o, order.has_finalizer(finalizer), s.control_plane != nullptr, s.push_secrets,
                        s.permissions, s.users, s.vhosts, s.secrets, s.delivered_secret};
    auto plan = plan_teardown(t);
    p.stage = pass_stage::teardown;
    p.writes = std::move(plan.writes);
    p.release_finalizer = plan.release_finalizer;
    p.requeue = plan.requeue;
    return p;
  }

  auto fail_both = [&](const gate_result& g) {
    for (auto type : sub_condition_types)
      p.conditions.push_back(make_condition(type, false, g.reason, g.message, o.generation));
  };

  // Admission and the freeze.
  admission_input in{&o.ref, o.control_plane_key, s.control_plane != nullptr,
                     s.control_plane ? namespace_assignments_of(*s.control_plane)
                                     : std::vector<namespace_assignment>{}};
  auto admitted = order_admission(in);
  if (!admitted.admitted()) {
    p.stage = pass_stage::refused_admission;
    fail_both(admitted.gate);
    p.requeue = admitted.gate.requeue;
    finish_status(p, order, o, s.now);
    return p;
  }

  // The finalizer, only past admission.
  if (!order.has_finalizer(finalizer)) {
    p.stage = pass_stage::add_finalizer;
    p.add_finalizer = true;
    return p;
  }

  // The messaging gate.
  auto gate = messaging_gate({s.control_plane, s.rabbitmq_cluster, s.default_user_secret});
  if (!gate.gate.passed) {
    p.stage = pass_stage::refused_gate;
    fail_both(gate.gate);
    finish_status(p, order, o, s.now);
    p.requeue = shortest_requeue(order_pass_result(s.cluster, false, std::nullopt), gate.gate.requeue);
    return p;
  }

  // provisionVhost.
  const std::string cp_ns(s.control_plane->namespace_());
  provision_snapshot ps{&o,        cp_ns,         std::string(s.control_plane->name()),
                        gate.cluster_name, s.store, s.served,
                        find_named(s.vhosts, n.vhost_child()), s.users, s.permissions,
                        s.secrets, s.read_by_name, s.now, s.random};
  auto prov = provision_vhost(ps);
  p.writes = prov.writes;
  p.conditions.push_back(prov.vhost_ready);
  p.status = prov.status;

  // deliverCredentials, once a user generation is live.
  requeue legs = prov.requeue;
  bool converged = false;
  if (!prov.live) {
    p.conditions.push_back(make_condition(condition_type_delivery_ready, false, reason_waiting_for_password,
                                          "no user generation of the vhost is provisioned yet", o.generation));
  } else {
    delivery_snapshot ds;
    ds.order = &o;
    ds.status = &p.status;
    ds.order_api_version = std::string(order.api_version());
    ds.control_plane = s.control_plane;
    ds.in_cluster_host = gate.host;
    ds.in_cluster_port = gate.port;
    ds.store = s.store;
    ds.password_secret = find_named(s.secrets, n.password_secret(p.status.password_generation));
    ds.source_secret = find_named(s.secrets, n.source_secret());
    ds.push_secret = find_named(s.push_secrets, n.push_secret());
    ds.delivered_secret = s.delivered_secret;
    ds.read_by_name = s.read_by_name;
    auto del = deliver_credentials(ds);
    for (auto& w : del.writes) p.writes.push_back(std::move(w));
    p.status = del.status;
    p.conditions.push_back(del.delivery_ready);
    legs = shortest_requeue(legs, del.requeue);
    converged = del.delivery_ready.is_true();
  }
  p.stage = pass_stage::legs;
  finish_status(p, order, o, s.now);
  // The legs' requeue carries the rotation timers; the scaffold's is the
  // refresh of an unconverged order or one on a target cluster.
  p.requeue = shortest_requeue(order_pass_result(s.cluster, converged, std::nullopt), legs);
  return p;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
