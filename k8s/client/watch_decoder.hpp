// Incremental decoding of a watch stream: a sequence of JSON objects
// ({"type":..., "object":...}) arriving in chunks whose boundaries fall
// anywhere, newlines between them optional. Pure, no I/O.
#pragma once

#include "k8s/client/client.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

// The largest watch event accepted (kube stores objects of at most 1.5 MiB).
inline constexpr std::size_t max_watch_event_bytes = 64u << 20;

class json_stream_splitter {
 public:
  // Appends `chunk`; returns the complete top-level JSON texts it finished.
  // A byte outside an object that is not whitespace is an error; so is an
  // event nested deeper than max_json_depth, refused as it grows (as one
  // larger than max_watch_event_bytes), so every text returned is within it.
  std::vector<std::string> feed(std::string_view chunk, std::string* error = nullptr);
  bool idle() const { return depth_ == 0 && current_.empty(); }

 private:
  std::string current_;
  int depth_ = 0;
  bool in_string_ = false;
  bool escape_ = false;
};

// One watch event from its JSON text; nullopt (and `error`) when malformed or
// of an unknown type. ERROR events carry the Status as the api_error.
// `drop_managed_fields`: the object without metadata.managedFields
// (client_config::drop_managed_fields). `from_splitter`: the text is one
// json_stream_splitter returned, its nesting already held to max_json_depth.
std::optional<watch_event> parse_watch_event(std::string_view text, std::string* error = nullptr,
                                             bool drop_managed_fields = false, bool from_splitter = false);

// Removes metadata.managedFields from a decoded object's JSON, in place (as
// strip_managed_fields does to a copy).
void remove_managed_fields(json_value& obj);

}  // namespace c5c3::k8s
