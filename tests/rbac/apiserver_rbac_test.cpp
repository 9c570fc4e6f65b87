// The emulator with --authorization-mode=RBAC over real sockets: ServiceAccount
// tokens from TokenRequest, bootstrap discovery, Roles and bindings deciding,
// kube's 403 body, the admin token, and OwnerReferencesPermissionEnforcement.
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string str(const k8s::json_value& v, std::initializer_list<std::string_view> p) {
  return std::string(k8s::get_string(v, p));
}

sim::apiserver_options rbac_options(bool owner_refs = false) {
  auto o = plain();
  o.authorization_mode = "RBAC";
  if (owner_refs) o.admission_plugins = {"OwnerReferencesPermissionEnforcement"};
  return o;
}

// A namespace and a ServiceAccount `sa` in it, made with the admin token; a
// client holding the ServiceAccount's token from a TokenRequest.
struct sa_fixture : server_fixture {
  explicit sa_fixture(sim::apiserver_options o) : server_fixture(std::move(o)), admin(client()) {
    BOOST_REQUIRE(admin.post("/api/v1/namespaces", R"({"metadata":{"name":"ns"}})").status == 201);
    BOOST_REQUIRE(admin.post("/api/v1/namespaces/ns/serviceaccounts", R"({"metadata":{"name":"sa"}})").status ==
                  201);
    auto tr = admin.post("/api/v1/namespaces/ns/serviceaccounts/sa/token",
                         R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}})");
    BOOST_REQUIRE_EQUAL(tr.status, 201);
    auto j = tr.json();
    BOOST_TEST(str(j, {"kind"}) == "TokenRequest");
    BOOST_TEST(k8s::get_int(j, {"spec", "expirationSeconds"}).value_or(0) == 3600);
    token = str(j, {"status", "token"});
    BOOST_REQUIRE(!token.empty());
    auto o2 = client_opts();
    o2.token = token;
    sa.emplace(o2);
  }
  void apply_admin(const std::string& path, const std::string& body) {
    auto r = admin.post(path, body);
    BOOST_REQUIRE_MESSAGE(r.status == 201, path << ": " << r.status << " " << r.body);
  }
  http_client admin;
  std::string token;
  std::optional<http_client> sa;
};

const std::string rbac_api = "/apis/rbac.authorization.k8s.io/v1";

}  // namespace

BOOST_AUTO_TEST_SUITE(apiserver_rbac)

BOOST_AUTO_TEST_CASE(without_rbac_a_service_account_may_do_anything) {
  sa_fixture f(plain());
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/secrets").status == 200);
  BOOST_TEST(f.sa->get("/sim/faults").status == 200);
  // No bootstrap policy is created then.
  BOOST_TEST(f.admin.get(rbac_api + "/clusterroles/cluster-admin").status == 404);
}

BOOST_AUTO_TEST_CASE(a_service_account_token_is_its_identity_and_forbidden_is_kube_shaped) {
  sa_fixture f(rbac_options());
  // Bootstrap: cluster-admin for system:masters, discovery for everyone authenticated.
  BOOST_TEST(f.admin.get(rbac_api + "/clusterroles/cluster-admin").status == 200);
  BOOST_TEST(f.admin.get(rbac_api + "/clusterrolebindings/system:discovery").status == 200);
  BOOST_TEST(f.sa->get("/apis").status == 200);
  BOOST_TEST(f.sa->get("/api/v1").status == 200);

  auto r = f.sa->get("/api/v1/namespaces/ns/secrets/x");
  BOOST_TEST(r.status == 403);
  BOOST_TEST(r.body ==
             R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"secrets \"x\" is )"
             R"(forbidden: User \"system:serviceaccount:ns:sa\" cannot get resource \"secrets\" in API group \"\" )"
             R"(in the namespace \"ns\"","reason":"Forbidden","details":{"name":"x","kind":"secrets"},"code":403})");
  r = f.sa->get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1");
  BOOST_TEST(r.status == 403);
  BOOST_TEST(str(r.json(), {"message"}) ==
             "customresourcedefinitions.apiextensions.k8s.io is forbidden: User \"system:serviceaccount:ns:sa\" "
             "cannot watch resource \"customresourcedefinitions\" in API group \"apiextensions.k8s.io\" at the "
             "cluster scope");
  r = f.sa->get("/sim/faults");
  BOOST_TEST(r.status == 403);
  BOOST_TEST(str(r.json(), {"message"}) ==
             "forbidden: User \"system:serviceaccount:ns:sa\" cannot get path \"/sim/faults\"");
  // The admin token stays all-powerful.
  BOOST_TEST(f.admin.get("/api/v1/namespaces/ns/secrets").status == 200);
  BOOST_TEST(f.admin.get("/sim/faults").status == 200);
  // A wrong token is still 401, and a deleted ServiceAccount's token dies with it.
  auto bad = f.client_opts();
  bad.token = f.token + "x";
  BOOST_TEST(http_client(bad).get("/apis").status == 401);
  BOOST_TEST(f.admin.del("/api/v1/namespaces/ns/serviceaccounts/sa").status == 200);
  BOOST_TEST(f.sa->get("/apis").status == 401);
}

BOOST_AUTO_TEST_CASE(roles_and_bindings_decide_with_names_and_subresources) {
  sa_fixture f(rbac_options());
  f.apply_admin("/api/v1/namespaces/ns/secrets", R"({"metadata":{"name":"x"},"stringData":{"k":"v"}})");
  f.apply_admin("/api/v1/namespaces/ns/secrets", R"({"metadata":{"name":"y"},"stringData":{"k":"v"}})");
  f.apply_admin(rbac_api + "/namespaces/ns/roles", R"({"metadata":{"name":"x-only"},
      "rules":[{"apiGroups":[""],"resources":["secrets"],"resourceNames":["x"],"verbs":["get","list","update"]}]})");
  // Before the binding: forbidden.
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/secrets/x").status == 403);
  f.apply_admin(rbac_api + "/namespaces/ns/rolebindings", R"({"metadata":{"name":"x-only"},
      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"x-only"},
      "subjects":[{"kind":"ServiceAccount","name":"sa","namespace":"ns"}]})");
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/secrets/x").status == 200);
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/secrets/y").status == 403);
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/secrets").status == 403);
  // A list naming the object by field selector is a request for that name.
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/secrets?fieldSelector=metadata.name%3Dx").status == 200);
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/secrets?fieldSelector=metadata.name%3Dy").status == 403);
  BOOST_TEST(f.sa->get("/api/v1/namespaces/other/secrets/x").status == 403);

  // A group binding cluster-wide: every ServiceAccount of the namespace.
  f.apply_admin(rbac_api + "/clusterroles", R"({"metadata":{"name":"ns-reader"},
      "rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["list"]},
               {"apiGroups":[""],"resources":["*/status"],"verbs":["get"]}]})");
  f.apply_admin(rbac_api + "/clusterrolebindings", R"({"metadata":{"name":"ns-reader"},
      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"ns-reader"},
      "subjects":[{"kind":"Group","name":"system:serviceaccounts:ns"}]})");
  BOOST_TEST(f.sa->get("/api/v1/configmaps").status == 200);
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/configmaps").status == 200);
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns/status").status == 200);
  BOOST_TEST(f.sa->get("/api/v1/namespaces/ns").status == 403);

  // A binding to a missing role names it in the denial.
  f.apply_admin(rbac_api + "/clusterrolebindings", R"({"metadata":{"name":"dangling"},
      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"nope"},
      "subjects":[{"kind":"ServiceAccount","name":"sa","namespace":"ns"}]})");
  auto r = f.sa->get("/api/v1/namespaces/ns/secrets/y");
  BOOST_TEST(r.status == 403);
  BOOST_TEST(str(r.json(), {"message"}).find(
                 R"(in the namespace "ns": RBAC: clusterrole.rbac.authorization.k8s.io "nope" not found)") !=
             std::string::npos);
}

// kubectl auth whoami: a SelfSubjectReview names the requester, allowed to
// every authenticated user by system:basic-user; never stored.
BOOST_AUTO_TEST_CASE(a_self_subject_review_names_the_requester) {
  sa_fixture f(rbac_options());
  const std::string path = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
  auto r = f.sa->post(path, R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})");
  BOOST_REQUIRE_EQUAL(r.status, 201);
  auto j = r.json();
  BOOST_TEST(str(j, {"kind"}) == "SelfSubjectReview");
  BOOST_TEST(str(j, {"status", "userInfo", "username"}) == "system:serviceaccount:ns:sa");
  const auto* groups = k8s::find(j, {"status", "userInfo", "groups"});
  BOOST_REQUIRE((groups && groups->IsArray() && groups->Size() == 3u));
  BOOST_TEST(std::string(k8s::as_string_view((*groups)[0])) == "system:serviceaccounts");
  BOOST_TEST(std::string(k8s::as_string_view((*groups)[2])) == "system:authenticated");
  BOOST_TEST(f.admin.get(path).status == 405);
}

BOOST_AUTO_TEST_CASE(token_requests_are_validated) {
  sa_fixture f(rbac_options());
  auto r = f.admin.post("/api/v1/namespaces/ns/serviceaccounts/sa/token", R"({"spec":{"expirationSeconds":10}})");
  BOOST_TEST(r.status == 422);
  BOOST_TEST(str(r.json(), {"message"}).find("may not specify a duration less than 10 minutes") !=
             std::string::npos);
  BOOST_TEST(f.admin.post("/api/v1/namespaces/ns/serviceaccounts/nobody/token", "{}").status == 404);
  // The ServiceAccount itself may not mint tokens without a grant.
  BOOST_TEST(f.sa->post("/api/v1/namespaces/ns/serviceaccounts/sa/token", "{}").status == 403);
  // The in-process API gives the same identity.
  auto o = f.client_opts();
  o.token = f.server->service_account_token("ns", "sa");
  BOOST_TEST(http_client(o).get("/apis").status == 200);
  BOOST_TEST(http_client(o).get("/api/v1/namespaces/ns/secrets").status == 403);
}

BOOST_AUTO_TEST_CASE(owner_references_permission_enforcement_needs_finalizers_of_the_owner) {
  for (bool plugin : {false, true}) {
    BOOST_TEST_CONTEXT("plugin " << plugin) {
      sa_fixture f(rbac_options(plugin));
      f.apply_admin("/api/v1/namespaces/ns/configmaps", R"({"metadata":{"name":"owner"}})");
      auto owner_uid = str(f.admin.get("/api/v1/namespaces/ns/configmaps/owner").json(), {"metadata", "uid"});
      f.apply_admin(rbac_api + "/namespaces/ns/roles", R"({"metadata":{"name":"w"},
          "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["create","get","update","patch"]}]})");
      f.apply_admin(rbac_api + "/namespaces/ns/rolebindings", R"({"metadata":{"name":"w"},
          "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"w"},
          "subjects":[{"kind":"ServiceAccount","name":"sa"}]})");
      auto secret = [&](const std::string& name, bool block) {
        return fmt::format(
            R"({{"metadata":{{"name":"{}","ownerReferences":[{{"apiVersion":"v1","kind":"ConfigMap","name":"owner",)"
            R"("uid":"{}","controller":true,"blockOwnerDeletion":{}}}]}}}})",
            name, owner_uid, block ? "true" : "false");
      };
      // A reference that does not block needs nothing more.
      BOOST_TEST(f.sa->post("/api/v1/namespaces/ns/secrets", secret("plain", false)).status == 201);
      auto r = f.sa->post("/api/v1/namespaces/ns/secrets", secret("blocking", true));
      if (!plugin) {
        BOOST_TEST(r.status == 201);
        continue;
      }
      BOOST_TEST(r.status == 403);
      BOOST_TEST(str(r.json(), {"message"}) ==
                 "secrets \"blocking\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to "
                 "a resource you can't set finalizers on: , <nil>");
      // Turning a reference blocking on update is checked too, and an owner
      // change on update needs delete on the object.
      r = f.sa->patch("/api/v1/namespaces/ns/secrets/plain",
                      secret("plain", true), "application/merge-patch+json");
      BOOST_TEST(r.status == 403);
      BOOST_TEST(str(r.json(), {"message"}).find("cannot set an ownerRef on a resource you can't delete") !=
                 std::string::npos);
      f.apply_admin(rbac_api + "/namespaces/ns/roles", R"({"metadata":{"name":"fin"},
          "rules":[{"apiGroups":[""],"resources":["configmaps/finalizers"],"resourceNames":["owner"],
                    "verbs":["update"]},{"apiGroups":[""],"resources":["secrets"],"verbs":["delete"]}]})");
      f.apply_admin(rbac_api + "/namespaces/ns/rolebindings", R"({"metadata":{"name":"fin"},
          "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"fin"},
          "subjects":[{"kind":"ServiceAccount","name":"sa"}]})");
      BOOST_TEST(f.sa->post("/api/v1/namespaces/ns/secrets", secret("blocking", true)).status == 201);
      BOOST_TEST(f.sa->patch("/api/v1/namespaces/ns/secrets/plain", secret("plain", true),
                             "application/merge-patch+json")
                     .status == 200);
      // The admin is never held back.
      BOOST_TEST(f.admin.post("/api/v1/namespaces/ns/secrets", secret("by-admin", true)).status == 201);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
