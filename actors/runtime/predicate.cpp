#include "actors/runtime/predicate.hpp"

namespace c5c3::runtime {

bool cr_update_predicate(const k8s::object& old, const k8s::object& now) {
  if (!old || !now) return true;
  if (old.generation() != now.generation()) return true;
  if (old.labels() != now.labels()) return true;
  if (old.annotations() != now.annotations()) return true;
  return !old.terminating() && now.terminating();
}

}  // namespace c5c3::runtime
