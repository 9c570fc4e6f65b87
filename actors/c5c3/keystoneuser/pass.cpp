#include "actors/c5c3/keystoneuser/pass.hpp"

#include "actors/c5c3/keystoneuser/delivery.hpp"
#include "actors/c5c3/keystoneuser/provision.hpp"
#include "actors/c5c3/keystoneuser/teardown.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/pass_frame.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

namespace c5c3::c5c3::keystoneuser {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view name) {
  for (auto& o : objs)
    if (o.name() == name) return &o;
  return nullptr;
}

}  // namespace

korc::order_pass_plan plan_pass(const pass_snapshot& given) {
  // List items may come without apiVersion and kind; every write names both.
  pass_snapshot s = given;
  s.users = typed_items(given.users, korc::api_version, "User");
  s.secrets = typed_items(given.secrets, "v1", "Secret");
  s.push_secrets = typed_items(given.push_secrets, "external-secrets.io/v1alpha1", "PushSecret");
  std::optional<k8s::object> delivered;
  s.delivered_secret = korc::typed_secret(given.delivered_secret, delivered);

  const k8s::object& order = *s.order;
  const user_order o = make_user_order(order, s.cluster);
  user_names n(o.id.ref);
  const korc::pass_frame frame(order, o.id, sub_condition_types, korc::pass_clock(s.now), read_status, write_status);
  korc::order_pass_plan p;

  if (order.terminating()) {
    teardown_snapshot t{&o,        order.has_finalizer(finalizer), s.control_plane != nullptr,
                        s.push_secrets, s.users, s.secrets, s.delivered_secret, s.role_assignments,
                        s.application_credentials};
    auto plan = plan_teardown(t);
    if (plan.hold.held) {
      frame.held(p, plan.hold, condition_type_user_ready, o.status);
      p.requeue = plan.requeue;
      return p;
    }
    p.requeue = plan.requeue;
    p.stage = korc::pass_stage::teardown;
    p.writes = std::move(plan.writes);
    p.release_finalizer = plan.release_finalizer;
    return p;
  }

  if (frame.stopped(p, s.control_plane, finalizer, o.status)) return p;

  // provisionUser.
  provision_snapshot ps{&o, s.control_plane, s.store, s.users_served, s.users, s.secrets, s.read_by_name,
                        s.failures, s.now, s.random};
  auto prov = provision_user(ps);
  p.writes = prov.writes;
  std::vector<k8s::condition> conds{prov.user_ready};
  user_status status = prov.status;
  requeue legs = prov.requeue;
  bool converged = false;

  // deliverCredentials, once the user is provisioned.
  if (!prov.provisioned) {
    conds.push_back(make_condition(condition_type_delivery_ready, false, reason_waiting_for_service_accounts,
                                   "the credentials are delivered once the Keystone user is provisioned (UserReady)",
                                   o.id.generation));
  } else {
    delivery_snapshot ds;
    ds.order = &o;
    ds.status = &status;
    ds.order_api_version = std::string(order.api_version());
    ds.control_plane = s.control_plane;
    ds.store = s.store;
    ds.password_secret = find_named(s.secrets, n.password(status.password_generation));
    ds.source_secret = find_named(s.secrets, n.source());
    ds.push_secret = find_named(s.push_secrets, n.backup());
    ds.delivered_secret = s.delivered_secret;
    ds.read_by_name = s.read_by_name;
    auto del = deliver_credentials(ds);
    for (auto& w : del.writes) p.writes.push_back(std::move(w));
    status = del.status;
    conds.push_back(del.delivery_ready);
    legs = shortest_requeue(legs, del.requeue);
    converged = del.delivery_ready.is_true();
  }
  p.stage = korc::pass_stage::legs;
  p.instrument = conds;
  p.status = frame.status(status, conds);
  p.requeue = order_pass_result(s.cluster, converged, legs);
  return p;
}

}  // namespace c5c3::c5c3::keystoneuser
