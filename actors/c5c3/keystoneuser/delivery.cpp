#include "actors/c5c3/keystoneuser/delivery.hpp"

#include "actors/c5c3/korc/clouds_yaml.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/backup_delivery.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystoneuser {

delivery_plan deliver_credentials(const delivery_snapshot& s) {
  const user_order& o = *s.order;
  const k8s::object& cp = *s.control_plane;
  const order_ref& ref = o.id.ref;
  user_names n(ref);
  const std::string cp_ns(cp.namespace_());
  delivery_plan p;
  p.status = *s.status;
  auto fail = [&](std::string_view reason, std::string message, requeue r) {
    p.delivery_ready = make_condition(condition_type_delivery_ready, false, reason, message, o.id.generation);
    p.requeue = r;
    return std::move(p);
  };

  // 1. The auth URL for the order's cluster; only a ControlPlane edit publishes one.
  const std::string auth_url = korc::auth_url(cp, ref.cluster);
  if (auth_url.empty())
    return fail(reason_keystone_not_published, korc::not_published_message(cp, ref.location()), std::nullopt);

  // 2. The password of the provisioned generation.
  const std::int64_t gen = p.status.password_generation;
  std::string password;
  if (s.password_secret && *s.password_secret && owns_order_child(*s.password_secret, ref))
    password = secret_value(*s.password_secret, key_password).value_or("");
  if (password.empty())
    return fail(reason_waiting_for_service_accounts,
                fmt::format("the password of generation {} (Secret {}/{}) is not available yet", gen, cp_ns,
                            n.password(gen)),
                korc_requeue_after);

  // 3. The document and the source Secret with its six keys.
  const std::string domain = korc::admin_domain_name(cp);
  const std::string clouds = korc::build_user_clouds_yaml(cp, o.user_name, domain, password, ref.cluster);
  backup_delivery_input in;
  in.order = &ref;
  in.owner = o.id.owner;
  in.order_api_version = s.order_api_version;
  in.order_kind = std::string(kind);
  in.child_namespace = cp_ns;
  in.source_name = n.source();
  in.source_data = {{std::string(key_password), password},      {std::string(key_username), o.user_name},
                    {std::string(key_user_domain_name), domain}, {std::string(key_auth_url), auth_url},
                    {std::string(key_region_name), korc::region(cp)}, {std::string(key_clouds_yaml), clouds}};
  in.source = s.source_secret;
  // 4. The PushSecret, stamped with the document's hash.
  in.push_name = n.backup();
  in.remote_key = n.remote_key(cp_ns);
  in.store = s.store;
  in.push_keys = push_keys();
  in.hash = sha256_hex(clouds);
  in.push = s.push_secret;
  // 5-6. The Secret beside the order.
  in.delivered_key = {ref.namespace_, n.credentials()};
  in.delivered_data = {{std::string(key_clouds_yaml), clouds}, {std::string(key_password), password}};
  in.delivered = s.delivered_secret;
  in.read_by_name = s.read_by_name;
  auto backed = backup_and_deliver(in);
  p.writes = std::move(backed.writes);
  if (auto f = undelivered(backed, "password is", reason_waiting_for_service_accounts, in.delivered_key,
                           korc_requeue_after))
    return fail(f->reason, f->message, f->requeue);

  p.status.secret_name = in.delivered_key.name;
  p.status.secret_keys.assign(delivered_keys.begin(), delivered_keys.end());
  p.delivery_ready = make_condition(
      condition_type_delivery_ready, true, reason_delivered,
      fmt::format("credentials are delivered in Secret \"{}\" (keys clouds.yaml, password) in namespace \"{}\" on {}",
                  in.delivered_key.name, in.delivered_key.namespace_, ref.location()),
      o.id.generation);
  p.requeue = std::nullopt;
  return p;
}

}  // namespace c5c3::c5c3::keystoneuser
