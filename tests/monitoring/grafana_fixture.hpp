// The grafana controller group (spawn_grafana: GrafanaDashboard and
// GrafanaDatasource reconcilers, the Grafana service, the event recorder)
// beside the monitoring fixture's emulator, against the in-process Grafana
// stand-in over TLS (its CA in the AppBinding's caBundle, reached as
// localhost), with the AppBinding default-grafana and its token Secret.
#pragma once

#include "actors/monitoring/grafana_controllers.hpp"
#include "k8s/base64.hpp"
#include "sim/monitoring/grafana.hpp"
#include "tests/monitoring/monitoring_fixture.hpp"

namespace c5c3::testing::mon {

inline const std::string grafana_key = "grafana-key-s3cret";

struct grafana_fixture : mon_fixture {
  std::shared_ptr<sim::monitoring::grafana_api> grafana_core;
  sim::monitoring::standin_server grafana;
  caf::actor controllers;

  static sim::monitoring::standin_options tls() {
    sim::monitoring::standin_options o;
    o.tls = true;
    return o;
  }

  explicit grafana_fixture(std::chrono::milliseconds service_timeout = std::chrono::milliseconds(1500))
      : grafana_core(std::make_shared<sim::monitoring::grafana_api>(
            sim::monitoring::grafana_options{"admin", "admin", {{grafana_key, 1, "Admin"}}})),
        grafana("grafana", grafana_core, tls()) {
    grafana.start();
    auto url = "https://localhost:" + std::to_string(grafana.port());
    create("apiVersion: v1\nkind: Namespace\nmetadata: {name: monitoring}\n---\n"
           "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n"
           "apiVersion: v1\nkind: Secret\nmetadata: {name: default-grafana-auth, namespace: monitoring}\n"
           "stringData: {token: " + grafana_key + "}\n---\n"
           "apiVersion: appcatalog.appscode.com/v1alpha1\nkind: AppBinding\n"
           "metadata: {name: default-grafana, namespace: monitoring, annotations: {monitoring.appscode.com/is-default-grafana: \"true\"}}\n"
           "spec:\n  type: Grafana\n  clientConfig: {url: \"" + url + "\", caBundle: " +
           k8s::base64_encode(grafana.ca_pem()) + "}\n  secret: {name: default-grafana-auth}\n"
           "  parameters: {apiVersion: openviz.dev/v1alpha1, kind: GrafanaConfiguration, datasource: ds-1}\n");
    // The controllers start once the AppBinding is stored, so their first
    // list holds it: a dashboard made at once does not fail first with "no
    // default Grafana appbinding found." (a Warning event of its own).
    monitoring::controllers_options co;
    co.clusters = directory;
    co.registry = &registry;
    co.actor_options.backoff_max = std::chrono::milliseconds(300);
    co.service_timeout = service_timeout;
    co.flags.requeue_after_duration = std::chrono::milliseconds(300);
    controllers = monitoring::spawn_grafana(sys, std::move(co));
  }

  ~grafana_fixture() {
    caf::scoped_actor self{sys};
    self->request(controllers, std::chrono::seconds(30), protocol::stop_atom::value).receive([](protocol::ok_atom) {}, [](caf::error&) {});
    caf::anon_send_exit(controllers, caf::exit_reason::user_shutdown);
    self->wait_for(controllers);
    grafana.stop();
  }

  k8s::object dashboard(const std::string& name) { return get("grafanadashboards.openviz.dev", "team-a", name); }
  k8s::object datasource(const std::string& name) { return get("grafanadatasources.openviz.dev", "monitoring", name); }

  // The stand-in's dashboard of that uid (org 1): its title and version, or nullopt.
  std::optional<std::pair<std::string, std::int64_t>> held(const std::string& uid) {
    return grafana.with_core([&](sim::monitoring::standin_core&) -> std::optional<std::pair<std::string, std::int64_t>> {
      const auto* d = grafana_core->dashboard(1, uid);
      if (!d) return std::nullopt;
      return std::make_pair(d->title, d->version);
    });
  }
  std::size_t held_dashboards() {
    return grafana.with_core([&](sim::monitoring::standin_core&) { return grafana_core->dashboards(1).size(); });
  }
  std::optional<std::string> datasource_url(std::int64_t id) {
    return grafana.with_core([&](sim::monitoring::standin_core&) -> std::optional<std::string> {
      const auto* d = grafana_core->datasource(1, id);
      return d ? std::optional<std::string>(d->url) : std::nullopt;
    });
  }
  // Grafana requests answered so far.
  std::size_t grafana_requests() { return grafana.requests().size(); }

  // The Warning Events about `name` in `ns` (their reasons, counts summed).
  std::vector<k8s::object> warnings(const std::string& ns, const std::string& name) {
    std::vector<k8s::object> out;
    for (auto& e : server.list_objects("events", ns))
      if (e.get_string({"involvedObject", "name"}) == name && e.get_string({"type"}) == "Warning") out.push_back(e);
    return out;
  }
};

inline std::string phase_of(const k8s::object& o) { return std::string(o.get_string({"status", "phase"})); }

}  // namespace c5c3::testing::mon
