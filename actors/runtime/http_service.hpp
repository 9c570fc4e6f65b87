// A service actor: HTTP(S) requests to APIs outside Kubernetes (Grafana, the
// monitoring backend, Rancher) for the order runner's plans
// (protocol/service.hpp). One io thread and a keep-alive connection pool per
// (scheme, host, port, CA); TLS verifies the peer unless the request says
// insecure_skip_verify. Any HTTP status is an answer; a transport failure is a
// caf::error naming the URL, never a credential. Stop it with an exit message.
#pragma once

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

namespace c5c3::runtime {

caf::actor spawn_http_service(caf::actor_system& sys);

}  // namespace c5c3::runtime
