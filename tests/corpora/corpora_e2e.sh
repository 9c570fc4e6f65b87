#!/usr/bin/env bash
# Starts `c5c3-sim apiserver` with deploy/crds and sim/crds and applies every
# corpus case to it with kubectl (apply_corpora.py).
# usage: corpora_e2e.sh PATH/TO/c5c3-sim PROJECT_ROOT
set -euo pipefail
sim=$1
root=$2
dir=$(mktemp -d)
pid=
cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
"$sim" apiserver --listen 127.0.0.1:0 --kubeconfig-out "$dir/kubeconfig" \
  --crds "$root/deploy/crds" --crds "$root/sim/crds" >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  grep -q '^listening on' "$dir/out" && break
  sleep 0.1
done
if ! grep -q '^listening on' "$dir/out"; then
  echo "FAIL: the emulator did not start"
  cat "$dir/out"
  exit 1
fi
/usr/bin/python3 "$root/tests/corpora/apply_corpora.py" "$dir/kubeconfig" "$root/tests/corpora"
