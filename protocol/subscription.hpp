// Conversation: informer subscriptions and the object events they deliver,
// plus which clusters are engaged and which kinds they serve.
//
//   subscriber -> cluster actor : subscribe_request   -> subscription_id
//                                 unsubscribe_request -> protocol::ok_atom
//                                 rescope_request     -> protocol::ok_atom
//   cluster actor -> subscriber : object_event (added / modified / deleted, with
//                                 the previous version on modified),
//                                 informer_synced once the initial list is in,
//                                 kind_availability when an optional kind's
//                                 CRD appears or goes
//   cluster registry -> anyone  : cluster_engaged / cluster_disengaged for
//                                 target clusters coming and going at runtime
#pragma once

#include "protocol/cluster_io.hpp"
#include "protocol/payloads.hpp"

#include <caf/actor.hpp>
#include <caf/actor_addr.hpp>
#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/meta/type_name.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace c5c3::protocol {

// Watch `gvk` in `namespace_` ("" for all) restricted by `label_selector`
// (string form) and `field_selector` ("metadata.name=x": a watch of one
// object, whose informer answers no cache read). `optional`: the cluster may not serve the kind; that is not an
// error, the informer starts when the kind's CRD appears and stops when it
// goes, and the subscriber hears kind_availability either way.
// `scoped`: the subscription follows the subscriber's rescope_requests; its
// watch is `label_selector` narrowed by `scope` (a label selector, "" none:
// a replica's share of the orders, `c5c3.io/shard notin (b,c)`), while its
// cache answers reads as if it held every object `label_selector` matches
// (the subscriber asks only for what lies in its scope).
// `drop`: the projection (field paths, k8s/projection.hpp) the informer's
// cache and events leave out, canonical (sorted, unique); the informer is
// shared only with subscriptions of the same projection, and its cache
// answers only reads that do without every path of it (get_request::drop).
struct subscribe_request {
  k8s::gvk gvk;
  std::string namespace_;
  std::string label_selector;
  caf::actor subscriber;
  bool optional = false;
  std::string field_selector = {};
  bool scoped = false;
  std::string scope = {};
  std::vector<std::string> drop = {};
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, subscribe_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::subscribe_request"), x.gvk, x.namespace_,
           x.label_selector, x.subscriber, x.optional, x.field_selector, x.scoped, x.scope, x.drop);
}

// Moves every scoped subscription of `subscriber` to `scope` ("" none). The
// subscriber hears only the difference, once the new watch has its list:
// `added` for what entered, `modified` for what changed meanwhile, `deleted`
// (with `out_of_scope`) for what left; until then it stays on the old watch
// (and synced). The cluster directory passes it to every engaged cluster and
// remembers it for clusters engaged later and for watches registered later.
struct rescope_request {
  caf::actor subscriber;
  std::string scope;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rescope_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::rescope_request"), x.subscriber, x.scope);
}

struct subscription_id {
  std::uint64_t value = 0;
  friend bool operator==(const subscription_id&, const subscription_id&) = default;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, subscription_id& x) {
  return f(caf::meta::type_name("c5c3::protocol::subscription_id"), x.value);
}

struct unsubscribe_request {
  subscription_id id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, unsubscribe_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::unsubscribe_request"), x.id);
}

enum class event_type : std::uint8_t { added, modified, deleted };
std::string to_string(event_type x);

// One change seen by an informer of `cluster` ("" = management). `old` is the
// previous cached version on `modified` (empty otherwise); on `deleted`, `obj`
// is the last known state. `out_of_scope` on `deleted`: the object left a
// rescoped subscription's scope, it was not deleted.
struct object_event {
  subscription_id subscription;
  std::string cluster;
  event_type type = event_type::added;
  k8s::object obj;
  k8s::object old;
  bool out_of_scope = false;
};

// The subscription's initial list has been delivered (what /readyz waits for).
struct informer_synced {
  subscription_id subscription;
  std::string cluster;
  k8s::gvk gvk;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, informer_synced& x) {
  return f(caf::meta::type_name("c5c3::protocol::informer_synced"), x.subscription, x.cluster,
           x.gvk);
}

// An optional kind became served (`served`) or stopped being served.
struct kind_availability {
  std::string cluster;
  k8s::gvk gvk;
  bool served = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, kind_availability& x) {
  return f(caf::meta::type_name("c5c3::protocol::kind_availability"), x.cluster, x.gvk,
           x.served);
}

// A target cluster was engaged (its kubeconfig Secret appeared) or disengaged.
struct cluster_engaged {
  std::string cluster;
  caf::actor handle;  // its cluster actor
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cluster_engaged& x) {
  return f(caf::meta::type_name("c5c3::protocol::cluster_engaged"), x.cluster, x.handle);
}

struct cluster_disengaged {
  std::string cluster;
  // Its cluster actor, gone or going: events it sent before it stopped may
  // still arrive after this news (they come by another way), and are stale.
  caf::actor_addr source;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cluster_disengaged& x) {
  return f(caf::meta::type_name("c5c3::protocol::cluster_disengaged"), x.cluster, x.source);
}

}  // namespace c5c3::protocol

// Local only: carries objects.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::object_event)
