// The TokenRefresher as the operator runs it (spawn_monitoring with
// --rancher-auth-secret) against the in-process emulator and the Rancher
// stand-in on loopback (sim/monitoring/rancher.hpp): the token renewed within
// 24 h of its expiry and written back, none while more is left (the timer at
// expiry - 24 h instead), Rancher down then back, a token Rancher refuses.
#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/token_refresher.hpp"
#include "k8s/base64.hpp"
#include "sim/monitoring/rancher.hpp"
#include "tests/monitoring/monitoring_fixture.hpp"
#include "tests/require_eventually.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;
namespace sm = ::c5c3::sim::monitoring;

namespace {

const std::string op_ns = "monitoring-operator";

fixture_options with_secret() {
  auto o = all_crds();
  o.rancher_auth_secret = "ra";
  return o;
}

struct rancher_fixture {
  std::shared_ptr<sm::rancher_api> core = std::make_shared<sm::rancher_api>();
  sm::standin_server rancher{"rancher", core};
  mon_fixture f{with_secret()};

  rancher_fixture() { rancher.start(); }
  ~rancher_fixture() { rancher.stop(); }

  void seed(const std::string& id, const std::string& secret, std::chrono::milliseconds ttl) {
    rancher.with_core([&](sm::standin_core&) {
      sm::rancher_token t;
      t.id = id;
      t.secret = secret;
      t.ttl_ms = ttl.count();
      core->add_token(t);
      return 0;
    });
  }

  void create_secret(const std::string& token) {
    f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + op_ns + "}\n---\n"
             "apiVersion: v1\nkind: Secret\nmetadata: {name: ra, namespace: " + op_ns + "}\nstringData:\n"
             "  baseURL: " + rancher.url() + "/v3\n  token: " + token + "\n");
  }

  std::string data(const std::string& key) const {
    auto s = f.get("secrets", op_ns, "ra");
    return s ? k8s::base64_decode(s.get_string({"data", key})).value_or("") : "";
  }
  int posts() const {
    int n = 0;
    for (const auto& r : rancher.requests()) n += r.method == "POST" && r.path == "/v3/tokens";
    return n;
  }
  protocol::order_probe probe() { return f.probe(token_refresher_controller, op_ns, "ra"); }
  std::string renewal_due() {
    for (const auto& t : probe().timers_due)
      if (t.rfind(renewal_timer + " ", 0) == 0) return t.substr(renewal_timer.size() + 1);
    return {};
  }
  // Whether the renewal timer fires at `at` (armed a second after it; the
  // few seconds of slack are the test's own run time).
  bool timer_at(k8s::time_point at) {
    auto due = k8s::parse_rfc3339(renewal_due());
    return due && *due >= at && *due <= at + std::chrono::seconds(5);
  }
  bool holds(const std::string& token) {
    return rancher.with_core([&](sm::standin_core&) {
      auto c = token.find(':');
      auto it = core->tokens().find(token.substr(0, c));
      return c != std::string::npos && it != core->tokens().end() && it->second.secret == token.substr(c + 1);
    });
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(token_refresher_integration)

BOOST_AUTO_TEST_CASE(a_token_expiring_within_a_day_is_renewed_and_written_to_the_secret) {
  rancher_fixture r;
  r.seed("token-a", "PRIMARYSECRET", std::chrono::hours(23));
  r.create_secret("token-a:PRIMARYSECRET");
  BOOST_TEST_REQUIRE(eventually([&] { return !r.data("token.next").empty(); }));
  const auto next = r.data("token.next");
  BOOST_TEST(r.holds(next), "token.next is the token Rancher issued");
  BOOST_TEST(r.data("token") == "token-a:PRIMARYSECRET", "the primary token is never rewritten");
  auto md = cluster_metadata_of(r.f.get("namespaces", "", "kube-system"), {}, "");
  BOOST_TEST_REQUIRE(md.has_value());
  BOOST_TEST(r.data("token.state") == md->state());
  const auto expires = k8s::parse_rfc3339(r.data("token.expiresAt"));
  BOOST_TEST_REQUIRE(expires.has_value());
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return r.timer_at(*expires - std::chrono::hours(24)); }), r.renewal_due());
  BOOST_TEST(r.posts() == 1);
  // Another Secret beside it is not watched: the touch of `ra` after it
  // (on the same watch, were the watch not of `ra` alone) finds no actor for it.
  r.f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: other, namespace: " + op_ns + "}\nstringData: {a: b}\n");
  // Another pass (the Secret touched) finds token.next, which lasts: no renewal.
  const auto before = r.probe().passes_finished;
  r.f.patch({"", "v1", "Secret"}, op_ns, "ra", R"({"metadata":{"annotations":{"touched":"1"}}})");
  BOOST_TEST_REQUIRE(eventually([&] { return r.probe().passes_finished > before; }));
  BOOST_TEST(r.f.probe(token_refresher_controller, op_ns, "other").passes_started == 0u);
  BOOST_TEST(r.posts() == 1);
  BOOST_TEST(r.data("token.next") == next);
  const std::vector<std::string> secrets{"PRIMARYSECRET", next.substr(next.find(':') + 1)};
  for (const auto& s : secrets) BOOST_TEST(r.probe().last_error.find(s) == std::string::npos);
}

// The Secret's data is what wakes it (a Secret has no generation): the
// refresher's keys removed (the chart applying the Secret again) renew again
// at once, not at the timer a year later. Found by fault_plans_tokenrefresher_test.
BOOST_AUTO_TEST_CASE(the_refreshers_keys_removed_are_renewed_again) {
  rancher_fixture r;
  r.seed("token-a", "PRIMARYSECRET", std::chrono::hours(23));
  r.create_secret("token-a:PRIMARYSECRET");
  BOOST_TEST_REQUIRE(eventually([&] { return !r.data("token.next").empty(); }));
  const auto first = r.data("token.next");
  r.f.patch({"", "v1", "Secret"}, op_ns, "ra", R"({"data":{"token.next":null,"token.state":null,"token.expiresAt":null}})");
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return !r.data("token.next").empty(); }), "not renewed again");
  BOOST_TEST(r.data("token.next") != first);
  BOOST_TEST(r.holds(r.data("token.next")));
  BOOST_TEST(r.posts() == 2);
}

BOOST_AUTO_TEST_CASE(a_token_with_more_than_a_day_left_only_sets_the_timer) {
  rancher_fixture r;
  r.seed("token-a", "PRIMARYSECRET", std::chrono::hours(24 * 30));
  r.create_secret("token-a:PRIMARYSECRET");
  BOOST_TEST_REQUIRE(eventually([&] { return !r.renewal_due().empty(); }));
  const auto created = r.rancher.with_core([&](sm::standin_core&) { return r.core->tokens().at("token-a").created; });
  BOOST_TEST(r.timer_at(created + std::chrono::hours(24 * 29)), r.renewal_due());
  BOOST_TEST(r.posts() == 0);
  BOOST_TEST(r.data("token.next").empty());
}

BOOST_AUTO_TEST_CASE(rancher_down_then_back) {
  rancher_fixture r;
  r.seed("token-a", "PRIMARYSECRET", std::chrono::hours(2));
  r.rancher.stop();  // connection refused; start() binds the same port again
  r.create_secret("token-a:PRIMARYSECRET");
  C5C3_REQUIRE_EVENTUALLY(eventually([&] {
    return r.probe().last_error.find("rancher auth secret monitoring-operator/ra") != std::string::npos;
  }), r.probe().last_error);
  BOOST_TEST(r.probe().last_error.find("PRIMARYSECRET") == std::string::npos);
  BOOST_TEST(r.data("token.next").empty());
  r.rancher.start();
  BOOST_TEST_REQUIRE(eventually([&] { return !r.data("token.next").empty(); }));
  BOOST_TEST(r.holds(r.data("token.next")));
  BOOST_TEST(r.posts() == 1);
}

BOOST_AUTO_TEST_CASE(a_token_rancher_refuses_fails_naming_the_secret_and_nothing_is_written) {
  rancher_fixture r;
  r.create_secret("token-zz:UNKNOWNSECRET");  // Rancher does not know it: 401
  C5C3_REQUIRE_EVENTUALLY(eventually([&] {
    return r.probe().last_error.find("rancher auth secret monitoring-operator/ra: no active rancher token found") !=
           std::string::npos;
  }), r.probe().last_error);
  BOOST_TEST(r.probe().last_error.find("UNKNOWNSECRET") == std::string::npos);
  BOOST_TEST(r.posts() == 0);
  BOOST_TEST(r.data("token.next").empty());
  BOOST_TEST(r.renewal_due().empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
