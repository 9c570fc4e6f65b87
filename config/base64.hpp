// Standard base64 (RFC 4648), as kubeconfig *-data fields are encoded.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace c5c3::config {

// Decodes; whitespace is skipped, padding optional. nullopt on a bad character.
std::optional<std::string> base64_decode(std::string_view in);
std::string base64_encode(std::string_view in);

}  // namespace c5c3::config
