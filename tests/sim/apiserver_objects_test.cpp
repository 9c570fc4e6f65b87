// Object semantics over HTTP against the in-process emulator: create, get,
// update with optimistic concurrency, generateName, dryRun, name validation,
// namespaces, Secrets, finalizers, delete preconditions, garbage collection,
// namespace deletion, CRDs and the /status subresource.
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string str(const k8s::json_value& v, std::initializer_list<std::string_view> p) {
  return std::string(k8s::get_string(v, p));
}

const char* cm_path = "/api/v1/namespaces/default/configmaps";

const char* crd = R"({
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.com"},
  "spec": {"group": "example.com", "scope": "Namespaced",
    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "shortNames": ["wd"], "categories": ["all"]},
    "versions": [{"name": "v1", "served": true, "storage": true,
      "subresources": {"status": {}},
      "additionalPrinterColumns": [{"name": "Size", "type": "integer", "jsonPath": ".spec.size"}],
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "properties": {"size": {"type": "integer", "minimum": 0}}},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}}}}]}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(apiserver_objects)

BOOST_AUTO_TEST_CASE(unauthenticated_requests_get_401_but_health_is_open) {
  server_fixture f(plain());
  auto o = f.client_opts();
  o.token = "wrong";
  http_client anon(o);
  auto r = anon.get(cm_path);
  BOOST_TEST(r.status == 401);
  BOOST_TEST(str(r.json(), {"reason"}) == "Unauthorized");
  BOOST_TEST(anon.get("/livez").status == 200);
  BOOST_TEST(anon.get("/readyz").status == 200);
  auto v = anon.get("/version");
  BOOST_TEST(v.status == 200);
  BOOST_TEST(str(v.json(), {"major"}) == "1");
}

BOOST_AUTO_TEST_CASE(create_get_update_and_conflict) {
  server_fixture f(plain());
  auto c = f.client();
  auto r = c.post(cm_path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}})");
  BOOST_TEST(r.status == 201, r.error << r.body);
  auto created = r.json();
  BOOST_TEST(!str(created, {"metadata", "uid"}).empty());
  BOOST_TEST(!str(created, {"metadata", "creationTimestamp"}).empty());
  std::string rv = str(created, {"metadata", "resourceVersion"});
  BOOST_TEST(!rv.empty());

  auto again = c.post(cm_path, R"({"metadata":{"name":"a"}})");
  BOOST_TEST(again.status == 409);
  BOOST_TEST(str(again.json(), {"reason"}) == "AlreadyExists");
  BOOST_TEST(str(again.json(), {"message"}) == R"(configmaps "a" already exists)");

  auto got = c.get(std::string(cm_path) + "/a");
  BOOST_TEST(got.status == 200);
  BOOST_TEST(str(got.json(), {"data", "k"}) == "v");

  auto upd = c.put(std::string(cm_path) + "/a",
                   R"({"metadata":{"name":"a","resourceVersion":")" + rv + R"("},"data":{"k":"w"}})");
  BOOST_TEST(upd.status == 200);
  std::string rv2 = str(upd.json(), {"metadata", "resourceVersion"});
  BOOST_TEST(std::stoll(rv2) > std::stoll(rv));

  auto stale = c.put(std::string(cm_path) + "/a",
                     R"({"metadata":{"name":"a","resourceVersion":")" + rv + R"("},"data":{"k":"x"}})");
  BOOST_TEST(stale.status == 409);
  BOOST_TEST(str(stale.json(), {"reason"}) == "Conflict");
  BOOST_TEST(str(stale.json(), {"message"}) ==
             R"(Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again)");

  auto missing = c.get(std::string(cm_path) + "/nope");
  BOOST_TEST(missing.status == 404);
  BOOST_TEST(str(missing.json(), {"message"}) == R"(configmaps "nope" not found)");
}

BOOST_AUTO_TEST_CASE(generate_name_dry_run_and_name_validation) {
  server_fixture f(plain());
  auto c = f.client();
  auto g = c.post(cm_path, R"({"metadata":{"generateName":"gen-"}})");
  BOOST_TEST(g.status == 201);
  std::string name = str(g.json(), {"metadata", "name"});
  BOOST_TEST(name.size() == 9u);
  BOOST_TEST(name.rfind("gen-", 0) == 0u);

  auto before = f.server->current_resource_version();
  auto dry = c.post(std::string(cm_path) + "?dryRun=All", R"({"metadata":{"name":"dry"}})");
  BOOST_TEST(dry.status == 201);
  BOOST_TEST(c.get(std::string(cm_path) + "/dry").status == 404);
  BOOST_TEST(f.server->current_resource_version() == before);

  auto bad = c.post(cm_path, R"({"metadata":{"name":"Bad_Name"}})");
  BOOST_TEST(bad.status == 422);
  auto j = bad.json();
  BOOST_TEST(str(j, {"reason"}) == "Invalid");
  BOOST_TEST(str(j, {"message"}).rfind(R"(ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain)", 0) == 0u);
  BOOST_TEST(str(*k8s::find(j, {"details", "causes"})->Begin(), {"field"}) == "metadata.name");

  auto none = c.post(cm_path, R"({"metadata":{}})");
  BOOST_TEST(none.status == 422);

  auto nons = c.post("/api/v1/namespaces/ghost/configmaps", R"({"metadata":{"name":"x"}})");
  BOOST_TEST(nons.status == 404);
  BOOST_TEST(str(nons.json(), {"message"}) == R"(namespaces "ghost" not found)");
}

BOOST_AUTO_TEST_CASE(secret_string_data_and_base64) {
  server_fixture f(plain());
  auto c = f.client();
  auto r = c.post("/api/v1/namespaces/default/secrets",
                  R"({"metadata":{"name":"s"},"data":{"a":"YWJj"},"stringData":{"b":"xyz"}})");
  BOOST_TEST(r.status == 201);
  auto j = r.json();
  BOOST_TEST(str(j, {"data", "a"}) == "YWJj");
  BOOST_TEST(str(j, {"data", "b"}) == "eHl6");
  BOOST_TEST(k8s::member(j, "stringData") == nullptr);
  BOOST_TEST(str(j, {"type"}) == "Opaque");
  auto bad = c.post("/api/v1/namespaces/default/secrets", R"({"metadata":{"name":"t"},"data":{"a":"!!!"}})");
  BOOST_TEST(bad.status == 400);
  BOOST_TEST(str(bad.json(), {"message"}).find("illegal base64 data at input byte 0") != std::string::npos,
             bad.body);
}

BOOST_AUTO_TEST_CASE(finalizers_hold_deletion_and_forbid_new_ones) {
  server_fixture f(plain());
  auto c = f.client();
  BOOST_TEST(c.post(cm_path, R"({"metadata":{"name":"fin","finalizers":["example.com/keep"]}})").status == 201);
  auto d = c.del(std::string(cm_path) + "/fin");
  BOOST_TEST(d.status == 200);
  auto got = c.get(std::string(cm_path) + "/fin").json();
  BOOST_TEST(!str(got, {"metadata", "deletionTimestamp"}).empty());
  std::string rv = str(got, {"metadata", "resourceVersion"});
  auto add = c.patch(std::string(cm_path) + "/fin",
                     R"({"metadata":{"finalizers":["example.com/keep","example.com/new"]}})",
                     "application/merge-patch+json");
  BOOST_TEST(add.status == 422);
  BOOST_TEST(str(add.json(), {"message"}).find("no new finalizers can be added if the object is being deleted") !=
             std::string::npos);
  auto rm = c.patch(std::string(cm_path) + "/fin", R"({"metadata":{"finalizers":null}})",
                    "application/merge-patch+json");
  BOOST_TEST(rm.status == 200);
  BOOST_TEST(c.get(std::string(cm_path) + "/fin").status == 404);
}

BOOST_AUTO_TEST_CASE(delete_preconditions) {
  server_fixture f(plain());
  auto c = f.client();
  auto cr = c.post(cm_path, R"({"metadata":{"name":"p"}})").json();
  auto bad = c.del(std::string(cm_path) + "/p", R"({"preconditions":{"uid":"other"}})");
  BOOST_TEST(bad.status == 409);
  BOOST_TEST(str(bad.json(), {"message"}) ==
             "Operation cannot be fulfilled on configmaps \"p\": Precondition failed: UID in precondition: "
             "other, UID in object meta: " + str(cr, {"metadata", "uid"}));
  auto badrv = c.del(std::string(cm_path) + "/p", R"({"preconditions":{"resourceVersion":"1"}})");
  BOOST_TEST(badrv.status == 409);
  auto ok = c.del(std::string(cm_path) + "/p",
                  R"({"preconditions":{"uid":")" + str(cr, {"metadata", "uid"}) + R"("}})");
  BOOST_TEST(ok.status == 200);
  BOOST_TEST(str(ok.json(), {"status"}) == "Success");
}

BOOST_AUTO_TEST_CASE(garbage_collection_background_foreground_orphan) {
  server_fixture f(plain());
  auto c = f.client();
  auto owner = [&](const std::string& name) {
    return c.post(cm_path, R"({"metadata":{"name":")" + name + R"("}})").json();
  };
  auto dependent = [&](const std::string& name, const k8s::json_value& o) {
    return c.post(cm_path, R"({"metadata":{"name":")" + name +
                               R"(","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":")" +
                               str(o, {"metadata", "name"}) + R"(","uid":")" + str(o, {"metadata", "uid"}) +
                               R"(","blockOwnerDeletion":true}]}})")
        .status;
  };
  auto o1 = owner("o1");
  BOOST_TEST(dependent("d1", o1) == 201);
  BOOST_TEST(c.del(std::string(cm_path) + "/o1").status == 200);
  BOOST_TEST(c.get(std::string(cm_path) + "/d1").status == 404);

  auto o2 = owner("o2");
  BOOST_TEST(dependent("d2", o2) == 201);
  BOOST_TEST(c.del(std::string(cm_path) + "/o2?propagationPolicy=Orphan").status == 200);
  auto d2 = c.get(std::string(cm_path) + "/d2");
  BOOST_TEST(d2.status == 200);
  BOOST_TEST(k8s::find(d2.json(), {"metadata", "ownerReferences"}) == nullptr);

  auto o3 = owner("o3");
  BOOST_TEST(c.post(cm_path, R"({"metadata":{"name":"d3","finalizers":["x/y"],"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o3","uid":")" +
                                 str(o3, {"metadata", "uid"}) + R"("}]}})")
                 .status == 201);
  BOOST_TEST(c.del(std::string(cm_path) + "/o3", R"({"propagationPolicy":"Foreground"})").status == 200);
  auto o3now = c.get(std::string(cm_path) + "/o3");
  BOOST_TEST(o3now.status == 200);  // waits for d3
  BOOST_TEST(k8s::object(o3now.json()).has_finalizer("foregroundDeletion"));
  auto d3 = c.get(std::string(cm_path) + "/d3").json();
  BOOST_TEST(!str(d3, {"metadata", "deletionTimestamp"}).empty());
  BOOST_TEST(c.patch(std::string(cm_path) + "/d3", R"({"metadata":{"finalizers":null}})",
                     "application/merge-patch+json")
                 .status == 200);
  BOOST_TEST(c.get(std::string(cm_path) + "/d3").status == 404);
  BOOST_TEST(c.get(std::string(cm_path) + "/o3").status == 404);
}

BOOST_AUTO_TEST_CASE(namespace_deletion_removes_contents) {
  server_fixture f(plain());
  auto c = f.client();
  auto ns = c.post("/api/v1/namespaces", R"({"metadata":{"name":"team"}})");
  BOOST_TEST(ns.status == 201);
  BOOST_TEST(str(ns.json(), {"status", "phase"}) == "Active");
  BOOST_TEST(c.post("/api/v1/namespaces/team/configmaps", R"({"metadata":{"name":"c","finalizers":["a/b"]}})").status == 201);
  auto d = c.del("/api/v1/namespaces/team");
  BOOST_TEST(d.status == 200);
  auto now = c.get("/api/v1/namespaces/team");
  BOOST_TEST(now.status == 200);
  BOOST_TEST(str(now.json(), {"status", "phase"}) == "Terminating");
  auto create = c.post("/api/v1/namespaces/team/configmaps", R"({"metadata":{"name":"late"}})");
  BOOST_TEST(create.status == 403);
  BOOST_TEST(c.patch("/api/v1/namespaces/team/configmaps/c", R"({"metadata":{"finalizers":null}})",
                     "application/merge-patch+json")
                 .status == 200);
  BOOST_TEST(c.get("/api/v1/namespaces/team").status == 404);
}

BOOST_AUTO_TEST_CASE(crd_serves_kind_with_status_subresource_and_deletion_stops_it) {
  server_fixture f(plain());
  auto c = f.client();
  auto r = c.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
  BOOST_TEST_REQUIRE(r.status == 201, r.body);
  auto rj = r.json();
  auto conds = k8s::find(rj, {"status", "conditions"});
  BOOST_TEST_REQUIRE(conds != nullptr);
  bool established = false;
  for (auto& cd : conds->GetArray())
    established |= str(cd, {"type"}) == "Established" && str(cd, {"status"}) == "True";
  BOOST_TEST(established);
  const std::string w = "/apis/example.com/v1/namespaces/default/widgets";
  auto cw = c.post(w, R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":1},"status":{"ready":true}})");
  BOOST_TEST_REQUIRE(cw.status == 201, cw.body);
  auto cj = cw.json();
  BOOST_TEST(k8s::member(cj, "status") == nullptr);  // dropped on create
  BOOST_TEST(*k8s::get_int(cj, {"metadata", "generation"}) == 1);
  auto st = c.patch(w + "/w/status", R"({"status":{"ready":true},"spec":{"size":9}})", "application/merge-patch+json");
  BOOST_TEST_REQUIRE(st.status == 200, st.body);
  auto sj = st.json();
  BOOST_TEST(*k8s::get_bool(sj, {"status", "ready"}));
  BOOST_TEST(*k8s::get_int(sj, {"spec", "size"}) == 1);
  BOOST_TEST(*k8s::get_int(sj, {"metadata", "generation"}) == 1);
  auto sp = c.patch(w + "/w", R"({"spec":{"size":2},"status":{"ready":false}})", "application/merge-patch+json");
  BOOST_TEST_REQUIRE(sp.status == 200, sp.body);
  auto pj = sp.json();
  BOOST_TEST(*k8s::get_int(pj, {"spec", "size"}) == 2);
  BOOST_TEST(*k8s::get_bool(pj, {"status", "ready"}));
  BOOST_TEST(*k8s::get_int(pj, {"metadata", "generation"}) == 2);
  auto inval = c.patch(w + "/w", R"({"spec":{"size":-1}})", "application/merge-patch+json");
  BOOST_TEST(inval.status == 422);
  auto smp = c.patch(w + "/w", R"({"spec":{"size":3}})", "application/strategic-merge-patch+json");
  BOOST_TEST(smp.status == 415);
  auto put_norv = c.put(w + "/w", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":5}})");
  BOOST_TEST(put_norv.status == 422);

  BOOST_TEST(c.del("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com").status == 200);
  BOOST_TEST(c.get(w + "/w").status == 404);
  BOOST_TEST(f.server->list_objects("widgets.example.com").empty());
}

BOOST_AUTO_TEST_SUITE_END()
