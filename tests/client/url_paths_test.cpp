#include "k8s/client/paths.hpp"
#include "k8s/client/url.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

BOOST_AUTO_TEST_SUITE(client_url_paths)

struct url_case {
  const char* in;
  bool ok;
  bool tls;
  const char* host;
  const char* port;
  const char* prefix;
  const char* host_header;
};

BOOST_AUTO_TEST_CASE(server_urls) {
  const url_case cases[] = {
      {"https://127.0.0.1:6443", true, true, "127.0.0.1", "6443", "", "127.0.0.1:6443"},
      {"https://api.example.com", true, true, "api.example.com", "443", "", "api.example.com"},
      {"http://localhost:8080/", true, false, "localhost", "8080", "", "localhost:8080"},
      {"https://[::1]:6443/k8s/clusters/c1/", true, true, "::1", "6443", "/k8s/clusters/c1", "[::1]:6443"},
      {"10.0.0.1:443", true, true, "10.0.0.1", "443", "", "10.0.0.1"},
      {"HTTPS://Host:1", true, true, "Host", "1", "", "Host:1"},
      {"ftp://x", false, false, "", "", "", ""},
      {"https://:443", false, false, "", "", "", ""},
      {"https://host:99999", false, false, "", "", "", ""},
      {"https://host:abc", false, false, "", "", "", ""},
      {"https://user:pw@host", false, false, "", "", "", ""},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.in) {
      std::string err;
      auto u = parse_server_url(c.in, &err);
      BOOST_TEST(u.has_value() == c.ok);
      if (!c.ok) {
        BOOST_TEST(!err.empty());
        BOOST_TEST(err.find("pw") == std::string::npos);
        continue;
      }
      BOOST_TEST(u->tls == c.tls);
      BOOST_TEST(u->host == c.host);
      BOOST_TEST(u->port == c.port);
      BOOST_TEST(u->path_prefix == c.prefix);
      BOOST_TEST(u->host_header() == c.host_header);
    }
  }
  BOOST_TEST(parse_server_url("https://127.0.0.1:1")->host_is_ip());
  BOOST_TEST(parse_server_url("https://[::1]:1")->host_is_ip());
  BOOST_TEST(!parse_server_url("https://localhost:1")->host_is_ip());
}

BOOST_AUTO_TEST_CASE(resource_paths) {
  api_resource secrets;
  secrets.version = "v1";
  secrets.plural = "secrets";
  secrets.namespaced = true;
  api_resource crd;
  crd.group = "apiextensions.k8s.io";
  crd.version = "v1";
  crd.plural = "customresourcedefinitions";
  crd.namespaced = false;
  BOOST_TEST(resource_path(secrets, "ns", "s") == "/api/v1/namespaces/ns/secrets/s");
  BOOST_TEST(resource_path(secrets, "ns", "s", "status") == "/api/v1/namespaces/ns/secrets/s/status");
  BOOST_TEST(resource_path(secrets, "") == "/api/v1/secrets");
  BOOST_TEST(resource_path(secrets, "ns") == "/api/v1/namespaces/ns/secrets");
  BOOST_TEST(resource_path(crd, "ignored", "x") == "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x");
  BOOST_TEST(group_version_path("", "v1") == "/api/v1");
  BOOST_TEST(group_version_path("c5c3.io", "v1alpha1") == "/apis/c5c3.io/v1alpha1");
}

BOOST_AUTO_TEST_CASE(query_strings) {
  BOOST_TEST(query_escape("app in (a,b)") == "app%20in%20%28a%2Cb%29");
  BOOST_TEST(query_escape("a=b&c") == "a%3Db%26c");
  BOOST_TEST(query_escape("x-y_z.~") == "x-y_z.~");
  BOOST_TEST(query_string({{"a", ""}, {"b", ""}}) == "");
  BOOST_TEST(query_string({{"limit", "500"}, {"continue", ""}, {"labelSelector", "a=b"}}) ==
             "?limit=500&labelSelector=a%3Db");
}

BOOST_AUTO_TEST_SUITE_END()
