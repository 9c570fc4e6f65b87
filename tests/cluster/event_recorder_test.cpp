// The event recorder (actors/runtime/event_recorder.hpp) through a cluster
// actor on the emulator: a repeat of an event whose create is still on its
// way patches that one Event once the create answers; it does not reach the
// API server first, meet NotFound and make a second Event of the same key.
#include "actors/runtime/event_recorder.hpp"
#include "tests/cluster/cluster_fixture.hpp"
#include "tests/emulator_client.hpp"
#include "tests/require_eventually.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing::cluster_tests {

namespace {

k8s::object involved() {
  k8s::object_builder b("v1", "ConfigMap", "default", "settings");
  b.set_string({"metadata", "uid"}, "uid-settings");
  return std::move(b).freeze();
}

// The Warning events about the ConfigMap: (name, count) each.
std::vector<std::pair<std::string, std::int64_t>> warnings(const sim::apiserver& server) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& e : server.list_objects("events", "default"))
    if (e.get_string({"involvedObject", "name"}) == "settings" && e.get_string({"type"}) == "Warning")
      out.emplace_back(std::string(e.name()), k8s::get_int(e.json(), {"count"}).value_or(0));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(event_recorder)

BOOST_FIXTURE_TEST_CASE(repeats_while_the_create_is_on_its_way_patch_the_one_event, cluster_fixture) {
  auto recorder = runtime::spawn_event_recorder(sys, {});
  // Every create of an Event answers after a second; patches at once.
  sim::fault_rule slow;
  slow.verb = "create";
  slow.resource = "events";
  slow.latency = std::chrono::milliseconds(1000);
  server.add_fault(slow);
  const runtime::event_record failed{"Warning", "BackendDown", "the backend did not answer"};
  for (int i = 0; i < 3; ++i) caf::anon_send(recorder, runtime::recorded_event{involved(), failed, cluster});

  auto seen = [&] {
    std::string out;
    for (const auto& [name, count] : warnings(server)) out += name + " (count " + std::to_string(count) + "); ";
    return out;
  };
  C5C3_CHECK_EVENTUALLY(eventually([&] {
                          auto w = warnings(server);
                          return w.size() == 1 && w[0].second == 3;
                        }),
                        "Warning events: " << seen());
  caf::scoped_actor self{sys};
  caf::anon_send_exit(recorder, caf::exit_reason::user_shutdown);
  self->wait_for(recorder);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::cluster_tests
