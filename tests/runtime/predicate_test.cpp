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

BOOST_AUTO_TEST_CASE(unknown_old_passes) {
  BOOST_TEST(cr_update_predicate(k8s::object{}, base().freeze()));
}

BOOST_AUTO_TEST_SUITE_END()
