// Projected subscriptions (subscribe_request::drop, issue 19) against the
// emulator: the informer's events and cache leave the fields out, its cache
// answers only reads that do without them (others go to the API server), a
// subscription without the projection gets an informer of its own, and a
// projection that does not parse is refused.
#include "protocol/clusters.hpp"
#include "tests/cluster/cluster_fixture.hpp"

namespace c5c3::testing {

using namespace cluster_tests;
using namespace std::chrono_literals;

namespace {

k8s::object labelled(const std::string& name) {
  k8s::object_builder b("v1", "ConfigMap", "default", name);
  b.set_label("app", "p");
  b.set_annotation("keep", "k");
  b.set_annotation("drop.me/x", "d");
  b.set_string({"data", "a"}, "1");
  b.set_string({"data", "b"}, "2");
  return std::move(b).freeze();
}

// Given in another order than the canonical one: the cluster actor sorts it.
std::vector<std::string> projection() { return {R"(metadata.annotations."drop.me/x")", "data.b"}; }

bool projected(const k8s::object& o) {
  return o.get_string({"data", "a"}) != "" && o.get({"data", "b"}) == nullptr && !o.annotation("drop.me/x") &&
         o.annotation("keep").value_or("") == "k";
}

const protocol::object_event* event_of(const std::vector<note>& log, std::uint64_t sid, protocol::event_type t) {
  for (const auto& n : log) {
    const auto* e = std::get_if<protocol::object_event>(&n);
    if (e != nullptr && e->subscription.value == sid && e->type == t) return e;
  }
  return nullptr;
}

std::function<bool(const std::vector<note>&)> synced(std::uint64_t sid) {
  return [sid](const std::vector<note>& log) {
    for (const auto& n : log) {
      const auto* s = std::get_if<protocol::informer_synced>(&n);
      if (s != nullptr && s->subscription.value == sid) return true;
    }
    return false;
  };
}

sim::fault_rule no_lists() {
  sim::fault_rule r;
  r.verb = "list";
  r.resource = "configmaps";
  r.status_code = 403;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(projected_watch)

BOOST_FIXTURE_TEST_CASE(a_projected_cache_leaves_its_fields_out, cluster_fixture) {
  caf::scoped_actor self{sys};
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{labelled("p1"), {}})));
  protocol::subscribe_request req{configmap_kind, "default", "app=p", caf::actor{self}, false};
  req.drop = projection();
  auto sub = ask<protocol::subscription_id>(self, req);
  BOOST_TEST_REQUIRE(static_cast<bool>(sub), why(sys, sub));
  const auto sid = sub->value;
  std::vector<note> log;
  BOOST_TEST_REQUIRE(receive_until(self, log, synced(sid)));
  const auto* added = event_of(log, sid, protocol::event_type::added);
  BOOST_TEST_REQUIRE(added != nullptr);
  BOOST_TEST(projected(added->obj), added->obj.to_json());

  // A list that does without the fields is answered from the cache (the
  // server refuses lists meanwhile); one that needs them is not: it goes to
  // the server (refused here), then answers whole.
  server.add_fault(no_lists());
  protocol::list_request accepting{configmap_kind, "default", "app=p", "", protocol::read_from::cache};
  accepting.drop = {"data.b", R"(metadata.annotations."drop.me/x")", "data.c"};
  auto cached = ask<protocol::object_list>(self, accepting);
  BOOST_TEST_REQUIRE(static_cast<bool>(cached), why(sys, cached));
  BOOST_TEST_REQUIRE(cached->items.size() == 1u);
  BOOST_TEST(projected(cached->items.front()));
  protocol::list_request needing{configmap_kind, "default", "app=p", "", protocol::read_from::cache};
  needing.drop = {"data.b"};  // the annotation is needed
  BOOST_TEST(!ask<protocol::object_list>(self, needing));
  server.clear_faults();
  auto whole = ask<protocol::object_list>(self, needing);
  BOOST_TEST_REQUIRE(static_cast<bool>(whole), why(sys, whole));
  BOOST_TEST_REQUIRE(whole->items.size() == 1u);
  BOOST_TEST(whole->items.front().annotation("drop.me/x").value_or("") == "d");
  BOOST_TEST(whole->items.front().get_string({"data", "b"}) == "2");

  // A change: both versions without the fields.
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
      self, protocol::patch_request{{configmap_kind, "default", "p1"}, protocol::patch_type::merge,
                                    R"({"data":{"a":"3","b":"4"}})", "", {}})));
  BOOST_TEST_REQUIRE(receive_until(self, log, [sid](const std::vector<note>& l) {
    return event_of(l, sid, protocol::event_type::modified) != nullptr;
  }));
  const auto* modified = event_of(log, sid, protocol::event_type::modified);
  BOOST_TEST(projected(modified->obj));
  BOOST_TEST(modified->obj.get_string({"data", "a"}) == "3");
  BOOST_TEST(projected(modified->old));

  // The same selector without the projection: an informer of its own, whole
  // objects, and its cache answers the reads that need every field.
  protocol::subscribe_request full{configmap_kind, "default", "app=p", caf::actor{self}, false};
  auto sub2 = ask<protocol::subscription_id>(self, full);
  BOOST_TEST_REQUIRE(static_cast<bool>(sub2), why(sys, sub2));
  BOOST_TEST_REQUIRE(receive_until(self, log, synced(sub2->value)));
  const auto* whole_added = event_of(log, sub2->value, protocol::event_type::added);
  BOOST_TEST_REQUIRE(whole_added != nullptr);
  BOOST_TEST(whole_added->obj.get_string({"data", "b"}) == "4");
  server.add_fault(no_lists());
  auto from_full = ask<protocol::object_list>(self, needing);
  BOOST_TEST_REQUIRE(static_cast<bool>(from_full), why(sys, from_full));
  BOOST_TEST_REQUIRE(from_full->items.size() == 1u);
  BOOST_TEST(from_full->items.front().annotation("drop.me/x").value_or("") == "d");
  server.clear_faults();
}

BOOST_FIXTURE_TEST_CASE(a_projection_that_does_not_parse_is_refused, cluster_fixture) {
  caf::scoped_actor self{sys};
  protocol::subscribe_request req{configmap_kind, "default", "", caf::actor{self}, false};
  req.drop = {"data..b"};
  auto sub = ask<protocol::subscription_id>(self, req);
  BOOST_TEST_REQUIRE(!sub);
  BOOST_TEST(why(sys, sub).find("data..b") != std::string::npos, why(sys, sub));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
