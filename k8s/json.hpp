// JSON helpers over RapidJSON: parse, print, copy and walk documents.
// Everything Kubernetes-specific lives in object.hpp; this file knows JSON only.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::k8s {

using json_value = rapidjson::Value;
using json_document = rapidjson::Document;
using json_allocator = rapidjson::Document::AllocatorType;

// Objects and arrays nested deeper than this are refused by parse_json: the
// parser and everything that walks a document recurse once per level, and
// no Kubernetes object comes near it.
inline constexpr std::size_t max_json_depth = 1000;

// What parse_json makes of an object's duplicate keys.
enum class duplicate_keys {
  last_wins,  // Go's encoding/json: the last is kept
  keep,       // all kept, in document order (a server that must report them: fieldValidation)
};

// Parses `text`; on failure returns nullopt and, when `error` is given, a
// message naming the offset and what was wrong. Of duplicate object keys the
// last wins, as with Go's encoding/json, unless `duplicates` says keep.
std::optional<json_document> parse_json(std::string_view text, std::string* error = nullptr,
                                        duplicate_keys duplicates = duplicate_keys::last_wins);

// Compact JSON text of `v`.
std::string to_json(const json_value& v);
// Indented JSON text of `v` (for humans: logs of objects, kubectl-like output).
std::string to_pretty_json(const json_value& v);

// A deep copy of `v` allocated in `alloc`.
json_value copy_json(const json_value& v, json_allocator& alloc);
json_document copy_document(const json_value& v);

// A string value whose bytes are copied into `alloc`.
json_value make_string(std::string_view s, json_allocator& alloc);

inline std::string_view as_string_view(const json_value& v) {
  return {v.GetString(), v.GetStringLength()};
}

// Member lookup that tolerates non-objects: null when `v` is not an object or
// has no such member.
const json_value* member(const json_value& v, std::string_view name);
json_value* member(json_value& v, std::string_view name);

// Walks object members: find(doc, {"metadata", "labels"}).
const json_value* find(const json_value& v, std::initializer_list<std::string_view> path);

// Typed reads with a fallback for a missing or mistyped value.
std::string_view get_string(const json_value& v, std::initializer_list<std::string_view> path,
                            std::string_view fallback = {});
std::optional<std::int64_t> get_int(const json_value& v,
                                    std::initializer_list<std::string_view> path);
std::optional<bool> get_bool(const json_value& v, std::initializer_list<std::string_view> path);

// The object at `path`, created (as empty objects) where missing or not an object.
json_value& ensure_object(json_value& v, std::initializer_list<std::string_view> path,
                          json_allocator& alloc);

// Sets member `name` of object `obj` to `value` (replacing an existing one).
void set_member(json_value& obj, std::string_view name, json_value&& value, json_allocator& alloc);
// Removes member `name`; returns whether it was there.
bool remove_member(json_value& obj, std::string_view name);

// Structural equality (object member order does not matter; numbers compare
// by value across int/uint/double representations).
bool json_equal(const json_value& a, const json_value& b);

}  // namespace c5c3::k8s
