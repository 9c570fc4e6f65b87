#!/usr/bin/python3
"""e2e: `c5c3-sim monitoring` (Grafana, the backend registration API and Rancher,
wired) as a process, driven over real sockets by Python's HTTP client (urllib):
the calls the monitoring controllers make, in the order they make them, and
the stand-ins' fault rules. Prints FAIL: on the first mismatch.

usage: standins_e2e.py <path to c5c3-sim>
"""

import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def call(method, url, token=None, body=None, basic=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if basic:
        req.add_header("Authorization", "Basic " + base64.b64encode(basic.encode()).decode())
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            raw = r.read().decode()
            return r.status, raw, dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


def js(raw):
    try:
        return json.loads(raw)
    except ValueError:
        return None


def expect(what, got, want):
    if got != want:
        fail(f"{what}: got {got!r}, want {want!r}")


def main():
    sim = sys.argv[1]
    d = tempfile.mkdtemp(prefix="c5c3-monitoring-e2e.")
    env_file = os.path.join(d, "env")
    proc = subprocess.Popen([sim, "monitoring", "--env-out", env_file, "--token", "platform-token"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.time() + 20
        while not os.path.exists(env_file):
            if time.time() > end or proc.poll() is not None:
                fail("c5c3-sim monitoring did not start: " + (proc.stderr.read() if proc.poll() is not None else ""))
            time.sleep(0.1)
        env = dict(line.strip().split("=", 1) for line in open(env_file) if "=" in line)
        lines = [proc.stdout.readline().strip() for _ in range(3)]
        for name in ("grafana", "trickster", "rancher"):
            if not any(l.startswith(name + " listening on http://127.0.0.1:") for l in lines):
                fail(f"no ready line for {name}: {lines}")
        g, t, r = env["GRAFANA_URL"], env["TRICKSTER_URL"], env["RANCHER_URL"]

        # The PrometheusReconciler registers the default Prometheus ...
        body = {"hubUID": "hub", "clusterUID": "c-1", "default": True,
                "prometheus": {"url": "", "service": {"scheme": "http", "name": "prometheus",
                                                      "namespace": "monitoring", "port": "9090",
                                                      "path": "", "query": ""},
                               "basicAuth": {"username": "", "password": ""}, "bearerToken": "sa",
                               "tls": {"ca": "", "cert": "", "key": "", "serverName": "",
                                       "insecureSkipTLSVerify": False}}}
        st, raw, _ = call("POST", t + "/api/v1/trickster/register", env["TRICKSTER_TOKEN"], body)
        expect("register", st, 200)
        resp = js(raw)
        expect("grafana url", resp["grafana"]["url"], g)
        key, ds, folder = resp["grafana"]["bearerToken"], resp["datasource"], resp["folderID"]
        expect("registration datasource", ds, "1.c-1")
        st, _, _ = call("POST", t + "/api/v1/trickster/register", "wrong", body)
        expect("register with a wrong token", st, 401)

        # ... and the GrafanaDashboardReconciler writes through default-grafana's token.
        st, raw, _ = call("GET", g + "/api/datasources/name/" + ds, key)
        expect("the registration's datasource exists in Grafana", st, 200)
        model = {"uid": "nodes", "title": "Nodes", "panels": []}
        st, raw, _ = call("POST", g + "/api/dashboards/db", key,
                          {"dashboard": model, "folderId": folder, "overwrite": True})
        expect("set dashboard", st, 200)
        expect("set dashboard status", js(raw)["status"], "success")
        st, raw, _ = call("GET", g + "/api/org", key)
        expect("current org", (st, js(raw)["name"]), (200, "Main Org."))
        st, raw, _ = call("GET", g + "/api/dashboards/uid/nodes", key)
        expect("the dashboard is held", (st, js(raw)["meta"]["folderId"]), (200, folder))
        # An edit updates it; a stale version without overwrite is 412.
        model["title"] = "Nodes (edited)"
        st, raw, _ = call("POST", g + "/api/dashboards/db", key, {"dashboard": model, "overwrite": True})
        expect("update", (st, js(raw)["version"]), (200, 2))
        st, raw, _ = call("POST", g + "/api/dashboards/db", key, {"dashboard": dict(model, version=1)})
        expect("412", (st, js(raw).get("status")), (412, "version-mismatch"))
        # Grafana down (reset), slow, 401 and 5xx by fault rules; then clear.
        st, _, _ = call("POST", g + "/sim/faults", body=[
            {"id": "slow", "method": "GET", "path": "/api/dashboards/", "latency": "200ms", "times": 1},
            {"id": "down", "method": "DELETE", "path": "/api/dashboards/", "reset": True, "times": 1},
            {"id": "5xx", "method": "DELETE", "path": "/api/dashboards/", "status": 503, "times": 1},
            {"id": "401", "method": "DELETE", "path": "/api/dashboards/", "status": 401, "times": 1}])
        expect("add faults", st, 201)
        try:
            call("DELETE", g + "/api/dashboards/uid/nodes", key)
            fail("a reset connection answered")
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        st, raw, _ = call("GET", g + "/api/dashboards/uid/nodes", key)
        expect("slow, then answered", (st, js(raw)["dashboard"]["version"]), (200, 2))
        st, raw, _ = call("DELETE", g + "/api/dashboards/uid/nodes", key)
        expect("5xx", (st, js(raw)["message"]), (503, "Service Unavailable"))
        st, raw, _ = call("DELETE", g + "/api/dashboards/uid/nodes", key)
        expect("401", (st, js(raw)["message"]), (401, "Unauthorized"))
        st, raw, _ = call("DELETE", g + "/api/dashboards/uid/nodes", key)
        expect("delete", (st, js(raw)["message"]), (200, "Dashboard Nodes (edited) deleted"))
        st, _, _ = call("DELETE", g + "/api/dashboards/uid/nodes", key)
        expect("delete again is 404", st, 404)
        fired = js(call("GET", g + "/sim/faults")[1])["fired"]
        expect("every fault fired once", fired, {"down": 1, "slow": 1, "5xx": 1, "401": 1})

        # A client org registers in issue-token mode: its own Grafana org and key.
        org = dict(body, default=False, projectId="", issueToken=True, clientOrgID="17")
        st, raw, _ = call("POST", t + "/api/v1/trickster/register", env["TRICKSTER_TOKEN"], org)
        expect("client-org register", st, 200)
        org_key = js(raw)["grafana"]["bearerToken"]
        st, raw, _ = call("GET", g + "/api/org", org_key)
        expect("the client org's key", (st, js(raw)["name"]), (200, "client-org-17"))
        st, _, _ = call("POST", t + "/api/v1/trickster/unregister", env["TRICKSTER_TOKEN"],
                        {k: v for k, v in org.items() if k != "prometheus"})
        expect("unregister", st, 200)
        state = js(call("GET", t + "/sim/state")[1])
        expect("one registration left", len(state["registrations"]), 1)
        expect("register calls", state["registerCalls"], 2)

        # The TokenRefresher's Rancher calls: client, token by id, renewal.
        rt = env["RANCHER_TOKEN"]
        st, _, headers = call("GET", r, rt)
        expect("rancher root", (st, headers.get("X-API-Schemas")), (200, r + "/schemas"))
        st, raw, _ = call("GET", r + "/tokens/" + rt.split(":")[0], rt)
        expect("token by id", (st, js(raw)["ttl"]), (200, 720 * 3600 * 1000))
        st, raw, _ = call("POST", r + "/tokens", rt, {"description": "monitoring-operator-1", "ttl": 31536000000})
        expect("renewal", st, 201)
        fresh = js(raw)["token"]
        st, _, _ = call("GET", r, fresh)
        expect("the new token works", st, 200)

        proc.send_signal(signal.SIGTERM)
        expect("exit code on SIGTERM", proc.wait(timeout=20), 0)
    finally:
        if proc.poll() is None:
            proc.kill()
    print("monitoring stand-ins e2e: ok")


main()
