// The pure parts behind Events (one store, two views) and APIServices:
// conversions, validation, field selector labels, availability, the local
// APIServices of a set of served kinds. Table-driven, no sockets.
#include "sim/apiserver/apiservices.hpp"
#include "sim/apiserver/builtin_kinds.hpp"
#include "sim/apiserver/events.hpp"
#include "sim/apiserver/kind_rules.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim;

namespace {

k8s::json_document parse(const char* text) {
  auto d = k8s::parse_json(text);
  BOOST_TEST_REQUIRE(d.has_value(), text);
  return std::move(*d);
}

std::string json(const k8s::json_value& v) { return k8s::to_json(v); }

std::vector<std::string> messages(const std::vector<validation::field_error>& errs) {
  std::vector<std::string> out;
  for (auto& e : errs) out.push_back(e.to_string());
  return out;
}

k8s::object obj(const char* text) { return k8s::object(parse(text)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(events_pure)

// A legacy core Event as Go writes it: zero timestamps null, the reporting
// fields always present, source and involvedObject objects.
BOOST_AUTO_TEST_CASE(core_event_is_canonical_as_go_writes_it) {
  auto d = parse(R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"w.1","namespace":"ns"},
    "involvedObject":{"kind":"Widget","name":"w"},"reason":"Made","message":"","count":0,"bogus":1})");
  canonicalize_core_event(d);
  BOOST_TEST(json(d) ==
             R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"w.1","namespace":"ns"},)"
             R"("involvedObject":{"kind":"Widget","name":"w"},"reason":"Made","source":{},)"
             R"("firstTimestamp":null,"lastTimestamp":null,"eventTime":null,)"
             R"("reportingComponent":"","reportingInstance":""})");
}

BOOST_AUTO_TEST_CASE(views_convert_field_by_field) {
  auto core = parse(R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"w.1","namespace":"ns"},
    "involvedObject":{"kind":"Widget","name":"w","uid":"u1"},"reason":"Failed","message":"boom",
    "source":{"component":"ctl"},"firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:01:00Z",
    "count":3,"type":"Warning","reportingComponent":"ctl","reportingInstance":"ctl-0"})");
  canonicalize_core_event(core);
  auto v1 = event_from_core(core);
  BOOST_TEST(json(v1) ==
             R"({"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"w.1","namespace":"ns"},)"
             R"("eventTime":null,"reportingController":"ctl","reportingInstance":"ctl-0","reason":"Failed",)"
             R"("regarding":{"kind":"Widget","name":"w","uid":"u1"},"note":"boom","type":"Warning",)"
             R"("deprecatedSource":{"component":"ctl"},"deprecatedFirstTimestamp":"2026-01-01T00:00:00Z",)"
             R"("deprecatedLastTimestamp":"2026-01-01T00:01:00Z","deprecatedCount":3})");
  BOOST_TEST(json(event_to_core(v1)) == json(core));  // round trip
}

BOOST_AUTO_TEST_CASE(validation_legacy_and_strict) {
  struct row {
    const char* name;
    const char* event;  // core shape
    bool strict;
    std::vector<std::string> want;
  };
  const std::vector<row> rows = {
      {"legacy ok", R"({"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"}})", false, {}},
      {"legacy cluster-scoped object in default",
       R"({"metadata":{"namespace":"default"},"involvedObject":{"kind":"Namespace"}})", false, {}},
      {"legacy namespace mismatch", R"({"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"other"}})",
       false, {"involvedObject.namespace: Invalid value: \"other\": does not match event.namespace"}},
      {"eventTime needs the reporting fields",
       R"({"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"},"eventTime":"2026-01-01T00:00:00.000000Z"})",
       false,
       {"reportingController: Required value",
        "reportingController: Invalid value: \"\": name part must be non-empty",
        "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' "
        "or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "reportingInstance: Required value", "action: Required value", "reason: Required value"}},
      {"strict create without eventTime",
       R"({"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"},"type":"Normal","count":2})", true,
       {"eventTime: Required value", "count: Invalid value: \"\": needs to be unset"}},
      {"strict create with a bad type",
       R"({"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"},"eventTime":"2026-01-01T00:00:00.000000Z",
           "reportingComponent":"my-ctl","reportingInstance":"i","action":"Sync","reason":"Done","type":"Info"})",
       true, {"type: Invalid value: \"\": has invalid value: Info"}},
      {"strict create ok",
       R"({"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"},"eventTime":"2026-01-01T00:00:00.000000Z",
           "reportingComponent":"example.com/ctl","reportingInstance":"i","action":"Sync","reason":"Done","type":"Normal"})",
       true, {}},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto d = parse(r.event);
      BOOST_TEST(messages(validate_event(d, r.strict, nullptr)) == r.want, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(strict_update_keeps_the_event_immutable_but_its_series) {
  auto old = parse(R"({"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"},
    "eventTime":"2026-01-01T00:00:00.000000Z","reportingComponent":"ctl","reportingInstance":"i","action":"A",
    "reason":"R","message":"m","type":"Normal"})");
  auto next = k8s::copy_document(old);
  auto series = parse(R"({"count":2,"lastObservedTime":"2026-01-01T00:05:00.000000Z"})");
  k8s::set_member(next, "series", k8s::copy_json(series, next.GetAllocator()), next.GetAllocator());
  BOOST_TEST(validate_event(next, true, &old).empty());
  k8s::set_member(next, "message", k8s::make_string("other", next.GetAllocator()), next.GetAllocator());
  BOOST_TEST(messages(validate_event(next, true, &old)) ==
                 std::vector<std::string>{"message: Invalid value: \"other\": field is immutable"},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(field_selector_labels_of_both_views) {
  struct row {
    std::string_view label;
    bool events_group;
    std::optional<std::string> path;
  };
  const std::vector<row> rows = {
      {"involvedObject.name", false, "involvedObject.name"},
      {"involvedObject.uid", false, "involvedObject.uid"},
      {"involvedObject.bogus", false, std::nullopt},
      {"regarding.name", false, std::nullopt},
      {"regarding.kind", true, "involvedObject.kind"},
      {"involvedObject.kind", true, std::nullopt},
      {"reportingComponent", false, "reportingComponent"},
      {"reportingController", true, "reportingComponent"},
      {"reportingController", false, std::nullopt},
      {"source", false, "source.component"},
      {"source", true, "source.component"},
      {"reason", true, "reason"},
      {"type", false, "type"},
      {"metadata.name", true, "metadata.name"},
      {"note", true, std::nullopt},
  };
  for (const auto& r : rows)
    BOOST_TEST_CONTEXT(r.label << (r.events_group ? " (events.k8s.io)" : " (core)")) {
      BOOST_TEST((event_field_path(r.label, r.events_group) == r.path));
    }
}

BOOST_AUTO_TEST_CASE(qualified_names) {
  BOOST_TEST(qualified_name_errors("kubelet").empty());
  BOOST_TEST(qualified_name_errors("example.com/My_ctl.1").empty());
  BOOST_TEST(qualified_name_errors("-bad").size() == 1u);
  BOOST_TEST(qualified_name_errors("a/b/c").size() == 1u);
  auto e = qualified_name_errors("/x");
  BOOST_TEST_REQUIRE(e.size() == 1u);
  BOOST_TEST(e[0] == "prefix part must be non-empty");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(apiservices_pure)

BOOST_AUTO_TEST_CASE(create_clears_status_and_marks_local_ones_available) {
  auto local = parse(R"({"spec":{"group":"g.io","version":"v1"},"status":{"conditions":[]}})");
  apiservice_prepare_create(local, "2026-01-01T00:00:00Z");
  BOOST_TEST(json(local) ==
             R"({"spec":{"group":"g.io","version":"v1"},"status":{"conditions":[{"type":"Available","status":"True",)"
             R"("lastTransitionTime":"2026-01-01T00:00:00Z","reason":"Local","message":"Local APIServices are always available"}]}})");
  auto backed = parse(R"({"spec":{"service":{"namespace":"n","name":"s"}},"status":{"x":1}})");
  apiservice_prepare_create(backed, "t");
  BOOST_TEST(json(backed) == R"({"spec":{"service":{"namespace":"n","name":"s","port":443}},"status":{}})");
}

BOOST_AUTO_TEST_CASE(validation_as_kube_aggregator) {
  struct row {
    const char* name;
    const char* doc;
    std::vector<std::string> want;
  };
  const std::vector<row> rows = {
      {"local ok", R"({"metadata":{"name":"v1.g.io"},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":1000,"versionPriority":100}})", {}},
      {"core ok", R"({"metadata":{"name":"v1."},"spec":{"version":"v1","groupPriorityMinimum":18000,"versionPriority":1}})", {}},
      {"name and priorities",
       R"({"metadata":{"name":"x"},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":0,"versionPriority":1001}})",
       {"metadata.name: Invalid value: \"x\": must be `spec.version+\".\"+spec.group`: \"v1.g.io\"",
        "spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
        "spec.versionPriority: Invalid value: 1001: must be positive and less than 1000"}},
      {"empty group only for v1",
       R"({"metadata":{"name":"v2."},"spec":{"version":"v2","groupPriorityMinimum":1,"versionPriority":1}})",
       {"spec.group: Required value: only v1 may have an empty group and it better be legacy kube"}},
      {"local with caBundle",
       R"({"metadata":{"name":"v1.g.io"},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"caBundle":"YWJj","insecureSkipTLSVerify":true}})",
       {"spec.caBundle: Invalid value: \"3 bytes\": local APIServices may not have a caBundle",
        "spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify"}},
      {"service without names",
       R"({"metadata":{"name":"v1.g.io"},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"service":{"port":0}}})",
       {"spec.service.namespace: Required value", "spec.service.name: Required value",
        "spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"}},
  };
  for (const auto& r : rows)
    BOOST_TEST_CONTEXT(r.name) {
      BOOST_TEST(messages(validate_apiservice(parse(r.doc))) == r.want, boost::test_tools::per_element());
    }
}

BOOST_AUTO_TEST_CASE(availability_as_the_aggregator_controller_sees_it) {
  auto svc = R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"inbox","namespace":"mon"},
    "spec":{"type":"ClusterIP","ports":[{"name":"https","port":443}]}})";
  auto eps_ok = R"({"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"inbox","namespace":"mon"},
    "subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"name":"https","port":8443}]}]})";
  auto eps_empty = R"({"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"inbox","namespace":"mon"},"subsets":[]})";
  auto as = parse(R"({"spec":{"service":{"namespace":"mon","name":"inbox","port":443}}})");
  auto other_port = parse(R"({"spec":{"service":{"namespace":"mon","name":"inbox","port":8443}}})");
  struct row {
    const char* name;
    const k8s::json_value* apiservice;
    k8s::object service, endpoints;
    std::string reason, message;
  };
  const std::vector<row> rows = {
      {"no service", &as, {}, {}, "ServiceNotFound", "service/inbox in \"mon\" is not present"},
      {"wrong port", &other_port, obj(svc), {}, "ServicePortError",
       "service/inbox in \"mon\" is not listening on port 8443"},
      {"no endpoints", &as, obj(svc), {}, "EndpointsNotFound", "cannot find endpoints for service/inbox in \"mon\""},
      {"no addresses", &as, obj(svc), obj(eps_empty), "MissingEndpoints",
       "endpoints for service/inbox in \"mon\" have no addresses with port name \"https\""},
      {"passed", &as, obj(svc), obj(eps_ok), "Passed", "all checks passed"},
  };
  for (const auto& r : rows)
    BOOST_TEST_CONTEXT(r.name) {
      auto a = apiservice_availability(*r.apiservice, &r.service, &r.endpoints);
      BOOST_TEST(a.reason == r.reason);
      BOOST_TEST(a.message == r.message);
      BOOST_TEST(a.status == (r.reason == "Passed" ? "True" : "False"));
    }
}

BOOST_AUTO_TEST_CASE(condition_keeps_its_transition_time_unless_the_status_flips) {
  auto d = parse(R"({"spec":{}})");
  BOOST_TEST(set_available_condition(d, {"False", "ServiceNotFound", "m1"}, "t1"));
  BOOST_TEST(!set_available_condition(d, {"False", "ServiceNotFound", "m1"}, "t2"));
  BOOST_TEST(set_available_condition(d, {"False", "EndpointsNotFound", "m2"}, "t3"));
  const auto& c = (*k8s::find(d, {"status", "conditions"}))[0];
  BOOST_TEST(k8s::get_string(c, {"lastTransitionTime"}) == "t1");
  BOOST_TEST(set_available_condition(d, {"True", "Passed", "all checks passed"}, "t4"));
  BOOST_TEST(k8s::get_string((*k8s::find(d, {"status", "conditions"}))[0], {"lastTransitionTime"}) == "t4");
}

BOOST_AUTO_TEST_CASE(local_apiservices_of_the_served_kinds) {
  std::vector<k8s::api_resource> served = builtin_kinds();
  k8s::api_resource crd_v1;
  crd_v1.group = "monitoring.coreos.com";
  crd_v1.version = "v1";
  crd_v1.plural = "prometheuses";
  auto crd_other = crd_v1;
  crd_other.plural = "servicemonitors";  // same group version: one APIService
  auto crd_alpha = crd_v1;
  crd_alpha.version = "v1alpha1";
  crd_alpha.plural = "alertmanagerconfigs";
  served.insert(served.end(), {crd_v1, crd_other, crd_alpha});
  std::vector<std::string> names;
  for (auto& s : desired_local_apiservices(served, &is_builtin))
    names.push_back(s.name + " " + std::to_string(s.group_priority) + "/" + std::to_string(s.version_priority) +
                    " " + s.automanaged);
  const std::vector<std::string> want = {
      "v1. 18000/1 onstart",
      "v1.apiextensions.k8s.io 16700/15 onstart",
      "v1.authentication.k8s.io 17700/15 onstart",
      "v1.coordination.k8s.io 16500/15 onstart",
      "v1.events.k8s.io 17750/15 onstart",
      "v1.monitoring.coreos.com 1000/100 true",
      "v1.rbac.authorization.k8s.io 17000/15 onstart",
      "v1alpha1.monitoring.coreos.com 1000/100 true",
  };
  BOOST_TEST(names == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
