#include "actors/c5c3/korc/pass_frame.hpp"

namespace c5c3::c5c3::korc {

void swept_plan(order_pass_plan& p, sweep_result swept, bool control_plane_present) {
  auto decision = order_teardown(true, control_plane_present, swept.count);
  p.stage = pass_stage::teardown;
  p.writes = std::move(swept.writes);
  p.release_finalizer = decision.release_finalizer;
  p.requeue = decision.requeue;
}

const k8s::object* typed_secret(const k8s::object* secret, std::optional<k8s::object>& storage) {
  if (!secret || !*secret) return secret;
  storage = typed_items({*secret}, "v1", "Secret").front();
  return &*storage;
}

}  // namespace c5c3::c5c3::korc
