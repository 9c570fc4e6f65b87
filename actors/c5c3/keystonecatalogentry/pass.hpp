// One pass of a KeystoneCatalogEntry as a pure plan
// (keystone-orders-reconcilers.txt "Catalog registration", "Deletion and
// Teardown"): a deleting order's sweep (Endpoints, the managed Service, the
// probe, the Region import; no hold); or admission and the freeze,
// allowCatalogEntries right after it and before the finalizer
// (CatalogNotAllowed, re-read every minute, nothing created), the finalizer,
// the admin-credential gate, registerCatalogEntry, the aggregate Ready and
// orderPassResult.
#pragma once

#include "actors/c5c3/keystonecatalogentry/register.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/namespace_assignment.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

#include <optional>
#include <vector>

namespace c5c3::c5c3::keystonecatalogentry {

struct pass_snapshot {
  const k8s::object* order = nullptr;
  std::string cluster;
  const k8s::object* control_plane = nullptr;
  bool services_served = true;
  bool regions_served = true;
  bool endpoints_served = true;
  std::vector<k8s::object> services;
  std::vector<k8s::object> regions;
  std::vector<k8s::object> endpoints;
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
};

// CatalogNotAllowed while the order's entry lacks allowCatalogEntries.
std::optional<korc::gate_stop> catalog_consent(const k8s::object& control_plane, const namespace_assignment& entry);

// The sweep: Endpoints, then the managed Service and the probe, then the
// Region import.
sweep_result sweep_catalog_children(const catalog_order& o, const std::vector<k8s::object>& endpoints,
                                    const std::vector<k8s::object>& services, const std::vector<k8s::object>& regions);

korc::order_pass_plan plan_pass(const pass_snapshot& s);

}  // namespace c5c3::c5c3::keystonecatalogentry
