#!/bin/bash
# e2e: kubectl 1.32 against the c5c3-sim binary over real sockets.
# usage: kubectl_e2e.sh <path to c5c3-sim>
set -u
SIM="$1"
KUBECTL=/usr/bin/kubectl
D=$(mktemp -d /tmp/c5c3-kubectl-e2e.XXXXXX)
PID=
PLAIN=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; [ -n "$PLAIN" ] && kill "$PLAIN" 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- server stderr"; tail -50 "$D/err"; exit 1; }
# Polls a command until it succeeds, at most $1 seconds.
until_ok() { local t=$1; shift; local end=$((SECONDS + t)); while ! "$@" >/dev/null 2>&1; do
  [ $SECONDS -ge $end ] && return 1; sleep 0.1; done; }

"$SIM" apiserver --listen 127.0.0.1:0 --kubeconfig-out "$D/kc" >"$D/out" 2>"$D/err" &
PID=$!
until_ok 20 grep -q listening "$D/out" || fail "server did not start"
[ "$(wc -l <"$D/out")" = 1 ] || fail "expected exactly one line on stdout"
grep -Eq '^listening on https://127\.0\.0\.1:[0-9]+$' "$D/out" || fail "bad ready line: $(cat "$D/out")"
export KUBECONFIG="$D/kc"
k() { "$KUBECTL" --request-timeout=20s "$@"; }

cat >"$D/crd.yaml" <<'Y'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
    schema:
      openAPIV3Schema:
        type: object
        description: A widget for the emulator's tests.
        properties:
          spec:
            type: object
            description: What the widget should look like.
            properties:
              size: {type: integer, description: How big it is.}
              color: {type: string}
          status:
            type: object
            properties:
              ready: {type: boolean}
Y
# Applying a kind nobody serves yet: kubectl (validation on) falls back to
# /openapi/v2 in protobuf and then reports the missing mapping, as against
# kube-apiserver, not a content-type error.
cat >"$D/gadget.yaml" <<'Y'
apiVersion: example.com/v1
kind: Gadget
metadata: {name: g1}
Y
k apply -f "$D/gadget.yaml" >"$D/gadget.out" 2>&1 && fail "apply of an unserved kind succeeded"
grep -q 'no matches for kind "Gadget"' "$D/gadget.out" || fail "apply of an unserved kind: $(cat "$D/gadget.out")"

# kubectl create sends protobuf bodies for built-ins.
k create namespace team-a || fail "create namespace"
[ "$(k get ns team-a -o jsonpath='{.status.phase}')" = Active ] || fail "namespace phase"
k create configmap -n team-a cfg --from-literal=a=b || fail "create configmap"
[ "$(k get cm -n team-a cfg -o jsonpath='{.data.a}')" = b ] || fail "configmap data"
k create secret generic -n team-a sec --from-literal=k=v || fail "create secret generic"
[ "$(k get secret -n team-a sec -o jsonpath='{.data.k}')" = dg== ] || fail "secret data"
k create serviceaccount -n team-a robot || fail "create serviceaccount"
k create service clusterip -n team-a web --tcp=80:8080 || fail "create service"
[ "$(k get svc -n team-a web -o jsonpath='{.spec.ports[0].targetPort}')" = 8080 ] || fail "service port"
k create role -n team-a reader --verb=get --resource=configmaps || fail "create role"
[ "$(k get role -n team-a reader -o jsonpath='{.rules[0].verbs[0]}')" = get ] || fail "role rules"
k create rolebinding -n team-a read --role=reader --serviceaccount=team-a:robot || fail "create rolebinding"
[ "$(k get rolebinding -n team-a read -o jsonpath='{.subjects[0].name}')" = robot ] || fail "rolebinding subjects"

k apply -f "$D/crd.yaml" || fail "apply crd"
k wait --for=condition=Established crd/widgets.example.com --timeout=30s || fail "wait Established"

cat >"$D/w.yaml" <<'Y'
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
spec: {size: 1, color: red}
Y
k apply -f "$D/w.yaml" || fail "client-side apply"
[ "$(k get widget w1 -o jsonpath='{.spec.size}')" = 1 ] || fail "size after apply"
sed -i 's/size: 1/size: 2/' "$D/w.yaml"
k apply -f "$D/w.yaml" || fail "client-side apply update"
[ "$(k get wd w1 -o jsonpath='{.spec.size}')" = 2 ] || fail "size after second apply"

# Server-side apply: a second manager conflicts on spec.size, then forces.
cat >"$D/w-ssa.yaml" <<'Y'
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
spec: {size: 3}
Y
k apply --server-side --field-manager=other -f "$D/w-ssa.yaml" >"$D/ssa.out" 2>&1 && fail "SSA should conflict"
grep -q "conflict" "$D/ssa.out" || fail "SSA conflict message: $(cat "$D/ssa.out")"
k apply --server-side --field-manager=other --force-conflicts -f "$D/w-ssa.yaml" || fail "SSA force"
[ "$(k get widget w1 -o jsonpath='{.spec.size}')" = 3 ] || fail "size after forced SSA"

# get -o json|yaml|wide with printer columns
k get widgets -o json | grep -q '"kind": "WidgetList"' || k get widgets -o json | grep -q '"kind": "List"' || fail "get -o json"
k get widget w1 -o yaml | grep -q "name: w1" || fail "get -o yaml"
k get widgets | head -1 | grep -q "SIZE" || fail "printer column SIZE: $(k get widgets 2>&1)"
k get widgets | head -1 | grep -q "COLOR" && fail "priority 1 column without -o wide"
k get widgets -o wide | head -1 | grep -q "COLOR" || fail "-o wide COLOR: $(k get widgets -o wide 2>&1)"

# label, annotate, patch
k label widget w1 team=blue || fail "label"
[ "$(k get widgets -l team=blue -o name)" = "widget.example.com/w1" ] || fail "label selector"
k annotate widget w1 note=hi || fail "annotate"
[ "$(k get widget w1 -o jsonpath='{.metadata.annotations.note}')" = hi ] || fail "annotation"
k patch widget w1 --type merge -p '{"spec":{"color":"green"}}' || fail "patch merge"
k patch widget w1 --type json -p '[{"op":"replace","path":"/spec/size","value":4}]' || fail "patch json"
[ "$(k get widget w1 -o jsonpath='{.spec.color}/{.spec.size}')" = green/4 ] || fail "after patches"
k create configmap -n default cm1 --dry-run=client -o yaml >"$D/cm.yaml"
k apply -f "$D/cm.yaml" || fail "apply configmap"
k label configmap cm1 a=b || fail "label configmap (strategic merge)"
k patch configmap cm1 -p '{"data":{"x":"y"}}' || fail "strategic patch configmap"
[ "$(k get cm cm1 -o jsonpath='{.data.x}')" = y ] || fail "configmap patched"

# get -w sees a change
k get widgets -w --output-watch-events >"$D/watch.out" 2>&1 &
WPID=$!
until_ok 20 grep -q w1 "$D/watch.out" || fail "watch initial"
k patch widget w1 --type merge -p '{"spec":{"size":5}}' >/dev/null || fail "patch during watch"
until_ok 20 grep -q MODIFIED "$D/watch.out" || fail "watch did not see MODIFIED: $(cat "$D/watch.out")"
kill $WPID 2>/dev/null; wait $WPID 2>/dev/null

# get -w with a label selector sees the object leave (DELETED) and come back (ADDED)
k get widgets -l team=blue -w --output-watch-events >"$D/watchsel.out" 2>&1 &
WPID=$!
until_ok 20 grep -q w1 "$D/watchsel.out" || fail "selector watch initial"
k label widget w1 team=red --overwrite >/dev/null || fail "relabel red"
until_ok 20 grep -q DELETED "$D/watchsel.out" || fail "selector watch did not see w1 leave: $(cat "$D/watchsel.out")"
k label widget w1 team=blue --overwrite >/dev/null || fail "relabel blue"
twice_added() { [ "$(grep -c ADDED "$D/watchsel.out")" -ge 2 ]; }
until_ok 20 twice_added || fail "selector watch did not see w1 come back: $(cat "$D/watchsel.out")"
kill $WPID 2>/dev/null; wait $WPID 2>/dev/null

# delete with a finalizer blocks until the finalizer is removed
k patch widget w1 --type merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' || fail "add finalizer"
k delete widget w1 --timeout=60s >"$D/del.out" 2>&1 &
DPID=$!
terminating() { [ -n "$(k get widget w1 -o jsonpath='{.metadata.deletionTimestamp}')" ]; }
until_ok 20 terminating || fail "not terminating"
kill -0 $DPID 2>/dev/null || fail "delete returned while the finalizer is there: $(cat "$D/del.out")"
k patch widget w1 --type json -p '[{"op":"remove","path":"/metadata/finalizers"}]' || fail "remove finalizer"
wait $DPID || fail "delete failed: $(cat "$D/del.out")"
k get widget w1 >/dev/null 2>&1 && fail "w1 still there"

# explain of the custom kind
k explain widget.spec >"$D/explain.out" 2>&1 || fail "explain: $(cat "$D/explain.out")"
grep -q "What the widget should look like" "$D/explain.out" || fail "explain text: $(cat "$D/explain.out")"

# The plain-http listener: kubectl sends no credentials to an http:// server.
"$SIM" apiserver --listen 127.0.0.1:0 --plain-http --kubeconfig-out "$D/kc-plain" >"$D/out-plain" 2>"$D/err-plain" &
PLAIN=$!
until_ok 20 grep -q listening "$D/out-plain" || fail "plain-http server did not start"
KUBECONFIG="$D/kc-plain" k create configmap plain --from-literal=x=y || fail "kubectl over plain http"
[ "$(KUBECONFIG="$D/kc-plain" k get cm plain -o jsonpath='{.data.x}')" = y ] || fail "get over plain http"
kill -TERM $PLAIN; wait $PLAIN; PLAIN=

# SIGTERM: exit 0
kill -TERM $PID
wait $PID
RC=$?
PID=
[ $RC = 0 ] || fail "exit code $RC on SIGTERM"
echo "kubectl e2e: ok"
