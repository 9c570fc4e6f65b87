// The one translation unit of sim/world that includes Beast (compiled once in
// c5c3_net; never <boost/beast/src.hpp> here).
#include "sim/world/management_http.hpp"

#include "sim/world/base64.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <stdexcept>

namespace c5c3::sim::world {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;

class blocking_http final : public management_http {
 public:
  blocking_http(std::string host, std::string port, std::string prefix, std::string auth,
                std::chrono::milliseconds timeout)
      : host_(std::move(host)), port_(std::move(port)), prefix_(std::move(prefix)),
        auth_(std::move(auth)), timeout_(timeout) {}

  management_reply request(std::string_view method, std::string_view path,
                           std::string_view body) override {
    management_reply reply;
    try {
      asio::io_context io;
      asio::ip::tcp::resolver resolver(io);
      beast::tcp_stream stream(io);
      stream.expires_after(timeout_);
      stream.connect(resolver.resolve(host_, port_));
      http::request<http::string_body> req(http::string_to_verb({method.data(), method.size()}),
                                           prefix_ + std::string(path), 11);
      req.set(http::field::host, host_ + ":" + port_);
      req.set(http::field::authorization, auth_);
      req.set(http::field::accept, "application/json");
      if (!body.empty()) {
        req.set(http::field::content_type, "application/json");
        req.body() = std::string(body);
      }
      req.prepare_payload();
      http::write(stream, req);
      beast::flat_buffer buf;
      http::response<http::string_body> res;
      http::read(stream, buf, res);
      reply.status = static_cast<int>(res.result_int());
      reply.body = std::move(res.body());
      beast::error_code ignored;
      stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    } catch (const std::exception& e) {
      reply.status = 0;
      reply.transport_error = e.what();
    }
    return reply;
  }

 private:
  std::string host_, port_, prefix_, auth_;
  std::chrono::milliseconds timeout_;
};

}  // namespace

std::unique_ptr<management_http> make_blocking_management_http(std::string_view url, std::string username,
                                                               std::string password,
                                                               std::chrono::milliseconds timeout) {
  constexpr std::string_view scheme = "http://";
  if (url.substr(0, scheme.size()) != scheme) {
    throw std::invalid_argument("management URL must start with http://");
  }
  auto rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  auto hostport = rest.substr(0, slash);
  std::string prefix = slash == std::string_view::npos ? "" : std::string(rest.substr(slash));
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  auto colon = hostport.rfind(':');
  if (hostport.empty() || colon == std::string_view::npos || colon + 1 == hostport.size()) {
    throw std::invalid_argument("management URL needs host:port");
  }
  std::string host(hostport.substr(0, colon));
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  auto auth = "Basic " + base64_encode(username + ":" + password);
  return std::make_unique<blocking_http>(std::move(host), std::string(hostport.substr(colon + 1)),
                                         std::move(prefix), std::move(auth), timeout);
}

}  // namespace c5c3::sim::world
