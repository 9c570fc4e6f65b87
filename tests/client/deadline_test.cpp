// A write's deadline (client.hpp write_options::deadline, retry.hpp
// deadline_exceeded) against the emulator: no attempt starts once it has
// passed, whether it would come after a Retry-After or after the client's
// rate limiter; the callback gets the Timeout error naming the request and the
// object, and the emulator's write log shows that the object was never written.
#include "harness.hpp"

#include <algorithm>

using namespace c5c3;
using namespace c5c3::testing;
using k8s::object;

namespace {

// Whether the emulator's write log holds a write of the ConfigMap `name`.
bool written(const sim::apiserver& server, const std::string& name) {
  auto log = server.write_log();
  return std::any_of(log.begin(), log.end(),
                     [&](const sim::write_record& w) { return w.resource == "configmaps" && w.name == name; });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(client_deadline)

// 503 with Retry-After 1 twice, then the server would accept: without the
// deadline the third attempt (at about 2 s) writes the object; with a deadline
// at 1.5 s no attempt starts after it.
BOOST_FIXTURE_TEST_CASE(retry_after_outliving_the_deadline_ends_the_retries, emulator_fixture) {
  sim::fault_rule f;
  f.verb = "create";
  f.resource = "configmaps";
  f.status_code = 503;
  f.retry_after_seconds = 1;
  f.times = 2;
  server.add_fault(f);
  auto c = make_client();
  k8s::write_options wo{"tester"};
  wo.deadline = std::chrono::steady_clock::now() + 1500ms;
  auto r = await<object>([&](auto cb) { c->create(configmap("default", "fenced", "x"), wo, cb); });
  BOOST_TEST_REQUIRE(!r.ok(), "the create succeeded after its deadline");
  const auto& e = r.error();
  BOOST_TEST(k8s::is_deadline_exceeded(e), e.describe());
  BOOST_TEST(e.request == "POST /api/v1/namespaces/default/configmaps");
  BOOST_TEST(e.describe().find("POST /api/v1/namespaces/default/configmaps: Timeout: ") == 0u, e.describe());
  BOOST_TEST(e.message.find("ConfigMap default/fenced") != std::string::npos, e.message);
  BOOST_TEST(e.message.find("503") != std::string::npos, e.message);  // what the last attempt met
  // The attempts it made were refused (one or two, as the machine's speed has it).
  auto fired = server.fault_counts().total;
  BOOST_TEST((fired >= 1u && fired <= 2u), fired);
  BOOST_TEST(!written(server, "fenced"));
  // A later write goes through the same client (its state is not wedged) and
  // lands; the given-up one still has not.
  server.clear_faults();
  auto marker = await<object>([&](auto cb) { c->create(configmap("default", "marker", "y"), {"tester"}, cb); });
  BOOST_TEST_REQUIRE(marker.ok(), why(marker));
  BOOST_TEST(written(server, "marker"));
  BOOST_TEST(!written(server, "fenced"));
  BOOST_TEST(server.fault_counts().total == fired);
  auto gone = await<object>([&](auto cb) { c->get(configmap_kind, "default", "fenced", cb); });
  BOOST_TEST((!gone.ok() && gone.error().not_found()));
}

// The token bucket would hold the write past its deadline: it is given up at
// once, never sent.
BOOST_FIXTURE_TEST_CASE(a_limiter_wait_past_the_deadline_sends_nothing, emulator_fixture) {
  auto cfg = base_config();
  cfg.qps = 0.1;  // one token every 10 s
  cfg.burst = 1;
  auto c = make_client(cfg);
  auto first = await<object>([&](auto cb) { c->create(configmap("default", "first", "1"), {"tester"}, cb); });
  BOOST_TEST_REQUIRE(first.ok(), why(first));
  k8s::patch_options po;
  po.field_manager = "tester";
  po.deadline = std::chrono::steady_clock::now() + 300ms;
  auto r = await<object>([&](auto cb) {
    c->patch(configmap_kind, "default", "first", k8s::patch_type::merge, R"({"data":{"value":"2"}})", po, cb);
  });
  BOOST_TEST_REQUIRE(!r.ok(), "the patch waited for the limiter past its deadline and was sent");
  BOOST_TEST(k8s::is_deadline_exceeded(r.error()), r.error().describe());
  BOOST_TEST(r.error().request == "PATCH /api/v1/namespaces/default/configmaps/first");
  BOOST_TEST(r.error().message.find("rate limiter") != std::string::npos, r.error().message);
  BOOST_TEST(r.error().message.find("ConfigMap default/first") != std::string::npos, r.error().message);
  auto log = server.write_log();
  BOOST_TEST(std::count_if(log.begin(), log.end(), [](const sim::write_record& w) {
               return w.resource == "configmaps" && w.name == "first";
             }) == 1);  // the create only
}

// A deadline far enough away changes nothing: the retries go on as before.
BOOST_FIXTURE_TEST_CASE(a_deadline_that_holds_lets_the_retries_go_on, emulator_fixture) {
  sim::fault_rule f;
  f.verb = "delete";
  f.resource = "configmaps";
  f.status_code = 429;
  f.retry_after_seconds = 0;
  f.times = 2;
  server.add_fault(f);
  auto c = make_client();
  auto made = await<object>([&](auto cb) { c->create(configmap("default", "kept", "1"), {"tester"}, cb); });
  BOOST_TEST_REQUIRE(made.ok(), why(made));
  k8s::delete_options d;
  d.deadline = std::chrono::steady_clock::now() + 20s;
  auto r = await<object>([&](auto cb) { c->remove(configmap_kind, "default", "kept", d, cb); });
  BOOST_TEST(r.ok(), why(r));
  BOOST_TEST(server.fault_counts().total == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
