// Reading and writing an order's own status fields (status.<field>, the
// conditions aside): a zero, empty or absent value is removed, so a status
// compares equal after a round trip.
#pragma once

#include "k8s/object.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3 {

std::int64_t status_int(const k8s::object& order, std::string_view field);
std::string status_string(const k8s::object& order, std::string_view field);
std::optional<k8s::time_point> status_time(const k8s::object& order, std::string_view field);
std::vector<std::string> status_strings(const k8s::object& order, std::string_view field);

void put_status_int(k8s::object_builder& b, std::string_view field, std::int64_t v);
void put_status_string(k8s::object_builder& b, std::string_view field, std::string_view v);
void put_status_time(k8s::object_builder& b, std::string_view field, const std::optional<k8s::time_point>& t);
void put_status_strings(k8s::object_builder& b, std::string_view field, const std::vector<std::string>& v);

}  // namespace c5c3::c5c3
