// The runner sharded (issue 17's scoped watches), under CAF's test
// coordinator against the fake cluster: every write of one of the order's
// children carries this replica's stamp (c5c3.io/shard); an order actor's
// first pass reads its children from the API server and restamps the ones
// another holder stamped, once; its later passes read the cache. The only
// holder the order ever had (its claims count 1) reads the cache from the
// first pass; its second holder restamps from the cache once the caches show
// the stamps of the holder it took the order over from; a create refused as
// AlreadyExists (a child the scoped cache did not show) makes the next pass
// read the server and restamp. Unsharded, nothing of this happens.
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/runner/runner.hpp"
#include "actors/runtime/shard/lease_state.hpp"
#include "actors/runtime/shard/scope_cover.hpp"
#include "tests/rabbitmqvhost_actor/fake_world.hpp"
#include "tests/runner/widget_kind.hpp"
#include "tests/runtime/coordinator_fixture.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing {
namespace {

namespace rt = ::c5c3::runtime;

using widget::keys;  // the Widget kind's constants (widget_kind.hpp)

k8s::object child(const std::string& name, const std::string& holder) {
  k8s::object_builder b("v1", "ConfigMap", "tenant-a", name);
  b.set_label(keys.name, "w");
  b.set_label(keys.namespace_, "tenant-a");
  if (!holder.empty()) b.set_label(rt::shard::claim_label, holder);
  return std::move(b).freeze();
}

// Its children: ConfigMaps `kept` (there already) and `made` (created when
// missing); then done.
std::shared_ptr<rt::kind_declaration> stamping_kind() {
  auto k = std::make_shared<rt::kind_declaration>();
  k->controller = "widget";
  k->gvk = widget::gvk;
  k->keys = keys;
  k->admission = false;
  k->reads = {rt::children("maps", widget::configmap, keys, false)};
  k->plan = [](const rt::sense_snapshot& s) {
    rt::order_plan p;
    bool made = false;
    for (const auto& o : s.list("maps")) made = made || o.name() == "made";
    for (const auto& o : s.read_by_name) made = made || o.name() == "made";
    if (!made) p.writes = {rt::make_create(child("made", ""))};
    return p;
  };
  return k;
}

// In front of the fake cluster: what was listed from where, and each write.
// Its cache lists leave out what `unwatched` stamped, as the scoped watch of a
// replica leaves out the children of a ready other member.
struct spy_state {
  std::vector<std::string> lists;    // "cache" / "server"
  std::vector<std::string> writes;   // "create made a" (kind of write, name, stamp)
  std::string unwatched = "b";
};

caf::behavior spy(caf::stateful_actor<spy_state>* self, caf::actor cluster) {
  auto stamp = [](const k8s::object& o) { return std::string(o.label(rt::shard::claim_label).value_or("-")); };
  return {
      [self, cluster](protocol::list_request& r) -> caf::result<protocol::object_list> {
        self->state.lists.push_back(protocol::to_string(r.source));
        bool cache = r.source != protocol::read_from::server;
        auto rp = self->make_response_promise<protocol::object_list>();
        self->request(cluster, caf::infinite, std::move(r))
            .then(
                [self, rp, cache](protocol::object_list& l) mutable {
                  std::erase_if(l.items, [self, cache](const k8s::object& o) {
                    return cache && o.label(rt::shard::claim_label).value_or("") == self->state.unwatched;
                  });
                  rp.deliver(std::move(l));
                },
                [rp](caf::error& e) mutable { rp.deliver(std::move(e)); });
        return rp;
      },
      [self, cluster](protocol::get_request& r) { return self->delegate(cluster, std::move(r)); },
      [](const protocol::read_batch& b) { return all_uncached(b); },  // each list through the handler above
      [self, cluster, stamp](protocol::create_request& r) {
        self->state.writes.push_back("create " + std::string(r.obj.name()) + " " + stamp(r.obj));
        return self->delegate(cluster, std::move(r));
      },
      [self, cluster](protocol::patch_request& r) {
        auto d = k8s::parse_json(r.body);
        auto holder = d ? std::string(k8s::get_string(*d, {"metadata", "labels", rt::shard::claim_label})) : "";
        self->state.writes.push_back("patch " + r.ref.name + " " + holder);
        return self->delegate(cluster, std::move(r));
      },
  };
}

struct stamp_fixture : coordinator_fixture {
  std::shared_ptr<fake_store> store = std::make_shared<fake_store>();
  caf::actor cluster = keep(sys.spawn(fake_cluster, store));
  caf::actor watcher = keep(sys.spawn(spy, cluster));
  rt::runner_deps deps;
  caf::actor order;

  stamp_fixture() {
    held_by("");
    fake_store_put(*store, child("kept", "b"), false);  // the previous holder's stamp
    deps.clusters = keep(sys.spawn(fake_directory, watcher));
  }
  // The order as the claims left it: held by `holder` (none: "") after
  // `claims` claims (none: no count).
  void held_by(const std::string& holder, const std::string& claims = "", const std::string& previous = "") {
    k8s::object_builder b(*k8s::parse_json(R"({"apiVersion":"test.c5c3.io/v1","kind":"Widget",
      "metadata":{"name":"w","namespace":"tenant-a"},"spec":{"x":1}})"));
    if (!holder.empty()) b.set_label(rt::shard::claim_label, holder);
    if (!claims.empty()) b.set_annotation(rt::shard::claims_annotation, claims);
    if (!previous.empty()) b.set_annotation(rt::shard::previous_annotation, previous);
    fake_store_put(*store, std::move(b).freeze(), false);
  }
  void pass() {
    if (!order) {
      rt::order_actor_config cfg;
      cfg.key = {"", "tenant-a", "w"};
      cfg.pass = rt::make_runner_pass(stamping_kind(), deps);
      order = keep(rt::spawn_order_actor(sys, std::move(cfg)));
    }
    self->send(order, protocol::order_update{*store->get("Widget", "tenant-a", "w"), true});
    run();
  }
  spy_state& seen() {
    auto* r = caf::actor_cast<caf::abstract_actor*>(watcher);
    return static_cast<caf::stateful_actor<spy_state>*>(r)->state;
  }
  std::string holder(const std::string& name) {
    return std::string(store->get("ConfigMap", "tenant-a", name)->label(rt::shard::claim_label).value_or("-"));
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_shard_stamp)

BOOST_FIXTURE_TEST_CASE(the_first_pass_reads_from_the_server_and_restamps_once, stamp_fixture) {
  deps.shard_name = "a";
  pass();
  std::vector<std::string> lists{"server"};
  BOOST_TEST(seen().lists == lists, boost::test_tools::per_element());
  std::vector<std::string> writes{"patch kept a", "create made a"};
  BOOST_TEST(seen().writes == writes, boost::test_tools::per_element());
  BOOST_TEST(holder("kept") == "a");
  BOOST_TEST(holder("made") == "a");
  // Later passes read the cache and write nothing more.
  pass();
  pass();
  lists = {"server", "cache", "cache"};
  BOOST_TEST(seen().lists == lists, boost::test_tools::per_element());
  BOOST_TEST(seen().writes == writes, boost::test_tools::per_element());
}

BOOST_FIXTURE_TEST_CASE(a_later_holder_restamps_on_its_first_pass, stamp_fixture) {
  for (const auto& claims : {"2", "", "x"}) {  // a second claim; none recorded; unreadable
    BOOST_TEST_CONTEXT("claims " << claims) {
      stamp_fixture f;
      f.deps.shard_name = "a";
      f.held_by("a", claims);
      f.pass();
      std::vector<std::string> lists{"server"};
      BOOST_TEST(f.seen().lists == lists, boost::test_tools::per_element());
      BOOST_TEST(f.holder("kept") == "a");
    }
  }
}

BOOST_FIXTURE_TEST_CASE(the_only_holder_ever_reads_the_cache_from_the_first_pass, stamp_fixture) {
  deps.shard_name = "a";
  held_by("a", "1");
  fake_store_put(*store, child("kept", "a"), false);
  pass();
  pass();
  std::vector<std::string> lists{"cache", "cache"};
  BOOST_TEST(seen().lists == lists, boost::test_tools::per_element());
  std::vector<std::string> writes{"create made a"};
  BOOST_TEST(seen().writes == writes, boost::test_tools::per_element());
}

BOOST_FIXTURE_TEST_CASE(a_create_refused_as_existing_makes_the_next_pass_restamp, stamp_fixture) {
  // The claims count says "only holder", yet a child stamped by b is there
  // (the order deleted and made again before b's child was gone): the cache
  // does not show it, the create is refused, and the next pass reads the
  // server and restamps it.
  deps.shard_name = "a";
  held_by("a", "1");
  fake_store_put(*store, child("made", "b"), false);
  pass();
  std::vector<std::string> lists{"cache"};
  BOOST_TEST(seen().lists == lists, boost::test_tools::per_element());
  std::vector<std::string> writes{"create made a"};
  BOOST_TEST(seen().writes == writes, boost::test_tools::per_element());
  BOOST_TEST(holder("made") == "b");
  pass();
  pass();
  lists = {"cache", "server", "cache"};
  BOOST_TEST(seen().lists == lists, boost::test_tools::per_element());
  writes = {"create made a", "patch kept a", "patch made a"};
  BOOST_TEST(seen().writes == writes, boost::test_tools::per_element());
  BOOST_TEST(holder("made") == "a");
}

// The second holder, which took the order over from b: its children carry
// b's stamp or its own. When the caches show b's stamps (b is not ready and
// the rescope that brought them into scope is complete) its first pass
// restamps from the cache; while they may still hide them, from the server.
BOOST_FIXTURE_TEST_CASE(a_takeover_restamps_from_the_cache_once_it_shows_the_previous_holder, stamp_fixture) {
  struct row {
    std::vector<std::string> ready;  // the view's ready members
    bool settled;                    // the rescope to it complete
    std::string unwatched;           // whose stamps the spy's cache hides
    std::vector<std::string> lists;
  };
  for (const auto& r : {row{{"a", "c"}, true, "c", {"cache", "cache"}},
                        row{{"a", "c"}, false, "b", {"server", "cache"}},
                        row{{"a", "b", "c"}, true, "b", {"server", "cache"}}}) {
    BOOST_TEST_CONTEXT("ready " << r.ready.size() << ", settled " << r.settled) {
      stamp_fixture f;
      f.seen().unwatched = r.unwatched;
      auto cover = std::make_shared<rt::shard::scope_cover>(rt::shard::scope_of("a", nullptr));
      protocol::shard_view v{r.ready, true, 1, {}};
      cover->asked(rt::shard::scope_of("a", &v));
      if (r.settled) cover->settled(rt::shard::scope_of("a", &v));
      f.deps.cover = cover;
      f.deps.shard_name = "a";
      f.held_by("a", "2", "b");
      f.pass();
      f.pass();
      BOOST_TEST(f.seen().lists == r.lists, boost::test_tools::per_element());
      std::vector<std::string> writes{"patch kept a", "create made a"};
      BOOST_TEST(f.seen().writes == writes, boost::test_tools::per_element());
      BOOST_TEST(f.holder("kept") == "a");
    }
  }
}

BOOST_FIXTURE_TEST_CASE(unsharded_nothing_is_stamped_or_read_from_the_server, stamp_fixture) {
  pass();
  pass();
  std::vector<std::string> lists{"cache", "cache"};
  BOOST_TEST(seen().lists == lists, boost::test_tools::per_element());
  std::vector<std::string> writes{"create made -"};
  BOOST_TEST(seen().writes == writes, boost::test_tools::per_element());
  BOOST_TEST(holder("kept") == "b");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
