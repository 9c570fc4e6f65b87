// Events and APIServices over HTTP against the in-process emulator: one Event
// store behind core/v1 and events.k8s.io/v1 (writes through either, reads,
// lists, field selectors and watches through both), the validation of each
// view; the local APIServices of the built-in groups and of CRDs (following
// the CRD), service-backed APIServices whose Available condition follows
// their Service and Endpoints, and the strategy's rules; the tokens
// controller filling service-account-token Secrets.
#include "k8s/base64.hpp"
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>

#include <thread>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string str(const k8s::json_value& v, std::initializer_list<std::string_view> p) {
  return std::string(k8s::get_string(v, p));
}

const std::string core_events = "/api/v1/namespaces/default/events";
const std::string v1_events = "/apis/events.k8s.io/v1/namespaces/default/events";
const std::string apiservices = "/apis/apiregistration.k8s.io/v1/apiservices";

const char* legacy_event = R"({"metadata":{"name":"w1.a"},
  "involvedObject":{"kind":"Widget","namespace":"default","name":"w1","uid":"u-1"},
  "reason":"Provisioned","message":"widget is ready","type":"Normal","source":{"component":"widget-ctl"},
  "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:00:00Z","count":1})";

const char* new_event = R"({"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"w1.b"},
  "eventTime":"2026-01-01T00:00:01.000000Z","reportingController":"example.com/widget-ctl",
  "reportingInstance":"widget-ctl-0","action":"Sync","reason":"Failed","type":"Warning",
  "regarding":{"kind":"Widget","namespace":"default","name":"w1","uid":"u-1"},"note":"backend answered 503"})";

std::vector<std::string> names(const k8s::json_value& list) {
  std::vector<std::string> out;
  if (auto* items = k8s::member(list, "items"); items && items->IsArray())
    for (auto& i : items->GetArray()) out.push_back(str(i, {"metadata", "name"}));
  return out;
}

const k8s::json_value* available(const k8s::json_value& apiservice) {
  if (auto* cs = k8s::find(apiservice, {"status", "conditions"}); cs && cs->IsArray())
    for (auto& c : cs->GetArray())
      if (str(c, {"type"}) == "Available") return &c;
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(apiserver_events)

BOOST_AUTO_TEST_CASE(one_store_behind_both_views) {
  server_fixture f(plain());
  auto c = f.client();
  auto a = c.post(core_events, legacy_event);
  BOOST_TEST_REQUIRE(a.status == 201, a.body);
  BOOST_TEST(str(a.json(), {"apiVersion"}) == "v1");
  auto b = c.post(v1_events, new_event);
  BOOST_TEST_REQUIRE(b.status == 201, b.body);
  BOOST_TEST(str(b.json(), {"apiVersion"}) == "events.k8s.io/v1");
  BOOST_TEST(str(b.json(), {"note"}) == "backend answered 503");

  // The legacy event through events.k8s.io, the new one through core.
  auto a1 = c.get(v1_events + "/w1.a").json();
  BOOST_TEST(str(a1, {"note"}) == "widget is ready");
  BOOST_TEST(str(a1, {"regarding", "name"}) == "w1");
  BOOST_TEST(str(a1, {"deprecatedSource", "component"}) == "widget-ctl");
  BOOST_TEST(k8s::get_int(a1, {"deprecatedCount"}).value_or(0) == 1);
  BOOST_TEST(k8s::find(a1, {"eventTime"})->IsNull());
  auto b0 = c.get(core_events + "/w1.b").json();
  BOOST_TEST(str(b0, {"message"}) == "backend answered 503");
  BOOST_TEST(str(b0, {"involvedObject", "uid"}) == "u-1");
  BOOST_TEST(str(b0, {"reportingComponent"}) == "example.com/widget-ctl");
  BOOST_TEST(k8s::find(b0, {"firstTimestamp"})->IsNull());
  BOOST_TEST(str(b0, {"metadata", "resourceVersion"}) == str(b.json(), {"metadata", "resourceVersion"}));

  std::vector<std::string> both = {"w1.a", "w1.b"};
  BOOST_TEST(names(c.get(core_events).json()) == both, boost::test_tools::per_element());
  BOOST_TEST(names(c.get(v1_events).json()) == both, boost::test_tools::per_element());
  BOOST_TEST(str(c.get(v1_events).json(), {"kind"}) == "EventList");

  // kubectl describe's selector (core) and its events.k8s.io counterpart.
  auto described = c.get(core_events + "?fieldSelector=involvedObject.name%3Dw1,involvedObject.kind%3DWidget,"
                                       "involvedObject.uid%3Du-1,reason%3DFailed");
  BOOST_TEST(names(described.json()) == std::vector<std::string>{"w1.b"}, boost::test_tools::per_element());
  auto regarding = c.get(v1_events + "?fieldSelector=regarding.name%3Dw1,reportingController%3Dwidget-ctl");
  BOOST_TEST(names(regarding.json()).empty());
  auto by_source = c.get(v1_events + "?fieldSelector=source%3Dwidget-ctl,type%3DNormal");
  BOOST_TEST(names(by_source.json()) == std::vector<std::string>{"w1.a"}, boost::test_tools::per_element());
  auto bad = c.get(v1_events + "?fieldSelector=involvedObject.name%3Dw1");
  BOOST_TEST(bad.status == 400);
  BOOST_TEST(str(bad.json(), {"message"}) == "field label not supported: involvedObject.name");
  BOOST_TEST(c.get(core_events + "?fieldSelector=regarding.name%3Dw1").status == 400);

  // Deleting through one view removes it from both.
  BOOST_TEST(c.del(v1_events + "/w1.a").status == 200);
  BOOST_TEST(c.get(core_events + "/w1.a").status == 404);
  BOOST_TEST(f.server->list_objects("events").size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_core_watch_sees_events_written_through_events_k8s_io) {
  server_fixture f(plain());
  auto c = f.client();
  auto rv = str(c.get(core_events).json(), {"metadata", "resourceVersion"});
  std::thread writer([&] {
    auto w = f.client();
    w.post(v1_events, new_event);
    w.patch(v1_events + "/w1.b", R"({"series":{"count":2,"lastObservedTime":"2026-01-01T00:05:00.000000Z"}})",
            "application/merge-patch+json");
  });
  std::vector<std::string> seen;
  auto res = c.stream(core_events + fmt::format("?watch=1&resourceVersion={}", rv), [&](const std::string& line) {
    auto d = k8s::parse_json(line);
    BOOST_REQUIRE(d);
    seen.push_back(str(*d, {"type"}) + " " + str(*d, {"object", "apiVersion"}) + " " +
                   str(*d, {"object", "message"}) + " " +
                   std::to_string(k8s::get_int(*d, {"object", "series", "count"}).value_or(0)));
    return seen.size() < 2;
  });
  writer.join();
  BOOST_TEST(res.status == 200);
  std::vector<std::string> want = {"ADDED v1 backend answered 503 0", "MODIFIED v1 backend answered 503 2"};
  BOOST_TEST(seen == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(each_view_validates_as_kube_does) {
  server_fixture f(plain());
  auto c = f.client();
  // Legacy: the involved object's namespace must be the event's.
  auto r = c.post(core_events, R"({"metadata":{"name":"x"},"involvedObject":{"namespace":"other"}})");
  BOOST_TEST(r.status == 422);
  BOOST_TEST(str(r.json(), {"message"}) ==
             "Event \"x\" is invalid: involvedObject.namespace: Invalid value: \"other\": does not match event.namespace");
  // events.k8s.io is strict (paths are the internal names, as kube reports them).
  r = c.post(v1_events, R"({"metadata":{"name":"y"},"regarding":{"namespace":"default"},"type":"Normal",
                           "deprecatedCount":3})");
  BOOST_TEST(r.status == 422);
  BOOST_TEST(str(r.json(), {"message"}) ==
             "Event.events.k8s.io \"y\" is invalid: [eventTime: Required value, count: Invalid value: \"\": needs to be unset]");
  // Core names are path segments (any case); events.k8s.io names DNS subdomains.
  BOOST_TEST(c.post(core_events, R"({"metadata":{"name":"W1.Upper"},"involvedObject":{"namespace":"default"}})").status ==
             201);
  auto up = k8s::parse_json(new_event);
  k8s::set_member(*k8s::member(*up, "metadata"), "name", k8s::make_string("W1.Upper2", up->GetAllocator()),
                  up->GetAllocator());
  BOOST_TEST(c.post(v1_events, k8s::to_json(*up)).status == 422);
  // A new-style event's note is immutable through events.k8s.io.
  BOOST_TEST_REQUIRE(c.post(v1_events, new_event).status == 201);
  r = c.patch(v1_events + "/w1.b", R"({"note":"changed"})", "application/merge-patch+json");
  BOOST_TEST(r.status == 422);
  BOOST_TEST(str(r.json(), {"message"}).find("message: Invalid value: \"changed\": field is immutable") !=
             std::string::npos, str(r.json(), {"message"}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(apiserver_apiservices)

BOOST_AUTO_TEST_CASE(local_apiservices_follow_the_served_group_versions) {
  server_fixture f(plain());
  auto c = f.client();
  auto list = c.get(apiservices).json();
  auto all = names(list);
  for (const char* n : {"v1.", "v1.events.k8s.io", "v1.rbac.authorization.k8s.io", "v1.apiextensions.k8s.io",
                        "v1.coordination.k8s.io"})
    BOOST_TEST((std::find(all.begin(), all.end(), n) != all.end()), n);
  auto core = c.get(apiservices + "/v1.").json();
  BOOST_TEST(str(core, {"metadata", "labels", "kube-aggregator.kubernetes.io/automanaged"}) == "onstart");
  BOOST_TEST(k8s::get_int(core, {"spec", "groupPriorityMinimum"}).value_or(0) == 18000);
  BOOST_TEST(k8s::find(core, {"spec", "group"}) == nullptr);
  BOOST_TEST_REQUIRE(available(core));
  BOOST_TEST(str(*available(core), {"reason"}) == "Local");

  auto crd = R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
    "names":{"plural":"widgets","kind":"Widget"},"versions":[
      {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},
      {"name":"v1beta1","served":false,"storage":false,"schema":{"openAPIV3Schema":{"type":"object"}}}]}})";
  BOOST_TEST_REQUIRE(c.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).status == 201);
  auto w = c.get(apiservices + "/v1.example.com");
  BOOST_TEST_REQUIRE(w.status == 200);
  BOOST_TEST(str(w.json(), {"metadata", "labels", "kube-aggregator.kubernetes.io/automanaged"}) == "true");
  BOOST_TEST(k8s::get_int(w.json(), {"spec", "versionPriority"}).value_or(0) == 100);
  BOOST_TEST(c.get(apiservices + "/v1beta1.example.com").status == 404);  // not served
  BOOST_TEST(c.del("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com").status == 200);
  BOOST_TEST(c.get(apiservices + "/v1.example.com").status == 404);
  BOOST_TEST(c.get(apiservices + "/v1.").status == 200);
}

BOOST_AUTO_TEST_CASE(availability_follows_the_service_and_its_endpoints) {
  server_fixture f(plain());
  auto c = f.client();
  BOOST_TEST_REQUIRE(c.post("/api/v1/namespaces", R"({"metadata":{"name":"monitoring"}})").status == 201);
  auto created = c.post(apiservices, R"({"metadata":{"name":"v1alpha1.inbox.monitoring.appscode.com"},
    "spec":{"group":"inbox.monitoring.appscode.com","version":"v1alpha1","groupPriorityMinimum":10000,
            "versionPriority":15,"insecureSkipTLSVerify":true,
            "service":{"namespace":"monitoring","name":"inbox-agent"}},"status":{"conditions":[{"type":"Available","status":"True"}]}})");
  BOOST_TEST_REQUIRE(created.status == 201, created.body);
  // The strategy clears the status on create; the defaulted port is 443.
  BOOST_TEST(available(created.json()) == nullptr);
  BOOST_TEST(k8s::get_int(created.json(), {"spec", "service", "port"}).value_or(0) == 443);
  auto reason = [&] {
    auto o = c.get(apiservices + "/v1alpha1.inbox.monitoring.appscode.com").json();
    auto* a = available(o);
    return a ? str(*a, {"status"}) + " " + str(*a, {"reason"}) : std::string("none");
  };
  BOOST_TEST(reason() == "False ServiceNotFound");
  BOOST_TEST_REQUIRE(c.post("/api/v1/namespaces/monitoring/services",
                            R"({"metadata":{"name":"inbox-agent"},"spec":{"ports":[{"name":"https","port":443}]}})")
                         .status == 201);
  BOOST_TEST(reason() == "False EndpointsNotFound");
  BOOST_TEST_REQUIRE(c.post("/api/v1/namespaces/monitoring/endpoints", R"({"metadata":{"name":"inbox-agent"},
    "subsets":[{"addresses":[{"ip":"10.0.0.7"}],"ports":[{"name":"https","port":8443}]}]})").status == 201);
  BOOST_TEST(reason() == "True Passed");
  BOOST_TEST(c.del("/api/v1/namespaces/monitoring/services/inbox-agent").status == 200);
  BOOST_TEST(reason() == "False ServiceNotFound");

  // The Table kubectl get prints.
  auto table = c.request("GET", apiservices + "/v1alpha1.inbox.monitoring.appscode.com", {}, "application/json",
                         {{"Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"}});
  auto t = table.json();
  BOOST_TEST(str((*k8s::find(t, {"columnDefinitions"}))[1], {"name"}) == "Service");
  auto& cells = *k8s::find((*k8s::find(t, {"rows"}))[0], {"cells"});
  BOOST_TEST(k8s::as_string_view(cells[1]) == "monitoring/inbox-agent");
  BOOST_TEST(k8s::as_string_view(cells[2]) == "False (ServiceNotFound)");
}

BOOST_AUTO_TEST_CASE(strategy_and_validation) {
  server_fixture f(plain());
  auto c = f.client();
  auto r = c.post(apiservices, R"({"metadata":{"name":"v1.wrong.io"},
    "spec":{"group":"g.io","version":"v1","groupPriorityMinimum":100,"versionPriority":10}})");
  BOOST_TEST(r.status == 422);
  BOOST_TEST(str(r.json(), {"message"}) ==
             "APIService.apiregistration.k8s.io \"v1.wrong.io\" is invalid: metadata.name: Invalid value: "
             "\"v1.wrong.io\": must be `spec.version+\".\"+spec.group`: \"v1.g.io\"");
  BOOST_TEST_REQUIRE(c.post(apiservices, R"({"metadata":{"name":"v1.g.io"},
    "spec":{"group":"g.io","version":"v1","groupPriorityMinimum":100,"versionPriority":10}})").status == 201);
  // No unconditional update (AllowUnconditionalUpdate false).
  r = c.put(apiservices + "/v1.g.io", R"({"metadata":{"name":"v1.g.io"},
    "spec":{"group":"g.io","version":"v1","groupPriorityMinimum":200,"versionPriority":10}})");
  BOOST_TEST(r.status == 422);
  BOOST_TEST(str(r.json(), {"message"}).find("metadata.resourceVersion") != std::string::npos, r.body);
  // A status write through /status keeps the spec; the condition status must be True, False or Unknown.
  auto cur = c.get(apiservices + "/v1.g.io").json();
  auto rv = str(cur, {"metadata", "resourceVersion"});
  r = c.put(apiservices + "/v1.g.io/status", fmt::format(R"({{"metadata":{{"name":"v1.g.io","resourceVersion":"{}"}},
    "spec":{{"group":"g.io","version":"v1","groupPriorityMinimum":5,"versionPriority":5}},
    "status":{{"conditions":[{{"type":"Available","status":"Maybe"}}]}}}})", rv));
  BOOST_TEST(r.status == 422);
  BOOST_TEST(str(r.json(), {"message"}).find("status.conditions[0].status: Unsupported value: \"Maybe\"") !=
             std::string::npos, r.body);
  BOOST_TEST(k8s::get_int(c.get(apiservices + "/v1.g.io").json(), {"spec", "groupPriorityMinimum"}).value_or(0) == 100);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(apiserver_token_controller)

// What kmodules' GetServiceAccountTokenSecret waits for: a Secret of type
// kubernetes.io/service-account-token for the ServiceAccount, with token and ca.crt.
BOOST_AUTO_TEST_CASE(service_account_token_secrets_are_filled) {
  server_fixture f(plain());
  auto c = f.client();
  const std::string secrets = "/api/v1/namespaces/default/secrets";
  auto token_secret = [](const char* name) {
    return fmt::format(R"({{"metadata":{{"name":"{}","annotations":{{"kubernetes.io/service-account.name":"trickster"}}}},
      "type":"kubernetes.io/service-account-token"}})", name);
  };
  // Before the ServiceAccount exists the Secret stays empty ...
  BOOST_TEST_REQUIRE(c.post(secrets, token_secret("early")).status == 201);
  BOOST_TEST(k8s::find(c.get(secrets + "/early").json(), {"data", "token"}) == nullptr);
  // ... and is filled when it appears, as is one made afterwards.
  auto sa = c.post("/api/v1/namespaces/default/serviceaccounts", R"({"metadata":{"name":"trickster"}})");
  BOOST_TEST_REQUIRE(sa.status == 201);
  BOOST_TEST_REQUIRE(c.post(secrets, token_secret("late")).status == 201);
  for (const char* name : {"early", "late"}) {
    auto s = c.get(secrets + "/" + name).json();
    BOOST_TEST(!str(s, {"data", "token"}).empty(), name);
    BOOST_TEST(k8s::base64_decode(str(s, {"data", "ca.crt"})).value_or("") == f.server->ca_pem(), name);
    BOOST_TEST(k8s::base64_decode(str(s, {"data", "namespace"})).value_or("") == "default", name);
    BOOST_TEST(str(s, {"metadata", "annotations", "kubernetes.io/service-account.uid"}) ==
                   str(sa.json(), {"metadata", "uid"}),
               name);
  }
  // Opaque Secrets are left alone.
  BOOST_TEST_REQUIRE(c.post(secrets, R"({"metadata":{"name":"plain"},"data":{}})").status == 201);
  BOOST_TEST(k8s::find(c.get(secrets + "/plain").json(), {"data", "token"}) == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
