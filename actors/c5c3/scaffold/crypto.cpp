#include "actors/c5c3/scaffold/crypto.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <array>
#include <cstdlib>

namespace c5c3::c5c3 {

namespace {

// OpenSSL 3's SHA256() fetches the algorithm from its providers at every call
// (a lookup under a lock, about as costly as hashing a child's name); the
// operator hashes at every pass (child names), so the digest is fetched once.
const EVP_MD* sha256_md() {
  static EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> sum{};
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), sum.data(), &len, sha256_md(), nullptr) != 1) std::abort();
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
