#include "actors/runtime/predicate.hpp"

#include <cstddef>
#include <string_view>

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

// Whether the members of `a` and `b` differ, `skip` left out.
bool members_differ(const k8s::json_value& a, const k8s::json_value& b, std::string_view skip) {
  if (!a.IsObject() || !b.IsObject()) return !k8s::json_equal(a, b);
  std::size_t na = 0;
  for (const auto& m : a.GetObject()) {
    const auto name = k8s::as_string_view(m.name);
    if (name == skip) continue;
    ++na;
    const auto* other = k8s::member(b, name);
    if (!other) return true;
    if (name == "metadata" ? members_differ(m.value, *other, "resourceVersion") : !k8s::json_equal(m.value, *other))
      return true;
  }
  std::size_t nb = 0;
  for (const auto& m : b.GetObject())
    if (k8s::as_string_view(m.name) != skip) ++nb;
  return na != nb;
}

}  // namespace

bool changed_beyond_version(const k8s::object& old, const k8s::object& now) {
  if (!old || !now) return true;
  return members_differ(old.json(), now.json(), {});
}

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
