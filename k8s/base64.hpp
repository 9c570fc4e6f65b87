// Base64 as Go's encoding/base64 does it: StdEncoding for Secret data and
// kubeconfig *-data fields (padded; '\r' and '\n' are skipped when decoding),
// RawURLEncoding for generated secret values.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::k8s {

std::string base64_encode(std::string_view raw);
// nullopt on bad input; `bad_offset` then holds the input byte Go would name
// in "illegal base64 data at input byte N".
std::optional<std::string> base64_decode(std::string_view text, std::size_t* bad_offset = nullptr);
// URL alphabet, no padding.
std::string base64_raw_url_encode(std::string_view raw);

}  // namespace c5c3::k8s
