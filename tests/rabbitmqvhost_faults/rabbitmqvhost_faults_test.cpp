// The RabbitMQVhost order host under injected faults: the emulator answers
// the OPERATOR's requests (matched by its bearer token) with 500/503, 429
// with Retry-After, 409 on status writes, cut watches and 410 on a resume,
// and connection resets; the simulated world and the test's own writes use
// the admin token and stay healthy. Each case creates several orders and
// asserts the end state from the emulator's state (get_object/list_objects),
// the creates from the write log, and that every fault rule fired.
//
// Faults fire a bounded number of times (fault_rule::times), so convergence
// is guaranteed to be possible; every wait is bounded polling, never a
// wall-clock assertion.
#include "tests/rabbitmqvhost_faults/fault_fixture.hpp"
#include "tests/captured_log.hpp"
#include "tests/require_eventually.hpp"

namespace c5c3::testing {
namespace {

// Every operator watch ends after 3 events, for the whole case; the first
// resumes answer 410 (the informers relist). Installed before the operator
// starts, so its first watches meet them too.
struct watch_fault_fixture : fault_fixture {
  std::vector<std::string> ids;
  watch_fault_fixture() : fault_fixture(false) {
    sim::fault_rule expire;
    expire.verb = "watch";
    expire.expire_resume = true;
    expire.times = 12;
    sim::fault_rule cut;
    cut.verb = "watch";
    cut.cut_watch_after_events = 3;
    // The expiring rule is listed first, so it takes the first watches.
    ids = {add(expire), add(cut)};
    start_operator();
  }
};


// The informers list only when they start (and on a 410), so rules on reads
// go in before the operator starts.
constexpr const char* read_and_write_verbs[] = {"get", "list", "create", "patch", "update"};

// 429 with Retry-After 1 on the first 8 of each verb.
struct throttled_fixture : fault_fixture {
  std::vector<std::string> ids;
  throttled_fixture() : fault_fixture(false) {
    for (auto verb : read_and_write_verbs) {
      auto r = rule(verb, 429, 8);
      r.retry_after_seconds = 1;
      ids.push_back(add(r));
    }
    start_operator();
  }
};

// The connection reset on the first 6 of each verb.
struct reset_fixture : fault_fixture {
  std::vector<std::string> ids;
  reset_fixture() : fault_fixture(false) {
    for (auto verb : read_and_write_verbs) {
      sim::fault_rule r;
      r.verb = verb;
      r.reset_connection = true;
      r.times = 6;
      ids.push_back(add(r));
    }
    start_operator();
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_faults)

BOOST_FIXTURE_TEST_CASE(server_errors_on_writes_converge_without_duplicate_children, fault_fixture) {
  prepare();
  // 500 carries no Retry-After: the client gives up at once and the pass
  // fails. 503 carries one: the client retries it itself.
  std::vector<std::string> ids{add(rule("create", 500, 20)), add(rule("create", 503, 10)),
                               add(rule("patch", 500, 10)), add(rule("update", 500, 15)),
                               add(rule("update", 503, 5))};
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  expect_converged_children();
}

BOOST_FIXTURE_TEST_CASE(too_many_requests_with_retry_after_converge, throttled_fixture) {
  prepare();
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  expect_converged_children();
}

BOOST_FIXTURE_TEST_CASE(cut_watches_and_expired_resumes_converge_then_stay_quiet, watch_fault_fixture) {
  prepare();
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  expect_converged_children();
  BOOST_TEST_CONTEXT("a converged operator makes no request, with the cut rule still active") {
    expect_quiet(3s);
  }
}

BOOST_FIXTURE_TEST_CASE(connection_resets_converge, reset_fixture) {
  prepare();
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  expect_converged_children();
}

BOOST_FIXTURE_TEST_CASE(conflicts_on_status_updates_are_requeues, fault_fixture) {
  prepare();
  auto r = rule("update", 409, 25);
  r.resource = "rabbitmqvhosts/status";
  std::vector<std::string> ids{add(r)};
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  BOOST_TEST(server.fault_counts().by_rule[ids[0]] == 25u);
  expect_converged_children();
}

// Hostile answers (issue 18, "Bad input") on an order kind: the emulator
// serves the first two status updates of each of o0..o5 and spoils their
// answers, one way per order (a huge answer is still valid and taken; one
// with invalid UTF-8 is refused: taken, its conditions came back in the next
// status write, refused by the server's validation as 422 Invalid). A pass
// that cannot decode its answer fails with
// an error naming the order and the request, logged as "Reconciler error"
// with its count of consecutive failures (the per-order backoff's), and is
// retried; the other orders converge meanwhile, the spoiled ones too (each
// write had landed: the next pass reads it from the cache), every child is
// created once, and no log line holds a delivered password.
BOOST_FIXTURE_TEST_CASE(hostile_answers_to_status_writes_fail_that_order_alone, fault_fixture) {
  captured_log log;
  struct restore_root {
    k8s::log::logger previous = k8s::log::root();
    ~restore_root() { k8s::log::set_root(previous); }
  } restore;
  k8s::log::set_root(k8s::log::logger({k8s::log::level::info, 0, log.sink(), {}}));
  prepare();
  struct row {
    std::string body, field, says;  // says: "" for an answer that is taken
  };
  const std::vector<row> rows = {
      {"truncated", "", "cannot decode the server's answer: invalid JSON"},
      {"garbage", "", "cannot decode the server's answer: invalid JSON"},
      {"wrongKind", "", "it is a ConfigMap (v1), not a RabbitMQVhost (c5c3.io/v1alpha1)"},
      {"missingField", "metadata", "it names no object"},
      {"nonUtf8", "", "Invalid encoding in string"},
      {"huge", "", ""},
  };
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    sim::fault_rule r;
    r.verb = "update";
    r.resource = "rabbitmqvhosts/status";
    r.name = order_name(static_cast<int>(i));
    r.body = rows[i].body;
    r.body_field = rows[i].field;
    r.body_bytes = rows[i].body == "huge" ? (4u << 20) : 0;
    r.times = 2;
    ids.push_back(add(r));
  }
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  expect_converged_children();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto name = order_name(static_cast<int>(i));
    BOOST_TEST_CONTEXT(name << ", answers " << rows[i].body) {
      const int lines = log.count({"\"msg\":\"Reconciler error\"", "\"name\":\"" + name + "\"",
                                   "\"namespace\":\"tenant-a\"", "PUT /apis/c5c3.io/v1alpha1/namespaces/tenant-a/rabbitmqvhosts/" + name + "/status"});
      if (rows[i].says.empty()) {
        BOOST_TEST(lines == 0, log.matching({"\"msg\":\"Reconciler error\"", "\"name\":\"" + name + "\""}));
      } else {
        BOOST_TEST(log.count({"\"name\":\"" + name + "\"", rows[i].says, "\"failures\":1"}) >= 1);
        BOOST_TEST(lines >= 1);
      }
    }
  }
  // The orders without a rule never failed.
  for (int i = static_cast<int>(rows.size()); i < count; ++i)
    BOOST_TEST(log.count({"\"msg\":\"Reconciler error\"", "\"name\":\"" + order_name(i) + "\""}) == 0,
               order_name(i));
  for (int i = 0; i < count; ++i) {
    auto password = delivered(order_name(i))["password"];
    BOOST_TEST_REQUIRE(!password.empty());
    BOOST_TEST(log.count({password}) == 0, order_name(i) << "'s password is in the log");
  }
}

BOOST_FIXTURE_TEST_CASE(deletion_under_write_faults_removes_every_child_and_finalizer, fault_fixture) {
  prepare();
  create_orders("Delete");
  wait_ready();
  std::map<std::string, std::string> vhosts;
  for (int i = 0; i < orders; ++i) vhosts[order_name(i)] = delivered(order_name(i))["vhost"];

  // A teardown deletes the children and patches the finalizer away (it
  // writes no status), so those are the verbs that fail.
  std::vector<std::string> ids{add(rule("delete", 500, 15)), add(rule("delete", 503, 5)),
                               add(rule("patch", 500, 10))};
  for (int i = 0; i < orders; ++i) {
    auto r = world->remove(order_gvk, "tenant-a", order_name(i));
    BOOST_TEST_REQUIRE(r.ok());
  }
  auto remaining = [&] {
    std::string out;
    for (int i = 0; i < orders; ++i)
      if (order(order_name(i))) out += order_name(i) + " ";
    return out;
  };
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return remaining().empty(); }, converge_seconds), "left: " << remaining());
  expect_fired(ids);
  for (int i = 0; i < orders; ++i) {
    const auto name = order_name(i);
    BOOST_TEST_CONTEXT(name) {
      for (auto res : {"vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
                       "pushsecrets.external-secrets.io", "secrets"}) {
        BOOST_TEST_CONTEXT(res) { BOOST_TEST(eventually([&] { return children(res, name) == 0u; })); }
      }
      BOOST_TEST(eventually([&] { return !server.get_object("secrets", "tenant-a", name + "-credentials"); }));
      BOOST_TEST(eventually([&] { return world->broker->vhosts().count(vhosts[name]) == 0u; }));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
