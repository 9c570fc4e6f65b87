#include "k8s/client/url.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

namespace c5c3::k8s {

namespace {
bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}
}  // namespace

bool server_url::host_is_ip() const {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

std::string server_url::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  const bool default_port = (tls && port == "443") || (!tls && port == "80");
  return default_port ? h : h + ":" + port;
}

std::optional<server_url> parse_server_url(std::string_view url, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<server_url> {
    // Never echo user information (it may hold a password).
    std::string shown(url);
    if (auto at = shown.find('@'); at != std::string::npos) {
      auto start = shown.find("://");
      start = start == std::string::npos ? 0 : start + 3;
      if (start < at) shown.replace(start, at - start, "***");
    }
    if (error) *error = "invalid server URL \"" + shown + "\": " + why;
    return std::nullopt;
  };
  server_url out;
  std::string_view rest = url;
  if (auto p = rest.find("://"); p != std::string_view::npos) {
    std::string scheme(rest.substr(0, p));
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
    if (scheme == "https") out.tls = true;
    else if (scheme == "http") out.tls = false;
    else return fail("scheme must be http or https");
    rest.remove_prefix(p + 3);
  }
  auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
  if (authority.find('@') != std::string_view::npos) return fail("user information is not supported");
  if (authority.empty()) return fail("no host");
  std::string_view port;
  if (authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) return fail("unterminated IPv6 address");
    out.host = std::string(authority.substr(1, close - 1));
    auto after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return fail("garbage after IPv6 address");
      port = after.substr(1);
    }
  } else {
    auto colon = authority.rfind(':');
    if (colon != std::string_view::npos) {
      out.host = std::string(authority.substr(0, colon));
      port = authority.substr(colon + 1);
    } else {
      out.host = std::string(authority);
    }
  }
  if (out.host.empty()) return fail("no host");
  if (!port.empty() && !all_digits(port)) return fail("port is not a number");
  if (!port.empty() && std::stoul(std::string(port)) > 65535) return fail("port out of range");
  out.port = port.empty() ? (out.tls ? "443" : "80") : std::string(port);
  if (auto q = path.find_first_of("?#"); q != std::string_view::npos) path = path.substr(0, q);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  out.path_prefix = std::string(path);
  return out;
}

}  // namespace c5c3::k8s
