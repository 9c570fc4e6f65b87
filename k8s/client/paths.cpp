#include "k8s/client/paths.hpp"

namespace c5c3::k8s {

std::string group_version_path(std::string_view group, std::string_view version) {
  if (group.empty()) return "/api/" + std::string(version);
  return "/apis/" + std::string(group) + "/" + std::string(version);
}

std::string resource_path(const api_resource& r, std::string_view ns, std::string_view name,
                          std::string_view subresource) {
  std::string p = group_version_path(r.group, r.version);
  if (r.namespaced && !ns.empty()) {
    p += "/namespaces/";
    p += ns;
  }
  p += "/";
  p += r.plural;
  if (!name.empty()) {
    p += "/";
    p += name;
    if (!subresource.empty()) {
      p += "/";
      p += subresource;
    }
  }
  return p;
}

std::string query_escape(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string query_string(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string q;
  for (const auto& [k, v] : params) {
    if (v.empty()) continue;
    q += q.empty() ? '?' : '&';
    q += query_escape(k);
    q += '=';
    q += query_escape(v);
  }
  return q;
}

}  // namespace c5c3::k8s
