#!/usr/bin/python3
"""N orders of one kind created at once against the emulator and the simulated world (issues 7, 12, 13, 14, Measure).

--kind rabbitmqvhost (default), keystoneuser, keystoneproject, keystoneroleassignment, keystonecatalogentry,
keystoneapplicationcredential, mixed or wakeups; the Keystone kinds need the simulated K-ORC and its in-memory
identity service in `c5c3-sim world`.
  keystoneroleassignment: N assignments of `member` over ceil(sqrt(N)) users and as many projects (each pair
      once), the users and projects created and Ready first (not counted).
  keystonecatalogentry: N catalog entries (a public and an internal endpoint each); the sample ControlPlane
      allows them in tenant-a.
  mixed: N users, N projects, N assignments (user i on project i) and N/10 catalog entries at once.
  keystoneapplicationcredential: N credential orders of one user on one project (the user, the project and an
      assignment of `member` Ready first, not counted), rotation intervals from --interval to --interval +
      --spread seconds (shuffled, so the due times spread over --spread seconds) with 5 s of grace; after all
      Ready and the steady state (which has to end before the first due time), until every order has rotated
      once on schedule, its new credential is delivered and its grace period is over: the latency from the due
      time (generation 1's nextRotation in the order's status) to the switch (lastRotation) and to the delivery
      (a watch on `<name>-credentials` seeing application_credential_id change), p50, p99 and max, and the
      operator's requests per rotation by verb (over the rotation window, less the steady-state rate);
      bench/rabbitmqvhost/rotation.py.
  wakeups: as keystoneroleassignment, then one user's spec changes (passwordGeneration 2): the assignment
      passes that change causes (controller_runtime_reconcile_total of keystoneroleassignment) against the
      number of assignments naming that user.

Runs c5c3-sim apiserver, c5c3-sim world (in-memory broker and OpenBao) and c5c3-operator as separate
processes, creates N orders in one go, and prints:
  - seconds until every order reads Ready=True,
  - the operator's API requests per order until then, by verb (its rest_client_requests_total),
  - the operator's API requests during the steady state that follows (the goal is 0),
  - the operator's RSS per order (RSS after convergence minus RSS before the orders, over N),
  - CPU seconds of each process during the convergence.

With --kind rabbitmqvhost, after the steady state (bench/rabbitmqvhost/latency.py, issue 19):
  --changes M: P4, M changes of one order's spec.rotation.interval one at a time: change -> status written
      (a watch sees status.observedGeneration reach the new generation), p50, p99, max;
  --restart: P5, SIGTERM the operator and start it again over the N orders: its writes (goal 0) and requests
      by verb, the seconds until /readyz answers 200 and until it is quiet (--quiet S without a request or pass).

--absorb [C ...]: P3, the orders are created before the operator starts (all there at once; Ready seen by a watch,
    seconds from the operator's start); at the end, the operator and the world stopped, the operator's writes of the
    convergence (the emulator runs with --record-write-bodies) are replayed by bench_replay into fresh namespaces of
    the same emulator over C connections each (default: its --max-concurrent-reconciles, then 16): the operator's
    orders/s and writes/s, the absorb writes/s, the ratio (bench/rabbitmqvhost/absorb.py).

--create-connections C: the orders are created by bench_replay over C connections instead of one `kubectl create`
    (bench/rabbitmqvhost/scale.py; for 100,000 orders), and Ready is seen by a watch instead of lists polled.

--peer: P3 beside controller-runtime, the peer of bench/peer (its informers of the kinds and selections the operator
    caches, a no-op reconciler) runs through the convergence, started and synced before it: its CPU per order against
    the operator's.

Usage: bench/rabbitmqvhost/bench_rabbitmqvhost.py [--kind KIND] [--orders N] [--steady SECONDS] [--bin DIR]
       [--changes M] [--restart [--quiet S]] [--absorb [C ...]] [--create-connections C] [--peer]
       (for mixed, N is the number of each Keystone kind but the catalog entries)
Default: 1000 orders, 60 s of steady state, binaries in build/bin (tools/build).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from kubernetes import client, config

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "bench"))
from benchlib import (Processes, context_switches, cpu_seconds, diff, free_port, gauge_sum, requests_by_method, rss_kib,  # noqa: E402
                      wait_for)
import absorb  # noqa: E402
import latency  # noqa: E402
import rotation  # noqa: E402
import scale  # noqa: E402
TICKS = os.sysconf("SC_CLK_TCK")


KINDS = {"rabbitmqvhost": ("RabbitMQVhost", "rabbitmqvhosts"),
         "keystoneuser": ("KeystoneUser", "keystoneusers"),
         "keystoneproject": ("KeystoneProject", "keystoneprojects"),
         "keystoneroleassignment": ("KeystoneRoleAssignment", "keystoneroleassignments"),
         "keystonecatalogentry": ("KeystoneCatalogEntry", "keystonecatalogentries"),
         "keystoneapplicationcredential": ("KeystoneApplicationCredential", "keystoneapplicationcredentials")}
WORKLOADS = ["mixed", "wakeups"]


def order_yaml(kind, name, extra=""):
    return (f"apiVersion: c5c3.io/v1alpha1\nkind: {KINDS[kind][0]}\nmetadata:\n  name: {name}\n"
            f"  namespace: tenant-a\nspec:\n  controlPlaneRef:\n    name: cp\n    namespace: openstack\n{extra}")


def assignment_yaml(name, user, project):
    return order_yaml("keystoneroleassignment", name,
                      f"  userRef:\n    name: {user}\n  projectRef:\n    name: {project}\n  role: member\n")


def catalog_yaml(name):
    return order_yaml("keystonecatalogentry", name,
                      f"  serviceType: {name}\n  endpoints:\n  - interface: public\n    url: https://{name}.example.test\n"
                      f"  - interface: internal\n    url: http://{name}.openstack.svc:8080\n")


def side(n):
    """Users (and projects) for n assignments, each (user, project) pair once."""
    s = 1
    while s * s < n:
        s += 1
    return s


def credential_yaml(name, interval):
    return order_yaml("keystoneapplicationcredential", name,
                      "  userRef:\n    name: bench-u\n  projectRef:\n    name: bench-p\n"
                      f"  rotation:\n    interval: {interval}s\n    gracePeriod: 5s\n")


def workload(kind, n, interval=180, spread=90):
    """(setup orders, measured orders): lists of (kind, yaml)."""
    if kind == "keystoneapplicationcredential":
        setup = [("keystoneuser", order_yaml("keystoneuser", "bench-u")),
                 ("keystoneproject", order_yaml("keystoneproject", "bench-p")),
                 ("keystoneroleassignment", assignment_yaml("bench-ra", "bench-u", "bench-p"))]
        intervals = rotation.staggered_intervals(n, interval, spread)
        return setup, [(kind, credential_yaml(f"bench-{i:05d}", intervals[i])) for i in range(n)]
    if kind in KINDS and kind not in ("keystoneroleassignment", "keystonecatalogentry"):
        return [], [(kind, order_yaml(kind, f"bench-{i:05d}")) for i in range(n)]
    if kind == "keystonecatalogentry":
        return [], [(kind, catalog_yaml(f"bench-{i:05d}")) for i in range(n)]
    if kind == "mixed":
        out = []
        for i in range(n):
            out.append(("keystoneuser", order_yaml("keystoneuser", f"bench-u-{i:05d}")))
            out.append(("keystoneproject", order_yaml("keystoneproject", f"bench-p-{i:05d}")))
            out.append(("keystoneroleassignment",
                        assignment_yaml(f"bench-ra-{i:05d}", f"bench-u-{i:05d}", f"bench-p-{i:05d}")))
        out += [("keystonecatalogentry", catalog_yaml(f"bench-c-{i:05d}")) for i in range(max(1, n // 10))]
        return [], out
    s = side(n)  # keystoneroleassignment, wakeups
    setup = [("keystoneuser", order_yaml("keystoneuser", f"bench-u-{i:05d}")) for i in range(s)]
    setup += [("keystoneproject", order_yaml("keystoneproject", f"bench-p-{i:05d}")) for i in range(s)]
    measured = [("keystoneroleassignment",
                 assignment_yaml(f"bench-ra-{i:05d}", f"bench-u-{i % s:05d}", f"bench-p-{i // s:05d}"))
                for i in range(n)]
    return setup, measured


def reconciles(metrics_url, controller):
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    total = 0.0
    for line in text.splitlines():
        m = re.match(r'controller_runtime_reconcile_total\{([^}]*)\} ([0-9.e+]+)', line)
        if m and f'controller="{controller}"' in m.group(1):
            total += float(m.group(2))
    return total


def start_world(ps, bin_dir, operator_args, health_port=None, start_operator=True, emulator_flags=()):
    """c5c3-sim apiserver, c5c3-sim world and c5c3-operator as processes of `ps`, the sample ControlPlane,
    RabbitmqCluster and ClusterSecretStore applied, the operator's /metrics answering and the kubernetes client
    configured; returns (metrics URL, kubectl argv, the operator's argv, which latency.restart starts again).
    health_port: the operator's /readyz on 127.0.0.1:health_port (None: off). start_operator=False: the caller
    starts it later (run_operator)."""
    sim = os.path.join(bin_dir, "c5c3-sim")
    ps.start_emulator(sim, SRC, emulator_flags)
    ps.start("world", [sim, "world", "--kubeconfig", ps.kubeconfig])
    metrics_port = free_port()
    op_argv = [os.path.join(bin_dir, "c5c3-operator"), "--kubeconfig", ps.kubeconfig,
               "--namespace", "c5c3-system", "--metrics-bind-address", f"127.0.0.1:{metrics_port}",
               "--health-probe-bind-address", f"127.0.0.1:{health_port}" if health_port else "0"] + operator_args
    metrics = f"http://127.0.0.1:{metrics_port}/metrics"
    if start_operator:
        ps.start("operator", op_argv)
    kubectl = ["/usr/bin/kubectl", "--kubeconfig", ps.kubeconfig]
    samples = os.path.join(SRC, "deploy", "samples")
    for f in ["00-namespaces.yaml", "10-controlplane.yaml", "world/10-rabbitmqcluster.yaml",
              "world/20-clustersecretstore.yaml"]:
        wait_for(lambda: subprocess.run(kubectl + ["apply", "-f", os.path.join(samples, f)],
                                        capture_output=True).returncode == 0, f"apply {f}", 60)
    if start_operator:
        run_operator(ps, op_argv, metrics)
        time.sleep(2)  # informers synced, the ControlPlane seen
    config.load_kube_config(config_file=ps.kubeconfig)
    return metrics, kubectl, op_argv


def build_peer():
    """The controller-runtime peer's binary (bench/peer/build: built once, then cached outside the tree)."""
    return subprocess.run([os.path.join(SRC, "bench", "peer", "build")], stdout=subprocess.PIPE, text=True,
                          check=True).stdout.strip()


def start_peer(ps, peer):
    """The peer as process "peer" of `ps`, watching until it is stopped; returns once its informers synced."""
    ps.start("peer", [peer, "--kubeconfig", ps.kubeconfig, "--operator-namespace", "c5c3-system", "--hold"])
    wait_for(lambda: "synced_seconds" in open(os.path.join(ps.work, "peer.log")).read(), "the peer's sync", 600)


def run_operator(ps, op_argv, metrics):
    """Starts the operator unless it runs, and waits until its /metrics answers."""
    if "operator" not in ps.procs:
        ps.start("operator", op_argv)

    def reachable():
        try:
            requests_by_method(metrics)
            return True
        except OSError:
            return False

    wait_for(reachable, "the operator's /metrics", 60)


def create_orders(kubectl, work, batch, name):
    """One `kubectl create` of the (kind, yaml) pairs of `batch`."""
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write("---\n".join(y for _, y in batch))
    subprocess.run(kubectl + ["create", "-f", path], check=True, capture_output=True)


def count_ready(api, kinds):
    """Orders of `kinds` in tenant-a whose Ready condition is True."""
    n = 0
    for k in kinds:
        items = api.list_namespaced_custom_object("c5c3.io", "v1alpha1", "tenant-a", KINDS[k][1])["items"]
        n += sum(1 for o in items for c in (o.get("status") or {}).get("conditions") or []
                 if c["type"] == "Ready" and c["status"] == "True")
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", choices=sorted(KINDS) + WORKLOADS, default="rabbitmqvhost")
    ap.add_argument("--orders", type=int, default=1000)
    ap.add_argument("--steady", type=int, default=60)
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "bin"))
    ap.add_argument("--interval", type=int, default=180,
                    help="keystoneapplicationcredential: the shortest rotation interval, seconds (the CRD's least: 60)")
    ap.add_argument("--spread", type=int, default=90,
                    help="keystoneapplicationcredential: the intervals run up to --interval + --spread seconds")
    ap.add_argument("--operator-arg", action="append", default=[],
                    help="an extra flag for c5c3-operator (repeatable), e.g. --operator-arg=--max-concurrent-reconciles=1")
    ap.add_argument("--changes", type=int, default=0,
                    help="rabbitmqvhost, P4: after the steady state, this many spec changes one at a time "
                         "(bench/rabbitmqvhost/latency.py)")
    ap.add_argument("--restart", action="store_true",
                    help="rabbitmqvhost, P5: at the end, SIGTERM the operator and start it again over the orders")
    ap.add_argument("--quiet", type=int, default=10,
                    help="--restart: the operator is quiet after this many seconds without a request or a pass")
    ap.add_argument("--absorb", type=int, nargs="*", metavar="CONNECTIONS",
                    help="P3: the orders are created before the operator starts; at the end, its writes are replayed "
                         "to the same emulator (bench/rabbitmqvhost/absorb.py) over each CONNECTIONS count "
                         "(default: its --max-concurrent-reconciles, then 16)")
    ap.add_argument("--peer", action="store_true",
                    help="rabbitmqvhost, P3: the controller-runtime peer of bench/peer watches beside the operator "
                         "(the same kinds and selections, a no-op reconciler): its CPU per order during the "
                         "convergence against the operator's")
    ap.add_argument("--create-connections", type=int, default=0, metavar="C",
                    help="create the orders with bench_replay over C connections instead of one `kubectl create` "
                         "(bench/rabbitmqvhost/scale.py; for 100,000 orders); Ready is then seen by a watch")
    a = ap.parse_args()
    if (a.changes or a.restart or a.peer) and a.kind != "rabbitmqvhost":
        ap.error("--changes, --restart and --peer are for --kind rabbitmqvhost")
    peer = build_peer() if a.peer else None
    if a.absorb is not None and a.kind not in ("rabbitmqvhost", "keystoneuser", "keystoneproject",
                                               "keystonecatalogentry"):
        ap.error("--absorb is for the kinds whose orders need no set-up orders (the operator starts after them)")
    work = tempfile.mkdtemp(prefix="c5c3-bench-rmq-")
    ps = Processes(work)
    watch = ready_watch = None
    procs = ps.procs

    try:
        absorbing = a.absorb is not None
        metrics, kubectl, op_argv = start_world(ps, a.bin, a.operator_arg,
                                                health_port=free_port() if a.restart else None,
                                                start_operator=not absorbing,
                                                emulator_flags=["--record-write-bodies"] if absorbing else [])
        api = client.CustomObjectsApi()

        setup, measured = workload(a.kind, a.orders, a.interval, a.spread)
        if setup:
            create_orders(kubectl, work, setup, "setup")
            wait_for(lambda: count_ready(api, {k for k, _ in setup}) >= len(setup),
                     f"{len(setup)} setup orders Ready", 3600)
            time.sleep(2)
        kinds = sorted({k for k, _ in measured})

        def create(batch, name):
            if a.create_connections:
                scale.create_by_replay(a.bin, ps.kubeconfig, work, batch, name, a.create_connections,
                                       lambda k: KINDS[k][1])
            else:
                create_orders(kubectl, work, batch, name)
        watch = rotation.RotationWatch("tenant-a") if a.kind == "keystoneapplicationcredential" else None
        total = len(measured)
        if absorbing:  # P3: every order there before the operator starts; the write log from then on
            t0 = time.time()
            create(measured, "orders")
            created = time.time() - t0
            ready_watch = absorb.ReadyWatch(KINDS[a.kind][1])
            wait_for(lambda: ready_watch.seen() >= total, "the orders listed by the Ready watch", 600)
            if peer:
                start_peer(ps, peer)
            absorb.sim_delete(api.api_client, "/sim/writelog")
            cpu0 = {n: cpu_seconds(p.pid) for n, p in procs.items()}
            cpu0["operator"], rss0, req0, bench0, switches0 = 0.0, 0, {}, os.times(), 0
            t0 = time.time()
            run_operator(ps, op_argv, metrics)
        else:
            if peer:
                start_peer(ps, peer)
            op = procs["operator"].pid
            rss0 = rss_kib(op)
            cpu0 = {n: cpu_seconds(p.pid) for n, p in procs.items()}
            switches0 = context_switches(op)
            req0 = requests_by_method(metrics)
            t0 = time.time()
            # One kind's orders Ready by a watch; the workloads of several kinds poll their lists.
            single = a.kind in KINDS and not watch
            ready_watch = absorb.ReadyWatch(KINDS[a.kind][1]) if a.create_connections and single else None
            create(measured, "orders")
            created = time.time() - t0
        op = procs["operator"].pid

        def all_ready():
            if watch:  # each order Ready once, as its watch saw it
                return watch.count("ready") >= total
            if absorbing or ready_watch:
                return ready_watch.count() >= total
            return count_ready(api, kinds) >= total

        wait_for(all_ready, f"{total} orders Ready", 3600)
        converged = (ready_watch.last() if ready_watch else time.time()) - t0
        write_log = absorb.sim_get(api.api_client, "/sim/writelog") if absorbing else None
        req1 = requests_by_method(metrics)
        cpu1 = {n: cpu_seconds(p.pid) for n, p in procs.items()}
        switches1 = context_switches(op)
        rss1 = rss_kib(op)
        bench1 = os.times()
        time.sleep(a.steady)
        req2, steady_end = requests_by_method(metrics), time.time()
        rss2, parked = rss_kib(op), gauge_sum(metrics, "c5c3_orders_parked")
        trims = gauge_sum(metrics, "c5c3_memory_trims_total")

        conv = diff(req0, req1)
        steady = diff(req1, req2)
        print(f"orders                                  {total} "
              + ", ".join(f"{sum(1 for k, _ in measured if k == kk)} {KINDS[kk][0]}" for kk in kinds)
              + (f" (after {len(setup)} users and projects)" if setup else ""))
        creator = "bench_replay" if a.create_connections else "kubectl"
        print(f"{creator + ' create of all orders':<40}{created:.1f} s"
              + ("  (before the operator started)" if absorbing else ""))
        print(f"seconds until all Ready                 {converged:.1f} s"
              + ("  (from the operator's start)" if absorbing else ""))
        print(f"operator requests per order (converge)  {sum(conv.values()) / total:.2f}  "
              + ", ".join(f"{k} {v / total:.2f}" for k, v in conv.items() if v))
        print(f"operator requests in {a.steady} s steady state   {int(sum(steady.values()))}  "
              + ", ".join(f"{k} {int(v)}" for k, v in steady.items() if v))
        if absorbing:  # no baseline: started over the orders
            print(f"operator RSS at all Ready               {rss1 / 1024:.1f} MiB (started over the orders)")
        else:
            print(f"operator RSS                            {rss0 / 1024:.1f} MiB -> {rss1 / 1024:.1f} MiB, "
                  f"{(rss1 - rss0) / total:.1f} KiB per order")
        print(f"after the steady state                  RSS {rss2 / 1024:.1f} MiB"
              + ("" if absorbing else f", {(rss2 - rss0) / total:.1f} KiB per order")
              + f", {int(parked)} orders parked (c5c3_orders_parked), heap trimmed {int(trims)} times "
              "(c5c3_memory_trims_total)")
        print("CPU seconds during convergence          "
              + ", ".join(f"{n} {cpu1[n] - cpu0[n]:.1f}" for n in procs))
        print(f"operator thread switches per order      {(switches1 - switches0) / total:.1f}  (a thread leaving its "
              "CPU: mostly waits, a worker or the io thread with nothing to do)")
        if peer:
            ours, theirs = (1000 * (cpu1[n] - cpu0[n]) / total for n in ("operator", "peer"))
            print(f"P3 beside controller-runtime            CPU per order during the convergence: the operator "
                  f"{ours:.2f} ms (its writes, reads and passes), the peer {theirs:.2f} ms (its informers of the same "
                  f"kinds and selections and a no-op reconciler, no write); ratio operator / peer {ours / theirs:.2f}")
        if watch:
            due = watch.earliest_due()
            print(f"first due time after the steady state   {due - steady_end:.1f} s"
                  + ("" if due > steady_end else "  (OVERLAP: raise --interval; the steady rate is not steady)"))
            wait_for(lambda: watch.rotated(total), f"{total} orders rotated, delivered and swept",
                     a.interval + a.spread + 3600)
            window = diff(req2, requests_by_method(metrics))
            rotation.report(watch, window, time.time() - steady_end,
                            {k: v / max(1, a.steady) for k, v in steady.items()}, total)
        if a.kind == "wakeups":
            s = side(a.orders)
            user = "bench-u-00007"
            naming = sum(1 for i in range(a.orders) if i % s == 7)
            before = reconciles(metrics, "keystoneroleassignment")
            api.patch_namespaced_custom_object("c5c3.io", "v1alpha1", "tenant-a", "keystoneusers", user,
                                               {"spec": {"passwordGeneration": 2}})

            def rotated():
                o = api.get_namespaced_custom_object("c5c3.io", "v1alpha1", "tenant-a", "keystoneusers", user)
                st = o.get("status") or {}
                return st.get("passwordGeneration") == 2 and any(
                    c["type"] == "Ready" and c["status"] == "True" for c in st.get("conditions") or [])

            wait_for(rotated, f"{user} rotated", 600)
            time.sleep(10)  # the last status write's events delivered
            passes = reconciles(metrics, "keystoneroleassignment") - before
            print(f"one user's spec change at {a.orders} assignments: {int(passes)} assignment passes "
                  f"({naming} assignments name {user}; {a.orders - naming} do not)")
        if a.changes:
            latency.spec_changes([f"bench-{i:05d}" for i in range(a.orders)], a.changes, metrics)
        if a.restart:
            latency.restart(ps, op_argv, free_port(), free_port(), total, lambda: count_ready(api, kinds), a.quiet)
        if absorbing:
            print("bench's own CPU during convergence      "
                  f"{bench1.user + bench1.system - bench0.user - bench0.system:.1f} s (the Ready watch)")
            ready_watch.stop.set()
            conns = a.absorb or [absorb.operator_concurrency(a.operator_arg), 16]
            absorb.run(ps, a.bin, work, write_log, absorb.originals_of([y for _, y in measured], KINDS[a.kind][1]),
                       total, converged, conv, cpu1["operator"] - cpu0["operator"], conns)
    finally:
        for w in (watch, ready_watch):
            if w:
                w.stop.set()
        for p in procs.values():
            p.terminate()
        for p in procs.values():
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        print(f"logs in {work}")


if __name__ == "__main__":
    main()
