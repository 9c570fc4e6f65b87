// A watch the server refuses with a whole answer (a status and a
// Content-Length, as kube-apiserver answers a throttled or forbidden watch)
// ends with that status and its Retry-After, as any other request does. In
// Boost 1.74 a parser whose body limit is boost::none refuses every
// Content-Length ("body limit exceeded"), which made these refusals
// transport errors and lost their Retry-After.
#include "harness.hpp"

#include <future>

using namespace c5c3;
using namespace c5c3::testing;

BOOST_AUTO_TEST_SUITE(client_watch_refusal)

BOOST_FIXTURE_TEST_CASE(a_refused_watch_ends_with_the_status_and_retry_after_it_was_given, emulator_fixture) {
  sim::fault_rule f;
  f.verb = "watch";
  f.resource = "configmaps";
  f.status_code = 429;
  f.retry_after_seconds = 7;
  f.times = 1;
  server.add_fault(f);
  auto c = make_client();
  std::promise<k8s::result<bool>> ended;
  auto w = c->watch(
      configmap_kind, "default", k8s::watch_options{}, [](k8s::watch_event) {},
      [&](k8s::result<bool> r) { ended.set_value(std::move(r)); });
  auto end = ended.get_future();
  BOOST_TEST_REQUIRE((end.wait_for(deadline) == std::future_status::ready));
  auto r = end.get();
  BOOST_TEST_REQUIRE(!r.ok());
  const auto& e = r.error();
  BOOST_TEST(!e.transport(), e.describe());
  BOOST_TEST(e.code == 429, e.describe());
  BOOST_TEST(e.retry_after_seconds.value_or(0) == 7, e.describe());
  BOOST_TEST(server.fault_counts().total == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
