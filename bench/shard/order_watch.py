"""The orders as a watch delivers them (kubectl get -w --output-watch-events -o json): when every order is first held by a live replica and
Ready again after a kill, to the event that made it so, not to the next poll of a list of thousands (a list of
10,000 orders takes seconds to serve and decode, and the polls added that much to each handoff measured so).

Used by bench_shard.py --kill: started once the orders are converged, ready() once its initial ADDED events
have all come, then killed(live) at the kill, done_after() the seconds from there.
"""
import json
import subprocess
import threading
import time


def _state(o):
    """(holder label, Ready=True) of an order."""
    ready = [c for c in (o.get("status") or {}).get("conditions") or [] if c.get("type") == "Ready"]
    holder = (o["metadata"].get("labels") or {}).get("c5c3.io/shard", "")
    return holder, bool(ready) and ready[0].get("status") == "True"


class OrderWatch:
    def __init__(self, kubectl, resource, namespace, orders):
        self.orders = orders
        self.state = {}
        self.live = None  # set at the kill: until then nothing is awaited
        self.bad = set()
        self.kill_at = None
        self.done_at = None
        self.moved_at = {}  # an order bad at the kill: when it was last made good
        self.events = 0
        self.lock = threading.Lock()
        self.p = subprocess.Popen(kubectl + ["get", resource, "-n", namespace, "--watch", "--output-watch-events",
                                             "-o", "json", "--request-timeout=0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _good(self, name):
        holder, ready = self.state[name]
        return ready and holder in self.live

    def _read(self):
        # kubectl prints one event per line; the initial list (over 500 items: the pages of a chunked list) as
        # one ADDED event holding a List, as it does against kube-apiserver.
        for line in self.p.stdout:
            if not line.strip():
                continue
            ev = json.loads(line)
            o = ev.get("object") or {}
            for item in o.get("items", [o]) if "items" in o else [o]:
                self._event(ev.get("type"), item, time.time())

    def _event(self, type_, o, at):
        name = (o.get("metadata") or {}).get("name")
        if not name:
            return
        with self.lock:
            self.events += 1
            self.state[name] = _state(o) if type_ != "DELETED" else ("", False)
            if self.live is None:
                return
            if self._good(name):
                self.bad.discard(name)
                if name in self.moved_at:
                    self.moved_at[name] = at
            else:
                self.bad.add(name)
            if not self.bad and self.done_at is None:
                self.done_at = at

    def ready(self):
        """Every order's initial state has come."""
        with self.lock:
            return len(self.state) >= self.orders

    def killed(self, live):
        """The kill: from now on, every order must be held by one of `live` and Ready."""
        with self.lock:
            self.kill_at = time.time()
            self.live = set(live)
            self.bad = {n for n in self.state if not self._good(n)}
            self.moved_at = {n: None for n in self.bad}
            if not self.bad:
                self.done_at = self.kill_at

    def done_after(self):
        """Seconds from the kill until every order was held by a live replica and Ready (None: not yet)."""
        with self.lock:
            return None if self.done_at is None else self.done_at - self.kill_at

    def moved_after(self):
        """Seconds from the kill until the first, the median and the last of the orders bad at the kill were good
        again (None before all were)."""
        with self.lock:
            ts = sorted(t - self.kill_at for t in self.moved_at.values() if t is not None)
            if not ts or len(ts) < len(self.moved_at):
                return None
            return ts[0], ts[len(ts) // 2], ts[-1]

    def stop(self):
        self.p.kill()
        self.p.wait()
