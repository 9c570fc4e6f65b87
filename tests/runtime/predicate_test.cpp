#include "actors/runtime/predicate.hpp"

#include <boost/test/unit_test.hpp>

#include <functional>

using namespace c5c3;
using c5c3::runtime::cr_update_predicate;

namespace {
k8s::object_builder base() {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", "alice"};
  b.set_int({"metadata", "generation"}, 3);
  b.set_resource_version("100");
  b.set_label("team", "a");
  b.set_annotation("note", "x");
  b.set_string({"status", "phase"}, "Ready");
  return b;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(cr_update_predicate_table)

// apis.md 1.1 watch.CRUpdatePredicate: generation, labels, annotations, or
// becoming terminating pass; the CR's own status writes do not.
BOOST_AUTO_TEST_CASE(rows) {
  struct row {
    const char* name;
    std::function<void(k8s::object_builder&)> change;
    bool passes;
  };
  const row rows[] = {
      {"nothing changed (resync)", [](auto&) {}, false},
      {"status-only write",
       [](auto& b) {
         b.set_resource_version("101");
         b.set_string({"status", "phase"}, "NotReady");
       },
       false},
      {"resourceVersion only", [](auto& b) { b.set_resource_version("102"); }, false},
      {"finalizer added (no generation bump)", [](auto& b) { b.add_finalizer("c5c3.io/x"); }, false},
      {"generation changed", [](auto& b) { b.set_int({"metadata", "generation"}, 4); }, true},
      {"label value changed", [](auto& b) { b.set_label("team", "b"); }, true},
      {"label added", [](auto& b) { b.set_label("tier", "gold"); }, true},
      {"label removed", [](auto& b) { b.remove_label("team"); }, true},
      {"annotation changed", [](auto& b) { b.set_annotation("note", "y"); }, true},
      {"annotation removed", [](auto& b) { b.remove_annotation("note"); }, true},
      {"became terminating",
       [](auto& b) { b.set_string({"metadata", "deletionTimestamp"}, "2026-01-01T00:00:00Z"); },
       true},
  };
  auto old = base().freeze();
  for (const auto& r : rows) {
    auto b = base();
    r.change(b);
    auto now = std::move(b).freeze();
    BOOST_TEST_CONTEXT(r.name) { BOOST_TEST(cr_update_predicate(old, now) == r.passes); }
  }
}

BOOST_AUTO_TEST_CASE(already_terminating_stays_filtered) {
  auto b1 = base();
  b1.set_string({"metadata", "deletionTimestamp"}, "2026-01-01T00:00:00Z");
  auto old = std::move(b1).freeze();
  auto b2 = base();
  b2.set_string({"metadata", "deletionTimestamp"}, "2026-01-01T00:00:00Z");
  b2.set_resource_version("200");
  b2.set_string({"status", "phase"}, "Deleting");
  BOOST_TEST(!cr_update_predicate(old, std::move(b2).freeze()));
}

// A kind without generation (a Secret: the TokenRefresher's order): its data
// is what a generation would count. Found by fault_plans_tokenrefresher_test:
// the refresher's keys removed from the Secret woke nothing, and it was
// renewed no more (the next renewal timer a year away).
BOOST_AUTO_TEST_CASE(a_content_change_of_a_kind_without_generation_passes) {
  auto secret = [](const char* next, const char* rv) {
    k8s::object_builder b{"v1", "Secret", "monitoring-operator", "ra"};
    b.set_resource_version(rv);
    b.set_string({"data", "token"}, "dG9rZW4=");
    if (next) b.set_string({"data", "token.next"}, next);
    return std::move(b).freeze();
  };
  const auto old = secret("bmV4dA==", "100");
  BOOST_TEST(cr_update_predicate(old, secret(nullptr, "101")));     // a key removed
  BOOST_TEST(cr_update_predicate(old, secret("b3RoZXI=", "101")));  // a value changed
  BOOST_TEST(cr_update_predicate(secret(nullptr, "100"), old));     // a key added
  BOOST_TEST(!cr_update_predicate(old, secret("bmV4dA==", "101"))); // resourceVersion only
  auto b = old.edit();
  b.add_finalizer("c5c3.io/x");  // metadata beyond labels and annotations: still filtered
  BOOST_TEST(!cr_update_predicate(old, std::move(b).freeze()));
  // A kind with a generation: a content change without a generation bump (its status) stays filtered.
  auto g = base();
  g.set_string({"status", "phase"}, "NotReady");
  g.set_string({"extra"}, "x");
  BOOST_TEST(cr_update_predicate(base().freeze(), std::move(g).freeze()) == false);
}

BOOST_AUTO_TEST_CASE(unknown_old_passes) {
  BOOST_TEST(cr_update_predicate(k8s::object{}, base().freeze()));
}

// A child's modification wakes its order unless only its version changed
// (the cache's projection already left out what else its controller wrote).
BOOST_AUTO_TEST_CASE(changed_beyond_version_rows) {
  using c5c3::runtime::changed_beyond_version;
  struct row {
    const char* name;
    std::function<void(k8s::object_builder&)> change;
    bool changed;
  };
  const row rows[] = {
      {"nothing changed (a resync)", [](auto&) {}, false},
      {"resourceVersion only (a finalizer the projection drops)", [](auto& b) { b.set_resource_version("101"); },
       false},
      {"a status field", [](auto& b) { b.set_string({"status", "phase"}, "NotReady"); }, true},
      {"a status field added", [](auto& b) { b.set_string({"status", "observedGeneration"}, "3"); }, true},
      {"a status field removed", [](auto& b) { b.remove({"status", "phase"}); }, true},
      {"a member outside metadata and status", [](auto& b) { b.set_string({"data", "k"}, "dg=="); }, true},
      {"the generation", [](auto& b) { b.set_int({"metadata", "generation"}, 4); }, true},
      {"a label", [](auto& b) { b.set_label("team", "b"); }, true},
      {"an annotation", [](auto& b) { b.set_annotation("note", "y"); }, true},
      {"a finalizer kept by the cache", [](auto& b) { b.add_finalizer("c5c3.io/x"); }, true},
      {"becoming terminating",
       [](auto& b) { b.set_string({"metadata", "deletionTimestamp"}, "2026-01-01T00:00:00Z"); }, true},
  };
  auto old = base().freeze();
  for (const auto& r : rows) {
    auto b = base();
    r.change(b);
    auto now = std::move(b).freeze();
    BOOST_TEST_CONTEXT(r.name) {
      BOOST_TEST(changed_beyond_version(old, now) == r.changed);
      BOOST_TEST(changed_beyond_version(now, old) == r.changed);
    }
  }
  BOOST_TEST(changed_beyond_version(k8s::object{}, old));
}

BOOST_AUTO_TEST_SUITE_END()
