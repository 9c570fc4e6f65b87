#include "actors/c5c3/keystoneapplicationcredential/mint_cloud.hpp"

#include "actors/c5c3/korc/clouds_yaml.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "actors/c5c3/scaffold/status_fields.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystoneapplicationcredential {

std::string keystone_user_name(const k8s::object& user) {
  auto name = user.get_string({"spec", "userName"});
  return std::string(name.empty() ? user.name() : name);
}

std::string keystone_project_name(const k8s::object& project) { return status_string(project, "projectName"); }

mint_cloud_result ensure_mint_cloud(const mint_cloud_input& in) {
  const credential_order& o = *in.order;
  const k8s::object& cp = *in.control_plane;
  const std::string ns(cp.namespace_());
  mint_cloud_result out;
  auto wait = [&](std::string_view reason, std::string message) {
    out.reason = std::string(reason);
    out.message = std::move(message);
    out.requeue = korc_requeue_after;
    return std::move(out);
  };

  const std::string project_name = keystone_project_name(*in.project);
  if (project_name.empty())
    return wait(reason_waiting_for_project,
                fmt::format("KeystoneProject \"{}\" reports no project name yet", o.project_ref));

  const std::int64_t gen = status_int(*in.user, "passwordGeneration");
  const auto user_children = user_children_of(in.user->name(), o.id.ref.namespace_, o.id.ref.cluster, gen);
  std::string password;
  if (in.password_secret && *in.password_secret) password = secret_value(*in.password_secret, "password").value_or("");
  if (password.empty())
    return wait(reason_waiting_for_user,
                fmt::format("the password of generation {} of KeystoneUser \"{}\" is not available yet (Secret {}/{})",
                            gen, o.user_ref, ns, user_children.password_secret));

  const auto ca = korc::keystone_ca_bundle(cp);
  std::string bundle;
  if (!ca.name.empty()) {
    if (in.ca_bundle_secret && *in.ca_bundle_secret) bundle = secret_value(*in.ca_bundle_secret, ca.key).value_or("");
    if (bundle.empty())
      return wait(reason_waiting_for_ca_bundle,
                  fmt::format("the CA bundle Secret referenced by {} of ControlPlane {}/{} (Secret {}/{}, key {}) is "
                              "not yet available; the credential is not minted",
                              korc::ca_bundle_field, ns, cp.name(), ns, ca.name, ca.key));
  }

  const credential_names n(o.id.ref);
  order_secret_spec spec{ns, n.mint_cloud(), {}, {}, {}, {}};
  spec.set[std::string(key_clouds_yaml)] = korc::build_service_account_clouds_yaml(
      cp, keystone_user_name(*in.user), project_name, korc::admin_domain_name(cp), password, management_cluster);
  if (bundle.empty())
    spec.dropped.emplace_back(korc::cacert_key);
  else
    spec.set[std::string(korc::cacert_key)] = bundle;
  auto ensured = ensure_order_secret(o.id.ref, spec, in.mint_cloud, [](std::span<unsigned char>) {});
  if (ensured.ensure.refused()) {
    out.reason = std::string(reason_credential_error);
    out.message = fmt::format("ensuring the mint document {}/{}: {}", ns, n.mint_cloud(), ensured.ensure.refusal);
    return out;
  }
  out.write = ensured.ensure.write;
  out.ready = true;
  return out;
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
