// The pure cores of the backend ("trickster") registration API and the
// Rancher v3 API stand-ins, and the fault rule list: table-driven, no sockets.
#include "sim/monitoring/faults.hpp"
#include "sim/monitoring/rancher.hpp"
#include "sim/monitoring/trickster.hpp"
#include "tests/monitoring_sim/requests.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::monitoring;
using namespace c5c3::sim::monitoring::testing;

namespace {

// The body the PrometheusReconciler sends for the default Prometheus (section 5).
const char* register_default = R"({"hubUID":"hub-1","clusterUID":"c-1","default":true,
  "prometheus":{"url":"","service":{"scheme":"http","name":"prometheus","namespace":"monitoring","port":"9090",
  "path":"","query":""},"basicAuth":{"username":"","password":""},"bearerToken":"sa-token",
  "tls":{"ca":"CA","cert":"","key":"","serverName":"","insecureSkipTLSVerify":false}}})";

std::string header(const answer& a, std::string_view name) {
  for (auto& [k, v] : a.headers)
    if (k == name) return v;
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(trickster_standin)

BOOST_AUTO_TEST_CASE(routes_auth_and_failure_answers) {
  trickster_options o;
  o.token = "platform-token";
  o.grafana_url = "http://grafana.test";
  o.grafana_token = "grafana-key";
  trickster_backend t(o);
  const auto tok = bearer("platform-token");
  const std::vector<documented_call> rows = {
      {"register the default Prometheus", "POST", "/api/v1/trickster/register", tok, register_default, 200,
       {"grafana", "folderID", "datasource"}, {{"datasource", "1.c-1"}, {"folderID", "1"}}},
      {"path.Join's doubled slashes are cleaned", "POST", "//api/v1//trickster/register/", tok, register_default, 200,
       {"grafana"}, {{"datasource", "1.c-1"}, {"folderID", "1"}}},
      {"no token", "POST", "/api/v1/trickster/register", "", register_default, 401, {}, {}},
      {"a wrong token", "POST", "/api/v1/trickster/register", bearer("x"), register_default, 401, {}, {}},
      {"GET is not served", "GET", "/api/v1/trickster/register", tok, "", 405, {}, {}},
      {"another path", "POST", "/api/v1/trickster/other", tok, "{}", 404, {}, {}},
      {"a body that is not an object", "POST", "/api/v1/trickster/register", tok, "[1]", 400, {}, {}},
      {"register without prometheus", "POST", "/api/v1/trickster/register", tok, R"({"clusterUID":"c-1"})", 400, {}, {}},
      {"a project Prometheus", "POST", "/api/v1/trickster/register", tok,
       R"({"clusterUID":"c-1","projectId":"p-9","default":false,"prometheus":{"url":"http://p"}})", 200,
       {"grafana"}, {{"datasource", "1.c-1.p-9"}, {"folderID", "2"}}},
      {"unregister (no prometheus needed, unknown is fine)", "POST", "/api/v1/trickster/unregister", tok,
       R"({"clusterUID":"c-1","projectId":"p-0","default":false})", 200, {}, {}},
  };
  run_documented(t, rows);
  // The answer's Grafana part as the controllers read it.
  auto a = call(t, "POST", "/api/v1/trickster/register", tok, register_default);
  auto d = a.json();
  BOOST_TEST(k8s::get_string(d, {"grafana", "url"}) == "http://grafana.test");
  BOOST_TEST(k8s::get_string(d, {"grafana", "bearerToken"}) == "grafana-key");
  BOOST_TEST(k8s::get_int(d, {"grafana", "dashboard", "folderID"}).value_or(0) == 1);
  // Three register calls for the default context, one registration; the sent config kept.
  auto key = trickster_backend::context_key("prometheus", *k8s::parse_json(register_default));
  BOOST_TEST_REQUIRE(t.registrations().count(key) == 1u);
  const auto& r = t.registrations().at(key);
  BOOST_TEST(r.registers == 3);
  BOOST_TEST(k8s::get_string(r.config, {"service", "port"}) == "9090");
  BOOST_TEST(k8s::get_string(r.config, {"bearerToken"}) == "sa-token");
  BOOST_TEST(t.register_calls() == 4);
  // The state shows no secret.
  auto s = k8s::to_json(t.state());
  BOOST_TEST(s.find("sa-token") == std::string::npos);
  BOOST_TEST(s.find("\"bearerTokenSet\":true") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(client_orgs_get_their_own_token_and_unregister_removes) {
  trickster_options o;
  std::vector<std::string> issued;
  o.link.issue_token = [&](const std::string& org) {
    issued.push_back(org);
    return "token-of-" + org;
  };
  o.link.ensure_folder = [](const std::string& title) { return title.size() > 10 ? 42 : 7; };
  trickster_backend t(o);
  auto a = call(t, "POST", "/api/v1/trickster/register", "",
                R"({"hubUID":"h","clusterUID":"c-1","projectId":"","default":false,"issueToken":true,
                    "clientOrgID":"17","prometheus":{"url":""}})");
  BOOST_TEST_REQUIRE(a.status == 200, a.body);
  auto d = a.json();
  BOOST_TEST(k8s::get_string(d, {"grafana", "bearerToken"}) == "token-of-17");
  BOOST_TEST(k8s::get_string(d, {"datasource"}) == "1.c-1.org-17");
  BOOST_TEST(k8s::get_int(d, {"folderID"}).value_or(0) == 42);
  BOOST_TEST(issued == std::vector<std::string>{"17"}, boost::test_tools::per_element());
  BOOST_TEST(t.registrations().size() == 1u);
  BOOST_TEST(call(t, "POST", "/api/v1/trickster/unregister", "",
                  R"({"hubUID":"h","clusterUID":"c-1","projectId":"","default":false,"issueToken":true,"clientOrgID":"17"})")
                 .status == 200);
  BOOST_TEST(t.registrations().empty());
  BOOST_TEST(t.unregistered().size() == 1u);
  // Perses has its own pair of routes and registrations.
  BOOST_TEST(call(t, "POST", "/api/v1/trickster/perses/register", "",
                  R"({"clusterUID":"c-1","default":true,"perses":{"url":""}})").status == 200);
  BOOST_TEST(t.registrations().begin()->second.kind == "perses");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(rancher_standin)

// What norman's NewAPIClient, Token.ByID and Token.Create do, in order.
BOOST_AUTO_TEST_CASE(norman_client_flow) {
  rancher_options o;
  auto seed = rancher_api::parse_seed("token-abcde:s3cret:user-42:48h");
  o.tokens = {seed};
  rancher_api r(o);
  const std::string base = "http://127.0.0.1:8443";
  const auto tok = bearer("token-abcde:s3cret");
  auto root = call(r, "GET", "/v3", tok, "", {}, "", base);
  BOOST_TEST(root.status == 200);
  BOOST_TEST(header(root, "X-API-Schemas") == base + "/v3/schemas");
  auto schemas = call(r, "GET", "/v3/schemas", tok, "", {}, "", base).json();
  BOOST_TEST(k8s::get_string(schemas, {"type"}) == "collection");
  const auto& token_schema = (*k8s::find(schemas, {"data"}))[0];
  BOOST_TEST(k8s::get_string(token_schema, {"id"}) == "token");
  BOOST_TEST(k8s::get_string(token_schema, {"links", "collection"}) == base + "/v3/tokens");
  auto got = call(r, "GET", "/v3/tokens/token-abcde", tok, "", {}, "", base);
  BOOST_TEST_REQUIRE(got.status == 200, got.body);
  BOOST_TEST(field(got, "userId") == "user-42");
  BOOST_TEST(field(got, "ttl") == "172800000");
  BOOST_TEST(field(got, "token") == "<absent>");  // the secret is never read back
  auto expires = k8s::parse_rfc3339(field(got, "expiresAt"));
  BOOST_TEST_REQUIRE(expires.has_value());
  BOOST_TEST((*expires > r.now() + std::chrono::hours(47)));
  // Renewal as the refresher asks for it.
  auto made = call(r, "POST", "/v3/tokens", tok, R"({"description":"monitoring-operator-1","ttl":31536000000})", {},
                   "", base);
  BOOST_TEST_REQUIRE(made.status == 201, made.body);
  std::string full = field(made, "token");
  BOOST_TEST(full.rfind(field(made, "name") + ":", 0) == 0u);
  BOOST_TEST(field(made, "ttl") == "31536000000");
  BOOST_TEST(field(made, "userId") == "user-42");
  BOOST_TEST(call(r, "GET", "/v3", bearer(full), "", {}, "", base).status == 200);
  BOOST_TEST(r.created_count() == 1);
}

BOOST_AUTO_TEST_CASE(expiry_follows_the_stand_in_clock) {
  rancher_options o;
  o.tokens = {rancher_api::parse_seed("token-aaaaa:x:u:25h")};
  o.max_ttl_ms = 24 * 3600 * 1000;
  rancher_api r(o);
  const auto tok = bearer("token-aaaaa:x");
  BOOST_TEST(call(r, "GET", "/v3/tokens/token-aaaaa", tok).status == 200);
  // max TTL caps what a renewal gets.
  auto made = call(r, "POST", "/v3/tokens", tok, R"({"ttl":31536000000})");
  BOOST_TEST(field(made, "ttl") == "86400000");
  r.advance(std::chrono::hours(24) + std::chrono::minutes(1));
  auto old = call(r, "GET", "/v3/tokens/token-aaaaa", tok);
  BOOST_TEST(old.status == 200);
  BOOST_TEST(field(old, "expired") == "false");
  r.advance(std::chrono::hours(1));
  auto late = call(r, "GET", "/v3/tokens/token-aaaaa", tok);
  BOOST_TEST(late.status == 401);
  BOOST_TEST(field(late, "code") == "Unauthorized");
  BOOST_TEST(field(late, "message") == "must authenticate");
  BOOST_TEST(field(late, "type") == "error");
  BOOST_TEST(call(r, "GET", "/v3", bearer("token-aaaaa:wrong")).status == 401);
  BOOST_TEST(call(r, "GET", "/v3", basic("token-aaaaa", "x")).status == 401);  // expired either way
  BOOST_CHECK_THROW(rancher_api::parse_seed("no-secret"), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(standin_faults)

BOOST_AUTO_TEST_CASE(rules_parse_match_and_count) {
  auto rules = faults_from_text(R"(
- {id: slow, path: /api/dashboards/, latency: 250ms, times: 1}
- {method: POST, path: /api/v1/trickster/register, status: 503}
- {path: /v3, reset: true}
)");
  BOOST_TEST_REQUIRE(rules.size() == 3u);
  BOOST_TEST(rules[0].latency.count() == 250);
  fault_list f;
  for (auto& r : rules) f.add(r);
  BOOST_TEST(f.match("GET", "/api/dashboards/uid/x")->id == "slow");
  BOOST_TEST(!f.match("GET", "/api/dashboards/uid/x"));  // times: 1
  BOOST_TEST(!f.match("GET", "/api/v1/trickster/register"));
  BOOST_TEST(f.match("POST", "/api/v1/trickster/register")->status == 503);
  BOOST_TEST(f.match("GET", "/v3/tokens/t")->reset);
  BOOST_TEST(f.fired().at("slow") == 1);
  BOOST_CHECK_THROW(faults_from_text("{path: /x}"), std::runtime_error);        // no effect
  BOOST_CHECK_THROW(faults_from_text("{status: 500, bogus: 1}"), std::runtime_error);
  BOOST_CHECK_THROW(faults_from_text("{latency: soon}"), std::runtime_error);
  f.clear();
  BOOST_TEST(f.rules().empty());
}

BOOST_AUTO_TEST_SUITE_END()
