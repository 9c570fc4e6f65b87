// Label helpers the monitoring controllers share (apis-monitoring.md section
// 3): kmodules' LabelsForLabelSelector and OverwriteKeys, and
// metav1.LabelSelectorAsSelector as the controllers apply it (a nil selector
// matches nothing, {} everything).
#pragma once

#include "k8s/object.hpp"

#include <map>
#include <string>
#include <vector>

namespace c5c3::monitoring {

using label_map = std::map<std::string, std::string>;

// LabelsForLabelSelector: matchLabels, then per expression In -> its first
// value, NotIn [true] -> "false", [false] -> "true", else "not-<v>", Exists
// -> "", DoesNotExist -> the key removed. `exact` (if given) is false when the
// selector has expressions. A null or absent selector gives {}.
label_map labels_for_selector(const k8s::json_value* selector, bool* exact = nullptr);

// OverwriteKeys: `out` with every key of `in` set (in wins).
label_map overwrite_keys(label_map out, const label_map& in);

// Whether `selector` (a metav1.LabelSelector, null or absent: matches
// nothing) selects `labels`. An invalid selector matches nothing and sets
// `error` (apimachinery's message).
bool selector_selects(const k8s::json_value* selector, const label_map& labels, std::string* error = nullptr);

// Sorted by (namespace, name), as the controllers sort the Prometheus list.
std::vector<k8s::object> sorted_by_key(std::vector<k8s::object> objects);

// Whether `have` holds every key of `want` with its value (a patch of those
// labels would change nothing).
bool labels_cover(const label_map& have, const label_map& want);

}  // namespace c5c3::monitoring
