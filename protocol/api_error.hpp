// Typed API errors across actor boundaries. A cluster actor answers a failed
// request with a caf::error of the category `api_error_category`; its code is
// the api_errc of the Status reason and its context carries the whole
// k8s::api_error (code, reason, message, details), so a receiver can branch on
// NotFound or Conflict exactly as client-go's apierrors.Is* do.
#pragma once

#include "protocol/payloads.hpp"

#include <caf/atom.hpp>
#include <caf/error.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace c5c3::protocol {

inline constexpr caf::atom_value api_error_category = caf::atom("k8sapi");

// The coarse class of an API error, one per metav1.StatusReason the operator
// branches on; everything else is `other`.
enum class api_errc : std::uint8_t {
  other = 1,
  transport,  // no HTTP answer (connection refused, reset, TLS failure)
  not_found,
  already_exists,
  conflict,
  invalid,
  gone,  // 410 Gone / Expired: relist
  too_many_requests,
  forbidden,
  unauthorized,
  bad_request,
  server_error,
  no_match,      // the cluster does not serve the kind (client-side, like meta.NoKindMatchError)
  shutting_down  // the actor is stopping and takes no more requests
};

const char* to_string(api_errc x);
api_errc classify(const k8s::api_error& e);

// The caf::error for `e` (its context holds a copy of `e`).
caf::error make_error(const k8s::api_error& e);
// An error of the category without a server answer (no_match, shutting_down).
caf::error make_error(api_errc code, std::string message);

// The API error inside `err`, when `err` is of the category and carries one.
std::optional<k8s::api_error> api_error_of(const caf::error& err);
// The api_errc of `err`, or nullopt when `err` is of another category.
std::optional<api_errc> api_errc_of(const caf::error& err);
inline bool is_not_found(const caf::error& err) { return api_errc_of(err) == api_errc::not_found; }
inline bool is_conflict(const caf::error& err) { return api_errc_of(err) == api_errc::conflict; }
inline bool is_no_match(const caf::error& err) { return api_errc_of(err) == api_errc::no_match; }

// One line for logs and conditions; never includes request or object bodies.
std::string describe(const caf::error& err);

}  // namespace c5c3::protocol
