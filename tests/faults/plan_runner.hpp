// The generated perturbation plans run against one order kind's scenario
// (issue 18): a fault-free reference run, the plans generated from its
// write and watch logs (plans.hpp), and each chosen plan run from scratch.
// Oracle: the end state (each order's state as the kind's scenario
// describes it) and the operator's successful creates and deletes per
// resource equal the reference's.
//
// A scenario `S` is a fixture with the emulator `server`, the operator's
// `operator_requests`, and:
//   S(false)                     the emulator, world and prerequisites, no operator
//   std::string add(fault_rule)  a rule on the operator's requests only
//   void start_operator(), stop_operator()
//   std::vector<scenario_step> steps()
//                                what the scenario writes once the operator
//                                runs, step by step (create, change, rotate,
//                                delete), each with what is still to happen
//                                before the next step; or, for a one-step
//                                scenario, void begin() and
//                                std::string not_ready() ("" once every order is Ready)
//   std::vector<std::string> order_names()
//   std::string order_state(name)  what the oracle compares of one order
//   void expect_reference()      the oracle of a fault-free run, by assertions
//   std::string credentials_refused()   (optional) what of the credentials
//                                delivered so far is refused now ("" none);
//                                asked at every poll while the run waits, so a
//                                credential must authenticate during the plan,
//                                not only at its end
//
// C5C3_FAULT_PLANS picks the plans: a number (a sample spread over every
// kind; `default_sample` when unset, what CI runs), `all`, a kind (`crash`,
// `midpass`, `stale`, `drop`, `expire`: every plan of it), or a plan's name
// (its seed, as a failure reports it:
// C5C3_FAULT_PLANS='crash@create:secrets:openstack/o0-password-v1#1'; or
// crash@7, the plan of that kind at the reference run's 7th write).
#pragma once

#include "tests/faults/plans.hpp"
#include "tests/rabbitmqvhost_actor/emulator_fixture.hpp"
#include "tests/require_eventually.hpp"

#include <boost/test/execution_monitor.hpp>
#include <boost/test/unit_test.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace c5c3::testing::faults {

// How long a step may take to converge (C5C3_PLAN_CONVERGE_SECONDS for large runs).
inline const int plan_converge_seconds = [] {
  const char* env = std::getenv("C5C3_PLAN_CONVERGE_SECONDS");
  return env && *env ? std::atoi(env) : 240;
}();

// C5C3_FAULT_PLANS_SECONDS: once the run has taken that long, no further plan
// starts; the log counts those not run. For a run under a harness's time limit
// (ctest's TIMEOUT, C5C3_FAULT_PLANS_TIMEOUT at configure time): it ends with
// its figures instead of being killed. Unset or 0: no limit.
inline const int plans_budget_seconds = [] {
  const char* env = std::getenv("C5C3_FAULT_PLANS_SECONDS");
  return env && *env ? std::atoi(env) : 0;
}();

// What the oracle compares.
struct outcome {
  std::map<std::string, int> writes;  // "create users.rabbitmq.com" -> count (operator's, successful)
  std::map<std::string, std::string> orders;
  // Those creates and deletes in order, with their objects: not compared,
  // printed when a plan's outcome differs (which object the count missed).
  std::vector<std::string> log;
  friend bool operator==(const outcome& a, const outcome& b) { return a.writes == b.writes && a.orders == b.orders; }
};

inline std::string describe(const outcome& o) {
  std::string out;
  for (auto& [k, n] : o.writes) out += fmt::format("{}={} ", k, n);
  for (auto& [k, s] : o.orders) out += fmt::format("| {}: {} ", k, s);
  return out;
}

// One step of a scenario: what the test writes, and what is still to
// happen before the next step ("" once it has: every order Ready, a changed
// order's new generation observed, a deleted order gone).
struct scenario_step {
  std::string name;
  std::function<void()> act;
  std::function<std::string()> pending;
};

template <class S>
struct plan_run : S {
  plan_run() : S(false) {}

  std::uint64_t fired(const std::vector<std::string>& ids) const {
    std::uint64_t n = 0;
    auto c = this->server.fault_counts();
    for (auto& id : ids) n += c.by_rule[id];
    return n;
  }

  int writes_so_far() const { return static_cast<int>(operator_writes(this->server.write_log(), operator_user).size()); }

  // No operator request for half a second.
  bool settled() { return no_requests_for(*this->operator_requests, 500ms); }

  // The first refusal of a delivered credential seen while the run waited
  // (`credentials_refused()`), with the step it was seen in.
  std::string refused;
  std::string current_step;
  void watch_credentials() {
    if constexpr (requires(S& s) { s.credentials_refused(); }) {
      if (!refused.empty()) return;
      if (auto r = this->credentials_refused(); !r.empty()) refused = current_step + ": " + r;
    }
  }
  // `eventually` over `done`, asking the credentials at each poll.
  template <class F>
  bool eventually_watching(F&& done, int seconds) {
    return eventually(
        [&] {
          watch_credentials();
          return done();
        },
        seconds);
  }

  std::vector<scenario_step> scenario_steps() {
    if constexpr (requires(S& s) { s.steps(); })
      return this->steps();
    else
      return {{"create", [this] { this->begin(); }, [this] { return this->not_ready(); }}};
  }

  outcome observe() {
    outcome o;
    for (auto& w : operator_writes(this->server.write_log(), operator_user))
      if (w.verb == "create" || w.verb == "delete") {
        ++o.writes[w.verb + " " + qualified_resource(w.group, w.resource)];
        o.log.push_back(fmt::format("{} {} {}/{}", w.verb, qualified_resource(w.group, w.resource), w.namespace_, w.name));
      }
    for (auto& name : this->order_names()) o.orders[name] = this->order_state(name);
    return o;
  }

  // Once the rules of a crash or a stale view fired: the crash stops the
  // operator, removes them and starts it again with empty caches; the
  // stale view is held until the operator made a few more writes on it, or
  // went quiet waiting for the held events, then released.
  void perturb(const plan& p, const std::vector<std::string>& ids) {
    if (p.restart) {
      this->stop_operator();
      for (auto& id : ids) this->server.remove_fault(id);
      this->start_operator();
      return;
    }
    const int until = writes_so_far() + p.release_after_writes;
    eventually_watching([&] { return writes_so_far() >= until || settled(); }, 20);
    for (auto& id : ids) this->server.remove_fault(id);
  }

  // The scenario, step by step, perturbed by `p` when given. Returns whether
  // the plan's rules fired (a point the run never reached does not).
  bool run(const plan* p) {
    std::vector<std::string> ids;
    if (p)
      for (auto r : p->rules) ids.push_back(this->add(std::move(r)));
    this->start_operator();
    bool awaiting = p && (p->restart || p->kind == plan_kind::stale_view);
    bool reached = false;
    auto steps = scenario_steps();
    for (auto& step : steps) {
      current_step = step.name;
      step.act();
      if (awaiting) {
        C5C3_REQUIRE_EVENTUALLY(
            eventually_watching([&] { return fired(ids) > 0 || (step.pending().empty() && settled()); },
                                plan_converge_seconds),
            step.name << ": " << step.pending());
        if (fired(ids) > 0) {
          reached = true;
          awaiting = false;
          perturb(*p, ids);
        }
      }
      C5C3_REQUIRE_EVENTUALLY(eventually_watching([&] { return step.pending().empty(); }, plan_converge_seconds),
                              step.name << ": " << step.pending());
      BOOST_TEST_REQUIRE(eventually_watching([&] { return settled(); }, 60));
    }
    if (awaiting) {
      // Never reached: a crash restarts the converged run all the same.
      perturb(*p, ids);
      C5C3_REQUIRE_EVENTUALLY(
          eventually_watching([&] { return steps.back().pending().empty(); }, plan_converge_seconds),
          steps.back().name << ": " << steps.back().pending());
      BOOST_TEST_REQUIRE(eventually_watching([&] { return settled(); }, 60));
    }
    watch_credentials();
    if (p && !p->restart && p->kind != plan_kind::stale_view) reached = fired(ids) > 0;
    return reached;
  }
};

inline std::vector<plan> chosen_plans(const std::vector<plan>& plans, std::size_t default_sample,
                                      std::size_t rotation = 0) {
  const char* env = std::getenv("C5C3_FAULT_PLANS");
  std::string want = env && *env ? env : std::to_string(default_sample);
  if (want == "all") return plans;
  std::vector<plan> of_kind;
  for (const auto& p : plans)
    if (want == kind_name(p.kind)) of_kind.push_back(p);
  if (!of_kind.empty()) return of_kind;
  if (want.find_first_not_of("0123456789") == std::string::npos) return sample_plans(plans, std::stoul(want), rotation);
  auto p = find_plan(plans, want);
  BOOST_TEST_REQUIRE(p.has_value(), "no plan " << want << " in this reference run");
  return {*p};
}

// The whole test: the reference run, the plans generated from it (every
// kind of plan at least one; no midpass plan where the orders have no
// children: a pass then writes nothing but its order), each chosen plan run
// and compared; the log says plans generated per kind, run, failed (with
// their seeds) and not reached.
template <class S>
void every_chosen_plan_ends_as_the_reference_run(std::size_t default_sample, const std::string& order_resource,
                                                 bool orders_have_children = true) {
  outcome ref;
  std::vector<plan> plans;
  {
    plan_run<S> f;
    f.run(nullptr);
    BOOST_TEST_REQUIRE(f.refused.empty(), "a delivered credential was refused in the reference run: " << f.refused);
    f.expect_reference();
    ref = f.observe();
    plans = generate_plans(f.server.write_log(), f.server.watch_log(), {operator_user, operator_token, 2, 2, order_resource});
  }
  std::map<std::string, int> generated;
  for (auto& p : plans) ++generated[kind_name(p.kind)];
  BOOST_TEST_MESSAGE("reference: " << describe(ref));
  BOOST_TEST_MESSAGE(fmt::format("plans generated: {} (crash {}, midpass {}, stale {}, drop {}, expire {})",
                                 plans.size(), generated["crash"], generated["midpass"], generated["stale"],
                                 generated["drop"], generated["expire"]));
  for (auto k : {"crash", "midpass", "stale", "drop", "expire"})
    if (orders_have_children || std::string_view(k) != "midpass") BOOST_TEST(generated[k] > 0, "no " << k << " plan");

  int run = 0, failed = 0, unreached = 0, unrun = 0;
  std::string failures;
  const auto began = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(); };
  for (const auto& p : chosen_plans(plans, default_sample, sample_rotation(order_resource))) {
    if (plans_budget_seconds > 0 && seconds() >= plans_budget_seconds) {
      ++unrun;
      continue;
    }
    BOOST_TEST_CONTEXT("plan " << p.name << " (" << p.about << "; rerun: C5C3_FAULT_PLANS=" << p.name << ")") {
      ++run;
      try {
        plan_run<S> f;
        bool reached = f.run(&p);
        auto got = f.observe();
        unreached += !reached;
        BOOST_TEST_MESSAGE(p.name << " (" << kind_name(p.kind) << "@" << p.point << ")"
                                  << (reached ? "" : " (its point was not reached)") << ": "
                                  << describe(got));
        BOOST_TEST(describe(got) == describe(ref));
        BOOST_TEST(f.refused.empty(), "a delivered credential was refused during the plan: " << f.refused);
        if (got != ref || !f.refused.empty()) {
          ++failed;
          failures += p.name + " ";
          std::string both = "creates and deletes, reference run:";
          for (const auto& l : ref.log) both += "\n  " + l;
          both += "\nthis plan:";
          for (const auto& l : got.log) both += "\n  " + l;
          BOOST_TEST_MESSAGE(both);
        }
      } catch (const boost::execution_aborted&) {
        // A failed requirement of this plan (already reported): the next plan runs.
        ++failed;
        failures += p.name + " ";
      }
    }
  }
  BOOST_TEST_MESSAGE(fmt::format("plans run: {}, failed: {} {}, not reached: {}, not run (C5C3_FAULT_PLANS_SECONDS): {}, "
                                 "{:.0f} s after the reference run",
                                 run, failed, failures, unreached, unrun, seconds()));
  BOOST_TEST(run > 0);
}

}  // namespace c5c3::testing::faults
