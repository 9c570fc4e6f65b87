# Shell helpers for the tools that run test peers on loopback
# (tools/rabbitmq-loopback, tools/real-cluster/real-cluster). Source it.

# N distinct free TCP ports on 127.0.0.1 (all bound at once, then released).
free_ports() {
  /usr/bin/python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

# Is pid $1 alive? Not once it exited: a zombie (exited, not reaped yet) is
# not. A server started in the background is an orphan once its starter
# exits, reaped by init, which takes up to seconds (2 s where this was
# measured): stop would wait that long for nothing.
alive() {
  [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null || return 1
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat%% *} != Z ]]
}

# Waits (bounded by $2 seconds) until pid $1 is gone.
wait_gone() {
  local pid=$1 deadline=$((SECONDS + $2))
  while alive "$pid"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

# Ends pid $1: TERM, then KILL after $2 seconds (default 10).
end_pid() {
  alive "$1" || return 0
  kill -TERM "$1" 2>/dev/null || true
  wait_gone "$1" "${2:-10}" || kill -KILL "$1" 2>/dev/null || true
  wait_gone "$1" 5 || true
}
