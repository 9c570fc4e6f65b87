// Object semantics over HTTP against the in-process emulator: create, get,
// update with optimistic concurrency, generateName, dryRun, name validation,
// namespaces, Secrets, finalizers, delete preconditions, garbage collection,
// namespace deletion, CRDs and the /status subresource.
#include "sim/apiserver/protobuf_body.hpp"
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string str(const k8s::json_value& v, std::initializer_list<std::string_view> p) {
  return std::string(k8s::get_string(v, p));
}

const char* cm_path = "/api/v1/namespaces/default/configmaps";

// Bytes from a hex dump ("6b 38 73 00 ...").
std::string from_hex(std::string_view dump) {
  std::string out;
  for (std::size_t i = 0; i + 1 < dump.size();) {
    if (dump[i] == ' ') {
      ++i;
      continue;
    }
    out.push_back(static_cast<char>(std::stoi(std::string(dump.substr(i, 2)), nullptr, 16)));
    i += 2;
  }
  return out;
}

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

// kubectl never sends credentials to an http:// server (clientcmd reads the
// user only for https), so the plain-http listener treats a request without
// any as kube-apiserver's old insecure port did; a wrong token is still 401.
BOOST_AUTO_TEST_CASE(plain_http_without_credentials_is_system_unsecured) {
  server_fixture f(plain());
  auto o = f.client_opts();
  o.token.clear();
  http_client anon(o);
  auto r = anon.post(cm_path, R"({"metadata":{"name":"unsecured"}})");
  BOOST_TEST(r.status == 201);
  auto log = f.server->write_log();
  BOOST_TEST_REQUIRE(!log.empty());
  BOOST_TEST(log.back().client == "system:unsecured");
}

BOOST_AUTO_TEST_CASE(https_without_credentials_is_401) {
  server_fixture f;
  auto o = f.client_opts();
  o.token.clear();
  BOOST_TEST(http_client(o).get(cm_path).status == 401);
}

// The bodies kubectl 1.32 sends for `create configmap x --from-literal=a=b`,
// `create namespace y`, `create secret generic s --from-literal=k=v` and
// `create service clusterip` (captured with kubectl -v=8): protobuf in the
// runtime.Unknown envelope.
BOOST_AUTO_TEST_CASE(protobuf_bodies_of_kubectl_create) {
  server_fixture f(plain());
  auto c = f.client();
  const std::string pb = "application/vnd.kubernetes.protobuf";
  const std::map<std::string, std::string> accept{{"Accept", pb + ",application/json"}};
  const auto cm = from_hex(
      "6b 38 73 00 0a 0f 0a 02 76 31 12 09 43 6f 6e 66 69 67 4d 61 70 12 1b 0a 11 0a 01 78 12 00 1a 00"
      "22 00 2a 00 32 00 38 00 42 00 12 06 0a 01 61 12 01 62 1a 00 22 00");
  auto r = c.request("POST", std::string(cm_path) + "?fieldManager=kubectl-create&fieldValidation=Strict", cm,
                     pb, accept);
  BOOST_TEST_REQUIRE(r.status == 201, r.body);
  BOOST_TEST(r.headers["content-type"] == "application/json");
  auto got = c.get(std::string(cm_path) + "/x").json();
  BOOST_TEST(str(got, {"data", "a"}) == "b");
  BOOST_TEST(k8s::find(got, {"metadata", "creationTimestamp"}) != nullptr);

  const auto ns = from_hex(
      "6b 38 73 00 0a 0f 0a 02 76 31 12 09 4e 61 6d 65 73 70 61 63 65 12 19 0a 11 0a 01 79 12 00 1a 00"
      "22 00 2a 00 32 00 38 00 42 00 12 00 1a 02 0a 00 1a 00 22 00");
  r = c.request("POST", "/api/v1/namespaces", ns, pb, accept);
  BOOST_TEST_REQUIRE(r.status == 201, r.body);
  BOOST_TEST(str(r.json(), {"status", "phase"}) == "Active");

  const auto secret = from_hex(
      "6b 38 73 00 0a 0c 0a 02 76 31 12 06 53 65 63 72 65 74 12 1d 0a 11 0a 01 73 12 00 1a 00 22 00 2a"
      "00 32 00 38 00 42 00 12 06 0a 01 6b 12 01 76 1a 00 1a 00 22 00");
  r = c.request("POST", "/api/v1/namespaces/y/secrets", secret, pb, accept);
  BOOST_TEST_REQUIRE(r.status == 201, r.body);
  BOOST_TEST(str(r.json(), {"data", "k"}) == "dg==");  // "v"
  BOOST_TEST(str(r.json(), {"type"}) == "Opaque");

  // `kubectl create service clusterip svc1 --tcp=80:8080`
  const auto svc = from_hex(
      "6b 38 73 00 0a 0d 0a 02 76 31 12 07 53 65 72 76 69 63 65 12 6c 0a 21 0a 04 73 76 63 31 12 00 1a"
      "00 22 00 2a 00 32 00 38 00 42 00 5a 0b 0a 03 61 70 70 12 04 73 76 63 31 12 43 0a 1b 0a 07 38 30"
      "2d 38 30 38 30 12 03 54 43 50 18 50 22 07 08 00 10 90 3f 1a 00 28 00 12 0b 0a 03 61 70 70 12 04"
      "73 76 63 31 1a 00 22 09 43 6c 75 73 74 65 72 49 50 3a 00 42 00 52 00 5a 00 60 00 68 00 1a 02 0a"
      "00 1a 00 22 00");
  r = c.request("POST", "/api/v1/namespaces/default/services", svc, pb, accept);
  BOOST_TEST_REQUIRE(r.status == 201, r.body);
  auto sj = r.json();
  BOOST_TEST(str(sj, {"metadata", "labels", "app"}) == "svc1");
  BOOST_TEST(str(sj, {"spec", "type"}) == "ClusterIP");
  BOOST_TEST(str(sj, {"spec", "selector", "app"}) == "svc1");
  const auto& port = (*k8s::find(sj, {"spec", "ports"}))[0];
  BOOST_TEST(str(port, {"name"}) == "80-8080");
  BOOST_TEST(str(port, {"protocol"}) == "TCP");
  BOOST_TEST(*k8s::get_int(port, {"port"}) == 80);
  BOOST_TEST(*k8s::get_int(port, {"targetPort"}) == 8080);
  BOOST_TEST(k8s::member(port, "nodePort") == nullptr);

  // A kind the decoder does not know: kube's 415; a broken envelope: 400.
  const auto eps = from_hex("6b 38 73 00 0a 0f 0a 02 76 31 12 09 45 6e 64 70 6f 69 6e 74 73 12 00");
  r = c.request("POST", "/api/v1/namespaces/default/endpoints", eps, pb, accept);
  BOOST_TEST(r.status == 415);
  BOOST_TEST(str(r.json(), {"reason"}) == "UnsupportedMediaType");
  r = c.request("POST", cm_path, from_hex("6b 38 73 00 0a 7f"), pb, accept);
  BOOST_TEST(r.status == 400);
}

// The DeleteOptions body of a typed client's DELETE (helm uninstall's release
// Secret): gracePeriodSeconds 30, propagationPolicy Background, dryRun [All].
BOOST_AUTO_TEST_CASE(protobuf_delete_options) {
  using namespace std::string_literals;
  const std::string type_meta = "\x0a\x02v1\x12\x0d" "DeleteOptions"s;
  const std::string raw = "\x08\x1e\x22\x0a" "Background\x2a\x03" "All"s;
  const std::string body = "k8s\0"s + "\x0a" + char(type_meta.size()) + type_meta + "\x12" + char(raw.size()) + raw;
  auto d = sim::decode_protobuf_object(body);
  BOOST_TEST_REQUIRE(d.object.has_value(), d.error);
  BOOST_TEST(str(*d.object, {"kind"}) == "DeleteOptions");
  BOOST_TEST(*k8s::get_int(*d.object, {"gracePeriodSeconds"}) == 30);
  BOOST_TEST(str(*d.object, {"propagationPolicy"}) == "Background");
  BOOST_TEST(std::string((*k8s::find(*d.object, {"dryRun"}))[0].GetString()) == "All");
  BOOST_TEST(k8s::member(*d.object, "metadata") == nullptr);
}

// Every truncation and every single-byte corruption of a captured body
// decodes or fails cleanly (ASan watches the reads).
BOOST_AUTO_TEST_CASE(protobuf_decoder_survives_broken_bodies) {
  const auto svc = from_hex(
      "6b 38 73 00 0a 0d 0a 02 76 31 12 07 53 65 72 76 69 63 65 12 6c 0a 21 0a 04 73 76 63 31 12 00 1a"
      "00 22 00 2a 00 32 00 38 00 42 00 5a 0b 0a 03 61 70 70 12 04 73 76 63 31 12 43 0a 1b 0a 07 38 30"
      "2d 38 30 38 30 12 03 54 43 50 18 50 22 07 08 00 10 90 3f 1a 00 28 00 12 0b 0a 03 61 70 70 12 04"
      "73 76 63 31 1a 00 22 09 43 6c 75 73 74 65 72 49 50 3a 00 42 00 52 00 5a 00 60 00 68 00 1a 02 0a"
      "00 1a 00 22 00");
  auto whole = sim::decode_protobuf_object(svc);
  BOOST_TEST_REQUIRE(whole.object.has_value());
  std::size_t failed = 0;
  for (std::size_t n = 0; n < svc.size(); ++n) {
    auto r = sim::decode_protobuf_object(svc.substr(0, n));
    if (!r.object) ++failed;
    BOOST_TEST((r.object.has_value() != !r.error.empty() || !r.known_kind));
  }
  BOOST_TEST(failed > svc.size() / 2);  // most truncations cut a length-delimited field
  for (std::size_t i = 4; i < svc.size(); ++i)
    for (unsigned char x : {0x00, 0x7f, 0x80, 0xff}) {
      auto broken = svc;
      broken[i] = static_cast<char>(x);
      (void)sim::decode_protobuf_object(broken);
    }
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
  // As kube-apiserver 1.34: releasing the last finalizer is not stored, the answer keeps the
  // resourceVersion it was sent on.
  BOOST_TEST(str(rm.json(), {"metadata", "resourceVersion"}) == rv);
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

// /openapi/v3 and discovery are rendered once per set of served kinds; a CRD
// change shows at once. /openapi/v2 answers the protobuf kubectl asks for.
BOOST_AUTO_TEST_CASE(openapi_documents_follow_crd_changes) {
  server_fixture f(plain());
  auto c = f.client();
  const std::string crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  auto has_widgets = [&] {
    auto idx = c.get("/openapi/v3").json();
    return k8s::find(idx, {"paths", "apis/example.com/v1"}) != nullptr;
  };
  BOOST_TEST(!has_widgets());
  BOOST_TEST(!has_widgets());  // from the cache
  BOOST_TEST(c.get("/apis/example.com/v1").status == 404);
  BOOST_TEST_REQUIRE(c.post(crds, crd).status == 201);
  BOOST_TEST(has_widgets());
  BOOST_TEST(c.get("/apis/example.com/v1").status == 200);
  BOOST_TEST(c.get("/openapi/v3/apis/example.com/v1").status == 200);
  BOOST_TEST_REQUIRE(c.del(crds + "/widgets.example.com").status == 200);
  BOOST_TEST(!has_widgets());
  BOOST_TEST(c.get("/openapi/v3/apis/example.com/v1").status == 404);

  const std::string pb = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
  auto v2 = c.request("GET", "/openapi/v2", "", "application/json", {{"Accept", pb}});
  BOOST_TEST(v2.status == 200);
  BOOST_TEST(v2.headers["content-type"] == "application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
  BOOST_TEST(v2.body.substr(0, 5) == std::string("\x0a\x03" "2.0"));
  auto json = c.request("GET", "/openapi/v2", "", "application/json", {{"Accept", "application/json, " + pb}});
  BOOST_TEST(json.headers["content-type"] == "application/json");
  BOOST_TEST(str(json.json(), {"swagger"}) == "2.0");
  BOOST_TEST(c.request("GET", "/openapi/v2", "", "application/json", {{"Accept", "text/plain"}}).status == 406);
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

// As kube-apiserver 1.34: empty metadata maps and lists, and a ConfigMap's empty data, are not
// stored (Go's omitempty), on create and on a patch that empties them.
BOOST_AUTO_TEST_CASE(empty_metadata_maps_are_not_stored) {
  server_fixture f(plain());
  auto c = f.client();
  auto cr = c.post(cm_path, R"({"metadata":{"name":"e","labels":{},"annotations":{},"finalizers":[]},"data":{}})");
  BOOST_TEST(cr.status == 201);
  for (const char* field : {"labels", "annotations", "finalizers"})
    BOOST_TEST(k8s::find(cr.json(), {"metadata", field}) == nullptr, field);
  BOOST_TEST(k8s::member(cr.json(), "data") == nullptr);
  BOOST_TEST(c.patch(std::string(cm_path) + "/e", R"({"metadata":{"labels":{"tier":"web"}}})",
                     "application/merge-patch+json").status == 200);
  auto rm = c.patch(std::string(cm_path) + "/e", R"({"metadata":{"labels":{"tier":null}}})",
                    "application/strategic-merge-patch+json");
  BOOST_TEST(rm.status == 200);
  BOOST_TEST(k8s::find(rm.json(), {"metadata", "labels"}) == nullptr, rm.body);
}

// As kube-apiserver 1.34: a JSON patch that does not apply gets one generic 422.
BOOST_AUTO_TEST_CASE(json_patch_that_does_not_apply_gets_kube_generic_message) {
  server_fixture f(plain());
  auto c = f.client();
  BOOST_TEST(c.post(cm_path, R"({"metadata":{"name":"j"},"data":{"c":"3"}})").status == 201);
  auto bad = c.patch(std::string(cm_path) + "/j", R"([{"op":"test","path":"/data/c","value":"4"}])",
                     "application/json-patch+json");
  BOOST_TEST(bad.status == 422);
  BOOST_TEST(str(bad.json(), {"message"}) == "the server rejected our request due to an error in our request");
  BOOST_TEST(str(bad.json(), {"reason"}) == "Invalid");
  auto replace = c.patch(std::string(cm_path) + "/j", R"([{"op":"replace","path":"/data/zz","value":"1"}])",
                         "application/json-patch+json");
  BOOST_TEST(replace.status == 200, replace.body);
  BOOST_TEST(str(replace.json(), {"data", "zz"}) == "1");
}
