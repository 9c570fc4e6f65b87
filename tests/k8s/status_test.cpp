#include "k8s/status.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

BOOST_AUTO_TEST_SUITE(status_errors)

BOOST_AUTO_TEST_CASE(not_found_wording_and_round_trip) {
  auto e = make_not_found("", "secrets", "x");
  BOOST_TEST(e.message == R"(secrets "x" not found)");
  auto crd = make_not_found("c5c3.io", "rabbitmqvhosts", "v");
  BOOST_TEST(crd.message == R"(rabbitmqvhosts.c5c3.io "v" not found)");
  auto body = to_json(make_status_body(crd));
  BOOST_TEST(body ==
             R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
             R"("message":"rabbitmqvhosts.c5c3.io \"v\" not found","reason":"NotFound",)"
             R"("details":{"name":"v","group":"c5c3.io","kind":"rabbitmqvhosts"},"code":404})");
  auto parsed = parse_status(404, body, "GET /apis/c5c3.io/v1alpha1/namespaces/a/rabbitmqvhosts/v");
  BOOST_TEST(parsed.not_found());
  BOOST_TEST(parsed.name == "v");
  BOOST_TEST(parsed.describe() ==
             "GET /apis/c5c3.io/v1alpha1/namespaces/a/rabbitmqvhosts/v: 404 NotFound: "
             "rabbitmqvhosts.c5c3.io \"v\" not found");
}

BOOST_AUTO_TEST_CASE(conflict_and_invalid_wording) {
  auto c = make_conflict("", "secrets", "s",
                         "the object has been modified; please apply your changes to the latest "
                         "version and try again");
  BOOST_TEST(c.message ==
             "Operation cannot be fulfilled on secrets \"s\": the object has been modified; "
             "please apply your changes to the latest version and try again");
  BOOST_TEST(c.conflict());
  BOOST_TEST(!make_already_exists("", "secrets", "s").conflict());

  auto one = make_invalid("c5c3.io", "RabbitMQVhost", "v",
                          {{"FieldValueInvalid", "Invalid value: 0: should be greater than or equal to 1",
                            "spec.passwordGeneration"}});
  BOOST_TEST(one.message ==
             "RabbitMQVhost.c5c3.io \"v\" is invalid: spec.passwordGeneration: Invalid value: 0: "
             "should be greater than or equal to 1");
  auto two = make_invalid("c5c3.io", "RabbitMQVhost", "v",
                          {{"FieldValueRequired", "Required value", "spec.a"},
                           {"FieldValueRequired", "Required value", "spec.b"}});
  BOOST_TEST(two.message ==
             "RabbitMQVhost.c5c3.io \"v\" is invalid: [spec.a: Required value, spec.b: Required "
             "value]");
  auto back = parse_status(422, to_json(make_status_body(two)));
  BOOST_TEST(back.causes.size() == 2u);
  BOOST_TEST(back.causes[1].field == "spec.b");
  BOOST_TEST(back.invalid());
}

BOOST_AUTO_TEST_CASE(retry_after_and_non_status_bodies) {
  auto t = make_too_many_requests("slow down", 3);
  auto back = parse_status(429, to_json(make_status_body(t)));
  BOOST_TEST(*back.retry_after_seconds == 3);
  BOOST_TEST(back.retryable());
  auto html = parse_status(502, "<html>bad gateway</html>");
  BOOST_TEST(html.reason.empty());
  BOOST_TEST(html.message == "<html>bad gateway</html>");
  BOOST_TEST(html.server_error());
  auto expired = parse_status(410, "");
  BOOST_TEST(expired.gone());
  BOOST_TEST(expired.reason == "Gone");
}

BOOST_AUTO_TEST_SUITE_END()
