// The framing of a chunked request body (RFC 9112 7.1), checked strictly
// before Beast parses it: every chunk-size line, every chunk's end and every
// trailer line ends with CRLF, and no chunk-size or trailer line holds a CR
// or LF of its own. Boost 1.74's parser reads a bare LF as part of a line:
// on a last chunk line ended by one ("0\n\r\n") its parse_chunk_header
// asserts (n >= 5), and with assertions off it goes on in a state that
// leaks its fields (tests/fuzz/http_request/crashes/). A server refuses
// such a body as a bad request; a client that frames its chunks as HTTP
// says never meets this check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace c5c3::k8s {

class chunk_framing {
 public:
  // Checks the next bytes of the body (bytes past its end are not looked
  // at). False once the framing is wrong; error() says how.
  bool feed(std::string_view bytes);
  // The last chunk and the trailer's empty line were seen.
  bool done() const { return state_ == state::done; }
  const std::string& error() const { return error_; }

 private:
  enum class state { size, size_lf, data, data_cr, data_lf, trailer_start, trailer, trailer_lf, final_lf, done, failed };
  bool fail(std::string why);

  state state_ = state::size;
  std::uint64_t size_ = 0;       // of the chunk whose line is read, then what is left of its data
  std::size_t digits_ = 0;       // hex digits of the size line
  bool in_extension_ = false;    // past the size, in ";ext" or whitespace
  std::size_t line_ = 0;         // length of the line being read
  std::string error_;
};

}  // namespace c5c3::k8s
