// Generated perturbation plans for the Rancher TokenRefresher (ranchertoken,
// issue 18; spawn_monitoring with --rancher-auth-secret, as the operator
// runs it, monitoring_scenario.hpp's backend_scenario) against the emulator
// and the Rancher stand-in on loopback. Its order is the Rancher auth Secret
// (watched alone); its only write is the merge patch of token.next,
// token.state and token.expiresAt after Rancher issued a new token. The
// scenario: the Secret created with a token expiring within a day (renewed:
// token.next is a token Rancher holds, for 365 days); the refresher's keys
// removed by a user (the chart applying the Secret again: renewed again from
// the primary token), and labelled by the user right after (the removal's
// successor; its event may reach the refresher after the answer of its own
// patch, applied on top of it: no second renewal); the Secret deleted. Oracle: the end state equals the
// reference's (the Secret gone; how many tokens Rancher issued: a pass that
// renews again for a token.next it has written is a duplicate generation)
// and so do the operator's successful creates and deletes per resource. A
// restart between Rancher's answer and the patch is no point of these plans
// (they stop the operator after its writes to the API server): the token
// issued there would be lost and another issued, as upstream's.
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI runs.
#include "actors/monitoring/token_refresher.hpp"
#include "sim/monitoring/rancher.hpp"
#include "tests/faults/monitoring_scenario.hpp"

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;
namespace sm = ::c5c3::sim::monitoring;

const std::string operator_ns = "monitoring-operator";
const std::string auth_secret = "ra";
const std::string primary = "token-a:PRIMARYSECRET";

struct tokenrefresher_scenario : faults::backend_scenario {
  std::shared_ptr<sm::rancher_api> rancher_core = std::make_shared<sm::rancher_api>();
  sm::standin_server rancher{"rancher", rancher_core};

  explicit tokenrefresher_scenario(bool start)
      : backend_scenario([](mon::controllers_options& co) { co.flags.rancher_auth_secret = auth_secret; }) {
    rancher.start();
    rancher.with_core([&](sm::standin_core&) {
      sm::rancher_token t;
      t.id = "token-a";
      t.secret = "PRIMARYSECRET";
      t.ttl_ms = std::chrono::milliseconds(std::chrono::hours(23)).count();
      rancher_core->add_token(t);
      return 0;
    });
    create("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + operator_ns + "}\n");
    if (start) start_operator();
  }

  ~tokenrefresher_scenario() {
    stop_operator();  // before Rancher goes
    rancher.stop();
  }

  k8s::object secret() const { return server.get_object("secrets", operator_ns, auth_secret); }
  std::string data(const std::string& key) const {
    auto s = secret();
    return s ? k8s::base64_decode(s.get_string({"data", key})).value_or("") : "";
  }
  int issued() {
    return rancher.with_core([&](sm::standin_core&) { return rancher_core->created_count(); });
  }
  // Whether Rancher holds `token` ("<id>:<secret>") and it lasts more than 300 days.
  bool lasting(const std::string& token) {
    const auto c = token.find(':');
    if (c == std::string::npos) return false;
    return rancher.with_core([&](sm::standin_core&) {
      auto it = rancher_core->tokens().find(token.substr(0, c));
      return it != rancher_core->tokens().end() && it->second.secret == token.substr(c + 1) &&
             it->second.ttl_ms > std::chrono::milliseconds(std::chrono::hours(24 * 300)).count();
    });
  }
  // "" once token.next is a lasting token Rancher issued, with its state and expiry, and `issued` tokens in all.
  std::string not_renewed(int want_issued) {
    std::string out;
    if (!lasting(data("token.next"))) out += "token.next(not a lasting token) ";
    if (data("token.state").empty() || data("token.expiresAt").empty()) out += "token.state or expiresAt(empty) ";
    if (issued() < want_issued) out += fmt::format("rancher(issued {}) ", issued());
    return out;
  }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               create("apiVersion: v1\nkind: Secret\nmetadata: {name: " + auth_secret + ", namespace: " + operator_ns +
                      "}\nstringData:\n  baseURL: " + rancher.url() + "/v3\n  token: " + primary + "\n");
             },
             [this] { return not_renewed(1); }},
            {"change",
             [this] {
               patch(mon::secret_gvk, operator_ns, auth_secret,
                     R"({"data":{"token.next":null,"token.state":null,"token.expiresAt":null}})");
               // A second edit right after (the chart's next apply labels it): the removal's successor, so a
               // plan dropping the removal's event leaves one the refresher sees; its event may reach the
               // refresher after the answer of its own patch, which the API server applied on top of it.
               patch(mon::secret_gvk, operator_ns, auth_secret, R"({"metadata":{"labels":{"applied":"again"}}})");
             },
             [this] { return not_renewed(2); }},
            {"delete", [this] { remove(mon::secret_gvk, operator_ns, auth_secret); },
             [this] { return secret() ? std::string("ra still there ") : ""; }}};
  }

  std::vector<std::string> order_names() const { return {auth_secret, "rancher"}; }

  std::string order_state(const std::string& name) {
    if (name == "rancher") return fmt::format("issued={}", issued());
    return fmt::format("exists={} token={} next lasting={}", static_cast<bool>(secret()), data("token"),
                       lasting(data("token.next")));
  }

  void expect_reference() {
    BOOST_TEST(order_state(auth_secret) == "exists=false token= next lasting=false");
    BOOST_TEST(order_state("rancher") == "issued=2");  // one renewal each time token.next was missing
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_tokenrefresher)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  // The order's one write is its own Secret's patch: no children, no midpass plans. CI runs a crash, a stale
  // view and a dropped event (the user's second edit is the removal's successor, so a dropped removal is an
  // intermediate state the refresher may lose, as a watch does: tests/faults/README.md).
  faults::every_chosen_plan_ends_as_the_reference_run<tokenrefresher_scenario>(3, "secrets", false);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
