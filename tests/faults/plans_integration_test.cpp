// Generated perturbation plans for the RabbitMQVhost order (issue 18): a
// fault-free reference run (two orders created, converged), the plans
// generated from its write and watch logs (tests/faults/plans.hpp), and
// each plan run from scratch against the same scenario. Oracle: the end
// state equals the reference's (every order Ready with one child of each
// kind, one password Secret, the delivered Secret complete, its vhost on
// the broker, its credential accepted by the broker) and so do the
// operator's successful creates and deletes per kind (no duplicate
// generation, no orphan, no lost credential).
//
// C5C3_FAULT_PLANS picks the plans: a number (a sample spread over every
// kind; 8 by default, what CI runs), `all`, or a plan's name (its seed, as
// a failure reports it: C5C3_FAULT_PLANS=crash@7).
#include "tests/faults/plans.hpp"
#include "tests/rabbitmqvhost_faults/fault_fixture.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace c5c3::testing {
namespace {

namespace fp = faults;

constexpr int plan_orders = 2;

// What the oracle compares.
struct outcome {
  std::map<std::string, int> writes;  // "create users.rabbitmq.com" -> count (operator's, successful)
  std::map<std::string, std::string> orders;
  friend bool operator==(const outcome&, const outcome&) = default;
};

std::string describe(const outcome& o) {
  std::string out;
  for (auto& [k, n] : o.writes) out += fmt::format("{}={} ", k, n);
  for (auto& [k, s] : o.orders) out += fmt::format("| {}: {} ", k, s);
  return out;
}

struct plan_fixture : fault_fixture {
  plan_fixture() : fault_fixture(false) { count = plan_orders; }

  std::uint64_t fired(const std::vector<std::string>& ids) const {
    std::uint64_t n = 0;
    auto c = server.fault_counts();
    for (auto& id : ids) n += c.by_rule[id];
    return n;
  }

  int writes_so_far() const { return static_cast<int>(fp::operator_writes(server.write_log(), operator_user).size()); }

  // No operator request for half a second.
  bool settled() {
    auto before = operator_requests->requests_total();
    std::this_thread::sleep_for(500ms);
    return operator_requests->requests_total() == before;
  }

  std::string order_state(const std::string& name) const {
    auto d = delivered(name);
    std::string auth = "no";
    if (auto u = world->broker->user(d["username"]); u && !d["password"].empty())
      auth = u->password == d["password"] ? "yes" : "wrong password";
    std::string kids;
    for (auto res : {"vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
                     "pushsecrets.external-secrets.io"})
      kids += std::to_string(children(res, name));
    return fmt::format("ready={} children={} passwords={} delivered={} vhost={} authenticates={}", ready(name), kids,
                       password_secrets(name).size(), d.size(), world->broker->vhosts().count(d["vhost"]), auth);
  }

  outcome observe() const {
    outcome o;
    for (auto& w : fp::operator_writes(server.write_log(), operator_user))
      if (w.verb == "create" || w.verb == "delete") ++o.writes[w.verb + " " + fp::qualified_resource(w.group, w.resource)];
    for (int i = 0; i < count; ++i) o.orders[order_name(i)] = order_state(order_name(i));
    return o;
  }

  // The scenario, perturbed by `p` when given. Returns whether the plan's
  // rules fired (a point the run never reached does not).
  bool run(const fp::plan* p) {
    std::vector<std::string> ids;
    if (p)
      for (auto r : p->rules) ids.push_back(add(std::move(r)));
    start_operator();
    prepare();
    create_orders("Retain");
    bool reached = true;
    if (p && p->restart) {
      // The crash: every request after the Nth write is reset; once one
      // was (or the run converged without another), the operator stops
      // and starts again with empty caches.
      BOOST_TEST_REQUIRE(eventually([&] { return fired(ids) > 0 || (all_ready() && settled()); }, converge_seconds));
      reached = fired(ids) > 0;
      stop_operator();
      for (auto& id : ids) server.remove_fault(id);
      start_operator();
    } else if (p && p->kind == fp::plan_kind::stale_view) {
      BOOST_TEST_REQUIRE(eventually([&] { return fired(ids) > 0 || (all_ready() && settled()); }, converge_seconds));
      reached = fired(ids) > 0;
      // Held until the operator made a few more writes on its stale view,
      // or went quiet waiting for the held events.
      const int until = p->point + p->release_after_writes;
      eventually([&] { return writes_so_far() >= until || settled(); }, 20);
      for (auto& id : ids) server.remove_fault(id);
    }
    wait_ready();
    BOOST_TEST_REQUIRE(eventually([&] { return settled(); }));
    if (p && !p->restart && p->kind != fp::plan_kind::stale_view) reached = fired(ids) > 0;
    return reached;
  }
};

struct reference {
  outcome end;
  std::vector<fp::plan> plans;
};

reference reference_run() {
  plan_fixture f;
  f.run(nullptr);
  f.expect_converged_children();
  reference r{f.observe(), fp::generate_plans(f.server.write_log(), f.server.watch_log(),
                                                 {operator_user, operator_token, 2, 2})};
  return r;
}

std::vector<fp::plan> chosen(const std::vector<fp::plan>& plans) {
  const char* env = std::getenv("C5C3_FAULT_PLANS");
  std::string want = env && *env ? env : "8";
  if (want == "all") return plans;
  if (want.find_first_not_of("0123456789") == std::string::npos) return fp::sample_plans(plans, std::stoul(want));
  auto p = fp::find_plan(plans, want);
  BOOST_TEST_REQUIRE(p.has_value(), "no plan " << want << " in this reference run");
  return {*p};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_rabbitmqvhost)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  auto ref = reference_run();
  std::map<std::string, int> generated;
  for (auto& p : ref.plans) ++generated[fp::kind_name(p.kind)];
  BOOST_TEST_MESSAGE("reference: " << describe(ref.end));
  BOOST_TEST_MESSAGE(fmt::format("plans generated: {} (crash {}, stale {}, drop {}, expire {})", ref.plans.size(),
                                 generated["crash"], generated["stale"], generated["drop"], generated["expire"]));
  for (auto k : {"crash", "stale", "drop", "expire"}) BOOST_TEST(generated[k] > 0, "no " << k << " plan");

  int run = 0, failed = 0, unreached = 0;
  std::string failures;
  for (const auto& p : chosen(ref.plans)) {
    BOOST_TEST_CONTEXT("plan " << p.name << " (" << p.about << "; rerun: C5C3_FAULT_PLANS=" << p.name << ")") {
      plan_fixture f;
      bool reached = f.run(&p);
      auto got = f.observe();
      ++run;
      unreached += !reached;
      BOOST_TEST_MESSAGE(p.name << (reached ? "" : " (its point was not reached)") << ": " << describe(got));
      BOOST_TEST(describe(got) == describe(ref.end));
      if (got != ref.end) {
        ++failed;
        failures += p.name + " ";
      }
    }
  }
  BOOST_TEST_MESSAGE(fmt::format("plans run: {}, failed: {} {}, not reached: {}", run, failed, failures, unreached));
  BOOST_TEST(run > 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
