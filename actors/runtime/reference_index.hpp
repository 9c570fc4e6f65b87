// The order host's index of its own orders by what they name
// (order_host_config::references; keystone-orders-reconcilers.txt "Watches":
// the actor model's answer to the Go operator's field indexers). For each
// reference it keeps the key an order's fields give -> the orders giving it,
// on the order's cluster and in its namespace; an event of a named object
// looks up the key the object gives (its name, or the fields of `shared`), so
// one user change wakes exactly the assignments naming it, never a scan of
// every order. Pure: no actor.
#pragma once

#include "actors/runtime/ownership.hpp"
#include "k8s/object.hpp"
#include "protocol/order.hpp"

#include <compare>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::runtime {

class reference_index {
 public:
  explicit reference_index(std::vector<reference_field> refs = {});

  // The order `key` was `before` and is now `now` (empty: gone, or new).
  void update(const protocol::order_key& key, const k8s::object& before, const k8s::object& now);

  // The orders an event of `obj` on `cluster` wakes. `old` is the previous
  // version of a modification (empty for an addition or a deletion, which
  // always wake); a reference's `passes` filters modifications. `exclude`
  // is never returned (an order's own event through a reference of its own
  // kind).
  std::set<protocol::order_key> woken_by(const k8s::object& obj, const k8s::object& old, std::string_view cluster,
                                         const protocol::order_key* exclude = nullptr) const;

  // Whether `obj` is of a kind some reference names.
  bool names_kind(const k8s::object& obj) const;
  // Index entries (orders counted once per reference they name something by).
  std::size_t entries() const;

  struct key {
    std::string cluster;
    std::string namespace_;
    std::vector<std::string> values;
    friend auto operator<=>(const key&, const key&) = default;
    friend bool operator==(const key&, const key&) = default;
  };

 private:
  std::vector<reference_field> refs_;
  std::vector<std::map<key, std::set<protocol::order_key>>> by_key_;

  static bool of_kind(const k8s::object& obj, const reference_field& ref);
  // The key the order `o` (on `cluster`, in its namespace) names through ref.
  static std::optional<key> order_key_of(const k8s::object& o, const protocol::order_key& at,
                                         const reference_field& ref);
  // The key an object of ref's kind gives.
  static std::optional<key> object_key_of(const k8s::object& o, std::string_view cluster,
                                          const reference_field& ref);
};

}  // namespace c5c3::runtime
