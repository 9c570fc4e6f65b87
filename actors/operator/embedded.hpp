// The embedded default (`c5c3-operator --embedded`): the API server emulator
// and the simulated world in this process, deploy/crds and deploy/samples
// applied, a kubeconfig written for kubectl, and a live table of the orders.
// run_operator() starts the stack before it connects (to the stack's
// kubeconfig), starts the table once the operator runs, and stops the stack
// after the operator has drained.
#pragma once

#include "config/connection.hpp"
#include "config/options.hpp"
#include "k8s/log.hpp"

#include <memory>
#include <string>
#include <utility>

namespace c5c3::operator_ {

class embedded_stack {
 public:
  virtual ~embedded_stack() = default;
  // The kubeconfig the operator (and kubectl) use to reach the emulator.
  virtual const std::string& kubeconfig_path() const = 0;
  // Starts the live table of orders (on the terminal) until stop().
  virtual void start_table() = 0;
  // Stops the table, the world and the emulator (state stays in the data dir).
  virtual void stop() = 0;
  // The backend registration stand-in the monitoring controllers register
  // with (sim/monitoring's trickster, in this process), when they run and no
  // --baseURL was given: its URL and token; empty otherwise.
  virtual std::pair<std::string, std::string> monitoring_backend() const = 0;
};

// Starts the stack; on failure returns null and sets `error` (one line).
std::unique_ptr<embedded_stack> start_embedded(const config::operator_options& opts,
                                               const config::env_lookup& env, const k8s::log::logger& log,
                                               std::string& error);

}  // namespace c5c3::operator_
