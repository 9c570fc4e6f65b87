// The frame every Keystone order's pass shares (apis.md 1.4b "Pass";
// keystone-orders-reconcilers.txt "The shared scaffold"): the order's
// identity, the gates before its steps (orderAdmission and the freeze, the
// finalizer only past it, orderAdminCredentialGate), the conditions a pass
// leaves (each sub-condition set, the aggregate Ready), and the plan as the
// order runner takes it.
#pragma once

#include "actors/c5c3/scaffold/admission.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/object.hpp"

#include <map>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3::korc {

// The order as the frame needs it.
struct order_identity {
  order_ref ref;
  order_owner owner;  // its uid
  std::int64_t generation = 0;
  k8s::object_key control_plane_key;  // the resolved spec.controlPlaneRef
};
order_identity identity_of(const k8s::object& order, std::string_view cluster, std::string_view segment,
                           const order_label_keys& keys);

enum class pass_stage {
  refused_admission,  // nothing in the ControlPlane's namespace was read or written
  add_finalizer,      // the finalizer goes on; the pass plans again after it
  refused_gate,       // the admin credential is not ready
  refused_reference,  // a referenced order (user, project, assignment) refuses
  legs,               // the kind's steps ran
  hold,               // a deleting order held by a reference
  teardown,
};

// Where the gates stop a live order, with the reason every sub-condition
// reads (none for the finalizer), and the requeue.
struct gate_stop {
  pass_stage stage = pass_stage::refused_admission;
  std::string reason;
  std::string message;
  c5c3::requeue requeue;
};
// A kind's own consent check on the order's spec.namespaceAssignments entry,
// right after admission and before the finalizer (allowCatalogEntries);
// nullopt: consented.
using consent_check = std::function<std::optional<gate_stop>(const namespace_assignment&)>;

// Admission (the ControlPlane as admission answered it, null: absent), the
// kind's consent, the finalizer, the admin credential; nullopt: the steps run.
std::optional<gate_stop> order_gates(const order_identity& id, const k8s::object& order,
                                     const k8s::object* control_plane, std::string_view finalizer,
                                     const consent_check& consent = {});

// The order's conditions with each of `set` merged in (lastTransitionTime kept
// unless the status flips) and the aggregate Ready over `sub_types`.
std::vector<k8s::condition> merged_conditions(const k8s::object& order, const std::vector<k8s::condition>& set,
                                              std::span<const std::string_view> sub_types,
                                              std::int64_t generation, k8s::time_point now);

// Every sub-condition False with a gate's reason and message.
std::vector<k8s::condition> gate_conditions(std::span<const std::string_view> sub_types, std::string_view reason,
                                            std::string_view message, std::int64_t generation);

// The order with `status` (observedGeneration set) and the conditions merged
// in, when anything moved; `read`/`write` are the kind's status accessors.
template <class Status, class Read, class Write>
std::optional<k8s::object> order_status(const k8s::object& order, Status status, std::int64_t generation,
                                        const std::vector<k8s::condition>& set,
                                        std::span<const std::string_view> sub_types, k8s::time_point now,
                                        Read read, Write write) {
  status.observed_generation = generation;
  auto conds = merged_conditions(order, set, sub_types, generation, now);
  if (conds == order.conditions() && status == read(order)) return std::nullopt;
  auto b = order.edit();
  write(b, status);
  k8s::write_conditions(b, conds);
  return std::move(b).freeze();
}

// A Keystone order's plan.
struct order_pass_plan;

// The plan of a live order the gates stopped: the finalizer to add, or every
// sub-condition False with the gate's reason (status_of renders the order's
// status from the conditions).
template <class StatusOf>
void stopped_plan(order_pass_plan& p, const gate_stop& stop, std::span<const std::string_view> sub_types,
                  std::int64_t generation, StatusOf status_of);

// A Keystone order's plan.
struct order_pass_plan {
  pass_stage stage = pass_stage::legs;
  std::vector<child_write> writes;
  bool add_finalizer = false;
  bool release_finalizer = false;
  std::optional<k8s::object> status;       // the order with its new status (nullopt: unchanged)
  std::vector<k8s::condition> instrument;  // the steps' conditions, for the instrumenter
  c5c3::requeue requeue;
  // Named timers at wall-clock times derived from the status the pass leaves
  // (a credential's rotation, grace and expiry).
  std::map<std::string, k8s::time_point> timers;
  // The child the order waits for (explain): a read slot and its object's
  // name (empty: the slot's first).
  std::string waiting_slot;
  std::string waiting_name;
};

template <class StatusOf>
void stopped_plan(order_pass_plan& p, const gate_stop& stop, std::span<const std::string_view> sub_types,
                  std::int64_t generation, StatusOf status_of) {
  p.stage = stop.stage;
  p.requeue = stop.requeue;
  if (stop.stage == pass_stage::add_finalizer) {
    p.add_finalizer = true;
    return;
  }
  p.status = status_of(gate_conditions(sub_types, stop.reason, stop.message, generation));
}

// The runner's plan: a teardown's deletes end the pass (their events bring it
// back) and fail open once the ControlPlane is gone.
runtime::order_plan runner_plan(const order_pass_plan& p);

// The pass's clock, truncated to the second as status times are.
k8s::time_point pass_clock(k8s::time_point now);

}  // namespace c5c3::c5c3::korc
