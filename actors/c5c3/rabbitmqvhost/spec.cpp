#include "actors/c5c3/rabbitmqvhost/spec.hpp"

#include "actors/c5c3/scaffold/admission.hpp"
#include "actors/c5c3/scaffold/rotation.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace c5c3::c5c3::rabbitmqvhost {
namespace {

std::optional<k8s::time_point> time_at(const k8s::object& o, std::string_view field) {
  auto s = o.get_string({"status", field});
  if (s.empty()) return std::nullopt;
  return k8s::parse_rfc3339(s);
}

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

std::string vhost_spec::topology_deletion_policy() const {
  std::string out = deletion_policy;
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

vhost_spec resolve_spec(const k8s::object& order) {
  vhost_spec s;
  s.control_plane_name = order.get_string({"spec", "controlPlaneRef", "name"});
  s.control_plane_namespace = order.get_string({"spec", "controlPlaneRef", "namespace"});
  s.password_generation = std::max<std::int64_t>(int_at(order, {"spec", "passwordGeneration"}), 1);
  const auto rotation = rotation_of(order);
  s.interval = rotation.interval;
  s.grace_period = rotation.grace_period;
  if (auto p = order.get_string({"spec", "deletionPolicy"}); !p.empty()) s.deletion_policy = p;
  return s;
}

vhost_status read_status(const k8s::object& order) {
  vhost_status s;
  s.observed_generation = int_at(order, {"status", "observedGeneration"});
  s.vhost = order.get_string({"status", "vhost"});
  s.username = order.get_string({"status", "username"});
  s.host = order.get_string({"status", "host"});
  s.port = static_cast<std::int32_t>(int_at(order, {"status", "port"}));
  s.password_generation = int_at(order, {"status", "passwordGeneration"});
  s.last_rotation = time_at(order, "lastRotation");
  s.next_rotation = time_at(order, "nextRotation");
  s.previous_password_generation = int_at(order, {"status", "previousPasswordGeneration"});
  s.previous_password_delete_at = time_at(order, "previousPasswordDeleteAt");
  s.secret_name = order.get_string({"status", "secretName"});
  if (const auto* keys = order.get({"status", "secretKeys"}); keys && keys->IsArray())
    for (auto& k : keys->GetArray())
      if (k.IsString()) s.secret_keys.emplace_back(k8s::as_string_view(k));
  return s;
}

void write_status(k8s::object_builder& b, const vhost_status& s) {
  auto str = [&](std::string_view field, std::string_view v) {
    if (v.empty()) b.remove({"status", field});
    else b.set_string({"status", field}, v);
  };
  auto num = [&](std::string_view field, std::int64_t v) {
    if (v == 0) b.remove({"status", field});
    else b.set_int({"status", field}, v);
  };
  auto time = [&](std::string_view field, const std::optional<k8s::time_point>& t) {
    if (!t) b.remove({"status", field});
    else b.set_string({"status", field}, k8s::format_rfc3339(*t));
  };
  num("observedGeneration", s.observed_generation);
  str("vhost", s.vhost);
  str("username", s.username);
  str("host", s.host);
  num("port", s.port);
  num("passwordGeneration", s.password_generation);
  time("lastRotation", s.last_rotation);
  time("nextRotation", s.next_rotation);
  num("previousPasswordGeneration", s.previous_password_generation);
  time("previousPasswordDeleteAt", s.previous_password_delete_at);
  str("secretName", s.secret_name);
  if (s.secret_keys.empty()) {
    b.remove({"status", "secretKeys"});
  } else {
    k8s::json_value arr(rapidjson::kArrayType);
    for (auto& k : s.secret_keys) arr.PushBack(k8s::make_string(k, b.alloc()), b.alloc());
    b.set({"status", "secretKeys"}, std::move(arr));
  }
}

order_ref make_order_ref(std::string_view name, std::string_view namespace_, std::string_view cluster) {
  return {std::string(name), std::string(namespace_), std::string(cluster), std::string(segment), label_keys()};
}

vhost_order make_vhost_order(const k8s::object& order, std::string_view cluster) {
  vhost_order o;
  o.ref = make_order_ref(order.name(), order.namespace_(), cluster);
  o.owner.uid = order.uid();
  o.generation = order.generation();
  o.spec = resolve_spec(order);
  o.status = read_status(order);
  o.control_plane_key =
      order_control_plane_key(o.spec.control_plane_namespace, o.spec.control_plane_name, order.namespace_());
  return o;
}

vhost_names::vhost_names(const order_ref& ref) : prefix(ref.child_prefix()), order_name(ref.name) {}

std::string vhost_names::vhost() const { return prefix.substr(0, prefix.size() - std::string_view("-vhost-").size()); }
std::string vhost_names::password_secret(std::int64_t gen) const { return password_prefix() + std::to_string(gen); }
std::string vhost_names::user(std::int64_t gen) const { return user_prefix() + std::to_string(gen); }
std::string vhost_names::permission(std::int64_t gen) const { return permission_prefix() + std::to_string(gen); }
std::string vhost_names::broker_user(std::int64_t gen) const { return vhost() + "-v" + std::to_string(gen); }

std::string vhost_names::remote_key(std::string_view control_plane_namespace) const {
  return "openstack/rabbitmq/" + std::string(control_plane_namespace) + "/" + prefix.substr(0, prefix.size() - 1) +
         "/credentials";
}

}  // namespace c5c3::c5c3::rabbitmqvhost
