// servicemonitor.FederationReconciler (apis-monitoring.md section 8).
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/federation_copies.hpp"
#include "actors/monitoring/gate.hpp"
#include "actors/monitoring/labels.hpp"
#include "actors/monitoring/servicemonitor.hpp"

#include <algorithm>

namespace c5c3::monitoring {

namespace {

const std::string services_slot = "services";
const std::string endpoints_slot = "endpoints";
const std::string namespaces_slot = "namespaces";
const std::string secrets_slot = "source-secrets";
const std::string copies_slot = "copies";

const k8s::object* find(const std::vector<k8s::object>& list, std::string_view ns, std::string_view name) {
  for (const auto& o : list)
    if (o.namespace_() == ns && o.name() == name) return &o;
  return nullptr;
}

// spec.selector (a value upstream: absent selects everything).
bool service_selected(const k8s::object& smon, const k8s::object& svc) {
  const auto* sel = smon.get({"spec", "selector"});
  return !sel || selector_selects(sel, svc.labels());
}

bool in_match_names(const k8s::object& smon, std::string_view ns) {
  const auto* names = smon.get({"spec", "namespaceSelector", "matchNames"});
  if (!names || !names->IsArray()) return false;
  for (const auto& n : names->GetArray())
    if (n.IsString() && k8s::as_string_view(n) == ns) return true;
  return false;
}

// The Service watch: a federated ServiceMonitor whose namespaceSelector.any
// is set or whose matchNames hold the Service's namespace, and whose selector
// matches its labels.
bool concerns(const k8s::object& svc, const k8s::object& smon) {
  const bool any = smon.get({"spec", "namespaceSelector", "any"}) && smon.get({"spec", "namespaceSelector", "any"})->IsTrue();
  return (any || in_match_names(smon, svc.namespace_())) && service_selected(smon, svc);
}

// Whether federation can apply at all: rancher-monitoring's Prometheus is
// listed (the federated flavour needs it). Otherwise the copies' reads are
// skipped, so a ServiceMonitor of a standalone cluster reads only what its
// label patch needs.
bool federation_possible(const runtime::sense_snapshot& s) {
  return find(s.list(sm::prometheuses_slot), rancher_monitoring_namespace, rancher_monitoring_prometheus) != nullptr;
}

struct pass {
  const runtime::sense_snapshot& s;
  runtime::order_plan& p;
  std::vector<std::string> errors;

  // A copy's write: issued (its failure reported back), or its failure collected.
  void maybe(std::optional<runtime::child_write> w) {
    if (!w) return;
    if (const auto* f = s.failure_of(*w)) {
      errors.push_back(f->message);
      return;
    }
    w->report_failure = true;
    p.writes.push_back(std::move(*w));
  }
};

}  // namespace

runtime::order_plan plan_federation(const runtime::sense_snapshot& s) {
  runtime::order_plan p;
  p.stage = "federation";
  if (s.order.label(prometheus_key).value_or("") != value_federated) return p;
  const auto& proms = s.list(sm::prometheuses_slot);
  if (proms.empty()) return p;
  auto sorted = sorted_by_key(proms);
  auto f = detector_gate(s, prometheus_detector_service, p);
  if (!f) return p;
  p.stage = "federation";
  if (!f->federated()) {
    if (const auto* prom = default_prometheus(*f, sorted))
      if (auto w = sm::label_patch(*prom, s.order)) p.writes.push_back(std::move(*w));
    return p;
  }
  // The source Services (namespaceSelector.matchNames; `any` is ignored here).
  std::vector<const k8s::object*> services;
  for (const auto& svc : s.list(services_slot))
    if (in_match_names(s.order, svc.namespace_()) && service_selected(s.order, svc)) services.push_back(&svc);
  std::vector<const k8s::object*> secrets;
  for (const auto& name : fed::ca_secret_names(s.order)) {
    const auto* sec = find(s.list(secrets_slot), s.key.namespace_, name);
    if (!sec) {
      p.error = "secrets \"" + name + "\" not found";
      return p;
    }
    secrets.push_back(sec);
  }
  pass run{s, p, {}};
  std::vector<const k8s::object*> targets;
  for (const auto& prom : sorted) {
    const bool is_default = f->is_default(prom.namespace_(), prom.name());
    if (!is_default && prom.namespace_() == s.key.namespace_) {
      // Logged upstream: "federated service monitor can't be in the same
      // namespace with project Prometheus"; no retry until it changes.
      p.stage = "same namespace as project Prometheus " + std::string(prom.namespace_()) + "/" + std::string(prom.name());
      return p;
    }
    if (is_default) {
      run.maybe(sm::label_patch(prom, s.order));
      continue;
    }
    // A Prometheus being deleted gets no copies (beyond upstream, which copies
    // into it): they would be garbage collected with it, and one written after
    // its copy of the ServiceMonitor went would name an owner that is gone.
    if (prom.terminating()) continue;
    // Each copy as the cache shows it, or as a create of it met it (AlreadyExists: a cache behind).
    auto live = [&](std::string_view slot, const k8s::gvk& gvk, std::string_view name) -> const k8s::object* {
      if (const auto* cached = find(s.list(slot), prom.namespace_(), name)) return cached;
      return live_or_met(s, nullptr, new_object(gvk, prom.namespace_(), name));
    };
    const auto* copy = live(copies_slot, servicemonitor_gvk, s.key.name);
    run.maybe(fed::copy_servicemonitor(prom, s.order, fed::keep_namespaces(prom, s.list(namespaces_slot)), copy));
    if (!copy) continue;  // its Services, Endpoints and Secrets once it exists (upstream would go on with nil)
    targets.push_back(copy);
    for (const auto* svc : services) {
      run.maybe(fed::copy_service(*svc, *copy, live(services_slot, service_gvk, svc->name())));
      const auto* ep = find(s.list(endpoints_slot), svc->namespace_(), svc->name());
      if (!ep) {
        run.errors.push_back("endpoints \"" + std::string(svc->name()) + "\" not found");
        continue;
      }
      std::string error;
      auto w = fed::copy_endpoints(*svc, *ep, *copy, live(endpoints_slot, endpoints_gvk, ep->name()), error);
      if (!error.empty()) run.errors.push_back(error);
      run.maybe(std::move(w));
    }
  }
  if (!p.writes.empty()) return p;
  // Last: the Secrets, applied (their copies are not read), and the pass
  // settles after them with every error collected.
  for (const auto* copy : targets)
    for (const auto* sec : secrets) run.maybe(fed::copy_secret(*sec, *copy));
  p.replan_after_writes = false;
  p.error = fed::aggregate(run.errors);
  return p;
}

std::shared_ptr<const runtime::kind_declaration> federation_declaration() {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = federation_controller;
  k->gvk = servicemonitor_gvk;
  k->order_selector = prometheus_key + "=" + value_federated;
  k->max_rounds = 50;
  sm::common_reads(*k);
  auto gated = [](runtime::read_slot r, bool (*when)(const runtime::sense_snapshot&)) {
    auto ns = r.ns;
    r.locate = [when, ns](const runtime::sense_snapshot& s) -> std::optional<runtime::locator> {
      if (!when(s)) return std::nullopt;
      if (ns == runtime::namespace_role::order) return runtime::locator{s.key.namespace_, ""};
      return runtime::locator{std::string(), ""};
    };
    r.after = {sm::prometheuses_slot};
    return r;
  };
  const auto all = runtime::namespace_role::all;
  k->reads.push_back(gated(runtime::listed(services_slot, service_gvk, "", all), federation_possible));
  k->reads.push_back(gated(runtime::listed(endpoints_slot, endpoints_gvk, "", all), federation_possible));
  k->reads.push_back(gated(runtime::listed(namespaces_slot, namespace_gvk, "", all), federation_possible));
  k->reads.push_back(gated(runtime::listed(copies_slot, servicemonitor_gvk, "", all), federation_possible));
  auto secrets = gated(runtime::listed(secrets_slot, secret_gvk, "", runtime::namespace_role::order),
                       [](const runtime::sense_snapshot& s) {
                         return federation_possible(s) && !fed::ca_secret_names(s.order).empty();
                       });
  secrets.uncached = true;
  k->reads.push_back(secrets);
  runtime::watch_decl services;
  services.gvk = service_gvk;
  services.optional = false;
  services.wakes = concerns;
  k->watches.push_back(services);
  k->plan = plan_federation;
  return k;
}

}  // namespace c5c3::monitoring
