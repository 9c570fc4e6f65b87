// A deterministic actor system for tests: CAF 0.17's test coordinator
// (scheduler.policy "testing") with virtual time. Nothing runs until the test
// says so: run() drains every mailbox, advance(d) moves the clock by d (firing
// due delayed messages) and drains again. ask<T>() sends a request from a
// scoped actor and returns the answer.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "actors/runtime/pass.hpp"
#include "protocol/api_error.hpp"
#include "protocol/order.hpp"
#include "protocol/registry.hpp"

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scheduler/test_coordinator.hpp>
#include <caf/scoped_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <boost/test/unit_test.hpp>

#include <deque>
#include <memory>
#include <vector>

// Tests hand pass results through the gate actor below.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::runtime::pass_result)

namespace c5c3::testing {

inline caf::actor_system_config& testing_config(caf::actor_system_config& cfg) {
  cfg.set("scheduler.policy", caf::atom("testing"));
  cfg.set("logger.file-verbosity", caf::atom("quiet"));
  protocol::register_types(cfg);
  return cfg;
}

// A metrics registry that outlives the actors of a fixture deriving from it
// first (bases are destroyed in reverse order).
struct registry_holder {
  runtime::metrics::registry reg;
};

struct coordinator_fixture {
  caf::actor_system_config cfg;
  caf::actor_system sys;
  caf::scheduler::test_coordinator& sched;
  caf::scoped_actor self;
  std::vector<caf::actor> spawned;  // killed at the end, so the system can shut down

  coordinator_fixture()
      : sys(testing_config(cfg)),
        sched(dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler())),
        self(sys, true) {}

  ~coordinator_fixture() {
    for (auto& a : spawned) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    sched.run();
  }

  caf::actor keep(caf::actor a) {
    spawned.push_back(a);
    return a;
  }

  std::size_t run() { return sched.run(); }
  void advance(caf::timespan d) {
    sched.advance_time(d);
    sched.run();
  }
  caf::actor_clock::time_point now() { return sched.clock().now(); }

  template <class T, class... Ts>
  T ask(const caf::actor& dest, Ts&&... xs) {
    auto handle = self->request(dest, caf::infinite, std::forward<Ts>(xs)...);
    run();
    BOOST_REQUIRE_MESSAGE(!self->mailbox().empty(), "no answer");
    T result{};
    handle.receive([&](T& x) { result = std::move(x); },
                   [&](caf::error& e) { BOOST_FAIL("error answer: " << sys.render(e)); });
    return result;
  }

  // The error a request is answered with (fails when it succeeds).
  template <class... Ts>
  caf::error ask_error(const caf::actor& dest, Ts&&... xs) {
    auto handle = self->request(dest, caf::infinite, std::forward<Ts>(xs)...);
    run();
    BOOST_REQUIRE_MESSAGE(!self->mailbox().empty(), "no answer");
    caf::error result;
    handle.receive([&](caf::message&) { BOOST_FAIL("expected an error"); },
                   [&](caf::error& e) { result = std::move(e); });
    return result;
  }

  protocol::order_probe probe_order(const caf::actor& a) {
    return ask<protocol::order_probe>(a, protocol::probe_atom::value);
  }
};

// A stand-in for the cluster actor a pass talks to: it holds every request
// until the test releases it with a result, so a pass stays "in flight" for
// as long as the test wants.
using hold_atom = caf::atom_constant<caf::atom("hold")>;
using free_atom = caf::atom_constant<caf::atom("free")>;
using count_atom = caf::atom_constant<caf::atom("count")>;

struct gate_state {
  std::string name;
  std::deque<std::pair<protocol::order_key, caf::response_promise>> held;
};

// Takes an argument on purpose: CAF 0.17 spawning a function without extra
// arguments dereferences a null shared_ptr<tuple<>> (UBSan reports it).
inline caf::behavior gate_actor(caf::stateful_actor<gate_state>* self, std::string name) {
  self->state.name = std::move(name);
  return {
      [self](hold_atom, const protocol::order_key& key) {
        self->state.held.emplace_back(key, self->make_response_promise());
      },
      // Releases the oldest held request of `key` (any, when key.name is empty).
      [self](free_atom, const protocol::order_key& key, runtime::pass_result& r) -> bool {
        auto& held = self->state.held;
        for (auto i = held.begin(); i != held.end(); ++i) {
          if (key.name.empty() || i->first == key) {
            i->second.deliver(std::move(r));
            held.erase(i);
            return true;
          }
        }
        return false;
      },
      [self](count_atom) { return static_cast<std::uint32_t>(self->state.held.size()); },
  };
}

// What the passes of a test did.
struct pass_log {
  int running = 0;
  int max_running = 0;
  int started = 0;
  int finished = 0;
  std::vector<protocol::order_key> keys;  // one per pass start
  std::vector<k8s::object> orders;        // the order each pass saw
  // The versions delivered since the previous pass began, as each pass was told (and whether all).
  std::vector<std::vector<std::string>> delivered;
  std::vector<bool> delivered_all;
};

// A pass that asks the gate and ends with whatever result the test releases.
inline runtime::pass_fn gated_pass(caf::actor gate, std::shared_ptr<pass_log> log) {
  return [gate, log](runtime::pass_context ctx) {
    ++log->started;
    ++log->running;
    log->max_running = std::max(log->max_running, log->running);
    log->keys.push_back(ctx.key());
    log->orders.push_back(ctx.order());
    log->delivered.push_back(ctx.delivered());
    log->delivered_all.push_back(ctx.delivered_all());
    ctx.self()
        ->request(gate, caf::infinite, hold_atom::value, ctx.key())
        .then(
            [ctx, log](runtime::pass_result& r) {
              --log->running;
              ++log->finished;
              ctx.finish(std::move(r));
            },
            [ctx, log](const caf::error& e) {
              --log->running;
              ++log->finished;
              ctx.finish(runtime::pass_result::failed(protocol::describe(e)));
            });
  };
}

// A pass that ends at once with the result `script` gives for its number.
inline runtime::pass_fn scripted_pass(std::shared_ptr<pass_log> log,
                                      std::function<runtime::pass_result(int)> script) {
  return [log, script](runtime::pass_context ctx) {
    ++log->started;
    log->keys.push_back(ctx.key());
    log->orders.push_back(ctx.order());
    ++log->finished;
    ctx.finish(script(log->started));
  };
}

}  // namespace c5c3::testing
