#!/usr/bin/python3
"""1,000 ServiceMonitors across 10 namespaces and 3 Prometheus objects (issue 15, Measure).

Runs c5c3-sim apiserver, c5c3-sim trickster (the backend) and c5c3-operator --controllers=monitoring as
separate processes. The 3 Prometheus objects (each selecting the namespaces of one project label, so each
registers with the backend under its projectId) and the 10 namespaces exist before the operator starts, so the
detector sees all three (standalone, no default). Once the three are registered, N ServiceMonitors are created
with one `kubectl create` (half `auto`, half `federated`, spread over the namespaces), and it prints:
  - seconds until the Prometheus objects are registered, and their requests,
  - seconds until every ServiceMonitor carries the chosen Prometheus's selector label,
  - the operator's API requests per ServiceMonitor until then, by verb (its rest_client_requests_total),
  - the operator's API requests during the steady state that follows (the goal is 0),
  - the operator's RSS per ServiceMonitor (RSS after settling minus RSS before them, over N),
  - CPU seconds of each process while the ServiceMonitors settle.

Usage: bench/monitoring/bench_monitoring.py [--servicemonitors N] [--steady SECONDS] [--bin DIR]
Default: 1000 ServiceMonitors, 60 s of steady state, binaries in build/bin (tools/build).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import Processes, free_port, print_settled, requests_by_method, settle, stop, wait_for  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = "bench-platform-token"
NAMESPACES = 10
PROMETHEUSES = 3


def world_yaml():
    docs = []
    for j in range(NAMESPACES):
        docs.append(f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: bench-{j}\n  labels:\n"
                    f"    helm.cattle.io/projectId: p-{j % PROMETHEUSES}\n")
    for i in range(PROMETHEUSES):
        # Each in its own namespace: the registration markers live on the RoleBinding of the Service's
        # namespace (apis-monitoring.md 4.2), so Prometheus objects sharing one register once between them.
        docs.append(f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: monitoring-{i}\n")
        docs.append(f"apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata:\n  name: prom-{i}\n"
                    f"  namespace: monitoring-{i}\nspec:\n  serviceMonitorSelector:\n    matchLabels:\n      release: prom-{i}\n"
                    f"  serviceMonitorNamespaceSelector:\n    matchLabels:\n      helm.cattle.io/projectId: p-{i}\n")
        docs.append(f"apiVersion: v1\nkind: Service\nmetadata:\n  name: prom-{i}\n  namespace: monitoring-{i}\nspec:\n"
                    f"  ports:\n  - name: http-web\n    port: 9090\n")
    return "---\n".join(docs)


def servicemonitor_yaml(k):
    kind = "auto" if k % 2 == 0 else "federated"
    ns = f"bench-{k % NAMESPACES}"
    return (f"apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: sm-{k:05d}\n"
            f"  namespace: {ns}\n  labels:\n    monitoring.appscode.com/prometheus: {kind}\n    app: web\nspec:\n"
            f"  selector:\n    matchLabels:\n      app: web\n  namespaceSelector:\n    matchNames: [{ns}]\n"
            f"  endpoints:\n  - port: metrics\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--servicemonitors", type=int, default=1000)
    ap.add_argument("--steady", type=int, default=60)
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "bin"))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="c5c3-bench-mon-")
    kubeconfig = os.path.join(work, "kubeconfig")
    sim = os.path.join(a.bin, "c5c3-sim")
    kubectl = ["/usr/bin/kubectl", "--kubeconfig", kubeconfig]
    ps = Processes(work)
    procs, start = ps.procs, ps.start

    try:
        ps.start_emulator(sim, SRC)
        env_out = os.path.join(work, "trickster.env")
        start("trickster", [sim, "trickster", "--token", TOKEN, "--env-out", env_out])
        wait_for(lambda: os.path.exists(env_out) and os.path.getsize(env_out) > 0, "the backend", 60)
        env = dict(line.strip().split("=", 1) for line in open(env_out) if "=" in line)
        world = os.path.join(work, "world.yaml")
        open(world, "w").write(world_yaml())
        subprocess.run(kubectl + ["create", "-f", world], check=True, capture_output=True)
        metrics_port = free_port()
        t_start = time.time()
        start("operator", [os.path.join(a.bin, "c5c3-operator"), "--kubeconfig", kubeconfig, "--controllers=monitoring",
                           "--namespace", "c5c3-system", "--baseURL", env["TRICKSTER_URL"], "--token", TOKEN,
                           "--metrics-bind-address", f"127.0.0.1:{metrics_port}", "--health-probe-bind-address", "0"])
        metrics = f"http://127.0.0.1:{metrics_port}/metrics"

        def registered():
            s = json.load(urllib.request.urlopen(env["TRICKSTER_URL"] + "/sim/state", timeout=10))
            return len(s["registrations"]) == PROMETHEUSES

        wait_for(registered, f"{PROMETHEUSES} registrations", 600)
        prom_seconds = time.time() - t_start
        time.sleep(2)
        req_prom = requests_by_method(metrics)

        smfile = os.path.join(work, "servicemonitors.yaml")
        open(smfile, "w").write("---\n".join(servicemonitor_yaml(k) for k in range(a.servicemonitors)))

        def all_labelled():
            out = subprocess.run(kubectl + ["get", "servicemonitors", "-A", "-o",
                                            "jsonpath={range .items[*]}{.metadata.labels.release}{\"\\n\"}{end}"],
                                 capture_output=True, text=True).stdout.split()
            return sum(1 for x in out if x == "prom-0") >= a.servicemonitors

        r = settle(procs, procs["operator"].pid, metrics,
                   lambda: subprocess.run(kubectl + ["create", "-f", smfile], check=True, capture_output=True),
                   all_labelled, f"{a.servicemonitors} ServiceMonitors labelled", a.steady)
        n = a.servicemonitors
        print(f"Prometheus objects registered           {PROMETHEUSES} in {prom_seconds:.1f} s "
              f"(from the operator's start), {int(sum(req_prom.values()))} requests")
        print(f"ServiceMonitors                         {n} ({n - n // 2} auto, {n // 2} federated) in {NAMESPACES} namespaces")
        print(f"kubectl create of all of them           {r['created']:.1f} s")
        print(f"seconds until all labelled              {r['settled']:.1f} s")
        print_settled(r, n, "ServiceMonitor", a.steady)
    finally:
        stop(procs, work)

if __name__ == "__main__":
    main()
