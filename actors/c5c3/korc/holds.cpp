#include "actors/c5c3/korc/holds.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::c5c3::korc {

namespace rt = ::c5c3::runtime;

k8s::gvk role_assignment_gvk() { return {"c5c3.io", "v1alpha1", "KeystoneRoleAssignment"}; }
k8s::gvk application_credential_gvk() { return {"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"}; }

std::vector<rt::read_slot> hold_slots() {
  std::vector<rt::read_slot> out;
  for (auto [id, gvk] : {std::pair{slot_role_assignments, role_assignment_gvk()},
                         std::pair{slot_application_credentials, application_credential_gvk()}}) {
    auto slot = rt::listed(std::string(id), gvk, "", rt::namespace_role::order, true);
    slot.cluster = rt::cluster_role::order;
    // Only a deleting order holds.
    slot.locate = [](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
      if (!s.order.terminating()) return std::nullopt;
      return rt::locator{};
    };
    out.push_back(std::move(slot));
  }
  return out;
}

rt::read_slot application_credential_hold_slot() {
  for (auto& slot : hold_slots())
    if (slot.id == slot_application_credentials) return slot;
  return {};
}

std::vector<rt::reference_field> hold_references(std::string_view ref_field) {
  // Read by a deleting order only (hold_slots): a user or project that is not
  // being deleted is not woken by its assignments and credentials.
  rt::reference_field assignments{role_assignment_gvk(), {"spec", std::string(ref_field), "name"}};
  rt::reference_field credentials{application_credential_gvk(), {"spec", std::string(ref_field), "name"}};
  assignments.only_while_deleting = credentials.only_while_deleting = true;
  return {assignments, credentials};
}

std::vector<std::string> referencing_names(const std::vector<k8s::object>& items, std::string_view ref_field,
                                           std::string_view order_name) {
  std::vector<std::string> out;
  for (const auto& o : items)
    if (o.get_string({"spec", ref_field, "name"}) == order_name) out.emplace_back(o.name());
  std::sort(out.begin(), out.end());
  return out;
}

std::string quote_names(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += " ";
    out += "\"" + names[i] + "\"";
  }
  return out + "]";
}

hold reference_hold(const std::vector<k8s::object>& role_assignments,
                    const std::vector<k8s::object>& application_credentials, std::string_view ref_field,
                    std::string_view order_name, std::string_view namespace_, std::string_view noun,
                    std::string_view why) {
  hold h;
  if (auto names = referencing_names(role_assignments, ref_field, order_name); !names.empty()) {
    h.held = true;
    h.reason = std::string(reason_referenced_by_role_assignments);
    h.message = fmt::format(
        "KeystoneRoleAssignment(s) {} in namespace \"{}\" still reference this {}; delete them first, because "
        "deleting the {} would take their assignments with it",
        quote_names(names), namespace_, noun, noun);
  } else if (auto names = referencing_names(application_credentials, ref_field, order_name); !names.empty()) {
    h.held = true;
    h.reason = std::string(reason_referenced_by_application_credentials);
    h.message = fmt::format(
        "KeystoneApplicationCredential(s) {} in namespace \"{}\" still reference this {}; delete them first, "
        "because {}",
        quote_names(names), namespace_, noun, why);
  }
  if (h.held) h.requeue = order_reference_hold_requeue_after;
  return h;
}

hold credential_hold(const std::vector<k8s::object>& application_credentials, std::string_view user,
                     std::string_view project, std::string_view namespace_) {
  std::vector<std::string> names;
  for (const auto& o : application_credentials)
    if (o.get_string({"spec", "userRef", "name"}) == user && o.get_string({"spec", "projectRef", "name"}) == project)
      names.emplace_back(o.name());
  std::sort(names.begin(), names.end());
  hold h;
  if (names.empty()) return h;
  h.held = true;
  h.reason = std::string(reason_referenced_by_application_credentials);
  h.message = fmt::format(
      "KeystoneApplicationCredential(s) {} in namespace \"{}\" have the user \"{}\" and the project \"{}\" of this "
      "assignment; delete them first, because K-ORC creates and deletes their credentials with a token scoped to "
      "the project, which needs the role",
      quote_names(names), namespace_, user, project);
  h.requeue = order_reference_hold_requeue_after;
  return h;
}

}  // namespace c5c3::c5c3::korc
