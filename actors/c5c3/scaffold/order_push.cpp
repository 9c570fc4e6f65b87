#include "actors/c5c3/scaffold/order_push.hpp"

namespace c5c3::c5c3 {

bool external_secrets_ready(const k8s::object& obj) {
  auto c = obj.find_condition("Ready");
  return c && c->is_true();
}

push_stamp stamp_order_push(const k8s::object* live, const push_annotation_keys& keys, std::string_view hash) {
  if (live && *live && live->annotation(keys.hash).value_or("") == hash && live->annotation(keys.hash))
    return {std::string(hash), std::string(live->annotation(keys.synced_before).value_or("")), false};
  std::string before;
  if (live && *live) before = live->get_string({"status", "syncedResourceVersion"});
  return {std::string(hash), std::move(before), true};
}

bool order_push_fresh(const k8s::object& live, const push_annotation_keys& keys, std::string_view hash) {
  if (!external_secrets_ready(live)) return false;
  auto stamped = live.annotation(keys.hash);
  if (!stamped || *stamped != hash) return false;
  return live.get_string({"status", "syncedResourceVersion"}) !=
         live.annotation(keys.synced_before).value_or("");
}

}  // namespace c5c3::c5c3
