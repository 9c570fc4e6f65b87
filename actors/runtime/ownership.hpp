// Mapping a child object back to the order it belongs to (apis.md scaffold:
// orderChildToRequests, isOrderChild). Every child carries three ownership
// labels whose keys the kind gives; the name and namespace labels must be
// non-empty, and the cluster label's value (empty or absent: the management
// cluster) becomes the order's cluster. A child that instead has a controller
// owner reference to the order kind maps to that owner, in the child's
// namespace on the cluster the event came from (Owns()).
#pragma once

#include "k8s/object.hpp"
#include "protocol/order.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::runtime {

struct ownership_keys {
  std::string name;        // e.g. c5c3.io/keystoneuser-name
  std::string namespace_;  // e.g. c5c3.io/keystoneuser-namespace
  std::string cluster;     // e.g. c5c3.io/keystoneuser-cluster
};

// The order named by the child's ownership labels.
[[nodiscard]] std::optional<protocol::order_key> order_of_labels(const k8s::object& child,
                                                                 const ownership_keys& keys);

// The order that is the child's controller, when it is of `order_kind` (group
// and kind compared; any version).
[[nodiscard]] std::optional<protocol::order_key> order_of_controller(const k8s::object& child,
                                                                     std::string_view cluster,
                                                                     const k8s::gvk& order_kind);

// The three labels first; a child without the cluster label lives beside its
// order, on `cluster` (the cluster its event came from): its controller
// reference, else its name and namespace labels there. So an edit of a
// Secret delivered on a target cluster wakes that cluster's order.
[[nodiscard]] std::optional<protocol::order_key> order_of_child(const k8s::object& child,
                                                                std::string_view cluster,
                                                                const ownership_keys& keys,
                                                                const k8s::gvk& order_kind);

// Whether an event's object (of another kind) concerns an order, given the
// order's latest object: events of a kind that wakes many orders
// ("enqueue every Prometheus", "the ServiceMonitors selecting this Service").
using wake_fn = std::function<bool(const k8s::object& event_object, const k8s::object& order)>;

// One kind whose events wake the orders `relates` accepts (on the event's
// cluster; old and new versions both count).
struct wake_rule {
  k8s::gvk gvk;  // group and kind compared
  wake_fn relates;
};

// Objects of another kind that name an order of this kind by a field (a
// KeystoneRoleAssignment's spec.userRef.name names a KeystoneUser in its own
// namespace, on its own cluster): an event of such an object wakes the order
// it names (referenced_by). No index is needed in this direction: the name is
// in the event.
//
// In the other direction (kind_declaration::references) an order names an
// object of another kind: `path` is the order's field holding the object's
// name, or, with `shared` set, the order and the object hold the same
// strings at each path of `shared` (a compound key: a credential order and
// the assignments of its user and project), and `path` is not read.
// `passes` filters the object's updates (old, new) that wake; an addition or
// a deletion always wakes. Null: every event.
using update_filter = std::function<bool(const k8s::object& old, const k8s::object& now)>;
struct reference_field {
  k8s::gvk gvk;                    // group and kind compared; any version
  std::vector<std::string> path;   // e.g. {"spec", "userRef", "name"}
  std::vector<std::vector<std::string>> shared = {};
  update_filter passes = {};
  // The named order reads these objects only while it is being deleted (a
  // reference hold): an event wakes it only then.
  bool only_while_deleting = false;
};

// The string at `path` in `obj` ("" when absent or not a string).
[[nodiscard]] std::string_view string_at(const k8s::object& obj, const std::vector<std::string>& path);

// The order `obj` names through `ref` (in obj's namespace, on `cluster`), when
// obj is of ref's kind and the field holds a name.
[[nodiscard]] std::optional<protocol::order_key> order_of_reference(const k8s::object& obj,
                                                                    std::string_view cluster,
                                                                    const reference_field& ref);

}  // namespace c5c3::runtime
