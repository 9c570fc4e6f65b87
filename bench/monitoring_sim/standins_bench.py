#!/usr/bin/python3
"""The Grafana stand-in under the load of issue 16's measurement: N dashboards
upserted (POST /api/dashboards/db, overwrite, as the GrafanaDashboardReconciler
sends them) then read back and deleted, through `c5c3-sim monitoring` over
loopback with one keep-alive connection. Prints seconds per phase, requests per
second and the stand-ins' RSS before and after.

usage: standins_bench.py <path to c5c3-sim> [N=1000]
"""

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main():
    sim, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    d = tempfile.mkdtemp(prefix="c5c3-standins-bench.")
    env_file = os.path.join(d, "env")
    proc = subprocess.Popen([sim, "monitoring", "--env-out", env_file], stdout=subprocess.DEVNULL)
    try:
        while not os.path.exists(env_file):
            time.sleep(0.05)
        env = dict(line.strip().split("=", 1) for line in open(env_file) if "=" in line)
        host, port = env["GRAFANA_URL"].split("//")[1].split(":")
        conn = http.client.HTTPConnection(host, int(port))
        headers = {"Authorization": "Bearer " + env["GRAFANA_API_KEY"], "Content-Type": "application/json"}

        def req(method, path, body=None):
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                sys.exit(f"{method} {path}: {r.status}")

        before = rss_kib(proc.pid)
        phases = []
        for name, fn in (
            ("upsert", lambda i: req("POST", "/api/dashboards/db", {
                "dashboard": {"uid": f"d{i}", "title": f"Dashboard {i}", "panels": [{"id": 1, "type": "graph"}] * 8},
                "overwrite": True})),
            ("get", lambda i: req("GET", f"/api/dashboards/uid/d{i}")),
            ("delete", lambda i: req("DELETE", f"/api/dashboards/uid/d{i}")),
        ):
            start = time.monotonic()
            for i in range(n):
                fn(i)
            took = time.monotonic() - start
            phases.append((name, took, rss_kib(proc.pid)))
        print(f"dashboards: {n}")
        print(f"RSS before: {before} KiB")
        for name, took, rss in phases:
            print(f"{name}: {took:.2f} s, {n / took:.0f} requests/s, RSS after {rss} KiB")
        print(f"RSS per held dashboard: {(phases[0][2] - before) / n:.2f} KiB")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


main()
