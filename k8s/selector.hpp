// Label and field selectors as apimachinery parses, prints and matches them.
//   labels: "a=b,c!=d,e in (x,y),f notin (z),g,!h" (also ==, and gt/lt: "n>3")
//   fields: "metadata.name=x,metadata.namespace!=y"
#pragma once

#include "k8s/json.hpp"
#include "k8s/object.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

struct label_requirement {
  enum class op { equals, not_equals, in, not_in, exists, does_not_exist, greater_than, less_than };
  std::string key;
  op operation = op::exists;
  std::vector<std::string> values;  // sorted, unique

  bool matches(const std::map<std::string, std::string>& labels) const;
  std::string to_string() const;
  friend bool operator==(const label_requirement&, const label_requirement&) = default;
};

class label_selector {
 public:
  label_selector() = default;  // matches everything

  // Parses the string form; nullopt (and `error`, in apimachinery's wording
  // where it has one) on a syntax error.
  static std::optional<label_selector> parse(std::string_view text, std::string* error = nullptr);
  // From a metav1.LabelSelector JSON object ({matchLabels, matchExpressions}).
  static std::optional<label_selector> from_json(const json_value& v, std::string* error = nullptr);
  // Every key=value of `labels`.
  static label_selector equals(const std::map<std::string, std::string>& labels);

  bool empty() const { return requirements_.empty(); }
  bool matches(const std::map<std::string, std::string>& labels) const;
  bool matches(const object& o) const { return matches(o.labels()); }
  const std::vector<label_requirement>& requirements() const { return requirements_; }
  // Canonical string: requirements sorted by key.
  std::string to_string() const;

  label_selector& add(label_requirement r);

 private:
  std::vector<label_requirement> requirements_;
};

struct field_requirement {
  std::string field;  // e.g. metadata.name
  bool negated = false;
  std::string value;
  friend bool operator==(const field_requirement&, const field_requirement&) = default;
};

class field_selector {
 public:
  field_selector() = default;
  explicit field_selector(std::vector<field_requirement> requirements)
      : requirements_(std::move(requirements)) {}
  static std::optional<field_selector> parse(std::string_view text, std::string* error = nullptr);
  bool empty() const { return requirements_.empty(); }
  const std::vector<field_requirement>& requirements() const { return requirements_; }
  // Matches metadata.name and metadata.namespace, and any other dotted path
  // to a scalar of the object (as the emulator's per-kind field sets allow).
  bool matches(const object& o) const;
  std::string to_string() const;

 private:
  std::vector<field_requirement> requirements_;
};

}  // namespace c5c3::k8s
