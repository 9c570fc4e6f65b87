"""Every rule of deploy/rbac/monitoring_role.yaml is needed (issue 15): rbac_rules.py's check for the monitoring
controllers.

The operator runs as the ServiceAccount of deploy/rbac with `--controllers=monitoring` and exactly the ClusterRole
c5c3-operator-monitoring (none of the orders' role), and takes a standalone cluster's default Prometheus through named
steps: operator ready, finalizer added, registered with the backend, the AppBindings and the Grafana Secret, the
ClusterChartPreset, an `auto` ServiceMonitor labelled, the Alertmanager's inbox config, a client-org Namespace's
monitoring namespace with its RoleBinding, AppBinding, Secret and dashboard copy, both gone after its deletion, the
Prometheus gone after its teardown. Then once per rule, with only that rule removed, some named step must fail with a 403 naming a
resource of the rule in the operator's log (rbac_rules.check_rules). The Open Cluster Management CRDs are served,
so the spoke detection's Klusterlet and ClusterClaim reads are made.

Rules this scenario cannot show are listed in NOT_SHOWN_HERE with the reason; each must leave every step passing
with nothing refused (so the list cannot go stale). The OpenShift-only ones are then shown by a second flavour: the
cluster becomes OpenShift (sim/monitoring/fixtures/openshift: the Project and IngressController CRDs, the default
IngressController, cluster-monitoring-view as OpenShift ships it, user-workload monitoring), and its default
Prometheus, openshift-user-workload-monitoring/user-workload, must be registered through thanos-querier's route
(the apps domain read from the IngressController) with cluster-monitoring-view bound beside thanos-querier, which
the operator does not hold (its `bind` rule). A baseline and each of those rules removed in turn, as above.

Needs an admin kubeconfig of a cluster that serves deploy/crds, sim/crds and the OCM CRDs of
sim/monitoring/fixtures/ocm, authorizes with RBAC and runs OwnerReferencesPermissionEnforcement, and the
backend's URL and token (`c5c3-sim trickster`).

Usage: monitoring_rbac_rules.py --kubeconfig ADMIN --operator BIN --source-dir SRC --base-url URL --token T
                                [--workdir DIR] [--only 0,3] [--step-timeout 60] [--grace 2]
"""
import os
import subprocess
import sys
import tempfile
import time

import yaml
from kubernetes import client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rbac_rules as rr  # noqa: E402

ROLE = "c5c3-operator-monitoring"
FINALIZER = "monitoring.appscode.com/prometheus"
PROXY = "appscode:trickster:proxy"
REGISTERED = "monitoring.appscode.com/registered"
MON = "monitoring.coreos.com"

NOT_SHOWN_HERE = {
    ("clusterroles",): "bind on cluster-monitoring-view: OpenShift's RoleBinding only (the openshift flavour below)",
    ("ingresscontrollers",): "OpenShift's apps domain: read on an OpenShift cluster only (the openshift flavour below)",
}
OPENSHIFT = "sim/monitoring/fixtures/openshift"
UWM, UWM_PROM = "openshift-user-workload-monitoring", "user-workload"
OPENSHIFT_MONITORING = "openshift-monitoring"

APISERVICE = """apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1alpha1.inbox.monitoring.appscode.com}
spec: {group: inbox.monitoring.appscode.com, version: v1alpha1, groupPriorityMinimum: 10000, versionPriority: 15,
       insecureSkipTLSVerify: true, service: {namespace: default, name: inbox-agent}}
"""


def client_org(ns):
    """A client-org Namespace (the ClientOrgReconciler's order) and a source GrafanaDashboard for it to copy."""
    return f"""apiVersion: v1
kind: Namespace
metadata:
  name: {ns}-org
  labels: {{ace.appscode.com/client-org: "true"}}
  annotations: {{ace.appscode.com/org-id: "7"}}
---
apiVersion: openviz.dev/v1alpha1
kind: GrafanaDashboard
metadata: {{name: overview, namespace: {ns}}}
spec: {{model: {{title: "KubeDB / Overview"}}}}
"""


def workload(ns):
    """The default Prometheus (alone: a standalone cluster's singleton), an auto ServiceMonitor, an Alertmanager."""
    return f"""apiVersion: v1
kind: Namespace
metadata: {{name: {ns}}}
---
apiVersion: v1
kind: Service
metadata: {{name: prom, namespace: {ns}}}
spec: {{ports: [{{name: http-web, port: 9090, targetPort: 9090}}]}}
---
apiVersion: {MON}/v1
kind: Prometheus
metadata: {{name: prom, namespace: {ns}}}
spec: {{serviceMonitorSelector: {{matchLabels: {{release: {ns}}}}}, serviceMonitorNamespaceSelector: {{}}}}
---
apiVersion: {MON}/v1
kind: ServiceMonitor
metadata: {{name: api, namespace: {ns}, labels: {{monitoring.appscode.com/prometheus: auto}}}}
spec: {{selector: {{matchLabels: {{app: api}}}}, endpoints: [{{port: metrics}}]}}
---
apiVersion: {MON}/v1
kind: Alertmanager
metadata: {{name: am, namespace: {ns}}}
spec: {{replicas: 1}}
"""


class MonitoringCluster(rr.Cluster):
    def __init__(self, kubeconfig, src):
        super().__init__(kubeconfig, src, ROLE)

    def apply_text(self, text):
        r = subprocess.run(["/usr/bin/kubectl", "--kubeconfig", self.kubeconfig, "apply", "-f", "-"], input=text,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"kubectl apply: {r.stderr}")

    def get(self, plural, ns, name, group=MON, version="v1"):
        if ns:
            return self.custom.get_namespaced_custom_object(group, version, ns, plural, name)
        return self.custom.get_cluster_custom_object(group, version, plural, name)

    def gone(self, read):
        try:
            read()
            return False
        except client.exceptions.ApiException as e:
            return e.status == 404

    def forget_cluster_objects(self):
        """What an earlier attempt's operator left outside its namespace (a fresh attempt creates them again)."""
        for delete in (lambda: self.rbac.delete_cluster_role(PROXY),
                       lambda: self.custom.delete_cluster_custom_object("charts.x-helm.dev", "v1alpha1",
                                                                        "clusterchartpresets", "monitoring-presets")):
            try:
                delete()
            except client.exceptions.ApiException:
                pass

    def force_remove(self, ns):
        """After a failed attempt: the client org released and gone, the Prometheus released and gone (the next one
        must be the only one), its namespace deleted."""
        for n in (f"{ns}-org", f"{ns}-org-monitoring"):
            try:
                self.core.patch_namespace(n, {"metadata": {"finalizers": None}})
                self.core.delete_namespace(n)
            except client.exceptions.ApiException:
                pass
        try:
            self.custom.patch_namespaced_custom_object(MON, "v1", ns, "prometheuses", "prom",
                                                       {"metadata": {"finalizers": None}})
            self.custom.delete_namespaced_custom_object(MON, "v1", ns, "prometheuses", "prom")
        except client.exceptions.ApiException:
            pass
        rr.eventually(lambda: self.gone(lambda: self.get("prometheuses", ns, "prom")), f"Prometheus {ns}/prom gone", 30)
        try:
            self.core.delete_namespace(ns)
        except client.exceptions.ApiException:
            pass


    def forget_openshift_objects(self):
        """The OpenShift flavour's objects an earlier attempt left: its default Prometheus (released) and the
        RoleBinding beside thanos-querier (owned by that Service, so nothing collects it)."""
        self.forget_cluster_objects()
        try:
            self.rbac.delete_namespaced_role_binding(PROXY, OPENSHIFT_MONITORING)
        except client.exceptions.ApiException:
            pass
        try:
            self.custom.patch_namespaced_custom_object(MON, "v1", UWM, "prometheuses", UWM_PROM,
                                                       {"metadata": {"finalizers": None}})
            self.custom.delete_namespaced_custom_object(MON, "v1", UWM, "prometheuses", UWM_PROM)
        except client.exceptions.ApiException:
            pass
        rr.eventually(lambda: self.gone(lambda: self.get("prometheuses", UWM, UWM_PROM)),
                      f"Prometheus {UWM}/{UWM_PROM} gone", 30)


def scenario(cluster, run, ns):
    cluster.forget_cluster_objects()
    run.step("operator ready", run.ready)
    cluster.apply_text(workload(ns))
    prom = lambda: cluster.get("prometheuses", ns, "prom")  # noqa: E731
    run.step("finalizer added", lambda: FINALIZER in (prom()["metadata"].get("finalizers") or []))
    run.step("registered", lambda: REGISTERED in (cluster.rbac.read_namespaced_role_binding(PROXY, ns).metadata
                                                  .annotations or {}))
    run.step("AppBindings and the Grafana Secret", lambda: all(
        cluster.get("appbindings", ns, n, "appcatalog.appscode.com", "v1alpha1")
        for n in ("default-prometheus", "default-grafana")) and cluster.core.read_namespaced_secret(
        "default-grafana-auth", ns))
    run.step("ClusterChartPreset", lambda: cluster.get("clusterchartpresets", "", "monitoring-presets",
                                                       "charts.x-helm.dev", "v1alpha1"))
    run.step("ServiceMonitor labelled",
             lambda: (cluster.get("servicemonitors", ns, "api")["metadata"].get("labels") or {}).get("release") == ns)
    run.step("Alertmanager configured", lambda: cluster.get("alertmanagerconfigs", ns, "inbox-agent", MON,
                                                            "v1alpha1"))
    cluster.apply_text(client_org(ns))
    org, org_mon = f"{ns}-org", f"{ns}-org-monitoring"
    run.step("client org: finalizer added", lambda: FINALIZER in (cluster.core.read_namespace(org).metadata.finalizers
                                                                  or []))
    run.step("client org: RoleBinding, AppBinding and Secret", lambda: cluster.rbac.read_namespaced_role_binding(
        "appscode:client-org:monitoring", org_mon) and cluster.get("appbindings", org_mon, "grafana",
                                                                   "appcatalog.appscode.com", "v1alpha1")
        and cluster.core.read_namespaced_secret("grafana-auth", org_mon))
    run.step("client org: dashboard copied", lambda: cluster.get("grafanadashboards", org_mon, "overview", "openviz.dev",
                                                                 "v1alpha1"))
    cluster.core.delete_namespace(org)
    run.step("client org gone", lambda: cluster.gone(lambda: cluster.core.read_namespace(org)) and cluster.gone(
        lambda: cluster.core.read_namespace(org_mon)))
    cluster.custom.delete_namespaced_custom_object(MON, "v1", ns, "prometheuses", "prom")
    run.step("Prometheus gone", lambda: cluster.gone(prom))
    cluster.core.delete_namespace(ns)


def openshift_scenario(cluster, run, _name):
    """The OpenShift flavour's steps: its default Prometheus registered through thanos-querier, cluster-monitoring-view
    bound for the backend, the Prometheus gone after its teardown."""
    cluster.forget_openshift_objects()
    cluster.apply(f"{OPENSHIFT}/cluster.yaml")
    run.step("operator ready", run.ready)
    prom = lambda: cluster.get("prometheuses", UWM, UWM_PROM)  # noqa: E731
    run.step("OpenShift: finalizer added", lambda: FINALIZER in (prom()["metadata"].get("finalizers") or []))

    def bound():
        rb = cluster.rbac.read_namespaced_role_binding(PROXY, OPENSHIFT_MONITORING)
        return REGISTERED in (rb.metadata.annotations or {}) and rb.role_ref.name == "cluster-monitoring-view"
    run.step("OpenShift: registered, cluster-monitoring-view bound beside thanos-querier", bound)
    cluster.custom.delete_namespaced_custom_object(MON, "v1", UWM, "prometheuses", UWM_PROM)
    run.step("OpenShift: Prometheus gone", lambda: cluster.gone(prom))


def check_openshift(cluster, procs, rules, opts, only):
    """The rules of NOT_SHOWN_HERE (or those of `only` among them) on the cluster made OpenShift."""
    for rel in (f"{OPENSHIFT}/crds.yaml", f"{OPENSHIFT}/cluster.yaml"):
        cluster.apply(rel)
    shown = [i for i, r in enumerate(rules) if tuple(r.get("resources", [])) in NOT_SHOWN_HERE]
    if only:
        shown = [i for i in shown if str(i) in only.split(",")]
    rr.log(f"the cluster made OpenShift: rules {shown}")
    return rr.check_rules(cluster, procs, rules, openshift_scenario, opts, only=",".join(map(str, shown)),
                          cleanup=lambda _: cluster.forget_openshift_objects(), not_used_yet={},
                          refused_without_failing={})


def main():
    ap = rr.arguments(2)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--token", required=True)
    a = ap.parse_args()
    workdir = a.workdir or tempfile.mkdtemp(prefix="c5c3-monitoring-rbac-")
    cluster = MonitoringCluster(a.kubeconfig, a.source_dir)
    rules = next(yaml.safe_load_all(open(os.path.join(a.source_dir, "deploy", "rbac", "monitoring_role.yaml"))))["rules"]
    for f in ["deploy/rbac/service_account.yaml", "deploy/rbac/monitoring_role.yaml",
              "deploy/rbac/client_org_role.yaml", "sim/monitoring/fixtures/ocm/crds.yaml"]:
        cluster.apply(f)
    cluster.apply_text(APISERVICE)
    sa_kubeconfig = os.path.join(workdir, "service-account.kubeconfig")
    cluster.service_account_kubeconfig(sa_kubeconfig)
    procs = rr.Procs(workdir)
    t0 = time.time()
    try:
        # Sharded (one replica), as deploy/ runs it, so that the Lease rule is needed.
        opts = rr.Options(a.operator, sa_kubeconfig, a.step_timeout, a.grace,
                          ["--controllers=monitoring", "--baseURL", a.base_url, "--token", a.token],
                          shard_name="rbac-replica")
        results = rr.check_rules(cluster, procs, rules, scenario, opts, only=a.only, cleanup=cluster.force_remove,
                                 not_used_yet=NOT_SHOWN_HERE, refused_without_failing={})
        # Last: once the OpenShift CRDs are served, the detectors see an OpenShift cluster.
        results += [(f"openshift: {what}", ok, detail)
                    for what, ok, detail in check_openshift(cluster, procs, rules, opts, a.only)]
    finally:
        procs.stop()
    rr.log(f"{len(rules)} rules in {time.time() - t0:.0f} s")
    return rr.report(results)


if __name__ == "__main__":
    sys.exit(main())
