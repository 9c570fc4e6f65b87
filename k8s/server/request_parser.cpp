// parse_http_requests: Beast's request parser fed from memory.
#include "k8s/server/request_parser.hpp"

#include "k8s/server/chunk_framing.hpp"
#include "k8s/server/detail/beast_request.hpp"

#include <boost/asio/buffer.hpp>

namespace c5c3::k8s {

namespace http = boost::beast::http;

parsed_requests parse_http_requests(std::string_view bytes) {
  parsed_requests out;
  while (!bytes.empty()) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(detail::request_body_limit);
    boost::system::error_code ec;
    bool framing_checked = false;
    while (!parser.is_done()) {
      // The header first; a chunked body's framing is checked before Beast
      // parses any of it, as the server does (detail/read_request.hpp).
      parser.eager(parser.is_header_done());
      if (parser.is_header_done() && parser.chunked() && !framing_checked) {
        framing_checked = true;
        chunk_framing framing;
        if (!framing.feed(bytes)) {
          out.error = framing.error();
          return out;
        }
      }
      std::size_t n = 0;
      if (!bytes.empty()) n = parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
      bytes.remove_prefix(n);
      if (ec == http::error::need_more) ec = {};
      if (ec) {
        out.error = ec.message();
        return out;
      }
      if (n == 0 && !parser.is_done()) {
        // Nothing more to give: the client stopped in the middle of a request.
        parser.put_eof(ec);
        if (ec || !parser.is_done()) {
          out.error = ec ? ec.message() : "partial message";
          return out;
        }
      }
    }
    out.keep_alive.push_back(parser.get().keep_alive());
    out.requests.push_back(detail::to_http_request(parser.release()));
    if (!out.keep_alive.back()) break;  // the server closes after this one
  }
  return out;
}

}  // namespace c5c3::k8s
