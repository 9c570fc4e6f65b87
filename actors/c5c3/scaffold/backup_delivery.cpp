#include "actors/c5c3/scaffold/backup_delivery.hpp"

#include "actors/c5c3/scaffold/ensure_child.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3 {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view kind, std::string_view name) {
  for (auto& o : objs)
    if (o.kind() == kind && o.name() == name) return &o;
  return nullptr;
}

}  // namespace

backup_delivery_result backup_and_deliver(const backup_delivery_input& in) {
  const order_ref& o = *in.order;
  backup_delivery_result out;
  out.push_key = in.child_namespace + "/" + in.push_name;
  auto stop = [&](backup_delivery_step step, std::string message = {}) {
    out.step = step;
    out.message = std::move(message);
    return std::move(out);
  };

  // The source Secret, written whenever its data moves.
  order_secret_spec source{in.child_namespace, in.source_name, in.source_data, {}, {}};
  const k8s::object* live_source = in.source ? in.source : find_named(in.read_by_name, "Secret", in.source_name);
  auto ensured_source = ensure_order_secret(o, source, live_source, [](std::span<unsigned char>) {});
  if (ensured_source.ensure.refused()) return stop(backup_delivery_step::error, ensured_source.ensure.refusal);
  if (ensured_source.ensure.write) out.writes.push_back(*ensured_source.ensure.write);

  // The PushSecret, stamped with the document's hash; fresh once ESO pushed it.
  const k8s::object* live_push = in.push ? in.push : find_named(in.read_by_name, "PushSecret", in.push_name);
  auto stamp = stamp_order_push(live_push, in.push_keys, in.hash);
  auto push = build_push_secret(in.push_name, in.child_namespace, in.source_name, in.remote_key, in.store).edit();
  push.set_annotation(in.push_keys.hash, stamp.hash);
  push.set_annotation(in.push_keys.synced_before, stamp.synced_before);
  auto ensured_push = ensure_order_child(o, std::move(push).freeze(), live_push);
  if (ensured_push.refused()) return stop(backup_delivery_step::error, ensured_push.refusal);
  if (ensured_push.write) {
    out.writes.push_back(*ensured_push.write);
    return stop(backup_delivery_step::backup_not_synced);
  }
  if (!order_push_fresh(*live_push, in.push_keys, in.hash)) return stop(backup_delivery_step::backup_not_synced);

  // The Secret beside the order, controlled by it.
  const k8s::object* live = in.delivered;
  if (live && *live) {
    auto ref = live->controller_reference();
    if (!ref || in.owner.uid.empty() || ref->uid != in.owner.uid)
      return stop(backup_delivery_step::refused,
                  fmt::format("Secret {} exists and is not owned by this order; delete it or rename the order",
                              in.delivered_key.to_string()));
  }
  auto delivered = secret_builder(in.delivered_key.namespace_, in.delivered_key.name, in.delivered_data);
  delivered.set_label(o.keys.name, o.name);
  delivered.set_label(o.keys.namespace_, o.namespace_);
  delivered.add_owner_reference({in.order_api_version, in.order_kind, o.name, in.owner.uid, true, true});
  k8s::object desired = std::move(delivered).freeze();
  if (!live || !*live || !applied_fields_present(desired, *live)) {
    // Forced ownership is the repair of an edited key.
    out.writes.push_back(make_apply(desired, write_cluster::order, true));
    return stop(backup_delivery_step::applying);
  }
  return stop(backup_delivery_step::delivered);
}

std::optional<delivery_failure> undelivered(const backup_delivery_result& r, std::string_view what,
                                            std::string_view waiting_reason, const k8s::object_key& delivered,
                                            std::chrono::nanoseconds wait, std::string_view carried) {
  switch (r.step) {
    case backup_delivery_step::error: return delivery_failure{"DeliveryError", r.message, std::nullopt};
    case backup_delivery_step::refused: return delivery_failure{"DeliveryRefused", r.message, std::nullopt};
    case backup_delivery_step::backup_not_synced:
      return delivery_failure{"BackupNotSynced",
                              fmt::format("the {} not backed up to OpenBao yet (PushSecret {})", what, r.push_key),
                              wait};
    case backup_delivery_step::applying:
      return delivery_failure{std::string(waiting_reason),
                              fmt::format("the delivered Secret {} does not carry the current {} yet",
                                          delivered.to_string(), carried),
                              wait};
    case backup_delivery_step::delivered: break;
  }
  return std::nullopt;
}

runtime::read_slot delivered_secret_slot(const runtime::ownership_keys& keys, std::string_view suffix) {
  auto slot = runtime::named(
      "delivered", {"", "v1", "Secret"},
      [suffix = std::string(suffix)](const runtime::sense_snapshot& s) -> std::optional<runtime::locator> {
        return runtime::locator{std::nullopt, s.key.name + suffix};
      },
      keys.name);
  slot.cluster = runtime::cluster_role::order;
  slot.ns = runtime::namespace_role::order;
  slot.labelled = true;
  slot.live_before_write = true;
  return slot;
}

}  // namespace c5c3::c5c3
