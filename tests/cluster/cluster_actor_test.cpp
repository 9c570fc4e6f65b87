// The cluster actor against the in-process API server emulator over TLS:
// every request kind round-trips, cache reads after sync, subscriber events,
// optional kinds following their CRD. CAF's normal scheduler; every wait is a
// bounded receive.
#include "actors/runtime/metrics.hpp"
#include "tests/cluster/cluster_fixture.hpp"
#include "tests/relist_only.hpp"

namespace c5c3::testing {

using namespace cluster_tests;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(cluster_actor)

BOOST_FIXTURE_TEST_CASE(every_request_kind_round_trips, cluster_fixture) {
  caf::scoped_actor self{sys};
  protocol::resource_ref ref{configmap_kind, "default", "rt"};

  auto created = ask<k8s::object>(self, protocol::create_request{configmap("rt", "one"), {"test", false}});
  BOOST_TEST_REQUIRE(static_cast<bool>(created), why(sys, created));
  BOOST_TEST(created->get_string({"data", "value"}) == "one");
  BOOST_TEST(!created->uid().empty());

  auto again = ask<k8s::object>(self, protocol::create_request{configmap("rt", "one"), {}});
  BOOST_TEST_REQUIRE(!again);
  BOOST_TEST((protocol::api_errc_of(again.error()) == protocol::api_errc::already_exists));
  BOOST_TEST_REQUIRE(protocol::api_error_of(again.error()).has_value());
  BOOST_TEST(protocol::api_error_of(again.error())->code == 409);

  auto got = ask<k8s::object>(self, protocol::get_request{ref, protocol::read_from::server});
  BOOST_TEST_REQUIRE(static_cast<bool>(got));
  BOOST_TEST(got->uid() == created->uid());

  auto edited = got->edit();
  edited.set_string({"data", "value"}, "two");
  auto updated = ask<k8s::object>(self, protocol::update_request{std::move(edited).freeze(), "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(updated));
  BOOST_TEST(updated->get_string({"data", "value"}) == "two");

  // A stale resourceVersion conflicts.
  auto stale = ask<k8s::object>(self, protocol::update_request{*got, "", {}});
  BOOST_TEST_REQUIRE(!stale);
  BOOST_TEST(protocol::is_conflict(stale.error()));

  auto patched = ask<k8s::object>(
      self, protocol::patch_request{ref, protocol::patch_type::merge, R"({"data":{"value":"three"}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(patched));
  BOOST_TEST(patched->get_string({"data", "value"}) == "three");

  auto jsonp = ask<k8s::object>(
      self, protocol::patch_request{ref, protocol::patch_type::json,
                                    R"([{"op":"replace","path":"/data/value","value":"four"}])", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(jsonp));
  BOOST_TEST(jsonp->get_string({"data", "value"}) == "four");

  auto applied = ask<k8s::object>(self, protocol::apply_request{configmap("rt", "five"), "", true, {"test", false}});
  BOOST_TEST_REQUIRE(static_cast<bool>(applied), why(sys, applied));
  BOOST_TEST(applied->get_string({"data", "value"}) == "five");

  // The server keeps managedFields; no answer of the cluster actor carries them.
  bool stored_with_fields = false;
  for (const auto& o : server.list_objects("configmaps", "default"))
    if (o.name() == "rt") stored_with_fields = has_managed_fields(o);
  BOOST_TEST(stored_with_fields);
  for (const auto* o : {&*created, &*got, &*updated, &*patched, &*jsonp, &*applied})
    BOOST_TEST(!has_managed_fields(*o), o->resource_version());

  auto listed = ask<protocol::object_list>(
      self, protocol::list_request{configmap_kind, "default", "", "", protocol::read_from::server});
  BOOST_TEST_REQUIRE(static_cast<bool>(listed));
  bool found = false;
  for (const auto& o : listed->items) found = found || o.name() == "rt";
  BOOST_TEST(found);
  BOOST_TEST(!listed->resource_version.empty());
  for (const auto& o : listed->items) BOOST_TEST(!has_managed_fields(o), o.name());
  // No informer: a cache list with a field selector on data goes to the
  // server without it and is narrowed here (an API server selects only a
  // kind's own fields).
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap("other", "six"), {}})));
  auto narrowed = ask<protocol::object_list>(
      self, protocol::list_request{configmap_kind, "default", "", "data.value=five", protocol::read_from::cache});
  BOOST_TEST_REQUIRE(static_cast<bool>(narrowed), why(sys, narrowed));
  BOOST_TEST_REQUIRE(narrowed->items.size() == 1u);
  BOOST_TEST(narrowed->items.front().name() == "rt");

  auto deleted = ask<k8s::object>(self, protocol::delete_request{ref, "", "", protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(deleted));
  auto gone = ask<k8s::object>(self, protocol::get_request{ref, protocol::read_from::server});
  BOOST_TEST_REQUIRE(!gone);
  BOOST_TEST(protocol::is_not_found(gone.error()));
  // No informer yet: a cache read goes to the server too.
  auto gone_cached = ask<k8s::object>(self, protocol::get_request{ref, protocol::read_from::cache});
  BOOST_TEST_REQUIRE(!gone_cached);
  BOOST_TEST(protocol::is_not_found(gone_cached.error()));

  auto unserved = ask<k8s::object>(
      self, protocol::get_request{{widget_kind, "default", "w"}, protocol::read_from::server});
  BOOST_TEST_REQUIRE(!unserved);
  BOOST_TEST(protocol::is_no_match(unserved.error()));

  auto kinds = ask<std::vector<k8s::gvk>>(self, cluster::discover_atom::value);
  BOOST_TEST_REQUIRE(static_cast<bool>(kinds));
  bool has_cm = false;
  for (const auto& k : *kinds) has_cm = has_cm || k == configmap_kind;
  BOOST_TEST(has_cm);
}

// c5c3_informer_events_total of the management cluster's ConfigMaps.
double configmap_events(const char* type) {
  return c5c3::runtime::metrics::default_registry()
      .counter("c5c3_informer_events_total", "", {"cluster", "kind", "type"})
      .with({"", "ConfigMap", type})
      .value();
}

BOOST_FIXTURE_TEST_CASE(subscriber_sees_events_and_cache_answers_after_sync, cluster_fixture) {
  caf::scoped_actor self{sys};
  const double added = configmap_events("added"), modified = configmap_events("modified"),
               deleted = configmap_events("deleted");
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap("pre", "0"), {}})));

  auto sub = ask<protocol::subscription_id>(
      self, protocol::subscribe_request{configmap_kind, "default", "", caf::actor{self}, false});
  BOOST_TEST_REQUIRE(static_cast<bool>(sub));
  std::vector<note> log;
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));
  BOOST_TEST(has_event(protocol::event_type::added, "pre")(log));

  // The server no longer answers reads of this kind: the cache does.
  sim::fault_rule no_reads;
  no_reads.verb = "get";
  no_reads.resource = "configmaps";
  no_reads.status_code = 403;
  server.add_fault(no_reads);
  auto cached = ask<k8s::object>(self, protocol::get_request{{configmap_kind, "default", "pre"}});
  BOOST_TEST_REQUIRE(static_cast<bool>(cached), why(sys, cached));
  BOOST_TEST(cached->get_string({"data", "value"}) == "0");
  BOOST_TEST(!has_managed_fields(*cached));  // the informer's transform stripped them
  auto missing = ask<k8s::object>(self, protocol::get_request{{configmap_kind, "default", "none"}});
  BOOST_TEST_REQUIRE(!missing);
  BOOST_TEST(protocol::is_not_found(missing.error()));
  auto from_server = ask<k8s::object>(
      self, protocol::get_request{{configmap_kind, "default", "pre"}, protocol::read_from::server});
  BOOST_TEST_REQUIRE(!from_server);
  BOOST_TEST((protocol::api_errc_of(from_server.error()) == protocol::api_errc::forbidden));
  auto cached_list = ask<protocol::object_list>(self, protocol::list_request{configmap_kind, "default", "", "", protocol::read_from::cache});
  BOOST_TEST_REQUIRE(static_cast<bool>(cached_list));
  BOOST_TEST(cached_list->items.size() == 1u);
  // Narrowed by a field: from the cache's field index.
  for (auto [selector, n] : {std::pair{"data.value=0", 1u}, std::pair{"data.value=1", 0u}}) {
    auto by_field = ask<protocol::object_list>(
        self, protocol::list_request{configmap_kind, "default", "", selector, protocol::read_from::cache});
    BOOST_TEST_REQUIRE(static_cast<bool>(by_field));
    BOOST_TEST(by_field->items.size() == n, selector);
  }
  server.clear_faults();

  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap("ev", "a"), {}})));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_event(protocol::event_type::added, "ev", "a")));
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
      self, protocol::patch_request{{configmap_kind, "default", "ev"}, protocol::patch_type::merge,
                                    R"({"data":{"value":"b"}})", "", {}})));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_event(protocol::event_type::modified, "ev", "b")));
  for (const auto& n : log) {
    const auto* e = std::get_if<protocol::object_event>(&n);
    if (e != nullptr && e->type == protocol::event_type::modified && e->obj.name() == "ev") {
      BOOST_TEST(e->old.get_string({"data", "value"}) == "a");
      BOOST_TEST(e->subscription.value == sub->value);
    }
  }
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
      self, protocol::delete_request{{configmap_kind, "default", "ev"}, "", "", protocol::propagation::background})));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_event(protocol::event_type::deleted, "ev")));
  // Counted as passed on: "pre" listed and "ev" watched.
  BOOST_TEST(configmap_events("added") - added == 2.0);
  BOOST_TEST(configmap_events("modified") - modified == 1.0);
  BOOST_TEST(configmap_events("deleted") - deleted == 1.0);
  for (const auto& n : log) {
    const auto* e = std::get_if<protocol::object_event>(&n);
    if (e == nullptr) continue;
    BOOST_TEST(!has_managed_fields(e->obj), e->obj.name());
    BOOST_TEST(!has_managed_fields(e->old), e->obj.name());
  }

  auto ok = ask<protocol::ok_atom>(self, protocol::unsubscribe_request{*sub});
  BOOST_TEST(static_cast<bool>(ok));
}

// The informer keeps no store of its own: the cluster actor's cache is the
// one, and a relist after 410 Gone becomes, against it, the events the
// subscriber missed: deletions first, then additions, then updates (with
// the version it had as old); what did not change makes no event.
BOOST_FIXTURE_TEST_CASE(a_relist_after_gone_tells_the_subscriber_what_it_missed, cluster_fixture) {
  caf::scoped_actor self{sys};
  for (const char* name : {"keep", "change", "gone"})
    BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap(name, "0"), {}})));
  auto sub = ask<protocol::subscription_id>(
      self, protocol::subscribe_request{configmap_kind, "default", "", caf::actor{self}, false});
  BOOST_TEST_REQUIRE(static_cast<bool>(sub));
  std::vector<note> log;
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));
  // The watch is open once an event came through it (synced says only that
  // the list was answered): relist_only ends the watches open when it is
  // called, and one opened later would hold its events for good.
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap("open", "0"), {}})));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_event(protocol::event_type::added, "open")));
  log.clear();

  // The changes come only through the list that follows the watch's 410.
  relist_only(server, "configmaps", [&] {
    BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
        self, protocol::patch_request{{configmap_kind, "default", "change"}, protocol::patch_type::merge,
                                      R"({"data":{"value":"1"}})", "", {}})));
    BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
        self, protocol::delete_request{{configmap_kind, "default", "gone"}, "", "", protocol::propagation::background})));
    BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap("fresh", "0"), {}})));
  });

  auto all = [](const std::vector<note>& l) {
    return has_event(protocol::event_type::deleted, "gone")(l) && has_event(protocol::event_type::added, "fresh")(l) &&
           has_event(protocol::event_type::modified, "change", "1")(l);
  };
  BOOST_TEST_REQUIRE(receive_until(self, log, all));
  server.clear_faults();
  std::vector<std::string> seen;
  for (const auto& n : log) {
    const auto* e = std::get_if<protocol::object_event>(&n);
    if (e == nullptr) continue;
    seen.push_back(std::string(e->type == protocol::event_type::deleted   ? "DELETED "
                               : e->type == protocol::event_type::added ? "ADDED "
                                                                          : "MODIFIED ") +
                   std::string(e->obj.name()));
    if (e->type == protocol::event_type::modified) BOOST_TEST(e->old.get_string({"data", "value"}) == "0");
  }
  const std::vector<std::string> want{"DELETED gone", "ADDED fresh", "MODIFIED change"};
  BOOST_TEST(seen == want, boost::test_tools::per_element());
  auto cached = ask<protocol::object_list>(
      self, protocol::list_request{configmap_kind, "default", "", "", protocol::read_from::cache});
  BOOST_TEST_REQUIRE(static_cast<bool>(cached));
  std::vector<std::string> names;
  for (const auto& o : cached->items) names.emplace_back(o.name());
  BOOST_TEST((names == std::vector<std::string>{"change", "fresh", "keep", "open"}));
}

BOOST_FIXTURE_TEST_CASE(unserved_kind_is_an_error_unless_optional, cluster_fixture) {
  caf::scoped_actor self{sys};
  auto strict = ask<protocol::subscription_id>(
      self, protocol::subscribe_request{widget_kind, "default", "", caf::actor{self}, false});
  BOOST_TEST_REQUIRE(!strict);
  BOOST_TEST(protocol::is_no_match(strict.error()));
}

BOOST_FIXTURE_TEST_CASE(optional_kind_follows_its_crd, cluster_fixture) {
  caf::scoped_actor self{sys};
  auto sub = ask<protocol::subscription_id>(
      self, protocol::subscribe_request{widget_kind, "default", "", caf::actor{self}, true});
  BOOST_TEST_REQUIRE(static_cast<bool>(sub), why(sys, sub));
  std::vector<note> log;
  BOOST_TEST_REQUIRE(receive_until(self, log, has_availability(false)));

  auto crd = k8s::object::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.example.c5c3.io"},
    "spec":{"group":"example.c5c3.io","scope":"Namespaced",
      "names":{"kind":"Widget","plural":"widgets","singular":"widget","listKind":"WidgetList"},
      "versions":[{"name":"v1","served":true,"storage":true,
        "schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}})");
  BOOST_TEST_REQUIRE(crd.has_value());
  auto made = ask<k8s::object>(self, protocol::create_request{*crd, {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(sys, made));

  BOOST_TEST_REQUIRE(receive_until(self, log, has_availability(true)));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));

  k8s::object_builder w("example.c5c3.io/v1", "Widget", "default", "w1");
  w.set_string({"spec", "size"}, "large");
  auto widget = ask<k8s::object>(self, protocol::create_request{std::move(w).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(widget), why(sys, widget));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_event(protocol::event_type::added, "w1")));

  log.clear();
  auto removed = ask<k8s::object>(
      self, protocol::delete_request{{k8s::gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"}, "",
                                      "widgets.example.c5c3.io"}, "", "", protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(removed));
  BOOST_TEST_REQUIRE(receive_until(self, log, has_availability(false)));
  // Its objects went from view first: the subscriber heard w1 deleted
  // before the kind's availability turned false.
  std::size_t deleted_at = log.size(), gone_at = log.size();
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (const auto* e = std::get_if<protocol::object_event>(&log[i]);
        e != nullptr && e->type == protocol::event_type::deleted && e->obj.name() == "w1")
      deleted_at = std::min(deleted_at, i);
    if (const auto* a = std::get_if<protocol::kind_availability>(&log[i]); a != nullptr && !a->served)
      gone_at = std::min(gone_at, i);
  }
  BOOST_TEST(deleted_at < gone_at);
}

BOOST_FIXTURE_TEST_CASE(a_dead_subscriber_loses_its_subscriptions, cluster_fixture) {
  caf::scoped_actor self{sys};
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap("kept", "0"), {}})));
  // A subscriber that forwards what it hears to the test.
  caf::actor test{self};
  auto forwarder = sys.spawn([](caf::event_based_actor* me, caf::actor to) -> caf::behavior {
    return {
        [=](protocol::object_event&) {},
        [=](protocol::informer_synced& s) { me->send(to, s); },
    };
  }, test);
  auto sub = ask<protocol::subscription_id>(
      self, protocol::subscribe_request{configmap_kind, "default", "", forwarder, false});
  BOOST_TEST_REQUIRE(static_cast<bool>(sub));
  std::vector<note> log;
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));

  // While it lives, the informer's cache answers even when the server refuses reads.
  sim::fault_rule no_reads;
  no_reads.verb = "get";
  no_reads.resource = "configmaps";
  no_reads.status_code = 403;
  server.add_fault(no_reads);
  auto cached = ask<k8s::object>(self, protocol::get_request{{configmap_kind, "default", "kept"}});
  BOOST_TEST_REQUIRE(static_cast<bool>(cached), why(sys, cached));

  // Once it is dead, its subscription goes and so does the informer nobody
  // uses: reads go to the server again (and are refused).
  self->monitor(forwarder);
  caf::anon_send_exit(forwarder, caf::exit_reason::kill);
  self->receive([](caf::down_msg&) {}, caf::after(deadline) >> [] { BOOST_FAIL("forwarder did not die"); });
  forwarder = nullptr;
  bool refused = false;
  auto end = std::chrono::steady_clock::now() + deadline;
  while (!refused && std::chrono::steady_clock::now() < end) {
    auto r = ask<k8s::object>(self, protocol::get_request{{configmap_kind, "default", "kept"}});
    refused = !r && protocol::api_errc_of(r.error()) == protocol::api_errc::forbidden;
  }
  BOOST_TEST(refused);
  server.clear_faults();
}

BOOST_FIXTURE_TEST_CASE(target_cluster_secret_engages_and_disengages, cluster_fixture) {
  sim::apiserver target;
  target.start();
  caf::scoped_actor self{sys};
  cluster::registry_options ro;
  ro.management = cluster;
  ro.namespace_ = "default";
  ro.listeners = {caf::actor{self}};
  ro.tune = testing::fast_retries;
  auto registry = cluster::spawn_target_registry(sys, ro);

  // Something only the target cluster has.
  k8s::object_builder marker("v1", "ConfigMap", "default", "only-on-target");
  marker.set_string({"data", "value"}, "target");

  k8s::object_builder s("v1", "Secret", "default", "cluster-east");
  s.set_label(cluster::target_cluster_label, "east");
  s.set_string({"data", "kubeconfig"}, config::base64_encode(target.kubeconfig_yaml()));
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{std::move(s).freeze(), {}})));

  caf::actor east;
  self->receive([&](protocol::cluster_engaged& e) {
                  BOOST_TEST(e.cluster == "east");
                  east = e.handle;
                },
                caf::after(deadline) >> [] { BOOST_FAIL("no cluster_engaged"); });
  BOOST_TEST_REQUIRE(static_cast<bool>(east));
  bool created = false;
  self->request(east, deadline, protocol::create_request{std::move(marker).freeze(), {}})
      .receive([&](k8s::object&) { created = true; }, [&](caf::error& e) { BOOST_FAIL(sys.render(e)); });
  BOOST_TEST_REQUIRE(created);
  BOOST_TEST(static_cast<bool>(target.get_object("configmaps", "default", "only-on-target")));
  BOOST_TEST(!server.get_object("configmaps", "default", "only-on-target"));

  // Deleting the Secret disengages the cluster and stops its actor.
  BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(
      self, protocol::delete_request{{k8s::gvk{"", "v1", "Secret"}, "default", "cluster-east"}, "", "", protocol::propagation::background})));
  bool disengaged = false;
  self->receive([&](protocol::cluster_disengaged& e) {
                  BOOST_TEST(e.cluster == "east");
                  disengaged = true;
                },
                caf::after(deadline) >> [] {});
  BOOST_TEST(disengaged);
  self->monitor(east);
  bool down = false;
  self->receive([&](caf::down_msg& d) { down = d.source == east.address(); },
                caf::after(deadline) >> [] {});
  BOOST_TEST(down);
  caf::anon_send_exit(registry, caf::exit_reason::user_shutdown);
  self->wait_for(registry);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
