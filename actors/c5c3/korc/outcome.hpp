// Reading a K-ORC object's outcome (apis.md 3.2): Available and Progressing
// with their observedGeneration, terminal versus transient errors, the
// import that matched nothing yet, and the collision probe's verdict.
#pragma once

#include "k8s/object.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace c5c3::c5c3::korc {

inline constexpr std::string_view condition_available = "Available";
inline constexpr std::string_view condition_progressing = "Progressing";
inline constexpr std::string_view reason_success = "Success";
inline constexpr std::string_view reason_progressing = "Progressing";
inline constexpr std::string_view reason_transient_error = "TransientError";
inline constexpr std::string_view reason_invalid_configuration = "InvalidConfiguration";
inline constexpr std::string_view reason_unrecoverable_error = "UnrecoverableError";
// What an unmanaged import whose filter matches nothing waits with.
inline constexpr std::string_view waiting_created_externally = "Waiting for OpenStack resource to be created externally";

// IsConditionReasonTerminal.
bool reason_terminal(std::string_view reason);

// Available is True at the object's current generation.
bool available_up_to_date(const k8s::object& obj);

// The reason of a terminal Progressing condition at the current generation
// ("" when K-ORC has not given up).
std::string terminal_reason(const k8s::object& obj);
// GetTerminalError: that condition's message, when terminal.
std::optional<std::string> terminal_error(const k8s::object& obj);

// Available is False with the created-externally message: an unmanaged
// import found nothing (the name is free).
bool import_pending_external(const k8s::object& obj);

// What a pending object waits on: Progressing's message, else Available's,
// else "no status from K-ORC yet".
std::string pending_message(const k8s::object& obj);

enum class probe_verdict {
  pending,   // not resolved either way yet
  resolved,  // the import matched an existing resource: a collision
  absent,    // nothing matched: safe to create
};
probe_verdict interpret_probe(const k8s::object& probe);

}  // namespace c5c3::c5c3::korc
