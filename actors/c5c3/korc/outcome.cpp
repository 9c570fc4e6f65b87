#include "actors/c5c3/korc/outcome.hpp"

namespace c5c3::c5c3::korc {

bool reason_terminal(std::string_view reason) {
  return reason == reason_invalid_configuration || reason == reason_unrecoverable_error;
}

bool available_up_to_date(const k8s::object& obj) {
  auto c = obj.find_condition(condition_available);
  return c && c->is_true() && c->observed_generation == obj.generation();
}

std::string terminal_reason(const k8s::object& obj) {
  auto c = obj.find_condition(condition_progressing);
  if (!c || c->observed_generation != obj.generation() || !reason_terminal(c->reason)) return {};
  return c->reason;
}

std::optional<std::string> terminal_error(const k8s::object& obj) {
  if (terminal_reason(obj).empty()) return std::nullopt;
  return obj.find_condition(condition_progressing)->message;
}

bool import_pending_external(const k8s::object& obj) {
  auto c = obj.find_condition(condition_available);
  return c && c->status == "False" && c->message.find(waiting_created_externally) != std::string::npos;
}

std::string pending_message(const k8s::object& obj) {
  for (auto type : {condition_progressing, condition_available})
    if (auto c = obj.find_condition(type); c && !c->message.empty()) return c->message;
  return "no status from K-ORC yet";
}

probe_verdict interpret_probe(const k8s::object& probe) {
  if (available_up_to_date(probe)) return probe_verdict::resolved;
  if (import_pending_external(probe)) return probe_verdict::absent;
  return probe_verdict::pending;
}

}  // namespace c5c3::c5c3::korc
