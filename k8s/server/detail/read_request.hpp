// One request read from a synchronous stream: the header by Beast, then a
// chunked body checked by chunk_framing before Beast parses any of it (a
// framing error ends the read as http::error::bad_chunk), any other body by
// Beast alone.
#pragma once

#include "k8s/server/chunk_framing.hpp"

#include <boost/asio/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <string_view>

namespace c5c3::k8s::detail {

template <class Stream>
void read_request(Stream& s, boost::beast::flat_buffer& buf,
                  boost::beast::http::request_parser<boost::beast::http::string_body>& parser,
                  boost::system::error_code& ec) {
  namespace http = boost::beast::http;
  http::read_header(s, buf, parser, ec);
  if (ec || parser.is_done()) return;
  if (!parser.chunked()) {
    http::read(s, buf, parser, ec);
    return;
  }
  parser.eager(true);
  chunk_framing framing;
  std::size_t checked = 0;  // bytes at the buffer's front the framing has seen
  for (;;) {
    const auto data = buf.data();
    const std::string_view have(static_cast<const char*>(data.data()), data.size());
    if (checked < have.size() && !framing.feed(have.substr(checked))) {
      ec = http::error::bad_chunk;
      return;
    }
    checked = have.size();
    if (!have.empty()) {
      const auto n = parser.put(buf.data(), ec);
      if (ec == http::error::need_more) ec = {};
      if (ec) return;
      buf.consume(n);
      checked -= n;
      if (parser.is_done()) return;
      if (n > 0) continue;
    }
    const auto n = s.read_some(buf.prepare(64 * 1024), ec);
    if (ec == boost::asio::error::eof) ec = http::error::partial_message;
    if (ec) return;
    buf.commit(n);
  }
}

}  // namespace c5c3::k8s::detail
