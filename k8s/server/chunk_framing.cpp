#include "k8s/server/chunk_framing.hpp"

#include <algorithm>

namespace c5c3::k8s {

namespace {

// Longest chunk-size or trailer line taken (Beast's header limit is 8 KiB).
constexpr std::size_t max_line = 8192;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool chunk_framing::fail(std::string why) {
  state_ = state::failed;
  error_ = "bad chunked body: " + std::move(why);
  return false;
}

bool chunk_framing::feed(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size() && state_ != state::done;) {
    const char c = bytes[i];
    switch (state_) {
      case state::size:
        if (c == '\r') {
          if (digits_ == 0) return fail("a chunk-size line without a size");
          state_ = state::size_lf;
        } else if (c == '\n') {
          return fail("a chunk-size line ended by a bare LF");
        } else if (++line_ > max_line) {
          return fail("a chunk-size line over 8 KiB");
        } else if (int v = hex_value(c); v >= 0 && !in_extension_) {
          if (++digits_ > 16) return fail("a chunk size over 16 hex digits");
          size_ = size_ * 16 + static_cast<std::uint64_t>(v);
        } else {
          in_extension_ = true;  // ";name=value" or whitespace: Beast judges it
        }
        ++i;
        break;
      case state::size_lf:
        if (c != '\n') return fail("a CR without LF in a chunk-size line");
        state_ = size_ == 0 ? state::trailer_start : state::data;
        digits_ = 0;
        line_ = 0;
        in_extension_ = false;
        ++i;
        break;
      case state::data: {
        auto n = static_cast<std::size_t>(std::min<std::uint64_t>(size_, bytes.size() - i));
        size_ -= n;
        i += n;
        if (size_ == 0) state_ = state::data_cr;
        break;
      }
      case state::data_cr:
        if (c != '\r') return fail("a chunk's data not ended by CRLF");
        state_ = state::data_lf;
        ++i;
        break;
      case state::data_lf:
        if (c != '\n') return fail("a chunk's data not ended by CRLF");
        state_ = state::size;
        ++i;
        break;
      case state::trailer_start:
        state_ = c == '\r' ? state::final_lf : state::trailer;
        if (c == '\n') return fail("a trailer line ended by a bare LF");
        line_ = 1;
        ++i;
        break;
      case state::trailer:
        if (c == '\n') return fail("a trailer line ended by a bare LF");
        if (c == '\r') state_ = state::trailer_lf;
        else if (++line_ > max_line) return fail("a trailer line over 8 KiB");
        ++i;
        break;
      case state::trailer_lf:
        if (c != '\n') return fail("a CR without LF in a trailer line");
        state_ = state::trailer_start;
        ++i;
        break;
      case state::final_lf:
        if (c != '\n') return fail("a CR without LF after the trailer");
        state_ = state::done;
        ++i;
        break;
      case state::done:
      case state::failed:
        return state_ == state::done;
    }
  }
  return state_ != state::failed;
}

}  // namespace c5c3::k8s
