// The order actor base under the test coordinator: coalescing, backoff,
// timers, deadlines, retiring, and the metrics it feeds.
#include "coordinator_fixture.hpp"

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/named_timers.hpp"
#include "actors/runtime/order_actor.hpp"

#include <stdexcept>

using namespace c5c3;
using namespace c5c3::runtime;
using namespace c5c3::testing;
using namespace std::chrono_literals;
using protocol::order_key;
using protocol::order_phase;

namespace {

const order_key key{"", "tenant-a", "alice"};

k8s::object order_at(const char* rv) {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", "alice"};
  b.set_resource_version(rv);
  return std::move(b).freeze();
}

struct order_fixture : registry_holder, coordinator_fixture {
  std::shared_ptr<pass_log> log = std::make_shared<pass_log>();
  caf::actor gate = keep(sys.spawn(gate_actor, "gate"));

  caf::actor spawn(pass_fn pass, order_actor_options options = {},
                   std::shared_ptr<controller_metrics> m = nullptr) {
    order_actor_config oc;
    oc.key = key;
    oc.pass = std::move(pass);
    oc.metrics = std::move(m);
    oc.options = options;
    return keep(spawn_order_actor(sys, std::move(oc)));
  }

  bool release(pass_result r) {
    return ask<bool>(gate, free_atom::value, order_key{}, std::move(r));
  }

  std::uint32_t held() { return ask<std::uint32_t>(gate, count_atom::value); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(order_actor_base)

BOOST_FIXTURE_TEST_CASE(wakeups_during_a_pass_coalesce_into_exactly_one_more, order_fixture) {
  auto a = spawn(gated_pass(gate, log));
  run();
  BOOST_TEST(log->started == 0);  // nothing happens before a wake-up
  caf::anon_send(a, protocol::order_update{order_at("1"), true});
  run();
  BOOST_TEST(log->started == 1);
  BOOST_TEST(log->orders.back().resource_version() == "1");
  // Seven wake-ups of every kind while the pass is in flight.
  for (int i = 0; i < 5; ++i) caf::anon_send(a, protocol::wake_atom::value);
  caf::anon_send(a, protocol::order_update{order_at("2"), true});
  caf::anon_send(a, protocol::order_update{order_at("3"), false});  // newer, filtered
  run();
  BOOST_TEST(log->started == 1);
  auto p = probe_order(a);
  BOOST_TEST(p.phase == static_cast<std::uint8_t>(order_phase::running));
  BOOST_TEST(p.wake_pending);
  BOOST_TEST(release(pass_result::converged()));
  BOOST_TEST(log->started == 2);  // exactly one more
  BOOST_TEST(log->orders.back().resource_version() == "3");  // and it sees the newest order
  BOOST_TEST(!probe_order(a).wake_pending);
  BOOST_TEST(release(pass_result::converged()));
  BOOST_TEST(log->started == 2);
  BOOST_TEST(log->finished == 2);
  advance(1h);  // no timer armed (the stale pass deadlines are ignored)
  BOOST_TEST(log->started == 2);
  p = probe_order(a);
  BOOST_TEST(p.phase == static_cast<std::uint8_t>(order_phase::idle));
  BOOST_TEST(p.passes_finished == 2u);
  BOOST_TEST(p.armed_timers.empty());
}

BOOST_FIXTURE_TEST_CASE(errors_back_off_doubling_and_success_resets, order_fixture) {
  // Passes 1-4 fail, 5 succeeds, 6 fails, 7 succeeds.
  auto a = spawn(scripted_pass(log, [](int n) {
    return n == 5 || n == 7 ? pass_result::converged() : pass_result::failed("pass " + std::to_string(n));
  }));
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->started == 1);
  struct step {
    caf::timespan wait;  // the backoff after the previous failure
    std::uint32_t failures_before;
  };
  const step steps[] = {{5ms, 1}, {10ms, 2}, {20ms, 3}, {40ms, 4}};
  int expected = 1;
  for (const auto& s : steps) {
    auto p = probe_order(a);
    BOOST_TEST(p.failures == s.failures_before);
    BOOST_TEST((p.armed_timers == std::vector<std::string>{timer_names::requeue}));
    advance(s.wait - 1ms);
    BOOST_TEST(log->started == expected);  // not a moment early
    advance(1ms);
    BOOST_TEST(log->started == ++expected);
  }
  // Pass 5 succeeded: the backoff is reset and nothing is armed.
  auto p = probe_order(a);
  BOOST_TEST(p.failures == 0u);
  BOOST_TEST(p.armed_timers.empty());
  BOOST_TEST(p.last_error == "pass 4");
  advance(2000s);
  BOOST_TEST(log->started == 5);
  // The next failure starts from 5 ms again.
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->started == 6);
  BOOST_TEST(probe_order(a).failures == 1u);
  advance(4ms);
  BOOST_TEST(log->started == 6);
  advance(1ms);
  BOOST_TEST(log->started == 7);
}

BOOST_FIXTURE_TEST_CASE(a_rate_limited_requeue_backs_off_like_an_error, order_fixture) {
  auto a = spawn(scripted_pass(log, [](int n) {
    return n < 3 ? pass_result::requeue() : pass_result::converged();
  }));
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  advance(5ms);
  BOOST_TEST(log->started == 2);
  advance(9ms);
  BOOST_TEST(log->started == 2);
  advance(1ms);
  BOOST_TEST(log->started == 3);
  BOOST_TEST(probe_order(a).failures == 0u);
}

BOOST_FIXTURE_TEST_CASE(requeue_after_comes_back_then_an_event_pass_cancels_it, order_fixture) {
  // Passes 1 and 3 requeue after 30 s; pass 2 (an event) converges; pass 4 converges.
  auto a = spawn(scripted_pass(log, [](int n) {
    return n == 1 || n == 3 ? pass_result::requeue_after(30s) : pass_result::converged();
  }));
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  advance(29s);
  BOOST_TEST(log->started == 1);
  advance(1s);
  BOOST_TEST(log->started == 2);  // the requeue came due
  advance(1h);
  BOOST_TEST(log->started == 2);  // converged: nothing armed
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->started == 3);  // requeue after 30 s armed again
  advance(10s);
  caf::anon_send(a, protocol::wake_atom::value);  // an event before it is due
  run();
  BOOST_TEST(log->started == 4);  // converged: the pending requeue is cancelled
  advance(1h);
  BOOST_TEST(log->started == 4);
  auto p = probe_order(a);
  BOOST_TEST(p.armed_timers.empty());
  BOOST_TEST(p.ticks_in_flight == 0u);  // every tick sent has arrived, and found nothing due
  BOOST_TEST(p.idle_ticks >= 1u);
}

BOOST_FIXTURE_TEST_CASE(named_timers_survive_rearming_and_stale_ones_are_ignored, order_fixture) {
  auto a = spawn(scripted_pass(log, [](int n) {
    return n <= 2 ? pass_result::converged().arm(timer_names::rotation, 60s)
                  : pass_result::converged();
  }));
  auto t0 = now();
  caf::anon_send(a, protocol::wake_atom::value);
  run();  // pass 1 at t0: rotation due at t0 + 60 s
  BOOST_TEST((probe_order(a).armed_timers == std::vector<std::string>{timer_names::rotation}));
  advance(10s);
  caf::anon_send(a, protocol::wake_atom::value);
  run();  // pass 2 at t0 + 10 s re-arms it: due at t0 + 70 s
  BOOST_TEST(log->started == 2);
  advance(50s);  // t0 + 60 s: the first arming's tick arrives and finds nothing due
  BOOST_TEST(log->started == 2);
  BOOST_TEST(probe_order(a).idle_ticks == 1u);
  BOOST_TEST((probe_order(a).armed_timers == std::vector<std::string>{timer_names::rotation}));
  advance(9s);
  BOOST_TEST(log->started == 2);
  advance(1s);  // t0 + 70 s: the re-armed timer fires
  BOOST_TEST(log->started == 3);
  BOOST_TEST((now() - t0 == caf::timespan{70s}));
  // Pass 3 armed nothing: rotation is cancelled.
  BOOST_TEST(probe_order(a).armed_timers.empty());
  advance(1h);
  BOOST_TEST(log->started == 3);
}

BOOST_FIXTURE_TEST_CASE(rearming_every_pass_keeps_at_most_two_ticks_in_flight, order_fixture) {
  // CAF 0.17's delayed messages cannot be cancelled and stay in its clock
  // until due: one message per arming left a rotation day away (and a pass
  // deadline ten minutes away) behind after every pass.
  auto a = spawn(scripted_pass(log, [](int) { return pass_result::converged().arm(timer_names::rotation, 24h); }));
  for (int i = 0; i < 50; ++i) {
    caf::anon_send(a, protocol::wake_atom::value);
    run();
    advance(1s);
  }
  BOOST_TEST(log->started == 50);
  auto p = probe_order(a);
  BOOST_TEST(p.ticks_in_flight <= 2u);  // the pass deadline's and the rotation's
  BOOST_TEST((p.armed_timers == std::vector<std::string>{timer_names::rotation}));
  advance(24h);
  BOOST_TEST(log->started == 51);  // the rotation came due once, 24 h after the last pass
}

BOOST_FIXTURE_TEST_CASE(a_timer_during_a_pass_is_a_coalesced_wakeup, order_fixture) {
  auto a = spawn(gated_pass(gate, log));
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(release(pass_result::converged().arm(timer_names::grace, 5s)));
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->started == 2);  // pass 2 in flight, grace still armed
  advance(5s);                    // grace fires during pass 2
  BOOST_TEST(log->started == 2);
  BOOST_TEST(probe_order(a).wake_pending);
  BOOST_TEST(release(pass_result::converged()));
  BOOST_TEST(log->started == 3);
}

BOOST_FIXTURE_TEST_CASE(a_pass_past_its_deadline_ends_as_an_error, order_fixture) {
  order_actor_options options;
  options.pass_deadline = 1min;
  auto a = spawn(gated_pass(gate, log), options);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  advance(59s);
  BOOST_TEST(probe_order(a).passes_finished == 0u);
  advance(1s);
  auto p = probe_order(a);
  BOOST_TEST(p.passes_finished == 1u);
  BOOST_TEST(p.failures == 1u);
  BOOST_TEST(p.last_error.find("deadline") != std::string::npos);
  advance(5ms);  // the backoff
  BOOST_TEST(log->started == 2);
  BOOST_TEST(held() == 2u);
  // The first pass answers late: ignored, the second pass still runs.
  BOOST_TEST(release(pass_result::converged()));
  p = probe_order(a);
  BOOST_TEST(p.passes_finished == 1u);
  BOOST_TEST(p.phase == static_cast<std::uint8_t>(order_phase::running));
  BOOST_TEST(release(pass_result::converged()));
  p = probe_order(a);
  BOOST_TEST(p.passes_finished == 2u);
  BOOST_TEST(p.failures == 0u);
}

BOOST_FIXTURE_TEST_CASE(wall_time_follows_virtual_time_when_given_a_wall_clock, order_fixture) {
  auto t0 = now();
  auto base = std::chrono::system_clock::time_point{} + std::chrono::hours(24 * 365 * 56);
  order_actor_options options;
  options.wall_clock = [t0, base](caf::actor_clock::time_point tp) { return base + (tp - t0); };
  std::vector<std::chrono::system_clock::time_point> seen;
  auto a = spawn(
      [&seen](pass_context ctx) {
        seen.push_back(ctx.wall_now());
        ctx.finish(pass_result::requeue_after(90s));
      },
      options);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  advance(90s);
  BOOST_REQUIRE(seen.size() == 2u);
  BOOST_TEST((seen[0] == base));
  BOOST_TEST((seen[1] - seen[0] == std::chrono::seconds(90)));
}

BOOST_FIXTURE_TEST_CASE(a_pass_that_throws_is_an_error, order_fixture) {
  auto a = spawn([log = log](pass_context) {
    ++log->started;
    throw std::runtime_error("bad spec");
  });
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  auto p = probe_order(a);
  BOOST_TEST(p.passes_finished == 1u);
  BOOST_TEST(p.last_error == "pass threw: bad spec");
  advance(5ms);
  BOOST_TEST(log->started == 2);
}

BOOST_FIXTURE_TEST_CASE(retire_finishes_the_pass_in_flight_then_quits, order_fixture) {
  auto a = spawn(gated_pass(gate, log));
  self->monitor(a);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  caf::anon_send(a, protocol::retire_atom::value);
  caf::anon_send(a, protocol::wake_atom::value);  // ignored from now on
  run();
  BOOST_TEST(self->mailbox().empty());  // still alive: the pass is in flight
  BOOST_TEST(probe_order(a).phase == static_cast<std::uint8_t>(order_phase::stopping));
  BOOST_TEST(release(pass_result::requeue_after(1s)));
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == a.address(); });
  BOOST_TEST(down);
  BOOST_TEST(log->started == 1);
}

BOOST_FIXTURE_TEST_CASE(retire_when_idle_quits_at_once, order_fixture) {
  auto a = spawn(gated_pass(gate, log));
  self->monitor(a);
  caf::anon_send(a, protocol::retire_atom::value);
  run();
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == a.address(); });
  BOOST_TEST(down);
  BOOST_TEST(log->started == 0);
}

// The write fence: a pass that gave up on a write (it ended while the write
// was outstanding) leaves it counted; a retired actor quits only once the
// write answers, so the host's drain cannot complete while it may be sent.
namespace {
pass_fn pass_leaving_a_write(caf::actor writes, std::shared_ptr<pass_log> log) {
  return [writes, log](pass_context ctx) {
    ++log->started;
    ctx.write_sent();
    ctx.self()
        ->request(writes, 30s, hold_atom::value, ctx.key())
        .then([ctx](pass_result&) { ctx.write_answered(); }, [ctx](const caf::error&) { ctx.write_answered(); });
    ctx.finish(pass_result::converged());  // as a pass past its deadline: the write still out
  };
}
}  // namespace

BOOST_FIXTURE_TEST_CASE(retire_waits_for_the_answer_of_a_write_the_pass_left, order_fixture) {
  auto writes = keep(sys.spawn(gate_actor, "writes"));
  auto a = spawn(pass_leaving_a_write(writes, log));
  self->monitor(a);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  auto p = probe_order(a);
  BOOST_TEST(p.passes_finished == 1u);
  BOOST_TEST(p.writes_in_flight == 1u);
  BOOST_TEST(p.phase == static_cast<std::uint8_t>(order_phase::idle));
  caf::anon_send(a, protocol::retire_atom::value);
  run();
  BOOST_TEST(self->mailbox().empty());  // still alive: the write may still be sent
  p = probe_order(a);
  BOOST_TEST(p.phase == static_cast<std::uint8_t>(order_phase::stopping));
  BOOST_TEST(p.writes_in_flight == 1u);
  BOOST_TEST(ask<bool>(writes, free_atom::value, order_key{}, pass_result::converged()));
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == a.address(); });
  BOOST_TEST(down);
  BOOST_TEST(log->started == 1);
}

BOOST_FIXTURE_TEST_CASE(retire_waits_for_a_write_until_its_request_times_out, order_fixture) {
  auto writes = keep(sys.spawn(gate_actor, "writes"));
  auto a = spawn(pass_leaving_a_write(writes, log));
  self->monitor(a);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  caf::anon_send(a, protocol::retire_atom::value);
  run();
  advance(29s);
  BOOST_TEST(self->mailbox().empty());
  BOOST_TEST(probe_order(a).writes_in_flight == 1u);
  advance(1s);  // the request's timeout (which outlasts the write's own deadline)
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == a.address(); });
  BOOST_TEST(down);
}

BOOST_FIXTURE_TEST_CASE(the_order_actor_feeds_controller_runtime_metrics, order_fixture) {
  auto m = std::make_shared<controller_metrics>(reg, "keystoneuser");
  auto a = spawn(gated_pass(gate, log), {}, m);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(m->active_workers.value() == 1.0);
  BOOST_TEST(m->depth.value() == 0.0);
  BOOST_TEST(m->adds.value() == 1.0);
  caf::anon_send(a, protocol::wake_atom::value);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(m->adds.value() == 2.0);  // coalesced wake-ups count once
  advance(250ms);
  BOOST_TEST(release(pass_result::failed("boom")));  // then the coalesced pass starts
  BOOST_TEST(m->reconcile_error.value() == 1.0);
  BOOST_TEST(m->reconcile_errors.value() == 1.0);
  BOOST_TEST(m->retries.value() == 1.0);
  BOOST_TEST(m->active_workers.value() == 1.0);
  auto t = m->reconcile_time.snap();
  BOOST_TEST(t.count == 1u);
  BOOST_TEST(t.sum == 0.25);  // virtual time
  BOOST_TEST(release(pass_result::requeue_after(1min)));
  BOOST_TEST(m->reconcile_requeue_after.value() == 1.0);
  BOOST_TEST(m->active_workers.value() == 0.0);
  advance(1min);
  BOOST_TEST(release(pass_result::converged()));
  BOOST_TEST(m->reconcile_success.value() == 1.0);
  BOOST_TEST(m->adds.value() == 3.0);
  // c5c3_pass_wakes_total: the two wake-ups that queued a pass, and the requeue timer.
  BOOST_TEST(m->wakes(wake_cause::host).value() == 2.0);
  BOOST_TEST(m->wakes(wake_cause::requeue).value() == 1.0);
  for (auto cause : {wake_cause::child, wake_cause::order, wake_cause::timer})
    BOOST_TEST(m->wakes(cause).value() == 0.0);
  BOOST_TEST(m->work_duration.snap().count == 3u);
  BOOST_TEST(m->queue_duration.snap().count == 3u);
  BOOST_TEST(m->depth.value() == 0.0);
  auto text = reg.render();
  BOOST_TEST(text.find("controller_runtime_reconcile_total{controller=\"keystoneuser\",result=\"error\"} 1\n") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
