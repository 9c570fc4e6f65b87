// Activation after a kind is served (monitoring-controllers.txt "Runtime
// Wiring"; apis-monitoring.md 1.3, 1.4: apiextensions.RegisterSetup and the
// CRD bootstrap reconciler): one actor watches CustomResourceDefinitions on
// the management cluster and runs each registered group's setup once, at the
// first event of a CRD whose spec.group and spec.names.kind are the group's
// (a CRD that exists at start counts: the initial list delivers it), without
// a restart. Established or not: the hosts' watches of the kind are optional
// and start their informers once the kind is served (the cluster actor
// follows the CRD). A group is never set up twice, also when its CRD goes and
// comes back.
//
//   anyone -> activation : protocol::stop_atom -> ok_atom (every host it
//                          started stopped: passes in flight finish), then quits
//                          protocol::probe_atom -> std::vector<std::string>
//                          ("group/Kind" of every group set up, in order)
//                          (protocol::probe_atom, std::string controller,
//                          protocol::order_key) -> protocol::order_probe of
//                          that controller's order actor (empty: unknown)
// When it exits, the hosts it started and the actors it was given to own
// (the detectors, the backend's service) exit with it.
#pragma once

#include "k8s/log.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace c5c3::monitoring {

struct setup_group {
  std::string group;  // the CRD's spec.group, e.g. monitoring.coreos.com
  std::string kind;   // its spec.names.kind, e.g. Prometheus
  // Spawns the group's controllers (their hosts register their own
  // watches): each host with its controller's name.
  std::function<std::vector<std::pair<std::string, caf::actor>>(caf::actor_system&)> setup;
};

struct activation_options {
  caf::actor clusters;  // the cluster directory
  std::vector<setup_group> groups;
  // Controllers started at once, behind no CRD (upstream registers them
  // before the RegisterSetup ones: the TokenRefresher); stopped and probed
  // as the groups' are.
  std::function<std::vector<std::pair<std::string, caf::actor>>(caf::actor_system&)> at_start;
  std::vector<caf::actor> owned;  // exit with the activation
  k8s::log::logger log = k8s::log::root().named("monitoring");
};

caf::actor spawn_activation(caf::actor_system& sys, activation_options opts);

}  // namespace c5c3::monitoring
