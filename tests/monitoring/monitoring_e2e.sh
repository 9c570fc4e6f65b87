#!/bin/bash
# e2e: the monitoring controllers as processes over real sockets. c5c3-sim
# apiserver (sim/crds and deploy/crds), c5c3-sim trickster (the backend) and
# c5c3-operator --controllers=monitoring; kubectl applies what a user would.
#   1. standalone: a Prometheus with its Service, `auto` and `federated`
#      ServiceMonitors: the labels patched, the AppBindings, the preset, one
#      registration; a client-org Namespace gets its monitoring namespace,
#      RoleBinding, AppBinding, Secret and a dashboard copy that follows its
#      source, and loses them on deletion (its context unregistered); deleting
#      the Prometheus removes the preset and unregisters.
#   2. Rancher (a fresh API server, a new operator: the flavour is detected
#      once per process): rancher-monitoring and a project Prometheus; a
#      federated ServiceMonitor gets its copies in the project's namespace.
# usage: monitoring_e2e.sh <c5c3-sim> <c5c3-operator> <source dir>
set -u
SIM="$1"
OP="$2"
SRC="$3"
FX="$SRC/sim/monitoring/fixtures"
. "$(dirname "$0")/../sim/sim_e2e_lib.sh"
TOKEN=e2e-platform-token
OPID=
TPID=
stop_all() { [ -n "$OPID" ] && kill "$OPID" 2>/dev/null; [ -n "$TPID" ] && kill "$TPID" 2>/dev/null; cleanup; }
trap stop_all EXIT
opfail() { echo "--- operator log"; tail -40 "$D/op.log"; fail "$@"; }

start_backend() {
  rm -f "$D/tr.env"  # the previous stand-in's, in the same directory
  "$SIM" trickster --token "$TOKEN" --grafana-url https://grafana.example --env-out "$D/tr.env" >"$D/tr.out" 2>&1 &
  TPID=$!
  until_ok 20 test -s "$D/tr.env" || fail "trickster did not start"
  . "$D/tr.env"
}
start_operator() {
  "$OP" --kubeconfig "$D/kc" --controllers=monitoring --namespace monitoring-operator \
    --baseURL "$TRICKSTER_URL" --token "$TOKEN" \
    --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0 >"$D/op.log" 2>&1 &
  OPID=$!
}
stop_operator() {
  kill -TERM "$OPID"
  wait "$OPID"
  local rc=$?
  OPID=
  [ $rc = 0 ] || opfail "operator exit code $rc on SIGTERM"
}
# state EXPR: a Python expression over the backend's /sim/state `s`.
state() { /usr/bin/python3 - "$TRICKSTER_URL/sim/state" "$1" <<'P'
import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1], timeout=10))
sys.exit(0 if eval(sys.argv[2]) else 1)
P
}
label() { k get servicemonitor -n "$1" "$2" -o jsonpath="{.metadata.labels.release}"; }
is() { [ "$("${@:2}" 2>/dev/null)" = "$1" ]; }

# ---- 1. standalone ----
start_sim "$SIM" --crds "$SRC/sim/crds" --crds "$SRC/deploy/crds"
start_backend
start_operator
k apply -f "$FX/standalone/prometheus.yaml" -f "$FX/standalone/servicemonitors.yaml" >"$D/a.out" 2>&1 ||
  fail "apply: $(cat "$D/a.out")"
until_ok 90 is kube-prometheus-stack label demo api-auto || opfail "the auto ServiceMonitor was not labelled"
until_ok 30 is kube-prometheus-stack label demo api-federated || opfail "the federated ServiceMonitor was not labelled"
until_ok 60 k get secret -n monitoring default-grafana-auth || opfail "no Secret default-grafana-auth"
until_ok 30 is Prometheus k get appbinding -n monitoring default-prometheus -o jsonpath='{.spec.type}' || opfail "AppBinding default-prometheus"
until_ok 30 is https://grafana.example k get appbinding -n monitoring default-grafana -o jsonpath='{.spec.clientConfig.url}' ||
  opfail "AppBinding default-grafana"
until_ok 30 is true k get clusterchartpreset monitoring-presets -o jsonpath='{.metadata.labels.charts\.x-helm\.dev/is-default-preset}' ||
  opfail "ClusterChartPreset monitoring-presets"
until_ok 30 is monitoring.appscode.com/prometheus k get prometheus -n monitoring kube-prometheus-stack-prometheus \
  -o jsonpath='{.metadata.finalizers[0]}' || opfail "the finalizer"
until_ok 30 state 'len(s["registrations"]) == 1 and s["registrations"][0]["registers"] == 1 and s["registrations"][0]["context"]["default"]' ||
  opfail "one default registration: $(k get rolebinding -n monitoring -o yaml)"
# The client org (the ClientOrgReconciler, controller "namespace").
k apply -f "$FX/clientorg/sources.yaml" -f "$FX/clientorg/org.yaml" >"$D/o.out" 2>&1 || fail "client org: $(cat "$D/o.out")"
M=acme-monitoring
until_ok 60 is Overview k get grafanadashboard -n "$M" overview -o jsonpath='{.spec.model.title}' || opfail "no dashboard copy in $M"
is constant k get grafanadashboard -n "$M" overview -o jsonpath='{.spec.model.templating.list[0].type}' || opfail "the namespace variable"
is acme k get grafanadashboard -n "$M" overview -o jsonpath='{.spec.model.templating.list[0].query}' || opfail "the namespace value"
is apps/overview k get grafanadashboard -n "$M" overview -o jsonpath='{.metadata.annotations.meta\.appcode\.com/source}' ||
  opfail "the source annotation"
is ace.org.42 k get rolebinding -n "$M" appscode:client-org:monitoring -o jsonpath='{.subjects[0].name}' || opfail "the RoleBinding"
is grafana-auth k get appbinding -n "$M" grafana -o jsonpath='{.spec.secret.name}' || opfail "AppBinding grafana"
k get secret -n "$M" grafana-auth >/dev/null || opfail "no Secret grafana-auth"
is monitoring.appscode.com/prometheus k get namespace acme -o jsonpath='{.metadata.finalizers[0]}' || opfail "the client org's finalizer"
state 'sum(r["registers"] for r in s["registrations"] if r["context"].get("clientOrgID") == "42") == 1' ||
  opfail "not one client-org registration"
k patch grafanadashboard -n apps overview --type merge -p '{"spec":{"model":{"title":"KubeDB / Pods"}}}' >/dev/null ||
  fail "patch the source dashboard"
until_ok 30 is Pods k get grafanadashboard -n "$M" overview -o jsonpath='{.spec.model.title}' || opfail "the copy did not follow its source"
k delete namespace acme --timeout=60s >/dev/null || opfail "delete the client org"
until_ok 30 eval '! k get namespace "$M" >/dev/null 2>&1' || opfail "$M is still there"
state 'len(s["unregistered"]) == 1 and len(s["registrations"]) == 1' || opfail "the client org was not unregistered"
k delete prometheus -n monitoring kube-prometheus-stack-prometheus --timeout=60s >/dev/null || opfail "delete Prometheus"
! k get clusterchartpreset monitoring-presets >/dev/null 2>&1 || opfail "the preset is still there"
until_ok 30 state 'len(s["unregistered"]) == 2 and s["unregisterCalls"] == 2 and not s["registrations"]' ||
  opfail "not unregistered exactly once within 30 s"
grep -q "$TOKEN" "$D/op.log" && opfail "the backend token reached the log"
grep -q "org-42-token" "$D/op.log" && opfail "the client org's Grafana token reached the log"
stop_operator
# Still once with the operator gone: no later pass (one on the terminating
# object the cache still showed) unregistered again.
state 's["unregisterCalls"] == 2' || fail "unregistered more than once"
kill "$TPID"; wait "$TPID" 2>/dev/null; TPID=
stop_sim

# ---- 2. Rancher: the federated copies ----
start_sim "$SIM" --crds "$SRC/sim/crds" --crds "$SRC/deploy/crds"
start_backend
k apply -f "$FX/rancher/crds.yaml" >"$D/rc.out" 2>&1 || fail "rancher CRDs: $(cat "$D/rc.out")"
until_ok 20 k get clusters.management.cattle.io || fail "the Rancher kind is not served"
sed -e "s#RANCHER_URL#https://127.0.0.1:1/v3#" -e "s#RANCHER_TOKEN#token-x:unused#" "$FX/rancher/cluster.yaml" >"$D/cluster.yaml"
k apply -f "$D/cluster.yaml" >"$D/r.out" 2>&1 || fail "rancher cluster: $(cat "$D/r.out")"
cat >"$D/shop.yaml" <<'Y'
apiVersion: v1
kind: Service
metadata: {name: api, namespace: shop, labels: {app: api}}
spec: {clusterIP: 10.96.0.42, ports: [{name: metrics, port: 8080, targetPort: 8080}]}
---
apiVersion: v1
kind: Endpoints
metadata: {name: api, namespace: shop, labels: {app: api}}
subsets: [{addresses: [{ip: 10.244.1.7}], ports: [{name: metrics, port: 8080}]}]
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: api, namespace: shop, labels: {monitoring.appscode.com/prometheus: federated}}
spec:
  selector: {matchLabels: {app: api}}
  namespaceSelector: {matchNames: [shop]}
  endpoints: [{port: metrics}]
Y
k apply -f "$D/shop.yaml" >"$D/s.out" 2>&1 || fail "shop: $(cat "$D/s.out")"
start_operator
C=cattle-project-p-abc-monitoring
until_ok 90 k get servicemonitor -n "$C" api || opfail "no copy of the ServiceMonitor"
until_ok 30 is 10.96.0.42 k get endpoints -n "$C" api -o jsonpath='{.subsets[0].addresses[0].ip}' ||
  opfail "the Endpoints copy"
is ClusterIP k get service -n "$C" api -o jsonpath='{.spec.type}' || opfail "the Service copy"
is '(|shop)' k get servicemonitor -n "$C" api -o jsonpath='{.spec.endpoints[0].metricRelabelings[0].regex}' ||
  opfail "the namespace keep rule"
is cattle-project-p-abc-m-prometheus k get servicemonitor -n "$C" api -o jsonpath='{.metadata.ownerReferences[0].name}' ||
  opfail "the copy is not the project Prometheus's"
# rancher-monitoring's Prometheus selects every ServiceMonitor ({}): the source gets no label.
is "" label shop api || opfail "the source was labelled for a selector that asks for none"
until_ok 60 k get chartpreset -n cattle-project-p-abc monitoring-presets || opfail "the project's ChartPreset"
stop_operator
echo "PASS"
