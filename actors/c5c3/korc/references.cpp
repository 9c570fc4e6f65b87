#include "actors/c5c3/korc/references.hpp"

#include "actors/c5c3/scaffold/namespace_assignment.hpp"
#include "actors/c5c3/scaffold/reasons.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::korc {

namespace rt = ::c5c3::runtime;

k8s::gvk keystone_user_gvk() { return {"c5c3.io", "v1alpha1", "KeystoneUser"}; }
k8s::gvk keystone_project_gvk() { return {"c5c3.io", "v1alpha1", "KeystoneProject"}; }

namespace {

rt::read_slot reference_slot(std::string_view id, k8s::gvk gvk, std::string_view field) {
  auto slot = rt::named(
      std::string(id), std::move(gvk),
      [field = std::string(field)](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
        if (s.order.terminating()) return std::nullopt;
        auto name = s.order.get_string({"spec", field, "name"});
        if (name.empty()) return std::nullopt;
        return rt::locator{std::nullopt, std::string(name)};
      },
      "", true);
  slot.cluster = rt::cluster_role::order;
  slot.ns = rt::namespace_role::order;
  return slot;
}

bool condition_moved(const k8s::object& old, const k8s::object& now, std::string_view type) {
  auto a = old.find_condition(type), b = now.find_condition(type);
  if (!a || !b) return a.has_value() != b.has_value();
  return a->status != b->status || a->reason != b->reason;
}

bool ready(const k8s::object& o, std::string_view type) {
  auto c = o.find_condition(type);
  return c && c->is_true();
}

std::string condition_summary(const k8s::object& o, std::string_view type) {
  auto c = o.find_condition(type);
  if (!c) return fmt::format("{} not reported yet", type);
  return fmt::format("{} {}: {}", type, c->status, c->reason);
}

}  // namespace

std::vector<rt::read_slot> reference_slots() {
  return {reference_slot(slot_user, keystone_user_gvk(), "userRef"),
          reference_slot(slot_project, keystone_project_gvk(), "projectRef")};
}

bool reference_update_passes(const k8s::object& old, const k8s::object& now, std::string_view gate_condition) {
  return old.generation() != now.generation() || old.deletion_timestamp() != now.deletion_timestamp() ||
         condition_moved(old, now, condition_type_ready) || condition_moved(old, now, gate_condition);
}

std::vector<rt::reference_field> user_project_references() {
  return {{keystone_user_gvk(),
           {"spec", "userRef", "name"},
           {},
           [](const k8s::object& old, const k8s::object& now) { return reference_update_passes(old, now, "UserReady"); }},
          {keystone_project_gvk(),
           {"spec", "projectRef", "name"},
           {},
           [](const k8s::object& old, const k8s::object& now) {
             return reference_update_passes(old, now, "ProjectReady");
           }}};
}

rt::reference_field same_user_and_project(k8s::gvk gvk) {
  return {std::move(gvk), {}, {{"spec", "userRef", "name"}, {"spec", "projectRef", "name"}}, {}};
}

gate_result reference_gate(const reference_input& in) {
  const order_identity& id = *in.order;
  const auto where = cluster_location(id.ref.cluster);
  auto key = [&](std::string_view name) { return fmt::format("{}/{}", id.ref.namespace_, name); };
  struct ref {
    std::string_view kind;
    const std::string& name;
    const k8s::object* obj;
    bool served;
    std::string_view not_found, waiting, condition;
  };
  const ref refs[] = {
      {"KeystoneUser", in.user_name, in.user, in.users_served, reason_user_not_found, reason_waiting_for_user,
       "UserReady"},
      {"KeystoneProject", in.project_name, in.project, in.projects_served, reason_project_not_found,
       reason_waiting_for_project, "ProjectReady"},
  };
  for (const auto& r : refs)
    if (!r.obj || !*r.obj)
      return gate_result::refuse(
          r.not_found,
          fmt::format("{} {} not found on {}{}; the order is deferred until it exists", r.kind, key(r.name), where,
                      r.served ? "" : fmt::format(" (the cluster serves no {})", r.kind)),
          std::nullopt);
  for (const auto& r : refs) {
    auto theirs = order_control_plane_key(r.obj->get_string({"spec", "controlPlaneRef", "namespace"}),
                                          r.obj->get_string({"spec", "controlPlaneRef", "name"}), r.obj->namespace_());
    if (theirs != id.control_plane_key)
      return gate_result::refuse(
          reason_control_plane_mismatch,
          fmt::format("{} {} belongs to ControlPlane {}, not to ControlPlane {}; an order binds only orders of its "
                      "own ControlPlane",
                      r.kind, key(r.name), theirs.to_string(), id.control_plane_key.to_string()),
          std::nullopt);
  }
  for (const auto& r : refs)
    if (!ready(*r.obj, r.condition))
      return gate_result::refuse(r.waiting,
                                 fmt::format("{} {} is not provisioned yet ({}); the order waits for it", r.kind,
                                             key(r.name), condition_summary(*r.obj, r.condition)),
                                 std::nullopt);
  return gate_result::pass();
}

}  // namespace c5c3::c5c3::korc
