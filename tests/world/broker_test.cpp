#include "sim/world/base64.hpp"
#include "sim/world/management_broker.hpp"
#include "sim/world/memory_broker.hpp"

#include <boost/test/unit_test.hpp>

#include <deque>

using namespace c5c3::sim::world;

namespace {

struct recorded {
  std::string method, path, body;
};

// Answers queued replies and records the requests.
class fake_http final : public management_http {
 public:
  std::vector<recorded> requests;
  std::deque<management_reply> replies;
  management_reply request(std::string_view method, std::string_view path, std::string_view body) override {
    requests.push_back({std::string(method), std::string(path), std::string(body)});
    if (replies.empty()) return {204, "", ""};
    auto r = replies.front();
    replies.pop_front();
    return r;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(brokers)

BOOST_AUTO_TEST_CASE(base64_round_trip_and_rejects) {
  struct row {
    std::string plain, encoded;
  };
  for (const auto& r : std::vector<row>{{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
                                        {"foobar", "Zm9vYmFy"}, {std::string("\0\xff", 2), "AP8="}}) {
    BOOST_TEST(base64_encode(r.plain) == r.encoded);
    BOOST_TEST((base64_decode(r.encoded) == std::optional(r.plain)));
  }
  for (auto bad : {"Zm9", "Zm9v!A==", "Z===", "Zg==Zg=="}) BOOST_TEST(!base64_decode(bad).has_value());
}

BOOST_AUTO_TEST_CASE(management_api_paths_and_bodies) {
  auto http = std::make_shared<fake_http>();
  management_broker b(http);
  BOOST_TEST(!b.put_vhost("/").has_value());
  BOOST_TEST(!b.put_user({"al ice", "p\"w", "", ""}).has_value());
  BOOST_TEST(!b.put_permissions("v1", "alice", {".*", "", "^q"}).has_value());
  BOOST_TEST(!b.delete_permissions("v1", "alice").has_value());
  BOOST_TEST(!b.delete_user("alice").has_value());
  BOOST_TEST(!b.delete_vhost("v1").has_value());
  BOOST_TEST_REQUIRE(http->requests.size() == 6u);
  BOOST_TEST(http->requests[0].method == "PUT");
  BOOST_TEST(http->requests[0].path == "/api/vhosts/%2F");
  BOOST_TEST(http->requests[1].path == "/api/users/al%20ice");
  BOOST_TEST(http->requests[1].body == R"({"password":"p\"w","tags":""})");
  BOOST_TEST(http->requests[2].path == "/api/permissions/v1/alice");
  BOOST_TEST(http->requests[2].body == R"({"configure":".*","write":"","read":"^q"})");
  BOOST_TEST(http->requests[3].method == "DELETE");
  BOOST_TEST(http->requests[3].path == "/api/permissions/v1/alice");
  BOOST_TEST(http->requests[4].path == "/api/users/alice");
  BOOST_TEST(http->requests[5].path == "/api/vhosts/v1");
}

BOOST_AUTO_TEST_CASE(management_api_answers) {
  struct row {
    std::string name;
    management_reply reply;
    bool is_delete;
    std::optional<std::string> error;
  };
  for (const auto& r : std::vector<row>{
           {"201 created", {201, "", ""}, false, std::nullopt},
           {"204 no content", {204, "", ""}, false, std::nullopt},
           {"404 on delete is gone already", {404, R"({"error":"Object Not Found"})", ""}, true, std::nullopt},
           {"400 names the reason",
            {400, R"({"error":"bad_request","reason":"no_such_user"})", ""},
            false,
            "PUT /api/users/bob: API responded with 400: no_such_user"},
           {"transport failure", {0, "", "Connection refused"}, false, "PUT /api/users/bob: Connection refused"},
       }) {
    BOOST_TEST_CONTEXT(r.name) {
      auto http = std::make_shared<fake_http>();
      http->replies.push_back(r.reply);
      management_broker b(http);
      auto err = r.is_delete ? b.delete_user("bob") : b.put_user({"bob", "secret-pw", "", ""});
      BOOST_TEST((err == r.error));
      if (err) BOOST_TEST(err->find("secret-pw") == std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(password_hash_is_sent_as_hash) {
  auto http = std::make_shared<fake_http>();
  management_broker b(http);
  BOOST_TEST(!b.put_user({"bob", "", "aGFzaA==", "monitoring"}).has_value());
  BOOST_TEST(http->requests.at(0).body ==
             R"({"password_hash":"aGFzaA==","hashing_algorithm":"rabbit_password_hashing_sha512","tags":"monitoring"})");
}

BOOST_AUTO_TEST_CASE(run_calls_stops_at_the_first_error) {
  memory_broker b;
  std::vector<broker_call> calls{put_vhost_call{"v"}, put_permissions_call{"v", "nobody", {}}, put_vhost_call{"w"}};
  auto err = run_calls(b, calls);
  BOOST_TEST(err.has_value());
  BOOST_TEST(b.vhosts() == std::set<std::string>{"v"});
  BOOST_TEST(describe(calls[1]) == "put permissions nobody on v");
}

BOOST_AUTO_TEST_CASE(memory_broker_drops_permissions_with_their_vhost_or_user) {
  memory_broker b;
  (void)b.put_vhost("v");
  (void)b.put_user({"u", "p", "", ""});
  BOOST_TEST(!b.put_permissions("v", "u", {".*", ".*", ".*"}).has_value());
  (void)b.delete_user("u");
  BOOST_TEST(!b.permissions("v", "u").has_value());
  (void)b.put_user({"u", "p", "", ""});
  (void)b.put_permissions("v", "u", {".*", ".*", ".*"});
  (void)b.delete_vhost("v");
  BOOST_TEST(!b.permissions("v", "u").has_value());
}

BOOST_AUTO_TEST_SUITE_END()
