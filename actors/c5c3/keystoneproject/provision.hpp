// provisionProject (keystone-orders-reconcilers.txt "Project provisioning"):
// a reserved name (folded as Keystone compares names) is ProjectCollision and
// never provisioned; the probe <prefix>project-probe decides whether the
// project exists (ProjectCollision: an order has no adopt); the managed
// Project <prefix>project in the admin domain through the admin password
// cloud; a latched transport error cleared first; ProjectFailed on a terminal
// error, WaitingForProject while pending; on Available projectID, projectName
// and domainName, ProjectProvisioned. It writes ProjectReady.
#pragma once

#include "actors/c5c3/keystoneproject/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/runtime/runner/snapshot.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneproject {

struct provision_snapshot {
  const project_order* order = nullptr;
  const k8s::object* control_plane = nullptr;
  bool projects_served = true;
  std::vector<k8s::object> projects;  // the managed Project and the probe, by the order's labels
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
};

struct provision_plan {
  std::vector<child_write> writes;
  project_status status;
  k8s::condition project_ready;
  c5c3::requeue requeue;
};

provision_plan provision_project(const provision_snapshot& s);

}  // namespace c5c3::c5c3::keystoneproject
