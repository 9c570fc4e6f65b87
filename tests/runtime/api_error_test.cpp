#include "protocol/api_error.hpp"

#include <caf/sec.hpp>

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::protocol;

BOOST_AUTO_TEST_SUITE(api_errors_across_actors)

BOOST_AUTO_TEST_CASE(classification_rows) {
  struct row {
    int code;
    const char* reason;
    api_errc expected;
  };
  const row rows[] = {
      {404, "NotFound", api_errc::not_found},
      {409, "AlreadyExists", api_errc::already_exists},
      {409, "Conflict", api_errc::conflict},
      {422, "Invalid", api_errc::invalid},
      {410, "Expired", api_errc::gone},
      {410, "Gone", api_errc::gone},
      {429, "TooManyRequests", api_errc::too_many_requests},
      {403, "Forbidden", api_errc::forbidden},
      {401, "Unauthorized", api_errc::unauthorized},
      {400, "BadRequest", api_errc::bad_request},
      {500, "InternalError", api_errc::server_error},
      {503, "ServiceUnavailable", api_errc::server_error},
      {0, "", api_errc::transport},
      {405, "MethodNotAllowed", api_errc::other},
  };
  for (const auto& r : rows) {
    k8s::api_error e;
    e.code = r.code;
    e.reason = r.reason;
    BOOST_TEST_CONTEXT(r.code << " " << r.reason) {
      BOOST_TEST(to_string(classify(e)) == to_string(r.expected));
    }
  }
}

BOOST_AUTO_TEST_CASE(round_trip_through_caf_error) {
  auto e = k8s::make_not_found("", "secrets", "alice-clouds");
  e.request = "GET /api/v1/namespaces/a/secrets/alice-clouds";
  auto err = make_error(e);
  BOOST_TEST(err.category() == api_error_category);
  BOOST_TEST(is_not_found(err));
  BOOST_TEST(!is_conflict(err));
  auto back = api_error_of(err);
  BOOST_REQUIRE(back);
  BOOST_TEST(back->code == 404);
  BOOST_TEST(back->name == "alice-clouds");
  BOOST_TEST(describe(err).find("not_found") == 0u);
  BOOST_TEST(describe(err).find("alice-clouds") != std::string::npos);

  auto nm = make_error(api_errc::no_match, "no kind RabbitmqCluster in rabbitmq.com/v1beta1");
  BOOST_TEST(is_no_match(nm));
  BOOST_TEST(describe(nm) == "no_match: no kind RabbitmqCluster in rabbitmq.com/v1beta1");

  // Errors of other categories are not API errors.
  caf::error other = caf::make_error(caf::sec::request_timeout);
  BOOST_TEST(!api_errc_of(other));
  BOOST_TEST(!api_error_of(other));
  BOOST_TEST(describe(other).find("request_timeout") != std::string::npos);
  BOOST_TEST(describe(caf::error{}) == "no error");
}

BOOST_AUTO_TEST_SUITE_END()
