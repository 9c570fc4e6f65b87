// The order runner's pure parts, table-driven: the read-your-writes memo, the
// fold of a write's answer into the snapshot, the field a plan keeps writing,
// the watches a declaration implies.
#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/runner/fold.hpp"
#include "actors/runtime/runner/memo.hpp"
#include "tests/runner/widget_kind.hpp"

#include <boost/test/unit_test.hpp>

#include <tuple>

namespace c5c3::testing {
namespace {

using namespace std::chrono_literals;
namespace rt = ::c5c3::runtime;

k8s::object cm(const std::string& name, const std::string& rv, const std::string& size = "s",
               bool labelled = true) {
  k8s::object_builder b("v1", "ConfigMap", "default", name);
  b.set_resource_version(rv);
  if (labelled)
    b.set_label(widget::keys.name, "w").set_label(widget::keys.namespace_, "default").set_label(widget::keys.cluster, "");
  b.set_string({"data", "size"}, size);
  return std::move(b).freeze();
}

// As an informer lists them: no apiVersion and kind on the items.
k8s::object untyped(const k8s::object& o) {
  auto b = o.edit();
  b.remove({"apiVersion"}).remove({"kind"});
  return std::move(b).freeze();
}

const rt::memo_key key_a{"", "", "ConfigMap", "default", "a"};
const auto t0 = std::chrono::steady_clock::time_point{} + 1h;

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_memo)

BOOST_AUTO_TEST_CASE(rows) {
  struct row {
    const char* what;
    std::vector<std::pair<std::string, std::string>> writes;  // before rv -> answer rv ("" gone)
    std::string cached;                                       // "" absent
    std::string seen;                                         // "" absent
    bool used;
    std::size_t left;  // entries kept
  };
  const std::vector<row> rows{
      {"no write: the cache as it is", {}, "5", "5", false, 0},
      {"the cache behind one update: the answer", {{"5", "6"}}, "5", "6", true, 1},
      {"the cache caught up: spent", {{"5", "6"}}, "6", "6", false, 0},
      {"two writes chained (finalizer, status)", {{"5", "6"}, {"6", "7"}}, "5", "7", true, 2},
      {"the cache at the middle of the chain", {{"5", "6"}, {"6", "7"}}, "6", "7", true, 1},
      {"somebody else wrote: spent", {{"5", "6"}}, "9", "9", false, 0},
      {"a create the cache does not show yet", {{"", "3"}}, "", "3", true, 1},
      {"a create the cache shows", {{"", "3"}}, "3", "3", false, 0},
      {"a delete the cache has not seen: gone", {{"4", ""}}, "4", "", true, 1},
      {"a delete the cache has seen: spent", {{"4", ""}}, "", "", false, 0},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      rt::write_memo m;
      for (const auto& [before, after] : r.writes)
        m.wrote(key_a, before, after.empty() ? k8s::object{} : cm("a", after), t0);
      auto got = m.latest(key_a, r.cached.empty() ? k8s::object{} : cm("a", r.cached), t0 + 1s);
      BOOST_TEST(std::string(got ? got.resource_version() : "") == r.seen);
      BOOST_TEST(m.used() == r.used);
      BOOST_TEST(m.size() == r.left);
    }
  }
}

// A child with a uid, terminating or not (a K-ORC import held by its finalizer).
k8s::object child(const std::string& rv, const std::string& uid, bool terminating) {
  auto b = cm("a", rv).edit();
  b.set_string({"metadata", "uid"}, uid);
  if (terminating) {
    b.add_finalizer("k-orc.cloud/finalizer");
    b.set_string({"metadata", "deletionTimestamp"}, "2026-12-03T14:00:00Z");
  }
  return std::move(b).freeze();
}

// The actor deleted the object of uid u1 at version 4 (issue 18's expire@14:
// a probe deleted twice). The cache may show a version of it the delete did
// not replace, without the deletionTimestamp: one somebody else (K-ORC)
// wrote before the delete, or a relist served before it. It is older than
// the delete, whose answer the pass must see, or it deletes again.
BOOST_AUTO_TEST_CASE(a_version_older_than_the_actors_delete_is_seen_as_the_delete) {
  struct row {
    const char* what;
    bool held;              // the delete's answer: the object terminating (finalizer), or gone
    bool through_deleted;   // recorded with deleted() (the uid given), else wrote()
    std::string cached_rv;  // "" absent
    std::string cached_uid;
    bool cached_terminating;
    std::string seen;  // "" absent; "6t": rv 6 terminating
    bool used;
  };
  const std::vector<row> rows{
      {"held; the cache at the version deleted", true, false, "4", "u1", false, "6t", true},
      {"held; the cache at an older version somebody else wrote", true, false, "5", "u1", false, "6t", true},
      {"held, recorded by deleted(); the cache at an older version", true, true, "5", "u1", false, "6t", true},
      {"gone; the cache at an older version", false, true, "5", "u1", false, "", true},
      {"held; the cache shows it terminating: caught up", true, false, "6", "u1", true, "6t", false},
      {"held; the cache shows it terminating at a later version", true, false, "7", "u1", true, "7t", false},
      {"held; the cache shows another object of that name: spent", true, false, "9", "u2", false, "9", false},
      {"held; gone from the cache: spent", true, false, "", "", false, "", false},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      rt::write_memo m;
      auto answer = r.held ? child("6", "u1", true) : k8s::object{};
      if (r.through_deleted)
        m.deleted(key_a, "4", "u1", answer, t0);
      else
        m.wrote(key_a, "4", answer, t0);
      auto cached = r.cached_rv.empty() ? k8s::object{} : child(r.cached_rv, r.cached_uid, r.cached_terminating);
      auto got = m.latest(key_a, cached, t0 + 1s);
      auto seen = got ? std::string(got.resource_version()) + (got.terminating() ? "t" : "") : std::string();
      BOOST_TEST(seen == r.seen);
      BOOST_TEST(m.used() == r.used);
      // And through a list read, as a children slot reads it.
      rt::write_memo l;
      l.deleted(key_a, "4", "u1", answer, t0);
      std::vector<k8s::object> listed;
      if (cached) listed.push_back(cached);
      auto out = l.latest_list("", {"", "v1", "ConfigMap"}, "default", listed, {}, t0 + 1s);
      std::string list_seen;
      for (const auto& o : out) list_seen += std::string(o.resource_version()) + (o.terminating() ? "t" : "");
      BOOST_TEST(list_seen == r.seen);
    }
  }
}

BOOST_AUTO_TEST_CASE(entries_older_than_the_horizon_are_dropped) {
  rt::write_memo m{30s};
  m.wrote(key_a, "", cm("a", "3"), t0);
  BOOST_TEST(!m.latest(key_a, k8s::object{}, t0 + 31s));
  BOOST_TEST(m.size() == 0u);
  BOOST_TEST(!m.used());
}

BOOST_AUTO_TEST_CASE(a_list_through_the_memo_replaces_adds_and_drops_the_actors_own_writes) {
  rt::write_memo m;
  const k8s::gvk gvk{"", "v1", "ConfigMap"};
  m.wrote({"", "", "ConfigMap", "default", "a"}, "5", cm("a", "6", "new"), t0);   // updated
  m.wrote({"", "", "ConfigMap", "default", "b"}, "", cm("b", "7"), t0);           // created, unseen
  m.wrote({"", "", "ConfigMap", "default", "c"}, "8", k8s::object{}, t0);         // deleted, unseen
  m.wrote({"", "", "ConfigMap", "other", "d"}, "", cm("d", "9"), t0);             // another namespace
  m.wrote({"", "", "ConfigMap", "default", "e"}, "", cm("e", "10", "s", false), t0);  // not the slot's
  auto out = m.latest_list("", gvk, "default", {untyped(cm("a", "5")), untyped(cm("c", "8"))},
                           [](const k8s::object& o) { return o.label(widget::keys.name).has_value(); }, t0);
  std::vector<std::string> names;
  for (const auto& o : out) names.push_back(std::string(o.name()) + "@" + std::string(o.resource_version()));
  BOOST_TEST(names == (std::vector<std::string>{"a@6", "b@7"}), boost::test_tools::per_element());
  BOOST_TEST(m.used());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(runner_fold)

BOOST_AUTO_TEST_CASE(an_answer_lands_in_the_slots_that_hold_its_object) {
  auto k = widget::declaration();
  rt::sense_snapshot s;
  s.key = {"", "default", "w"};
  s.slots["maps"] = rt::slot_result{{cm("a", "1")}, true, true, false, "default", "", ""};
  struct row {
    const char* what;
    rt::child_write w;
    k8s::object answer;
    std::vector<std::string> after;
  };
  const std::vector<row> rows{
      {"an apply replaces", rt::make_apply(cm("a", "1", "big")), cm("a", "2", "big"), {"a@2"}},
      {"a create adds", rt::make_create(cm("b", "")), cm("b", "3"), {"a@1", "b@3"}},
      {"a delete answered by a Status removes", rt::make_delete(cm("a", "1")), k8s::object{}, {}},
      {"a delete held by a finalizer keeps it, terminating",
       rt::make_delete(cm("a", "1")),
       [] {
         auto b = cm("a", "4").edit();
         b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
         return std::move(b).freeze();
       }(),
       {"a@4"}},
      {"an object the slot would not hold is not added", rt::make_create(cm("x", "", "s", false)),
       cm("x", "5", "s", false), {"a@1"}},
      {"a write on another cluster is not this slot's", rt::make_create(cm("b", ""), rt::write_cluster::order),
       cm("b", "6"), {"a@1"}},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      auto snap = s;
      rt::fold_answer(snap, k->reads, k->keys, r.w, r.answer);
      std::vector<std::string> got;
      for (const auto& o : snap.list("maps")) got.push_back(std::string(o.name()) + "@" + std::string(o.resource_version()));
      BOOST_TEST(got == r.after, boost::test_tools::per_element());
    }
  }
}

// A listed slot narrowed by a field selector (locator::fields) holds what
// matches it only, so the memo and the folds keep to the same objects the
// cache's field index answered.
BOOST_AUTO_TEST_CASE(a_listed_slot_narrowed_by_fields_holds_only_what_matches_them) {
  const auto slot = rt::listed("maps", {"", "v1", "ConfigMap"}, "", rt::namespace_role::order);
  const protocol::order_key order{"", "default", "w"};
  rt::slot_result res;
  res.read = true;
  res.namespace_ = "default";
  for (auto [fields, size, holds] : {std::tuple{"data.size=big", "big", true}, std::tuple{"data.size=big", "s", false},
                                     std::tuple{"", "s", true}}) {
    res.fields = fields;
    BOOST_TEST(rt::slot_holds(slot, res, slot.cluster, cm("a", "1", size), widget::keys, order) == holds,
               fields << " / " << size);
  }
}

BOOST_AUTO_TEST_CASE(first_unapplied_field_names_a_path_never_a_value) {
  struct row {
    const char* what;
    std::string desired, live, field;
  };
  const std::vector<row> rows{
      {"all there", R"({"kind":"X","spec":{"a":1}})", R"({"kind":"X","spec":{"a":1,"b":2}})", ""},
      {"a scalar differs", R"({"spec":{"a":1}})", R"({"spec":{"a":2}})", "spec.a"},
      {"a member missing", R"({"data":{"password":"hunter2"}})", R"({"data":{}})", "data.password"},
      {"an array element", R"({"spec":{"l":[{"n":"x"},{"n":"y"}]}})", R"({"spec":{"l":[{"n":"x"},{"n":"z"}]}})",
       "spec.l[1].n"},
      {"status is never compared", R"({"status":{"a":1}})", R"({"status":{"a":2}})", ""},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      BOOST_TEST(rt::first_unapplied_field(*k8s::object::parse(r.desired), *k8s::object::parse(r.live)) == r.field);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(runner_declaration)

BOOST_AUTO_TEST_CASE(the_watches_a_declaration_implies) {
  rt::kind_declaration k;
  k.gvk = {"c5c3.io", "v1alpha1", "Thing"};
  k.keys = {"c5c3.io/thing-name", "c5c3.io/thing-namespace", "c5c3.io/thing-cluster"};
  k.reads.push_back(rt::children("secrets", {"", "v1", "Secret"}, k.keys, false));
  auto delivered = rt::named("delivered", {"", "v1", "Secret"}, {}, k.keys.name);
  delivered.cluster = rt::cluster_role::order;
  k.reads.push_back(delivered);
  k.reads.push_back(rt::named("cluster", {"rabbitmq.com", "v1beta1", "RabbitmqCluster"}, {}, "", true));
  k.watches.push_back({{"c5c3.io", "v1alpha1", "Other"}, "", rt::cluster_role::order, true});
  auto w = rt::watches_of(k);
  const std::vector<rt::derived_watch> want{
      {k.gvk, "", true, true, "", "", true},  // the order kind's watch: narrowed to the replica's share when sharded
      // children and the delivered Secret: one watch, every Secret of the selector (the named read needs them all)
      {{"", "v1", "Secret"}, "c5c3.io/thing-name", true, false},
      {{"rabbitmq.com", "v1beta1", "RabbitmqCluster"}, "", false, true},
      {{"c5c3.io", "v1alpha1", "Other"}, "", true, true},
  };
  BOOST_TEST_REQUIRE(w.size() == want.size());
  for (std::size_t i = 0; i < w.size(); ++i) BOOST_TEST((w[i] == want[i]), "watch " << i);
}

BOOST_AUTO_TEST_CASE(a_watch_drops_only_what_every_read_merged_into_it_does_without) {
  rt::kind_declaration k;
  k.gvk = {"c5c3.io", "v1alpha1", "Thing"};
  k.keys = {"c5c3.io/thing-name", "c5c3.io/thing-namespace", "c5c3.io/thing-cluster"};
  auto secrets = rt::children("secrets", {"", "v1", "Secret"}, k.keys, false);
  secrets.drop = {"metadata.creationTimestamp", "metadata.annotations", "metadata.creationTimestamp"};
  auto delivered = rt::named("delivered", {"", "v1", "Secret"}, {}, k.keys.name);
  delivered.drop = {"metadata.creationTimestamp", "status.x"};
  auto pushes = rt::children("pushes", {"external-secrets.io", "v1alpha1", "PushSecret"}, k.keys);
  pushes.drop = {"status.syncedPushSecrets"};
  auto maps = rt::children("maps", {"", "v1", "ConfigMap"}, k.keys);
  maps.drop = {"data"};
  k.reads = {secrets, delivered, pushes, maps};
  // Another watch of the ConfigMaps (a wake rule): the maps' watch keeps everything.
  k.watches.push_back({{"", "v1", "ConfigMap"}, k.keys.name, rt::cluster_role::management, true});
  auto w = rt::watches_of(k);
  BOOST_TEST_REQUIRE(w.size() == 4u);
  BOOST_TEST(w[0].drop.empty());  // the order kind
  BOOST_TEST(w[1].gvk.kind == "Secret");
  BOOST_TEST(w[1].drop == (std::vector<std::string>{"metadata.creationTimestamp"}));
  BOOST_TEST(w[2].gvk.kind == "PushSecret");
  BOOST_TEST(w[2].drop == (std::vector<std::string>{"status.syncedPushSecrets"}));
  BOOST_TEST(w[3].gvk.kind == "ConfigMap");
  BOOST_TEST(w[3].drop.empty());
}

BOOST_AUTO_TEST_CASE(an_order_selector_a_watched_namespace_uncached_reads_and_wake_rules) {
  rt::kind_declaration k;
  k.gvk = {"monitoring.coreos.com", "v1", "ServiceMonitor"};
  k.order_selector = "monitoring.appscode.com/prometheus=auto";
  auto info = rt::named("ace-info", {"", "v1", "ConfigMap"}, {});
  info.watch_namespace = "kube-public";
  k.reads.push_back(info);
  auto tokens = rt::listed("tokens", {"", "v1", "Secret"}, "");
  tokens.uncached = true;  // read from the API server: no informer, no watch
  k.reads.push_back(tokens);
  k.reads.push_back(rt::listed("prometheuses", {"monitoring.coreos.com", "v1", "Prometheus"}, "",
                               rt::namespace_role::all));
  rt::watch_decl every;
  every.gvk = {"monitoring.coreos.com", "v1", "Prometheus"};
  every.wakes = [](const k8s::object&, const k8s::object&) { return true; };
  k.watches.push_back(every);
  rt::watch_decl mine;
  mine.gvk = {"", "v1", "Secret"};
  mine.namespace_ = "monitoring-operator";
  k.watches.push_back(mine);
  auto w = rt::watches_of(k);
  const std::vector<rt::derived_watch> want{
      {k.gvk, "monitoring.appscode.com/prometheus=auto", true, true, "", "", true},
      {{"", "v1", "ConfigMap"}, "", false, false, "kube-public"},
      {{"monitoring.coreos.com", "v1", "Prometheus"}, "", false, false, ""},  // the read and the wake rule: one watch
      {{"", "v1", "Secret"}, "", false, true, "monitoring-operator"},
  };
  BOOST_TEST_REQUIRE(w.size() == want.size());
  for (std::size_t i = 0; i < w.size(); ++i) BOOST_TEST((w[i] == want[i]), "watch " << i);
  auto rules = rt::wake_rules_of(k);
  BOOST_TEST_REQUIRE(rules.size() == 1u);
  BOOST_TEST(rules.front().gvk.kind == "Prometheus");
  BOOST_TEST(rules.front().relates(k8s::object{}, k8s::object{}));
}

BOOST_AUTO_TEST_CASE(labelled_for_needs_the_orders_cluster) {
  const protocol::order_key mgmt{"", "default", "w"}, edge{"edge", "default", "w"};
  auto o = cm("a", "1");
  BOOST_TEST(rt::labelled_for(o, widget::keys, mgmt));
  BOOST_TEST(!rt::labelled_for(o, widget::keys, edge));
  BOOST_TEST(rt::order_selector(widget::keys, mgmt) ==
             "test.c5c3.io/widget-name=w,test.c5c3.io/widget-namespace=default");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
