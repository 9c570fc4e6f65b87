// Beast's parsed request message as the server's http_request (method,
// target, percent-decoded path, raw query, headers, body). Included only by
// the translation units that compile Beast's parser (http_server.cpp,
// request_parser.cpp).
#pragma once

#include "k8s/server/http_server.hpp"

#include <boost/beast/http.hpp>

namespace c5c3::k8s::detail {

inline http_request to_http_request(boost::beast::http::request<boost::beast::http::string_body>&& msg) {
  http_request req;
  req.method = std::string(msg.method_string());
  req.target = std::string(msg.target());
  auto q = req.target.find('?');
  req.path = url_decode(std::string_view(req.target).substr(0, q));
  if (q != std::string::npos) req.query = req.target.substr(q + 1);
  for (const auto& f : msg) req.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
  req.body = std::move(msg.body());
  return req;
}

// The request body limit of the server (and of parse_http_requests).
inline constexpr std::uint64_t request_body_limit = 64 * 1024 * 1024;

}  // namespace c5c3::k8s::detail
