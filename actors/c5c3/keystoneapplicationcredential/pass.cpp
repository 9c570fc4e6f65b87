#include "actors/c5c3/keystoneapplicationcredential/pass.hpp"

#include "actors/c5c3/keystoneapplicationcredential/delivery.hpp"
#include "actors/c5c3/keystoneapplicationcredential/gates.hpp"
#include "actors/c5c3/keystoneapplicationcredential/provision.hpp"
#include "actors/c5c3/keystoneapplicationcredential/teardown.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/pass_frame.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

namespace c5c3::c5c3::keystoneapplicationcredential {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view name) {
  for (const auto& o : objs)
    if (o.name() == name) return &o;
  return nullptr;
}

}  // namespace

std::map<std::string, k8s::time_point> timers_of(const credential_status& status, k8s::time_point now) {
  std::map<std::string, k8s::time_point> out;
  auto arm = [&](const char* name, const std::optional<k8s::time_point>& t) {
    if (t && *t > now) out[name] = *t;
  };
  arm("rotation", status.next_rotation);
  if (status.previous_credential_generation > 0) arm("grace", status.previous_credential_delete_at);
  arm("expiry", status.credential_expires_at);
  return out;
}

korc::order_pass_plan plan_pass(const pass_snapshot& given) {
  // List items may come without apiVersion and kind; every write names both.
  pass_snapshot s = given;
  s.credentials = typed_items(given.credentials, korc::api_version, "ApplicationCredential");
  s.secrets = typed_items(given.secrets, "v1", "Secret");
  s.push_secrets = typed_items(given.push_secrets, "external-secrets.io/v1alpha1", "PushSecret");
  std::optional<k8s::object> delivered;
  s.delivered_secret = korc::typed_secret(given.delivered_secret, delivered);

  const k8s::object& order = *s.order;
  const credential_order o = make_credential_order(order, s.cluster);
  const credential_names n(o.id.ref);
  const auto now = korc::pass_clock(s.now);
  const korc::pass_frame frame(order, o.id, sub_condition_types, now, read_status, write_status);
  korc::order_pass_plan p;

  if (order.terminating()) {
    teardown_snapshot t{&o, order.has_finalizer(finalizer), s.control_plane != nullptr, s.push_secrets,
                        s.credentials, s.secrets, s.delivered_secret};
    auto plan = plan_teardown(t);
    p.stage = korc::pass_stage::teardown;
    p.writes = std::move(plan.writes);
    p.release_finalizer = plan.release_finalizer;
    p.requeue = plan.requeue;
    return p;
  }

  if (frame.stopped(p, s.control_plane, finalizer, o.status)) return p;

  // The three reference gates, on every pass; a refusal pauses the schedule.
  auto gate = reference_gates({&o, s.user, s.project, s.users_served, s.projects_served, &s.role_assignments});
  if (!gate.passed) {
    std::vector<k8s::condition> conds{
        make_condition(condition_type_credential_ready, false, gate.reason, gate.message, o.id.generation)};
    if (o.status.credential_id.empty()) conds.push_back(not_minted_yet(o.id.generation));
    p.stage = korc::pass_stage::refused_reference;
    p.status = frame.status(o.status, conds);
    // The user's, the project's and the assignments' events bring it back
    // (gates.hpp); the refresh only otherwise.
    p.requeue = order_pass_result(s.cluster, false, std::nullopt);
    return p;
  }

  // provisionCredential.
  provision_snapshot ps{&o,          s.control_plane, s.user,         s.project,      s.password_secret,
                        s.ca_bundle_secret, s.credentials_served, s.credentials, s.secrets, s.read_by_name,
                        s.failures,  s.now,           s.random};
  auto prov = provision_credential(ps);
  p.writes = prov.writes;
  std::vector<k8s::condition> conds{prov.credential_ready};
  credential_status status = prov.status;

  // deliverCredential, of the generation status names.
  delivery_snapshot ds;
  ds.order = &o;
  ds.status = &status;
  ds.order_api_version = std::string(order.api_version());
  ds.control_plane = s.control_plane;
  ds.value_secret = find_named(s.secrets, n.secret(status.credential_generation));
  ds.source_secret = find_named(s.secrets, n.source());
  ds.push_secret = find_named(s.push_secrets, n.backup());
  ds.delivered_secret = s.delivered_secret;
  ds.read_by_name = s.read_by_name;
  auto del = deliver_credential(ds);
  for (auto& w : del.writes) p.writes.push_back(std::move(w));
  status = del.status;
  conds.push_back(del.delivery_ready);

  p.stage = korc::pass_stage::legs;
  p.instrument = conds;
  p.status = frame.status(status, conds);
  // keystoneApplicationCredentialPassResult: the legs' requeue (which carries
  // the schedule) stands when shorter; a converged order on the management
  // cluster waits for its timers or an event, every other one comes back
  // after orderRefreshAfter at the latest.
  p.requeue = shortest_requeue(order_pass_result(s.cluster, del.delivery_ready.is_true(), std::nullopt),
                               shortest_requeue(prov.requeue, del.requeue));
  p.timers = timers_of(status, now);
  return p;
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
