#!/bin/bash
# e2e: kubectl 1.32 against the c5c3-sim binary over real sockets: Events
# written through core/v1 and events.k8s.io/v1 show in `kubectl describe` and
# `kubectl get events` (both views), and APIServices as kube-apiserver serves
# them (local ones, one following a CRD, a service-backed one whose
# availability follows its Service and Endpoints).
# usage: kubectl_events_e2e.sh <path to c5c3-sim> <source dir>
set -u
SIM="$1"
SRC="$2"
. "$(dirname "$0")/sim_e2e_lib.sh"
start_sim "$SIM" --crds "$SRC/sim/crds" --crds "$SRC/deploy/crds"

# An object to report about: a GrafanaDashboard (deploy/crds).
cat >"$D/dash.yaml" <<'Y'
apiVersion: openviz.dev/v1alpha1
kind: GrafanaDashboard
metadata: {name: nodes, namespace: default}
spec:
  model: {title: Nodes}
Y
k apply -f "$D/dash.yaml" || fail "apply dashboard"
UID_=$(k get grafanadashboard nodes -o jsonpath='{.metadata.uid}')
[ -n "$UID_" ] || fail "no uid"

# A Warning the way client-go's recorder writes it (core/v1), and a Normal one
# through events.k8s.io/v1.
cat >"$D/ev.yaml" <<Y
apiVersion: v1
kind: Event
metadata: {name: nodes.17a1, namespace: default}
involvedObject: {apiVersion: openviz.dev/v1alpha1, kind: GrafanaDashboard, name: nodes, namespace: default, uid: $UID_}
reason: Failed to complete operation for GrafanaDashboard
message: 'Failed to complete operation for GrafanaDashboard: "nodes", Reason: "grafana answered 503"'
type: Warning
source: {component: grafana-operator}
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
count: 1
---
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: nodes.17a2, namespace: default}
eventTime: "2026-01-01T00:00:05.000000Z"
reportingController: openviz.dev/grafana-operator
reportingInstance: grafana-operator-0
action: Sync
reason: Synced
note: Dashboard is successfully created
type: Normal
regarding: {apiVersion: openviz.dev/v1alpha1, kind: GrafanaDashboard, name: nodes, namespace: default, uid: $UID_}
Y
k apply -f "$D/ev.yaml" || fail "apply events"

k describe grafanadashboard nodes >"$D/describe.out" 2>&1 || fail "describe: $(cat "$D/describe.out")"
grep -q '^Events:' "$D/describe.out" || fail "describe has no Events: $(cat "$D/describe.out")"
grep -q 'Warning  Failed to complete operation for GrafanaDashboard' "$D/describe.out" ||
  fail "describe misses the Warning: $(cat "$D/describe.out")"
grep -q 'Dashboard is successfully created' "$D/describe.out" ||
  fail "describe misses the events.k8s.io event: $(cat "$D/describe.out")"

k get events >"$D/events.out" 2>&1 || fail "get events: $(cat "$D/events.out")"
head -1 "$D/events.out" | grep -q 'LAST SEEN *TYPE *REASON *OBJECT *MESSAGE' || fail "events header: $(cat "$D/events.out")"
grep -q 'grafanadashboard/nodes *Failed to complete' "$D/events.out" || fail "get events row: $(cat "$D/events.out")"
[ "$(grep -c grafanadashboard/nodes "$D/events.out")" = 2 ] || fail "get events lists both: $(cat "$D/events.out")"
[ "$(k get events.v1.events.k8s.io -o name | wc -l)" = 2 ] || fail "events.k8s.io lists both"
[ "$(k get events.v1.events.k8s.io nodes.17a1 -o jsonpath='{.deprecatedSource.component}')" = grafana-operator ] ||
  fail "the core event through events.k8s.io"
[ "$(k get event nodes.17a2 -o jsonpath='{.message}')" = "Dashboard is successfully created" ] ||
  fail "the events.k8s.io event through core"
[ "$(k get events --field-selector type=Warning -o name)" = event/nodes.17a1 ] || fail "field selector type"
k events --for grafanadashboard/nodes >"$D/kevents.out" 2>&1 || fail "kubectl events: $(cat "$D/kevents.out")"
grep -q Synced "$D/kevents.out" || fail "kubectl events --for: $(cat "$D/kevents.out")"

# APIServices: local ones, the CRDs' ones, a service-backed one.
k get apiservices >"$D/as.out" 2>&1 || fail "get apiservices: $(cat "$D/as.out")"
head -1 "$D/as.out" | grep -q 'NAME *SERVICE *AVAILABLE *AGE' || fail "apiservices header: $(cat "$D/as.out")"
grep -q '^v1\. *Local *True' "$D/as.out" || fail "v1. Local True: $(cat "$D/as.out")"
grep -q '^v1.monitoring.coreos.com *Local *True' "$D/as.out" || fail "CRD group version: $(cat "$D/as.out")"
grep -q '^v1alpha1.openviz.dev *Local *True' "$D/as.out" || fail "openviz: $(cat "$D/as.out")"
cat >"$D/inbox.yaml" <<'Y'
apiVersion: v1
kind: Namespace
metadata: {name: monitoring}
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1alpha1.inbox.monitoring.appscode.com}
spec:
  group: inbox.monitoring.appscode.com
  version: v1alpha1
  groupPriorityMinimum: 10000
  versionPriority: 15
  insecureSkipTLSVerify: true
  service: {namespace: monitoring, name: inbox-agent}
Y
k apply -f "$D/inbox.yaml" || fail "apply apiservice"
avail() { k get apiservice v1alpha1.inbox.monitoring.appscode.com --no-headers | awk '{print $3, $4}'; }
[ "$(avail)" = "False (ServiceNotFound)" ] || fail "ServiceNotFound: $(avail)"
k create service clusterip inbox-agent -n monitoring --tcp=443:8443 || fail "create service"
[ "$(avail)" = "False (EndpointsNotFound)" ] || fail "EndpointsNotFound: $(avail)"
cat >"$D/eps.yaml" <<'Y'
apiVersion: v1
kind: Endpoints
metadata: {name: inbox-agent, namespace: monitoring}
subsets:
- addresses: [{ip: 10.0.0.7}]
  ports: [{name: 443-8443, port: 8443}]
Y
k apply -f "$D/eps.yaml" || fail "apply endpoints"
[ "$(k get apiservice v1alpha1.inbox.monitoring.appscode.com -o jsonpath='{.status.conditions[0].reason}')" = Passed ] ||
  fail "Passed: $(k get apiservice v1alpha1.inbox.monitoring.appscode.com -o yaml)"
k describe apiservice v1alpha1.inbox.monitoring.appscode.com >"$D/asd.out" 2>&1 || fail "describe apiservice"
grep -q 'all checks passed' "$D/asd.out" || fail "describe apiservice: $(cat "$D/asd.out")"
k delete apiservice v1alpha1.inbox.monitoring.appscode.com || fail "delete apiservice"

stop_sim
echo "kubectl events e2e: ok"
