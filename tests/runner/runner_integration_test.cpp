// The order runner with a kind written for it (widget_kind.hpp: constants, a
// sense declaration and a pure plan), against the in-process emulator over
// TLS, through the cluster actor and directory, as the operator runs a kind.
// Faults are injected at the emulator. Every wait is bounded and polls an
// observable (stored objects, the order actor's probe), never a duration.
#include "actors/cluster/cluster_actor.hpp"
#include "actors/cluster/cluster_directory.hpp"
#include "actors/runtime/http_service.hpp"
#include "actors/runtime/runner/host.hpp"
#include "k8s/server/http_server.hpp"
#include "protocol/api_error.hpp"
#include "protocol/clusters.hpp"
#include "protocol/order.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "tests/actor_config.hpp"
#include "tests/emulator_client.hpp"
#include "tests/require_eventually.hpp"
#include "tests/runner/widget_kind.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <filesystem>

namespace c5c3::testing {
namespace {

using namespace std::chrono_literals;
constexpr auto deadline = 60s;

sim::apiserver_options with_crds(const std::string& dir) {
  sim::apiserver_options o;
  o.crd_dirs = {dir};
  return o;
}

struct runner_fixture {
  std::string dir = scratch_dir("c5c3-runner", {{"widget.yaml", open_crd("test.c5c3.io", "Widget", "widgets")}});
  sim::apiserver server{with_crds(dir)};
  caf::actor_system sys{make_config()};
  caf::actor management, directory, host, echo;
  // The service the Widget calls: answers 201 with what it was sent and the
  // Authorization it saw.
  k8s::http_server echo_server{"127.0.0.1:0", std::nullopt, [](const k8s::http_request& req, k8s::http_responder& out) {
                                 k8s::http_response res;
                                 res.status = 201;
                                 res.body = req.method + " " + req.path + " " + std::string(req.header("Authorization")) +
                                            " " + req.body;
                                 out.send(res);
                               }};

  explicit runner_fixture(caf::timespan pass_deadline = std::chrono::minutes(10), caf::timespan park_after = {}) {
    server.start();
    auto c = emulator_client(server, dir);
    c.retry.max_retries = 0;  // faults reach the runner, not the client's retries
    management = cluster::spawn_cluster(sys, {"", c});
    directory = cluster::spawn_cluster_directory(sys, management);
    echo_server.start();
    echo = runtime::spawn_http_service(sys);
    runtime::kind_host_options ho;
    ho.deps.clusters = directory;
    ho.deps.services = {{"echo", echo}};
    ho.deps.field_manager = "c5c3-operator";
    ho.actor_options.pass_deadline = pass_deadline;
    ho.actor_options.backoff_max = 200ms;
    ho.actor_options.park_after = park_after;
    host = runtime::spawn_kind_host(sys, widget::declaration(), ho);
    BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  }

  ~runner_fixture() {
    caf::scoped_actor self{sys};
    for (const auto& a : {host, directory, management, echo}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  bool synced() {
    caf::scoped_actor self{sys};
    bool out = false;
    self->request(directory, deadline, protocol::synced_atom::value).receive([&](bool b) { out = b; }, [](caf::error&) {});
    return out;
  }

  caf::expected<k8s::object> write(auto req) {
    caf::scoped_actor self{sys};
    caf::expected<k8s::object> out{caf::error{}};
    self->request(management, deadline, std::move(req))
        .receive([&](k8s::object& o) { out = std::move(o); }, [&](caf::error& e) { out = std::move(e); });
    return out;
  }

  void create_widget(const std::string& name, const std::string& spec) {
    auto o = k8s::object::parse(R"({"apiVersion":"test.c5c3.io/v1","kind":"Widget","metadata":{"name":")" + name +
                                R"(","namespace":"default"},"spec":)" + spec + "}");
    BOOST_TEST_REQUIRE(o.has_value());
    auto r = write(protocol::create_request{*o, {}});
    BOOST_TEST_REQUIRE(static_cast<bool>(r), (r ? std::string() : sys.render(r.error())));
  }

  void delete_widget(const std::string& name) {
    auto r = write(protocol::delete_request{{widget::gvk, "default", name}, "", "", protocol::propagation::background});
    BOOST_TEST_REQUIRE(static_cast<bool>(r), (r ? std::string() : sys.render(r.error())));
  }

  k8s::object widget_obj(const std::string& name) const {
    return server.get_object("widgets.test.c5c3.io", "default", name);
  }
  k8s::object map(const std::string& name) const { return server.get_object("configmaps", "default", name + "-map"); }

  std::optional<k8s::condition> ready(const std::string& name) const {
    auto w = widget_obj(name);
    return w ? w.find_condition("Ready") : std::nullopt;
  }
  bool reason_is(const std::string& name, const std::string& reason) const {
    auto c = ready(name);
    return c && c->reason == reason;
  }

  protocol::order_probe probe(const std::string& name) {
    caf::scoped_actor self{sys};
    protocol::order_probe p;
    self->request(host, deadline, protocol::probe_atom::value, protocol::order_key{"", "default", name})
        .receive([&](protocol::order_probe& x) { p = std::move(x); }, [](caf::error&) {});
    return p;
  }

  protocol::host_probe host_probe() {
    caf::scoped_actor self{sys};
    protocol::host_probe p;
    self->request(host, deadline, protocol::probe_atom::value)
        .receive([&](protocol::host_probe& x) { p = std::move(x); }, [](caf::error&) {});
    return p;
  }

  std::size_t writes(const std::string& verb, const std::string& resource, int code) const {
    std::size_t n = 0;
    for (const auto& w : server.write_log()) n += w.verb == verb && w.resource == resource && w.code == code;
    return n;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_integration)

BOOST_FIXTURE_TEST_CASE(a_kind_declared_as_reads_plan_and_constants_converges_and_tears_down, runner_fixture) {
  create_widget("w1", R"({"size":"small"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("w1", "Mapped"); }));
  auto w = widget_obj("w1");
  BOOST_TEST(w.has_finalizer(widget::finalizer));
  BOOST_TEST(ready("w1")->observed_generation == w.generation());
  auto m = map("w1");
  BOOST_TEST_REQUIRE(static_cast<bool>(m));
  BOOST_TEST(m.get_string({"data", "size"}) == "small");
  BOOST_TEST(m.label(widget::keys.name).value_or("") == "w1");
  BOOST_TEST(writes("create", "configmaps", 201) == 1u);

  // A change of the spec reaches the child through the cache, with one apply.
  auto r = write(protocol::patch_request{{widget::gvk, "default", "w1"}, protocol::patch_type::merge,
                                         R"({"spec":{"size":"large"}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(r));
  BOOST_TEST_REQUIRE(eventually([&] { return map("w1").get_string({"data", "size"}) == "large"; }));
  BOOST_TEST(writes("create", "configmaps", 201) == 1u);

  delete_widget("w1");
  BOOST_TEST_REQUIRE(eventually([&] { return !widget_obj("w1") && !map("w1"); }));
}

BOOST_FIXTURE_TEST_CASE(a_plan_calls_a_service_outside_kubernetes_and_plans_on_its_answer, runner_fixture) {
  auto url = "http://127.0.0.1:" + std::to_string(echo_server.port()) + "/api/echo";
  create_widget("svc", R"({"size":"small","callUrl":")" + url + R"("})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("svc", "Mapped"); }));
  BOOST_TEST(map("svc").get_string({"data", "answer"}) ==
             R"(201 POST /api/echo Bearer widget-token {"widget":"svc"})");
  // A service that cannot be reached is an answer the plan sees, naming the URL.
  create_widget("down", R"({"size":"small","callUrl":"http://127.0.0.1:1/x"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("down", "Mapped"); }));
  auto answer = std::string(map("down").get_string({"data", "answer"}));
  BOOST_TEST(answer.rfind("error: ", 0) == 0u, answer);
  BOOST_TEST(answer.find("127.0.0.1:1") != std::string::npos, answer);
  BOOST_TEST(answer.find("widget-token") == std::string::npos, answer);
}

BOOST_FIXTURE_TEST_CASE(a_foreign_object_met_on_create_is_read_by_name_and_refused, runner_fixture) {
  auto foreign = k8s::object::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"w2-map","namespace":"default"},"data":{"size":"theirs"}})");
  BOOST_TEST_REQUIRE(static_cast<bool>(write(protocol::create_request{*foreign, {}})));
  create_widget("w2", R"({"size":"small"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("w2", "Refused"); }));
  BOOST_TEST(ready("w2")->message == "ConfigMap default/w2-map exists and is not owned by this Widget");
  BOOST_TEST(map("w2").get_string({"data", "size"}) == "theirs");
  BOOST_TEST(writes("create", "configmaps", 409) >= 1u);
}

BOOST_FIXTURE_TEST_CASE(a_status_conflict_is_a_requeue_and_the_order_converges, runner_fixture) {
  sim::fault_rule f;
  f.verb = "update";
  f.resource = "widgets/status";
  f.status_code = 409;
  f.times = 3;
  auto id = server.add_fault(f);
  create_widget("w3", R"({"size":"small"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("w3", "Mapped"); }));
  BOOST_TEST(server.fault_counts().by_rule[id] == 3u);
  BOOST_TEST(probe("w3").last_error.empty());
}

BOOST_FIXTURE_TEST_CASE(a_plan_that_never_settles_fails_naming_the_object_and_the_field, runner_fixture) {
  create_widget("w4", R"({"size":"small","unsettled":true})");
  BOOST_TEST_REQUIRE(eventually([&] { return !probe("w4").last_error.empty(); }));
  BOOST_TEST(probe("w4").last_error ==
             "Widget default/w4: the plan did not settle within 10 rounds; it still asks to apply ConfigMap "
             "default/w4-map (data.tick is not what the API server stored)");
}

BOOST_FIXTURE_TEST_CASE(delete_answered_not_found_is_success, runner_fixture) {
  create_widget("w5", R"({"size":"small"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("w5", "Mapped"); }));
  sim::fault_rule f;
  f.verb = "delete";
  f.resource = "configmaps";
  f.status_code = 404;
  f.times = 1;
  auto id = server.add_fault(f);
  delete_widget("w5");
  BOOST_TEST_REQUIRE(eventually([&] { return !widget_obj("w5"); }));
  BOOST_TEST(server.fault_counts().by_rule[id] == 1u);
}

BOOST_FIXTURE_TEST_CASE(a_fail_open_teardown_releases_the_finalizer_past_failed_deletes, runner_fixture) {
  create_widget("open", R"({"size":"small","failOpen":true})");
  create_widget("patient", R"({"size":"small"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("open", "Mapped") && reason_is("patient", "Mapped"); }));
  sim::fault_rule f;
  f.verb = "delete";
  f.resource = "configmaps";
  f.status_code = 500;
  auto id = server.add_fault(f);
  delete_widget("open");
  delete_widget("patient");
  BOOST_TEST_REQUIRE(eventually([&] { return !widget_obj("open"); }));
  BOOST_TEST(static_cast<bool>(map("open")));  // its delete failed and was passed over
  BOOST_TEST_REQUIRE(eventually([&] { return server.fault_counts().by_rule[id] >= 3u; }));
  BOOST_TEST_CONTEXT("without fail_open the finalizer holds while the delete fails") {
    BOOST_TEST(widget_obj("patient").terminating());
    BOOST_TEST(probe("patient").last_error.find("Widget default/patient: ") == 0u);
  }
  server.remove_fault(id);
  BOOST_TEST_REQUIRE(eventually([&] { return !widget_obj("patient") && !map("patient"); }));
}

BOOST_FIXTURE_TEST_CASE(a_plan_error_fails_the_pass_after_its_writes_and_backs_off, runner_fixture) {
  create_widget("bad", R"({"size":"small","failWith":"the backend answered 503"})");
  BOOST_TEST_REQUIRE(eventually([&] { return probe("bad").failures >= 2u; }));
  BOOST_TEST(probe("bad").last_error == "Widget default/bad: the backend answered 503");
  BOOST_TEST(reason_is("bad", "Mapped"));  // its writes and its status went out first
  BOOST_TEST(map("bad").get_string({"data", "size"}) == "small");
  auto r = write(protocol::patch_request{{widget::gvk, "default", "bad"}, protocol::patch_type::merge,
                                         R"({"spec":{"failWith":null}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(r));
  BOOST_TEST_REQUIRE(eventually([&] { return probe("bad").failures == 0u; }));
}

BOOST_FIXTURE_TEST_CASE(a_plan_writing_its_own_order_plans_on_from_the_answer, runner_fixture) {
  create_widget("self", R"({"size":"small","selfLabel":"patched"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("self", "Mapped"); }));
  BOOST_TEST(widget_obj("self").label("test.c5c3.io/self").value_or("") == "patched");
  // The finalizer's patch and the label's: the plan saw its own patch and
  // asked for no second one.
  BOOST_TEST(writes("patch", "widgets", 200) == 2u);
  BOOST_TEST(probe("self").last_error.empty());
}

BOOST_FIXTURE_TEST_CASE(the_echo_of_the_orders_own_child_write_wakes_no_pass_and_a_foreign_change_does, runner_fixture) {
  create_widget("quiet", R"({"size":"small"})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("quiet", "Mapped"); }));
  // The ConfigMap's create (and each apply after a spec change) comes back
  // as a watch event through the host: the actor, whose memo holds that
  // answer, starts no pass for it (an event that overtakes its write's
  // answer is judged when the pass ends). A few changes, in case a loaded
  // machine lets one echo go unrecognised.
  const char* sizes[] = {"large", "small", "large", "small"};
  for (const char* size : sizes) {
    if (probe("quiet").echoes >= 1u) break;
    auto r = write(protocol::patch_request{{widget::gvk, "default", "quiet"}, protocol::patch_type::merge,
                                           std::string(R"({"spec":{"size":")") + size + R"("}})", "", {}});
    BOOST_TEST_REQUIRE(static_cast<bool>(r));
    BOOST_TEST_REQUIRE(eventually([&] { return map("quiet").get_string({"data", "size"}) == size; }));
    eventually([&] { return probe("quiet").echoes >= 1u; }, 5s);
  }
  BOOST_TEST_REQUIRE(probe("quiet").echoes >= 1u);
  // Somebody else's change of the child is news: a pass puts it back.
  const std::string size(map("quiet").get_string({"data", "size"}));
  const auto passes = probe("quiet").passes_started;
  auto r = write(protocol::patch_request{{{"", "v1", "ConfigMap"}, "default", "quiet-map"}, protocol::patch_type::merge,
                                         R"({"data":{"size":"tampered"}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(r));
  BOOST_TEST_REQUIRE(eventually([&] {
    return probe("quiet").passes_started > passes && map("quiet").get_string({"data", "size"}) == size;
  }));
}

BOOST_FIXTURE_TEST_CASE(an_uncached_slot_is_read_from_the_api_server, runner_fixture) {
  auto secret = k8s::object::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"s1","namespace":"default"}})");
  BOOST_TEST_REQUIRE(static_cast<bool>(write(protocol::create_request{*secret, {}})));
  create_widget("count", R"({"size":"small","countSecrets":true})");
  BOOST_TEST_REQUIRE(eventually([&] { return reason_is("count", "Mapped"); }));
  BOOST_TEST(map("count").get_string({"data", "secrets"}) == "1");
}

BOOST_AUTO_TEST_CASE(a_converged_order_parks_and_comes_back_for_its_events_and_its_timer) {
  runner_fixture fx{std::chrono::minutes(10), 300ms};
  fx.create_widget("park", R"({"size":"small","timerSeconds":3})");
  BOOST_TEST_REQUIRE(eventually([&] { return fx.reason_is("park", "Mapped"); }));
  // Its writes' answers reached the cache (the memo is empty): it parks.
  const auto parked = static_cast<std::uint8_t>(protocol::order_phase::parked);
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return fx.host_probe().parked == 1u && fx.probe("park").phase == parked; }),
                          "parks: " << fx.host_probe().parks);
  auto passes = fx.probe("park").passes_started;

  // Its timer brings it back without any event, and it parks again.
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return fx.probe("park").passes_started > passes; }),
                          "passes: " << fx.probe("park").passes_started);
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return fx.host_probe().parked == 1u && fx.host_probe().unparks >= 1u; }),
                          "unparks: " << fx.host_probe().unparks);

  // A change of its spec reaches the child, as from an actor never parked.
  auto r = fx.write(protocol::patch_request{{widget::gvk, "default", "park"}, protocol::patch_type::merge,
                                            R"({"spec":{"size":"large","timerSeconds":3600}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(r));
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return fx.map("park").get_string({"data", "size"}) == "large" &&
                              fx.ready("park")->observed_generation == fx.widget_obj("park").generation(); }),
                          "size: " << fx.map("park").get_string({"data", "size"}));
  // A child deleted under a parked order is made again.
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return fx.host_probe().parked == 1u; }),
                          "parked: " << fx.host_probe().parked);
  auto r2 = fx.write(
      protocol::delete_request{{widget::configmap, "default", "park-map"}, "", "", protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(r2));
  // (The write log takes a write after the store shows it: both awaited.)
  C5C3_REQUIRE_EVENTUALLY(
      eventually([&] { return fx.map("park") && fx.writes("create", "configmaps", 201) >= 2u; }),
      "creates: " << fx.writes("create", "configmaps", 201));
  BOOST_TEST(fx.writes("create", "configmaps", 201) == 2u);
  BOOST_TEST(fx.probe("park").last_error.empty());

  // Deleted while parked, or woken by its deletion: torn down, gone from the host.
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return fx.host_probe().parked == 1u; }),
                          "parked: " << fx.host_probe().parked);
  fx.delete_widget("park");
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return !fx.widget_obj("park") && !fx.map("park"); }),
                          "widget still there");
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return fx.host_probe().live.empty(); }),
                          "live: " << fx.host_probe().live.size());
}

BOOST_AUTO_TEST_CASE(a_pass_past_its_deadline_writes_nothing_more_and_its_late_answer_is_ignored) {
  runner_fixture fx{3s};  // far above a pass's time even on a loaded machine
  sim::fault_rule f;
  f.verb = "create";
  f.resource = "configmaps";
  f.latency = 10s;
  f.times = 1;
  auto id = fx.server.add_fault(f);
  fx.create_widget("w6", R"({"size":"small"})");
  BOOST_TEST_REQUIRE(eventually([&] { return fx.reason_is("w6", "Mapped"); }));
  BOOST_TEST(fx.server.fault_counts().by_rule[id] == 1u);
  BOOST_TEST_REQUIRE(eventually([&] { return fx.writes("create", "configmaps", 409) >= 1u; }));
  BOOST_TEST(fx.probe("w6").failures == 0u);
  BOOST_TEST(fx.probe("w6").last_error == "pass did not finish within its deadline");
  BOOST_TEST_CONTEXT("one create made the map; the late one met AlreadyExists and its pass was over") {
    BOOST_TEST(fx.writes("create", "configmaps", 201) == 1u);
  }
  // A later change converges with one more status write: the late answer of
  // the abandoned pass planned nothing (it would have read the map by name
  // and written Refused).
  auto r = fx.write(protocol::patch_request{{widget::gvk, "default", "w6"}, protocol::patch_type::merge,
                                            R"({"spec":{"size":"large"}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(r));
  BOOST_TEST_REQUIRE(eventually([&] {
    return fx.map("w6").get_string({"data", "size"}) == "large" &&
           fx.ready("w6")->observed_generation == fx.widget_obj("w6").generation();
  }));
  // The stored object can be read before the write log records its write.
  BOOST_TEST_REQUIRE(eventually([&] { return fx.writes("update", "widgets/status", 200) >= 2u; }));
  BOOST_TEST(fx.reason_is("w6", "Mapped"));
  BOOST_TEST(fx.writes("update", "widgets/status", 200) == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
