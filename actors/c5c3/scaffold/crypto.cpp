#include "actors/c5c3/scaffold/crypto.hpp"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include <array>
#include <cstdlib>

namespace c5c3::c5c3 {
namespace {

constexpr std::string_view std_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view url_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::string_view data, std::string_view alphabet, bool pad) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(data[k]); };
  for (; i + 2 < data.size(); i += 3) {
    unsigned v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  std::size_t rest = data.size() - i;
  if (rest == 1) {
    unsigned v = byte(i) << 16;
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    if (pad) out += "==";
  } else if (rest == 2) {
    unsigned v = (byte(i) << 16) | (byte(i + 1) << 8);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    if (pad) out += '=';
  }
  return out;
}

int decode_char(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> sum{};
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), sum.data());
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(sum.size() * 2);
  for (unsigned char b : sum) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

std::string base64_encode(std::string_view data) { return encode(data, std_alphabet, true); }

std::string base64_raw_url_encode(std::string_view data) { return encode(data, url_alphabet, false); }

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int pads = 0;
    for (int k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=') {
        // Padding only at the end, in the last one or two positions.
        if (i + 4 != text.size() || k < 2) return std::nullopt;
        v[k] = 0;
        ++pads;
      } else {
        if (pads > 0) return std::nullopt;
        v[k] = decode_char(c);
        if (v[k] < 0) return std::nullopt;
      }
    }
    unsigned triple = (unsigned(v[0]) << 18) | (unsigned(v[1]) << 12) | (unsigned(v[2]) << 6) | unsigned(v[3]);
    out += static_cast<char>((triple >> 16) & 0xff);
    if (pads < 2) out += static_cast<char>((triple >> 8) & 0xff);
    if (pads < 1) out += static_cast<char>(triple & 0xff);
  }
  return out;
}

random_source system_random() {
  return [](std::span<unsigned char> out) {
    if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1) std::abort();
  };
}

std::string generate_secret_value(const random_source& random) {
  std::array<unsigned char, 32> bytes{};
  random(bytes);
  return base64_raw_url_encode(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace c5c3::c5c3
