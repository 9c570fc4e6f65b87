// The TokenRefresher's order actor on the runner under CAF's test coordinator
// (virtual time), against the fake cluster (tests/rabbitmqvhost_actor) and
// the Rancher stand-in's core (sim/monitoring/rancher.hpp) answering the
// runner's service requests in process. The actor's wall clock and the
// stand-in's clock both start at `base` and move together with advance():
// no renewal while more than 24 h are left; the renewal when its timer
// fires at expiry - 24 h; Rancher down, then back; a token Rancher refuses.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/token_refresher.hpp"
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/runner/runner.hpp"
#include "k8s/base64.hpp"
#include "sim/monitoring/rancher.hpp"
#include "tests/rabbitmqvhost_actor/fake_world.hpp"
#include "tests/runtime/coordinator_fixture.hpp"

#include <algorithm>

namespace c5c3::testing {
namespace {

using namespace std::chrono_literals;
namespace mon = ::c5c3::monitoring;
namespace sm = ::c5c3::sim::monitoring;

const std::string ns = "monitoring-operator";
const std::string rancher_base = "http://rancher.test";

struct rancher_side {
  sm::rancher_api api;
  bool down = false;
  std::vector<std::string> calls;  // "POST /v3/tokens", ...
  int posts() const { return static_cast<int>(std::count(calls.begin(), calls.end(), "POST /v3/tokens")); }
};

// The runner's "rancher" service: each request handled by the stand-in's core.
caf::behavior fake_rancher(caf::event_based_actor*, std::shared_ptr<rancher_side> r) {
  return {[r](const protocol::service_request& req) -> caf::result<protocol::service_response> {
    BOOST_REQUIRE(req.url.rfind(rancher_base, 0) == 0);
    k8s::http_request h;
    h.method = req.method;
    h.path = h.target = req.url.substr(rancher_base.size());
    h.headers = {{"Authorization", req.authorization}, {"Content-Type", req.content_type}};
    h.body = req.body;
    r->calls.push_back(h.method + " " + h.path);
    if (r->down) return protocol::make_error(protocol::api_errc::transport, req.method + " " + req.url + ": connection refused");
    auto res = r->api.handle(h, rancher_base);
    return protocol::service_response{res.status, res.body, std::nullopt};
  }};
}

struct refresher_fixture : coordinator_fixture {
  std::shared_ptr<fake_store> store = std::make_shared<fake_store>();
  std::shared_ptr<rancher_side> rancher = std::make_shared<rancher_side>();
  caf::actor cluster, directory, service, actor;
  const k8s::time_point base = k8s::clock::now();
  caf::actor_clock::time_point origin;

  refresher_fixture() {
    store->order_kind = "Secret";
    fake_store_put(*store, test::parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-system"}})"),
                   false);
    cluster = keep(sys.spawn(fake_cluster, store));
    directory = keep(sys.spawn(fake_directory, cluster));
    service = keep(sys.spawn(fake_rancher, rancher));
    origin = now();
  }

  // Token `token-a` expiring `left` after base, created at base.
  void seed(std::chrono::milliseconds left) {
    sm::rancher_token t;
    t.id = "token-a";
    t.secret = "PRIMARYSECRET";
    t.ttl_ms = left.count();
    t.created = base;
    rancher->api.add_token(t);
  }

  void start() {
    k8s::object_builder b{"v1", "Secret", ns, "ra"};
    b.set_string({"data", "baseURL"}, k8s::base64_encode(rancher_base + "/v3"));
    b.set_string({"data", "token"}, k8s::base64_encode("token-a:PRIMARYSECRET"));
    auto secret = fake_store_put(*store, std::move(b).freeze(), false);
    runtime::runner_deps deps;
    deps.clusters = directory;
    deps.services = {{mon::rancher_service, service}};
    runtime::order_actor_config cfg;
    cfg.key = {"", ns, "ra"};
    cfg.pass = runtime::make_runner_pass(mon::token_refresher_declaration({"ra", ns, "", 5s}), deps);
    cfg.options.wall_clock = [b0 = base, o = origin](caf::actor_clock::time_point t) {
      return b0 + std::chrono::duration_cast<std::chrono::system_clock::duration>(t - o);
    };
    actor = keep(runtime::spawn_order_actor(sys, std::move(cfg)));
    store->order_actor = actor;
    self->send(actor, protocol::order_update{secret, true});
    run();
  }

  // Both clocks.
  void move(caf::timespan d) {
    rancher->api.advance(std::chrono::duration_cast<std::chrono::milliseconds>(d));
    advance(d);
  }

  const k8s::object& secret() const { return *store->get("Secret", ns, "ra"); }
  std::string data(std::string_view key) const {
    return k8s::base64_decode(secret().get_string({"data", key})).value_or("");
  }
  protocol::order_probe probe() { return probe_order(actor); }
  // When the renewal timer fires, as the probe shows it ("" unarmed): the
  // runner arms a timer a second after its time.
  std::string renewal_due() {
    for (const auto& t : probe().timers_due)
      if (t.rfind(mon::renewal_timer + " ", 0) == 0) return t.substr(mon::renewal_timer.size() + 1);
    return {};
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(token_refresher_actor)

BOOST_FIXTURE_TEST_CASE(no_renewal_before_the_timer_then_the_renewal_at_expiry_minus_24h, refresher_fixture) {
  seed(24h + 10min);
  start();
  BOOST_TEST_CONTEXT("more than 24 h left: looked up, not renewed, the timer at expiry - 24 h") {
    BOOST_TEST(rancher->calls == std::vector<std::string>{"GET /v3/tokens/token-a"});
    BOOST_TEST(rancher->posts() == 0);
    BOOST_TEST(data("token.next").empty());
    BOOST_TEST(renewal_due() == k8s::format_rfc3339(base + 10min + 1s));
    BOOST_TEST(probe().failures == 0u);
  }
  const auto passes = probe().passes_finished;
  move(9min);
  BOOST_TEST_CONTEXT("before the timer: no pass, no renewal") {
    BOOST_TEST(probe().passes_finished == passes);
    BOOST_TEST(rancher->posts() == 0);
  }
  move(1min + 2s);
  BOOST_TEST_CONTEXT("the timer fired at the boundary: renewed and written") {
    BOOST_TEST(probe().passes_finished == passes + 1);
    BOOST_TEST(rancher->posts() == 1);
    const auto next = data("token.next");
    BOOST_TEST_REQUIRE(next.find(':') != std::string::npos);
    const auto id = next.substr(0, next.find(':'));
    BOOST_TEST_REQUIRE(rancher->api.tokens().count(id) == 1u);
    BOOST_TEST(rancher->api.tokens().at(id).secret == next.substr(next.find(':') + 1));
    BOOST_TEST(data("token") == "token-a:PRIMARYSECRET");
    BOOST_TEST(!data("token.state").empty());
    const auto expires = k8s::parse_rfc3339(data("token.expiresAt"));
    BOOST_TEST_REQUIRE(expires.has_value());
    BOOST_TEST(renewal_due() == k8s::format_rfc3339(*expires - 24h + 1s));
    BOOST_TEST((*expires - base > 8750h));
  }
  move(1h);
  BOOST_TEST_CONTEXT("the renewed token counts from now on: nothing renews again") {
    BOOST_TEST(rancher->posts() == 1);
  }
}

BOOST_FIXTURE_TEST_CASE(rancher_down_then_back, refresher_fixture) {
  seed(2h);
  rancher->down = true;
  start();
  BOOST_TEST(probe().failures >= 1u);
  BOOST_TEST(probe().last_error.find("rancher auth secret monitoring-operator/ra") != std::string::npos,
             probe().last_error);
  BOOST_TEST(probe().last_error.find("PRIMARYSECRET") == std::string::npos);
  BOOST_TEST(data("token.next").empty());
  move(2s);
  BOOST_TEST(data("token.next").empty(), "still down: nothing written");
  rancher->down = false;
  move(5s);  // the backoff (5 ms doubling) has come round
  BOOST_TEST(rancher->posts() == 1);
  BOOST_TEST(!data("token.next").empty());
  BOOST_TEST(probe().failures == 0u);
  BOOST_TEST(!renewal_due().empty());
}

BOOST_FIXTURE_TEST_CASE(a_token_rancher_refuses_fails_the_pass_naming_the_secret, refresher_fixture) {
  seed(10min);
  move(11min);  // expired at Rancher: 401 must authenticate
  start();
  const auto p = probe();
  BOOST_TEST(p.failures >= 1u);
  BOOST_TEST(p.last_error.find("rancher auth secret monitoring-operator/ra: no active rancher token found") !=
                 std::string::npos,
             p.last_error);
  BOOST_TEST(p.last_error.find("PRIMARYSECRET") == std::string::npos);
  BOOST_TEST(rancher->posts() == 0);
  BOOST_TEST(data("token.next").empty());
  BOOST_TEST(renewal_due().empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
