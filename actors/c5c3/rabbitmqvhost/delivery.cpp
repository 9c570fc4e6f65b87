#include "actors/c5c3/rabbitmqvhost/delivery.hpp"

#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"
#include "actors/c5c3/scaffold/order_push.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::rabbitmqvhost {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view kind, std::string_view name) {
  for (auto& o : objs)
    if (o.kind() == kind && o.name() == name) return &o;
  return nullptr;
}

}  // namespace

std::string escape_userinfo(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("-_.~$&+,;=").find(static_cast<char>(c)) != std::string_view::npos;
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string join_host_port(std::string_view host, std::int32_t port) {
  if (host.find(':') != std::string_view::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

transport_url build_transport_url_for_vhost(std::string_view username, std::string_view password,
                                            std::string_view host, std::int32_t port, std::string_view vhost) {
  transport_url out;
  out.url = fmt::format("rabbit://{}:{}@{}/{}", escape_userinfo(username), escape_userinfo(password),
                        join_host_port(host, port), vhost);
  out.hash = sha256_hex(out.url);
  return out;
}

k8s::object build_push_secret(std::string_view name, std::string_view namespace_, std::string_view source,
                              std::string_view remote_key, const secret_store_state& store) {
  k8s::object_builder b("external-secrets.io/v1alpha1", "PushSecret", namespace_, name);
  auto& a = b.alloc();
  b.set_string({"spec", "deletionPolicy"}, "Delete");
  k8s::json_value ref(rapidjson::kObjectType);
  ref.AddMember("name", k8s::make_string(store.name, a), a);
  ref.AddMember("kind", k8s::make_string(store.kind, a), a);
  k8s::json_value refs(rapidjson::kArrayType);
  refs.PushBack(std::move(ref), a);
  b.set({"spec", "secretStoreRefs"}, std::move(refs));
  b.set_string({"spec", "selector", "secret", "name"}, source);
  k8s::json_value remote(rapidjson::kObjectType);
  remote.AddMember("remoteKey", k8s::make_string(remote_key, a), a);
  k8s::json_value match(rapidjson::kObjectType);
  match.AddMember("remoteRef", std::move(remote), a);
  k8s::json_value entry(rapidjson::kObjectType);
  entry.AddMember("match", std::move(match), a);
  k8s::json_value data(rapidjson::kArrayType);
  data.PushBack(std::move(entry), a);
  b.set({"spec", "data"}, std::move(data));
  return std::move(b).freeze();
}

delivery_plan deliver_credentials(const delivery_snapshot& s) {
  const vhost_order& o = *s.order;
  const k8s::object& cp = *s.control_plane;
  vhost_names n(o.ref);
  const std::string cp_ns(cp.namespace_());
  delivery_plan p;
  p.status = *s.status;
  auto fail = [&](std::string_view reason, std::string message, requeue r) {
    p.delivery_ready = make_condition(condition_type_delivery_ready, false, reason, message, o.generation);
    p.requeue = r;
    return std::move(p);
  };

  // 1. The broker address for the order's cluster (rabbitMQVhostEndpoint):
  // in-cluster on the management cluster, published elsewhere.
  broker_address broker{s.in_cluster_host, s.in_cluster_port};
  if (!o.ref.cluster.empty()) {
    auto published = published_broker_endpoint(cp, o.ref.cluster, s.in_cluster_host);
    if (published.problem == published_problem::not_published)
      return fail(reason_messaging_not_published, std::move(published.message), std::nullopt);
    if (published.problem == published_problem::invalid)
      return fail(reason_delivery_error, std::move(published.message), std::nullopt);
    broker = std::move(published.address);
  } else if (broker.port <= 0 || broker.port > 65535) {
    return fail(reason_delivery_error,
                fmt::format("the in-cluster broker of ControlPlane {}/{} has no port between 1 and 65535", cp_ns,
                            cp.name()),
                std::nullopt);
  }

  // 2. The password of the live generation.
  const std::int64_t gen = p.status.password_generation;
  if (gen == 0)
    return fail(reason_waiting_for_password, "no user generation of the vhost is provisioned yet", std::nullopt);
  std::string password;
  if (s.password_secret && *s.password_secret && owns_order_child(*s.password_secret, o.ref))
    password = secret_value(*s.password_secret, key_password).value_or("");
  if (password.empty())
    return fail(reason_waiting_for_password,
                fmt::format("the password of generation {} is not available yet", gen), requeue_after);

  // 3. The transport URL and the source Secret with the six keys.
  const std::string username = n.broker_user(gen);
  auto url = build_transport_url_for_vhost(username, password, broker.host, broker.port, n.vhost());
  std::map<std::string, std::string> data{
      {std::string(key_transport_url), url.url},  {std::string(key_host), broker.host},
      {std::string(key_port), std::to_string(broker.port)}, {std::string(key_username), username},
      {std::string(key_password), password},      {std::string(key_vhost), n.vhost()}};
  order_secret_spec source{cp_ns, n.source_secret(), data, {}, {}};
  const k8s::object* live_source =
      s.source_secret ? s.source_secret : find_named(s.read_by_name, "Secret", source.name);
  auto ensured_source = ensure_order_secret(o.ref, source, live_source, [](std::span<unsigned char>) {});
  if (ensured_source.ensure.refused())
    return fail(reason_delivery_error, ensured_source.ensure.refusal, std::nullopt);
  if (ensured_source.ensure.write) p.writes.push_back(*ensured_source.ensure.write);

  // 4. The PushSecret, stamped with the URL's hash.
  const std::string push_key = cp_ns + "/" + n.push_secret();
  const k8s::object* live_push = s.push_secret ? s.push_secret : find_named(s.read_by_name, "PushSecret", n.push_secret());
  auto stamp = stamp_order_push(live_push, push_keys(), url.hash);
  auto push = build_push_secret(n.push_secret(), cp_ns, n.source_secret(), n.remote_key(cp_ns), s.store).edit();
  push.set_annotation(annotation_push_hash, stamp.hash);
  push.set_annotation(annotation_push_synced_before, stamp.synced_before);
  auto ensured_push = ensure_order_child(o.ref, std::move(push).freeze(), live_push);
  if (ensured_push.refused()) return fail(reason_delivery_error, ensured_push.refusal, std::nullopt);
  const std::string not_synced =
      fmt::format("the credentials are not backed up to OpenBao yet (PushSecret {})", push_key);
  if (ensured_push.write) {
    p.writes.push_back(*ensured_push.write);
    return fail(reason_backup_not_synced, not_synced, requeue_after);
  }
  if (!order_push_fresh(*live_push, push_keys(), url.hash)) return fail(reason_backup_not_synced, not_synced, requeue_after);

  // 5. The Secret beside the order, controlled by it.
  const k8s::object_key delivered_key{o.ref.namespace_, n.credentials_secret()};
  const k8s::object* live = s.delivered_secret;
  if (live && *live) {
    auto ref = live->controller_reference();
    if (!ref || o.owner.uid.empty() || ref->uid != o.owner.uid)
      return fail(reason_delivery_refused,
                  fmt::format("Secret {} exists and is not owned by this order; delete it or rename the order",
                              delivered_key.to_string()),
                  std::nullopt);
  }
  auto delivered = secret_builder(delivered_key.namespace_, delivered_key.name, data);
  delivered.set_label(o.ref.keys.name, o.ref.name);
  delivered.set_label(o.ref.keys.namespace_, o.ref.namespace_);
  delivered.add_owner_reference({s.order_api_version, std::string(kind), o.ref.name, o.owner.uid, true, true});
  k8s::object desired = std::move(delivered).freeze();
  if (!live || !*live || !applied_fields_present(desired, *live)) {
    // Forced ownership is the repair of an edited key.
    p.writes.push_back(make_apply(desired, write_cluster::order, true));
    return fail(reason_waiting_for_password, "the delivered Secret does not carry the current password yet",
                requeue_after);
  }

  // 6. Delivered.
  p.status.host = broker.host;
  p.status.port = broker.port;
  p.status.secret_name = delivered_key.name;
  p.status.secret_keys.assign(secret_keys.begin(), secret_keys.end());
  p.delivery_ready = make_condition(
      condition_type_delivery_ready, true, reason_delivered,
      fmt::format("credentials are delivered in Secret \"{}\" (keys {}) in namespace \"{}\" on {}", delivered_key.name,
                  fmt::join(secret_keys, ", "), delivered_key.namespace_, o.ref.location()),
      o.generation);
  p.requeue = std::nullopt;
  return p;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
