#!/usr/bin/python3
"""Our operator beside controller-runtime (issue 19, the anchor of P2): memory per RabbitMQVhost order.

In one run: c5c3-sim apiserver, c5c3-sim world and c5c3-operator as processes (bench_rabbitmqvhost.py's
start_world), then the peer (bench/peer/main.go, built by bench/peer/build into ~/.cache/c5c3/peer) run once
over the empty world (its baseline: the same informers, none of the orders' objects), N RabbitMQVhost orders
created with one `kubectl create` and converged by our operator (every order Ready=True), then the peer run
again against the same API server over the same objects. The peer caches, with controller-runtime's cache,
the kinds and label selections our operator caches for RabbitMQVhost orders (bench/README.md, "bench/peer"),
waits until synced and its counts are still for --settle seconds, reports its RSS and exits.

Prints per order: our operator's RSS growth from before the orders to all Ready (bench_rabbitmqvhost.py's
figure), the peer's RSS growth from its baseline run to its run over the N orders (as it runs, and after
runtime.GC + debug.FreeOSMemory), what the peer's informers hold, and the ratio ours / peer's.

--changes M and --restart then measure P4 and P5 over the same orders, as bench_rabbitmqvhost.py does
(bench/rabbitmqvhost/latency.py), so a large N builds its world once.

Usage: bench/peer/bench_peer.py [--orders N] [--bin DIR] [--settle S] [--operator-arg FLAG]...
       [--changes M] [--restart [--quiet S]]
Default: 1000 orders, binaries in build/bin (tools/build).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from kubernetes import client

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "bench"))
sys.path.insert(0, os.path.join(SRC, "bench", "rabbitmqvhost"))
from benchlib import Processes, free_port, rss_kib, stop, wait_for  # noqa: E402
from bench_rabbitmqvhost import build_peer, count_ready, create_orders, order_yaml, start_world  # noqa: E402
import latency  # noqa: E402


def status_kib(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def run_peer(peer, kubeconfig, work, name, settle):
    """One run of the peer: its JSON report."""
    with open(os.path.join(work, name + ".log"), "w") as log:
        out = subprocess.run([peer, "--kubeconfig", kubeconfig, "--operator-namespace", "c5c3-system",
                              "--settle", f"{settle}s"], stdout=subprocess.PIPE, stderr=log, text=True,
                             timeout=3600)
    if out.returncode != 0:
        sys.exit(f"the peer failed ({name}): see {work}/{name}.log")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--orders", type=int, default=1000)
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "bin"))
    ap.add_argument("--settle", type=int, default=5, help="the peer's counts still for this many seconds")
    ap.add_argument("--operator-arg", action="append", default=[], help="an extra flag for c5c3-operator")
    ap.add_argument("--changes", type=int, default=0,
                    help="then P4 over the same orders, as bench_rabbitmqvhost.py --changes (saves a second world)")
    ap.add_argument("--restart", action="store_true", help="then P5, as bench_rabbitmqvhost.py --restart")
    ap.add_argument("--quiet", type=int, default=10, help="--restart: seconds without a request or a pass")
    a = ap.parse_args()
    peer = build_peer()
    work = tempfile.mkdtemp(prefix="c5c3-bench-peer-")
    ps = Processes(work)
    try:
        metrics, kubectl, op_argv = start_world(ps, a.bin, a.operator_arg,
                                                health_port=free_port() if a.restart else None)
        api = client.CustomObjectsApi()
        base = run_peer(peer, ps.kubeconfig, work, "peer-baseline", a.settle)
        op = ps.procs["operator"].pid
        rss0 = rss_kib(op)
        t0 = time.time()
        create_orders(kubectl, work, [("rabbitmqvhost", order_yaml("rabbitmqvhost", f"bench-{i:05d}"))
                                      for i in range(a.orders)], "orders")
        wait_for(lambda: count_ready(api, ["rabbitmqvhost"]) >= a.orders, f"{a.orders} orders Ready", 3600)
        converged = time.time() - t0
        time.sleep(5)  # the last status writes' events in
        rss1 = rss_kib(op)
        hwm1 = status_kib(op, "VmHWM")
        full = run_peer(peer, ps.kubeconfig, work, "peer", a.settle)
        n = a.orders
        ours = (rss1 - rss0) / n
        peer_kib = (full["rss_kib"] - base["rss_kib"]) / max(1, full["orders"])
        peer_gc = (full["rss_after_gc_kib"] - base["rss_after_gc_kib"]) / max(1, full["orders"])
        heap = (full["heap_alloc_after_gc_kib"] - base["heap_alloc_after_gc_kib"]) / max(1, full["orders"])
        print(f"orders                                  {n} RabbitMQVhost, all Ready after {converged:.1f} s")
        print(f"the peer's informers hold               {full['objects']} objects: "
              + ", ".join(f"{k} {v}" for k, v in sorted(full["counts"].items())))
        print(f"  (baseline run, before the orders:     {base['objects']} objects: "
              + ", ".join(f"{k} {v}" for k, v in sorted(base["counts"].items()) if v) + ")")
        print(f"the peer synced in                      {full['synced_seconds']:.1f} s "
              f"(baseline {base['synced_seconds']:.1f} s)")
        print(f"our operator RSS                        {rss0 / 1024:.1f} MiB -> {rss1 / 1024:.1f} MiB, "
              f"{ours:.1f} KiB per order")
        print(f"peer RSS (as it runs)                   {base['rss_kib'] / 1024:.1f} MiB -> "
              f"{full['rss_kib'] / 1024:.1f} MiB, {peer_kib:.1f} KiB per cached order")
        print(f"peer peak RSS (VmHWM)                   {base['hwm_kib'] / 1024:.1f} MiB -> "
              f"{full['hwm_kib'] / 1024:.1f} MiB, {(full['hwm_kib'] - base['hwm_kib']) / max(1, full['orders']):.1f} "
              f"KiB per cached order (ours: {hwm1 / 1024:.1f} MiB)")
        print(f"peer RSS (after GC + FreeOSMemory)      {base['rss_after_gc_kib'] / 1024:.1f} MiB -> "
              f"{full['rss_after_gc_kib'] / 1024:.1f} MiB, {peer_gc:.1f} KiB per cached order "
              f"(Go heap live {heap:.1f} KiB per order)")
        print(f"ratio ours / peer                       {ours / peer_kib:.2f} (as it runs), "
              f"{ours / peer_gc:.2f} (after GC)")
        if a.changes:
            latency.spec_changes([f"bench-{i:05d}" for i in range(n)], a.changes, metrics)
        if a.restart:
            latency.restart(ps, op_argv, free_port(), free_port(), n,
                            lambda: count_ready(api, ["rabbitmqvhost"]), a.quiet)
    finally:
        stop(ps.procs, work)


if __name__ == "__main__":
    main()
