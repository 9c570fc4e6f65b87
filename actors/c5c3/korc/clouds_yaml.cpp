#include "actors/c5c3/korc/clouds_yaml.hpp"

#include "actors/c5c3/korc/control_plane.hpp"
#include "k8s/go_quote.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::korc {
namespace {

std::string_view keystone_mode(const k8s::object& cp) {
  auto m = cp.get_string({"spec", "services", "keystone", "mode"});
  return m.empty() ? std::string_view("Managed") : m;
}

std::string header(const k8s::object& cp) { return fmt::format("clouds:\n  {}:\n    auth:\n", go_quote(cloud_name(cp))); }

std::string footer(const k8s::object& cp) {
  return fmt::format("    region_name: {}\n    endpoint_type: {}\n    identity_api_version: 3\n", go_quote(region(cp)),
                     endpoint_type(cp));
}

}  // namespace

std::string auth_url(const k8s::object& cp, std::string_view cluster) {
  if (keystone_mode(cp) == "External")
    return std::string(cp.get_string({"spec", "services", "keystone", "external", "authURL"}));
  auto keystone_cluster = cp.get_string({"spec", "services", "keystone", "targetClusterRef", "name"});
  if (keystone_cluster == cluster)
    return fmt::format("http://{}-keystone.{}.svc:5000/v3", cp.name(), cp.namespace_());
  if (auto pub = cp.get_string({"spec", "services", "keystone", "publicEndpoint"}); !pub.empty())
    return std::string(pub);
  if (auto host = cp.get_string({"spec", "services", "keystone", "gateway", "hostname"}); !host.empty())
    return fmt::format("https://{}/v3", host);
  return {};
}

std::string endpoint_type(const k8s::object& cp) {
  if (keystone_mode(cp) != "External") return "internal";
  auto t = cp.get_string({"spec", "services", "keystone", "external", "endpointType"});
  return t.empty() ? "public" : std::string(t);
}

std::string build_user_clouds_yaml(const k8s::object& cp, std::string_view user_name, std::string_view domain,
                                   std::string_view password, std::string_view cluster) {
  return header(cp) +
         fmt::format("      auth_url: {}\n      username: {}\n      password: {}\n      user_domain_name: {}\n",
                     go_quote(auth_url(cp, cluster)), go_quote(user_name), go_quote(password), go_quote(domain)) +
         footer(cp);
}

std::string build_service_account_clouds_yaml(const k8s::object& cp, std::string_view user_name,
                                              std::string_view project_name, std::string_view domain,
                                              std::string_view password, std::string_view cluster) {
  return header(cp) +
         fmt::format("      auth_url: {}\n      username: {}\n      password: {}\n      project_name: {}\n"
                     "      user_domain_name: {}\n      project_domain_name: {}\n",
                     go_quote(auth_url(cp, cluster)), go_quote(user_name), go_quote(password),
                     go_quote(project_name), go_quote(domain), go_quote(domain)) +
         footer(cp);
}

std::string build_app_cred_clouds_yaml(const k8s::object& cp, std::string_view id, std::string_view secret,
                                       std::string_view cluster) {
  return header(cp) +
         fmt::format("      auth_url: {}\n      application_credential_id: {}\n"
                     "      application_credential_secret: {}\n    auth_type: v3applicationcredential\n",
                     go_quote(auth_url(cp, cluster)), go_quote(id), go_quote(secret)) +
         footer(cp);
}

std::string not_published_message(const k8s::object& cp, std::string_view location) {
  return fmt::format("the order lives on {}, which cannot reach the in-cluster Keystone Service; set "
                     "spec.services.keystone.publicEndpoint or spec.services.keystone.gateway on "
                     "ControlPlane {}/{}",
                     location, cp.namespace_(), cp.name());
}

}  // namespace c5c3::c5c3::korc
