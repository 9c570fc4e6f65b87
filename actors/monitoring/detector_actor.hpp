// A detector (apis-monitoring.md section 2) as a service of the order runner:
// one per kind (Prometheus, Alertmanager), shared by every controller that
// gates on it. Asked with any protocol::service_request, it answers
// (gate.hpp) 200 with the flavour once detected, which it keeps for the life
// of the process and answers without a request from then on; 503 "unknown"
// while the kind lists nothing, 503 with the list's error, 204 on an OpenShift
// cluster without the user-workload object. Detection lists the kind (from
// the management cluster actor's cache) and asks whether
// management.cattle.io/Cluster and project.openshift.io/Project are served (a
// read of each from the API server: NoMatch means not served). Questions
// arriving during a detection share it.
#pragma once

#include "actors/monitoring/flavour.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <chrono>

namespace c5c3::monitoring {

struct detector_options {
  detector_kind which = detector_kind::prometheus;
  caf::actor clusters;  // the cluster directory (protocol/clusters.hpp)
  caf::timespan timeout = std::chrono::seconds(30);
};

caf::actor spawn_detector(caf::actor_system& sys, detector_options opts);

}  // namespace c5c3::monitoring
