// The few byte-level helpers the orders need: SHA-256 (OpenSSL), base64 in its
// standard and RawURL alphabets, and a source of random bytes that tests
// replace so generated values are deterministic.
#pragma once

#include "k8s/base64.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace c5c3::c5c3 {

// Lowercase hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

// Base64 (k8s/base64.hpp): standard with padding for Secret data on the wire,
// Go's RawURLEncoding (URL alphabet, no padding) for generated values.
using k8s::base64_decode;
using k8s::base64_encode;
using k8s::base64_raw_url_encode;

// Fills its argument with random bytes.
using random_source = std::function<void(std::span<unsigned char>)>;
// OpenSSL's RAND_bytes; aborts when the generator fails (cannot happen on a
// seeded system, and a guessable password must never be produced).
random_source system_random();

// 32 random bytes, base64 RawURL: the 43-character generated secret value
// (generateAppCredSecretValue).
std::string generate_secret_value(const random_source& random);

}  // namespace c5c3::c5c3
