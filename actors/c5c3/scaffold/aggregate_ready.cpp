#include "actors/c5c3/scaffold/aggregate_ready.hpp"

#include "actors/c5c3/scaffold/reasons.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace c5c3::c5c3 {

k8s::condition make_condition(std::string_view type, bool status, std::string_view reason,
                              std::string_view message, std::int64_t observed_generation) {
  constexpr std::size_t max_message = 32768;
  k8s::condition c;
  c.type = type;
  c.status = status ? "True" : "False";
  c.reason = reason;
  c.message = message.substr(0, max_message);
  c.observed_generation = observed_generation;
  return c;
}

k8s::condition aggregate_ready(const std::vector<k8s::condition>& conditions,
                               std::span<const std::string_view> sub_condition_types,
                               std::int64_t observed_generation) {
  std::vector<std::string> not_ready;
  for (auto type : sub_condition_types) {
    auto it = std::find_if(conditions.begin(), conditions.end(), [&](auto& c) { return c.type == type; });
    if (it == conditions.end() || !it->is_true()) not_ready.emplace_back(type);
  }
  if (not_ready.empty())
    return make_condition(condition_type_ready, true, reason_all_ready, "all sub-conditions are True",
                          observed_generation);
  return make_condition(condition_type_ready, false, reason_not_all_ready,
                        fmt::format("not True: {}", fmt::join(not_ready, ", ")), observed_generation);
}

}  // namespace c5c3::c5c3
