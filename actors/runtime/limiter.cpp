#include "actors/runtime/limiter.hpp"

#include "protocol/api_error.hpp"
#include "protocol/order.hpp"

#include <caf/actor_system.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace c5c3::runtime {

namespace {

struct limiter_state {
  static inline const char* name = "c5c3.limiter";

  struct waiter {
    caf::actor_addr who;
    caf::response_promise promise;
  };

  caf::stateful_actor<limiter_state>* self = nullptr;
  std::uint32_t max = 1;
  std::uint32_t in_use = 0;
  std::uint32_t peak = 0;
  bool stopping = false;
  std::map<caf::actor_addr, std::uint32_t> holders;
  std::set<caf::actor_addr> monitored;
  std::deque<waiter> waiting;
  std::vector<caf::response_promise> drained;

  void watch(const caf::strong_actor_ptr& who) {
    auto addr = caf::actor_cast<caf::actor_addr>(who);
    if (monitored.insert(addr).second) self->monitor(who);
  }

  void take(const caf::actor_addr& who) {
    ++in_use;
    ++holders[who];
    peak = std::max(peak, in_use);
  }

  void give_back(const caf::actor_addr& who, std::uint32_t n) {
    auto i = holders.find(who);
    if (i == holders.end()) return;
    n = std::min(n, i->second);
    i->second -= n;
    in_use -= n;
    if (i->second == 0) holders.erase(i);
  }

  void grant_waiting() {
    while (!stopping && in_use < max && !waiting.empty()) {
      auto w = std::move(waiting.front());
      waiting.pop_front();
      take(w.who);
      w.promise.deliver(protocol::grant_atom::value);
    }
    if (stopping && in_use == 0) {
      for (auto& rp : drained) rp.deliver(protocol::ok_atom::value);
      drained.clear();
      self->quit();
    }
  }
};

caf::behavior limiter_actor(caf::stateful_actor<limiter_state>* self, std::uint32_t max) {
  self->state.self = self;
  self->state.max = std::max<std::uint32_t>(max, 1);
  self->set_down_handler([self](caf::down_msg& dm) {
    auto& s = self->state;
    s.monitored.erase(dm.source);
    s.waiting.erase(std::remove_if(s.waiting.begin(), s.waiting.end(),
                                   [&](const auto& w) { return w.who == dm.source; }),
                    s.waiting.end());
    s.give_back(dm.source, UINT32_MAX);
    s.grant_waiting();
  });
  return {
      [self](protocol::acquire_atom) {
        auto& s = self->state;
        // Before make_response_promise(), which moves the sender out of the message.
        auto sender = self->current_sender();
        auto rp = self->make_response_promise();
        if (!sender) {
          rp.deliver(protocol::make_error(protocol::api_errc::other, "acquire without a sender"));
          return;
        }
        if (s.stopping) {
          rp.deliver(protocol::make_error(protocol::api_errc::shutting_down,
                                          "the operator is shutting down"));
          return;
        }
        auto who = caf::actor_cast<caf::actor_addr>(sender);
        s.watch(sender);
        s.waiting.push_back({who, std::move(rp)});
        s.grant_waiting();
      },
      [self](protocol::release_atom) {
        auto& s = self->state;
        s.give_back(caf::actor_cast<caf::actor_addr>(self->current_sender()), 1);
        s.grant_waiting();
      },
      [self](protocol::stop_atom) {
        auto& s = self->state;
        s.stopping = true;
        for (auto& w : s.waiting)
          w.promise.deliver(protocol::make_error(protocol::api_errc::shutting_down,
                                                 "the operator is shutting down"));
        s.waiting.clear();
        s.drained.push_back(self->make_response_promise());
        s.grant_waiting();
      },
      [self](protocol::probe_atom) {
        auto& s = self->state;
        return protocol::limiter_probe{s.max, s.in_use, static_cast<std::uint32_t>(s.waiting.size()),
                                       s.peak, s.stopping};
      },
  };
}

}  // namespace

caf::actor spawn_limiter(caf::actor_system& sys, std::uint32_t max) {
  return sys.spawn(limiter_actor, max);
}

}  // namespace c5c3::runtime
