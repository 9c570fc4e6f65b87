#include "actors/c5c3/scaffold/ensure_child.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3 {
namespace {

bool subset(const k8s::json_value& want, const k8s::json_value& have) {
  if (want.IsObject()) {
    if (!have.IsObject()) return false;
    for (auto& m : want.GetObject()) {
      const k8s::json_value* h = k8s::member(have, k8s::as_string_view(m.name));
      if (!h || !subset(m.value, *h)) return false;
    }
    return true;
  }
  if (want.IsArray()) {
    // Element by element, so defaults the API server fills into list items
    // (conversionStrategy, kind, ...) do not read as drift.
    if (!have.IsArray() || want.Size() != have.Size()) return false;
    for (rapidjson::SizeType i = 0; i < want.Size(); ++i)
      if (!subset(want[i], have[i])) return false;
    return true;
  }
  return k8s::json_equal(want, have);
}

}  // namespace

bool applied_fields_present(const k8s::object& desired, const k8s::object& live) {
  for (auto& m : desired.json().GetObject()) {
    auto name = k8s::as_string_view(m.name);
    if (name == "status") continue;
    const k8s::json_value* h = k8s::member(live.json(), name);
    if (!h || !subset(m.value, *h)) return false;
  }
  return true;
}

std::string refusing_to_adopt_message(std::string_view kind, const k8s::object_key& key) {
  return fmt::format("refusing to adopt pre-existing {} {}: it was not created by this order", kind,
                     key.to_string());
}

ensure_decision ensure_order_child(const order_ref& o, const k8s::object& desired, const k8s::object* live,
                                   const order_owner& owner) {
  auto b = desired.edit();
  claim_order_child(b, o);
  k8s::object claimed = std::move(b).freeze();
  if (!live || !*live) return {ensure_action::create, make_create(claimed), {}};
  if (!is_order_child(*live, o, owner))
    return {ensure_action::refuse, std::nullopt, refusing_to_adopt_message(desired.kind(), desired.key())};
  if (applied_fields_present(claimed, *live)) return {ensure_action::unchanged, std::nullopt, {}};
  // Forced: the create made the operator's manager own these fields already.
  return {ensure_action::apply, make_apply(claimed, write_cluster::management, true), {}};
}

}  // namespace c5c3::c5c3
