// Standard base64 (RFC 4648 with padding), as Secret data carries values.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace c5c3::sim::world {

std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not valid padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace c5c3::sim::world
