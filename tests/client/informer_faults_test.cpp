// The informer against the emulator, and each fault rule recovered from
// without losing or duplicating an event: 500, 429 with Retry-After, a cut
// watch, 410 on resume, a reset connection, watches that end at once.
#include "harness.hpp"
#include "tests/relist_only.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

using namespace c5c3;
using namespace c5c3::testing;
using k8s::object;

namespace {

// Records informer callbacks and checks them against the server's state.
struct recorder {
  std::mutex mu;
  std::vector<std::string> log;                   // "ADD name rv", "UPDATE name rv", "DELETE name"
  std::map<std::string, std::vector<std::string>> rvs;  // name -> resourceVersions delivered
  std::map<std::string, std::string> state;       // name -> value as the callbacks say
  int errors = 0;
  int syncs = 0;
  int resyncs = 0;
  int with_managed_fields = 0;  // objects handed to a callback carrying metadata.managedFields

  void note_fields(const object& o) {
    if (o.get({"metadata", "managedFields"})) ++with_managed_fields;
  }

  k8s::informer_handlers handlers() {
    k8s::informer_handlers h;
    h.on_add = [this](const object& o) {
      std::lock_guard lock(mu);
      note_fields(o);
      log.push_back("ADD " + std::string(o.name()));
      rvs[std::string(o.name())].emplace_back(o.resource_version());
      state[std::string(o.name())] = std::string(o.get_string({"data", "value"}));
    };
    h.on_update = [this](const object& a, const object& b) {
      std::lock_guard lock(mu);
      note_fields(a);
      note_fields(b);
      if (a.resource_version() == b.resource_version()) {
        ++resyncs;
        return;
      }
      log.push_back("UPDATE " + std::string(b.name()));
      rvs[std::string(b.name())].emplace_back(b.resource_version());
      state[std::string(b.name())] = std::string(b.get_string({"data", "value"}));
    };
    h.on_delete = [this](const object& o) {
      std::lock_guard lock(mu);
      note_fields(o);
      log.push_back("DELETE " + std::string(o.name()));
      state.erase(std::string(o.name()));
    };
    h.on_synced = [this] {
      std::lock_guard lock(mu);
      ++syncs;
    };
    h.on_error = [this](const k8s::api_error&) {
      std::lock_guard lock(mu);
      ++errors;
    };
    return h;
  }

  // No resourceVersion delivered twice for one object, and they only grow.
  void check_no_duplicates() {
    std::lock_guard lock(mu);
    for (const auto& [name, list] : rvs) {
      std::set<std::string> uniq(list.begin(), list.end());
      BOOST_TEST(uniq.size() == list.size(), "duplicate event for " << name);
      for (std::size_t i = 1; i < list.size(); ++i)
        BOOST_TEST(std::stoll(list[i]) > std::stoll(list[i - 1]), "out of order for " << name);
    }
  }

  std::map<std::string, std::string> snapshot() {
    std::lock_guard lock(mu);
    return state;
  }
};

std::map<std::string, std::string> server_state(sim::apiserver& s, const std::string& ns) {
  std::map<std::string, std::string> out;
  for (const auto& o : s.list_objects("configmaps", ns))
    out[std::string(o.name())] = std::string(o.get_string({"data", "value"}));
  return out;
}

struct informer_fixture : emulator_fixture {
  std::shared_ptr<k8s::client> c;
  recorder rec;
  std::shared_ptr<k8s::informer> inf;
  std::string ns = "inf";

  informer_fixture() {
    c = make_client();
    auto r = await<object>([&](auto cb) { c->create(k8s::object_builder("v1", "Namespace", "", ns).freeze(), {}, cb); });
    BOOST_TEST_REQUIRE(r.ok());
  }
  ~informer_fixture() {
    if (inf) inf->stop();
  }

  void start(k8s::informer_options o = {}, std::chrono::milliseconds backoff = std::chrono::milliseconds(5)) {
    o.namespace_ = ns;
    o.initial_backoff = backoff;
    o.max_backoff = std::max(backoff, std::chrono::milliseconds(100));
    inf = k8s::informer::create(c, configmap_kind, o, rec.handlers());
    inf->start();
    BOOST_TEST_REQUIRE(eventually([&] { return inf->has_synced(); }));
  }

  object write(const std::string& name, const std::string& value) {
    auto r = await<object>([&](auto cb) {
      k8s::patch_options po;
      po.field_manager = "test";
      po.force = true;
      c->apply(configmap(ns, name, value), po, cb);
    });
    BOOST_TEST_REQUIRE(r.ok(), why(r));
    return r.value();
  }
  void erase(const std::string& name) {
    auto r = await<object>([&](auto cb) { c->remove(configmap_kind, ns, name, {}, cb); });
    BOOST_TEST_REQUIRE(r.ok(), why(r));
  }

  // Waits until callbacks, store and server agree.
  void converge() {
    BOOST_TEST_REQUIRE(eventually([&] {
      auto want = server_state(server, ns);
      if (rec.snapshot() != want) return false;
      return inf->size() == want.size();
    }));
    rec.check_no_duplicates();
  }

  // A scripted series of writes: creates, updates, a delete.
  void workload(const std::string& tag) {
    write(tag + "-a", "1");
    write(tag + "-b", "1");
    write(tag + "-a", "2");
    write(tag + "-c", "1");
    erase(tag + "-b");
    write(tag + "-a", "3");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(client_informer)

BOOST_FIXTURE_TEST_CASE(list_then_watch_with_store_and_resync, informer_fixture) {
  write("pre", "0");
  k8s::informer_options o;
  o.resync = std::chrono::milliseconds(50);
  start(o);
  BOOST_TEST(inf->get(ns, "pre").has_value());
  workload("w");
  converge();
  {
    std::lock_guard lock(rec.mu);
    // Every write seen exactly once, in order (no fault: nothing coalesced).
    std::vector<std::string> want{"ADD pre", "ADD w-a", "ADD w-b", "UPDATE w-a", "ADD w-c", "DELETE w-b", "UPDATE w-a"};
    BOOST_TEST(rec.log == want, boost::test_tools::per_element());
  }
  BOOST_TEST(inf->get(ns, "w-a")->get_string({"data", "value"}) == "3");
  BOOST_TEST(!inf->get(ns, "w-b"));
  BOOST_TEST(eventually([&] {
    std::lock_guard lock(rec.mu);
    return rec.resyncs >= 3;
  }));
  BOOST_TEST(inf->lists() == 1u);
}

// The transform runs on listed and watched objects before they are stored or
// delivered: with strip_managed_fields neither the store nor any callback
// sees the managedFields the server keeps; without it, they arrive.
BOOST_FIXTURE_TEST_CASE(transform_applies_to_store_and_events, informer_fixture) {
  auto written = write("pre", "0");
  BOOST_TEST_REQUIRE(written.get({"metadata", "managedFields"}) != nullptr);  // the server keeps them
  k8s::informer_options o;
  o.transform = k8s::strip_managed_fields;
  start(o);
  workload("x");
  converge();
  BOOST_TEST(!inf->get(ns, "pre")->get({"metadata", "managedFields"}));
  BOOST_TEST(!inf->get(ns, "x-a")->get({"metadata", "managedFields"}));
  BOOST_TEST(inf->get(ns, "x-a")->get_string({"data", "value"}) == "3");
  for (const auto& cached : inf->list()) BOOST_TEST(!cached.get({"metadata", "managedFields"}));
  {
    std::lock_guard lock(rec.mu);
    BOOST_TEST(rec.log.size() == 7u);  // ADD pre, then the workload's six events
    BOOST_TEST(rec.with_managed_fields == 0);
  }
}

BOOST_FIXTURE_TEST_CASE(without_transform_objects_arrive_as_served, informer_fixture) {
  write("pre", "0");
  start();
  write("post", "1");
  converge();
  BOOST_TEST(inf->get(ns, "pre")->get({"metadata", "managedFields"}) != nullptr);
  std::lock_guard lock(rec.mu);
  BOOST_TEST(rec.with_managed_fields == 2);  // ADD pre (listed), ADD post (watched)
}

BOOST_FIXTURE_TEST_CASE(server_errors_on_list_are_retried, informer_fixture) {
  write("pre", "0");
  sim::fault_rule f;
  f.verb = "list";
  f.resource = "configmaps";
  f.status_code = 500;
  f.times = 2;
  server.add_fault(f);
  start();
  BOOST_TEST(inf->get(ns, "pre").has_value());
  BOOST_TEST(counters->requests("GET", "500") == 2u);
  BOOST_TEST(counters->retries() >= 2u);
  workload("e");
  converge();
}

BOOST_FIXTURE_TEST_CASE(too_many_requests_honours_retry_after, informer_fixture) {
  sim::fault_rule f;
  f.verb = "list";
  f.resource = "configmaps";
  f.status_code = 429;
  f.retry_after_seconds = 1;
  f.times = 1;
  server.add_fault(f);
  start();
  BOOST_TEST(counters->requests("GET", "429") == 1u);
  workload("t");
  converge();
  // A write answered 429 is retried too (the server says it did nothing).
  sim::fault_rule w;
  w.verb = "patch";
  w.resource = "configmaps";
  w.status_code = 429;
  w.retry_after_seconds = 0;
  w.times = 1;
  server.add_fault(w);
  write("after-429", "x");
  BOOST_TEST(counters->requests("PATCH", "429") == 1u);
  converge();
}

BOOST_FIXTURE_TEST_CASE(cut_watch_resumes_without_loss, informer_fixture) {
  sim::fault_rule f;
  f.verb = "watch";
  f.resource = "configmaps";
  f.cut_watch_after_events = 2;  // every watch ends after two events
  server.add_fault(f);
  start();
  workload("c");
  workload("d");
  converge();
  {
    std::lock_guard lock(rec.mu);
    std::vector<std::string> want{"ADD c-a", "ADD c-b", "UPDATE c-a", "ADD c-c", "DELETE c-b", "UPDATE c-a",
                                  "ADD d-a", "ADD d-b", "UPDATE d-a", "ADD d-c", "DELETE d-b", "UPDATE d-a"};
    BOOST_TEST(rec.log == want, boost::test_tools::per_element());
  }
  BOOST_TEST(inf->watches() >= 6u);  // resumed, not relisted
  BOOST_TEST(inf->lists() == 1u);
}

BOOST_FIXTURE_TEST_CASE(gone_on_resume_relists_without_duplicates, informer_fixture) {
  sim::fault_rule cut;
  cut.verb = "watch";
  cut.resource = "configmaps";
  cut.cut_watch_after_events = 3;
  cut.times = 1;
  server.add_fault(cut);
  sim::fault_rule expire;
  expire.verb = "watch";
  expire.resource = "configmaps";
  expire.expire_resume = true;
  expire.times = 1;
  server.add_fault(expire);
  start();
  workload("g");
  converge();
  BOOST_TEST(inf->lists() >= 2u);
  workload("h");
  converge();
  BOOST_TEST(server.fault_counts().total >= 2u);
}

// A watch the server ends at once must count as "very short" even where its
// round trip takes over the default second (ThreadSanitizer on a busy machine:
// the watch then looked like a server timeout and was resumed at once).
static k8s::informer_options slow_machine_options() {
  k8s::informer_options o;
  o.min_watch_duration = std::chrono::seconds(30);
  return o;
}

// A server that ends every watch at once, without an event: the informer
// must not ask again in a tight loop. With a backoff of an hour, the first
// such watch is reported (on_error) and no second watch opens: before the
// fix the clean end resumed at once and on_error never ran.
BOOST_FIXTURE_TEST_CASE(a_watch_that_ends_at_once_waits_for_the_backoff, informer_fixture) {
  sim::fault_rule f;
  f.verb = "watch";
  f.resource = "configmaps";
  f.cut_watch_after_events = 0;
  server.add_fault(f);
  start(slow_machine_options(), std::chrono::hours(1));
  BOOST_TEST_REQUIRE(eventually([&] {
    std::lock_guard lock(rec.mu);
    return rec.errors >= 1;
  }));
  // on_error runs before the retry timer is armed, so this is not a window:
  // a second watch can only open when the hour is up.
  BOOST_TEST(inf->short_watches() == 1u);
  BOOST_TEST(inf->watches() == 1u);
  BOOST_TEST(inf->lists() == 1u);
}

// The same fault three times, with a short backoff: three short watches, each
// reported, then a watch that works (a write arrives through it).
BOOST_FIXTURE_TEST_CASE(short_watches_back_off_then_resume, informer_fixture) {
  sim::fault_rule f;
  f.verb = "watch";
  f.resource = "configmaps";
  f.cut_watch_after_events = 0;
  f.times = 3;
  server.add_fault(f);
  start(slow_machine_options(), std::chrono::milliseconds(20));
  BOOST_TEST_REQUIRE(eventually([&] { return inf->short_watches() == 3u; }));
  write("after", "1");
  converge();
  BOOST_TEST(inf->lists() == 1u);  // resumed from the list's resourceVersion, never relisted
  BOOST_TEST(inf->watches() >= 4u);
  std::lock_guard lock(rec.mu);
  BOOST_TEST(rec.errors >= 3);
}

BOOST_FIXTURE_TEST_CASE(connection_reset_is_recovered, informer_fixture) {
  sim::fault_rule list_reset;
  list_reset.verb = "list";
  list_reset.resource = "configmaps";
  list_reset.reset_connection = true;
  list_reset.times = 1;
  server.add_fault(list_reset);
  sim::fault_rule watch_reset;
  watch_reset.verb = "watch";
  watch_reset.resource = "configmaps";
  watch_reset.reset_connection = true;
  watch_reset.times = 2;
  server.add_fault(watch_reset);
  write("pre", "0");
  start();
  workload("r");
  converge();
  BOOST_TEST(counters->requests("GET", "<error>") >= 1u);
  BOOST_TEST(server.fault_counts().total == 3u);
  // A reset on a create is not retried blindly (it may have happened): the
  // caller sees the transport error.
  sim::fault_rule create_reset;
  create_reset.verb = "create";
  create_reset.resource = "configmaps";
  create_reset.reset_connection = true;
  create_reset.times = 1;
  server.add_fault(create_reset);
  auto r = await<object>([&](auto cb) { c->create(configmap(ns, "once", "x"), {}, cb); });
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.error().transport());
  BOOST_TEST(r.error().request == "POST /api/v1/namespaces/inf/configmaps");
  converge();
}

// Without a store (keep_store false) the informer keeps no objects: its owner
// hears each list whole and each watched object as it comes, and keeps the
// store itself; a relist after 410 Gone hands it the whole list again.
BOOST_FIXTURE_TEST_CASE(without_a_store_the_owner_hears_lists_whole_and_events_as_they_come, informer_fixture) {
  struct owner {
    std::mutex mu;
    std::map<std::string, std::string> state;  // as the owner's store has it
    std::vector<std::string> log;              // "LIST n", "UPSERT name", "DELETE name"
    int syncs = 0;
  };
  auto own = std::make_shared<owner>();
  k8s::informer_handlers h;
  h.on_list = [own](std::vector<object> items) {
    std::lock_guard lock(own->mu);
    own->log.push_back("LIST " + std::to_string(items.size()));
    own->state.clear();
    for (const auto& o : items) own->state[std::string(o.name())] = std::string(o.get_string({"data", "value"}));
  };
  h.on_upsert = [own](const object& o) {
    std::lock_guard lock(own->mu);
    own->log.push_back("UPSERT " + std::string(o.name()));
    own->state[std::string(o.name())] = std::string(o.get_string({"data", "value"}));
  };
  h.on_delete = [own](const object& o) {
    std::lock_guard lock(own->mu);
    own->log.push_back("DELETE " + std::string(o.name()));
    own->state.erase(std::string(o.name()));
  };
  h.on_synced = [own] {
    std::lock_guard lock(own->mu);
    ++own->syncs;
  };
  auto owner_converged = [&] {
    return eventually([&] {
      std::lock_guard lock(own->mu);
      return own->state == server_state(server, ns);
    });
  };
  write("pre", "0");
  k8s::informer_options o;
  o.namespace_ = ns;
  o.keep_store = false;
  o.initial_backoff = std::chrono::milliseconds(5);
  inf = k8s::informer::create(c, configmap_kind, o, h);
  inf->start();
  BOOST_TEST_REQUIRE(eventually([&] { return inf->has_synced(); }));
  workload("w");
  BOOST_TEST_REQUIRE(owner_converged());
  {
    std::lock_guard lock(own->mu);
    std::vector<std::string> want{"LIST 1",   "UPSERT w-a", "UPSERT w-b", "UPSERT w-a",
                                  "UPSERT w-c", "DELETE w-b", "UPSERT w-a"};
    BOOST_TEST(own->log == want, boost::test_tools::per_element());
    BOOST_TEST(own->syncs == 1);
  }
  BOOST_TEST(inf->size() == 0u);  // nothing kept twice
  BOOST_TEST(!inf->get(ns, "w-a"));
  BOOST_TEST(!inf->last_resource_version().empty());  // where the watch resumes

  // The changes come only through the relist, handed over whole.
  testing::relist_only(server, "configmaps", [&] { workload("g"); });
  BOOST_TEST_REQUIRE(eventually([&] { return inf->lists() >= 2u; }));
  BOOST_TEST_REQUIRE(owner_converged());
  // on_synced follows the list's handover on the informer's strand: wait for
  // it too (under TSan the owner had converged before it came).
  BOOST_TEST_REQUIRE(eventually([&] {
    std::lock_guard lock(own->mu);
    return own->syncs >= 2;
  }));
  server.clear_faults();
  std::lock_guard lock(own->mu);
  BOOST_TEST(std::count_if(own->log.begin(), own->log.end(), [](const std::string& l) { return l.rfind("LIST ", 0) == 0; }) >= 2);
  BOOST_TEST(own->syncs >= 2);
  BOOST_TEST(std::none_of(own->log.begin(), own->log.end(),
                          [](const std::string& l) { return l.rfind("UPSERT g-", 0) == 0; }));  // held, never watched
}

BOOST_AUTO_TEST_SUITE_END()
