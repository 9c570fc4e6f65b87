#!/usr/bin/python3
"""N RabbitMQVhost orders shared by R sharded replicas, for each R asked (issue 17, Measure).

For each replica count (and first, as the baseline, one replica without --sharding): a fresh c5c3-sim
apiserver and c5c3-sim world, R c5c3-operator processes with distinct --shard-name (all their Leases held
before the orders come), N orders created in one go. Printed per row:
  - seconds until every order reads Ready=True and is held (label c5c3.io/shard) by a replica,
  - the replicas' API requests per order until then (their rest_client_requests_total summed),
  - their passes per order until then (controller_runtime_reconcile_total summed: every run of an order actor's pass),
    and the child events per order that woke none (c5c3_child_echoes_total: the echoes of the orders' own writes),
    and below the table the wake-ups that queued a pass per order by cause (c5c3_pass_wakes_total) and the watch
    events the informers passed on per order by kind and type (c5c3_informer_events_total),
  - their requests during the steady state that follows (Lease renewals: R per duration/3),
  - the orders' spread (max/mean of the orders each replica holds),
  - RSS growth per replica (mean and max, MiB) and the replicas' CPU seconds summed,
and the ratios against the unsharded baseline of the same run. --kill then, for each sharded R of 2 or more,
kills one replica with SIGKILL and prints the seconds until every order it held is held by a live replica and
Ready again (the goal: at most the Lease duration + 2 s), to the watch event that completed it (order_watch.py)
and, as before, to the poll of the list that first showed it; the seconds until the survivors' rings dropped
the dead member (its Lease expired: at most the Lease duration); and the survivors'
c5c3_shard_handoff_seconds (from the ring's change to each moved order's first pass). Each replica watches only its share of the
orders and children (label-scoped watches), so RSS per replica should fall with R; --compare adds, for
each sharded R, a row of the same replicas watching everything (C5C3_SHARD_WATCH_ALL=1): the before/after
in one run.

--rounds K runs the rows K times, one round after the other, and prints each sharded row's CPU and time ratios
against its round's first row, and their medians: the machine's load moves between rows, and one round's ratio
is one sample.

Usage: bench/shard/bench_shard.py [--orders N] [--replicas 1,2,3,5] [--steady S] [--bin DIR] [--keep] [--compare]
                                  [--kill] [--rounds K]
Default: 3000 orders, replicas 1,2,3,5, 30 s of steady state, binaries in build/bin (tools/build).
"""
import argparse
import datetime
import json
import os
import re
import signal
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "bench"))
from benchlib import (Processes, cpu_seconds, diff, free_port, gauge_sum, requests_by_method,  # noqa: E402
                      rss_kib, stop, wait_for)
from order_watch import OrderWatch  # noqa: E402

NAMESPACE = "c5c3-system"
LEASE = "15s"


def summed(metrics_urls):
    out = {}
    for url in metrics_urls:
        for k, v in requests_by_method(url).items():
            out[k] = out.get(k, 0) + v
    return out


def passes(metrics_urls):
    """The replicas' passes (controller_runtime_reconcile_total, every controller and result) and the child events
    that woke none (c5c3_child_echoes_total: the echoes of the orders' own writes), each summed."""
    return (sum(gauge_sum(url, "controller_runtime_reconcile_total") for url in metrics_urls),
            sum(gauge_sum(url, "c5c3_child_echoes_total") for url in metrics_urls))


def wakes(metrics_urls):
    """The replicas' c5c3_pass_wakes_total summed by cause: {"order": n, "child": n, "requeue": n, ...}."""
    out = {}
    for url in metrics_urls:
        text = urllib.request.urlopen(url, timeout=10).read().decode()
        for m in re.finditer(r'^c5c3_pass_wakes_total\{[^}]*cause="([^"]*)"[^}]*\} ([0-9.e+]+)$', text, re.M):
            out[m.group(1)] = out.get(m.group(1), 0) + float(m.group(2))
    return out


def informer_events(metrics_urls):
    """The replicas' c5c3_informer_events_total summed by kind and type: {"RabbitMQVhost added": n, ...}."""
    out = {}
    pattern = r'^c5c3_informer_events_total\{([^}]*)\} ([0-9.e+]+)$'
    for url in metrics_urls:
        text = urllib.request.urlopen(url, timeout=10).read().decode()
        for m in re.finditer(pattern, text, re.M):
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
            key = f"{labels.get('kind', '')} {labels.get('type', '')}"
            out[key] = out.get(key, 0) + float(m.group(2))
    return out


def handoff_buckets(metrics_urls):
    """c5c3_shard_handoff_seconds of the replicas, summed: {"count": n, "sum": s, le: n, ...}."""
    out = {}
    for url in metrics_urls:
        text = urllib.request.urlopen(url, timeout=10).read().decode()
        for line in text.splitlines():
            m = re.match(r'c5c3_shard_handoff_seconds_(count|sum|bucket)\{([^}]*)\} ([0-9.e+]+)', line)
            if m:
                key = m.group(1) if m.group(1) != "bucket" else re.search(r'le="([^"]*)"', m.group(2)).group(1)
                out[key] = out.get(key, 0) + float(m.group(3))
    return out


def handoff_seconds(before, after):
    """The handoffs between two handoff_buckets: (count, sum, the least bucket bound holding them all)."""
    d = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    count = d.pop("count", 0)
    total = d.pop("sum", 0)
    bound = next((le for le, n in sorted(d.items(), key=lambda kv: float(kv[0])) if count and n >= count), "+Inf")
    return count, total, bound


def ring_changed_after(work, survivors, t_kill, members):
    """Seconds from the kill until the last of `survivors` logged its ring down to `members` (None: not logged)."""
    seen = []
    for name in survivors:
        for line in open(os.path.join(work, name + ".log"), errors="replace"):
            if '"Ring members changed"' not in line or f'"members":{members},' not in line:
                continue
            ts = re.search(r'"ts":"([^"]+)Z"', line)
            at = datetime.datetime.strptime(ts.group(1), "%Y-%m-%dT%H:%M:%S.%f").replace(
                tzinfo=datetime.timezone.utc).timestamp() if ts else 0
            if at >= t_kill:
                seen.append(at - t_kill)
                break
    return max(seen) if len(seen) == len(survivors) else None


def run(a, replicas, sharded, watch_all=False):
    work = tempfile.mkdtemp(prefix="c5c3-bench-shard-")
    kubeconfig = os.path.join(work, "kubeconfig")
    sim = os.path.join(a.bin, "c5c3-sim")
    kubectl = ["/usr/bin/kubectl", "--kubeconfig", kubeconfig]
    ps = Processes(work)
    procs, start = ps.procs, ps.start

    def get(*args):
        return json.loads(subprocess.run(kubectl + ["get", "--request-timeout=300s", *args, "-o", "json"], check=True,
                                         capture_output=True, text=True).stdout)["items"]

    try:
        ps.start_emulator(sim, SRC)
        start("world", [sim, "world", "--kubeconfig", kubeconfig])
        samples = os.path.join(SRC, "deploy", "samples")
        for f in ["00-namespaces.yaml", "10-controlplane.yaml", "world/10-rabbitmqcluster.yaml",
                  "world/20-clustersecretstore.yaml"]:
            wait_for(lambda: subprocess.run(kubectl + ["apply", "-f", os.path.join(samples, f)],
                                            capture_output=True).returncode == 0, f"apply {f}", 60)
        subprocess.run(kubectl + ["create", "namespace", NAMESPACE], capture_output=True)
        names = [f"replica-{i}" for i in range(replicas)]
        metrics = []
        for name in names:
            port = free_port()
            shard = ["--shard-name", name, "--shard-lease-duration", LEASE] if sharded else []
            start(name, [os.path.join(a.bin, "c5c3-operator"), "--kubeconfig", kubeconfig, "--namespace", NAMESPACE,
                         "--metrics-bind-address", f"127.0.0.1:{port}", "--health-probe-bind-address", "0", *shard],
                  {"C5C3_SHARD_WATCH_ALL": "1"} if watch_all else None)
            metrics.append(f"http://127.0.0.1:{port}/metrics")

        def reachable():
            try:
                summed(metrics)
                return True
            except OSError:
                return False

        wait_for(reachable, "every replica's /metrics", 60)
        if sharded:
            wait_for(lambda: sum(1 for o in get("leases", "-n", NAMESPACE)
                                 if o["spec"].get("holderIdentity")) >= replicas, f"{replicas} Leases held", 60)
        time.sleep(2)  # informers synced, the ControlPlane seen, every replica's ring complete
        pids = {n: procs[n].pid for n in names}
        rss0 = {n: rss_kib(p) for n, p in pids.items()}
        cpu0 = {n: cpu_seconds(p) for n, p in pids.items()}
        req0 = summed(metrics)
        passes0 = passes(metrics)
        wakes0 = wakes(metrics)
        events0 = informer_events(metrics)
        path = os.path.join(work, "orders.json")
        with open(path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": [
                {"apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost",
                 "metadata": {"name": f"vhost-{i:05d}", "namespace": "tenant-a"},
                 "spec": {"controlPlaneRef": {"name": "cp", "namespace": "openstack"}}} for i in range(a.orders)]}, f)
        t0 = time.time()
        subprocess.run(kubectl + ["create", "-f", path], check=True, capture_output=True)
        held = {}
        live = set(pids)

        def converged():
            held.clear()
            try:
                items = get("rabbitmqvhosts", "-n", "tenant-a")
            except subprocess.CalledProcessError:  # a list of thousands may time out on a loaded machine
                return False
            for o in items:
                ready = [c for c in (o.get("status") or {}).get("conditions") or [] if c["type"] == "Ready"]
                if not ready or ready[0]["status"] != "True":
                    return False
                holder = (o["metadata"].get("labels") or {}).get("c5c3.io/shard", "") if sharded else names[0]
                if holder not in live:
                    return False
                held[holder] = held.get(holder, 0) + 1
            return sum(held.values()) == a.orders

        # Polled once a second (a list of thousands of orders is work for the emulator too).
        wait_for(lambda: converged() or time.sleep(1), f"{a.orders} orders Ready on {replicas} replicas", 3600)
        settled = time.time() - t0
        req1 = summed(metrics)
        passes1 = passes(metrics)
        wakes1 = wakes(metrics)
        events1 = informer_events(metrics)
        for name, url in zip(names, metrics):  # kept with the logs (--keep)
            with open(os.path.join(work, name + ".metrics"), "w") as f:
                f.write(urllib.request.urlopen(url, timeout=10).read().decode())
        cpu = sum(cpu_seconds(p) - cpu0[n] for n, p in pids.items())
        growth = [(rss_kib(p) - rss0[n]) / 1024 for n, p in pids.items()]
        time.sleep(a.steady)
        req2 = summed(metrics)
        row = {"replicas": replicas, "sharded": sharded, "watch_all": watch_all, "settled": settled,
               "requests": sum(diff(req0, req1).values()) / a.orders, "steady": int(sum(diff(req1, req2).values())),
               "spread": max(held.get(n, 0) for n in names) / (a.orders / replicas),
               "rss_mean": sum(growth) / len(growth), "rss_max": max(growth), "cpu": cpu,
               "passes": (passes1[0] - passes0[0]) / a.orders, "echoes": (passes1[1] - passes0[1]) / a.orders,
               "wakes": {k: v / a.orders for k, v in diff(wakes0, wakes1).items() if v},
               "events": {k: v / a.orders for k, v in diff(events0, events1).items() if v}}
        if a.kill and sharded and replicas >= 2:
            # kill -9 the last replica: its Lease runs out, the survivors claim its orders.
            victim = names[-1]
            survivors = [m for n, m in zip(names, metrics) if n != victim]
            before = handoff_buckets(survivors)
            row["killed_held"] = held.get(victim, 0)
            watch = OrderWatch(kubectl, "rabbitmqvhosts", "tenant-a", a.orders)
            try:
                wait_for(watch.ready, "the orders' watch", 600)
                watch.killed(live - {victim})
                t_kill = watch.kill_at
                procs[victim].send_signal(signal.SIGKILL)
                procs[victim].wait()
                live.discard(victim)
                wait_for(lambda: converged() or time.sleep(0.5), f"{victim}'s orders held again", 600)
                row["handoff_polled"] = time.time() - t_kill
                wait_for(lambda: watch.done_after() is not None, "the watch's view of the handoff", 120)
                row["handoff"] = watch.done_after()
                row["moved"] = watch.moved_after()
            finally:
                watch.stop()
            row["handoff_metric"] = handoff_seconds(before, handoff_buckets(survivors))
            row["ring_changed"] = ring_changed_after(work, [n for n in names if n != victim], t_kill, replicas - 1)
        return row
    finally:
        stop(procs, work)
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--orders", type=int, default=3000)
    ap.add_argument("--replicas", default="1,2,3,5")
    ap.add_argument("--steady", type=int, default=30)
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "bin"))
    ap.add_argument("--keep", action="store_true", help="keep each run's work dir (logs)")
    ap.add_argument("--kill", action="store_true",
                    help="after the steady state, kill -9 one replica and time its orders' handoff")
    ap.add_argument("--compare", action="store_true",
                    help="also each sharded R with every replica watching everything (C5C3_SHARD_WATCH_ALL=1)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the unsharded replica (ratios then against the first sharded row)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run the rows this many times, one round after the other: the CPU and time ratios of each "
                         "round against its own first row, and their medians (the tables show the first round)")
    a = ap.parse_args()

    def one_round():
        rows = [] if a.no_baseline else [run(a, 1, False)]
        for r in a.replicas.split(","):
            rows.append(run(a, int(r), True))
            if a.compare:
                rows.append(run(a, int(r), True, watch_all=True))
        return rows

    rounds = [one_round() for _ in range(max(1, a.rounds))]
    rows = rounds[0]
    base = rows[0]
    against = "the first row" if a.no_baseline else "1 unsharded replica"
    print(f"\n{a.orders} RabbitMQVhost orders; steady state {a.steady} s; ratios against {against}\n")
    print("| replicas | seconds to all Ready | requests per order | passes per order (echoes that woke none) | steady requests "
          "| max/mean held | RSS growth per replica, mean / max MiB | CPU s, all replicas |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        label = f"{r['replicas']}" + ("" if r["sharded"] else " (unsharded)")
        label += " (watch all)" if r["watch_all"] else ""
        print(f"| {label} | {r['settled']:.1f} ({r['settled'] / base['settled']:.2f}x) | {r['requests']:.2f} "
              f"({r['requests'] / base['requests']:.2f}x) | {r['passes']:.2f} ({r['echoes']:.2f}) | {r['steady']} | {r['spread']:.3f} "
              f"| {r['rss_mean']:.1f} / {r['rss_max']:.1f} ({r['rss_mean'] / max(base['rss_mean'], 0.1):.2f}x) "
              f"| {r['cpu']:.1f} ({r['cpu'] / max(base['cpu'], 0.1):.2f}x) |")
    print("\nWake-ups that queued a pass, per order, by cause (c5c3_pass_wakes_total):\n")
    for r in rows:
        label = f"{r['replicas']}" + ("" if r["sharded"] else " (unsharded)")
        label += " (watch all)" if r["watch_all"] else ""
        print(f"- {label}: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(r["wakes"].items())))
    print("\nWatch events the informers passed on, per order, all replicas together (c5c3_informer_events_total; "
          "the convergence):\n")
    for r in rows:
        label = f"{r['replicas']}" + ("" if r["sharded"] else " (unsharded)")
        label += " (watch all)" if r["watch_all"] else ""
        total = sum(r["events"].values())
        print(f"- {label}: {total:.2f}: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(r["events"].items())))
    if len(rounds) > 1:
        print(f"\nRatios against the first row of the same round, {len(rounds)} rounds (the machine's load moves "
              "between rows; a round's rows ran one after the other):\n")
        for i, r in enumerate(rows[1:], start=1):
            label = f"{r['replicas']}" + ("" if r["sharded"] else " (unsharded)")
            label += " (watch all)" if r["watch_all"] else ""
            cpu = [rr[i]["cpu"] / max(rr[0]["cpu"], 0.1) for rr in rounds]
            ready = [rr[i]["settled"] / rr[0]["settled"] for rr in rounds]
            print(f"- {label}: CPU " + ", ".join(f"{x:.2f}x" for x in cpu) + f" (median {statistics.median(cpu):.2f}x); "
                  "all Ready " + ", ".join(f"{x:.2f}x" for x in ready) + f" (median {statistics.median(ready):.2f}x)")
    kills = [r for r in rows if "handoff" in r]
    if kills:
        print(f"\nkill -9 of one replica (Lease {LEASE}; goal: handoff within the Lease duration + 2 s)\n")
        print("| replicas | orders it held | seconds until all held by live replicas and Ready (watched; polled) "
              "| seconds until the survivors' rings dropped it "
              "| the moved orders held and Ready again: first / median / last "
              "| the survivors' c5c3_shard_handoff_seconds since the kill: count, mean, all within |")
        print("|---|---|---|---|---|---|")
        for r in kills:
            n, total, bound = r["handoff_metric"]
            label = f"{r['replicas']}" + (" (watch all)" if r["watch_all"] else "")
            ring = "?" if r["ring_changed"] is None else f"{r['ring_changed']:.1f}"
            moved = "?" if r.get("moved") is None else " / ".join(f"{t:.1f}" for t in r["moved"])
            print(f"| {label} | {r['killed_held']} | {r['handoff']:.1f}; {r['handoff_polled']:.1f} | {ring} | {moved} "
                  f"| {int(n)}, {total / n if n else 0:.2f} s, {bound} s |")


if __name__ == "__main__":
    main()
