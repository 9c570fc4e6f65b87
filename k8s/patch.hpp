// JSON merge patch (RFC 7386) and JSON patch (RFC 6902) over RapidJSON.
//
// Pure functions, no I/O. The API server emulator applies them in its PATCH
// handler (application/merge-patch+json, application/json-patch+json); the
// client creates merge patches from two versions of an object.
#pragma once

#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

// ---- JSON merge patch (RFC 7386) ----

// Applies `patch` to `target` in place (RFC 7386 MergePatch): an object patch
// merges member by member, a null member removes, anything else replaces the
// target whole (arrays included).
void apply_merge_patch(json_value& target, const json_value& patch, json_allocator& alloc);
// The same on a copy: the patched document.
json_document merge_patched(const json_value& target, const json_value& patch);

// The minimal merge patch that turns `from` into `to`: members that changed,
// null for members removed, arrays replaced whole; {} when both are equal.
// When either side is not an object the patch is `to` itself. A null member
// inside `to` cannot be expressed by a merge patch (null means remove); it
// comes out as a removal.
json_document create_merge_patch(const json_value& from, const json_value& to);

// ---- JSON pointer (RFC 6901) ----

// The reference tokens of `pointer` with ~1 and ~0 unescaped ("" is the whole
// document: no tokens). nullopt when the pointer does not start with '/' or
// holds an invalid '~' escape.
std::optional<std::vector<std::string>> parse_json_pointer(std::string_view pointer);
// The value `pointer` refers to inside `doc`, or null when there is none.
const json_value* resolve_json_pointer(const json_value& doc, std::string_view pointer);

// ---- JSON patch (RFC 6902) ----

// Applies the operations in `patch` (a JSON array of {op, path, value|from})
// to `target`: add, remove, replace, move, copy, test; "-" appends to an array.
// Atomic: on failure `target` is left untouched and the result is an error
// text worded as kube-apiserver's JSON patch library words it (e.g.
// `testing value /a failed: test failed`; kube-apiserver answers 422 with it).
// nullopt means success.
std::optional<std::string> apply_json_patch(json_document& target, const json_value& patch);

}  // namespace c5c3::k8s
