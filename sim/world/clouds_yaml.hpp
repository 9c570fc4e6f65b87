// The clouds.yaml of a K-ORC cloudCredentialsRef Secret (key clouds.yaml, and
// the optional cacert beside it): the one cloud K-ORC's scope reads, and the
// document the ControlPlane stand-in writes (apis.md 1.9b: values quoted as
// Go's %q does, endpoint_type rather than interface).
#pragma once

#include "k8s/client/result.hpp"

#include <string>
#include <string_view>

namespace c5c3::sim::world {

struct cloud_config {
  std::string name;
  std::string auth_type;  // "" (password), "password", "v3password", "v3applicationcredential"
  std::string auth_url;   // http://host:port/v3
  std::string username, user_id, password, user_domain_name, user_domain_id;
  std::string project_name, project_id, project_domain_name, project_domain_id;
  std::string application_credential_id, application_credential_name, application_credential_secret;
  std::string region_name, endpoint_type;
  bool application_credential() const {
    return auth_type == "v3applicationcredential" || !application_credential_id.empty();
  }
  // Identifies the credentials (for the token cache); carries the secrets, never log it.
  std::string cache_key() const;
  friend bool operator==(const cloud_config&, const cloud_config&) = default;
};

// Cloud `name` of a clouds.yaml document. The error names the problem and
// never quotes a value of the document.
k8s::result<cloud_config, std::string> parse_clouds_yaml(std::string_view text, std::string_view name);

// The password clouds.yaml of one cloud (buildServiceAccountCloudsYAML's shape,
// values as Go's %q; project keys omitted when project_name is empty).
std::string render_password_clouds_yaml(const cloud_config& c);

}  // namespace c5c3::sim::world
