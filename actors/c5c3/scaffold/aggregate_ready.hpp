// Aggregate Ready (apis.md 1.1): True/AllReady when every sub-condition is
// True, otherwise False/NotAllReady.
#pragma once

#include "k8s/object.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3 {

k8s::condition aggregate_ready(const std::vector<k8s::condition>& conditions,
                               std::span<const std::string_view> sub_condition_types,
                               std::int64_t observed_generation);

// A condition of `type` with the order's generation as observedGeneration; the
// message is truncated to the 32768 bytes metav1.Condition admits.
k8s::condition make_condition(std::string_view type, bool status, std::string_view reason,
                              std::string_view message, std::int64_t observed_generation);

}  // namespace c5c3::c5c3
