#include "sim/world/control_plane_world.hpp"

#include "sim/world/base64.hpp"
#include "sim/world/clouds_yaml.hpp"
#include "sim/world/korc_kinds.hpp"
#include "sim/world/korc_status.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {
namespace {

std::string spec_or(const k8s::object& cp, std::initializer_list<std::string_view> path, std::string_view fallback) {
  auto v = cp.get_string(path);
  return std::string(v.empty() ? fallback : v);
}

std::string auth_url_of(const k8s::object& cp, const keystone_admin& admin) {
  if (!admin.auth_url.empty()) return admin.auth_url;
  auto external = cp.get_string({"spec", "services", "keystone", "external", "authURL"});
  if (!external.empty()) return std::string(external);
  return fmt::format("http://{}-keystone.{}.svc:5000/v3", cp.name(), cp.namespace_());
}

std::string cloud_name(const k8s::object& cp) {
  return spec_or(cp, {"spec", "korc", "adminCredential", "cloudCredentialsRef", "cloudName"}, "admin");
}

void own(k8s::object_builder& b, const k8s::object& cp) {
  if (cp.uid().empty()) return;
  b.add_owner_reference({std::string(cp.api_version()), std::string(cp.kind()), std::string(cp.name()),
                         std::string(cp.uid()), true, true});
}

std::string clouds_yaml(const k8s::object& cp, const keystone_admin& admin) {
  cloud_config c;
  c.name = cloud_name(cp);
  c.auth_url = auth_url_of(cp, admin);
  c.username = spec_or(cp, {"spec", "korc", "adminCredential", "userName"}, "admin");
  c.password = admin.password;
  c.project_name = spec_or(cp, {"spec", "korc", "adminCredential", "projectName"}, "admin");
  c.user_domain_name = c.project_domain_name = spec_or(cp, {"spec", "korc", "adminCredential", "domainName"}, "Default");
  c.region_name = spec_or(cp, {"spec", "region"}, "RegionOne");
  auto external = cp.get_string({"spec", "services", "keystone", "external", "authURL"});
  c.endpoint_type = external.empty() ? "internal"
                                     : spec_or(cp, {"spec", "services", "keystone", "external", "endpointType"}, "public");
  return render_password_clouds_yaml(c);
}

k8s::object admin_cloud_secret(const k8s::object& cp, const keystone_admin& admin) {
  k8s::object_builder b("v1", "Secret", cp.namespace_(), admin_cloud_secret_name(cp.name()));
  b.set_string({"type"}, "Opaque");
  own(b, cp);
  b.set_string({"data", "clouds.yaml"}, base64_encode(clouds_yaml(cp, admin)));
  return std::move(b).freeze();
}

// The Domain import's spec.
k8s::json_value domain_spec(const k8s::object& cp, k8s::json_allocator& a) {
  k8s::object_builder b;
  b.set_string({"managementPolicy"}, "unmanaged");
  b.set_string({"import", "filter", "name"}, spec_or(cp, {"spec", "korc", "adminCredential", "domainName"}, "Default"));
  b.set_string({"cloudCredentialsRef", "secretName"}, admin_cloud_secret_name(cp.name()));
  b.set_string({"cloudCredentialsRef", "cloudName"}, cloud_name(cp));
  return k8s::copy_json(b.doc(), a);
}

}  // namespace

std::string admin_cloud_secret_name(std::string_view control_plane) {
  return std::string(control_plane) + "-admin-password-cloud";
}

std::string admin_domain_import_name(std::string_view control_plane) {
  return std::string(control_plane) + "-domain-default";
}

control_plane_plan reconcile_control_plane(const control_plane_snapshot& s) {
  control_plane_plan plan;
  const auto& cp = s.control_plane;
  if (!cp || cp.terminating()) return plan;

  auto secret = admin_cloud_secret(cp, s.admin);
  if (!s.admin_cloud) {
    plan.writes.push_back({write_verb::create, secret});
  } else if (const auto* have = s.admin_cloud.get({"data"}); !have || !k8s::json_equal(*have, *secret.get({"data"}))) {
    // Edited in place: K-ORC's deletion guards (finalizers) on it stay.
    auto b = s.admin_cloud.edit();
    b.set({"data"}, k8s::copy_json(*secret.get({"data"}), b.alloc()));
    plan.writes.push_back({write_verb::update, std::move(b).freeze()});
  }

  if (!s.domain_import) {
    k8s::object_builder b(k8s::gvk{std::string(korc_group), std::string(korc_version), "Domain"}.api_version(), "Domain",
                          cp.namespace_(), admin_domain_import_name(cp.name()));
    own(b, cp);
    b.set({"spec"}, domain_spec(cp, b.alloc()));
    plan.writes.push_back({write_verb::create, std::move(b).freeze()});
  } else {
    auto b = s.domain_import.edit();
    b.set({"spec"}, domain_spec(cp, b.alloc()));
    auto wanted = std::move(b).freeze();
    if (!k8s::json_equal(*wanted.get({"spec"}), *s.domain_import.get({"spec"})))
      plan.writes.push_back({write_verb::update, std::move(wanted)});
  }

  k8s::condition c{std::string(admin_credential_ready), "True", std::string(admin_credential_ready), "", "", cp.generation()};
  const auto domain = fmt::format("{}/{}", cp.namespace_(), admin_domain_import_name(cp.name()));
  if (s.domain_import && korc_available(s.domain_import) && s.admin_cloud) {
    c.message = fmt::format("the admin password cloud Secret {}/{} authenticates: the Domain import {} is Available",
                            cp.namespace_(), admin_cloud_secret_name(cp.name()), domain);
  } else {
    c.status = "False";
    c.reason = admin_credential_waiting;
    auto why = s.domain_import ? s.domain_import.find_condition("Progressing") : std::nullopt;
    c.message = fmt::format("waiting for the Domain import {} to become Available{}", domain,
                            why && !why->message.empty() ? ": " + why->message : std::string());
  }
  auto b = cp.edit();
  if (k8s::set_condition(b, c, s.now)) plan.writes.push_back({write_verb::update_status, std::move(b).freeze()});
  return plan;
}

}  // namespace c5c3::sim::world
