// The Grafana stand-in's pure core against Grafana's documented HTTP API
// (grafana/grafana docs/sources/developers/http_api/{dashboard,data_source,
// org}.md): each row sends a documented request and checks the documented
// status, the keys of the documented answer and its fixed values; then the
// behaviours the reconcilers depend on (versions, overwrite, 412, names,
// auth, orgs). No sockets.
#include "sim/monitoring/grafana.hpp"
#include "tests/monitoring_sim/requests.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::monitoring;
using namespace c5c3::sim::monitoring::testing;

namespace {

const std::string key = "eyJrIjoiT0tTcG1pUlY2RnVKZTFVaDFsNFZXdE9ZWmNrMkZYbk";

grafana_api seeded() {
  grafana_options o;
  o.api_keys = {{key, 1, "Admin"}, {"viewer-key", 1, "Viewer"}};
  return grafana_api(o);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(grafana_standin)

// One documented call per row, in order, against one Grafana.
BOOST_AUTO_TEST_CASE(documented_requests_get_documented_answers) {
  auto g = seeded();
  const std::vector<documented_call> rows = {
      {"create dashboard (dashboard.md, new dashboard)", "POST", "/api/dashboards/db", bearer(key),
       R"({"dashboard":{"id":null,"uid":null,"title":"Production Overview","tags":["templated"],
           "timezone":"browser","schemaVersion":16,"refresh":"25s"},"message":"Made changes to xyz","overwrite":false})",
       200, {"id", "uid", "url", "status", "version", "slug"},
       {{"status", "success"}, {"slug", "production-overview"}, {"version", "1"}}},
      {"update dashboard by id with its version (dashboard.md, updating)", "POST", "/api/dashboards/db", bearer(key),
       R"({"dashboard":{"id":1,"title":"Production Overview Updated","tags":["templated"],"timezone":"browser",
           "schemaVersion":16,"version":1,"refresh":"25s"},"message":"Made changes to xyz","overwrite":false})",
       200, {"id", "uid", "url", "status", "version", "slug"},
       {{"id", "1"}, {"version", "2"}, {"slug", "production-overview-updated"}}},
      {"a stale version is 412 version-mismatch", "POST", "/api/dashboards/db", bearer(key),
       R"({"dashboard":{"id":1,"title":"Production Overview Updated","version":1},"overwrite":false})", 412,
       {"message", "status"},
       {{"message", "The dashboard has been changed by someone else"}, {"status", "version-mismatch"}}},
      {"a missing dashboard is 404", "GET", "/api/dashboards/uid/cIBgcSjkk", bearer(key), "", 404,
       {"message"}, {{"message", "Dashboard not found"}}},
      {"create data source (data_source.md, Graphite)", "POST", "/api/datasources", bearer(key),
       R"({"name":"test_datasource","type":"graphite","url":"http://mydatasource.com","access":"proxy","basicAuth":false})",
       200, {"datasource", "id", "message", "name"}, {{"message", "Datasource added"}, {"name", "test_datasource"}}},
      {"a duplicate name is 409", "POST", "/api/datasources", bearer(key),
       R"({"name":"test_datasource","type":"graphite","url":"http://other","access":"proxy"})", 409, {"message"},
       {{"message", "data source with the same name already exists"}}},
      {"get data source by id", "GET", "/api/datasources/1", bearer(key), "", 200,
       {"id", "uid", "orgId", "name", "type", "typeLogoUrl", "access", "url", "password", "user", "database",
        "basicAuth", "basicAuthUser", "basicAuthPassword", "withCredentials", "isDefault", "jsonData",
        "secureJsonFields", "version", "readOnly"},
       {{"name", "test_datasource"}, {"orgId", "1"}, {"version", "1"}}},
      {"get data source by name", "GET", "/api/datasources/name/test_datasource", bearer(key), "", 200,
       {"id", "uid", "name"}, {{"id", "1"}}},
      {"get data source id by name", "GET", "/api/datasources/id/test_datasource", bearer(key), "", 200, {"id"},
       {{"id", "1"}}},
      {"update data source by id (basic auth, secureJsonData)", "PUT", "/api/datasources/1", bearer(key),
       R"({"id":1,"orgId":1,"name":"test_datasource","type":"graphite","access":"proxy","url":"http://mydatasource.com",
           "password":"","user":"","database":"","basicAuth":true,"basicAuthUser":"basicuser",
           "secureJsonData":{"basicAuthPassword":"basicpassword"},"isDefault":false,"jsonData":null})",
       200, {"datasource", "id", "message", "name"}, {{"message", "Datasource updated"}}},
      {"update of a missing data source is 404", "PUT", "/api/datasources/99", bearer(key),
       R"({"name":"x","type":"prometheus","access":"proxy","url":"http://x"})", 404, {"message"},
       {{"message", "Data source not found"}}},
      {"current org (org.md)", "GET", "/api/org", bearer(key), "", 200, {"id", "name", "address"},
       {{"id", "1"}, {"name", "Main Org."}}},
      {"current org as the SDK asks for it (api/org/)", "GET", "/api/org/", bearer(key), "", 200, {"id", "name"},
       {{"id", "1"}}},
      {"delete data source by id", "DELETE", "/api/datasources/1", bearer(key), "", 200, {"message"},
       {{"message", "Data source deleted"}}},
      {"delete of a missing data source is 404", "DELETE", "/api/datasources/1", bearer(key), "", 404, {"message"},
       {{"message", "Data source not found"}}},
      {"no credentials", "GET", "/api/org", "", "", 401, {"message"}, {{"message", "Unauthorized"}}},
      {"an unknown API key", "GET", "/api/org", bearer("nope"), "", 401, {"message"}, {{"message", "Invalid API key"}}},
      {"basic auth of the admin", "GET", "/api/org", basic("admin", "admin"), "", 200, {"id", "name"}, {{"id", "1"}}},
      {"basic auth with a wrong password", "GET", "/api/org", basic("admin", "nope"), "", 401, {"message"},
       {{"message", "invalid username or password"}}},
      {"a Viewer may not write", "POST", "/api/dashboards/db", bearer("viewer-key"),
       R"({"dashboard":{"title":"X"}})", 403, {"message"}, {{"message", "Permission denied"}}},
      {"a dashboard without a title", "POST", "/api/dashboards/db", bearer(key), R"({"dashboard":{"uid":"t"}})", 400,
       {"message"}, {{"message", "Dashboard title cannot be empty"}}},
  };
  run_documented(g, rows);
}

BOOST_AUTO_TEST_CASE(upsert_by_uid_as_the_dashboard_reconciler_does_it) {
  auto g = seeded();
  // The reconciler's body: the model with its uid, overwrite true, no folder.
  auto r = call(g, "POST", "/api/dashboards/db", bearer(key),
                R"({"dashboard":{"uid":"nodes","title":"Nodes","panels":[]},"overwrite":true})");
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  BOOST_TEST(field(r, "uid") == "nodes");
  BOOST_TEST(field(r, "url") == "/d/nodes/nodes");
  // Again with the model Grafana would not have seen: overwrite ignores the version.
  r = call(g, "POST", "/api/dashboards/db", bearer(key),
           R"({"dashboard":{"uid":"nodes","title":"Nodes","version":7},"overwrite":true})");
  BOOST_TEST(field(r, "version") == "2");
  auto got = call(g, "GET", "/api/dashboards/uid/nodes", bearer(key));
  BOOST_TEST_REQUIRE(got.status == 200);
  auto d = got.json();
  BOOST_TEST(k8s::get_int(d, {"dashboard", "version"}).value_or(0) == 2);
  BOOST_TEST(k8s::get_int(d, {"dashboard", "id"}).value_or(0) == 1);
  BOOST_TEST(k8s::get_string(d, {"meta", "url"}) == "/d/nodes/nodes");
  BOOST_TEST(!k8s::get_bool(d, {"meta", "isFolder"}).value_or(true));
  // Without overwrite a stale version is refused, a current one accepted.
  BOOST_TEST(call(g, "POST", "/api/dashboards/db", bearer(key),
                  R"({"dashboard":{"uid":"nodes","title":"Nodes","version":1}})").status == 412);
  BOOST_TEST(call(g, "POST", "/api/dashboards/db", bearer(key),
                  R"({"dashboard":{"uid":"nodes","title":"Nodes","version":2}})").status == 200);
  // The same title under another uid: 412 name-exists, or the same-named one replaced with overwrite.
  r = call(g, "POST", "/api/dashboards/db", bearer(key), R"({"dashboard":{"uid":"other","title":"nodes"}})");
  BOOST_TEST(r.status == 412);
  BOOST_TEST(field(r, "status") == "name-exists");
  BOOST_TEST(field(r, "message") == "A dashboard with the same name in the folder already exists");
  // Into a folder (the folderID the backend registration returns).
  auto folder = g.ensure_folder(1, "1.cluster-uid");
  r = call(g, "POST", "/api/dashboards/db", bearer(key),
           R"({"dashboard":{"uid":"in-folder","title":"Nodes"},"folderId":)" + std::to_string(folder) + R"(,"overwrite":true})");
  BOOST_TEST(r.status == 200, r.body);
  BOOST_TEST(call(g, "POST", "/api/dashboards/db", bearer(key),
                  R"({"dashboard":{"title":"Lost"},"folderId":4242})").status == 400);
  // Delete by uid, then 404 (the reconciler counts that as deleted).
  auto del = call(g, "DELETE", "/api/dashboards/uid/nodes", bearer(key));
  BOOST_TEST(del.status == 200);
  BOOST_TEST(field(del, "message") == "Dashboard Nodes deleted");
  BOOST_TEST(field(del, "title") == "Nodes");
  BOOST_TEST(call(g, "DELETE", "/api/dashboards/uid/nodes", bearer(key)).status == 404);
  BOOST_TEST(g.dashboards(1).size() == 1u);
}

BOOST_AUTO_TEST_CASE(keys_orgs_and_search) {
  auto g = seeded();
  // API keys belong to their org: a key of org 2 sees its own dashboards only.
  auto org = call(g, "POST", "/api/orgs", basic("admin", "admin"), R"({"name":"tenant-a"})");
  BOOST_TEST_REQUIRE(org.status == 200, org.body);
  BOOST_TEST(field(org, "orgId") == "2");
  BOOST_TEST(field(org, "message") == "Organization created");
  BOOST_TEST(call(g, "POST", "/api/orgs", basic("admin", "admin"), R"({"name":"tenant-a"})").status == 409);
  BOOST_TEST(call(g, "GET", "/api/orgs", bearer(key)).status == 403);  // server admin only
  auto made = call(g, "POST", "/api/auth/keys", basic("admin", "admin"), R"({"name":"ops","role":"Editor"})",
                   {{"X-Grafana-Org-Id", "2"}});
  BOOST_TEST_REQUIRE(made.status == 200, made.body);
  std::string org2 = field(made, "key");
  BOOST_TEST(call(g, "POST", "/api/dashboards/db", bearer(org2), R"({"dashboard":{"title":"Tenant"}})").status == 200);
  BOOST_TEST(g.dashboards(2).size() == 1u);
  BOOST_TEST(g.dashboards(1).empty());
  BOOST_TEST(field(call(g, "GET", "/api/org", bearer(org2)), "name") == "tenant-a");
  auto found = call(g, "GET", "/api/search", bearer(org2), "", {}, "type=dash-db&query=ten");
  BOOST_TEST_REQUIRE(found.status == 200);
  auto list = found.json();
  BOOST_TEST_REQUIRE(list.IsArray());
  BOOST_TEST_REQUIRE(list.Size() == 1u);
  BOOST_TEST(k8s::get_string(list[0], {"title"}) == "Tenant");
  BOOST_TEST(k8s::get_string(list[0], {"type"}) == "dash-db");
  BOOST_TEST(call(g, "GET", "/api/health", "").status == 200);  // no auth
}

BOOST_AUTO_TEST_SUITE_END()
