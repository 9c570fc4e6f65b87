#include "actors/runtime/predicate.hpp"

namespace c5c3::runtime {

namespace {

// Whether a member outside metadata and status differs (a Secret's data or
// type, a Namespace's spec).
bool content_changed(const k8s::json_value& a, const k8s::json_value& b) {
  auto differs_from = [](const k8s::json_value& x, const k8s::json_value& y) {
    if (!x.IsObject()) return false;
    for (const auto& m : x.GetObject()) {
      const auto name = k8s::as_string_view(m.name);
      if (name == "metadata" || name == "status") continue;
      const auto* other = k8s::member(y, name);
      if (!other || !k8s::json_equal(m.value, *other)) return true;
    }
    return false;
  };
  return differs_from(a, b) || differs_from(b, a);
}

}  // namespace

bool cr_update_predicate(const k8s::object& old, const k8s::object& now) {
  if (!old || !now) return true;
  if (old.generation() != now.generation()) return true;
  // A kind whose server tracks no generation (core kinds: a Secret, a
  // Namespace): a change of its content is what a generation would count.
  if (now.generation() == 0 && content_changed(old.json(), now.json())) return true;
  if (old.labels() != now.labels()) return true;
  if (old.annotations() != now.annotations()) return true;
  return !old.terminating() && now.terminating();
}

}  // namespace c5c3::runtime
