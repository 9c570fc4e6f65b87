#include "sim/world/base64.hpp"

#include <array>
#include <cstdint>

namespace c5c3::sim::world {
namespace {
constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8) | std::uint8_t(bytes[i + 2]);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  if (std::size_t rest = bytes.size() - i; rest > 0) {
    std::uint32_t v = std::uint8_t(bytes[i]) << 16;
    if (rest == 2) v |= std::uint8_t(bytes[i + 1]) << 8;
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += rest == 2 ? alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::array<int, 256> rev{};
  rev.fill(-1);
  for (std::size_t i = 0; i < alphabet.size(); ++i) rev[std::uint8_t(alphabet[i])] = int(i);
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    int pad = 0;
    std::uint32_t v = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      char c = text[i + j];
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        ++pad;
        v <<= 6;
        continue;
      }
      if (pad > 0) return std::nullopt;
      int d = rev[std::uint8_t(c)];
      if (d < 0) return std::nullopt;
      v = (v << 6) | std::uint32_t(d);
    }
    out += char((v >> 16) & 0xff);
    if (pad < 2) out += char((v >> 8) & 0xff);
    if (pad < 1) out += char(v & 0xff);
  }
  return out;
}

}  // namespace c5c3::sim::world
