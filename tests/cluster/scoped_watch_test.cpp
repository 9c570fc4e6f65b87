// Scoped subscriptions (protocol::rescope_request) against the emulator:
// objects entering and leaving the scope by relabelling, a rescope telling
// only the difference (staying synced meanwhile), a scoped cache answering a
// narrower list, and an unscoped informer of the kind preferred for reads.
#include "protocol/clusters.hpp"
#include "tests/cluster/cluster_fixture.hpp"

namespace c5c3::testing {

using namespace cluster_tests;
using namespace std::chrono_literals;

namespace {

k8s::object held_by(const std::string& name, const std::string& holder) {
  k8s::object_builder b("v1", "ConfigMap", "default", name);
  if (!holder.empty()) b.set_label("c5c3.io/shard", holder);
  return std::move(b).freeze();
}

// "+x -y ~z" for the object events in `log` of subscription `sid` (deleted
// out of scope: "!y").
std::string events_of(const std::vector<note>& log, std::uint64_t sid) {
  std::string out;
  for (const auto& n : log) {
    const auto* e = std::get_if<protocol::object_event>(&n);
    if (e == nullptr || e->subscription.value != sid) continue;
    const char* t = e->type == protocol::event_type::added      ? "+"
                    : e->type == protocol::event_type::modified ? "~"
                    : e->out_of_scope                           ? "!"
                                                                : "-";
    out += (out.empty() ? "" : " ") + std::string(t) + std::string(e->obj.name());
  }
  return out;
}

// Everything the cluster actor sent before it answers now: what a rescope
// told, with nothing left in flight.
void settle(cluster_fixture& f, caf::scoped_actor& self, std::vector<note>& log) {
  BOOST_TEST_REQUIRE(static_cast<bool>(f.ask<bool>(self, protocol::synced_atom::value)));
  bool more = true;
  while (more)
    self->receive([&](protocol::object_event& e) { log.emplace_back(std::move(e)); },
                  [&](protocol::informer_synced& e) { log.emplace_back(std::move(e)); },
                  [&](protocol::kind_availability& e) { log.emplace_back(std::move(e)); },
                  caf::after(0ms) >> [&] { more = false; });
}

// Creates each (name, holder) ConfigMap in default, subscribes `self` to
// default's ConfigMaps scoped to "c5c3.io/shard in (a)" and waits until the
// subscription is synced (its events in `log`). Returns its id.
std::uint64_t subscribe_to_a(cluster_fixture& f, caf::scoped_actor& self,
                             std::initializer_list<std::pair<const char*, const char*>> objects,
                             std::vector<note>& log) {
  for (auto [name, holder] : objects)
    BOOST_TEST_REQUIRE(static_cast<bool>(f.ask<k8s::object>(self, protocol::create_request{held_by(name, holder), {}})));
  protocol::subscribe_request req{configmap_kind, "default", "", caf::actor{self}, false};
  req.scoped = true;
  req.scope = "c5c3.io/shard in (a)";
  auto sub = f.ask<protocol::subscription_id>(self, req);
  BOOST_TEST_REQUIRE(static_cast<bool>(sub));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));
  return sub->value;
}

std::function<bool(const std::vector<note>&)> told(std::uint64_t sid, std::string expected) {
  return [sid, expected](const std::vector<note>& log) { return events_of(log, sid) == expected; };
}

// ConfigMap lists answered 300 ms late: a new scope's informer lists meanwhile.
void slow_lists(sim::apiserver& server) {
  sim::fault_rule slow_list;
  slow_list.verb = "list";
  slow_list.resource = "configmaps";
  slow_list.latency = 300ms;
  server.add_fault(slow_list);
}

// The rescope of `self`'s subscriptions to every member's but b's.
protocol::rescope_request not_b(caf::scoped_actor& self) {
  return protocol::rescope_request{caf::actor{self}, "c5c3.io/shard notin (b)"};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scoped_watch)

BOOST_FIXTURE_TEST_CASE(a_rescope_tells_only_the_difference, cluster_fixture) {
  caf::scoped_actor self{sys};
  // Before the first view: only its own.
  std::vector<note> log;
  auto sid = subscribe_to_a(*this, self, {{"a1", "a"}, {"b1", "b"}, {"c1", "c"}, {"u1", ""}}, log);
  BOOST_TEST(events_of(log, sid) == "+a1");

  // The cache answers as if it held every ConfigMap: a narrower list (its own
  // share) from the cache even when the server refuses lists.
  sim::fault_rule no_lists;
  no_lists.verb = "list";
  no_lists.resource = "configmaps";
  no_lists.status_code = 403;
  server.add_fault(no_lists);
  auto mine = ask<protocol::object_list>(
      self, protocol::list_request{configmap_kind, "default", "c5c3.io/shard=a", "", protocol::read_from::cache});
  BOOST_TEST_REQUIRE(static_cast<bool>(mine), why(sys, mine));
  BOOST_TEST_REQUIRE(mine->items.size() == 1u);
  BOOST_TEST(mine->items.front().name() == "a1");
  server.clear_faults();

  // Every member but b: told what entered (c1, u1), nothing about a1; synced all along.
  log.clear();
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<protocol::ok_atom>(self, not_b(self))));
  auto synced = ask<bool>(self, protocol::synced_atom::value);
  BOOST_TEST_REQUIRE(static_cast<bool>(synced));
  BOOST_TEST(*synced);
  BOOST_TEST_REQUIRE(receive_until(self, log, told(sid, "+c1 +u1")));
  settle(*this, self, log);
  BOOST_TEST(events_of(log, sid) == "+c1 +u1");

  // Relabelled into the scope and out of it: the watch says so.
  log.clear();
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
      self, protocol::patch_request{{configmap_kind, "default", "b1"}, protocol::patch_type::merge,
                                    R"({"metadata":{"labels":{"c5c3.io/shard":"a"}}})", "", {}})));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_event(protocol::event_type::added, "b1")));
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
      self, protocol::patch_request{{configmap_kind, "default", "c1"}, protocol::patch_type::merge,
                                    R"({"metadata":{"labels":{"c5c3.io/shard":"b"}}})", "", {}})));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_event(protocol::event_type::deleted, "c1")));

  // Back to its own: u1 left the scope (not deleted); a1 and b1 stay unsaid.
  log.clear();
  BOOST_TEST_REQUIRE(static_cast<bool>(
      ask<protocol::ok_atom>(self, protocol::rescope_request{caf::actor{self}, "c5c3.io/shard in (a)"})));
  BOOST_TEST_REQUIRE(receive_until(self, log, told(sid, "!u1")));
  settle(*this, self, log);
  BOOST_TEST(events_of(log, sid) == "!u1");
  auto u1 = ask<k8s::object>(self, protocol::get_request{{configmap_kind, "default", "u1"}, protocol::read_from::server});
  BOOST_TEST(static_cast<bool>(u1));  // still there
}

BOOST_FIXTURE_TEST_CASE(a_deletion_while_the_new_scope_lists_is_told_once, cluster_fixture) {
  caf::scoped_actor self{sys};
  std::vector<note> log;
  auto sid = subscribe_to_a(*this, self, {{"a1", "a"}, {"a2", "a"}, {"c1", "c"}}, log);
  // The new scope's list is held back while a2 is deleted: the old watch tells it; the move does not again.
  slow_lists(server);
  log.clear();
  // Asked by another actor: the answer comes once the move is complete.
  caf::scoped_actor asker{sys};
  auto rescoped = asker->request(cluster, deadline, not_b(self));
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
      self, protocol::delete_request{{configmap_kind, "default", "a2"}, "", "", protocol::propagation::background})));
  BOOST_TEST_REQUIRE(receive_until(self, log, told(sid, "-a2 +c1")));
  bool answered = false;
  rescoped.receive([&](protocol::ok_atom) { answered = true; }, [&](caf::error&) {});
  BOOST_TEST(answered);
  settle(*this, self, log);
  BOOST_TEST(events_of(log, sid) == "-a2 +c1");
  server.clear_faults();
}

// The rescope is answered once the subscriber has been told the difference
// (the new scope's informer has its list): from then on its cache reads see
// the new scope (the order host's takeovers wait for it: scope_cover.hpp).
BOOST_FIXTURE_TEST_CASE(a_rescope_is_answered_once_the_move_is_complete, cluster_fixture) {
  caf::scoped_actor self{sys};
  std::vector<note> log;
  auto sid = subscribe_to_a(*this, self, {{"a1", "a"}, {"c1", "c"}}, log);
  slow_lists(server);
  log.clear();
  caf::scoped_actor asker{sys};
  bool answered = false;
  asker->request(cluster, deadline, not_b(self))
      .receive([&](protocol::ok_atom) { answered = true; }, [&](caf::error&) {});
  BOOST_TEST_REQUIRE(answered);
  // What the move told is in the subscriber's mailbox already.
  settle(*this, self, log);
  BOOST_TEST(events_of(log, sid) == "+c1");
  auto c1 = ask<protocol::object_list>(
      self, protocol::list_request{configmap_kind, "default", "c5c3.io/shard=c", "", protocol::read_from::cache});
  BOOST_TEST_REQUIRE(static_cast<bool>(c1), why(sys, c1));
  BOOST_TEST(c1->items.size() == 1u);
  server.clear_faults();
}

BOOST_FIXTURE_TEST_CASE(an_unscoped_informer_of_the_kind_answers_reads_first, cluster_fixture) {
  caf::scoped_actor self{sys};
  for (auto [name, holder] : {std::pair{"a1", "a"}, std::pair{"b1", "b"}})
    BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{held_by(name, holder), {}})));
  protocol::subscribe_request scoped{configmap_kind, "default", "", caf::actor{self}, false};
  scoped.scoped = true;
  scoped.scope = "c5c3.io/shard in (a)";
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<protocol::subscription_id>(self, scoped)));
  std::vector<note> log;
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));
  // The scoped cache alone: b1 is not in it (the cache answers for its share only).
  auto b1 = ask<k8s::object>(self, protocol::get_request{{configmap_kind, "default", "b1"}});
  BOOST_TEST_REQUIRE(!b1);
  BOOST_TEST(protocol::is_not_found(b1.error()));
  // An unscoped informer of the kind (another kind's reads): it answers.
  auto all = ask<protocol::subscription_id>(
      self, protocol::subscribe_request{configmap_kind, "default", "", caf::actor{self}, false});
  BOOST_TEST_REQUIRE(static_cast<bool>(all));
  log.clear();
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));
  b1 = ask<k8s::object>(self, protocol::get_request{{configmap_kind, "default", "b1"}});
  BOOST_TEST_REQUIRE(static_cast<bool>(b1), why(sys, b1));
  BOOST_TEST(b1->label("c5c3.io/shard").value_or("") == "b");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
