#!/bin/bash
# e2e: python3-kubernetes against the c5c3-sim binary. usage: python_e2e.sh <c5c3-sim>
set -u
SIM="$1"
D=$(mktemp -d /tmp/c5c3-python-e2e.XXXXXX)
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -30 "$D/err"; exit 1; }
"$SIM" apiserver --listen 127.0.0.1:0 --kubeconfig-out "$D/kc" >"$D/out" 2>"$D/err" &
PID=$!
end=$((SECONDS + 20))
until grep -q listening "$D/out"; do [ $SECONDS -ge $end ] && fail "server did not start"; sleep 0.1; done
/usr/bin/python3 "$(dirname "$0")/python_e2e.py" "$D/kc" || fail "python3-kubernetes e2e"
