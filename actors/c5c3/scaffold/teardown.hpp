// orderTeardown, sweepOrderList(s) and sweepDeliveredSecret
// (keystone-orders-reconcilers.txt, "Deletion and Teardown"; apis.md 1.1).
//
// The teardown does not consult the assignment, so a frozen order tears down
// too. With the ControlPlane present it is patient: the finalizer is held while
// any child is still listed and the pass comes back after 10 s. With it gone
// the deletes are issued and the finalizer is released at once (fail-open).
#pragma once

#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"

#include <functional>
#include <vector>

namespace c5c3::c5c3 {

struct sweep_result {
  std::vector<child_write> writes;  // the deletes, in sweep order
  // Children still listed: each counts on every pass that sees it, the one
  // that issues its delete included.
  int count = 0;
  void append(sweep_result&& other);
};

using sweep_selector = std::function<bool(const k8s::object&)>;

// `items` is one kind listed in the ControlPlane's namespace by the order's
// labels. Every item the order owns is deleted, those `first` selects before
// the rest, each in listed order. An item already terminating is counted
// without a second delete.
sweep_result sweep_order_list(const order_ref& o, const std::vector<k8s::object>& items,
                              const sweep_selector& first = {});

// One kind of sweepOrderLists: its items and the selector of those deleted first.
struct order_sweep {
  const std::vector<k8s::object>* items = nullptr;
  sweep_selector first;
};

// sweepOrderLists: each kind in turn, in the given order.
sweep_result sweep_order_lists(const order_ref& o, const std::vector<order_sweep>& sweeps);

// `items` with apiVersion and kind set where a list response left them out
// (the API server omits them on the items of a List), so every delete names
// its kind.
std::vector<k8s::object> typed_items(const std::vector<k8s::object>& items, std::string_view api_version,
                                     std::string_view kind);

// The Secret delivered beside the order, deleted through the order's cluster
// only when the order is its controller (`live` null: none).
sweep_result sweep_delivered_secret(const k8s::object* live, const order_owner& owner);

struct teardown_decision {
  bool run_sweep = false;          // issue the sweep's writes
  bool release_finalizer = false;  // remove the finalizer through the order's cluster
  c5c3::requeue requeue;
};

// No finalizer: nothing to do. Otherwise the sweep runs; with the ControlPlane
// present and `remaining` > 0 the finalizer is held and the pass requeues
// after 10 s; with it gone (or nothing remaining) the finalizer is released.
// `sweep_failed`: a write of the sweep failed; fatal (retried) while the
// ControlPlane exists, ignored once it is gone.
teardown_decision order_teardown(bool has_finalizer, bool control_plane_present, int remaining,
                                 bool sweep_failed = false);

}  // namespace c5c3::c5c3
