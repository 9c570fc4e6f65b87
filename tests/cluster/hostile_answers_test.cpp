// Hostile API answers to the operator's stack (issue 18, "Bad input"): the
// emulator serves a request and spoils its answer (fault rules with `body`:
// truncated, huge, wrongKind, missingField, nonUtf8, garbage). One Gadget's
// status writes get spoiled answers: its passes fail with an error naming the
// request and are retried no sooner than their backoff, while another Gadget keeps converging; once the rule
// goes, the spoiled one converges too. Spoiled lists and a watch that sends
// garbage make the informer re-list; the cache never takes a spoiled answer
// for an empty list, and both orders still converge after.
#include "actors/runtime/order_actor.hpp"
#include "tests/cluster/kind_fixture.hpp"
#include "tests/require_eventually.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing {

namespace {

// Wakes `name` with a spec change (a new generation).
void touch(kind_fixture& f, const std::string& name, int n) {
  auto r = f.write(f.management, protocol::patch_request{gadget_ref(name), protocol::patch_type::merge,
                                                         R"({"spec":{"touch":)" + std::to_string(n) + "}}", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(r), f.why(r));
}

int stored_passes(kind_fixture& f, const std::string& name) {
  return passes(f.server.get_object("gadgets.test.c5c3.io", "default", name));
}

std::uint64_t fired(kind_fixture& f, const std::string& id) {
  auto c = f.server.fault_counts();
  auto it = c.by_rule.find(id);
  return it == c.by_rule.end() ? 0 : it->second;
}

std::size_t error_count(kind_fixture& f) {
  std::lock_guard<std::mutex> l(f.rec->mu);
  return f.rec->errors.size();
}

std::string last_error(kind_fixture& f) {
  std::lock_guard<std::mutex> l(f.rec->mu);
  return f.rec->errors.empty() ? std::string() : f.rec->errors.back();
}

std::uint64_t last_write_seq(kind_fixture& f) {
  auto log = f.server.write_log();
  return log.empty() ? 0 : log.back().seq;
}

// The spoiled status writes of `name` after write `from_seq`: each failed
// pass is retried no sooner than the order actor's backoff says (the k-th
// retry base * 2^(k-1) after the write before it; controller-runtime's
// per-item limiter), never in a storm. The gaps are the emulator's answer
// times; a lower bound only, which a slow machine can only widen.
std::vector<std::chrono::steady_clock::time_point> status_writes(kind_fixture& f, const std::string& name,
                                                                 std::uint64_t from_seq) {
  std::vector<std::chrono::steady_clock::time_point> at;
  for (const auto& w : f.server.write_log())
    if (w.seq > from_seq && w.verb == "patch" && w.resource == "gadgets/status" && w.name == name) at.push_back(w.at);
  return at;
}

void check_backed_off(kind_fixture& f, const std::string& name, std::uint64_t from_seq, std::size_t retries) {
  BOOST_TEST_REQUIRE(eventually([&] { return status_writes(f, name, from_seq).size() >= retries + 1; }));
  auto at = status_writes(f, name, from_seq);
  using ms = std::chrono::duration<double, std::milli>;
  auto wait = runtime::order_actor_options{}.backoff_base;
  for (std::size_t k = 1; k <= retries; ++k, wait *= 2) {
    auto gap = ms(at[k] - at[k - 1]).count(), due = ms(wait).count();
    BOOST_TEST(gap >= due, "retry " << k << " came " << gap << " ms after the failure before it, sooner than its "
                                    << "backoff of " << due << " ms");
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hostile_answers)

BOOST_FIXTURE_TEST_CASE(a_spoiled_answer_fails_one_order_and_leaves_the_other_working, kind_fixture) {
  const protocol::order_key ok_key{"", "default", "g-ok"}, bad_key{"", "default", "g-bad"};
  for (auto* n : {"g-ok", "g-bad"}) {
    auto made = write(management, protocol::create_request{gadget(n), {}});
    BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  }
  BOOST_TEST_REQUIRE(eventually([&] { return stored_passes(*this, "g-ok") >= 1 && stored_passes(*this, "g-bad") >= 1; }));

  // Each hostile answer with the words the pass's error must carry. `huge`
  // is still valid JSON: that pass succeeds.
  struct row {
    std::string body;
    std::string field;
    std::string says;  // "" for an answer that must be taken
  };
  const std::vector<row> rows = {
      {"truncated", "", "cannot decode the server's answer: invalid JSON"},
      {"garbage", "", "cannot decode the server's answer: invalid JSON"},
      {"wrongKind", "", "it is a ConfigMap (v1), not a Gadget (test.c5c3.io/v1)"},
      {"missingField", "metadata", "it names no object"},
      {"nonUtf8", "", "cannot decode the server's answer: invalid JSON at offset"},
      {"huge", "", ""},
  };
  int n = 0;
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT("body " << r.body) {
      sim::fault_rule rule;
      rule.verb = "patch";
      rule.resource = "gadgets/status";
      rule.name = "g-bad";
      rule.body = r.body;
      rule.body_field = r.field;
      rule.body_bytes = r.body == "huge" ? (4u << 20) : 0;
      // g-bad quiet first: every pass it began has its status write stored
      // and logged. The emulator logs a write after storing it, so a stored
      // count alone could leave the last clean write to come after `from`,
      // where it would be taken for the first spoiled one.
      BOOST_TEST_REQUIRE(eventually([&] {
        auto began = static_cast<std::size_t>(rec->count(bad_key));
        return status_writes(*this, "g-bad", 0).size() == began && stored_passes(*this, "g-bad") == rec->count(bad_key);
      }));
      auto from = last_write_seq(*this);
      auto id = server.add_fault(rule);
      auto errors_before = error_count(*this);
      int ok_before = stored_passes(*this, "g-ok");
      ++n;
      touch(*this, "g-bad", n);
      touch(*this, "g-ok", n);
      // The other order keeps converging meanwhile.
      BOOST_TEST(eventually([&] { return stored_passes(*this, "g-ok") > ok_before; }));
      if (r.says.empty()) {
        BOOST_TEST(eventually([&] { return fired(*this, id) >= 1; }));
      } else {
        // The spoiled order's pass fails, says why, and is retried, backed off.
        BOOST_TEST(eventually([&] { return error_count(*this) > errors_before && fired(*this, id) >= 2; }));
        // The first row's from the start of the backoff: the later rows'
        // begin where it stands (each spoiled write was stored, so no pass
        // succeeds in between to reset it) and only widen the gaps.
        if (n == 1) check_backed_off(*this, "g-bad", from, 4);
        BOOST_TEST(last_error(*this).find(r.says) != std::string::npos, last_error(*this));
        BOOST_TEST(last_error(*this).find("PATCH /apis/test.c5c3.io/v1/namespaces/default/gadgets/g-bad/status") !=
                       std::string::npos,
                   last_error(*this));
      }
      // The rule gone, the spoiled order converges: its stored status catches up with its passes.
      server.remove_fault(id);
      BOOST_TEST(eventually([&] { return stored_passes(*this, "g-bad") == rec->count(bad_key); }));
    }
  }
  BOOST_TEST(rec->count(ok_key) >= 1 + static_cast<int>(rows.size()));
}

BOOST_FIXTURE_TEST_CASE(spoiled_lists_and_a_garbage_watch_make_the_informer_list_again, kind_fixture) {
  // The target cluster, before it is engaged: a Gadget there already, and its
  // lists of Gadgets spoiled once each way, then its watch sending garbage
  // three times, then a resume that expires (410).
  const protocol::order_key pre{"east", "default", "g-pre"}, later{"east", "default", "g-later"};
  caf::scoped_actor self{sys};
  std::vector<std::string> list_ids;
  for (auto [body, field] : std::vector<std::pair<std::string, std::string>>{
           {"missingField", "items"}, {"wrongKind", ""}, {"truncated", ""}, {"garbage", ""}}) {
    sim::fault_rule list;
    list.verb = "list";
    list.resource = "gadgets";
    list.body = body;
    list.body_field = field;
    list.times = 1;
    list_ids.push_back(target.add_fault(list));
  }
  sim::fault_rule watch;
  watch.verb = "watch";
  watch.resource = "gadgets";
  watch.body = "garbage";
  watch.times = 3;
  auto watch_id = target.add_fault(watch);
  sim::fault_rule expire;
  expire.verb = "watch";
  expire.resource = "gadgets";
  expire.expire_resume = true;
  expire.times = 1;
  auto expire_id = target.add_fault(expire);
  auto fired_on = [&](const std::string& id) {
    auto c = target.fault_counts();
    auto it = c.by_rule.find(id);
    return it == c.by_rule.end() ? std::uint64_t{0} : it->second;
  };
  // The Gadget already there is created through the target's own admin API.
  {
    auto a = cluster::spawn_cluster(sys, {"direct", [&] {
                                            std::string dir2 = dir + "/target";
                                            std::filesystem::create_directories(dir2);
                                            target.write_kubeconfig(dir2 + "/kubeconfig");
                                            auto conn = config::load_connection({dir2 + "/kubeconfig", "", ""});
                                            auto c = conn->client;
                                            fast_retries(c);
                                            return c;
                                          }()});
    auto made = write(a, protocol::create_request{gadget("g-pre"), {}});
    BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
    caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    self->wait_for(a);
  }
  target.clear_write_log();

  k8s::object_builder s("v1", "Secret", "default", "cluster-east");
  s.set_label(cluster::target_cluster_label, "east");
  s.set_string({"data", "kubeconfig"}, config::base64_encode(target.kubeconfig_yaml()));
  auto secret = write(management, protocol::create_request{std::move(s).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(secret), why(secret));

  // Every spoiled list is refused and listed again; none is taken for an
  // empty list: the order already there stays live and is never retired.
  for (const auto& id : list_ids)
    C5C3_CHECK_EVENTUALLY(eventually([&] { return fired_on(id) == 1; }), id << " fired " << fired_on(id));
  BOOST_TEST_REQUIRE(eventually([&] { return has(probe().live, pre); }));
  BOOST_TEST(eventually([&] { return passes(target.get_object("gadgets.test.c5c3.io", "default", "g-pre")) >= 1; }));

  // A new Gadget: its event comes as garbage three times (each ends the
  // watch, which resumes where it was), then the resume expires and the
  // informer lists again; the order still gets its actor and converges.
  caf::actor east;
  BOOST_TEST_REQUIRE(eventually([&] {
    self->request(directory, deadline, protocol::lookup_cluster_atom::value, std::string("east"))
        .receive([&](caf::actor& a) { east = a; }, [](caf::error&) {});
    return static_cast<bool>(east);
  }));
  auto made = write(east, protocol::create_request{gadget("g-later"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  C5C3_CHECK_EVENTUALLY(eventually([&] { return fired_on(watch_id) == 3; }), "garbage watches: " << fired_on(watch_id));
  BOOST_TEST(eventually([&] { return fired_on(expire_id) == 1; }));
  BOOST_TEST(eventually([&] { return passes(target.get_object("gadgets.test.c5c3.io", "default", "g-later")) >= 1; }));
  auto p = probe();
  BOOST_TEST(has(p.live, pre));
  BOOST_TEST(has(p.live, later));
  BOOST_TEST(p.retired == 0u);
  BOOST_TEST(eventually([&] { return synced(self); }));
  BOOST_TEST(rec->errors.empty(), errors());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
