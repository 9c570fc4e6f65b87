#include "actors/c5c3/korc/control_plane.hpp"

namespace c5c3::c5c3::korc {
namespace {

std::string or_default(std::string_view v, std::string_view fallback) {
  return std::string(v.empty() ? fallback : v);
}

}  // namespace

k8s::gvk gvk(std::string_view kind) { return {std::string(group), "v1alpha1", std::string(kind)}; }

std::string admin_domain_name(const k8s::object& cp) {
  return or_default(cp.get_string({"spec", "korc", "adminCredential", "domainName"}), "Default");
}

std::string admin_user_name(const k8s::object& cp) {
  return or_default(cp.get_string({"spec", "korc", "adminCredential", "userName"}), "admin");
}

std::string admin_project_name(const k8s::object& cp) {
  return or_default(cp.get_string({"spec", "korc", "adminCredential", "projectName"}), "admin");
}

std::string admin_domain_ref(const k8s::object& cp) { return std::string(cp.name()) + "-domain-default"; }

std::string cloud_name(const k8s::object& cp) {
  return or_default(cp.get_string({"spec", "korc", "adminCredential", "cloudCredentialsRef", "cloudName"}), "admin");
}

std::string region(const k8s::object& cp) { return or_default(cp.get_string({"spec", "region"}), "RegionOne"); }

cloud_credentials admin_password_cloud(const k8s::object& cp) {
  return {std::string(cp.name()) + "-admin-password-cloud", cloud_name(cp)};
}

ca_bundle_ref keystone_ca_bundle(const k8s::object& cp) {
  ca_bundle_ref out;
  if (cp.get_string({"spec", "services", "keystone", "mode"}) != "External") return out;
  out.name = std::string(cp.get_string({"spec", "services", "keystone", "external", "caBundleSecretRef", "name"}));
  if (auto key = cp.get_string({"spec", "services", "keystone", "external", "caBundleSecretRef", "key"}); !key.empty())
    out.key = std::string(key);
  return out;
}

}  // namespace c5c3::c5c3::korc
