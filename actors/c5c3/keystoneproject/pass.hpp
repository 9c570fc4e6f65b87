// One pass of a KeystoneProject order as a pure plan: a deleting order's
// holds (KeystoneRoleAssignments, then KeystoneApplicationCredentials naming
// it as projectRef) and its sweep (the managed Project, then the probe); or
// admission and the freeze, the finalizer, the admin-credential gate,
// provisionProject, the aggregate Ready and orderPassResult
// (keystone-orders-reconcilers.txt "Project provisioning", "Deletion and
// Teardown").
#pragma once

#include "actors/c5c3/keystoneproject/spec.hpp"
#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"
#include "actors/runtime/runner/snapshot.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneproject {

struct pass_snapshot {
  const k8s::object* order = nullptr;
  std::string cluster;
  const k8s::object* control_plane = nullptr;
  bool projects_served = true;
  std::vector<k8s::object> projects;
  std::vector<k8s::object> role_assignments;
  std::vector<k8s::object> application_credentials;
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
};

// The sweep: the managed Project first, then the probe.
sweep_result sweep_keystone_project_children(const project_order& o, const std::vector<k8s::object>& projects);

korc::order_pass_plan plan_pass(const pass_snapshot& s);

}  // namespace c5c3::c5c3::keystoneproject
