// event_correlator: client-go's event logger (a repeated event patches count
// and lastTimestamp of the Event already written), as pure data.
#include "actors/runtime/event_correlator.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::runtime {

namespace {

involved_object dashboard() {
  return {"openviz.dev/v1alpha1", "GrafanaDashboard", "team-a", "overview", "uid-1", "42"};
}

k8s::time_point at(int seconds) { return k8s::time_point{} + std::chrono::hours(24 * 365 * 56) + std::chrono::seconds(seconds); }

}  // namespace

BOOST_AUTO_TEST_SUITE(event_correlator_suite)

BOOST_AUTO_TEST_CASE(first_occurrence_creates_an_event_as_client_go_writes_it) {
  event_correlator c("c5c3-operator");
  auto w = c.observe(dashboard(), {"Warning", "failed to set dashboard", "Failed to complete"}, at(0));
  BOOST_TEST(w.create);
  BOOST_TEST(w.namespace_ == "team-a");
  BOOST_TEST(w.name.rfind("overview.", 0) == 0u);
  const auto& e = w.event;
  BOOST_TEST(e.api_version() == "v1");
  BOOST_TEST(e.kind() == "Event");
  BOOST_TEST(e.name() == w.name);
  BOOST_TEST(e.get_string({"involvedObject", "kind"}) == "GrafanaDashboard");
  BOOST_TEST(e.get_string({"involvedObject", "namespace"}) == "team-a");
  BOOST_TEST(e.get_string({"involvedObject", "uid"}) == "uid-1");
  BOOST_TEST(e.get_string({"involvedObject", "apiVersion"}) == "openviz.dev/v1alpha1");
  BOOST_TEST(e.get_string({"type"}) == "Warning");
  BOOST_TEST(e.get_string({"reason"}) == "failed to set dashboard");
  BOOST_TEST(e.get_string({"source", "component"}) == "c5c3-operator");
  BOOST_TEST(k8s::get_int(e.json(), {"count"}).value_or(0) == 1);
  BOOST_TEST(e.get_string({"firstTimestamp"}) == e.get_string({"lastTimestamp"}));
}

BOOST_AUTO_TEST_CASE(a_repeat_is_a_patch_of_count_and_last_timestamp) {
  event_correlator c;
  auto first = c.observe(dashboard(), {"Warning", "r", "m"}, at(0));
  auto second = c.observe(dashboard(), {"Warning", "r", "m"}, at(5));
  auto third = c.observe(dashboard(), {"Warning", "r", "m"}, at(9));
  BOOST_TEST(!second.create);
  BOOST_TEST(second.name == first.name);
  BOOST_TEST(third.count == 3);
  auto patch = k8s::parse_json(third.patch);
  BOOST_TEST_REQUIRE(patch.has_value());
  BOOST_TEST(k8s::get_int(*patch, {"count"}).value_or(0) == 3);
  BOOST_TEST(k8s::get_string(*patch, {"lastTimestamp"}) == k8s::format_rfc3339(at(9)));
  BOOST_TEST(c.size() == 1u);
  // Another message, reason, type or object: another Event.
  BOOST_TEST(c.observe(dashboard(), {"Warning", "r", "other"}, at(10)).create);
  BOOST_TEST(c.observe(dashboard(), {"Normal", "r", "m"}, at(10)).create);
  auto other = dashboard();
  other.uid = "uid-2";
  BOOST_TEST(c.observe(other, {"Warning", "r", "m"}, at(10)).create);
  // A changed resourceVersion of the same object is the same event.
  auto later = dashboard();
  later.resource_version = "43";
  BOOST_TEST(!c.observe(later, {"Warning", "r", "m"}, at(11)).create);
}

BOOST_AUTO_TEST_CASE(recreate_keeps_the_count_and_first_timestamp) {
  event_correlator c;
  auto first = c.observe(dashboard(), {"Warning", "r", "m"}, at(0));
  c.observe(dashboard(), {"Warning", "r", "m"}, at(3));
  auto again = c.recreate(dashboard(), {"Warning", "r", "m"}, at(60));
  BOOST_TEST(again.create);
  BOOST_TEST(again.count == 2);
  BOOST_TEST(again.event.get_string({"firstTimestamp"}) == first.event.get_string({"firstTimestamp"}));
  BOOST_TEST(again.name != first.name);
  BOOST_TEST(!c.observe(dashboard(), {"Warning", "r", "m"}, at(61)).create);
}

BOOST_AUTO_TEST_CASE(bounded_the_oldest_forgotten_first_and_long_messages_cut) {
  event_correlator c("x", 2);
  c.observe(dashboard(), {"Warning", "a", "m"}, at(0));
  c.observe(dashboard(), {"Warning", "b", "m"}, at(1));
  c.observe(dashboard(), {"Warning", "a", "m"}, at(2));  // a is the newest now
  c.observe(dashboard(), {"Warning", "c", "m"}, at(3));  // b goes
  BOOST_TEST(c.size() == 2u);
  BOOST_TEST(!c.observe(dashboard(), {"Warning", "a", "m"}, at(4)).create);
  BOOST_TEST(c.observe(dashboard(), {"Warning", "b", "m"}, at(5)).create);
  auto big = c.observe(dashboard(), {"Warning", "long", std::string(5000, 'x')}, at(6));
  BOOST_TEST(big.event.get_string({"message"}).size() == event_message_limit);
  involved_object cluster_scoped{"v1", "Namespace", "", "ns-1", "u", "1"};
  BOOST_TEST(c.observe(cluster_scoped, {"Warning", "r", "m"}, at(7)).namespace_ == "default");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::runtime
