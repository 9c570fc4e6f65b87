// Server-side apply and managedFields, checked against literal JSON.
#include "sim/ssa/builtin_schemas.hpp"
#include "sim/ssa/server_side_apply.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace c5c3::sim::ssa;
using c5c3::k8s::json_document;
using c5c3::k8s::json_equal;
using c5c3::k8s::json_value;
using c5c3::k8s::to_json;

namespace {

constexpr const char* T0 = "2026-01-01T00:00:00Z";
constexpr const char* T1 = "2026-01-01T00:01:00Z";
constexpr const char* T2 = "2026-01-01T00:02:00Z";

json_document parse(const std::string& text) {
  std::string err;
  auto d = c5c3::k8s::parse_json(text, &err);
  BOOST_REQUIRE_MESSAGE(d, "bad JSON in test: " << err << ": " << text);
  return std::move(*d);
}

type_schema configmap() { return *builtin_schema("v1", "ConfigMap"); }

apply_options opts(const std::string& manager, const char* now, bool force = false,
                   type_schema schema = configmap()) {
  apply_options o;
  o.manager = manager;
  o.force = force;
  o.api_version = "v1";
  o.now = now;
  o.schema = std::move(schema);
  return o;
}

std::string cm(const std::string& data) {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"d"},"data":)" +
         data + "}";
}

// Applies and requires success.
json_document applied(const json_value* live, const std::string& config, const apply_options& o) {
  auto c = parse(config);
  auto r = apply(live, c, o);
  BOOST_REQUIRE_MESSAGE(r.ok, "apply failed: " << r.message);
  return std::move(r.object);
}

std::string managed(const json_value& obj) {
  const json_value* mf = c5c3::k8s::find(obj, {"metadata", "managedFields"});
  return mf ? to_json(*mf) : "";
}

std::string data_of(const json_value& obj) {
  const json_value* d = c5c3::k8s::find(obj, {"data"});
  return d ? to_json(*d) : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_side_apply)

BOOST_AUTO_TEST_CASE(create_by_apply_writes_literal_managed_fields) {
  auto obj = applied(nullptr,
                     R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"d",
                         "labels":{"app":"x"}},"data":{"key":"a"}})",
                     opts("kubectl", T0));
  BOOST_TEST(managed(obj) ==
             R"([{"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:app":{}}}}}])");
  BOOST_TEST(data_of(obj) == R"({"key":"a"})");
  BOOST_TEST(c5c3::k8s::get_string(obj, {"metadata", "name"}) == "c");
}

BOOST_AUTO_TEST_CASE(update_by_client_side_apply_writes_literal_managed_fields) {
  auto created = parse(
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"d",
          "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},"data":{"key":"a"}})");
  update_options u;
  u.manager = "kubectl-client-side-apply";
  u.api_version = "v1";
  u.now = T0;
  u.schema = configmap();
  auto r = update_managed_fields(nullptr, created, u);
  BOOST_REQUIRE(r.ok);
  BOOST_TEST(managed(r.object) ==
             R"([{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1",)"
             R"("time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:key":{}},)"
             R"("f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}}])");
}

BOOST_AUTO_TEST_CASE(conflict_with_an_update_manager_has_the_apiserver_message) {
  auto created = parse(cm(R"({"key":"a"})"));
  update_options u;
  u.manager = "kubectl-client-side-apply";
  u.api_version = "v1";
  u.now = T0;
  u.schema = configmap();
  auto live = update_managed_fields(nullptr, created, u);
  BOOST_REQUIRE(live.ok);

  auto config = parse(cm(R"({"key":"b"})"));
  auto r = apply(&live.object, config, opts("other", T1));
  BOOST_TEST(!r.ok);
  BOOST_TEST(r.code == 409);
  BOOST_TEST(r.message ==
             "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using v1: .data.key");
  BOOST_TEST_REQUIRE(r.conflicts.size() == 1u);
  BOOST_TEST(to_json(r.status()) ==
             R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
             R"("message":"Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using v1: .data.key",)"
             R"("reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict",)"
             R"("message":"conflict with \"kubectl-client-side-apply\" using v1","field":".data.key"}]},"code":409})");

  // The same value is no conflict: shared ownership.
  auto same = parse(cm(R"({"key":"a"})"));
  auto shared = apply(&live.object, same, opts("other", T1));
  BOOST_TEST(shared.ok);
  BOOST_TEST(!shared.changed);
  BOOST_TEST(managed(shared.object) ==
             R"([{"manager":"other","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1",)"
             R"("fieldsV1":{"f:data":{"f:key":{}}}},)"
             R"({"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1",)"
             R"("time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:key":{}}}}])");
}

BOOST_AUTO_TEST_CASE(several_conflicts_are_grouped_by_sorted_manager) {
  auto live = applied(nullptr, cm(R"({"a":"1","b":"1"})"), opts("alpha", T0));
  // An Update manager takes .data.c.
  auto edited = parse(to_json(live));
  c5c3::k8s::set_member(edited["data"], "c", c5c3::k8s::make_string("1", edited.GetAllocator()),
                        edited.GetAllocator());
  update_options u;
  u.manager = "gamma";
  u.api_version = "v1";
  u.now = T1;
  u.schema = configmap();
  auto upd = update_managed_fields(&live, edited, u);
  BOOST_REQUIRE(upd.ok);

  auto config = parse(cm(R"({"a":"2","b":"2","c":"2"})"));
  auto r = apply(&upd.object, config, opts("delta", T2));
  BOOST_TEST(r.code == 409);
  BOOST_TEST(r.message ==
             "Apply failed with 3 conflicts: conflicts with \"alpha\":\n"
             "- .data.a\n"
             "- .data.b\n"
             "conflicts with \"gamma\" using v1:\n"
             "- .data.c");
  BOOST_TEST(r.conflicts.size() == 3u);

  // force takes every field; emptied entries disappear.
  auto forced = apply(&upd.object, config, opts("delta", T2, true));
  BOOST_REQUIRE(forced.ok);
  BOOST_TEST(data_of(forced.object) == R"({"a":"2","b":"2","c":"2"})");
  BOOST_TEST(managed(forced.object) ==
             R"([{"manager":"delta","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:02:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{},"f:b":{},"f:c":{}}}}])");
}

BOOST_AUTO_TEST_CASE(fields_no_longer_applied_are_removed_unless_shared) {
  auto v1 = applied(nullptr, cm(R"({"x":"1","y":"1"})"), opts("a", T0));
  auto v2 = applied(&v1, cm(R"({"y":"1"})"), opts("b", T1));  // shares y
  auto v3 = applied(&v2, cm(R"({"x":"1"})"), opts("a", T2));  // a drops y: b keeps it
  BOOST_TEST(data_of(v3) == R"({"x":"1","y":"1"})");
  // b applies no data at all: its entry goes, and y with it. (Applying
  // "data":{} instead would own .data itself.)
  const std::string no_data =
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"d"}})";
  auto v4 = applied(&v3, no_data, opts("b", T2));
  BOOST_TEST(data_of(v4) == R"({"x":"1"})");
  // a's apply at T2 changed nothing, so its time stayed.
  BOOST_TEST(managed(v4) ==
             R"([{"manager":"a","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:x":{}}}}])");
  auto v5 = applied(&v4, no_data, opts("a", T2));  // a drops x: data goes, entry too
  BOOST_TEST(data_of(v5).empty());
  BOOST_TEST(managed(v5).empty());
  auto v6 = applied(&v1, cm("{}"), opts("a", T1));  // "data":{} keeps an empty data, owned
  BOOST_TEST(data_of(v6) == "{}");
  BOOST_TEST(managed(v6).find(R"("fieldsV1":{"f:data":{}})") != std::string::npos, managed(v6));
  BOOST_TEST(c5c3::k8s::get_string(v5, {"metadata", "name"}) == "c");
}

BOOST_AUTO_TEST_CASE(update_takes_changed_fields_from_appliers) {
  auto v1 = applied(nullptr, cm(R"({"x":"1","y":"1"})"), opts("a", T0));
  auto edited = parse(to_json(v1));
  edited["data"]["x"].SetString("2", edited.GetAllocator());
  update_options u;
  u.manager = "editor";
  u.api_version = "v1";
  u.now = T1;
  u.schema = configmap();
  auto r = update_managed_fields(&v1, edited, u);
  BOOST_REQUIRE(r.ok);
  BOOST_TEST(r.changed);
  BOOST_TEST(managed(r.object) ==
             R"([{"manager":"a","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:y":{}}}},)"
             R"({"manager":"editor","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:01:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:x":{}}}}])");
  // A request carrying [] (or [{}]) resets managedFields: the object stays
  // untracked, and so do later updates of it.
  for (const char* empty : {"[]", "[{}]"}) {
    auto reset = parse(to_json(edited));
    c5c3::k8s::set_member(reset["metadata"], "managedFields",
                          c5c3::k8s::json_value(parse(empty), reset.GetAllocator()),
                          reset.GetAllocator());
    auto rr = update_managed_fields(&v1, reset, u);
    BOOST_REQUIRE(rr.ok);
    BOOST_TEST(managed(rr.object).empty(), empty);
    auto later = parse(to_json(rr.object));
    later["data"]["y"].SetString("9", later.GetAllocator());
    auto rl = update_managed_fields(&rr.object, later, u);
    BOOST_REQUIRE(rl.ok);
    BOOST_TEST(rl.changed);
    BOOST_TEST(managed(rl.object).empty());
  }
}

BOOST_AUTO_TEST_CASE(apply_over_an_untracked_object_conflicts_with_before_first_apply) {
  auto live = parse(cm(R"({"key":"a"})"));
  auto r = apply(&live, parse(cm(R"({"key":"b"})")), opts("m", T1));
  BOOST_TEST(r.message ==
             "Apply failed with 1 conflict: conflict with \"before-first-apply\" using v1: .data.key");
  auto forced = apply(&live, parse(cm(R"({"key":"b","k2":"c"})")), opts("m", T1, true));
  BOOST_REQUIRE(forced.ok);
  BOOST_TEST(managed(forced.object) ==
             R"([{"manager":"m","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:01:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k2":{},"f:key":{}}}},)"
             R"({"manager":"before-first-apply","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:01:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}])");  // data itself, its keys went to m
}

namespace {
type_schema crd_schema() {
  auto d = parse(R"({"type":"object","properties":{
      "spec":{"type":"object","properties":{
        "args":{"type":"array","items":{"type":"string"}},
        "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}},
      "status":{"type":"object","properties":{"conditions":{"type":"array",
        "x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
        "items":{"type":"object","properties":{"type":{"type":"string"},
          "status":{"type":"string"},"reason":{"type":"string"}}}}}}}})");
  return object_schema_from_openapi(&d);
}
std::string cr(const std::string& body) {
  return R"({"apiVersion":"c5c3.io/v1","kind":"K","metadata":{"name":"k","namespace":"d"},)" + body +
         "}";
}
std::string at(const json_value& obj, std::initializer_list<std::string_view> p) {
  const json_value* v = c5c3::k8s::find(obj, p);
  return v ? to_json(*v) : "";
}
}  // namespace

BOOST_AUTO_TEST_CASE(list_map_merges_conditions_by_type) {
  auto s = crd_schema();
  auto v1 = applied(nullptr,
                    cr(R"("status":{"conditions":[{"type":"Ready","status":"True"},)"
                       R"({"type":"Synced","status":"False"}]})"),
                    opts("ctl", T0, false, s));
  auto v2 = applied(&v1, cr(R"("status":{"conditions":[{"type":"Extra","status":"True"}]})"),
                    opts("other", T1, false, s));
  BOOST_TEST(at(v2, {"status", "conditions"}) ==
             R"([{"type":"Ready","status":"True"},{"type":"Synced","status":"False"},)"
             R"({"type":"Extra","status":"True"}])");
  BOOST_TEST(managed(v2) ==
             R"([{"manager":"ctl","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{)"
             R"("k:{\"type\":\"Ready\"}":{".":{},"f:status":{},"f:type":{}},)"
             R"("k:{\"type\":\"Synced\"}":{".":{},"f:status":{},"f:type":{}}}}}},)"
             R"({"manager":"other","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:01:00Z",)"
             R"("fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{)"
             R"("k:{\"type\":\"Extra\"}":{".":{},"f:status":{},"f:type":{}}}}}}])");
  // Changing another manager's condition status conflicts at the item field.
  auto c = parse(cr(R"("status":{"conditions":[{"type":"Ready","status":"False"}]})"));
  auto r = apply(&v2, c, opts("other", T2, false, s));
  BOOST_TEST(r.message ==
             "Apply failed with 1 conflict: conflict with \"ctl\": .status.conditions[type=\"Ready\"].status");
  // ctl stops applying Synced: only that item goes.
  auto v3 = applied(&v2, cr(R"("status":{"conditions":[{"type":"Ready","status":"True"}]})"),
                    opts("ctl", T2, false, s));
  BOOST_TEST(at(v3, {"status", "conditions"}) ==
             R"([{"type":"Ready","status":"True"},{"type":"Extra","status":"True"}])");
}

BOOST_AUTO_TEST_CASE(sets_merge_by_value_and_atomic_lists_replace) {
  auto s = crd_schema();
  auto v1 = applied(nullptr, cr(R"("spec":{"tags":["a"],"args":["1","2"]})"), opts("m1", T0, false, s));
  auto v2 = applied(&v1, cr(R"("spec":{"tags":["b"]})"), opts("m2", T1, false, s));
  BOOST_TEST(at(v2, {"spec", "tags"}) == R"(["a","b"])");
  BOOST_TEST(at(v2, {"metadata", "managedFields"}).find(R"("f:tags":{"v:\"b\"":{}})") !=
             std::string::npos);
  auto v3 = applied(&v2, cr(R"("spec":{"args":["1","2"]})"), opts("m1", T2, false, s));
  BOOST_TEST(at(v3, {"spec", "tags"}) == R"(["b"])");

  auto c = parse(cr(R"("spec":{"args":["3"]})"));
  auto r = apply(&v3, c, opts("m2", T2, false, s));
  BOOST_TEST(r.message == "Apply failed with 1 conflict: conflict with \"m1\": .spec.args");
  auto forced = apply(&v3, c, opts("m2", T2, true, s));
  BOOST_REQUIRE(forced.ok);
  BOOST_TEST(at(forced.object, {"spec", "args"}) == R"(["3"])");
  // m2 applied tags "b" before and no longer does: nobody owns them now.
  BOOST_TEST(at(forced.object, {"spec", "tags"}).empty());
}

BOOST_AUTO_TEST_CASE(service_ports_key_by_port_and_defaulted_protocol) {
  auto s = *builtin_schema("v1", "Service");
  auto v1 = applied(nullptr,
                    R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},)"
                    R"("spec":{"ports":[{"port":80,"targetPort":8080}],"selector":{"app":"x"}}})",
                    opts("m", T0, false, s));
  const json_value& mf = (*c5c3::k8s::find(v1, {"metadata", "managedFields"}))[0];
  BOOST_TEST(to_json(mf["fieldsV1"]) ==
             R"({"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{},"f:targetPort":{}}},)"
             R"("f:selector":{}}})");
}

BOOST_AUTO_TEST_CASE(kubectl_takes_over_fields_of_client_side_apply) {
  // Created by kubectl apply (client-side): last-applied annotation present.
  auto created = parse(
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"d",)"
      R"("annotations":{"kubectl.kubernetes.io/last-applied-configuration":)"
      R"("{\"apiVersion\":\"v1\",\"data\":{\"key\":\"a\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"d\"}}\n"}},)"
      R"("data":{"key":"a","other":"z"}})");
  update_options u;
  u.manager = "kubectl-client-side-apply";
  u.api_version = "v1";
  u.now = T0;
  u.schema = configmap();
  auto live = update_managed_fields(nullptr, created, u);
  BOOST_REQUIRE(live.ok);
  // kubectl apply --server-side changes data.key: the field is in the
  // last-applied configuration, so no conflict; data.other is not.
  auto ok = apply(&live.object, parse(cm(R"({"key":"b"})")), opts("kubectl", T1));
  BOOST_TEST_REQUIRE(ok.ok, ok.message);
  BOOST_TEST(data_of(ok.object) == R"({"key":"b","other":"z"})");
  BOOST_TEST(c5c3::k8s::get_string(ok.object, {"metadata", "annotations",
                                               "kubectl.kubernetes.io/last-applied-configuration"}) ==
             "{\"apiVersion\":\"v1\",\"data\":{\"key\":\"b\"},\"kind\":\"ConfigMap\","
             "\"metadata\":{\"name\":\"c\",\"namespace\":\"d\"}}\n");
  auto bad = apply(&live.object, parse(cm(R"({"key":"b","other":"y"})")), opts("kubectl", T1));
  BOOST_TEST(bad.message ==
             "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using v1: .data.other");
  // A field whose live value no longer is the last-applied one is not taken.
  auto drifted = parse(to_json(live.object));
  drifted["data"]["key"].SetString("drift", drifted.GetAllocator());
  auto d = apply(&drifted, parse(cm(R"({"key":"b"})")), opts("kubectl", T1));
  BOOST_TEST(d.message ==
             "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using v1: .data.key");
  // Other managers never take over by the annotation.
  auto other = apply(&live.object, parse(cm(R"({"key":"b"})")), opts("helm", T1));
  BOOST_TEST(other.code == 409);
}

BOOST_AUTO_TEST_CASE(ignored_fields_are_neither_merged_nor_owned) {
  auto s = crd_schema();
  apply_options o = opts("m", T0, false, s);
  o.ignored_fields = {"status"};
  auto v = applied(nullptr,
                   cr(R"("spec":{"tags":["a"]},"status":{"conditions":[{"type":"Ready","status":"True"}]})"),
                   o);
  BOOST_TEST(at(v, {"status"}).empty());
  BOOST_TEST(at(v, {"metadata", "managedFields"}).find("f:status") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_requests) {
  auto r = apply(nullptr, parse(cm(R"({"k":"v"})")), opts("", T0));
  BOOST_TEST(r.code == 400);
  auto with_mf = parse(
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","managedFields":[]}})");
  BOOST_TEST(apply(nullptr, with_mf, opts("m", T0)).code == 400);
  auto s = crd_schema();
  auto dup = parse(cr(R"("status":{"conditions":[{"type":"A"},{"type":"A"}]})"));
  auto rd = apply(nullptr, dup, opts("m", T0, false, s));
  BOOST_TEST(rd.code == 500);
  BOOST_TEST(rd.message ==
             "failed to create typed patch object (d/k; c5c3.io/v1, Kind=K): .status.conditions: "
             "duplicate entries for key [type=\"A\"]");
}

BOOST_AUTO_TEST_CASE(create_of_a_service_marks_added_lists_and_maps) {
  auto svc = parse(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s","namespace":"d",
      "labels":{"app":"x"}},"spec":{"type":"ClusterIP","selector":{"app":"x"},
      "ports":[{"port":80,"protocol":"TCP","targetPort":8080}]}})");
  update_options u;
  u.manager = "kubectl-create";
  u.api_version = "v1";
  u.now = T0;
  u.schema = *builtin_schema("v1", "Service");
  auto r = update_managed_fields(nullptr, svc, u);
  BOOST_REQUIRE(r.ok);
  const json_value& mf = (*c5c3::k8s::find(r.object, {"metadata", "managedFields"}))[0];
  // spec exists in a typed empty Service, so it carries no "."; ports and
  // labels are new, so they do.
  BOOST_TEST(to_json(mf["fieldsV1"]) ==
             R"({"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:ports":{".":{},)"
             R"("k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},)"
             R"("f:selector":{},"f:type":{}}})");
}

BOOST_AUTO_TEST_CASE(manager_names_as_conflicts_print_them) {
  managed_fields_entry e;
  e.manager = "ctl";
  e.operation = "Apply";
  e.api_version = "v1";
  BOOST_TEST(e.printed() == "\"ctl\"");
  BOOST_TEST(e.identifier() == R"({"manager":"ctl","operation":"Apply"})");
  e.operation = "Update";
  e.subresource = "status";
  BOOST_TEST(e.printed() == "\"ctl\" with subresource \"status\" using v1");
  BOOST_TEST(e.identifier() ==
             R"({"manager":"ctl","operation":"Update","apiVersion":"v1","subresource":"status"})");
}

BOOST_AUTO_TEST_CASE(at_most_ten_update_managers) {
  std::vector<managed_fields_entry> entries;
  for (int i = 0; i <= 10; ++i) {
    managed_fields_entry e;
    e.manager = "m" + std::to_string(100 + i);
    e.operation = "Update";
    e.api_version = "v1";
    e.time = "2026-01-01T00:00:" + std::to_string(10 + i) + "Z";
    e.fields.insert({path_element::field("data"), path_element::field(e.manager)});
    entries.push_back(std::move(e));
  }
  managed_fields_entry applier;
  applier.manager = "a";
  applier.operation = "Apply";
  applier.fields.insert({path_element::field("x")});
  entries.push_back(applier);
  cap_update_managers(entries);
  BOOST_TEST_REQUIRE(entries.size() == 11u);
  auto bucket = std::find_if(entries.begin(), entries.end(),
                             [](const auto& e) { return e.manager == "ancient-changes"; });
  BOOST_TEST_REQUIRE((bucket != entries.end()));
  BOOST_TEST(bucket->time == "2026-01-01T00:00:11Z");
  BOOST_TEST(bucket->fields.to_fields_v1_string() == R"({"f:data":{"f:m100":{},"f:m101":{}}})");
  BOOST_TEST(std::none_of(entries.begin(), entries.end(),
                          [](const auto& e) { return e.manager == "m100" || e.manager == "m101"; }));
}

BOOST_AUTO_TEST_CASE(status_of_an_untypable_apply) {
  auto s = crd_schema();
  auto r = apply(nullptr, parse(cr(R"("status":{"conditions":[{"status":"True"}]})")),
                 opts("m", T0, false, s));
  BOOST_TEST(r.code == 500);
  BOOST_TEST(to_json(r.status()) ==
             R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
             R"("message":"failed to create typed patch object (d/k; c5c3.io/v1, Kind=K): )"
             R"(.status.conditions: element 0: associative list with keys has an element that omits )"
             R"x(key field \"type\" (and doesn't have default value)","code":500})x");
}

BOOST_AUTO_TEST_SUITE_END()
