#include "actors/c5c3/keystoneroleassignment/declaration.hpp"

#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/order_declaration.hpp"
#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/korc/references.hpp"
#include "k8s/field_value.hpp"
#include "k8s/selector.hpp"

namespace c5c3::c5c3::keystoneroleassignment {

namespace rt = ::c5c3::runtime;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", std::string(kind)}; }

namespace {

rt::ownership_keys keys() { return korc::ownership_keys_of(label_keys()); }

// The KeystoneRoleAssignments of a live order's namespace on its cluster
// with its user, project and role (the duplicate rule's key): from the order
// cache's field index on those three fields, so a pass reads the order's few
// peers whatever the namespace holds.
rt::read_slot peers_slot() {
  auto slot = rt::listed(std::string(slot_peers), order_gvk(), "", rt::namespace_role::order, true);
  slot.cluster = rt::cluster_role::order;
  slot.locate = [](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
    if (s.order.terminating()) return std::nullopt;
    return rt::locator{std::nullopt, "", peer_fields(s.order)};
  };
  return slot;
}

// A peer's spec change or deletion: a younger duplicate comes back when the
// older one goes.
bool peer_update_passes(const k8s::object& old, const k8s::object& now) {
  return old.generation() != now.generation() || old.deletion_timestamp() != now.deletion_timestamp();
}

}  // namespace

std::string peer_fields(const k8s::object& order) {
  std::vector<k8s::field_requirement> terms;
  for (const auto* path : {"spec.userRef.name", "spec.projectRef.name", "spec.role"})
    terms.push_back({path, false, k8s::field_value(order, path)});
  return k8s::field_selector(std::move(terms)).to_string();
}

std::vector<rt::read_slot> reads() {
  const auto k = keys();
  std::vector<rt::read_slot> out{rt::children(std::string(slot_roles), korc::gvk("Role"), k),
                                 rt::children(std::string(slot_role_assignments), korc::gvk("RoleAssignment"), k)};
  for (auto& slot : korc::reference_slots()) out.push_back(std::move(slot));
  out.push_back(peers_slot());
  out.push_back(korc::application_credential_hold_slot());
  return out;
}

std::vector<rt::reference_field> references() {
  auto out = korc::user_project_references();
  out.push_back(korc::same_user_and_project(korc::application_credential_gvk()));
  out.push_back({order_gvk(),
                 {},
                 {{"spec", "userRef", "name"}, {"spec", "projectRef", "name"}, {"spec", "role"}},
                 peer_update_passes});
  return out;
}

pass_snapshot snapshot_of(const rt::sense_snapshot& s) {
  pass_snapshot p;
  p.order = &s.order;
  p.cluster = s.key.cluster;
  p.control_plane = s.control_plane_or_null();
  p.user = s.one(korc::slot_user);
  p.project = s.one(korc::slot_project);
  p.users_served = s.served(korc::slot_user);
  p.projects_served = s.served(korc::slot_project);
  p.peers = s.list(slot_peers);
  p.roles_served = s.served(slot_roles);
  p.role_assignments_served = s.served(slot_role_assignments);
  p.roles = s.list(slot_roles);
  p.role_assignments = s.list(slot_role_assignments);
  p.application_credentials = s.list(korc::slot_application_credentials);
  p.read_by_name = s.read_by_name;
  p.now = s.now;
  return p;
}

std::shared_ptr<const rt::kind_declaration> declaration() {
  auto k = korc::order_declaration("keystoneroleassignment", order_gvk(), label_keys(), finalizer, sub_reconcilers);
  k->reads = reads();
  k->references = references();
  k->plan = [](const rt::sense_snapshot& s) { return korc::runner_plan(plan_pass(snapshot_of(s))); };
  return k;
}

}  // namespace c5c3::c5c3::keystoneroleassignment
