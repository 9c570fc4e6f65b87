// orderRef of the shared scaffold (keystone-orders-reconcilers.txt, "The
// shared scaffold"; apis.md 1.1): an order's identity on its cluster, the
// prefix and labels of its children, and the ownership tests.
#pragma once

#include "k8s/object.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::c5c3 {

// The management cluster's name in an order's identity (ManagementCluster).
inline constexpr std::string_view management_cluster = "";

// The three ownership label keys of one order kind.
struct order_label_keys {
  std::string name;
  std::string namespace_;
  std::string cluster;
};

// One order on its cluster, with the prefix segment of its kind ("vhost",
// "user", ...) and the kind's label keys.
struct order_ref {
  std::string name;
  std::string namespace_;
  std::string cluster;  // "" for the management cluster
  std::string segment;
  order_label_keys keys;

  // <name>-<first 8 hex of sha256(<cluster>/<namespace>/<name>)>-<segment>-
  std::string child_prefix() const;
  // The three labels; the cluster label is present, empty on the management cluster.
  std::map<std::string, std::string> child_labels() const;
  // "the management cluster" or `target cluster "<name>"`.
  std::string location() const;
  bool on_management_cluster() const { return cluster.empty(); }
};

// Merges the order's labels into `b`, keeping every other label. Never sets
// an owner reference: a labelled child lives in another namespace or on
// another cluster than the order.
void claim_order_child(k8s::object_builder& b, const order_ref& o);

// The order's identity as an owner: its uid decides a controller reference.
// Empty uid: no object is taken as controlled by it.
struct order_owner {
  std::string uid;
};

// A child carries all three labels (the cluster label present, with the
// order's cluster as its value) or has the order as its controller reference.
bool is_order_child(const k8s::object& obj, const order_ref& o, const order_owner& owner = {});
// is_order_child and the name starts with the child prefix.
bool owns_order_child(const k8s::object& obj, const order_ref& o, const order_owner& owner = {});

// A request for an order: the cluster it lives on and its key there.
struct order_request {
  std::string cluster;
  std::string namespace_;
  std::string name;
  friend bool operator==(const order_request&, const order_request&) = default;
};

// orderChildRequests: maps a child back to its order by the labels. The name
// and namespace labels must both be non-empty; the cluster label becomes the
// request's cluster.
std::optional<order_request> order_child_requests(const k8s::object& child,
                                                  const order_label_keys& keys);

// The generation in `name` after `prefix` (credentialGenerationOf): a positive
// decimal number and nothing else.
std::optional<std::int64_t> generation_of(std::string_view name, std::string_view prefix);

}  // namespace c5c3::c5c3
