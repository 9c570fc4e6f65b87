// `c5c3-sim world`: the simulated external controllers as an ordinary client
// of any API server (the emulator or a real one).
//
//   c5c3-sim world [--kubeconfig FILE] [--context NAME] [--crds DIR]
//                  [--rabbitmq-management-url http://127.0.0.1:PORT
//                   --rabbitmq-amqp-port PORT [--rabbitmq-host 127.0.0.1]
//                   [--rabbitmq-admin-user guest] [--rabbitmq-admin-password-file FILE]]
//                  [--keystone-url http://127.0.0.1:PORT --keystone-admin-password-file FILE
//                   [--keystone-auth-url URL]]
//
// It installs the CRDs of the kinds it simulates (from --crds, default the
// source tree's sim/crds) when they are missing, then reconciles until SIGINT
// or SIGTERM. Without a management URL the vhosts, users and permissions live
// in memory; without a Keystone URL K-ORC talks to an in-memory Keystone
// (memory_identity.hpp), else to that Keystone as its admin (user, project and
// domain of each ControlPlane's spec.korc.adminCredential, the password from
// the file); the admin password cloud Secrets then carry --keystone-auth-url
// (default the Keystone URL with /v3). OpenBao is always the in-memory
// key-value store.
#pragma once

#include <string>
#include <vector>

namespace c5c3::sim::world {

int run_world_command(const std::vector<std::string>& args);

}  // namespace c5c3::sim::world
