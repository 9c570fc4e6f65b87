#include "actors/c5c3/scaffold/teardown.hpp"

namespace c5c3::c5c3 {

void sweep_result::append(sweep_result&& other) {
  for (auto& w : other.writes) writes.push_back(std::move(w));
  count += other.count;
}

sweep_result sweep_order_list(const order_ref& o, const std::vector<k8s::object>& items,
                              const sweep_selector& first) {
  sweep_result out;
  for (bool first_pass : {true, false}) {
    for (auto& item : items) {
      if (!owns_order_child(item, o)) continue;
      if ((first && first(item)) != first_pass) continue;
      ++out.count;
      if (!item.terminating()) out.writes.push_back(make_delete(item));
    }
  }
  return out;
}

sweep_result sweep_order_lists(const order_ref& o, const std::vector<order_sweep>& sweeps) {
  sweep_result out;
  for (auto& sw : sweeps)
    if (sw.items) out.append(sweep_order_list(o, *sw.items, sw.first));
  return out;
}

std::vector<k8s::object> typed_items(const std::vector<k8s::object>& items, std::string_view api_version,
                                     std::string_view kind) {
  std::vector<k8s::object> out;
  out.reserve(items.size());
  for (auto& item : items) {
    if (!item.api_version().empty() && !item.kind().empty()) {
      out.push_back(item);
      continue;
    }
    auto b = item.edit();
    b.set_api_version_kind(api_version, kind);
    out.push_back(std::move(b).freeze());
  }
  return out;
}

sweep_result sweep_delivered_secret(const k8s::object* live, const order_owner& owner) {
  sweep_result out;
  if (!live || !*live || owner.uid.empty()) return out;
  auto ref = live->controller_reference();
  if (!ref || ref->uid != owner.uid) return out;
  ++out.count;
  if (!live->terminating()) out.writes.push_back(make_delete(*live, write_cluster::order));
  return out;
}

teardown_decision order_teardown(bool has_finalizer, bool control_plane_present, int remaining,
                                 bool sweep_failed) {
  if (!has_finalizer) return {};
  if (control_plane_present) {
    if (sweep_failed) return {true, false, korc_requeue_after};
    if (remaining > 0) return {true, false, korc_requeue_after};
  }
  return {true, true, std::nullopt};
}

}  // namespace c5c3::c5c3
