// The order host's sharded half: the shard gate's decisions carried out
// (claim and release writes, drains) and the watch scope kept to this
// replica's share of the ready members.
#include "actors/runtime/order_host_state.hpp"
#include "actors/runtime/shard/claim_writer.hpp"
#include "actors/runtime/shard/lease_state.hpp"
#include "actors/runtime/shard/scope.hpp"
#include "k8s/log.hpp"
#include "protocol/subscription.hpp"

namespace c5c3::runtime::detail {

void host_state::act(const order_key& key, shard::decision d) {
  auto i = orders.find(key);
  switch (d) {
    case shard::decision::keep:
      if (i == orders.end()) {
        if (const auto* o = gate.latest(key)) spawn(key, *o);
      } else if (i->second.retiring) {
        if (const auto* o = gate.latest(key)) i->second.respawn = *o;
      }
      return;
    case shard::decision::drain:
      if (i == orders.end()) return;
      if (!i->second.retiring && sm) sm->drains.inc();
      retire(i);
      return;
    case shard::decision::claim:
    case shard::decision::release: {
      const auto* o = gate.latest(key);
      if (!o || !gate.begin_write(key)) return;
      std::string rv(o->resource_version());
      bool claim = d == shard::decision::claim;
      // A claim of an order with a holder label takes it over from that
      // holder (the gate claims only from one that is not ready) and says so.
      auto patch = claim ? shard::claim_patch(gate.me(), rv, shard::claims_after(*o),
                                              std::string(o->label(shard::claim_label).value_or("")))
                         : shard::release_patch(rv);
      shard::write_claim(self, cfg.shard, cfg.order_kind, key, std::move(patch),
                         [this, key, claim, rv](const k8s::object& written, const std::string& refused) {
        gate.end_write(key);
        bool ok = static_cast<bool>(written);
        if (ok && sm) (claim ? sm->claims : sm->releases).inc();
        if (ok && claim) {
          claimed[key] = view_changed;
          gate.confirm(key);
        }
        // Success: the answer is the order's latest version unless an
        // event came meanwhile (then that one is decided again). A failure
        // is decided again after a while: a conflict (a newer version, or
        // another claimant) soon; a refusal (a 403) backs off to 30 s and is
        // logged at the first failure in a row, not at every retry.
        const auto* latest = gate.latest(key);
        if (ok && latest && latest->resource_version() == rv) gate.record(key, written);
        if (ok) {
          claim_failures.erase(key);
          self->send(self, shard_eval_atom::value, key);
          return;
        }
        int n = ++claim_failures[key];
        if (!refused.empty() && n == 1)
          k8s::log::root().named("shard").error(
              claim ? "shard claim failed" : "shard release failed", refused,
              {{"kind", cfg.order_kind.kind}, {"namespace", key.namespace_}, {"name", key.name},
               {"cluster", key.cluster}});
        self->delayed_send(self, shard::claim_retry_delay(n), shard_eval_atom::value, key);
      });
      return;
    }
    case shard::decision::ignore: return;
  }
}

// How long a rescope may take; one not answered by then leaves the cover as
// wide as asked (the first passes of takeovers read the API server).
constexpr auto rescope_wait = std::chrono::minutes(3);

void host_state::rescope(const protocol::shard_view& v) {
  if (!cfg.shard.scope_watches || !v.self_ready || !cfg.shard.clusters) return;
  auto next = shard::scope_of(cfg.shard.me, &v);
  if (next == scope) return;
  scope = next;
  if (cfg.shard.cover) cfg.shard.cover->asked(next);
  auto n = ++rescopes;
  self->request(cfg.shard.clusters, rescope_wait,
                protocol::rescope_request{caf::actor_cast<caf::actor>(self), next.selector()})
      .then([this, n](protocol::ok_atom) { rescoped(n, true); }, [this, n](const caf::error&) { rescoped(n, false); });
}

// The cover narrows to the scope asked last once its moves are complete. A
// takeover's actor is not held for it: each first pass decides as it starts
// (runner.cpp first_read), so the passes queued behind the concurrency limit
// start at once (from the API server) and those starting after the moves
// read the cache. Held until the moves completed, the whole queue waited for
// the new informers' lists (bench/README: a handoff of 3,326 orders at
// 10,000 took 110 s so, 47 s before).
void host_state::rescoped(std::uint64_t n, bool ok) {
  if (n != rescopes) return;  // a later rescope is under way
  if (ok && cfg.shard.cover) cfg.shard.cover->settled(scope);
}

void host_state::evaluate(const order_key& key) {
  if (!gate.latest(key)) claim_failures.erase(key);
  if (stopping || !gate.latest(key)) return;
  act(key, gate.decide(key, orders.count(key) > 0));
}

}  // namespace c5c3::runtime::detail
