// The detectors' pure part (apis-monitoring.md section 2): which flavour of
// cluster the Prometheus (or Alertmanager) objects live in, decided once from
// the objects listed and whether the Rancher and OpenShift kinds are served;
// what IsDefault, ServiceKey and Service answer for it; and its encoding as
// the detector service's answer (the plans read it from
// sense_snapshot::answers, so they stay pure functions of the snapshot).
#pragma once

#include "k8s/object.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::monitoring {

enum class detector_kind : std::uint8_t { prometheus, alertmanager };

enum class flavour_kind : std::uint8_t {
  rancher,     // rancher-monitoring: RancherManaged, Federated, IsDefault = that object
  openshift,   // user-workload monitoring: OpenShiftManaged, IsDefault = that object
  standalone,  // IsDefault = exactly one object was listed at detection
};

struct flavour {
  flavour_kind kind = flavour_kind::standalone;
  bool rancher = false;    // RancherManaged(): a Rancher cluster (also standalone with rancher=true)
  bool openshift = false;  // OpenShiftManaged()
  bool singleton = false;  // standalone: one object when detected
  detector_kind detector = detector_kind::prometheus;

  bool federated() const { return kind == flavour_kind::rancher; }
  bool is_default(std::string_view ns, std::string_view name) const;
  friend bool operator==(const flavour&, const flavour&) = default;
};

// What detect() decided.
enum class detection_outcome : std::uint8_t {
  ready,      // (true, nil): latched for the life of the process
  unknown,    // (false, "unknown"): nothing listed; an error, retried with backoff
  not_ready,  // (false, nil): OpenShift without the user-workload object; no error, no requeue
};

struct detection {
  detection_outcome outcome = detection_outcome::unknown;
  flavour result;
};

// detect(): `listed` the kind's objects, `rancher_served` whether
// management.cattle.io/Cluster is served, `openshift_served` whether
// project.openshift.io/Project is.
detection detect(detector_kind which, const std::vector<k8s::object>& listed, bool rancher_served,
                 bool openshift_served);

// ServiceKey(prom): the Service the backend reaches the Prometheus through.
k8s::object_key service_key(const flavour& f, std::string_view ns, std::string_view name);

// mona.ServiceSpec of Service(prom, svc): scheme, namespace, name and the
// number of the port named http-web (OpenShift: thanos-querier's "web"); ""
// when there is none.
struct service_spec {
  std::string scheme, name, namespace_, port, path, query;
  friend bool operator==(const service_spec&, const service_spec&) = default;
};
service_spec service_of(const flavour& f, std::string_view ns, std::string_view name, const k8s::object& svc);

// DefaultPrometheus(list): on OpenShift the default one (null: none), else
// the first (null when the list is empty).
const k8s::object* default_prometheus(const flavour& f, const std::vector<k8s::object>& sorted);

// The detector service's answer body and back.
std::string encode_flavour(const flavour& f);
std::optional<flavour> decode_flavour(std::string_view body);

}  // namespace c5c3::monitoring
