// The status K-ORC writes (apis.md 3.2; internal/controllers/generic/status and
// progress): Available and Progressing, both with observedGeneration, status.id,
// status.resource and lastSyncTime. The reasons and the messages below are
// K-ORC's words; the orders match on some of them.
#pragma once

#include "k8s/object.hpp"
#include "sim/world/korc_kinds.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::sim::world {

namespace korc_reason {
inline constexpr std::string_view success = "Success";
inline constexpr std::string_view progressing = "Progressing";
inline constexpr std::string_view transient_error = "TransientError";
inline constexpr std::string_view invalid_configuration = "InvalidConfiguration";  // terminal
inline constexpr std::string_view unrecoverable_error = "UnrecoverableError";      // terminal
}  // namespace korc_reason

namespace korc_message {
inline constexpr std::string_view up_to_date = "OpenStack resource is up to date";
inline constexpr std::string_view available = "OpenStack resource is available";
inline constexpr std::string_view waiting_external = "Waiting for OpenStack resource to be created externally";
inline constexpr std::string_view waiting_deleted = "Waiting for OpenStack resource to be deleted";
inline constexpr std::string_view needs_refresh = "Resource status will be refreshed";
inline constexpr std::string_view deleted_externally =
    "OpenStack resource was deleted externally; will recreate on next reconcile";
inline constexpr std::string_view several_on_import = "found more than one matching OpenStack resource during import";
inline constexpr std::string_view several_on_adoption = "found more than one matching OpenStack resource during adoption";
inline constexpr std::string_view import_id_missing = "referenced resource does not exist in OpenStack";
inline constexpr std::string_view gone_from_openstack = "resource has been deleted from OpenStack";
inline constexpr std::string_view not_creating_unmanaged = "Not creating unmanaged resource";
inline constexpr std::string_view creating_prefix = "invalid configuration creating resource: ";
inline constexpr std::string_view updating_prefix = "invalid configuration updating resource: ";
}  // namespace korc_message

// "Waiting for Domain/x to be created" (or "ready", "deleted").
std::string korc_waiting_on(std::string_view kind, std::string_view name, std::string_view outcome);
// "Waiting for finalizer F to be removed".
std::string korc_waiting_on_finalizer(std::string_view finalizer);

// A reconcile's outcome (K-ORC's ReconcileStatus).
struct korc_progress {
  std::vector<std::string> messages;
  std::optional<std::string> error;  // retryable
  std::optional<std::pair<std::string, std::string>> terminal;  // reason, message
  std::optional<std::chrono::nanoseconds> requeue;
  bool needs_reschedule() const { return !messages.empty() || error || terminal; }
  void wait(std::string message, std::optional<std::chrono::nanoseconds> after = std::nullopt);
  void fail_terminal(std::string_view reason, std::string message);
};

// Writes Available and Progressing (SetCommonConditions: a condition keeps its
// lastTransitionTime while its status, reason, message and observedGeneration
// stay) and lastSyncTime when nothing is pending. `available` is the status
// before the terminal override ("True", "False", "Unknown").
void korc_write_conditions(k8s::object_builder& b, const k8s::object& current, std::string_view available,
                           const korc_progress& p, k8s::time_point now);

// Helpers for readers of K-ORC objects (the orders, tests):
bool korc_available(const k8s::object& o);  // Available True
// The terminal reason and message of an up-to-date Progressing, if any (GetTerminalError).
std::optional<std::pair<std::string, std::string>> korc_terminal_error(const k8s::object& o);
// Available False with the "created externally" message (an import that matched nothing).
bool korc_waiting_external(const k8s::object& o);

}  // namespace c5c3::sim::world
