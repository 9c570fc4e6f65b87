#!/bin/bash
# e2e: the grafana controllers as processes over real sockets. c5c3-sim
# apiserver (deploy/crds), c5c3-sim grafana (an API key) and c5c3-operator
# --controllers=grafana; kubectl applies the AppBinding, its Secret and a
# GrafanaDashboard: the stand-in holds it, an edit updates it, a 401 from
# Grafana makes it Failed with a Warning Event kubectl shows (and Current again
# once the fault is gone), a delete removes it; a GrafanaDatasource likewise.
# usage: grafana_e2e.sh <c5c3-sim> <c5c3-operator> <source dir>
set -u
SIM="$1"
OP="$2"
SRC="$3"
. "$(dirname "$0")/../sim/sim_e2e_lib.sh"
KEY=e2e-grafana-key-s3cret
OPID=
GPID=
stop_all() { [ -n "$OPID" ] && kill "$OPID" 2>/dev/null; [ -n "$GPID" ] && kill "$GPID" 2>/dev/null; cleanup; }
trap stop_all EXIT
opfail() { echo "--- operator log"; tail -40 "$D/op.log"; fail "$@"; }
# grafana EXPR: a Python expression over the stand-in's /sim/state `s` (org 1's dashboards `d`, datasources `ds`).
grafana() { /usr/bin/python3 - "$GRAFANA_URL/sim/state" "$1" <<'P'
import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1], timeout=10))
org = [o for o in s["orgs"] if o["id"] == 1][0]
d, ds = org["dashboards"], org["datasources"]
sys.exit(0 if eval(sys.argv[2]) else 1)
P
}
post() { /usr/bin/python3 - "$1" "$2" "${3:-POST}" <<'P'
import sys, urllib.request
r = urllib.request.Request(sys.argv[1], data=sys.argv[2].encode() or None, method=sys.argv[3],
                           headers={"Content-Type": "application/json"})
urllib.request.urlopen(r, timeout=10)
P
}
is() { [ "$("${@:2}" 2>/dev/null)" = "$1" ]; }
phase() { k get "$1" -n "$2" "$3" -o jsonpath='{.status.phase}'; }

start_sim "$SIM" --crds "$SRC/deploy/crds"
"$SIM" grafana --api-key "$KEY" --env-out "$D/g.env" >"$D/g.out" 2>&1 &
GPID=$!
until_ok 20 test -s "$D/g.env" || fail "grafana did not start"
. "$D/g.env"
cat >"$D/ab.yaml" <<Y
apiVersion: v1
kind: Namespace
metadata: {name: monitoring}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: Secret
metadata: {name: default-grafana-auth, namespace: monitoring}
stringData: {token: $KEY}
---
apiVersion: appcatalog.appscode.com/v1alpha1
kind: AppBinding
metadata: {name: default-grafana, namespace: monitoring, annotations: {monitoring.appscode.com/is-default-grafana: "true"}}
spec:
  type: Grafana
  clientConfig: {url: "$GRAFANA_URL"}
  secret: {name: default-grafana-auth}
  parameters: {apiVersion: openviz.dev/v1alpha1, kind: GrafanaConfiguration, datasource: ds-1}
Y
k apply -f "$D/ab.yaml" >"$D/a.out" 2>&1 || fail "apply: $(cat "$D/a.out")"
"$OP" --kubeconfig "$D/kc" --controllers=grafana --namespace monitoring --requeue-after-duration=500ms \
  --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0 >"$D/op.log" 2>&1 &
OPID=$!

cat >"$D/db.yaml" <<'Y'
apiVersion: openviz.dev/v1alpha1
kind: GrafanaDashboard
metadata: {name: overview, namespace: team-a}
spec:
  model: {title: Overview, panels: [{type: graph, title: cpu}]}
Y
k apply -f "$D/db.yaml" >"$D/d.out" 2>&1 || fail "apply dashboard: $(cat "$D/d.out")"
until_ok 90 is Current phase grafanadashboard team-a overview || opfail "the dashboard is not Current: $(k get grafanadashboard -n team-a overview -o yaml)"
is True k get grafanadashboard -n team-a overview -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' || opfail "not Ready"
UID_=$(k get grafanadashboard -n team-a overview -o jsonpath='{.status.dashboard.uid}')
[ -n "$UID_" ] || opfail "no status.dashboard.uid"
grafana "[x['title'] for x in d if x['uid'] == '$UID_'] == ['Overview']" || opfail "the stand-in does not hold it"

k patch grafanadashboard -n team-a overview --type merge -p '{"spec":{"model":{"title":"Overview v2"}}}' >/dev/null || fail "patch"
until_ok 30 grafana "[x['title'] for x in d if x['uid'] == '$UID_'] == ['Overview v2'] and len(d) == 1" ||
  opfail "the edit did not reach the stand-in"

# A 401 from Grafana: Failed, a Warning Event; Current again once the fault is gone.
post "$GRAFANA_URL/sim/faults" '{"id":"deny","method":"POST","path":"/api/dashboards/db","status":401,"message":"invalid API key"}'
k patch grafanadashboard -n team-a overview --type merge -p '{"spec":{"model":{"title":"Overview v3"}}}' >/dev/null || fail "patch"
until_ok 30 is Failed phase grafanadashboard team-a overview || opfail "not Failed under a 401"
is "failed to set dashboard, reason: invalid API key" k get grafanadashboard -n team-a overview -o jsonpath='{.status.reason}' ||
  opfail "the reason: $(k get grafanadashboard -n team-a overview -o jsonpath='{.status.reason}')"
until_ok 30 is Warning k get events -n team-a --field-selector involvedObject.name=overview -o 'jsonpath={.items[0].type}' ||
  opfail "no Warning Event: $(k get events -n team-a -o yaml)"
k get events -n team-a --field-selector involvedObject.name=overview -o 'jsonpath={.items[0].message}' | grep -q 'Failed to complete operation for GrafanaDashboard: "overview"' ||
  opfail "the Event's message"
k describe grafanadashboard -n team-a overview | grep -q "invalid API key" || opfail "kubectl describe shows no Event"
post "$GRAFANA_URL/sim/faults/deny" '' DELETE
until_ok 30 is Current phase grafanadashboard team-a overview || opfail "not Current after the fault"
grafana "[x['title'] for x in d if x['uid'] == '$UID_'] == ['Overview v3']" || opfail "v3 not held"

k delete grafanadashboard -n team-a overview --timeout=60s >/dev/null || opfail "delete"
grafana "not d" || opfail "the stand-in still holds the dashboard"

cat >"$D/ds.yaml" <<'Y'
apiVersion: openviz.dev/v1alpha1
kind: GrafanaDatasource
metadata: {name: prom, namespace: monitoring}
spec: {grafanaRef: {name: default-grafana}, orgId: 1, name: prom, type: prometheus, access: proxy, url: "http://p:9090"}
Y
k apply -f "$D/ds.yaml" >"$D/ds.out" 2>&1 || fail "apply datasource: $(cat "$D/ds.out")"
until_ok 60 is Current phase grafanadatasource monitoring prom || opfail "the datasource is not Current"
grafana "[x['url'] for x in ds if x['name'] == 'prom'] == ['http://p:9090']" || opfail "the stand-in has no datasource prom"
k delete grafanadatasource -n monitoring prom --timeout=60s >/dev/null || opfail "delete datasource"
grafana "not [x for x in ds if x['name'] == 'prom']" || opfail "the datasource is still in Grafana"

grep -q "$KEY" "$D/op.log" && opfail "the Grafana key reached the log"
kill -TERM "$OPID"; wait "$OPID"; rc=$?; OPID=
[ $rc = 0 ] || fail "operator exit code $rc on SIGTERM"
echo "PASS"
