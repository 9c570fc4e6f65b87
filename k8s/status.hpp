// The Kubernetes `Status` error model: what the API server answers on failure
// (kind Status, status Failure, message, reason, details, code), parsed into a
// typed error on the client side and built on the emulator side, so that both
// speak the exact same shapes and wording.
#pragma once

#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

// metav1.StatusReason values as sent on the wire.
namespace reasons {
inline constexpr std::string_view not_found = "NotFound";
inline constexpr std::string_view already_exists = "AlreadyExists";
inline constexpr std::string_view conflict = "Conflict";
inline constexpr std::string_view invalid = "Invalid";
inline constexpr std::string_view gone = "Gone";
inline constexpr std::string_view expired = "Expired";
inline constexpr std::string_view too_many_requests = "TooManyRequests";
inline constexpr std::string_view forbidden = "Forbidden";
inline constexpr std::string_view unauthorized = "Unauthorized";
inline constexpr std::string_view bad_request = "BadRequest";
inline constexpr std::string_view method_not_allowed = "MethodNotAllowed";
inline constexpr std::string_view not_acceptable = "NotAcceptable";
inline constexpr std::string_view unsupported_media_type = "UnsupportedMediaType";
inline constexpr std::string_view request_entity_too_large = "RequestEntityTooLarge";
inline constexpr std::string_view internal_error = "InternalError";
inline constexpr std::string_view service_unavailable = "ServiceUnavailable";
inline constexpr std::string_view timeout = "Timeout";
inline constexpr std::string_view server_timeout = "ServerTimeout";
}  // namespace reasons

// metav1.StatusCause.
struct status_cause {
  std::string reason;  // e.g. FieldValueInvalid
  std::string message;
  std::string field;
  friend bool operator==(const status_cause&, const status_cause&) = default;
};

// One failed API request. `code` 0 means a transport error (no HTTP answer).
struct api_error {
  int code = 0;
  std::string reason;   // metav1.StatusReason, or "" when the server sent none
  std::string message;  // the server's message, never carrying secret values
  // details
  std::string group;
  std::string kind;  // kube puts the resource (plural) here for most errors
  std::string name;
  std::string uid;
  std::vector<status_cause> causes;
  std::optional<int> retry_after_seconds;
  // What was asked: "GET /api/v1/namespaces/ns/secrets/x" (path only, no query, no body).
  std::string request;

  bool is(std::string_view r) const { return reason == r; }
  bool not_found() const { return code == 404 || reason == reasons::not_found; }
  bool already_exists() const { return reason == reasons::already_exists; }
  bool conflict() const { return code == 409 && reason != reasons::already_exists; }
  bool invalid() const { return code == 422 || reason == reasons::invalid; }
  bool gone() const { return code == 410 || reason == reasons::gone || reason == reasons::expired; }
  bool too_many_requests() const { return code == 429; }
  bool forbidden() const { return code == 403; }
  bool unauthorized() const { return code == 401; }
  bool server_error() const { return code >= 500; }
  bool transport() const { return code == 0; }
  // Safe to retry for any verb: nothing reached the server, or it said so.
  bool retryable() const {
    return transport() || code == 429 || code == 503 || code == 504 || code >= 500;
  }

  // One line for logs and conditions: `GET /api/v1/namespaces/a/secrets/b: 404 NotFound:
  // secrets "b" not found`.
  std::string describe() const;
};

// Parses an error answer. A body that is not a Status still gives an error
// carrying the code and a reason derived from it (as client-go does).
api_error parse_status(int http_code, std::string_view body, std::string request = {});

// The Status JSON document for `e` (kind Status, apiVersion v1, metadata {},
// status Failure, message, reason, details, code).
json_document make_status_body(const api_error& e);

// A success Status (as DELETE of some kinds and deletecollection answer).
json_document make_success_status(std::string_view group, std::string_view kind,
                                  std::string_view name, std::string_view uid);

// Builders with the apiserver's exact wording. `resource` is the qualified
// resource as kube prints it: "secrets" for the core group, "rabbitmqvhosts.c5c3.io" otherwise
// (see qualified_resource()).
std::string qualified_resource(std::string_view group, std::string_view resource);
api_error make_not_found(std::string_view group, std::string_view resource, std::string_view name);
api_error make_already_exists(std::string_view group, std::string_view resource,
                              std::string_view name);
// Optimistic concurrency: `Operation cannot be fulfilled on secrets "x": the object has been
// modified; please apply your changes to the latest version and try again`.
api_error make_conflict(std::string_view group, std::string_view resource, std::string_view name,
                        std::string_view why);
api_error make_invalid(std::string_view group, std::string_view kind, std::string_view name,
                       std::vector<status_cause> causes);
api_error make_bad_request(std::string message);
api_error make_method_not_allowed(std::string message);
api_error make_unsupported_media_type(std::string message);
api_error make_not_acceptable(std::string message);
// 410 reason Expired: `too old resource version: 5 (100)`.
api_error make_expired(std::string message);
api_error make_too_many_requests(std::string message, int retry_after_seconds);
api_error make_internal_error(std::string message);
api_error make_service_unavailable(std::string message);
api_error make_unauthorized();
api_error make_forbidden(std::string message);

}  // namespace c5c3::k8s
