// The Kubernetes object model: an object is a JSON document with typed
// accessors for apiVersion/kind, metadata and conditions.
//
// `object` is immutable and shared: copies share one document, so objects
// cross threads and actor mailboxes without copying. To change one, take an
// `object_builder` (a private deep copy), edit it, and `freeze()` it again.
#pragma once

#include "k8s/compact_json.hpp"
#include "k8s/json.hpp"
#include "k8s/time.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

// Group, version and kind. The core group is "".
struct gvk {
  std::string group;
  std::string version;
  std::string kind;

  // "v1" or "group/version".
  std::string api_version() const;
  static gvk from_api_version(std::string_view api_version, std::string_view kind);
  friend bool operator==(const gvk&, const gvk&) = default;
  friend auto operator<=>(const gvk&, const gvk&) = default;
};

struct owner_reference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  bool block_owner_deletion = false;
};

// metav1.Condition.
struct condition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::string reason;
  std::string message;
  std::string last_transition_time;  // RFC 3339
  std::int64_t observed_generation = 0;

  bool is_true() const { return status == "True"; }
  friend bool operator==(const condition&, const condition&) = default;
};

// "namespace/name", or "name" for a cluster-scoped object.
struct object_key {
  std::string namespace_;
  std::string name;
  std::string to_string() const { return namespace_.empty() ? name : namespace_ + "/" + name; }
  friend bool operator==(const object_key&, const object_key&) = default;
  friend auto operator<=>(const object_key&, const object_key&) = default;
};

class object_builder;

class object {
 public:
  object() = default;  // the empty object: operator bool is false
  explicit object(json_document&& doc);

  // Parses a JSON object; nullopt (and `error`) when the text is not one.
  static std::optional<object> parse(std::string_view text, std::string* error = nullptr);

  explicit operator bool() const { return static_cast<bool>(doc_); }
  const json_value& json() const;
  std::string to_json() const { return k8s::to_json(json()); }

  std::string_view api_version() const;
  std::string_view kind() const;
  k8s::gvk gvk() const;

  std::string_view name() const;
  std::string_view namespace_() const;
  std::string_view generate_name() const;
  std::string_view uid() const;
  std::string_view resource_version() const;
  std::int64_t generation() const;
  std::string_view creation_timestamp() const;
  std::string_view deletion_timestamp() const;
  bool terminating() const { return !deletion_timestamp().empty(); }
  object_key key() const { return {std::string(namespace_()), std::string(name())}; }

  std::optional<std::string_view> label(std::string_view key) const;
  std::optional<std::string_view> annotation(std::string_view key) const;
  std::map<std::string, std::string> labels() const;
  std::map<std::string, std::string> annotations() const;
  std::vector<std::string> finalizers() const;
  bool has_finalizer(std::string_view f) const;
  std::vector<owner_reference> owner_references() const;
  std::optional<owner_reference> controller_reference() const;

  // status.conditions as metav1.Condition values.
  std::vector<condition> conditions() const;
  std::optional<condition> find_condition(std::string_view type) const;

  // A value anywhere in the document: get({"spec", "rotation", "interval"}).
  const json_value* get(std::initializer_list<std::string_view> path) const;
  std::string_view get_string(std::initializer_list<std::string_view> path,
                              std::string_view fallback = {}) const;

  object_builder edit() const;

  // Identity of the shared document (same document, not equal content).
  bool same_document(const object& other) const { return doc_ == other.doc_; }

 private:
  frozen_json doc_;
};

// A private, mutable copy of an object's document.
class object_builder {
 public:
  object_builder();  // {} : an empty JSON object
  explicit object_builder(json_document&& doc);
  object_builder(std::string_view api_version, std::string_view kind, std::string_view namespace_,
                 std::string_view name);

  json_document& doc() { return doc_; }
  json_allocator& alloc() { return doc_.GetAllocator(); }

  object_builder& set_api_version_kind(std::string_view api_version, std::string_view kind);
  object_builder& set_name(std::string_view name);
  object_builder& set_namespace(std::string_view ns);
  object_builder& set_resource_version(std::string_view rv);
  object_builder& set_label(std::string_view key, std::string_view value);
  object_builder& remove_label(std::string_view key);
  object_builder& set_annotation(std::string_view key, std::string_view value);
  object_builder& remove_annotation(std::string_view key);
  // Adds `f` unless present; returns whether it changed anything via `changed`.
  object_builder& add_finalizer(std::string_view f, bool* changed = nullptr);
  object_builder& remove_finalizer(std::string_view f, bool* changed = nullptr);
  object_builder& add_owner_reference(const owner_reference& ref);

  // Sets a value at `path`, creating intermediate objects.
  object_builder& set(std::initializer_list<std::string_view> path, json_value&& value);
  object_builder& set_string(std::initializer_list<std::string_view> path, std::string_view v);
  object_builder& set_int(std::initializer_list<std::string_view> path, std::int64_t v);
  object_builder& set_bool(std::initializer_list<std::string_view> path, bool v);
  // Removes the value at `path`; a missing path is fine.
  object_builder& remove(std::initializer_list<std::string_view> path);

  object freeze() &&;

 private:
  json_document doc_;
};

// Sets `c` in the conditions array at status.conditions of `b` the way
// apimachinery's meta.SetStatusCondition does: lastTransitionTime is kept unless
// the status flips (or the condition is new), when it becomes `now`. Returns
// whether anything changed.
bool set_condition(object_builder& b, condition c, time_point now);
// Same, over a plain vector of conditions.
bool set_condition(std::vector<condition>& conds, condition c, time_point now);
// Writes `conds` as status.conditions.
void write_conditions(object_builder& b, const std::vector<condition>& conds);
json_value condition_to_json(const condition& c, json_allocator& alloc);

}  // namespace c5c3::k8s
