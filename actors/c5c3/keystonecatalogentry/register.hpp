// registerCatalogEntry (keystone-orders-reconcilers.txt "Catalog
// registration"; apis.md 1.7): the KeystoneService catalog projection over
// the order, without adopt. The probe <prefix>service-probe (an unmanaged
// Service import filtered on type and name) decides whether the service
// exists (ServiceCollision); then the managed Service <prefix>service, the
// Region import <prefix>region of the ControlPlane's region and one managed
// Endpoint <prefix>endpoint-<interface> per declared interface, all through
// the admin password cloud. Every owned Endpoint the spec no longer declares
// is deleted on every pass, before the outcomes are read. A latched
// transport error is handed back to K-ORC first; terminal errors are reported
// Service, then Region, then Endpoints (CatalogFailed), the waits in the same
// order (WaitingForCatalog); once every declared row is Available and a
// dropped one is still listed, WaitingForCatalog. status.endpoints is rebuilt
// on every pass. It writes CatalogReady.
#pragma once

#include "actors/c5c3/keystonecatalogentry/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/runtime/runner/snapshot.hpp"

#include <string>
#include <vector>

namespace c5c3::c5c3::keystonecatalogentry {

struct register_snapshot {
  const catalog_order* order = nullptr;
  const k8s::object* control_plane = nullptr;
  bool services_served = true;
  bool regions_served = true;
  bool endpoints_served = true;
  std::vector<k8s::object> services;   // the managed Service and the probe, by the order's labels
  std::vector<k8s::object> regions;    // the Region import
  std::vector<k8s::object> endpoints;  // the managed Endpoints
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
};

struct register_plan {
  std::vector<child_write> writes;
  catalog_status status;
  k8s::condition catalog_ready;
  c5c3::requeue requeue;
  std::string waiting_slot;  // the child it waits for (explain)
  std::string waiting_name;
};

// The owned Endpoints `endpoints` holds that the order no longer declares.
std::vector<const k8s::object*> dropped_endpoints(const catalog_order& o, const std::vector<k8s::object>& endpoints);

register_plan register_catalog_entry(const register_snapshot& s);

}  // namespace c5c3::c5c3::keystonecatalogentry
