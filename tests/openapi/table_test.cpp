#include "sim/openapi/resources.hpp"
#include "sim/openapi/table.hpp"

#include "tests/openapi/sample_crd.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::openapi;
using namespace std::chrono_literals;

namespace {

k8s::time_point now() { return *k8s::parse_rfc3339("2026-12-01T12:00:00Z"); }

k8s::object obj(std::string_view json) {
  auto o = k8s::object::parse(json);
  BOOST_REQUIRE(o);
  return *o;
}

const k8s::api_resource& vhosts() {
  static const auto rs = resources_from_crd(c5c3::test::sample_crd());
  return rs[0];
}

const k8s::api_resource& builtin(std::string_view group, std::string_view plural) {
  const auto* r = find_resource(builtin_resources(), group, "v1", plural);
  BOOST_REQUIRE(r);
  return *r;
}

// The cells of one object as compact JSON text.
std::string cells(const k8s::api_resource& r, const k8s::object& o) {
  k8s::json_document d(rapidjson::kArrayType);
  for (auto& c : table_cells(r, o, now(), d.GetAllocator())) d.PushBack(c, d.GetAllocator());
  return k8s::to_json(d);
}

std::vector<std::string> column_names(const k8s::api_resource& r) {
  std::vector<std::string> out;
  for (const auto& c : table_columns(r)) out.push_back(c.name + (c.priority ? "*" : ""));
  return out;
}

const char* const ready_vhost = R"({"apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost",
  "metadata": {"name": "orders", "namespace": "tenant-a", "resourceVersion": "17", "uid": "u-1",
               "creationTimestamp": "2026-12-01T11:00:00Z", "labels": {"a": "b"}},
  "spec": {"controlPlaneRef": {"name": "cp"}},
  "status": {"conditions": [{"type": "VhostReady", "status": "True"}, {"type": "Ready", "status": "True"}],
             "vhost": "orders-1a2b3c4d", "passwordGeneration": 2, "nextRotation": "2026-12-31T11:00:00Z"}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_table)

BOOST_AUTO_TEST_CASE(human_duration_matches_apimachinery) {
  struct row {
    std::chrono::nanoseconds d;
    std::string want;
  };
  const std::vector<row> rows = {
      {-3s, "<invalid>"}, {-1500ms, "0s"}, {0s, "0s"}, {59s, "59s"}, {119s, "119s"}, {120s, "2m"},
      {125s, "2m5s"}, {9min + 59s, "9m59s"}, {10min, "10m"}, {179min, "179m"}, {3h, "3h"},
      {3h + 5min, "3h5m"}, {7h + 59min, "7h59m"}, {8h, "8h"}, {47h, "47h"}, {48h, "2d"},
      {49h, "2d1h"}, {24h * 7 + 23h, "7d23h"}, {24h * 8, "8d"}, {24h * 729, "729d"},
      {24h * 730, "2y"}, {24h * 731, "2y1d"}, {24h * 365 * 8, "8y"}, {24h * 365 * 9 + 24h * 3, "9y"},
  };
  for (const auto& r : rows) BOOST_TEST(human_duration(r.d) == r.want);
  BOOST_TEST(age_since("", now()) == "<unknown>");
  BOOST_TEST(age_since("2026-12-01T11:59:00Z", now()) == "60s");
}

BOOST_AUTO_TEST_CASE(crd_columns_and_cells) {
  BOOST_TEST(column_names(vhosts()) ==
                 (std::vector<std::string>{"Name", "Ready", "ControlPlane", "Vhost*", "Generation",
                                           "NextRotation", "Age"}),
             boost::test_tools::per_element());
  auto cols = table_columns(vhosts());
  BOOST_TEST(cols[0].format == "name");
  BOOST_TEST(cols[1].description ==
             "Custom resource definition column (in JSONPath format): "
             ".status.conditions[?(@.type=='Ready')].status");
  BOOST_TEST(cols[5].description == "When the password rotates next.");
  BOOST_TEST(cols[6].type == "date");

  BOOST_TEST(cells(vhosts(), obj(ready_vhost)) ==
             R"(["orders","True","cp","orders-1a2b3c4d",2,"2026-12-31T11:00:00Z","60m"])");
  // A fresh order: absent values are null cells (kubectl prints <none>).
  BOOST_TEST(cells(vhosts(), obj(R"({"metadata": {"name": "new", "creationTimestamp": "2026-12-01T11:59:30Z"},
                                     "spec": {"controlPlaneRef": {"name": "cp"}}})")) ==
             R"(["new",null,"cp",null,null,null,"30s"])");
}

BOOST_AUTO_TEST_CASE(crd_cell_types) {
  auto crd = k8s::object::parse(R"({"spec": {"group": "example.com", "scope": "Namespaced",
    "names": {"kind": "Widget", "plural": "widgets"},
    "versions": [{"name": "v1", "served": true, "storage": true, "additionalPrinterColumns": [
      {"name": "S", "type": "string", "jsonPath": ".spec.v"},
      {"name": "I", "type": "integer", "jsonPath": ".spec.v"},
      {"name": "N", "type": "number", "jsonPath": ".spec.v"},
      {"name": "B", "type": "boolean", "jsonPath": ".spec.v"},
      {"name": "D", "type": "date", "jsonPath": ".spec.v"},
      {"name": "First", "type": "string", "jsonPath": ".spec.list[*]"}]}]}})");
  BOOST_REQUIRE(crd);
  auto r = resources_from_crd(*crd).at(0);
  struct row {
    std::string value;  // JSON of spec.v
    std::string want;   // cells S, I, N, B, D
  };
  const std::vector<row> rows = {
      {R"("text")", R"("text",null,null,null,"<invalid>")"},
      {"7", R"("7",7,7.0,null,null)"},
      {"2.75", R"("2.75",2,2.75,null,null)"},
      {"1000000.0", R"("1e+06",1000000,1000000.0,null,null)"},
      {"true", R"("true",null,null,true,null)"},
      {R"({"a":1})", R"("{\"a\":1}",null,null,null,null)"},
      {"[1,2]", R"("[1,2]",null,null,null,null)"},
      {"null", "null,null,null,null,null"},
      {R"("2026-12-01T11:00:00Z")", R"("2026-12-01T11:00:00Z",null,null,null,"60m")"},
  };
  for (const auto& rw : rows) {
    BOOST_TEST_CONTEXT(rw.value) {
      auto o = obj(R"({"metadata": {"name": "w"}, "spec": {"list": ["x", "y"], "v": )" + rw.value + "}}");
      BOOST_TEST(cells(r, o) == R"(["w",)" + rw.want + R"(,"x"])");
    }
  }
}

BOOST_AUTO_TEST_CASE(crd_without_columns_shows_age) {
  auto r = resources_from_crd(c5c3::test::sample_crd()).at(1);
  BOOST_TEST(column_names(r) == (std::vector<std::string>{"Name", "Age"}), boost::test_tools::per_element());
  BOOST_TEST(table_columns(r)[1].type == "date");
  BOOST_TEST(cells(r, obj(R"({"metadata": {"name": "x", "creationTimestamp": "2026-11-29T12:00:00Z"}})")) ==
             R"(["x","2d"])");
}

BOOST_AUTO_TEST_CASE(builtin_columns) {
  struct row {
    std::string group, plural;
    std::vector<std::string> columns;  // "*" marks -o wide columns
  };
  const std::vector<row> rows = {
      {"", "namespaces", {"Name", "Status", "Age"}},
      {"", "secrets", {"Name", "Type", "Data", "Age"}},
      {"", "configmaps", {"Name", "Data", "Age"}},
      {"", "services", {"Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector*"}},
      {"", "endpoints", {"Name", "Endpoints", "Age"}},
      {"", "serviceaccounts", {"Name", "Secrets", "Age"}},
      {"", "events", {"Last Seen", "Type", "Reason", "Object", "Subobject*", "Source*", "Message",
                      "First Seen*", "Count*", "Name*"}},
      {"events.k8s.io", "events", {"Last Seen", "Type", "Reason", "Object", "Subobject*", "Source*",
                                   "Message", "First Seen*", "Count*", "Name*"}},
      {"coordination.k8s.io", "leases", {"Name", "Holder", "Age"}},
      {"rbac.authorization.k8s.io", "roles", {"Name", "Created At"}},
      {"rbac.authorization.k8s.io", "clusterroles", {"Name", "Created At"}},
      {"rbac.authorization.k8s.io", "rolebindings", {"Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"}},
      {"rbac.authorization.k8s.io", "clusterrolebindings",
       {"Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"}},
      {"apiextensions.k8s.io", "customresourcedefinitions", {"Name", "Created At"}},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.plural) {
      BOOST_TEST(column_names(builtin(r.group, r.plural)) == r.columns, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(builtin_cells) {
  struct row {
    std::string group, plural, object, want;
  };
  const std::string ts = R"("creationTimestamp": "2026-12-01T09:00:00Z")";
  const std::vector<row> rows = {
      {"", "namespaces", R"({"metadata": {"name": "tenant-a", )" + ts + R"(}, "status": {"phase": "Active"}})",
       R"(["tenant-a","Active","3h"])"},
      {"", "secrets", R"({"metadata": {"name": "s", )" + ts + R"(}, "type": "Opaque", "data": {"a": "eA==", "b": "eQ=="}})",
       R"(["s","Opaque",2,"3h"])"},
      {"", "configmaps", R"({"metadata": {"name": "c", )" + ts + R"(}, "data": {"a": "x"}, "binaryData": {"b": "eQ=="}})",
       R"(["c",2,"3h"])"},
      {"", "services", R"({"metadata": {"name": "rabbitmq", )" + ts + R"(},
         "spec": {"clusterIP": "10.0.0.10", "selector": {"b": "2", "a": "1"},
                  "ports": [{"port": 5672}, {"port": 15672, "protocol": "TCP"}]}})",
       R"(["rabbitmq","ClusterIP","10.0.0.10","<none>","5672/TCP,15672/TCP","3h","a=1,b=2"])"},
      {"", "services", R"({"metadata": {"name": "lb", )" + ts + R"(},
         "spec": {"type": "LoadBalancer", "ports": [{"port": 443, "nodePort": 30443, "protocol": "TCP"}]}})",
       R"(["lb","LoadBalancer","<none>","<pending>","443:30443/TCP","3h","<none>"])"},
      {"", "services", R"({"metadata": {"name": "ext", )" + ts + R"(},
         "spec": {"type": "ExternalName", "externalName": "db.example.com"}})",
       R"(["ext","ExternalName","<none>","db.example.com","<none>","3h","<none>"])"},
      {"", "endpoints", R"({"metadata": {"name": "e", )" + ts + R"(}, "subsets": [
         {"addresses": [{"ip": "10.1.0.1"}, {"ip": "10.1.0.2"}], "ports": [{"port": 80}, {"port": 443}]}]})",
       R"(["e","10.1.0.1:80,10.1.0.2:80,10.1.0.1:443 + 1 more...","3h"])"},
      {"", "endpoints", R"({"metadata": {"name": "none", )" + ts + R"(}})", R"(["none","<none>","3h"])"},
      {"", "serviceaccounts", R"({"metadata": {"name": "default", )" + ts + R"(}})", R"(["default",0,"3h"])"},
      {"", "events", R"({"metadata": {"name": "vh.1"}, "type": "Warning", "reason": "Failed",
         "involvedObject": {"kind": "RabbitMQVhost", "name": "orders", "fieldPath": "spec"},
         "source": {"component": "c5c3"}, "message": "  no broker \n",
         "firstTimestamp": "2026-12-01T11:00:00Z", "lastTimestamp": "2026-12-01T11:58:00Z", "count": 4})",
       R"(["2m","Warning","Failed","rabbitmqvhost/orders","spec","c5c3","no broker","60m",4,"vh.1"])"},
      {"events.k8s.io", "events", R"({"apiVersion": "events.k8s.io/v1", "metadata": {"name": "vh.2"},
         "type": "Normal", "reason": "Provisioned", "eventTime": "2026-12-01T11:59:00.000000Z",
         "regarding": {"kind": "Secret", "name": "creds"}, "note": "done",
         "reportingController": "c5c3.io/operator", "reportingInstance": "pod-1"})",
       R"(["60s","Normal","Provisioned","secret/creds","","c5c3.io/operator, pod-1","done","60s",1,"vh.2"])"},
      {"coordination.k8s.io", "leases", R"({"metadata": {"name": "leader", )" + ts + R"(},
         "spec": {"holderIdentity": "op-1"}})", R"(["leader","op-1","3h"])"},
      {"rbac.authorization.k8s.io", "roles", R"({"metadata": {"name": "r", "creationTimestamp": "2026-12-01T10:00:00+02:00"}})",
       R"(["r","2026-12-01T08:00:00Z"])"},
      {"rbac.authorization.k8s.io", "rolebindings", R"({"metadata": {"name": "rb", )" + ts + R"(},
         "roleRef": {"kind": "ClusterRole", "name": "edit"},
         "subjects": [{"kind": "User", "name": "alice"}, {"kind": "Group", "name": "ops"},
                      {"kind": "ServiceAccount", "name": "op", "namespace": "c5c3"},
                      {"kind": "User", "name": "bob"}]})",
       R"(["rb","ClusterRole/edit","3h","alice, bob","ops","c5c3/op"])"},
      {"apiextensions.k8s.io", "customresourcedefinitions",
       R"({"metadata": {"name": "rabbitmqvhosts.c5c3.io", )" + ts + R"(}})",
       R"(["rabbitmqvhosts.c5c3.io","2026-12-01T09:00:00Z"])"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.plural << " " << r.object) {
      BOOST_TEST(cells(builtin(r.group, r.plural), obj(r.object)) == r.want);
    }
  }
}

BOOST_AUTO_TEST_CASE(table_of_one_object) {
  table_options opt;
  opt.now = now();
  auto t = render_table(vhosts(), obj(ready_vhost), opt);
  BOOST_TEST(k8s::get_string(t, {"kind"}) == "Table");
  BOOST_TEST(k8s::get_string(t, {"apiVersion"}) == "meta.k8s.io/v1");
  BOOST_TEST(k8s::get_string(t, {"metadata", "resourceVersion"}) == "17");
  const auto& cols = *k8s::member(t, "columnDefinitions");
  BOOST_REQUIRE(cols.Size() == 7u);
  auto want = k8s::parse_json(R"({"name": "Name", "type": "string", "format": "name",
      "description": "Name must be unique within a namespace; it identifies the object in URLs.", "priority": 0})");
  BOOST_TEST(k8s::to_json(cols[0]) == k8s::to_json(*want));
  BOOST_TEST(k8s::get_int(cols[3], {"priority"}).value_or(-1) == 1);
  const auto& rows = *k8s::member(t, "rows");
  BOOST_REQUIRE(rows.Size() == 1u);
  BOOST_TEST(k8s::to_json(*k8s::member(rows[0], "cells")) ==
             R"(["orders","True","cp","orders-1a2b3c4d",2,"2026-12-31T11:00:00Z","60m"])");
  // Metadata by default: PartialObjectMetadata.
  const auto& object = *k8s::member(rows[0], "object");
  BOOST_TEST(k8s::get_string(object, {"kind"}) == "PartialObjectMetadata");
  BOOST_TEST(k8s::get_string(object, {"apiVersion"}) == "meta.k8s.io/v1");
  BOOST_TEST(k8s::get_string(object, {"metadata", "uid"}) == "u-1");
  BOOST_TEST(k8s::member(object, "spec") == nullptr);
}

BOOST_AUTO_TEST_CASE(table_of_a_list_and_include_object) {
  std::vector<k8s::object> items = {obj(ready_vhost),
                                    obj(R"({"metadata": {"name": "b", "creationTimestamp": "2026-12-01T11:59:00Z"}})")};
  list_meta meta{"99", "token", 5};
  table_options opt;
  opt.now = now();
  opt.include = include_object::object;
  auto t = render_table(vhosts(), items, meta, opt);
  BOOST_TEST(k8s::get_string(t, {"metadata", "resourceVersion"}) == "99");
  BOOST_TEST(k8s::get_string(t, {"metadata", "continue"}) == "token");
  BOOST_TEST(k8s::get_int(t, {"metadata", "remainingItemCount"}).value_or(-1) == 5);
  const auto& rows = *k8s::member(t, "rows");
  BOOST_REQUIRE(rows.Size() == 2u);
  BOOST_TEST(k8s::to_json(*k8s::member(rows[0], "object")) == obj(ready_vhost).to_json());
  BOOST_TEST(k8s::to_json(*k8s::member(rows[1], "cells")) == R"(["b",null,null,null,null,null,"60s"])");

  opt.include = include_object::none;
  opt.no_headers = true;
  auto bare = render_table(vhosts(), items, list_meta{}, opt);
  BOOST_TEST(k8s::member(bare, "columnDefinitions")->IsNull());
  BOOST_TEST(k8s::to_json(*k8s::member(bare, "metadata")) == "{}");
  BOOST_TEST(k8s::member((*k8s::member(bare, "rows"))[1], "object")->IsNull());

  auto empty = render_table(vhosts(), std::vector<k8s::object>{}, list_meta{"5", "", std::nullopt}, table_options{});
  BOOST_TEST(k8s::member(empty, "rows")->IsArray());
  BOOST_TEST(k8s::member(empty, "rows")->Empty());
}

BOOST_AUTO_TEST_CASE(include_object_values) {
  BOOST_TEST((parse_include_object("") == include_object::metadata));
  BOOST_TEST((parse_include_object("Metadata") == include_object::metadata));
  BOOST_TEST((parse_include_object("None") == include_object::none));
  BOOST_TEST((parse_include_object("Object") == include_object::object));
  BOOST_TEST(!parse_include_object("object"));
}

BOOST_AUTO_TEST_SUITE_END()
