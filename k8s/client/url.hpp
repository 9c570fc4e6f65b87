// The API server's URL as kubeconfig gives it: scheme, host, port and an
// optional path prefix (a server behind a proxy path such as /k8s/clusters/c).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace c5c3::k8s {

struct server_url {
  bool tls = true;         // https (default) or http
  std::string host;        // "127.0.0.1", "api.example.com", "::1" (no brackets)
  std::string port;        // "443" when https and none given, "80" for http
  std::string path_prefix; // "" or "/prefix" without a trailing slash

  // "host:port" as the Host header wants it (IPv6 in brackets, default port omitted).
  std::string host_header() const;
  bool host_is_ip() const;
};

// Parses "https://host:port/prefix"; a bare "host:port" means https (as
// client-go's DefaultServerURL does). nullopt with `error` when malformed.
std::optional<server_url> parse_server_url(std::string_view url, std::string* error = nullptr);

}  // namespace c5c3::k8s
