# Sourced by the kubectl e2e scripts: a c5c3-sim apiserver in a temporary
# directory, kubectl pointed at it, and the helpers around them.
#   start_sim <c5c3-sim> [apiserver flags...]   sets D, PID, KUBECONFIG; defines k
#   stop_sim                                    SIGTERM, exit code 0 expected
#   fail MSG; until_ok SECONDS CMD...
KUBECTL=/usr/bin/kubectl
D=$(mktemp -d /tmp/c5c3-sim-e2e.XXXXXX)
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- server stderr"; tail -50 "$D/err"; exit 1; }
# Polls a command until it succeeds, at most $1 seconds.
until_ok() { local t=$1; shift; local end=$((SECONDS + t)); while ! "$@" >/dev/null 2>&1; do
  [ $SECONDS -ge $end ] && return 1; sleep 0.1; done; }
k() { "$KUBECTL" --request-timeout=20s "$@"; }
start_sim() {
  local sim="$1"; shift
  # A second server in the same $D: the backgrounded shell truncates "$D/out" only once it has forked, so a
  # grep right after could still read the first server's "listening" (and its kubeconfig): remove both.
  rm -f "$D/out" "$D/kc"
  "$sim" apiserver --listen 127.0.0.1:0 --kubeconfig-out "$D/kc" "$@" >"$D/out" 2>"$D/err" &
  PID=$!
  until_ok 20 grep -q listening "$D/out" || fail "server did not start"
  export KUBECONFIG="$D/kc"
}
stop_sim() {
  kill -TERM "$PID"
  wait "$PID"
  local rc=$?
  PID=
  [ $rc = 0 ] || fail "exit code $rc on SIGTERM"
}
