#include "tests/sim/test_http.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cctype>
#include <limits>
#include <thread>

namespace c5c3::sim::test {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

k8s::json_document http_result::json() const {
  auto d = k8s::parse_json(body);
  if (!d) {
    k8s::json_document empty;
    empty.SetObject();
    return empty;
  }
  return std::move(*d);
}

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct connection {
  net::io_context ioc;
  ssl::context ctx{ssl::context::tls_client};
  tcp::socket sock{ioc};
  std::unique_ptr<ssl::stream<tcp::socket&>> tls;

  explicit connection(const client_options& o) {
    tcp::endpoint ep{net::ip::make_address(o.host), o.port};
    sock.connect(ep);
    if (o.tls) {
      ctx.add_certificate_authority(net::buffer(o.ca_pem));
      if (!o.cert_pem.empty()) {
        ctx.use_certificate_chain(net::buffer(o.cert_pem));
        ctx.use_private_key(net::buffer(o.key_pem), ssl::context::pem);
      }
      ctx.set_verify_mode(ssl::verify_peer);
      tls = std::make_unique<ssl::stream<tcp::socket&>>(sock, ctx);
      tls->set_verify_callback(ssl::host_name_verification(o.host));
      tls->handshake(ssl::stream_base::client);
    }
  }
  template <class Msg>
  void write(Msg& m) {
    if (tls)
      http::write(*tls, m);
    else
      http::write(sock, m);
  }
  template <class Parser>
  void read(beast::flat_buffer& b, Parser& p) {
    if (tls)
      http::read(*tls, b, p);
    else
      http::read(sock, b, p);
  }
  template <class Parser>
  void read_header(beast::flat_buffer& b, Parser& p) {
    if (tls)
      http::read_header(*tls, b, p);
    else
      http::read_header(sock, b, p);
  }
  template <class Parser>
  std::size_t read_some(beast::flat_buffer& b, Parser& p, beast::error_code& ec) {
    if (tls) return http::read_some(*tls, b, p, ec);
    return http::read_some(sock, b, p, ec);
  }
};

http::request<http::string_body> make_request(const client_options& o, const std::string& method,
                                              const std::string& target, const std::string& body,
                                              const std::string& ct,
                                              const std::map<std::string, std::string>& headers) {
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, o.host + ":" + std::to_string(o.port));
  req.set(http::field::user_agent, o.user_agent);
  if (!o.token.empty()) req.set(http::field::authorization, "Bearer " + o.token);
  if (!body.empty()) req.set(http::field::content_type, ct);
  if (!headers.count("Accept")) req.set(http::field::accept, "application/json");
  for (auto& [k, v] : headers) req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  return req;
}

}  // namespace

http_result http_client::request(const std::string& method, const std::string& target,
                                 const std::string& body, const std::string& ct,
                                 const std::map<std::string, std::string>& headers) const {
  http_result r;
  try {
    connection c(o_);
    auto req = make_request(o_, method, target, body, ct, headers);
    c.write(req);
    beast::flat_buffer buf;
    http::response_parser<http::string_body> p;
    p.body_limit(std::numeric_limits<std::uint64_t>::max());
    c.read(buf, p);
    auto& res = p.get();
    r.status = static_cast<int>(res.result_int());
    for (auto& f : res) r.headers[lower(std::string(f.name_string()))] = std::string(f.value());
    r.body = res.body();
  } catch (const std::exception& e) {
    r.status = 0;
    r.error = e.what();
  }
  return r;
}

http_client::stream_result http_client::stream(const std::string& target,
                                               const std::function<bool(const std::string&)>& on_line,
                                               std::chrono::milliseconds timeout,
                                               const std::map<std::string, std::string>& headers) const {
  stream_result sr;
  try {
    connection c(o_);
    auto req = make_request(o_, "GET", target, "", "", headers);
    c.write(req);
    // A watchdog ends the read when the test's deadline passes.
    std::atomic<bool> done{false}, fired{false};
    std::thread watchdog([&] {
      auto until = std::chrono::steady_clock::now() + timeout;
      while (!done && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (!done) {
        fired = true;
        beast::error_code ec;
        c.sock.shutdown(tcp::socket::shutdown_both, ec);
      }
    });
    beast::flat_buffer buf;
    http::response_parser<http::buffer_body> p;
    p.body_limit(std::numeric_limits<std::uint64_t>::max());
    beast::error_code ec;
    if (c.tls)
      http::read_header(*c.tls, buf, p, ec);
    else
      http::read_header(c.sock, buf, p, ec);
    if (!ec) {
      sr.status = static_cast<int>(p.get().result_int());
      std::string line;
      char chunk[4096];
      bool stop = false;
      while (!stop && !p.is_done()) {
        p.get().body().data = chunk;
        p.get().body().size = sizeof chunk;
        c.read_some(buf, p, ec);
        if (ec == http::error::need_buffer) ec = {};
        if (ec) break;
        std::size_t n = sizeof chunk - p.get().body().size;
        line.append(chunk, n);
        std::size_t nl;
        while (!stop && (nl = line.find('\n')) != std::string::npos) {
          std::string one = line.substr(0, nl);
          line.erase(0, nl + 1);
          if (!on_line(one)) stop = true;
        }
      }
      sr.ended = p.is_done() || (ec && !fired);
    } else {
      sr.error = ec.message();
    }
    done = true;
    watchdog.join();
    sr.timed_out = fired;
  } catch (const std::exception& e) {
    sr.error = e.what();
  }
  return sr;
}

bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds timeout) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

}  // namespace c5c3::sim::test
