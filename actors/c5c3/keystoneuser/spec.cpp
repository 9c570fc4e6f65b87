#include "actors/c5c3/keystoneuser/spec.hpp"

namespace c5c3::c5c3::keystoneuser {
namespace {

std::int64_t int_at(const k8s::object& o, std::initializer_list<std::string_view> path) {
  const auto* v = o.get(path);
  return v && v->IsInt64() ? v->GetInt64() : 0;
}

}  // namespace

order_label_keys label_keys() {
  return {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
}

push_annotation_keys push_keys() {
  return {std::string(annotation_push_hash), std::string(annotation_push_synced_before)};
}

user_status read_status(const k8s::object& order) {
  user_status s;
  s.observed_generation = int_at(order, {"status", "observedGeneration"});
  s.user_id = order.get_string({"status", "userID"});
  s.password_generation = int_at(order, {"status", "passwordGeneration"});
  if (auto t = order.get_string({"status", "lastPasswordRotation"}); !t.empty())
    s.last_password_rotation = k8s::parse_rfc3339(t);
  s.secret_name = order.get_string({"status", "secretName"});
  if (const auto* keys = order.get({"status", "secretKeys"}); keys && keys->IsArray())
    for (auto& k : keys->GetArray())
      if (k.IsString()) s.secret_keys.emplace_back(k8s::as_string_view(k));
  return s;
}

void write_status(k8s::object_builder& b, const user_status& s) {
  auto set_or_remove = [&b](std::string_view field, std::string_view v) {
    if (v.empty())
      b.remove({"status", field});
    else
      b.set_string({"status", field}, v);
  };
  auto int_or_remove = [&b](std::string_view field, std::int64_t v) {
    if (v == 0)
      b.remove({"status", field});
    else
      b.set_int({"status", field}, v);
  };
  int_or_remove("observedGeneration", s.observed_generation);
  set_or_remove("userID", s.user_id);
  int_or_remove("passwordGeneration", s.password_generation);
  set_or_remove("lastPasswordRotation",
                s.last_password_rotation ? k8s::format_rfc3339(*s.last_password_rotation) : std::string());
  set_or_remove("secretName", s.secret_name);
  if (s.secret_keys.empty()) {
    b.remove({"status", "secretKeys"});
  } else {
    k8s::json_value keys(rapidjson::kArrayType);
    for (const auto& k : s.secret_keys) keys.PushBack(k8s::make_string(k, b.alloc()), b.alloc());
    b.set({"status", "secretKeys"}, std::move(keys));
  }
}

user_order make_user_order(const k8s::object& order, std::string_view cluster) {
  user_order o;
  o.id = korc::identity_of(order, cluster, segment, label_keys());
  auto name = order.get_string({"spec", "userName"});
  o.user_name = std::string(name.empty() ? order.name() : name);
  o.password_generation = std::max<std::int64_t>(int_at(order, {"spec", "passwordGeneration"}), 1);
  o.status = read_status(order);
  return o;
}

user_names::user_names(const order_ref& ref) : prefix(ref.child_prefix()), order_name(ref.name) {}

std::string user_names::remote_key(std::string_view control_plane_namespace) const {
  return "openstack/keystone/" + std::string(control_plane_namespace) + "/" + prefix.substr(0, prefix.size() - 1) +
         "/service-accounts/credentials";
}

}  // namespace c5c3::c5c3::keystoneuser
