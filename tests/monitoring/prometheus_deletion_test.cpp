// The PrometheusReconciler's teardown when the operator's view of the
// Prometheus lags behind its own finalizer release: the Prometheus watch is
// held (the emulator's stream rule) from the moment the teardown is under
// way, so the DELETED event never reaches the cache and a later pass starts
// from the terminating object the cache still shows. That pass must not tear
// down again: the backend context is unregistered exactly once.
#include "tests/monitoring/monitoring_fixture.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

BOOST_AUTO_TEST_SUITE(monitoring_prometheus_deletion)

BOOST_AUTO_TEST_CASE(a_pass_on_a_stale_terminating_prometheus_does_not_unregister_again) {
  mon_fixture f;
  f.create(prometheus_yaml);
  BOOST_TEST_REQUIRE(eventually([&] { return registered(f); }));

  // The backend refuses the unregistration until told otherwise: the
  // teardown has started (the operator has seen the deletion) and cannot
  // release the finalizer yet.
  sim::monitoring::fault_rule refuse;
  refuse.path = "/api/v1/trickster/unregister";
  refuse.status = 503;
  const auto refused = f.backend.faults().add(refuse);
  f.remove(prometheus_gvk, "monitoring", "k8s");
  BOOST_TEST_REQUIRE(eventually([&] { return f.backend.faults().fired()[refused] >= 1; }));

  // From now on no Prometheus event reaches the operator's informer.
  sim::fault_rule hold;
  hold.verb = "watch";
  hold.resource = "prometheuses";
  hold.hold_watch_events = 1000;
  const auto held = f.server.add_fault(hold);

  // The retry unregisters and releases the finalizer; the object is gone
  // from the API server, not from the operator's cache.
  BOOST_TEST(f.backend.faults().remove(refused));
  BOOST_TEST_REQUIRE(eventually([&] { return !f.get("prometheuses.monitoring.coreos.com", "monitoring", "k8s"); }));
  BOOST_TEST_REQUIRE(f.unregister_calls() == 1);
  std::uint64_t finished = 0;
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = f.probe(prometheus_controller, "monitoring", "k8s");
    finished = p.passes_finished;
    return p.passes_started == p.passes_finished && !p.wake_pending;
  }));

  // A wake-up (ConfigMap kube-public/ace-info wakes every Prometheus): a pass
  // on the stale, terminating Prometheus.
  f.create("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ace-info, namespace: kube-public}\ndata: {uid: x}\n");
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = f.probe(prometheus_controller, "monitoring", "k8s");
    return p.passes_finished > finished && p.passes_started == p.passes_finished;
  }));
  BOOST_TEST(f.unregister_calls() == 1);
  const auto after = f.probe(prometheus_controller, "monitoring", "k8s");
  BOOST_TEST(after.failures == 0u, after.last_error);

  // Released, the DELETED event retires the order.
  BOOST_TEST(f.server.remove_fault(held));
  BOOST_TEST_REQUIRE(eventually([&] { return f.probe(prometheus_controller, "monitoring", "k8s").passes_started == 0u; }));
  BOOST_TEST(f.unregister_calls() == 1);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
