#!/bin/bash
# e2e: the world-side fixtures of sim/monitoring/fixtures applied with kubectl
# to `c5c3-sim apiserver` (sim/crds and deploy/crds installed), flavour by
# flavour, as a controller test would: each must be accepted and read back as
# the monitoring controllers will read it.
# usage: fixtures_e2e.sh <path to c5c3-sim> <source dir>
set -u
SIM="$1"
SRC="$2"
FX="$SRC/sim/monitoring/fixtures"
. "$(dirname "$0")/../sim/sim_e2e_lib.sh"
start_sim "$SIM" --crds "$SRC/sim/crds" --crds "$SRC/deploy/crds"

# Standalone: Prometheus, Alertmanager with the inbox APIService, ServiceMonitors, Grafana kinds.
k apply -f "$FX/standalone/prometheus.yaml" -f "$FX/standalone/alertmanager.yaml" >"$D/a.out" 2>&1 ||
  fail "standalone prometheus/alertmanager: $(cat "$D/a.out")"
k apply -f "$FX/standalone/servicemonitors.yaml" -f "$FX/standalone/grafana.yaml" >"$D/b.out" 2>&1 ||
  fail "standalone servicemonitors/grafana: $(cat "$D/b.out")"
[ "$(k get prometheus -n monitoring kube-prometheus-stack-prometheus -o jsonpath='{.spec.portName}')" = web ] ||
  fail "Prometheus defaults"
[ "$(k get svc -n monitoring kube-prometheus-stack-prometheus -o jsonpath='{.spec.ports[?(@.name=="http-web")].port}')" = 9090 ] ||
  fail "the http-web port"
[ "$(k get apiservice v1alpha1.inbox.monitoring.appscode.com -o jsonpath='{.status.conditions[0].reason}')" = Passed ] ||
  fail "inbox APIService: $(k get apiservice v1alpha1.inbox.monitoring.appscode.com -o yaml)"
[ "$(k get servicemonitor -n demo api-federated -o jsonpath='{.spec.endpoints[0].metricRelabelings[0].action}')" = drop ] ||
  fail "ServiceMonitor relabelings"
[ "$(k get am -n monitoring -o name)" = alertmanager.monitoring.coreos.com/kube-prometheus-stack-alertmanager ] ||
  fail "Alertmanager short name"
[ "$(k get grafanadashboard -n monitoring nodes -o jsonpath='{.spec.model.title}')" = "KubeDB / Nodes" ] ||
  fail "GrafanaDashboard model"
[ "$(k get appbinding -n monitoring grafana -o jsonpath='{.spec.parameters.kind}')" = GrafanaConfiguration ] ||
  fail "AppBinding parameters"
k get grafanadashboards -n monitoring | head -1 | grep -q 'TITLE *STATUS *AGE' || fail "GrafanaDashboard columns"

# A presets write as the PrometheusReconciler does it.
cat >"$D/preset.yaml" <<'Y'
apiVersion: charts.x-helm.dev/v1alpha1
kind: ClusterChartPreset
metadata:
  name: monitoring-presets
  labels: {charts.x-helm.dev/is-default-preset: "true"}
spec:
  values:
    spec: {monitoring: {agent: prometheus.io/operator, serviceMonitor: {labels: {release: kube-prometheus-stack}}}}
    form: {alert: {enabled: critical, labels: {release: kube-prometheus-stack}}}
Y
k apply -f "$D/preset.yaml" >/dev/null || fail "ClusterChartPreset"
[ "$(k get clusterchartpreset monitoring-presets -o jsonpath='{.spec.values.form.alert.enabled}')" = critical ] ||
  fail "preset values kept"

# The trickster ServiceAccount's token Secret is filled (the tokens controller).
k create serviceaccount trickster -n monitoring >/dev/null || fail "create sa"
cat >"$D/tok.yaml" <<'Y'
apiVersion: v1
kind: Secret
metadata:
  name: trickster-token-abcde
  namespace: monitoring
  annotations: {kubernetes.io/service-account.name: trickster}
type: kubernetes.io/service-account-token
Y
k apply -f "$D/tok.yaml" >/dev/null || fail "token secret"
[ -n "$(k get secret -n monitoring trickster-token-abcde -o jsonpath='{.data.token}')" ] || fail "token not filled"
[ -n "$(k get secret -n monitoring trickster-token-abcde -o jsonpath='{.data.ca\.crt}')" ] || fail "ca.crt not filled"

# Rancher, OpenShift and an ACE spoke: CRDs first, then the objects.
for flavour in rancher openshift ocm; do
  k apply -f "$FX/$flavour/crds.yaml" >"$D/$flavour.out" 2>&1 || fail "$flavour CRDs: $(cat "$D/$flavour.out")"
  for c in $(k get -f "$FX/$flavour/crds.yaml" -o name); do
    k wait --for=condition=Established "$c" --timeout=30s >/dev/null || fail "$c not established"
  done
  for f in "$FX/$flavour"/*.yaml; do
    [ "$(basename "$f")" = crds.yaml ] && continue
    k apply -f "$f" >"$D/$flavour.out" 2>&1 || fail "$f: $(cat "$D/$flavour.out")"
  done
done
[ "$(k get ns kube-system -o jsonpath='{.metadata.labels.field\.cattle\.io/projectId}')" = p-system ] ||
  fail "Rancher system project label"
k api-resources --api-group=management.cattle.io -o name | grep -q '^clusters.management.cattle.io$' ||
  fail "management.cattle.io Cluster not in discovery"
[ "$(k get prometheus -A -o name | wc -l)" = 5 ] || fail "five Prometheus objects: $(k get prometheus -A)"
[ "$(k get ingresscontroller -n openshift-ingress-operator default -o jsonpath='{.status.domain}')" = apps.ocp.example.com ] ||
  fail "IngressController status.domain"
[ "$(k get clusterclaim -o name | wc -l)" = 2 ] || fail "ClusterClaims"
grep -q '^v3.management.cattle.io *Local *True' <(k get apiservices) || fail "the flavour CRDs' APIServices"

stop_sim
echo "monitoring fixtures e2e: ok"
