// Fault injection (each rule kind, matching, counting, the YAML file and the
// admin endpoint) and the write log.
#include "sim/apiserver/faults_codec.hpp"
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string str(const k8s::json_value& v, std::initializer_list<std::string_view> p) {
  return std::string(k8s::get_string(v, p));
}

const std::string cms = "/api/v1/namespaces/default/configmaps";

}  // namespace

BOOST_AUTO_TEST_SUITE(apiserver_faults)

BOOST_AUTO_TEST_CASE(status_code_rules_answer_kube_shaped_errors) {
  server_fixture f(plain());
  auto c = f.client();
  struct row {
    int code;
    std::string reason;
  };
  for (auto& r : std::vector<row>{{500, "InternalError"}, {503, "ServiceUnavailable"},
                                   {429, "TooManyRequests"}, {409, "Conflict"}}) {
    sim::fault_rule rule;
    rule.verb = "get";
    rule.resource = "configmaps";
    rule.name = "x";
    rule.status_code = r.code;
    rule.retry_after_seconds = 7;
    rule.times = 1;
    auto id = f.server->add_fault(rule);
    auto res = c.get(cms + "/x");
    BOOST_TEST(res.status == r.code);
    BOOST_TEST(str(res.json(), {"reason"}) == r.reason);
    if (r.code == 429) {
      BOOST_TEST(res.headers["retry-after"] == "7");
    }
    // times=1: the next request is served normally (404: nothing stored).
    BOOST_TEST(c.get(cms + "/x").status == 404);
    BOOST_TEST(f.server->fault_counts().by_rule.at(id) == 1u);
  }
  BOOST_TEST(f.server->fault_counts().total == 4u);
}

BOOST_AUTO_TEST_CASE(rules_match_verb_namespace_name_and_client) {
  server_fixture f(plain());
  auto c = f.client();
  sim::fault_rule rule;
  rule.verb = "create";
  rule.namespace_ = "default";
  rule.client = "special-agent";
  rule.status_code = 500;
  f.server->add_fault(rule);
  BOOST_TEST(c.post(cms, R"({"metadata":{"name":"a"}})").status == 201);  // other client
  auto o = f.client_opts();
  o.user_agent = "special-agent/2.0";
  http_client special(o);
  BOOST_TEST(special.post(cms, R"({"metadata":{"name":"b"}})").status == 500);
  BOOST_TEST(special.get(cms + "/a").status == 200);  // other verb
  BOOST_TEST(special.post("/api/v1/namespaces/kube-system/configmaps", R"({"metadata":{"name":"b"}})").status == 201);
  f.server->clear_faults();
  BOOST_TEST(special.post(cms, R"({"metadata":{"name":"b"}})").status == 201);
}

BOOST_AUTO_TEST_CASE(latency_reset_and_token_client_match) {
  server_fixture f(plain());
  auto c = f.client();
  sim::fault_rule slow;
  slow.verb = "list";
  slow.latency = std::chrono::milliseconds(50);
  slow.times = 1;
  auto sid = f.server->add_fault(slow);
  BOOST_TEST(c.get(cms).status == 200);
  BOOST_TEST(f.server->fault_counts().by_rule.at(sid) == 1u);

  sim::fault_rule reset;
  reset.verb = "get";
  reset.client = f.server->token();
  reset.reset_connection = true;
  f.server->add_fault(reset);
  auto r = c.get(cms + "/x");
  BOOST_TEST(r.status == 0);
  BOOST_TEST(f.server->remove_fault(f.server->faults().back().id));
  BOOST_TEST(c.get(cms + "/x").status == 404);
}

BOOST_AUTO_TEST_CASE(cut_watch_after_events_and_expire_resume) {
  server_fixture f(plain());
  auto c = f.client();
  auto rv = f.server->current_resource_version();
  for (int i = 0; i < 5; ++i) c.post(cms, fmt::format(R"({{"metadata":{{"name":"c{}"}}}})", i));
  sim::fault_rule cut;
  cut.verb = "watch";
  cut.cut_watch_after_events = 2;
  cut.times = 1;
  f.server->add_fault(cut);
  int events = 0;
  auto res = c.stream(cms + fmt::format("?watch=1&resourceVersion={}", rv), [&](const std::string&) {
    ++events;
    return true;
  });
  BOOST_TEST(res.ended);
  BOOST_TEST(!res.timed_out);
  BOOST_TEST(events == 2);

  sim::fault_rule expire;
  expire.verb = "watch";
  expire.expire_resume = true;
  expire.times = 1;
  f.server->add_fault(expire);
  std::string type, reason;
  c.stream(cms + fmt::format("?watch=1&resourceVersion={}", rv + 1), [&](const std::string& l) {
    auto d = k8s::parse_json(l);
    type = str(*d, {"type"});
    reason = str(*d, {"object", "reason"});
    return false;
  });
  BOOST_TEST(type == "ERROR");
  BOOST_TEST(reason == "Expired");
}

BOOST_AUTO_TEST_CASE(faults_file_and_admin_endpoint) {
  auto dir = std::filesystem::temp_directory_path() / ("c5c3-faults-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto file = dir / "faults.yaml";
  {
    std::ofstream out(file);
    out << "rules:\n- id: secrets-503\n  verb: get\n  resource: secrets\n  status: 503\n"
           "- id: slow\n  verb: list\n  latency: 10ms\n  times: 2\n";
  }
  auto o = plain();
  o.faults_file = file.string();
  server_fixture f(o);
  auto c = f.client();
  BOOST_TEST(f.server->faults().size() == 2u);
  BOOST_TEST(f.server->faults()[1].latency.count() == 10);
  BOOST_TEST(c.get("/api/v1/namespaces/default/secrets/s").status == 503);

  auto add = c.request("POST", "/sim/faults", "verb: delete\nstatus: 500\n", "application/yaml");
  BOOST_TEST(add.status == 201);
  auto listed = c.get("/sim/faults").json();
  BOOST_TEST(k8s::member(listed, "rules")->Size() == 3u);
  BOOST_TEST(*k8s::get_int(listed, {"counters", "secrets-503"}) == 1);
  BOOST_TEST(c.del("/sim/faults/secrets-503").status == 200);
  BOOST_TEST(c.get("/api/v1/namespaces/default/secrets/s").status == 404);
  BOOST_TEST(c.del("/sim/faults").status == 200);
  BOOST_TEST(f.server->faults().empty());
  auto bad_opts = f.client_opts();
  bad_opts.token = "wrong";
  BOOST_TEST(http_client(bad_opts).get("/sim/faults").status == 401);
  BOOST_CHECK_THROW(sim::faults_from_yaml("- verb: get\n  bogus: 1\n"), std::runtime_error);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(write_log_records_every_mutation_in_order) {
  server_fixture f(plain());
  auto c = f.client();
  c.post(cms, R"({"metadata":{"name":"a"}})");
  c.post(cms, R"({"metadata":{"name":"a"}})");  // 409
  c.patch(cms + "/a", R"({"data":{"x":"y"}})", "application/merge-patch+json");
  c.get(cms + "/a");  // not a write
  c.del(cms + "/a");
  auto log = f.server->write_log();
  BOOST_TEST_REQUIRE(log.size() == 4u);
  BOOST_TEST(log[0].verb == "create");
  BOOST_TEST(log[0].code == 201);
  BOOST_TEST(log[0].client == "admin");
  BOOST_TEST(log[0].name == "a");
  BOOST_TEST(log[1].code == 409);
  BOOST_TEST(log[2].verb == "patch");
  BOOST_TEST(log[3].verb == "delete");
  BOOST_TEST(log[3].namespace_ == "default");
  BOOST_TEST(log[0].seq < log[3].seq);
  auto http_log = c.get("/sim/writelog").json();
  BOOST_TEST(http_log.IsArray());
  BOOST_TEST(http_log.Size() == 4u);
  BOOST_TEST(!http_log[0].HasMember("body"));  // bodies only with record_write_bodies
  auto since = c.get(fmt::format("/sim/writelog?since={}", log[1].seq)).json();
  BOOST_TEST_REQUIRE(since.Size() == 2u);
  BOOST_TEST(str(since[0], {"verb"}) == "patch");
  BOOST_TEST(c.get("/sim/writelog?since=x").status == 400);
}

BOOST_AUTO_TEST_CASE(write_log_keeps_the_requests_with_record_write_bodies) {
  auto opts = plain();
  opts.record_write_bodies = true;
  server_fixture f(opts);
  auto c = f.client();
  c.post(cms, R"({"metadata":{"name":"a"}})");
  c.patch(cms + "/a?fieldManager=m", R"({"data":{"x":"y"}})", "application/merge-patch+json");
  auto log = f.server->write_log();
  BOOST_TEST_REQUIRE(log.size() == 2u);
  BOOST_TEST(log[0].method == "POST");
  BOOST_TEST(log[0].target == cms);
  BOOST_TEST(log[0].body == R"({"metadata":{"name":"a"}})");
  auto http_log = c.get("/sim/writelog").json();
  BOOST_TEST_REQUIRE(http_log.Size() == 2u);
  BOOST_TEST(str(http_log[1], {"method"}) == "PATCH");
  BOOST_TEST(str(http_log[1], {"target"}) == cms + "/a?fieldManager=m");
  BOOST_TEST(str(http_log[1], {"contentType"}) == "application/merge-patch+json");
  BOOST_TEST(str(http_log[1], {"body"}) == R"({"data":{"x":"y"}})");
}

BOOST_AUTO_TEST_SUITE_END()
