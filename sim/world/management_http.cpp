#include "sim/world/management_http.hpp"

#include "sim/world/base64.hpp"
#include "sim/world/blocking_http.hpp"

namespace c5c3::sim::world {
namespace {

class blocking_management_http final : public management_http {
 public:
  blocking_management_http(http_endpoint ep, std::string auth, std::chrono::milliseconds timeout)
      : ep_(std::move(ep)), auth_(std::move(auth)), timeout_(timeout) {}

  management_reply request(std::string_view method, std::string_view path, std::string_view body) override {
    auto r = http_exchange(ep_, method, path, {{"authorization", auth_}}, body, timeout_);
    return {r.status, std::move(r.body), std::move(r.transport_error)};
  }

 private:
  http_endpoint ep_;
  std::string auth_;
  std::chrono::milliseconds timeout_;
};

}  // namespace

std::unique_ptr<management_http> make_blocking_management_http(std::string_view url, std::string username,
                                                               std::string password,
                                                               std::chrono::milliseconds timeout) {
  auto ep = parse_http_endpoint(url);
  auto auth = "Basic " + base64_encode(username + ":" + password);
  return std::make_unique<blocking_management_http>(std::move(ep), std::move(auth), timeout);
}

}  // namespace c5c3::sim::world
