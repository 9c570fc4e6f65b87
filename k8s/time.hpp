// Kubernetes time values: RFC 3339 timestamps (metav1.Time, seconds
// precision, always UTC "Z") and Go duration strings (metav1.Duration).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::k8s {

using clock = std::chrono::system_clock;
using time_point = clock::time_point;

// "2026-12-01T00:15:31Z". Sub-second parts are dropped, as metav1.Time does.
std::string format_rfc3339(time_point t);
// Accepts "...Z", fractional seconds and numeric offsets ("+02:00"). Times
// before 1678 or after 2261 (outside a time_point) give time_point::min()/max().
std::optional<time_point> parse_rfc3339(std::string_view s);

// Go's time.ParseDuration: "720h", "1m30s", "-1h", "1.5h", "300ms", "0".
std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view s);
// Go's Duration.String(): "720h0m0s", "1m0s", "0s", "1.5s", "300ms".
std::string format_go_duration(std::chrono::nanoseconds d);

}  // namespace c5c3::k8s
