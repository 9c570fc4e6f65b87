// The fault rules the perturbation plans (tests/faults) are made of: a rule
// dormant until a client's Nth successful write (a crash right after it),
// probabilities, the stream rules on open watches (an informer held back by
// N events, a MODIFIED coalesced into its successor, open watches expired
// with 410 when a rule arms), and the log of delivered watch events.
#include "sim/apiserver/faults_codec.hpp"
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

#include <atomic>
#include <mutex>
#include <thread>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

const std::string cms = "/api/v1/namespaces/default/configmaps";

std::string cm(const std::string& name, const std::string& value = "v") {
  return fmt::format(R"({{"metadata":{{"name":"{}"}},"data":{{"k":"{}"}}}})", name, value);
}

// A watch of the default namespace's ConfigMaps on a thread of its own,
// from the resourceVersion at its start; what it saw, as "TYPE name[=k]".
// Bookmarks (one a second while the stream is idle) are not recorded: they
// let the watcher see `stop` and end without waiting for an event.
struct watcher {
  explicit watcher(const server_fixture& f) : watcher(f, f.client_opts()) {}
  watcher(const server_fixture& f, client_options o)
      : client(std::move(o)), from(f.server->current_resource_version()), thread([this] { run(); }) {}
  ~watcher() {
    stop = true;
    thread.join();
  }
  void run() {
    const auto target = cms + fmt::format("?watch=1&allowWatchBookmarks=true&resourceVersion={}", from);
    client.stream(target, [&](const std::string& line) {
      auto d = k8s::parse_json(line);
      std::string type(k8s::get_string(*d, {"type"}));
      if (type == "BOOKMARK") return !stop.load();
      std::string seen = type + " " + std::string(k8s::get_string(*d, {"object", "metadata", "name"}));
      if (auto k = k8s::get_string(*d, {"object", "data", "k"}); !k.empty()) seen += "=" + std::string(k);
      if (type == "ERROR") seen = "ERROR " + std::string(k8s::get_string(*d, {"object", "reason"}));
      std::lock_guard l(mu);
      events.push_back(seen);
      return !stop.load();
    }, std::chrono::seconds(30));
    ended = true;
  }
  std::vector<std::string> seen() {
    std::lock_guard l(mu);
    return events;
  }
  std::size_t count() { return seen().size(); }

  http_client client;
  std::int64_t from;
  std::mutex mu;
  std::vector<std::string> events;
  std::atomic<bool> stop{false}, ended{false};
  std::thread thread;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(apiserver_stream_faults)

BOOST_AUTO_TEST_CASE(after_writes_resets_every_later_request_of_the_client) {
  server_fixture f(plain());
  auto o = f.client_opts();
  o.user_agent = "crashing-operator/1.0";
  http_client op(o);
  auto other = f.client();
  sim::fault_rule crash;
  crash.client = "crashing-operator";
  crash.after_writes = 2;
  crash.reset_connection = true;
  auto id = f.server->add_fault(crash);
  BOOST_TEST(op.get(cms).status == 200);  // a read does not count
  BOOST_TEST(op.post(cms, cm("a")).status == 201);
  BOOST_TEST(other.post(cms, cm("other")).status == 201);  // another client's write does not count
  BOOST_TEST(op.post(cms, cm("b", "x")).status == 201);
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 0u);
  // The second write landed and was answered; everything after is reset.
  BOOST_TEST(op.get(cms + "/a").status == 0);
  BOOST_TEST(op.post(cms, cm("c")).status == 0);
  BOOST_TEST(!f.server->get_object("configmaps", "default", "c"));
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 2u);
  BOOST_TEST(other.get(cms + "/a").status == 200);
  BOOST_TEST(f.server->remove_fault(id));
  BOOST_TEST(op.get(cms + "/a").status == 200);
}

// afterWritesOf: only the client's writes of that object count, so the
// point stays "right after its 2nd write of ConfigMap b" however its writes
// of other objects interleave.
BOOST_AUTO_TEST_CASE(after_writes_of_counts_only_the_writes_of_that_object) {
  server_fixture f(plain());
  auto o = f.client_opts();
  o.user_agent = "crashing-operator/1.0";
  http_client op(o);
  sim::fault_rule crash;
  crash.client = "crashing-operator";
  crash.after_writes = 2;
  crash.after_writes_of = {"update", "", "configmaps", "default", "b"};
  crash.reset_connection = true;
  auto id = f.server->add_fault(crash);
  BOOST_TEST(op.post(cms, cm("a")).status == 201);
  BOOST_TEST(op.post(cms, cm("b")).status == 201);  // a create of b: not the verb counted
  BOOST_TEST(op.put(cms + "/a", cm("a", "1")).status == 200);
  BOOST_TEST(op.put(cms + "/b", cm("b", "1")).status == 200);  // the 1st update of b
  BOOST_TEST(op.put(cms + "/a", cm("a", "2")).status == 200);
  BOOST_TEST(f.server->fault_counts().by_rule[id] == 0u);
  BOOST_TEST(op.put(cms + "/b", cm("b", "2")).status == 200);  // the 2nd: it landed, the rule arms
  BOOST_TEST(op.get(cms + "/a").status == 0);
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 1u);
}

BOOST_AUTO_TEST_CASE(probability_fires_on_a_seeded_share_of_matches) {
  auto opts = plain();
  opts.fault_seed = 42;
  server_fixture f(opts);
  auto c = f.client();
  sim::fault_rule flaky;
  flaky.verb = "get";
  flaky.status_code = 500;
  flaky.probability = 0.25;
  auto id = f.server->add_fault(flaky);
  int failed = 0;
  for (int i = 0; i < 400; ++i) failed += c.get(cms + "/x").status == 500;
  BOOST_TEST(failed == static_cast<int>(f.server->fault_counts().by_rule.at(id)));
  BOOST_TEST(failed > 60);  // 100 expected
  BOOST_TEST(failed < 140);
  sim::fault_rule never;
  never.verb = "list";
  never.status_code = 500;
  never.probability = 0;
  f.server->add_fault(never);
  BOOST_TEST(c.get(cms).status == 200);
}

BOOST_AUTO_TEST_CASE(a_held_watch_stays_n_events_behind_until_the_rule_goes) {
  server_fixture f(plain());
  auto c = f.client();
  sim::fault_rule hold;
  hold.verb = "watch";
  hold.resource = "configmaps";
  hold.hold_watch_events = 2;
  auto id = f.server->add_fault(hold);
  watcher w(f);
  for (int i = 0; i < 3; ++i) BOOST_TEST_REQUIRE(c.post(cms, cm(fmt::format("c{}", i))).status == 201);
  BOOST_TEST_REQUIRE(eventually([&] { return w.count() >= 1; }));
  BOOST_TEST(w.seen() == std::vector<std::string>{"ADDED c0=v"});
  BOOST_TEST_REQUIRE(c.post(cms, cm("c3")).status == 201);
  BOOST_TEST_REQUIRE(eventually([&] { return w.count() >= 2; }));
  BOOST_TEST(w.count() == 2u);  // still two behind
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 1u);  // once per stream
  BOOST_TEST(f.server->remove_fault(id));
  BOOST_TEST_REQUIRE(eventually([&] { return w.count() >= 4; }));
  BOOST_TEST(w.seen() == (std::vector<std::string>{"ADDED c0=v", "ADDED c1=v", "ADDED c2=v", "ADDED c3=v"}));
}

BOOST_AUTO_TEST_CASE(a_coalesced_modified_is_replaced_by_its_successor) {
  server_fixture f(plain());
  auto c = f.client();
  sim::fault_rule coalesce;
  coalesce.resource = "configmaps";
  coalesce.name = "x";
  coalesce.coalesce_modified = true;
  coalesce.latency = std::chrono::seconds(20);  // wait as long as it takes for the successor
  coalesce.times = 1;
  auto id = f.server->add_fault(coalesce);
  watcher w(f);
  const std::string merge = "application/merge-patch+json";
  BOOST_TEST_REQUIRE(c.post(cms, cm("x", "1")).status == 201);
  BOOST_TEST_REQUIRE(c.patch(cms + "/x", R"({"data":{"k":"2"}})", merge).status == 200);
  BOOST_TEST_REQUIRE(c.post(cms, cm("y", "1")).status == 201);  // waits behind x's withheld event
  BOOST_TEST_REQUIRE(c.patch(cms + "/x", R"({"data":{"k":"3"}})", merge).status == 200);
  BOOST_TEST_REQUIRE(c.patch(cms + "/x", R"({"data":{"k":"4"}})", merge).status == 200);  // times: 1
  BOOST_TEST_REQUIRE(eventually([&] { return w.count() >= 4; }));
  BOOST_TEST(w.seen() == (std::vector<std::string>{"ADDED x=1", "ADDED y=1", "MODIFIED x=3", "MODIFIED x=4"}));
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 1u);
}

BOOST_AUTO_TEST_CASE(a_withheld_modified_without_successor_goes_out_after_its_wait) {
  server_fixture f(plain());
  auto c = f.client();
  sim::fault_rule coalesce;
  coalesce.resource = "configmaps";
  coalesce.coalesce_modified = true;
  coalesce.latency = std::chrono::milliseconds(300);
  coalesce.times = 1;
  auto id = f.server->add_fault(coalesce);
  watcher w(f);
  BOOST_TEST_REQUIRE(c.post(cms, cm("x", "1")).status == 201);
  BOOST_TEST_REQUIRE(c.patch(cms + "/x", R"({"data":{"k":"2"}})", "application/merge-patch+json").status == 200);
  BOOST_TEST_REQUIRE(eventually([&] { return w.count() >= 2; }));
  BOOST_TEST(w.seen() == (std::vector<std::string>{"ADDED x=1", "MODIFIED x=2"}));
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 0u);  // nothing was coalesced
}

BOOST_AUTO_TEST_CASE(expire_watches_ends_the_streams_open_when_the_rule_arms) {
  server_fixture f(plain());
  auto c = f.client();
  auto o = f.client_opts();
  o.user_agent = "writer/1.0";
  http_client writer(o);
  sim::fault_rule expire;
  expire.verb = "watch";
  expire.expire_watches = true;
  expire.client = "writer";
  expire.after_writes = 1;
  auto id = f.server->add_fault(expire);
  watcher writer_watch(f, o), admin_watch(f);
  // Both streams are open once they saw the admin's write (which does not
  // arm the rule: it counts the writer's writes).
  BOOST_TEST_REQUIRE(c.post(cms, cm("seed")).status == 201);
  BOOST_TEST_REQUIRE(eventually([&] { return writer_watch.count() >= 1 && admin_watch.count() >= 1; }));
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 0u);
  BOOST_TEST_REQUIRE(writer.post(cms, cm("a")).status == 201);  // arms it
  BOOST_TEST_REQUIRE(eventually([&] { return writer_watch.ended.load(); }));
  BOOST_TEST(writer_watch.seen().back() == "ERROR Expired");
  BOOST_TEST_REQUIRE(eventually([&] { return admin_watch.count() >= 2; }));
  BOOST_TEST(admin_watch.seen().back() == "ADDED a=v");
  BOOST_TEST(!admin_watch.ended.load());
  // A stream opened after the rule armed is left alone.
  watcher later(f, o);
  BOOST_TEST_REQUIRE(c.post(cms, cm("b")).status == 201);
  BOOST_TEST_REQUIRE(eventually([&] { return later.count() >= 1; }));
  BOOST_TEST(later.seen().front() == "ADDED b=v");
  BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 1u);
}

BOOST_AUTO_TEST_CASE(watch_log_records_what_each_stream_delivered) {
  auto opts = plain();
  opts.watch_log = true;
  server_fixture f(opts);
  auto c = f.client();
  watcher w(f);
  BOOST_TEST_REQUIRE(c.post(cms, cm("a")).status == 201);
  BOOST_TEST_REQUIRE(c.del(cms + "/a").status == 200);
  BOOST_TEST_REQUIRE(eventually([&] { return w.count() >= 2; }));
  auto log = f.server->watch_log();
  BOOST_TEST_REQUIRE(log.size() == 2u);
  BOOST_TEST(log[0].client == "admin");
  BOOST_TEST(log[0].resource == "configmaps");
  BOOST_TEST(log[0].type == "ADDED");
  BOOST_TEST(log[0].name == "a");
  BOOST_TEST(log[1].type == "DELETED");
  auto writes = f.server->write_log();
  BOOST_TEST(log[1].after_write >= writes[0].seq);
  BOOST_TEST(log[0].after_write <= writes[1].seq);
}

BOOST_AUTO_TEST_CASE(the_new_fields_round_trip_through_yaml_and_json) {
  auto rules = sim::faults_from_yaml(
      "- client: op\n  afterWrites: 3\n  resetConnection: true\n"
      "- verb: watch\n  resource: secrets\n  holdWatchEvents: 2\n"
      "- resource: users.rabbitmq.com\n  name: u\n  coalesceModified: true\n  times: 1\n"
      "- verb: watch\n  expireWatches: true\n"
      "- status: 500\n  probability: 0.2\n  latency: 50ms\n  latencyMax: 500ms\n"
      "- afterWrites: 2\n  afterWritesOf: {verb: patch, group: c5c3.io, resource: rabbitmqvhosts/status, "
      "namespace: openstack, name: o0}\n  resetConnection: true\n");
  BOOST_TEST_REQUIRE(rules.size() == 6u);
  auto anchored = [](const sim::fault_rule& r) {
    const auto& of = r.after_writes_of;
    return r.after_writes == 2 && of.verb == "patch" && of.group == "c5c3.io" && of.resource == "rabbitmqvhosts/status" &&
           of.namespace_ == "openstack" && of.name == "o0";
  };
  BOOST_TEST(anchored(rules[5]));
  BOOST_TEST(rules[0].after_writes == 3);
  BOOST_TEST(rules[1].hold_watch_events == 2);
  BOOST_TEST(rules[2].coalesce_modified);
  BOOST_TEST(rules[3].expire_watches);
  BOOST_TEST(rules[4].probability == 0.2);
  BOOST_TEST(rules[4].latency_max.count() == 500);
  k8s::json_document d;
  d.SetArray();
  for (auto& r : rules) d.PushBack(sim::fault_to_json(r, d.GetAllocator()), d.GetAllocator());
  auto again = sim::faults_from_yaml(k8s::to_json(d));
  BOOST_TEST_REQUIRE(again.size() == 6u);
  BOOST_TEST(anchored(again[5]));
  BOOST_TEST(again[0].after_writes == 3);
  BOOST_TEST(again[1].hold_watch_events == 2);
  BOOST_TEST(again[2].coalesce_modified);
  BOOST_TEST(again[3].expire_watches);
  BOOST_TEST(again[4].probability == 0.2);
  BOOST_TEST(again[4].latency_max.count() == 500);
  BOOST_CHECK_THROW(sim::faults_from_yaml("- probability: 1.5\n"), std::runtime_error);
  BOOST_CHECK_THROW(sim::faults_from_yaml("- afterWrites: 1\n  afterWritesOf: b\n"), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
