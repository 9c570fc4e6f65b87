#include "actors/c5c3/keystoneapplicationcredential/delivery.hpp"

#include "actors/c5c3/korc/clouds_yaml.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/backup_delivery.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "actors/c5c3/scaffold/secret_store.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystoneapplicationcredential {

k8s::condition not_minted_yet(std::int64_t generation) {
  return make_condition(condition_type_delivery_ready, false, reason_waiting_for_credential,
                        "the credential is not minted yet; nothing is delivered", generation);
}

delivery_plan deliver_credential(const delivery_snapshot& s) {
  const credential_order& o = *s.order;
  const k8s::object& cp = *s.control_plane;
  const order_ref& ref = o.id.ref;
  const credential_names n(ref);
  const std::string cp_ns(cp.namespace_());
  delivery_plan p;
  p.status = *s.status;
  auto fail = [&](std::string_view reason, std::string message, requeue r) {
    p.delivery_ready = make_condition(condition_type_delivery_ready, false, reason, message, o.id.generation);
    p.requeue = r;
    return std::move(p);
  };

  // The document is read on the order's cluster; only a ControlPlane edit
  // publishes an endpoint, so there is no requeue.
  const std::string auth_url = korc::auth_url(cp, ref.cluster);
  if (auth_url.empty())
    return fail(reason_keystone_not_published, korc::not_published_message(cp, ref.location()), std::nullopt);

  // The live generation's secret.
  const std::string& id = p.status.credential_id;
  std::string secret;
  if (!id.empty() && s.value_secret && *s.value_secret && owns_order_child(*s.value_secret, ref))
    secret = secret_value(*s.value_secret, key_value).value_or("");
  if (secret.empty()) {
    p.delivery_ready = not_minted_yet(o.id.generation);
    return p;
  }

  const std::string clouds = korc::build_app_cred_clouds_yaml(cp, id, secret, ref.cluster);
  backup_delivery_input in;
  in.order = &ref;
  in.owner = o.id.owner;
  in.order_api_version = s.order_api_version;
  in.order_kind = std::string(kind);
  in.child_namespace = cp_ns;
  in.source_name = n.source();
  in.source_data = {{std::string(key_clouds_yaml), clouds},
                    {std::string(key_application_credential_id), id},
                    {std::string(key_application_credential_secret), secret},
                    {std::string(key_auth_url), auth_url},
                    {std::string(key_region_name), korc::region(cp)}};
  in.source = s.source_secret;
  in.push_name = n.backup();
  in.remote_key = n.remote_key(cp_ns);
  const auto store = control_plane_store_ref(cp);
  in.store = {store.kind, store.name, true};
  in.push_keys = push_keys();
  in.hash = sha256_hex(clouds);
  in.push = s.push_secret;
  in.delivered_key = {ref.namespace_, n.credentials()};
  in.delivered_data = {{std::string(key_clouds_yaml), clouds},
                       {std::string(key_application_credential_id), id},
                       {std::string(key_application_credential_secret), secret}};
  in.delivered = s.delivered_secret;
  in.read_by_name = s.read_by_name;
  auto backed = backup_and_deliver(in);
  p.writes = std::move(backed.writes);
  if (auto f = undelivered(backed, "credential is", reason_waiting_for_credential, in.delivered_key,
                           korc_requeue_after, "credential"))
    return fail(f->reason, f->message, f->requeue);

  p.status.secret_name = in.delivered_key.name;
  p.status.secret_keys.assign(delivered_keys.begin(), delivered_keys.end());
  p.delivery_ready = make_condition(
      condition_type_delivery_ready, true, reason_delivered,
      fmt::format("credentials are delivered in Secret \"{}\" (keys clouds.yaml, application_credential_id, "
                  "application_credential_secret) in namespace \"{}\" on {}",
                  in.delivered_key.name, in.delivered_key.namespace_, ref.location()),
      o.id.generation);
  p.requeue = std::nullopt;
  return p;
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
