// What a kind gives the order runner: data and pure functions only (design.md
// "The shared order runner"). A kind is its sense declaration (the reads of
// its pass, each a read_slot), its plan (a pure function of the snapshot), and
// its constants (names, labels, the finalizer, the instrumenter's rows). The
// runner (runner/pass.hpp) does every request: admission through the
// ControlPlane actor, the reads from the informer caches, the writes, the
// finalizer, the status, the timers.
//
//   kind_declaration k;
//   k.controller = "widget";
//   k.gvk = {"test.c5c3.io", "v1", "Widget"};
//   k.keys = {"test.c5c3.io/widget-name", "test.c5c3.io/widget-namespace", "test.c5c3.io/widget-cluster"};
//   k.finalizer = "test.c5c3.io/widget-teardown";
//   k.reads = {children("configmaps", {"", "v1", "ConfigMap"})};
//   k.plan = [](const sense_snapshot& s) { order_plan p; ...; return p; };
#pragma once

#include "actors/runtime/ownership.hpp"
#include "actors/runtime/runner/snapshot.hpp"
#include "actors/runtime/runner/write.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::runtime {

using cluster_role = write_cluster;

// The namespace a read looks in.
enum class namespace_role : std::uint8_t {
  home,   // the ControlPlane's (admitted, or the one controlPlaneRef names); without admission the order's own
  order,  // the order's own namespace
  all,    // every namespace (or a cluster-scoped kind)
};

enum class read_mode : std::uint8_t {
  children,  // the order's own children: listed by its three ownership labels
  named,     // one object by name (locate), from the informer of `selector`
  listed,    // every object `selector` matches in the namespace
};

// Where a named read looks: a namespace (nullopt: the slot's namespace role;
// "" a cluster-scoped object) and a name.
struct locator {
  std::optional<std::string> namespace_;
  std::string name;
  // listed: a field selector of equalities narrowing the list
  // (`spec.userRef.name=alice,spec.role=member`), answered from the cache's
  // field index on those fields: the few objects sharing them, not a scan.
  std::string fields = {};
};
// Pure: where to read, from what the pass has sensed so far (the order, the
// ControlPlane, the slots named in `after`); nullopt: nothing to read.
using locate_fn = std::function<std::optional<locator>(const sense_snapshot&)>;

struct read_slot {
  std::string id;
  read_mode mode = read_mode::children;
  k8s::gvk gvk;
  cluster_role cluster = cluster_role::management;
  namespace_role ns = namespace_role::home;
  // The informer the read is answered from (and the watch that feeds the
  // host): "" every object of the kind. Children: the kind's name label
  // exists (set by children()).
  std::string selector;
  // named: the object carries the order's name and namespace labels, so the
  // read pins them and touches only the order's bucket of the label index.
  bool labelled = false;
  locate_fn locate;                // named (required); listed (optional: the namespace)
  std::vector<std::string> after;  // slots whose answers `locate` reads
  bool optional = false;           // the kind may not be served: an empty, unserved slot
  // named: a write to this object is preceded by a read from the API server
  // (once per pass), and the plan runs again on it (a foreign object is
  // refused; the cache holds only labelled ones).
  bool live_before_write = false;
  // named: not in the informer (it holds only what `selector` matches): ask
  // the API server.
  bool server_fallback = false;
  // The namespace the slot's informer covers ("" every namespace): a read of
  // a fixed object (kube-public/ace-info) watches its namespace only.
  std::string watch_namespace = {};
  // Read from the API server every pass, with no informer and no watch (the
  // manager's uncached reader): Secrets a pass needs, without caching every
  // Secret of the cluster.
  bool uncached = false;
  // The projection (issue 19): field paths (k8s/projection.hpp,
  // `status.conditions[].lastTransitionTime`) the slot's informer may leave
  // out of its cache, because no plan, predicate, wake rule, memo comparison,
  // status check or write of the kind reads them (the applied fields a plan
  // compares stay, and so does everything of an object it writes back whole:
  // an update, or a merge patch with an array of it). The slot's reads accept
  // objects without them; a watch merged from several reads drops only what
  // every one of them does without (watches_of).
  std::vector<std::string> drop = {};
};

// An extra watch feeding the host (cross-kind references, ...), beside those
// the reads imply.
struct watch_decl {
  k8s::gvk gvk;
  std::string selector;
  cluster_role cluster = cluster_role::management;  // order: every engaged cluster
  bool optional = true;
  std::string namespace_ = {};  // the namespace watched ("" every namespace)
  // "metadata.name=x": a watch of that one object (its informer answers no
  // cache read, so the slots reading it are uncached).
  std::string field_selector = {};
  // Which orders an event of this kind wakes besides its owner: every order
  // of the host (on the event's cluster) whose latest object `wakes` relates
  // to the event's object, either version ("enqueue all Prometheus objects",
  // "requeue the ServiceMonitors that select this Service"). Null: by
  // ownership only.
  wake_fn wakes = {};
};

// The instrumenter's table: each sub-reconciler and the condition it writes.
struct instrument_row {
  std::string sub_reconciler;
  std::string condition_type;
};

using plan_fn = std::function<order_plan(const sense_snapshot&)>;

// Objects of another kind that name an order of this kind by a field, in
// their own namespace on their own cluster (a KeystoneRoleAssignment's
// spec.userRef.name names a KeystoneUser): each event of one wakes the order
// it names (old and new versions), so a hold on deletion is released when the
// referencing object goes. The kind is watched on every engaged cluster.
using reference_field = ::c5c3::runtime::reference_field;

struct kind_declaration {
  std::string controller;  // metrics label and log key, e.g. "rabbitmqvhost"
  k8s::gvk gvk;
  ownership_keys keys;     // the three ownership labels of its children
  std::string finalizer;
  // The order kind's watch selector (For(kind) with a label predicate): only
  // objects it matches are orders; "" every object of the kind.
  std::string order_selector;
  // The order kind's watch scoped to one namespace and one name ("" each:
  // none): For(kind) with a namespace-and-name predicate as a watch of that
  // object alone (the TokenRefresher's Rancher auth Secret).
  std::string order_namespace;
  std::string order_name;
  // orderAdmission through the ControlPlane actor: spec.controlPlaneRef
  // ({name, namespace}, the namespace defaulting to the order's).
  bool admission = true;
  // The ControlPlane kind, read from the cache when admission is refused.
  k8s::gvk control_plane_gvk{"c5c3.io", "v1alpha1", "ControlPlane"};
  std::vector<read_slot> reads;
  std::vector<watch_decl> watches;
  std::vector<reference_field> referenced_by;
  // The other direction: kinds this kind's orders name by a field of the
  // order (`path`), or share fields with (`shared`: a compound key such as a
  // user and a project), in the order's namespace on its cluster; an event of
  // such an object wakes every order naming it, through the host's index of
  // its orders (runtime/reference_index.hpp), an update only when `passes`
  // does. The order kind itself may be one (peers). Watched on every engaged
  // cluster.
  std::vector<reference_field> references;
  plan_fn plan;
  std::vector<instrument_row> instrumenter;
  int max_rounds = 10;  // plans per pass before the pass fails as not converging
};

// The host's wake rules: the extra watches with a `wakes` relation.
std::vector<wake_rule> wake_rules_of(const kind_declaration& k);

// Slot builders.
read_slot children(std::string id, k8s::gvk gvk, const ownership_keys& keys, bool optional = true);
read_slot named(std::string id, k8s::gvk gvk, locate_fn locate, std::string selector = {}, bool optional = false);
read_slot listed(std::string id, k8s::gvk gvk, std::string selector, namespace_role ns = namespace_role::home,
                 bool optional = false);

// The watches a declaration implies: the order kind (with its
// order_selector) on every cluster, each read's informer (children and named
// reads of the order's cluster on every engaged cluster; none for uncached
// reads; watch_namespace scoping it), every referencing and referenced kind
// on every cluster (optional), and the extra ones, without duplicates (a
// selector watched on both roles becomes one watch of every cluster; scoped
// only when every read merged into it may be; projected only by what every
// read merged into it drops, and not at all when another watch merges into it).
struct derived_watch {
  k8s::gvk gvk;
  std::string selector;
  bool every_cluster = false;
  bool optional = true;
  std::string namespace_ = {};  // "" every namespace
  std::string field_selector = {};  // "metadata.name=x": that object only
  // Narrowed to the replica's share when sharded (shard/scope.hpp): the order
  // kind's watch and the children slots' watches, unless another read needs
  // every object of it (a kind reading its own peers).
  bool shard_scoped = false;
  // The fields its informer leaves out (canonical): what every read merged
  // into it does without.
  std::vector<std::string> drop = {};
  friend bool operator==(const derived_watch&, const derived_watch&) = default;
};
std::vector<derived_watch> watches_of(const kind_declaration& k);

// The selector of one order's children (its name and namespace labels): the
// cluster actor answers it from the children informer's label index.
std::string order_selector(const ownership_keys& keys, const protocol::order_key& order);

// Whether `o` carries the labels of `order`: its name and namespace, and its
// cluster as the cluster label's value (absent reads as the management cluster).
bool labelled_for(const k8s::object& o, const ownership_keys& keys, const protocol::order_key& order);

}  // namespace c5c3::runtime
