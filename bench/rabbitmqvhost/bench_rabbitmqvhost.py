#!/usr/bin/python3
"""N orders of one kind created at once against the emulator and the simulated world (issues 7 and 12, Measure).

--kind rabbitmqvhost (default), keystoneuser or keystoneproject; the Keystone kinds need the simulated K-ORC
and its in-memory identity service in `c5c3-sim world`.

Runs c5c3-sim apiserver, c5c3-sim world (in-memory broker and OpenBao) and c5c3-operator as separate
processes, creates N orders in one go, and prints:
  - seconds until every order reads Ready=True,
  - the operator's API requests per order until then, by verb (its rest_client_requests_total),
  - the operator's API requests during the steady state that follows (the goal is 0),
  - the operator's RSS per order (RSS after convergence minus RSS before the orders, over N),
  - CPU seconds of each process during the convergence.

Usage: bench/rabbitmqvhost/bench_rabbitmqvhost.py [--kind KIND] [--orders N] [--steady SECONDS] [--bin DIR]
Default: 1000 orders, 60 s of steady state, binaries in build/bin (tools/build).
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from kubernetes import client, config

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def requests_by_method(metrics_url):
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    out = {}
    for line in text.splitlines():
        m = re.match(r'rest_client_requests_total\{([^}]*)\} ([0-9.e+]+)', line)
        if not m:
            continue
        method = re.search(r'method="([^"]*)"', m.group(1)).group(1)
        out[method] = out.get(method, 0) + float(m.group(2))
    return out


def diff(a, b):
    keys = sorted(set(a) | set(b))
    return {k: b.get(k, 0) - a.get(k, 0) for k in keys}


def wait_for(probe, what, limit):
    deadline = time.time() + limit
    while time.time() < deadline:
        if probe():
            return
        time.sleep(0.2)
    sys.exit(f"timed out waiting for {what}")


KINDS = {"rabbitmqvhost": ("RabbitMQVhost", "rabbitmqvhosts"),
         "keystoneuser": ("KeystoneUser", "keystoneusers"),
         "keystoneproject": ("KeystoneProject", "keystoneprojects")}


def order_yaml(kind, i):
    return (f"apiVersion: c5c3.io/v1alpha1\nkind: {KINDS[kind][0]}\nmetadata:\n  name: bench-{i:05d}\n"
            f"  namespace: tenant-a\nspec:\n  controlPlaneRef:\n    name: cp\n    namespace: openstack\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", choices=sorted(KINDS), default="rabbitmqvhost")
    ap.add_argument("--orders", type=int, default=1000)
    ap.add_argument("--steady", type=int, default=60)
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "bin"))
    ap.add_argument("--operator-arg", action="append", default=[],
                    help="an extra flag for c5c3-operator (repeatable), e.g. --operator-arg=--max-concurrent-reconciles=1")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="c5c3-bench-rmq-")
    kubeconfig = os.path.join(work, "kubeconfig")
    sim = os.path.join(a.bin, "c5c3-sim")
    procs = {}

    def start(name, argv):
        procs[name] = subprocess.Popen(argv, stdout=open(os.path.join(work, name + ".log"), "w"),
                                       stderr=subprocess.STDOUT)

    try:
        start("apiserver", [sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", kubeconfig,
                            "--crds", os.path.join(SRC, "deploy", "crds"), "--crds", os.path.join(SRC, "sim", "crds")])
        wait_for(lambda: "listening on" in open(os.path.join(work, "apiserver.log")).read(), "the emulator", 60)
        start("world", [sim, "world", "--kubeconfig", kubeconfig])
        metrics_port = free_port()
        start("operator", [os.path.join(a.bin, "c5c3-operator"), "--kubeconfig", kubeconfig,
                           "--namespace", "c5c3-system", "--metrics-bind-address", f"127.0.0.1:{metrics_port}",
                           "--health-probe-bind-address", "0"] + a.operator_arg)
        metrics = f"http://127.0.0.1:{metrics_port}/metrics"
        kubectl = ["/usr/bin/kubectl", "--kubeconfig", kubeconfig]
        samples = os.path.join(SRC, "deploy", "samples")
        for f in ["00-namespaces.yaml", "10-controlplane.yaml", "world/10-rabbitmqcluster.yaml",
                  "world/20-clustersecretstore.yaml"]:
            wait_for(lambda: subprocess.run(kubectl + ["apply", "-f", os.path.join(samples, f)],
                                            capture_output=True).returncode == 0, f"apply {f}", 60)

        def reachable():
            try:
                requests_by_method(metrics)
                return True
            except OSError:
                return False

        wait_for(reachable, "the operator's /metrics", 60)
        time.sleep(2)  # informers synced, the ControlPlane seen
        config.load_kube_config(config_file=kubeconfig)
        api = client.CustomObjectsApi()

        orders_file = os.path.join(work, "orders.yaml")
        with open(orders_file, "w") as f:
            f.write("---\n".join(order_yaml(a.kind, i) for i in range(a.orders)))
        op = procs["operator"].pid
        rss0 = rss_kib(op)
        cpu0 = {n: cpu_seconds(p.pid) for n, p in procs.items()}
        req0 = requests_by_method(metrics)
        t0 = time.time()
        subprocess.run(kubectl + ["create", "-f", orders_file], check=True, capture_output=True)
        created = time.time() - t0

        def all_ready():
            items = api.list_namespaced_custom_object("c5c3.io", "v1alpha1", "tenant-a", KINDS[a.kind][1])["items"]
            ready = sum(1 for o in items for c in (o.get("status") or {}).get("conditions") or []
                        if c["type"] == "Ready" and c["status"] == "True")
            return ready >= a.orders

        wait_for(all_ready, f"{a.orders} orders Ready", 3600)
        converged = time.time() - t0
        req1 = requests_by_method(metrics)
        cpu1 = {n: cpu_seconds(p.pid) for n, p in procs.items()}
        rss1 = rss_kib(op)
        time.sleep(a.steady)
        req2 = requests_by_method(metrics)

        conv = diff(req0, req1)
        steady = diff(req1, req2)
        print(f"orders                                  {a.orders} {KINDS[a.kind][0]}")
        print(f"kubectl create of all orders            {created:.1f} s")
        print(f"seconds until all Ready                 {converged:.1f} s")
        print(f"operator requests per order (converge)  {sum(conv.values()) / a.orders:.2f}  "
              + ", ".join(f"{k} {v / a.orders:.2f}" for k, v in conv.items() if v))
        print(f"operator requests in {a.steady} s steady state   {int(sum(steady.values()))}  "
              + ", ".join(f"{k} {int(v)}" for k, v in steady.items() if v))
        print(f"operator RSS                            {rss0 / 1024:.1f} MiB -> {rss1 / 1024:.1f} MiB, "
              f"{(rss1 - rss0) / a.orders:.1f} KiB per order")
        print("CPU seconds during convergence          "
              + ", ".join(f"{n} {cpu1[n] - cpu0[n]:.1f}" for n in procs))
    finally:
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
