#include "actors/monitoring/cluster_meta.hpp"

#include "actors/monitoring/constants.hpp"
#include "k8s/base64.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <fmt/format.h>

namespace c5c3::monitoring {

namespace {

std::string hmac_sha256(const std::string& key, const std::string& msg) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(msg.data()),
       msg.size(), out, &len);
  return std::string(reinterpret_cast<const char*>(out), len);
}

// Go's base64.URLEncoding: the URL alphabet with padding.
std::string base64_url_padded(const std::string& raw) {
  auto s = k8s::base64_encode(raw);
  for (auto& c : s) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return s;
}

std::string data_of(const k8s::object& cm, std::string_view key) {
  return std::string(cm.get_string({"data", key}));
}

// The length of the UTF-8 sequence starting at s[i], or 0 when it is not valid.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
  return n;
}

}  // namespace

std::string go_json_string(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '<': case '>': case '&': out += fmt::format("\\u00{:02x}", c); break;
        default:
          if (c < 0x20) out += fmt::format("\\u00{:02x}", c);
          else out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    auto n = utf8_length(s, i);
    if (n == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    auto seq = s.substr(i, n);
    if (seq == "\xe2\x80\xa8") out += "\\u2028";
    else if (seq == "\xe2\x80\xa9") out += "\\u2029";
    else out.append(seq);
    i += n;
  }
  return out + "\"";
}

std::string cluster_metadata::manager() const { return manager_id.empty() || manager_id == "0" ? owner_id : manager_id; }

std::string cluster_metadata::state() const { return base64_url_padded(hmac_sha256(uid, api_endpoint + "," + manager())); }

std::string go_json(const cluster_metadata& md) {
  std::string out = "{\"uid\":" + go_json_string(md.uid);
  auto add = [&](const char* key, const std::string& v) {
    if (!v.empty()) out += std::string(",\"") + key + "\":" + go_json_string(v);
  };
  add("name", md.name);
  add("displayName", md.display_name);
  add("provider", md.provider);
  add("ownerID", md.owner_id);
  add("ownerType", md.owner_type);
  add("apiEndpoint", md.api_endpoint);
  add("caBundle", md.ca_bundle);
  add("managerID", md.manager_id);
  add("hubClusterID", md.hub_cluster_id);
  add("cloudServiceAuthMode", md.cloud_service_auth_mode);
  add("mode", md.mode);
  return out + "}";
}

std::string ace_info_mac(const cluster_metadata& md, const std::string& uid) { return hmac_sha256(uid, go_json(md)); }

std::optional<cluster_metadata> cluster_metadata_of(const k8s::object& ns, const k8s::object& cm,
                                                    const std::string& cluster_name, std::string* error) {
  if (!ns) {
    if (error) *error = "namespaces \"" + kube_system + "\" not found";
    return std::nullopt;
  }
  auto mode = std::string(ns.annotation(cluster_mode_annotation).value_or(""));
  if (mode != "prod" && mode != "qa" && mode != "staging" && mode != "dev") mode = "prod";
  const std::string uid(ns.uid());
  if (cm) {
    cluster_metadata md;
    md.uid = data_of(cm, "uid");
    md.name = data_of(cm, "name");
    md.display_name = data_of(cm, "displayName");
    md.provider = data_of(cm, "provider");
    md.owner_id = data_of(cm, "ownerID");
    md.owner_type = data_of(cm, "ownerType");
    md.api_endpoint = data_of(cm, "apiEndpoint");
    md.ca_bundle = data_of(cm, "ca.crt");
    md.cloud_service_auth_mode = data_of(cm, "cloudServiceAuthMode");
    auto mac = k8s::base64_decode(cm.get_string({"binaryData", "mac"}));
    if (mac && *mac == ace_info_mac(md, uid) && !mac->empty()) {
      if (md.name.empty()) md.name = cluster_name;
      md.mode = mode;
      return md;
    }
  }
  cluster_metadata md;
  md.uid = uid;
  md.name = std::string(ns.annotation(cluster_name_annotation).value_or(""));
  if (md.name.empty()) md.name = cluster_name;
  md.display_name = std::string(ns.annotation(cluster_display_name_annotation).value_or(""));
  md.provider = std::string(ns.annotation(cluster_provider_annotation).value_or(""));
  md.mode = mode;
  return md;
}

}  // namespace c5c3::monitoring
