// The collision probe (apis.md 1.4b step 3; keystone-orders-reconcilers.txt
// "Project provisioning" 2; managedChildProbeGate of the reference). K-ORC's
// managed create takes over a resource of the same name instead of failing,
// so while the order owns no managed child a short-lived unmanaged import
// <prefix><segment>-probe decides: Available means the name is taken (a
// collision: an order never takes over what it did not create), "created
// externally" means it is free (the probe goes and the managed child is
// created), anything else is still probing.
#pragma once

#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "k8s/object.hpp"

#include <string>
#include <vector>

namespace c5c3::c5c3::korc {

struct probe_gate_input {
  const order_ref* order = nullptr;
  const k8s::object* managed = nullptr;  // the managed child as listed (the order's), null: none
  const k8s::object* probe = nullptr;    // the probe as listed, null: none
  k8s::object desired_probe;             // the import to apply
  // The owned path deletes a leftover probe (the user's gate does, the
  // project's does not).
  bool drop_probe_on_owned = true;
  std::vector<k8s::object> read_by_name;
};

struct probe_gate_result {
  bool proceed = false;
  probe_verdict verdict = probe_verdict::pending;
  std::vector<child_write> writes;  // the probe's apply, or its delete
  std::string refusal;              // a probe of that name the order did not create
  const k8s::object* probe = nullptr;  // the probe as seen (for the pending message)
};

probe_gate_result probe_gate(const probe_gate_input& in);

}  // namespace c5c3::c5c3::korc
