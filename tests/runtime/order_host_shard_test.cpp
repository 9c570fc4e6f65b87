// The order host sharded among replicas (actors/runtime/shard): it runs only
// the orders it holds and the ring gives it, claims with the order's
// resourceVersion as precondition, takes over from a member that is not ready
// and waits for one that is, and on a ring change drains the actor (the pass
// in flight finishes) before it releases the claim.
#include "coordinator_fixture.hpp"

#include "actors/runtime/order_host.hpp"
#include "actors/runtime/shard/lease_state.hpp"
#include "actors/runtime/shard/scope_cover.hpp"
#include "k8s/json.hpp"
#include "protocol/clusters.hpp"
#include "protocol/shard.hpp"
#include "protocol/subscription.hpp"

using namespace c5c3;
using namespace c5c3::runtime;
using namespace c5c3::testing;
using protocol::event_type;
using protocol::order_key;

namespace {

const k8s::gvk kind{"c5c3.io", "v1alpha1", "KeystoneUser"};

// (release_atom): the fake cluster answers the rescope requests it holds.
using release_atom = caf::atom_constant<caf::atom("release")>;

// The patches the host wrote, in order (body text).
struct write_log {
  std::vector<std::string> patches;
  k8s::object answer;
  std::vector<std::string> scopes;  // the rescope requests, in order
  bool hold_rescopes = false;       // answer them only at release_atom (moves under way)
  std::vector<caf::response_promise> held;
};

// The cluster directory and the management cluster in one: lookups answer
// itself, patches are recorded and answered with `log->answer` (empty: a
// conflict).
caf::behavior fake_cluster(caf::event_based_actor* self, std::shared_ptr<write_log> log) {
  return {
      [self](protocol::lookup_cluster_atom, const std::string&) { return caf::actor_cast<caf::actor>(self); },
      [log](protocol::patch_request& r) -> caf::result<k8s::object> {
        log->patches.push_back(r.body);
        if (!log->answer) return caf::make_error(caf::sec::runtime_error, "conflict");
        return log->answer;
      },
      [self, log](protocol::rescope_request& r) -> caf::result<protocol::ok_atom> {
        log->scopes.push_back(r.scope);
        if (!log->hold_rescopes) return protocol::ok_atom::value;
        auto rp = self->make_response_promise<protocol::ok_atom>();
        log->held.emplace_back(rp);
        return rp;
      },
      [log](release_atom) {
        for (auto& rp : log->held) rp.deliver(protocol::ok_atom::value);
        log->held.clear();
      },
  };
}

k8s::object order(const std::string& name, const std::string& rv, const std::string& holder,
                  const std::string& claims = "", const std::string& previous = "") {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", name};
  b.set_resource_version(rv);
  b.set_int({"metadata", "generation"}, 1);
  if (!holder.empty()) b.set_label(shard::claim_label, holder);
  if (!claims.empty()) b.set_annotation(shard::claims_annotation, claims);
  if (!previous.empty()) b.set_annotation(shard::previous_annotation, previous);
  return std::move(b).freeze();
}

// The nth name (0, 1, ...) the ring of `members` gives to `owner`.
std::string owned_by(const std::vector<std::string>& members, const std::string& owner, int nth = 0) {
  shard::ring r(members);
  for (int i = 0;; ++i) {
    auto n = "order-" + std::to_string(i);
    if (r.owner(shard::order_ring_key("", kind.group, kind.kind, "tenant-a", n)) == owner && nth-- == 0) return n;
  }
}

struct shard_fixture : registry_holder, coordinator_fixture {
  std::shared_ptr<pass_log> log = std::make_shared<pass_log>();
  std::shared_ptr<write_log> writes = std::make_shared<write_log>();
  caf::actor gate = keep(sys.spawn(gate_actor, "gate"));
  caf::actor cluster = keep(sys.spawn(fake_cluster, writes));
  std::shared_ptr<shard::scope_cover> cover = std::make_shared<shard::scope_cover>(shard::scope_of("a", nullptr));
  caf::actor h;

  shard_fixture() {
    order_host_config hc;
    hc.controller = "keystoneuser";
    hc.order_kind = kind;
    hc.keys = {"c5c3.io/keystoneuser-name", "c5c3.io/keystoneuser-namespace", "c5c3.io/keystoneuser-cluster"};
    auto g = gate;
    auto l = log;
    hc.make_pass = [g, l](const order_key&) { return gated_pass(g, l); };
    hc.shard = {"a", caf::actor{}, cluster, "c5c3-operator", &reg};
    hc.shard.cover = cover;
    h = keep(spawn_order_host(sys, std::move(hc)));
  }
  void view(std::vector<std::string> members, bool self_ready = true) {
    caf::anon_send(h, protocol::shard_view{std::move(members), self_ready, 1, {}});
    run();
  }
  void event(event_type t, k8s::object o, bool out_of_scope = false) {
    protocol::object_event ev{{1}, "", t, std::move(o), {}};
    ev.out_of_scope = out_of_scope;
    caf::anon_send(h, std::move(ev));
    run();
  }
  protocol::host_probe probe() { return ask<protocol::host_probe>(h, protocol::probe_atom::value); }
  // The host's c5c3_shard_orders_owned line ("" : none).
  std::string owned_gauge() {
    auto text = reg.render();
    const std::string series = "c5c3_shard_orders_owned{controller=\"keystoneuser\"} ";
    auto at = text.find(series);
    return at == std::string::npos ? "" : text.substr(at + series.size(), text.find('\n', at) - at - series.size());
  }
  // The label value and precondition of the i-th patch ("" : a release).
  std::pair<std::string, std::string> patch(std::size_t i) {
    BOOST_REQUIRE(i < writes->patches.size());
    auto d = k8s::parse_json(writes->patches[i]);
    BOOST_REQUIRE(d);
    const auto* v = k8s::find(*d, {"metadata", "labels", shard::claim_label});
    BOOST_REQUIRE(v);
    return {v->IsString() ? v->GetString() : "", std::string(k8s::get_string(*d, {"metadata", "resourceVersion"}))};
  }
  // The claims count the i-th patch writes ("" : none, a release).
  std::string claims(std::size_t i) { return annotation(i, shard::claims_annotation); }
  // The annotation `name` the i-th patch writes ("" : none, or removed).
  std::string annotation(std::size_t i, const char* name) {
    BOOST_REQUIRE(i < writes->patches.size());
    auto d = k8s::parse_json(writes->patches[i]);
    BOOST_REQUIRE(d);
    return std::string(k8s::get_string(*d, {"metadata", "annotations", name}));
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(order_host_sharded)

BOOST_FIXTURE_TEST_CASE(runs_nothing_before_the_first_view_then_claims_before_it_runs, shard_fixture) {
  auto name = owned_by({"a", "b"}, "a");
  event(event_type::added, order(name, "1", ""));
  BOOST_TEST(writes->patches.empty());
  BOOST_TEST(probe().live.empty());
  // The claim loses (a conflict): nothing runs; it is tried again a moment later.
  view({"a", "b"});
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 1u);
  BOOST_TEST((patch(0) == std::pair<std::string, std::string>{"a", "1"}));
  BOOST_TEST(claims(0) == "1");  // a fresh order: the first claim
  BOOST_TEST(probe().live.empty());
  BOOST_TEST(log->started == 0);
  // Another replica's claim arrives first: b is ready, so it waits.
  event(event_type::modified, order(name, "2", "b"));
  advance(std::chrono::milliseconds(300));
  BOOST_TEST(writes->patches.size() == 1u);
  BOOST_TEST(probe().live.empty());
  // b releases it; the claim wins now and the order runs with the answer.
  writes->answer = order(name, "4", "a");
  event(event_type::modified, order(name, "3", ""));
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 2u);
  BOOST_TEST((patch(1) == std::pair<std::string, std::string>{"a", "3"}));
  BOOST_TEST(probe().live.size() == 1u);
  BOOST_TEST(log->started == 1);
  // The owned gauge counts it at once, not only at the order's next event.
  BOOST_TEST(owned_gauge() == "1");
  event(event_type::modified, order(name, "4", "a"));  // the informer catches up: nothing new
  BOOST_TEST(writes->patches.size() == 2u);
  BOOST_TEST(log->started == 1);
}

BOOST_FIXTURE_TEST_CASE(waits_for_a_ready_holder_and_takes_over_from_one_that_is_not, shard_fixture) {
  auto name = owned_by({"a", "b"}, "a");
  view({"a", "b"});
  event(event_type::added, order(name, "5", "b"));  // b still holds it: b drains and releases first
  BOOST_TEST(writes->patches.empty());
  BOOST_TEST(probe().live.empty());
  auto dead = owned_by({"a", "b"}, "a", 1);
  event(event_type::added, order(dead, "6", "c"));  // c has no ready Lease
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 1u);
  BOOST_TEST((patch(0) == std::pair<std::string, std::string>{"a", "6"}));
  BOOST_TEST(claims(0) == "2");  // c held it: never the first claim
  // Not mine and unclaimed, or held by its owner: nothing.
  auto other = owned_by({"a", "b"}, "b");
  event(event_type::added, order(other, "7", ""));
  event(event_type::added, order(owned_by({"a", "b"}, "b", 1), "8", "b"));
  BOOST_TEST(writes->patches.size() == 1u);
  BOOST_TEST(probe().live.empty());
}

// A takeover from a member that is no longer ready names it in the claim and
// runs at once; the host's cover shows the dead member's stamps once the
// rescope that brings them into this replica's caches is complete (the
// cluster actors answer the rescope then), so first passes starting from then
// on restamp from the cache (runner.cpp first_read).
BOOST_FIXTURE_TEST_CASE(a_takeover_names_its_previous_holder_and_the_cover_follows_the_rescope, shard_fixture) {
  view({"a", "b"});
  BOOST_TEST(!cover->shows("b"));
  writes->hold_rescopes = true;
  view({"a"});  // b's Lease ran out: everything is in scope once the move is complete
  BOOST_TEST(writes->held.size() == 1u);
  auto name = owned_by({"a"}, "a");
  writes->answer = order(name, "8", "a", "2", "b");
  event(event_type::added, order(name, "7", "b", "1"));
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 1u);
  BOOST_TEST((patch(0) == std::pair<std::string, std::string>{"a", "7"}));
  BOOST_TEST(claims(0) == "2");
  BOOST_TEST(annotation(0, shard::previous_annotation) == "b");
  BOOST_TEST(probe().live.size() == 1u);
  BOOST_TEST(!cover->shows("b"));  // the old scope's informer may still answer
  caf::anon_send(cluster, release_atom::value);
  run();
  BOOST_TEST(cover->shows("b"));
  // A later rescope not answered (yet): the cover stays as wide as both.
  view({"a", "b"});
  view({"a"});
  BOOST_TEST(!cover->shows("b"));
  caf::anon_send(cluster, release_atom::value);
  run();
  BOOST_TEST(cover->shows("b"));
  // A fresh order's claim names no previous holder.
  auto fresh = owned_by({"a"}, "a", 1);
  writes->answer = order(fresh, "10", "a", "1");
  auto before = writes->patches.size();
  event(event_type::added, order(fresh, "9", ""));
  BOOST_REQUIRE_EQUAL(writes->patches.size(), before + 1);
  BOOST_TEST(annotation(before, shard::previous_annotation).empty());
}

BOOST_FIXTURE_TEST_CASE(a_ring_change_drains_the_pass_in_flight_before_the_release, shard_fixture) {
  auto name = owned_by({"a", "b"}, "b");  // a owns it alone; b once it joins
  view({"a"});
  event(event_type::added, order(name, "3", "a"));
  BOOST_REQUIRE_EQUAL(probe().live.size(), 1u);
  BOOST_REQUIRE_EQUAL(log->running, 1);  // its pass is in flight (held by the gate)
  view({"a", "b"});
  auto p = probe();
  BOOST_TEST(p.retiring.size() == 1u);  // draining
  BOOST_TEST(writes->patches.empty());  // no release while the pass runs
  BOOST_REQUIRE(ask<bool>(gate, free_atom::value, order_key{}, pass_result::converged()));
  run();
  BOOST_TEST(log->finished == 1);
  BOOST_TEST(probe().live.empty());
  BOOST_TEST(probe().retiring.empty());
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 1u);
  BOOST_TEST((patch(0) == std::pair<std::string, std::string>{"", "3"}));
  BOOST_TEST(log->started == 1);  // no pass after the drain
}

BOOST_FIXTURE_TEST_CASE(a_lapsed_own_lease_drains_everything_and_writes_nothing, shard_fixture) {
  auto name = owned_by({"a"}, "a");
  view({"a"});
  event(event_type::added, order(name, "3", "a"));
  BOOST_REQUIRE_EQUAL(probe().live.size(), 1u);
  view({"b"}, false);  // my renewals failed: not self-ready
  BOOST_REQUIRE(ask<bool>(gate, free_atom::value, order_key{}, pass_result::converged()));
  run();
  BOOST_TEST(probe().live.empty());
  BOOST_TEST(writes->patches.empty());  // no release either: it may not write at all
  // Held again: its view of the order may be stale (another replica may have
  // taken it over meanwhile), so it claims it again with the resourceVersion
  // it has before it runs it; the claim holds, the order runs.
  writes->answer = order(name, "3", "a");
  view({"a"}, true);
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 1u);
  BOOST_TEST((patch(0) == std::pair<std::string, std::string>{"a", "3"}));
  BOOST_TEST(probe().live.size() == 1u);
  BOOST_TEST(log->started == 2);
}

// The healed partition: while its Lease had lapsed another replica (b) took
// the order over, and its own view still says "a" (its watches failed too).
// Held again, it runs nothing on that stale view: the claim with the old
// resourceVersion is refused (a conflict), and once the view catches up (b,
// ready, holds it) it waits for b's drain and release.
BOOST_FIXTURE_TEST_CASE(after_a_lapse_a_stale_view_of_its_own_order_runs_nothing, shard_fixture) {
  auto name = owned_by({"a", "b"}, "a");
  view({"a", "b"});
  writes->answer = order(name, "4", "a");
  event(event_type::added, order(name, "3", ""));  // claimed at rv 3, runs
  BOOST_REQUIRE_EQUAL(probe().live.size(), 1u);
  BOOST_REQUIRE(ask<bool>(gate, free_atom::value, order_key{}, pass_result::converged()));
  run();
  view({"b"}, false);  // lapsed: drained
  BOOST_TEST(probe().live.empty());
  writes->answer = {};  // b claimed it meanwhile: a claim at rv 4 conflicts
  view({"a", "b"}, true);
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 2u);
  BOOST_TEST((patch(1) == std::pair<std::string, std::string>{"a", "4"}));
  BOOST_TEST(probe().live.empty());
  BOOST_TEST(log->started == 1);
  event(event_type::modified, order(name, "6", "b"));  // the view catches up
  advance(std::chrono::seconds(1));
  BOOST_TEST(writes->patches.size() == 2u);
  BOOST_TEST(probe().live.empty());
  BOOST_TEST(log->started == 1);
}

// Scoped watches (shard/scope.hpp): the order kind's watch is narrowed to
// what the claim table may act on (unclaimed, its own, and the orders of
// members that are not ready), rescoped at each view in which its own Lease
// is held, and everything while it is alone.
BOOST_FIXTURE_TEST_CASE(the_order_watch_follows_the_other_ready_members, shard_fixture) {
  BOOST_TEST(writes->scopes.empty());  // the registrar's watches start with "in (a)"
  view({"a", "b"});
  view({"a"});
  view({"a", "b", "c"}, false);  // not held: a stale view changes nothing
  view({"a", "c"});
  view({"a", "c"});  // the same view: nothing new
  std::vector<std::string> expected{"c5c3.io/shard notin (b)", "", "c5c3.io/shard notin (c)"};
  BOOST_TEST(writes->scopes == expected, boost::test_tools::per_element());
}

// An order leaving the scope (another ready member holds it now) is not a
// deletion: its actor is drained (the pass in flight finishes), nothing is
// written (no release, no claim), no pass follows; when that member is no
// longer ready its order comes back into scope and is claimed.
BOOST_FIXTURE_TEST_CASE(a_selector_deleted_is_not_a_deletion, shard_fixture) {
  auto name = owned_by({"a"}, "a");
  view({"a"});
  auto held = order(name, "3", "a").edit();
  held.add_finalizer("c5c3.io/teardown");
  auto mine = std::move(held).freeze();
  event(event_type::added, mine);
  BOOST_REQUIRE_EQUAL(log->running, 1);  // its pass is in flight
  event(event_type::deleted, order(name, "5", "b"), true);
  BOOST_TEST(probe().retiring.size() == 1u);
  BOOST_REQUIRE(ask<bool>(gate, free_atom::value, order_key{}, pass_result::converged()));
  run();
  advance(std::chrono::seconds(1));
  BOOST_TEST(probe().live.empty());
  BOOST_TEST(probe().retiring.empty());
  BOOST_TEST(writes->patches.empty());
  BOOST_TEST(log->started == 1);
  // b is not ready any more: its orders are in scope again, and this one is claimed.
  writes->answer = order(name, "6", "a");
  event(event_type::added, order(name, "5", "b"));
  BOOST_REQUIRE_EQUAL(writes->patches.size(), 1u);
  BOOST_TEST((patch(0) == std::pair<std::string, std::string>{"a", "5"}));
  BOOST_TEST(probe().live.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
