// The clouds.yaml documents of the Keystone orders (apis.md 1.9b;
// korc_cloudsyaml.go): `clouds:` -> the quoted cloud name -> auth keys, the
// region, endpoint_type (never `interface`, which K-ORC ignores) and
// identity_api_version 3; every value Go-%q-quoted. No cacert.
#pragma once

#include "k8s/go_quote.hpp"
#include "k8s/object.hpp"

#include <string>
#include <string_view>

namespace c5c3::c5c3::korc {

// Go's %q of a string (strconv.Quote, k8s/go_quote.hpp): a double-quoted
// scalar that cannot escape its position in the document.
using k8s::go_quote;

// korcAuthURL for a document read on `cluster` ("" the management cluster):
// a Managed Keystone on that cluster is http://<cp>-keystone.<ns>.svc:5000/v3;
// on another cluster services.keystone.publicEndpoint, or
// https://<gateway.hostname>/v3, or "" (not published); External mode
// services.keystone.external.authURL.
std::string auth_url(const k8s::object& cp, std::string_view cluster);
// KeystoneNotPublished's message for an order on `location` (e.g. target
// cluster "edge-1") whose ControlPlane `cp` publishes no auth URL there.
std::string not_published_message(const k8s::object& cp, std::string_view location);
// internal for a Managed Keystone; external.endpointType (public) in External mode.
std::string endpoint_type(const k8s::object& cp);

// buildUserCloudsYAML: auth_url, username, password, user_domain_name (unscoped).
std::string build_user_clouds_yaml(const k8s::object& cp, std::string_view user_name, std::string_view domain,
                                   std::string_view password, std::string_view cluster);
// buildServiceAccountCloudsYAML: project-scoped, both domains the one domain.
std::string build_service_account_clouds_yaml(const k8s::object& cp, std::string_view user_name,
                                              std::string_view project_name, std::string_view domain,
                                              std::string_view password, std::string_view cluster);
// buildAppCredCloudsYAML: application_credential_id and _secret, auth_type
// v3applicationcredential.
std::string build_app_cred_clouds_yaml(const k8s::object& cp, std::string_view id, std::string_view secret,
                                       std::string_view cluster);

}  // namespace c5c3::c5c3::korc
