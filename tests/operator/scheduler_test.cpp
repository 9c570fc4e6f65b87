// The operator's scheduler settings (actors/operator/scheduler.hpp): the
// cgroup CPU limit read from cpu.max and the worker count chosen from it; the
// hand-off policy (handoff_sharing.hpp) in an actor system.
#include "actors/operator/handoff_sharing.hpp"
#include "actors/operator/scheduler.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/scheduler/coordinator.hpp>
#include <caf/scoped_actor.hpp>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

using namespace c5c3::operator_;

BOOST_AUTO_TEST_SUITE(operator_scheduler)

BOOST_AUTO_TEST_CASE(cpu_max_as_cgroup_v2_writes_it) {
  struct row {
    const char* text;
    std::optional<double> cpus;
  };
  const row rows[] = {
      {"max 100000\n", std::nullopt},  // no limit
      {"150000 100000\n", 1.5},
      {"200000 100000", 2.0},
      {"50000 100000\n", 0.5},
      {"", std::nullopt},
      {"garbage", std::nullopt},
      {"0 100000", std::nullopt},
      {"100000 0", std::nullopt},
      {"12x 100000", std::nullopt},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT("cpu.max \"" << r.text << "\"") {
      auto got = parse_cpu_max(r.text);
      BOOST_TEST(got.has_value() == r.cpus.has_value());
      if (got && r.cpus) BOOST_TEST(*got == *r.cpus);
    }
  }
}

BOOST_AUTO_TEST_CASE(worker_count_from_the_flag_or_the_cores) {
  BOOST_TEST(worker_threads(0, 1) == 2u);  // never fewer than 2
  BOOST_TEST(worker_threads(0, 2) == 2u);
  BOOST_TEST(worker_threads(0, 16) == 16u);
  BOOST_TEST(worker_threads(1, 16) == 1u);  // the flag wins
  BOOST_TEST(worker_threads(6, 2) == 6u);
  BOOST_TEST(usable_cores() >= 1u);
}

namespace {

using namespace std::chrono_literals;
using hop_atom = caf::atom_constant<caf::atom("hop")>;

// Passes a count to `peer` until it reaches zero or `stop` is set, then
// tells `done`.
caf::behavior relay(caf::event_based_actor* self, std::shared_ptr<std::atomic<bool>> stop, caf::actor done) {
  return {
      [=](hop_atom, int left, const caf::actor& peer) {
        if (left == 0 || *stop) return self->send(done, hop_atom::value, left, peer);
        self->send(peer, hop_atom::value, left - 1, caf::actor_cast<caf::actor>(self));
      },
  };
}

// Answers x + 1 and sets `stop`. (A function with an argument: CAF 0.17
// spawns an actor of a function without arguments by binding a reference to
// an empty tuple's null pointer, which UBSan stops on.)
caf::behavior stopper(caf::event_based_actor*, std::shared_ptr<std::atomic<bool>> stop) {
  return {[stop](int x) {
    *stop = true;
    return x + 1;
  }};
}

// An actor system on the operator's scheduler, or on `Policy`.
struct policy_system {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  explicit policy_system(std::size_t workers) {
    use_handoff_sharing(cfg, workers);
    sys = std::make_unique<caf::actor_system>(cfg);
  }
  template <class Policy>
  policy_system(std::size_t workers, Policy*) {
    cfg.set("scheduler.max-threads", workers);
    cfg.load<caf::scheduler::coordinator<Policy>>();
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

// No job counts as long (an hour): only the streak bound serves the queue.
using no_long_jobs = basic_handoff_sharing<handoff_sharing::max_streak, 3'600'000'000>;

// Runs a chain of `hops` messages between two actors of `ps`; the jobs taken
// from a worker's slot meanwhile.
std::uint64_t chain_handoffs(policy_system& ps, int hops) {
  caf::scoped_actor self{*ps.sys};
  auto stop = std::make_shared<std::atomic<bool>>(false);
  auto a = ps.sys->spawn(relay, stop, caf::actor{self});
  auto b = ps.sys->spawn(relay, stop, caf::actor{self});
  const auto before = handoff_sharing::handoffs();
  self->send(a, hop_atom::value, hops, b);
  bool finished = false;
  self->receive([&](hop_atom, int left, const caf::actor&) { finished = left == 0; },
                caf::after(30s) >> [] {});
  BOOST_TEST_REQUIRE(finished);
  const auto n = handoff_sharing::handoffs() - before;
  self->send_exit(a, caf::exit_reason::user_shutdown);
  self->send_exit(b, caf::exit_reason::user_shutdown);
  return n;
}

}  // namespace

// A chain of messages between two actors stays on the worker that sent each
// link: taken from its slot, not from the shared queue where the other worker
// would be woken for it. Every hop but one in max_streak + 1 (handed to the
// shared queue so the rest are served) comes from the slot, less a margin
// (the long-job bound, which a preempted job may meet, taken away).
BOOST_AUTO_TEST_CASE(a_chain_of_messages_runs_on_the_sending_worker) {
  policy_system ps(2, static_cast<no_long_jobs*>(nullptr));
  constexpr int hops = 4000;
  constexpr auto streak = handoff_sharing::max_streak;
  BOOST_TEST(chain_handoffs(ps, hops) >= static_cast<std::uint64_t>(hops * streak / (streak + 1) * 95 / 100));
}

// The operator's configuration installs the policy.
BOOST_AUTO_TEST_CASE(the_operator_scheduler_hands_off) {
  policy_system ps(2);
  BOOST_TEST(chain_handoffs(ps, 200) > 0u);
}

// With one worker, two actors messaging each other without end do not starve
// a third: the worker serves the shared queue every max_streak jobs (the
// long-job bound, which a preempted job may meet, is taken away).
BOOST_AUTO_TEST_CASE(two_actors_messaging_each_other_starve_no_one) {
  policy_system ps(1, static_cast<no_long_jobs*>(nullptr));
  caf::scoped_actor self{*ps.sys};
  auto stop = std::make_shared<std::atomic<bool>>(false);
  auto a = ps.sys->spawn(relay, stop, caf::actor{self});
  auto b = ps.sys->spawn(relay, stop, caf::actor{self});
  self->send(a, hop_atom::value, -1, b);  // never reaches zero
  auto third = ps.sys->spawn(stopper, stop);
  bool answered = false;
  self->request(third, 30s, 41).receive([&](int x) { answered = x == 42; }, [](caf::error&) {});
  BOOST_TEST(answered);
  bool ended = false;
  self->receive([&](hop_atom, int, const caf::actor&) { ended = true; }, caf::after(30s) >> [] {});
  BOOST_TEST(ended);
  for (const auto& x : {a, b, third}) self->send_exit(x, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_SUITE_END()
