#include "actors/runtime/limiter.hpp"

#include "protocol/api_error.hpp"
#include "protocol/order.hpp"

#include <caf/actor_system.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <algorithm>
#include <chrono>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace c5c3::runtime {

namespace {

struct limiter_state {
  static inline const char* name = "c5c3.limiter";

  struct waiter {
    caf::actor_addr who;
    caf::response_promise promise;
  };

  // The tokens of one cluster.
  struct pool {
    std::uint32_t in_use = 0;
    std::list<waiter> waiting;
  };
  using pool_ref = std::map<std::string, pool>::iterator;
  using waiter_ref = std::pair<pool_ref, std::list<waiter>::iterator>;

  caf::stateful_actor<limiter_state>* self = nullptr;
  limiter_options opts;
  std::uint32_t peak = 0;  // the highest in_use of any one pool
  bool stopping = false;
  std::map<std::string, pool> pools;  // by cluster ("" = management)
  // Where each waiter waits, so that one that dies leaves its queues without
  // a scan of them: with 100,000 orders queued, a scan per departing actor
  // made the limiter's down messages quadratic.
  std::map<caf::actor_addr, std::vector<waiter_ref>> queued;
  // Tokens each holder has, per cluster.
  std::map<caf::actor_addr, std::map<std::string, std::uint32_t>> holders;
  // The cluster a bare acquire_atom of this sender counts against, once learned.
  std::map<caf::actor_addr, std::string> cluster_of;
  std::set<caf::actor_addr> monitored;
  std::vector<caf::response_promise> drained;

  void watch(const caf::strong_actor_ptr& who) {
    auto addr = caf::actor_cast<caf::actor_addr>(who);
    if (monitored.insert(addr).second) self->monitor(who);
  }

  std::uint32_t in_use() const {
    std::uint32_t n = 0;
    for (const auto& [c, p] : pools) n += p.in_use;
    return n;
  }

  std::uint32_t waiting() const {
    std::uint32_t n = 0;
    for (const auto& [c, p] : pools) n += static_cast<std::uint32_t>(p.waiting.size());
    return n;
  }

  void refuse(caf::response_promise& rp) const {
    rp.deliver(protocol::make_error(protocol::api_errc::shutting_down, "the operator is shutting down"));
  }

  void enqueue(const std::string& cluster, const caf::actor_addr& who, caf::response_promise rp) {
    if (stopping) {
      refuse(rp);
      return;
    }
    if (monitored.count(who) == 0) return;  // died while its cluster was asked
    auto p = pools.try_emplace(cluster).first;
    auto it = p->second.waiting.insert(p->second.waiting.end(), {who, std::move(rp)});
    queued[who].emplace_back(p, it);
    grant(cluster);
  }

  void grant(const std::string& cluster) {
    auto& p = pools[cluster];
    while (!stopping && p.in_use < opts.max && !p.waiting.empty()) {
      auto w = std::move(p.waiting.front());
      unqueue(w.who, p.waiting.begin());
      p.waiting.pop_front();
      ++p.in_use;
      ++holders[w.who][cluster];
      peak = std::max(peak, p.in_use);
      w.promise.deliver(protocol::grant_atom::value);
    }
    forget_if_idle(cluster);
    finish_stop_when_drained();
  }

  // Drops the index entry of `who`'s waiter at `it` (the waiter stays).
  void unqueue(const caf::actor_addr& who, std::list<waiter>::iterator it) {
    auto q = queued.find(who);
    if (q == queued.end()) return;
    auto& refs = q->second;
    auto r = std::find_if(refs.begin(), refs.end(), [&](const waiter_ref& x) { return x.second == it; });
    if (r != refs.end()) refs.erase(r);
    if (refs.empty()) queued.erase(q);
  }

  // A pool nobody holds or waits for is dropped: clusters come and go.
  void forget_if_idle(const std::string& cluster) {
    auto i = pools.find(cluster);
    if (i != pools.end() && i->second.in_use == 0 && i->second.waiting.empty()) pools.erase(i);
  }

  void finish_stop_when_drained() {
    if (!stopping || in_use() != 0) return;
    for (auto& rp : drained) rp.deliver(protocol::ok_atom::value);
    drained.clear();
    self->quit();
  }

  // Gives back up to `n` of `who`'s tokens of `cluster` (any cluster when
  // null, oldest pool name first) and grants the freed ones.
  void give_back(const caf::actor_addr& who, std::uint32_t n, const std::string* cluster) {
    auto h = holders.find(who);
    if (h == holders.end()) return;
    std::vector<std::string> freed;
    for (auto i = h->second.begin(); i != h->second.end() && n > 0;) {
      if (cluster && i->first != *cluster) {
        ++i;
        continue;
      }
      auto k = std::min(n, i->second);
      i->second -= k;
      n -= k;
      pools[i->first].in_use -= k;
      freed.push_back(i->first);
      i = i->second == 0 ? h->second.erase(i) : std::next(i);
    }
    if (h->second.empty()) holders.erase(h);
    for (const auto& c : freed) grant(c);
  }

  void on_down(const caf::actor_addr& who) {
    monitored.erase(who);
    cluster_of.erase(who);
    std::vector<std::string> touched;
    if (auto q = queued.find(who); q != queued.end()) {
      for (auto& [p, it] : q->second) {
        p->second.waiting.erase(it);
        touched.push_back(p->first);
      }
      queued.erase(q);
    }
    give_back(who, UINT32_MAX, nullptr);
    for (const auto& c : touched) forget_if_idle(c);
    finish_stop_when_drained();
  }

  // A bare acquire_atom: the sender's cluster is its order key's (asked once
  // through its probe_atom, protocol::order_probe); a sender that does not
  // answer one counts against the management cluster's pool.
  void classify(const caf::strong_actor_ptr& sender, caf::response_promise rp) {
    auto who = caf::actor_cast<caf::actor_addr>(sender);
    if (auto i = cluster_of.find(who); i != cluster_of.end()) {
      enqueue(i->second, who, std::move(rp));
      return;
    }
    auto shared_rp = std::make_shared<caf::response_promise>(std::move(rp));
    self->request(caf::actor_cast<caf::actor>(sender), opts.probe_timeout, protocol::probe_atom::value)
        .then(
            [this, who, shared_rp](const protocol::order_probe& p) {
              if (monitored.count(who) != 0) cluster_of[who] = p.key.cluster;
              enqueue(p.key.cluster, who, std::move(*shared_rp));
            },
            [this, who, shared_rp](const caf::error&) {
              if (monitored.count(who) != 0) cluster_of[who] = "";
              enqueue("", who, std::move(*shared_rp));
            });
  }

  protocol::limiter_probe probe(const std::string* cluster) const {
    protocol::limiter_probe p;
    p.max = opts.max;
    p.peak = peak;
    p.stopping = stopping;
    p.pools = static_cast<std::uint32_t>(pools.size());
    if (!cluster) {
      p.in_use = in_use();
      p.waiting = waiting();
    } else if (auto i = pools.find(*cluster); i != pools.end()) {
      p.in_use = i->second.in_use;
      p.waiting = static_cast<std::uint32_t>(i->second.waiting.size());
    }
    return p;
  }
};

caf::behavior limiter_actor(caf::stateful_actor<limiter_state>* self, limiter_options opts) {
  self->state.self = self;
  opts.max = std::max<std::uint32_t>(opts.max, 1);
  self->state.opts = opts;
  self->set_down_handler([self](caf::down_msg& dm) { self->state.on_down(dm.source); });
  // The sender of the current request and its promise (read current_sender()
  // before make_response_promise(), which moves the sender out).
  auto take = [self](caf::strong_actor_ptr& sender) -> std::optional<caf::response_promise> {
    sender = self->current_sender();
    auto rp = self->make_response_promise();
    if (!sender) {
      rp.deliver(protocol::make_error(protocol::api_errc::other, "acquire without a sender"));
      return std::nullopt;
    }
    if (self->state.stopping) {
      self->state.refuse(rp);
      return std::nullopt;
    }
    self->state.watch(sender);
    return rp;
  };
  return {
      [self, take](protocol::acquire_atom) {
        caf::strong_actor_ptr sender;
        if (auto rp = take(sender)) self->state.classify(sender, std::move(*rp));
      },
      [self, take](protocol::acquire_atom, const std::string& cluster) {
        caf::strong_actor_ptr sender;
        if (auto rp = take(sender)) {
          auto who = caf::actor_cast<caf::actor_addr>(sender);
          self->state.cluster_of[who] = cluster;
          self->state.enqueue(cluster, who, std::move(*rp));
        }
      },
      [self](protocol::release_atom) {
        self->state.give_back(caf::actor_cast<caf::actor_addr>(self->current_sender()), 1, nullptr);
      },
      [self](protocol::release_atom, const std::string& cluster) {
        self->state.give_back(caf::actor_cast<caf::actor_addr>(self->current_sender()), 1, &cluster);
      },
      [self](protocol::stop_atom) {
        auto& s = self->state;
        s.stopping = true;
        for (auto& [c, p] : s.pools)
          for (auto& w : p.waiting) s.refuse(w.promise);
        s.queued.clear();
        for (auto i = s.pools.begin(); i != s.pools.end();) {
          i->second.waiting.clear();
          i = i->second.in_use == 0 ? s.pools.erase(i) : std::next(i);
        }
        s.drained.push_back(self->make_response_promise());
        s.finish_stop_when_drained();
      },
      [self](protocol::probe_atom) { return self->state.probe(nullptr); },
      [self](protocol::probe_atom, const std::string& cluster) { return self->state.probe(&cluster); },
  };
}

}  // namespace

caf::actor spawn_limiter(caf::actor_system& sys, limiter_options opts) {
  return sys.spawn(limiter_actor, opts);
}

caf::actor spawn_limiter(caf::actor_system& sys, std::uint32_t max) {
  limiter_options o;
  o.max = max;
  return spawn_limiter(sys, o);
}

}  // namespace c5c3::runtime
