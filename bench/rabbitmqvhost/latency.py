"""P4 and P5 of issue 19 for RabbitMQVhost orders, for `bench_rabbitmqvhost.py --changes M` and `--restart`.

P4, the latency of one spec change: at N converged orders, M changes, one at a time, each of one order's
spec.rotation.interval (720h <-> 721h: the order's new generation makes the operator write status, its
observedGeneration and nextRotation; no child changes, no rotation starts), order i % N for the i-th change.
Each change is timed from just before its merge PATCH is sent to the moment a watch of the orders (started
before the first change, on its own thread) sees status.observedGeneration reach the generation the PATCH
answered; the next change starts once it is seen.

P5, a restart: SIGTERM to the operator over the N converged orders, then the same command again; the new
operator's requests by verb (its rest_client_requests_total, which starts at 0) until it is quiet, the
seconds from its start until /readyz answers 200, and until it is quiet: no request and no pass
(controller_runtime_reconcile_total) for --quiet seconds (the quiet time is the last change's).
"""
import json
import re
import subprocess
import threading
import time
import urllib.error
import urllib.request

from kubernetes import client

from benchlib import cpu_seconds, diff, requests_by_method, rss_kib, wait_for
from rotation import _follow, percentile

GROUP, VERSION, PLURAL, NS = "c5c3.io", "v1alpha1", "rabbitmqvhosts", "tenant-a"
WRITES = ("POST", "PUT", "PATCH", "DELETE")


class GenerationWatch:
    """When this process first saw each (order, status.observedGeneration)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.seen = {}
        self.relists = {"orders": 0}
        self.stop = threading.Event()
        custom = client.CustomObjectsApi()
        orders = lambda **kw: custom.list_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, **kw)  # noqa: E731
        self.thread = threading.Thread(target=_follow, args=(orders, self._order, self.relists, "orders", self.stop),
                                       daemon=True)
        self.thread.start()

    def _order(self, o, t):
        key = (o["metadata"]["name"], (o.get("status") or {}).get("observedGeneration", 0))
        with self.lock:
            self.seen.setdefault(key, t)

    def count(self):
        with self.lock:
            return len({name for name, _ in self.seen})

    def at(self, name, generation):
        with self.lock:
            return self.seen.get((name, generation))


def spec_changes(names, changes, metrics, timeout=120):
    """P4: prints p50/p99/max of change -> status written over `changes` changes, and the requests per change."""
    api = client.CustomObjectsApi()
    watch = GenerationWatch()
    # Every order seen once (the watch's list is in and its watch runs): a change made before would be
    # stamped with the list's time.
    wait_for(lambda: watch.count() >= len(names), f"the watch's list of {len(names)} orders", 600)
    time.sleep(1)
    intervals = {}
    latencies, round_trips = [], []
    req0 = requests_by_method(metrics)
    t_start = time.time()
    try:
        for i in range(changes):
            name = names[i % len(names)]
            interval = "721h" if intervals.get(name, "720h") == "720h" else "720h"
            intervals[name] = interval
            t0 = time.time()
            o = api.patch_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, name,
                                                   {"spec": {"rotation": {"interval": interval}}})
            round_trips.append(time.time() - t0)
            gen = o["metadata"]["generation"]
            deadline = t0 + timeout
            while watch.at(name, gen) is None:
                if time.time() > deadline:
                    raise SystemExit(f"change {i} of {name}: status.observedGeneration {gen} not seen in {timeout} s")
                time.sleep(0.001)
            latencies.append(watch.at(name, gen) - t0)
    finally:
        watch.stop.set()
    seconds = time.time() - t_start
    time.sleep(2)  # the last status write's requests counted
    req = diff(req0, requests_by_method(metrics))
    ms = [x * 1000 for x in latencies]
    print(f"P4 spec change -> status written        {len(ms)} changes over {len(set(names[:changes]))} orders "
          f"in {seconds:.1f} s: p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
          f"max {max(ms):.1f} ms (change {ms.index(max(ms))}; min {min(ms):.1f} ms; the PATCH's round trip p50 "
          f"{percentile([x * 1000 for x in round_trips], 0.5):.1f} ms)")
    print(f"P4 operator requests per change         {sum(req.values()) / changes:.2f}  "
          + ", ".join(f"{k} {v / changes:.2f}" for k, v in req.items() if v))
    if watch.relists["orders"]:
        print(f"P4 watch relists after 410              {watch.relists['orders']}")


def _get(url):
    try:
        return urllib.request.urlopen(url, timeout=5).status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return None


def _passes(metrics_url):
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    return sum(float(m.group(1)) for m in re.finditer(r'^controller_runtime_reconcile_total\{[^}]*\} ([0-9.e+]+)$',
                                                        text, re.M))


def restart(ps, op_argv, metrics_port, health_port, orders, ready_count, quiet=10, timeout=1800):
    """P5: stops the operator (SIGTERM), starts `op_argv` again (its metrics on metrics_port, /readyz on
    health_port), and prints the writes it makes, the seconds to /readyz 200 and to quiet."""
    old = ps.procs["operator"]
    t_stop = time.time()
    old.terminate()
    try:
        old.wait(60)
    except subprocess.TimeoutExpired:
        old.kill()
        old.wait()
        print("P5 the operator did not end within 60 s of SIGTERM: killed")
    stopped = time.time() - t_stop
    argv = [a for a in op_argv]
    for flag, port in (("--metrics-bind-address", metrics_port), ("--health-probe-bind-address", health_port)):
        argv[argv.index(flag) + 1] = f"127.0.0.1:{port}"
    metrics, readyz = f"http://127.0.0.1:{metrics_port}/metrics", f"http://127.0.0.1:{health_port}/readyz"
    t0 = time.time()
    p = ps.start("operator-restarted", argv)
    ps.procs["operator"] = ps.procs.pop("operator-restarted")
    ready_at = None
    last, last_change = None, t0
    while time.time() - t0 < timeout:
        now = time.time()
        if ready_at is None and _get(readyz) == 200:
            ready_at = now
        try:
            state = (json.dumps(requests_by_method(metrics), sort_keys=True), _passes(metrics))
        except OSError:
            state = None
        if state != last:
            last, last_change = state, now
        elif ready_at is not None and state is not None and now - last_change >= quiet:
            break
        time.sleep(0.1)
    else:
        raise SystemExit(f"P5: not ready and quiet within {timeout} s")
    req = requests_by_method(metrics)
    writes = {k: v for k, v in req.items() if k in WRITES and v}
    print(f"P5 SIGTERM -> operator exited           {stopped:.1f} s")
    print(f"P5 restart -> /readyz 200               {ready_at - t0:.1f} s")
    print(f"P5 restart -> quiet                     {last_change - t0:.1f} s (no request and no pass for {quiet} s "
          f"after it; {int(_passes(metrics))} passes)")
    print(f"P5 writes over the restart              {int(sum(writes.values()))}  "
          + ", ".join(f"{k} {int(v)}" for k, v in sorted(writes.items())) + "   (goal 0)")
    print(f"P5 requests over the restart            {int(sum(req.values()))}  "
          + ", ".join(f"{k} {int(v)}" for k, v in sorted(req.items()) if v))
    print(f"P5 restarted operator                   CPU {cpu_seconds(p.pid):.1f} s, "
          f"RSS {rss_kib(p.pid) / 1024:.1f} MiB")
    ready = ready_count()
    print(f"P5 orders Ready after the restart       {ready} of {orders}")
