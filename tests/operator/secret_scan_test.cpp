// tests/secret_scan.hpp finds what it is given in every encoding it knows,
// picks the secret keys of a Secret and a kubeconfig, and stays quiet on
// text without them (so a scan that finds nothing means something).
#include "tests/secret_scan.hpp"

#include "k8s/log.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

using c5c3::testing::secret_scan;

namespace {
c5c3::k8s::object secret(const std::string& data) {
  std::string err;
  auto o = c5c3::k8s::object::parse(
      R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"app-credentials","namespace":"tenant-a"},"data":)" +
          data + "}",
      &err);
  BOOST_REQUIRE_MESSAGE(o, err);
  return *o;
}
std::string b64(const std::string& s) { return c5c3::k8s::base64_encode(s); }
}  // namespace

BOOST_AUTO_TEST_SUITE(secret_scanner)

BOOST_AUTO_TEST_CASE(finds_a_value_in_each_encoding) {
  const std::string pw = "p4ss/w+rd\"quoted";
  struct row {
    const char* sentence;
    std::string text;
  };
  std::string json;
  c5c3::k8s::log::append_json_string(json, pw);
  const row rows[] = {
      {"as is", "error: " + pw},
      {"base64", "data: " + b64(pw)},
      {"base64 without padding", "x" + b64(pw).substr(0, b64(pw).find('=')) + "y"},
      {"percent-escaped in a URL", "https://h/?p=p4ss%2Fw%2Brd%22quoted"},
      {"escaped as Go escapes a userinfo", "rabbit://u:p4ss%2Fw+rd%22quoted@host:5672/v"},
      {"JSON-escaped in a log line", R"({"msg":"x","error":)" + json + "}"},
  };
  secret_scan scan;
  scan.add(pw, "password-v1");
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto found = scan.scan(r.text, "text");
      BOOST_TEST_REQUIRE(found.size() == 1u);
      BOOST_TEST(found[0].label == "password-v1");
      BOOST_TEST(found[0].context.find(pw) == std::string::npos);  // the report masks it
    }
  }
  BOOST_TEST(scan.scan("nothing to see: p4ss w rd", "clean").empty());
}

BOOST_AUTO_TEST_CASE(short_values_are_not_searched) {
  secret_scan scan;
  scan.add("5672");
  scan.add("guest");
  BOOST_TEST(scan.size() == 0u);
}

BOOST_AUTO_TEST_CASE(picks_the_secret_keys_of_a_secret_and_a_kubeconfig) {
  const std::string kubeconfig =
      "apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    token: \"k8s-t0ken-abcdefgh\"\n"
      "clusters:\n- name: c\n  cluster:\n    server: https://10.0.0.1:6443\n";
  auto s = secret(fmt::format(R"({{"password":"{}","transport_url":"{}","host":"{}","port":"{}","kubeconfig":"{}"}})",
                              b64("generated-password-43-characters-long-xxxxx"),
                              b64("rabbit://u:generated@rmq:5672/v"), b64("rmq.openstack.svc"), b64("5672"),
                              b64(kubeconfig)));
  secret_scan scan;
  scan.add_secret(s);
  BOOST_TEST(scan.scan("password generated-password-43-characters-long-xxxxx", "log").size() == 1u);
  BOOST_TEST(scan.scan("url rabbit://u:generated@rmq:5672/v", "log").size() == 1u);
  BOOST_TEST(scan.scan("Bearer k8s-t0ken-abcdefgh", "log").size() == 1u);
  // Not secret: the broker's host, the port, the server URL.
  BOOST_TEST(scan.scan("host rmq.openstack.svc port 5672 server https://10.0.0.1:6443", "log").empty());
}

BOOST_AUTO_TEST_SUITE_END()
