// JSON from a server the operator talks to (the API server first): parsed as
// parse_json does, and refused when a string is not UTF-8. RFC 8259 (8.1)
// requires UTF-8 of JSON exchanged between systems, and kube-apiserver sends
// nothing else; invalid bytes come from a broken proxy or a hostile server.
// Go's decoder would hand a controller U+FFFD in their place, which it then
// writes back as if it were the object's (a condition's reason, say, that the
// server's validation refuses). Refused here, the answer fails the request
// that got it, with the offset, and nothing of it is taken.
#pragma once

#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace c5c3::k8s {

std::optional<json_document> parse_answer_json(std::string_view text, std::string* error = nullptr);

// The same for a text whose reader has already held its nesting to
// max_json_depth (json_stream_splitter does, as it splits a watch stream),
// so it is not scanned for it a second time.
std::optional<json_document> parse_answer_json_within_depth(std::string_view text, std::string* error = nullptr);

}  // namespace c5c3::k8s
