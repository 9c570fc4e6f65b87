#!/usr/bin/python3
"""1,000 GrafanaDashboards (issue 16, Measure).

Runs c5c3-sim apiserver (deploy/crds, sim/crds), c5c3-sim grafana (an API key) and c5c3-operator --controllers=grafana
as separate processes. The AppBinding default-grafana, its token Secret and the namespaces exist before the
operator starts; then N GrafanaDashboards are created with one `kubectl create` (spread over 10 namespaces),
and it prints:
  - seconds until every dashboard is Current (status.phase) and the stand-in holds N dashboards,
  - Grafana API calls per dashboard until then (the stand-in's request log, by method and path),
  - Grafana API calls during the steady state that follows (the goal is 0), and the same after the operator
    restarts (every dashboard is seen again: already reconciled, so no call),
  - the operator's API requests per dashboard and in steady state (its rest_client_requests_total),
  - the operator's RSS per dashboard (RSS after settling minus RSS before them, over N),
  - CPU seconds of each process while the dashboards settle.

Usage: bench/grafana/bench_grafana.py [--dashboards N] [--steady SECONDS] [--bin DIR] [--keep]
Default: 1000 dashboards, 30 s of steady state, binaries in build/bin (tools/build).
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import Processes, diff, free_port, print_settled, requests_by_method, settle, stop, wait_for  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEY = "bench-grafana-key"
NAMESPACES = 10


def world_yaml(grafana_url):
    docs = [f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dash-{j}\n" for j in range(NAMESPACES)]
    docs.append("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: monitoring\n")
    docs.append(f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: default-grafana-auth\n  namespace: monitoring\n"
                f"stringData:\n  token: {KEY}\n")
    docs.append("apiVersion: appcatalog.appscode.com/v1alpha1\nkind: AppBinding\nmetadata:\n  name: default-grafana\n"
                "  namespace: monitoring\n  annotations:\n    monitoring.appscode.com/is-default-grafana: \"true\"\n"
                f"spec:\n  type: Grafana\n  clientConfig:\n    url: {grafana_url}\n  secret:\n    name: default-grafana-auth\n"
                "  parameters:\n    apiVersion: openviz.dev/v1alpha1\n    kind: GrafanaConfiguration\n    datasource: ds-1\n")
    return "---\n".join(docs)


def dashboard_yaml(k):
    return (f"apiVersion: openviz.dev/v1alpha1\nkind: GrafanaDashboard\nmetadata:\n  name: d-{k:05d}\n"
            f"  namespace: dash-{k % NAMESPACES}\nspec:\n  model:\n    title: Dashboard {k}\n"
            f"    panels:\n    - type: graph\n      title: cpu\n")


def grafana_calls(url):
    """The stand-in's answered API requests (not /sim/) by "METHOD path-prefix"."""
    reqs = json.load(urllib.request.urlopen(url + "/sim/requests", timeout=30))
    out = collections.Counter()
    for r in reqs if isinstance(reqs, list) else reqs.get("requests", []):
        if r["path"].startswith("/sim/"):
            continue
        path = r["path"]
        if path.startswith("/api/dashboards/uid/"):
            path = "/api/dashboards/uid/*"
        out[f"{r['method']} {path}"] += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dashboards", type=int, default=1000)
    ap.add_argument("--steady", type=int, default=30)
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "bin"))
    ap.add_argument("--keep", action="store_true", help="keep the work directory (the processes' logs)")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="c5c3-bench-grafana-")
    run = Processes(work)
    kubeconfig = run.kubeconfig
    sim = os.path.join(a.bin, "c5c3-sim")
    kubectl = ["/usr/bin/kubectl", "--kubeconfig", kubeconfig]
    procs = run.procs
    start = run.start

    def start_operator(metrics_port):
        start("operator", [os.path.join(a.bin, "c5c3-operator"), "--kubeconfig", kubeconfig, "--controllers=grafana",
                           "--namespace", "monitoring", "--metrics-bind-address", f"127.0.0.1:{metrics_port}",
                           "--health-probe-bind-address", "0"])

    try:
        run.start_emulator(sim, SRC)
        env_out = os.path.join(work, "grafana.env")
        start("grafana", [sim, "grafana", "--api-key", KEY, "--env-out", env_out])
        wait_for(lambda: os.path.exists(env_out) and os.path.getsize(env_out) > 0, "the Grafana stand-in", 60)
        env = dict(line.strip().split("=", 1) for line in open(env_out) if "=" in line)
        gurl = env["GRAFANA_URL"]
        world = os.path.join(work, "world.yaml")
        open(world, "w").write(world_yaml(gurl))
        subprocess.run(kubectl + ["create", "-f", world], check=True, capture_output=True)
        metrics_port = free_port()
        start_operator(metrics_port)
        metrics = f"http://127.0.0.1:{metrics_port}/metrics"
        wait_for(lambda: "Starting controllers" in open(os.path.join(work, "operator.log")).read(),
                 "the grafana controllers", 120)

        dfile = os.path.join(work, "dashboards.yaml")
        open(dfile, "w").write("---\n".join(dashboard_yaml(k) for k in range(a.dashboards)))

        def all_current():
            out = subprocess.run(kubectl + ["get", "grafanadashboards", "-A", "-o",
                                            "jsonpath={range .items[*]}{.status.phase}{\"\\n\"}{end}"],
                                 capture_output=True, text=True).stdout.split()
            return sum(1 for x in out if x == "Current") >= a.dashboards

        calls0 = grafana_calls(gurl)
        r = settle(procs, procs["operator"].pid, metrics,
                   lambda: subprocess.run(kubectl + ["create", "-f", dfile], check=True, capture_output=True),
                   all_current, f"{a.dashboards} dashboards Current", 0)
        calls1 = grafana_calls(gurl)
        req1 = requests_by_method(metrics)
        time.sleep(a.steady)
        calls2 = grafana_calls(gurl)
        r["steady"] = diff(req1, requests_by_method(metrics))
        n = a.dashboards
        held = json.load(urllib.request.urlopen(gurl + "/sim/state", timeout=30))
        held_n = sum(len(o["dashboards"]) for o in held["orgs"])
        conv = calls1 - calls0
        steady = calls2 - calls1
        print(f"dashboards Current                      {n} in {r['settled']:.1f} s "
              f"(kubectl create took {r['created']:.1f} s); the stand-in holds {held_n}")
        print(f"Grafana calls per dashboard             {sum(conv.values()) / n:.2f}  "
              + ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(conv.items())))
        print(f"Grafana calls in {a.steady} s steady state       {sum(steady.values())}")
        print_settled(r, n, "dashboard", a.steady)

        # Restart: every dashboard is seen again (the initial list), already reconciled.
        procs["operator"].terminate()
        procs["operator"].wait(60)
        restart0 = grafana_calls(gurl)
        t0 = time.time()
        start_operator(metrics_port)
        wait_for(lambda: "Starting controllers" in open(os.path.join(work, "operator.log")).read(),
                 "the restarted controllers", 120)
        time.sleep(a.steady)
        restart = grafana_calls(gurl) - restart0
        print(f"Grafana calls in {time.time() - t0:.0f} s after a restart      {sum(restart.values())}")
    finally:
        stop(procs, work)
        if not a.keep:  # the logs go with it
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
