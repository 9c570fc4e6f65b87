// An in-process emulator on 127.0.0.1:0 and a client authenticated with its
// admin token.
#pragma once

#include "sim/apiserver/apiserver.hpp"
#include "tests/sim/test_http.hpp"

#include <memory>

namespace c5c3::sim::test {

struct server_fixture {
  explicit server_fixture(apiserver_options o = {}) {
    server = std::make_unique<apiserver>(std::move(o));
    server->start();
  }
  client_options client_opts() const {
    client_options c;
    c.port = server->port();
    c.tls = server->url().rfind("https", 0) == 0;
    c.ca_pem = server->ca_pem();
    c.token = server->token();
    return c;
  }
  http_client client() const { return http_client(client_opts()); }

  std::unique_ptr<apiserver> server;
};

inline apiserver_options plain() {
  apiserver_options o;
  o.plain_http = true;
  return o;
}

}  // namespace c5c3::sim::test
