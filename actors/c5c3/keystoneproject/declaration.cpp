#include "actors/c5c3/keystoneproject/declaration.hpp"

#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/order_declaration.hpp"
#include "actors/c5c3/korc/holds.hpp"

namespace c5c3::c5c3::keystoneproject {

namespace rt = ::c5c3::runtime;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", std::string(kind)}; }

namespace {

rt::ownership_keys keys() { return korc::ownership_keys_of(label_keys()); }

}  // namespace

std::vector<rt::read_slot> reads() {
  std::vector<rt::read_slot> out{rt::children("projects", korc::gvk("Project"), keys())};
  for (auto& slot : korc::hold_slots()) out.push_back(std::move(slot));
  return out;
}

pass_snapshot snapshot_of(const rt::sense_snapshot& s) {
  pass_snapshot p;
  p.order = &s.order;
  p.cluster = s.key.cluster;
  p.control_plane = s.control_plane_or_null();
  p.projects_served = s.served("projects");
  p.projects = s.list("projects");
  p.role_assignments = s.list(korc::slot_role_assignments);
  p.application_credentials = s.list(korc::slot_application_credentials);
  p.read_by_name = s.read_by_name;
  p.failures = s.write_failures;
  p.now = s.now;
  return p;
}

std::shared_ptr<const rt::kind_declaration> declaration() {
  auto k = korc::order_declaration("keystoneproject", order_gvk(), label_keys(), finalizer, sub_reconcilers);
  k->reads = reads();
  k->referenced_by = korc::hold_references("projectRef");
  k->plan = [](const rt::sense_snapshot& s) { return korc::runner_plan(plan_pass(snapshot_of(s))); };
  return k;
}

}  // namespace c5c3::c5c3::keystoneproject
