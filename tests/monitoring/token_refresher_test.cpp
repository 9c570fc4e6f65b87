// ranchertoken.TokenRefresher's pure steps and plan (apis-monitoring.md
// 10.1-10.3) against the pure world (world.hpp), Rancher's answers written
// out as the stand-in gives them: one row per behaviour.
#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/token_refresher.hpp"
#include "k8s/base64.hpp"
#include "tests/monitoring/world.hpp"

#include <fmt/format.h>

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;
using namespace std::chrono_literals;

namespace {

const std::string primary = "token-a:PRIMARYSECRET";
const std::string next_token = "token-b:NEXTSECRET";
const std::string renewed = "token-new:RENEWEDSECRET";

token_refresher_settings settings() { return {"ra", "monitoring-operator", "", 5s}; }

k8s::object secret(std::map<std::string, std::string> data) {
  k8s::object_builder b{"v1", "Secret", "monitoring-operator", "ra"};
  for (const auto& [k, v] : data) b.set_string({"data", k}, k8s::base64_encode(v));
  return std::move(b).freeze();
}

std::string data_of(const k8s::object& s, std::string_view key) {
  auto v = k8s::base64_decode(s.get_string({"data", key}));
  return v ? *v : std::string();
}

std::string at(k8s::time_point t) { return k8s::format_rfc3339(t); }

// The stand-in's GET /v3/tokens/<id> answer.
rt::service_answer token_answer(const std::string& id, k8s::time_point expires) {
  return {200, fmt::format(R"({{"id":"{}","name":"{}","userId":"user-1","expiresAt":"{}","ttl":0}})", id, id, at(expires)), ""};
}

struct rancher_world {
  world w;
  // Whole seconds: the answers carry RFC 3339 times.
  k8s::time_point now = std::chrono::floor<std::chrono::seconds>(k8s::clock::now());
  std::map<std::string, k8s::time_point> expiry;  // by token id; absent: 401
  std::optional<rt::service_answer> renew_answer;  // unset: 201 with `renewed`, 365 days
  std::vector<std::string> bearers;                 // of every call

  rancher_world() {
    w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system, uid: ks-uid}\n"));
    w.services = [this](const rt::service_call& c) -> std::optional<rt::service_answer> {
      bearers.push_back(c.request.authorization);
      if (c.request.method == "POST") {
        if (renew_answer) return *renew_answer;
        return rt::service_answer{201, fmt::format(R"({{"name":"token-new","token":"{}","expiresAt":"{}","ttl":31536000000}})",
                                                   renewed, at(now + 8760h)), ""};
      }
      auto id = c.request.url.substr(c.request.url.rfind('/') + 1);
      if (auto it = expiry.find(id); it != expiry.end()) return token_answer(id, it->second);
      return rt::service_answer{401, R"({"type":"error","status":"401","code":"Unauthorized","message":"must authenticate"})", ""};
    };
  }
  std::string state() const { return cluster_metadata_of(*w.find("Namespace", "", "kube-system"), {}, "")->state(); }
  rt::order_plan pass(k8s::object s) {
    w.put(std::move(s));
    auto k = token_refresher_declaration(settings());
    auto kk = *k;
    kk.plan = [this, k](const rt::sense_snapshot& snap) {
      auto copy = snap;
      copy.now = now;
      return k->plan(copy);
    };
    return w.converge(kk, "monitoring-operator", "ra");
  }
  const k8s::object& stored() const { return *w.find("Secret", "monitoring-operator", "ra"); }
  bool leaks(const rt::order_plan& p) const {
    for (const auto& s : {primary, next_token, renewed})
      if (p.error.find(s.substr(s.find(':') + 1)) != std::string::npos) return true;
    return false;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(token_refresher)

BOOST_AUTO_TEST_CASE(renewal_is_due_within_24_hours_and_comes_back_24_hours_before_expiry) {
  const auto now = k8s::clock::now();
  struct row {
    const char* name;
    std::chrono::seconds left;
    bool due;
    std::optional<std::chrono::seconds> timer_in;
  };
  const std::vector<row> rows = {
      {"a year left", 8760h, false, 8736h},
      {"25 hours left", 25h, false, 1h},
      {"24 hours and a second left", 24h + 1s, false, 1s},
      {"exactly 24 hours left: within", 24h, true, std::nullopt},
      {"23 hours left", 23h, true, std::nullopt},
      {"expired an hour ago", -1h, true, std::nullopt},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      BOOST_TEST(renewal_due(now + r.left, now) == r.due);
      auto t = renewal_at(now + r.left, now);
      BOOST_TEST(t.has_value() == r.timer_in.has_value());
      if (t && r.timer_in) BOOST_TEST((*t == now + *r.timer_in));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_renewal_request_is_upstreams) {
  const auto now = k8s::time_point(std::chrono::seconds(1'800'000'000));
  auto c = renew_request("https://rancher.example/v3/", primary, now, 7s);
  BOOST_TEST(c.service == rancher_service);
  BOOST_TEST(c.id == renew_call_id);
  BOOST_TEST(c.request.method == "POST");
  BOOST_TEST(c.request.url == "https://rancher.example/v3/tokens");
  BOOST_TEST(c.request.authorization == "Bearer " + primary);
  BOOST_TEST(c.request.insecure_skip_verify);
  BOOST_TEST((c.request.timeout == 7s));
  auto body = k8s::parse_json(c.request.body);
  BOOST_TEST_REQUIRE(body.has_value());
  BOOST_TEST(same_json(&*body, R"({"description":"monitoring-operator-1800000000","ttl":31536000000})"));
}

BOOST_AUTO_TEST_CASE(renewal_answers_are_read_without_repeating_a_token) {
  const auto now = k8s::time_point(std::chrono::seconds(1'800'000'000));
  struct row {
    const char* name;
    rt::service_answer answer;
    std::string token;  // "" an error
    std::string error;
  };
  const std::vector<row> rows = {
      {"created", {201, R"({"token":"token-x:S1","expiresAt":"2027-01-15T08:00:00Z","ttl":1000})", ""}, "token-x:S1", ""},
      {"refused", {401, R"({"type":"error","status":"401","code":"Unauthorized","message":"must authenticate"})", ""}, "",
       "renewing its token failed: Rancher answered 401 (Unauthorized)"},
      {"a 5xx without a body", {503, "", ""}, "", "renewing its token failed: Rancher answered 503"},
      {"no HTTP answer", {0, "", "transport: POST https://rancher.example/v3/tokens: connection refused"}, "",
       "renewing its token failed: transport: POST https://rancher.example/v3/tokens: connection refused"},
      {"no token in the answer", {201, R"({"name":"token-x"})", ""}, "",
       "renewing its token: Rancher's answer (201) carries no token"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      std::string error;
      auto t = read_renewal(r.answer, now, error);
      BOOST_TEST(t.has_value() == !r.token.empty());
      if (t) BOOST_TEST(t->token == r.token);
      BOOST_TEST(error == r.error);
    }
  }
  std::string error;
  auto ttl_only = read_renewal({201, R"({"token":"t:s","expiresAt":"","ttl":3600000})", ""}, now, error);
  BOOST_TEST_REQUIRE(ttl_only.has_value());
  BOOST_TEST((ttl_only->expiry == now + 1h));
}

BOOST_AUTO_TEST_CASE(the_secret_patch_writes_the_three_keys_once) {
  renewed_token t{renewed, "2027-12-01T00:00:00Z", {}};
  auto s = secret({{"baseURL", "https://r/v3"}, {"token", primary}});
  auto w = renewal_patch(s, t, "STATE");
  BOOST_TEST_REQUIRE(w.has_value());
  BOOST_TEST(w->describe() == "patch Secret monitoring-operator/ra");
  BOOST_TEST(data_of(w->body, "token.next") == renewed);
  BOOST_TEST(data_of(w->body, "token.state") == "STATE");
  BOOST_TEST(data_of(w->body, "token.expiresAt") == "2027-12-01T00:00:00Z");
  BOOST_TEST(!w->body.get({"data", "token"}), "the primary token is never rewritten");
  auto done = secret({{"baseURL", "https://r/v3"}, {"token", primary}, {"token.next", renewed},
                      {"token.state", "STATE"}, {"token.expiresAt", "2027-12-01T00:00:00Z"}});
  BOOST_TEST(!renewal_patch(done, t, "STATE").has_value());
}

BOOST_AUTO_TEST_CASE(passes_renew_only_within_24_hours) {
  struct row {
    const char* name;
    std::chrono::seconds primary_left;
    std::optional<std::chrono::seconds> next_left;  // token.next at the cluster's state
    bool renews;
    std::string bearer;  // of the renewal
  };
  const std::vector<row> rows = {
      {"48 hours left: no renewal", 48h, std::nullopt, false, ""},
      {"24 hours and a minute left: no renewal", 24h + 1min, std::nullopt, false, ""},
      {"23 hours left: renewed with it", 23h, std::nullopt, true, "Bearer " + primary},
      {"a renewed token.next expiring later counts", 23h, 100h, false, ""},
      {"token.next expiring sooner does not", 30h, 20h, false, ""},
      {"both within a day: renewed with the later one", 2h, 3h, true, "Bearer " + next_token},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      rancher_world rw;
      rw.expiry["token-a"] = rw.now + r.primary_left;
      std::map<std::string, std::string> d{{"baseURL", "https://rancher.example/v3"}, {"token", primary}};
      if (r.next_left) {
        rw.expiry["token-b"] = rw.now + *r.next_left;
        d["token.next"] = next_token;
        d["token.state"] = rw.state();
      }
      auto p = rw.pass(secret(d));
      BOOST_TEST(p.error.empty(), p.error);
      const auto renewal_lines = std::count(rw.w.log.begin(), rw.w.log.end(), "call rancher POST https://rancher.example/v3/tokens");
      BOOST_TEST(renewal_lines == (r.renews ? 1 : 0));
      BOOST_TEST_REQUIRE(p.timers.count(renewal_timer) == 1u);
      if (r.renews) {
        BOOST_TEST(rw.bearers.back() == r.bearer);
        BOOST_TEST(data_of(rw.stored(), "token.next") == renewed);
        BOOST_TEST(data_of(rw.stored(), "token.state") == rw.state());
        BOOST_TEST(data_of(rw.stored(), "token.expiresAt") == at(rw.now + 8760h));
        BOOST_TEST(data_of(rw.stored(), "token") == primary);
        BOOST_TEST((p.timers.at(renewal_timer) == rw.now + 8760h - 24h));
      } else {
        BOOST_TEST(std::count(rw.w.log.begin(), rw.w.log.end(), "patch Secret monitoring-operator/ra") == 0);
        const auto left = r.next_left && *r.next_left > r.primary_left ? *r.next_left : r.primary_left;
        BOOST_TEST((p.timers.at(renewal_timer) == rw.now + left - 24h));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(token_next_of_another_state_is_not_used) {
  rancher_world rw;
  rw.expiry["token-a"] = rw.now + 2h;
  rw.expiry["token-b"] = rw.now + 500h;
  auto p = rw.pass(secret({{"baseURL", "https://rancher.example/v3"}, {"token", primary}, {"token.next", next_token},
                           {"token.state", "another-cluster"}}));
  BOOST_TEST(p.error.empty(), p.error);
  BOOST_TEST(std::count(rw.w.log.begin(), rw.w.log.end(), "call rancher GET https://rancher.example/v3/tokens/token-b") == 0);
  BOOST_TEST(data_of(rw.stored(), "token.next") == renewed);
  BOOST_TEST(data_of(rw.stored(), "token.state") == rw.state());
}

BOOST_AUTO_TEST_CASE(failures_name_the_secret_and_never_a_token) {
  struct row {
    const char* name;
    std::map<std::string, std::string> data;
    bool primary_known;
    std::optional<rt::service_answer> renew;
    std::string error;
  };
  const std::string b = "https://rancher.example/v3";
  const std::vector<row> rows = {
      {"no baseURL", {{"token", primary}}, true, std::nullopt, "rancher auth secret monitoring-operator/ra is missing key baseURL"},
      {"a token the API refuses", {{"baseURL", b}, {"token", primary}}, false, std::nullopt,
       "rancher auth secret monitoring-operator/ra: no active rancher token found"},
      {"a token without its id", {{"baseURL", b}, {"token", "PRIMARYSECRET"}}, false, std::nullopt,
       "rancher auth secret monitoring-operator/ra: rancher token format is invalid"},
      {"the renewal refused",
       {{"baseURL", b}, {"token", primary}},
       true,
       rt::service_answer{403, R"({"type":"error","status":"403","code":"PermissionDenied","message":"no PRIMARYSECRET"})", ""},
       "rancher auth secret monitoring-operator/ra: renewing its token failed: Rancher answered 403 (PermissionDenied)"},
      {"Rancher down for the renewal",
       {{"baseURL", b}, {"token", primary}},
       true,
       rt::service_answer{0, "", "transport: POST https://rancher.example/v3/tokens: connection refused"},
       "rancher auth secret monitoring-operator/ra: renewing its token failed: transport: POST "
       "https://rancher.example/v3/tokens: connection refused"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      rancher_world rw;
      if (r.primary_known) rw.expiry["token-a"] = rw.now + 1h;
      rw.renew_answer = r.renew;
      auto p = rw.pass(secret(r.data));
      BOOST_TEST(p.error == r.error);
      BOOST_TEST(!rw.leaks(p));
      BOOST_TEST(p.writes.empty());
      BOOST_TEST(data_of(rw.stored(), "token.next").empty());
      BOOST_TEST(p.timers.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(only_the_configured_secret_is_watched) {
  auto k = token_refresher_declaration(settings());
  BOOST_TEST(k->controller == token_refresher_controller);
  bool secret_watch = false;
  for (const auto& w : rt::watches_of(*k)) {
    if (w.gvk.kind != "Secret") continue;
    BOOST_TEST(!secret_watch, "one Secret watch");
    secret_watch = true;
    BOOST_TEST(w.namespace_ == "monitoring-operator");
    BOOST_TEST(w.field_selector == "metadata.name=ra");
  }
  BOOST_TEST(secret_watch);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
