#include "actors/c5c3/rabbitmqvhost/delivery.hpp"

#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/backup_delivery.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::rabbitmqvhost {
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
                fmt::format("the password of generation {} is not available yet", gen), on_child_event);

  // 3. The transport URL and the source Secret with the six keys.
  const std::string username = n.broker_user(gen);
  auto url = build_transport_url_for_vhost(username, password, broker.host, broker.port, n.vhost());
  std::map<std::string, std::string> data{
      {std::string(key_transport_url), url.url},  {std::string(key_host), broker.host},
      {std::string(key_port), std::to_string(broker.port)}, {std::string(key_username), username},
      {std::string(key_password), password},      {std::string(key_vhost), n.vhost()}};
  // 4-5. The source Secret, the PushSecret stamped with the URL's hash, and
  // the Secret beside the order.
  backup_delivery_input in;
  in.order = &o.ref;
  in.owner = o.owner;
  in.order_api_version = s.order_api_version;
  in.order_kind = std::string(kind);
  in.child_namespace = cp_ns;
  in.source_name = n.source_secret();
  in.source_data = data;
  in.source = s.source_secret;
  in.push_name = n.push_secret();
  in.remote_key = n.remote_key(cp_ns);
  in.store = s.store;
  in.push_keys = push_keys();
  in.hash = url.hash;
  in.push = s.push_secret;
  in.delivered_key = {o.ref.namespace_, n.credentials_secret()};
  in.delivered_data = data;
  in.delivered = s.delivered_secret;
  in.read_by_name = s.read_by_name;
  auto backed = backup_and_deliver(in);
  p.writes = std::move(backed.writes);
  if (auto f = undelivered(backed, "credentials are", reason_waiting_for_password, in.delivered_key, requeue_after)) {
    // The PushSecret is the order's child: the event of its push wakes the order.
    if (f->reason == reason_backup_not_synced) f->requeue = on_child_event;
    return fail(f->reason, f->message, f->requeue);
  }
  const k8s::object_key delivered_key = in.delivered_key;

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
