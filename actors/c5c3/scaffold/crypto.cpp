#include "actors/c5c3/scaffold/crypto.hpp"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include <array>
#include <cstdlib>

namespace c5c3::c5c3 {

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
