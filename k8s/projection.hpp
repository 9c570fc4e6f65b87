// Projections: an object without the fields nobody reads (issue 19), as an
// informer keeps it (client-go's cache TransformFunc dropping fields).
//
// A field path names members from the document's root, separated by dots:
// `metadata.creationTimestamp`. `[]` after a member name means every element
// of that array (`status.conditions[].lastTransitionTime`); a member name
// holding dots or brackets is quoted in double quotes
// (`metadata.annotations."kubectl.kubernetes.io/last-applied-configuration"`).
// A path that is absent (or runs into something that is not an object, or an
// array where `[]` asks for one) drops nothing.
#pragma once

#include "k8s/object.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

struct path_segment {
  std::string name;
  bool each = false;  // `name[]`: every element of the array `name`
  friend bool operator==(const path_segment&, const path_segment&) = default;
};
using field_path = std::vector<path_segment>;

// nullopt (and `error`) when `text` is no field path: empty, an empty
// segment, an unterminated quote, `[` without `]`, `[]` not at a segment's end,
// or `[]` on the last segment (a path drops a member, not every element).
std::optional<field_path> parse_field_path(std::string_view text, std::string* error = nullptr);

// Each path of `paths` parsed; nullopt (and `error`, naming the path) when one is not a field path.
std::optional<std::vector<field_path>> parse_field_paths(const std::vector<std::string>& paths,
                                                         std::string* error = nullptr);

// The paths sorted and without duplicates: the form a projection is compared in.
std::vector<std::string> canonical_paths(std::vector<std::string> paths);

// Whether every path of `dropped` is in `accepted` (both canonical): a cache
// that drops `dropped` may answer a reader that does without `accepted`.
bool drops_within(const std::vector<std::string>& dropped, const std::vector<std::string>& accepted);

// What two projections both drop (both canonical): the projection of a watch
// that serves readers of either.
std::vector<std::string> common_paths(const std::vector<std::string>& a, const std::vector<std::string>& b);

// `o` without the fields `paths` name: the same object (no copy) when none of
// them is present, else a copy sized to what is left.
object project(const object& o, const std::vector<field_path>& paths);

// Whether `v` holds something a path of `paths` names.
bool holds_any(const json_value& v, const std::vector<field_path>& paths);

}  // namespace c5c3::k8s
