#include "sim/world/clouds_yaml.hpp"

#include "k8s/yaml.hpp"
#include "sim/validation/go_format.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {
namespace {

using validation::go_quote;

std::string str(const k8s::json_value& v, std::string_view key) {
  const auto* m = k8s::member(v, key);
  if (!m) return {};
  if (m->IsString()) return std::string(k8s::as_string_view(*m));
  if (m->IsInt64()) return std::to_string(m->GetInt64());
  return {};
}

}  // namespace

std::string cloud_config::cache_key() const {
  return fmt::format("{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}", auth_url, username, user_id, password,
                     user_domain_name, user_domain_id, project_name, project_id, project_domain_name,
                     project_domain_id, application_credential_id, application_credential_name,
                     application_credential_secret);
}

k8s::result<cloud_config, std::string> parse_clouds_yaml(std::string_view text, std::string_view name) {
  std::string err;
  auto doc = k8s::yaml_to_json(text, &err);
  if (!doc) return k8s::fail("clouds.yaml does not parse as YAML");
  const auto* clouds = k8s::find(*doc, {"clouds"});
  if (!clouds || !clouds->IsObject()) return k8s::fail("clouds.yaml has no clouds mapping");
  const auto* cloud = k8s::member(*clouds, name);
  if (!cloud || !cloud->IsObject()) return k8s::fail(fmt::format("cloud {} does not exist in clouds.yaml", name));
  cloud_config c;
  c.name = std::string(name);
  c.auth_type = str(*cloud, "auth_type");
  c.region_name = str(*cloud, "region_name");
  c.endpoint_type = str(*cloud, "endpoint_type");
  const auto* auth = k8s::member(*cloud, "auth");
  if (!auth || !auth->IsObject()) return k8s::fail(fmt::format("cloud {} in clouds.yaml has no auth", name));
  c.auth_url = str(*auth, "auth_url");
  c.username = str(*auth, "username");
  c.user_id = str(*auth, "user_id");
  c.password = str(*auth, "password");
  c.user_domain_name = str(*auth, "user_domain_name");
  c.user_domain_id = str(*auth, "user_domain_id");
  c.project_name = str(*auth, "project_name");
  c.project_id = str(*auth, "project_id");
  c.project_domain_name = str(*auth, "project_domain_name");
  c.project_domain_id = str(*auth, "project_domain_id");
  c.application_credential_id = str(*auth, "application_credential_id");
  c.application_credential_name = str(*auth, "application_credential_name");
  c.application_credential_secret = str(*auth, "application_credential_secret");
  if (c.auth_url.empty()) return k8s::fail(fmt::format("cloud {} in clouds.yaml has no auth.auth_url", name));
  if (c.application_credential()) {
    if (c.application_credential_secret.empty())
      return k8s::fail(fmt::format("cloud {} in clouds.yaml has no auth.application_credential_secret", name));
  } else if ((c.username.empty() && c.user_id.empty()) || c.password.empty()) {
    return k8s::fail(fmt::format("cloud {} in clouds.yaml needs auth.username and auth.password", name));
  }
  return c;
}

std::string render_password_clouds_yaml(const cloud_config& c) {
  std::string auth = fmt::format("      auth_url: {}\n      username: {}\n      password: {}\n", go_quote(c.auth_url),
                                 go_quote(c.username), go_quote(c.password));
  if (!c.project_name.empty()) auth += fmt::format("      project_name: {}\n", go_quote(c.project_name));
  auth += fmt::format("      user_domain_name: {}\n", go_quote(c.user_domain_name));
  if (!c.project_name.empty()) auth += fmt::format("      project_domain_name: {}\n", go_quote(c.project_domain_name));
  return fmt::format("clouds:\n  {}:\n    auth:\n{}    region_name: {}\n    endpoint_type: {}\n"
                     "    identity_api_version: 3\n",
                     go_quote(c.name), auth, go_quote(c.region_name), c.endpoint_type);
}

}  // namespace c5c3::sim::world
