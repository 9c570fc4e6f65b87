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
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import free_port, print_settled, requests_by_method, settle, stop, wait_for  # noqa: E402

from kubernetes import client, config

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
        def all_ready():
            items = api.list_namespaced_custom_object("c5c3.io", "v1alpha1", "tenant-a", KINDS[a.kind][1])["items"]
            ready = sum(1 for o in items for c in (o.get("status") or {}).get("conditions") or []
                        if c["type"] == "Ready" and c["status"] == "True")
            return ready >= a.orders

        r = settle(procs, procs["operator"].pid, metrics,
                   lambda: subprocess.run(kubectl + ["create", "-f", orders_file], check=True, capture_output=True),
                   all_ready, f"{a.orders} orders Ready", a.steady)
        print(f"orders                                  {a.orders} {KINDS[a.kind][0]}")
        print(f"kubectl create of all orders            {r['created']:.1f} s")
        print(f"seconds until all Ready                 {r['settled']:.1f} s")
        print_settled(r, a.orders, "order", a.steady)
    finally:
        stop(procs, work)

if __name__ == "__main__":
    main()
