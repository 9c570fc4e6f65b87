// What every Keystone kind's plan_pass repeats around its own steps
// (keystone-orders-reconcilers.txt "The shared scaffold", "Deletion and
// Teardown"): the order's status rendered with the kind's accessors, the
// gates' stop (order_gates, stopped_plan), a deleting order held by a
// reference, and the sweep of one that nothing holds.
#pragma once

#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

#include <optional>
#include <span>
#include <type_traits>
#include <string_view>
#include <vector>

namespace c5c3::c5c3::korc {

// One pass of one order: `read` and `write` are the kind's status accessors
// (Status read(const k8s::object&), void write(k8s::object_builder&, const Status&)).
template <class Read, class Write>
class pass_frame {
 public:
  using Status = std::decay_t<std::invoke_result_t<Read&, const k8s::object&>>;

  pass_frame(const k8s::object& order, const order_identity& id, std::span<const std::string_view> sub_types,
             k8s::time_point now, Read read, Write write)
      : order_(order), id_(id), sub_types_(sub_types), now_(now), read_(read), write_(write) {}

  // The order with `status` and the conditions of `set` merged in, when
  // anything moved (order_status).
  std::optional<k8s::object> status(const Status& status, const std::vector<k8s::condition>& set) const {
    return order_status(order_, status, id_.generation, set, sub_types_, now_, read_, write_);
  }

  // order_gates: whether they stop the live order; then `p` holds the stop
  // (the finalizer to add, or every sub-condition False over `current`).
  bool stopped(order_pass_plan& p, const k8s::object* control_plane, std::string_view finalizer,
               const Status& current, const consent_check& consent = {}) const {
    auto stop = order_gates(id_, order_, control_plane, finalizer, consent);
    if (!stop) return false;
    stopped_plan(p, *stop, sub_types_, id_.generation,
                 [&](const std::vector<k8s::condition>& conds) { return status(current, conds); });
    return true;
  }

  // A deleting order a reference holds: `condition` False with the hold's
  // reason and message, the hold's requeue.
  void held(order_pass_plan& p, const hold& h, std::string_view condition, const Status& current) const {
    p.stage = pass_stage::hold;
    p.requeue = h.requeue;
    p.status = status(current, {make_condition(condition, false, h.reason, h.message, id_.generation)});
  }

 private:
  const k8s::object& order_;
  const order_identity& id_;
  std::span<const std::string_view> sub_types_;
  k8s::time_point now_;
  Read read_;
  Write write_;
};

// The Secret an order delivers, read live, as a typed object (list items may
// come without apiVersion and kind; every write names both), kept in
// `storage`; null when absent.
const k8s::object* typed_secret(const k8s::object* secret, std::optional<k8s::object>& storage);

// A deleting order nothing holds: the sweep's deletes; the finalizer released
// once nothing is listed or the ControlPlane is gone (order_teardown).
void swept_plan(order_pass_plan& p, sweep_result swept, bool control_plane_present);

}  // namespace c5c3::c5c3::korc
