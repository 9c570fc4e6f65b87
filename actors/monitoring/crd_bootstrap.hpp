// The grafana group's CRD bootstrap (monitoring-controllers.txt "Utility
// Files": config.go; apis-monitoring.md 1.5, EnsureCustomResourceDefinitions):
// the CRDs GrafanaDashboard, GrafanaDatasource and AppBinding, carried in the
// binary (deploy/crds, embedded by cmake's c5c3_embed_text), are created or
// updated in place (labels and annotations merged, a user's extra ones kept;
// spec replaced by the embedded one), then read every `poll` (3 s) until each
// is Established, for at most `limit` (5 min).
//
// Pure parts here; the actor in crd_bootstrap_actor.cpp:
//
//   anyone -> bootstrap : ensure_crds_atom -> std::string
//                         ("" every CRD Established; else the error, naming
//                         the CRD). A request during a run gets that run's
//                         answer; the next one starts a new run.
//
// The grafana group's start, before it spawns its hosts (upstream exits the
// process when this fails):
//
//   auto boot = spawn_crd_bootstrap(sys, {clusters});
//   self->request(boot, caf::infinite, ensure_crds_atom::value).then([=](const std::string& error) {
//     anon_send_exit(boot, caf::exit_reason::normal);
//     if (error.empty()) start_hosts(); else fail(error);  // the error names the CRD
//   });
#pragma once

#include "k8s/embedded_text.hpp"
#include "k8s/log.hpp"
#include "k8s/object.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>
#include <caf/atom.hpp>

#include <chrono>
#include <span>
#include <string>
#include <vector>

namespace c5c3::monitoring {

// The embedded manifests (generated: deploy/crds' three files).
std::span<const k8s::embedded_text> grafana_crd_manifests();
// Those manifests parsed, in order (GrafanaDashboard, GrafanaDatasource,
// AppBinding); empty with `error` naming the file that does not parse.
std::vector<k8s::object> grafana_crds(std::string* error = nullptr);

enum class crd_state { missing, pending, established, failed };
struct crd_check {
  crd_state state = crd_state::missing;
  std::string detail;  // pending or failed: the condition that says so
};
// kmodules' check of one CRD as read (empty: missing): NamesAccepted=False
// fails; Established=True is done; Established=False with a reason other
// than Installing fails; anything else is pending.
crd_check check_crd(const k8s::object& crd);

// What to PUT over `live`: its metadata (resourceVersion, uid, ...) with the
// wanted labels and annotations merged in (the wanted value wins a key both
// have), and the wanted spec.
k8s::object crd_update(const k8s::object& live, const k8s::object& wanted);

using ensure_crds_atom = caf::atom_constant<caf::atom("ensurecrds")>;

struct crd_bootstrap_options {
  caf::actor clusters;  // the cluster directory (the management cluster's CRDs)
  std::vector<k8s::object> crds = grafana_crds();
  std::chrono::milliseconds poll{3'000};
  std::chrono::milliseconds limit{300'000};
  std::string field_manager = "c5c3-operator";
  k8s::log::logger log = k8s::log::root().named("crd-bootstrap");
};

caf::actor spawn_crd_bootstrap(caf::actor_system& sys, crd_bootstrap_options opts);

}  // namespace c5c3::monitoring
