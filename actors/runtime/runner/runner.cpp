#include "actors/runtime/runner/runner.hpp"

#include "actors/runtime/runner/run_state.hpp"
#include "actors/runtime/shard/claim.hpp"
#include "actors/runtime/shard/scope_cover.hpp"

#include <algorithm>
#include <optional>

namespace c5c3::runtime {

namespace {

// Held by one order actor's pass closure: when the actor goes, so does its
// order from the order metrics.
struct order_presence {
  std::shared_ptr<order_metrics> metrics;
  std::optional<protocol::order_key> key;
  ~order_presence() {
    if (metrics && key) metrics->gone(*key);
  }
};

// How a new actor's first pass reads its children (run_state::restamp): the
// only holder the order ever had needs no restamp (no other replica stamped
// any of its children); its second holder restamps from the cache when the
// caches show the stamps of the holder it took the order over from; any
// other restamps from the API server.
detail::restamp_read first_read(const k8s::object& order, const runner_deps& deps) {
  if (shard::only_holder(order, deps.shard_name)) return detail::restamp_read::done;
  auto from = shard::taken_over_from(order, deps.shard_name);
  if (!from.empty() && deps.cover && deps.cover->shows(from)) return detail::restamp_read::from_cache;
  return detail::restamp_read::from_server;
}

}  // namespace

std::chrono::steady_clock::time_point write_deadline(std::chrono::steady_clock::time_point now, caf::timespan timeout,
                                                     std::optional<std::chrono::nanoseconds> fence_left) {
  auto t = std::chrono::duration_cast<std::chrono::nanoseconds>(timeout);
  auto margin = std::min<std::chrono::nanoseconds>(t / 5, std::chrono::seconds(5));
  auto budget = t - margin;
  if (fence_left) budget = std::min(budget, std::max(*fence_left, std::chrono::nanoseconds(0)));
  return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(budget);
}

pass_fn make_runner_pass(std::shared_ptr<const kind_declaration> kind, runner_deps deps) {
  return make_runner_pass(std::move(kind), std::make_shared<const runner_deps>(std::move(deps)));
}

pass_fn make_runner_pass(std::shared_ptr<const kind_declaration> kind, std::shared_ptr<const runner_deps> shared) {
  auto memo = std::make_shared<write_memo>(shared->memo_horizon);
  auto presence = std::make_shared<order_presence>();
  presence->metrics = shared->orders;
  auto restamp = shared->shard_name.empty() ? nullptr : std::make_shared<detail::restamp_read>();
  return [kind, shared, memo, presence, restamp](pass_context ctx) {
    bool first_pass = !presence->key;
    if (first_pass) presence->key = ctx.key();
    auto r = std::make_shared<detail::run_state>(std::move(ctx));
    r->kind = kind;
    r->deps = shared;
    r->memo = memo;
    r->snap.key = r->ctx.key();
    const auto& cached = r->ctx.order();
    if (first_pass && restamp) *restamp = first_read(cached, *shared);
    r->restamp = restamp;
    // The order as this actor's own last writes left it, when the cache lags.
    // The host hands every version of the order to the actor, in the order
    // its informer delivered them: the memo is told each, so a version
    // delivered before its own write's answer is older than the answer
    // (somebody else's edit the write was applied on top of), and this needs
    // no coming back, unless the view rests on that order (ahead(): a relist
    // may skip the answer's version).
    if (cached) {
      auto k = memo_key_of(r->snap.key.cluster, cached);
      memo->delivered(k, r->ctx.delivered(), r->ctx.delivered_all());
      r->snap.order = memo->latest(k, cached, r->ctx.now());
      r->order_ahead = memo->ahead();
    }
    r->started_with = r->snap.order;
    memo->reset_used();
    // A terminating order without the kind's finalizer has nothing left of
    // this kind to tear down: its release was this actor's own (seen through
    // the memo while the cache still shows the object; no finalizer can be
    // added to an object being deleted, so this holds until it is gone).
    // Nothing is read or planned, so no teardown step runs twice.
    const auto& order = r->snap.order;
    if (!kind->finalizer.empty() && order && order.terminating() && !order.has_finalizer(kind->finalizer)) {
      auto res = pass_result::converged();
      res.report.stage = "released";
      res.report.result = "converged";
      return detail::finish(r, std::move(res));
    }
    detail::start(r);
  };
}

}  // namespace c5c3::runtime
