"""e2e: three c5c3-operator replicas sharing the monitoring controllers' objects (issue 17).

One ring per controller group: `monitoring` (here a Prometheus and N `auto` ServiceMonitors: the
AutoReconciler labels each with the Prometheus's selector) and `grafana` (N GrafanaDashboards that the
GrafanaDashboard controller puts into the Grafana stand-in). c5c3-sim apiserver and c5c3-sim grafana as
processes, replicas running `--controllers=monitoring,grafana` with distinct --shard-name. Checked each time by
waiting on conditions: every object converged (each ServiceMonitor labelled with the Prometheus's current
selector; each dashboard Current at its generation and held by the stand-in with its current title), held
(label c5c3.io/shard) by a live replica, every live replica holding some of each ring, and each replica running
an actor for exactly the objects it holds (its c5c3_shard_orders_owned per controller). Then replica-a stops
with SIGTERM (its Leases released, its objects taken over at once) and replica-b with SIGKILL (its Leases run
out first); after each handoff everything converges on the survivors and a change made then (a new selector
on the Prometheus, new titles on the dashboards) is applied; a 4th replica joins (the holders drain and
release what moves to it) and a last change is applied. Throughout, the emulator's double-writer count (GET
/sim/doublewriters: for these kinds, a write of what an object's own controller writes on it, its status,
labels or finalizers, by a replica that does not hold it) stays 0.

Usage: monitoring_shard_e2e.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR [OBJECTS_PER_RING]
"""
import json
import os
import re
import signal
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shard_e2e import NAMESPACE, Scenario  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from e2e import condition, eventually, log  # noqa: E402

LEASE = "8s"
KEY = "e2e-grafana-key-s3cret"
DASH_NS = "team-a"
SM_NS = "apps"
PROM_NS = "kps"
CLAIM = "c5c3.io/shard"
# controller (its c5c3_shard_orders_owned series) -> the objects it runs (monitoring ring: ServiceMonitors and
# the Prometheus; grafana ring: dashboards)
CONTROLLERS = {"grafanadashboard": "dashboards", "servicemonitor-auto": "servicemonitors",
               "prometheus": "prometheus"}


class MonitoringRing(Scenario):
    def __init__(self, sim, operator, src, n):
        super().__init__(sim, operator, src, n)
        self.metrics = {}  # replica -> its /metrics URL
        self.version = 1  # of the current change: selector release=v<N>, titles "... v<N>"

    # ---- the cluster ----
    def start_cluster(self):
        src = self.src
        self.procs.start("apiserver", [self.sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out",
                                       self.kubeconfig, "--crds", os.path.join(src, "deploy", "crds"),
                                       "--crds", os.path.join(src, "sim", "crds")], "listening on")
        env_out = os.path.join(self.workdir, "grafana.env")
        self.procs.start("grafana", [self.sim, "grafana", "--api-key", KEY, "--env-out", env_out])
        eventually(lambda: os.path.exists(env_out) and os.path.getsize(env_out) > 0, "the Grafana stand-in", 30)
        env = dict(line.strip().split("=", 1) for line in open(env_out) if "=" in line)
        self.grafana_url = env["GRAFANA_URL"]

    def apply(self, docs):
        path = os.path.join(self.workdir, "apply.json")
        with open(path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": docs}, f)
        # Retried (kubectl apply is idempotent): on a loaded machine kubectl's OpenAPI read may time out.
        eventually(lambda: self.kubectl("apply", "-f", path) is not None, f"{len(docs)} objects applied", 120)

    def world(self):
        """The operator's namespace, the Grafana AppBinding, the Prometheus and the objects of both rings."""
        docs = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n}}
                for n in (NAMESPACE, "monitoring", DASH_NS, SM_NS, PROM_NS)]
        docs += [
            {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "default-grafana-auth",
                                                                "namespace": "monitoring"},
             "stringData": {"token": KEY}},
            {"apiVersion": "appcatalog.appscode.com/v1alpha1", "kind": "AppBinding",
             "metadata": {"name": "default-grafana", "namespace": "monitoring",
                          "annotations": {"monitoring.appscode.com/is-default-grafana": "true"}},
             "spec": {"type": "Grafana", "clientConfig": {"url": self.grafana_url},
                      "secret": {"name": "default-grafana-auth"},
                      "parameters": {"apiVersion": "openviz.dev/v1alpha1", "kind": "GrafanaConfiguration",
                                     "datasource": "ds-1"}}},
            # A standalone cluster's default Prometheus: its Service's http-web port is what the detector reads.
            {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "prom", "namespace": PROM_NS},
             "spec": {"ports": [{"name": "http-web", "port": 9090, "targetPort": 9090}]}},
        ]
        docs += [{"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor",
                  "metadata": {"name": f"sm-{i:02d}", "namespace": SM_NS,
                               "labels": {"monitoring.appscode.com/prometheus": "auto", "app": f"app-{i:02d}"}},
                  "spec": {"selector": {"matchLabels": {"app": f"app-{i:02d}"}}, "endpoints": [{"port": "metrics"}]}}
                 for i in range(self.n)]
        return docs + self.prometheus() + self.dashboards()

    def prometheus(self):
        """The default Prometheus, selecting ServiceMonitors labelled release=v<version>."""
        return [{"apiVersion": "monitoring.coreos.com/v1", "kind": "Prometheus",
                 "metadata": {"name": "prom", "namespace": PROM_NS},
                 "spec": {"serviceMonitorSelector": {"matchLabels": {"release": f"v{self.version}"}},
                          "serviceMonitorNamespaceSelector": {}}}]

    def dashboards(self):
        return [{"apiVersion": "openviz.dev/v1alpha1", "kind": "GrafanaDashboard",
                 "metadata": {"name": f"dash-{i:02d}", "namespace": DASH_NS},
                 "spec": {"model": {"title": self.title(i), "panels": [{"type": "graph", "title": "cpu"}]}}}
                for i in range(self.n)]

    def title(self, i):
        return f"Dashboard {i:02d} v{self.version}"

    def start_replica(self, *names, before_waiting=None):
        """Replicas started together, `before_waiting()` called, then each waited for until it serves its
        metrics (the address from its log)."""
        for name in names:
            self.replicas[name] = self.procs.start(name, [
                self.operator, "--kubeconfig", self.kubeconfig, "--namespace", NAMESPACE, "--shard-name", name,
                "--shard-lease-duration", LEASE, "--controllers=monitoring,grafana", "--requeue-after-duration=1s",
                "--metrics-bind-address", "127.0.0.1:0", "--health-probe-bind-address", "0"])
        if before_waiting:
            before_waiting()

        def started(name):
            if self.replicas[name].poll() is not None:
                raise AssertionError(f"{name} exited {self.replicas[name].returncode}")
            text = open(self.procs.path(name)).read()
            m = re.search(r'Serving metrics server.*?"?bindAddress"?[=:]\s*"?127\.0\.0\.1:(\d+)', text)
            return m and "Operator started" in text and m.group(1)

        for name in names:
            port = eventually(lambda: started(name), f"{name}: Operator started", 60, tolerate=(OSError,))
            self.metrics[name] = f"http://127.0.0.1:{port}/metrics"

    # ---- what the cluster shows ----
    def items(self, resource, ns):
        return json.loads(self.kubectl("get", resource, "-n", ns, "-o", "json"))["items"]

    def grafana_titles(self):
        s = json.load(urllib.request.urlopen(f"{self.grafana_url}/sim/state", timeout=10))
        org = [o for o in s["orgs"] if o["id"] == 1][0]
        return sorted(d["title"] for d in org["dashboards"])

    def owned(self, name):
        """c5c3_shard_orders_owned of replica `name`, by controller."""
        text = urllib.request.urlopen(self.metrics[name], timeout=10).read().decode()
        out = {}
        for m in re.finditer(r'^c5c3_shard_orders_owned\{controller="([^"]+)"\} (\S+)$', text, re.M):
            out[m.group(1)] = int(float(m.group(2)))
        return out

    def converged(self, live):
        """Every object converged at self.version, held by a live replica, each live replica holding some of
        each ring and running exactly what it holds; the holders' counts per kind."""
        want = f"v{self.version}"
        sms = self.items("servicemonitors.monitoring.coreos.com", SM_NS)
        dashboards = self.items("grafanadashboards.openviz.dev", DASH_NS)
        proms = self.items("prometheuses.monitoring.coreos.com", PROM_NS)
        held = {kind: {r: 0 for r in live} for kind in ("servicemonitors", "dashboards", "prometheus")}
        stale, others = [], {}

        def hold(kind, o):
            holder = (o["metadata"].get("labels") or {}).get(CLAIM, "")
            if holder in live:
                held[kind][holder] += 1
            else:
                others[holder] = others.get(holder, 0) + 1

        for o in sms:
            hold("servicemonitors", o)
            if (o["metadata"].get("labels") or {}).get("release") != want:
                stale.append(o["metadata"]["name"])
        for o in dashboards:
            hold("dashboards", o)
            st = o.get("status") or {}
            ready = condition(o, "Ready")
            if st.get("phase") != "Current" or not ready or ready["status"] != "True" or \
                    st.get("observedGeneration", o["metadata"]["generation"]) != o["metadata"]["generation"]:
                stale.append(o["metadata"]["name"])
        for o in proms:
            hold("prometheus", o)
        titles = self.grafana_titles()
        want_titles = sorted(self.title(i) for i in range(self.n))
        self.last = (f"{len(sms)} ServiceMonitors, {len(dashboards)} dashboards, not converged {stale[:6]}, "
                     f"held {held}, by others {others}, Grafana holds {len(titles)}")
        if len(sms) != self.n or len(dashboards) != self.n or len(proms) != 1 or stale or others or \
                titles != want_titles:
            return None
        if not all(all(h.values()) for kind, h in held.items() if kind != "prometheus"):
            return None
        # Exactly one actor per object: each replica runs what it holds, nothing else.
        for r in live:
            owned = self.owned(r)
            for controller, kind in CONTROLLERS.items():
                if owned.get(controller, 0) != held[kind][r]:
                    self.last += f"; {r} runs {owned} but holds {held}"
                    return None
        return held

    def wait_converged(self, live, what, limit=120):
        try:
            held = eventually(lambda: self.converged(live), what, limit, interval=0.5)
        except AssertionError as e:
            raise AssertionError(f"{e}; {self.last}") from None
        log(f"{what}: {held}")
        return held

    # ---- changes ----
    def change(self, what):
        """A new selector on the Prometheus and a new title on every dashboard (one kubectl apply)."""
        self.version += 1
        self.apply(self.prometheus() + self.dashboards())
        log(f"{what}: changed to v{self.version}")

    def leases_released(self, name):
        leases = self.leases()
        return all(leases.get(f"{name}-{ring}") == "" for ring in ("monitoring", "grafana"))

    def run(self):
        self.start_cluster()
        three = ["replica-a", "replica-b", "replica-c"]
        # The world applied while the replicas start (a Lease renewal failing until its namespace exists is
        # retried): each object is claimed as it comes.
        self.start_replica(*three, before_waiting=lambda: self.apply(self.world()))
        self.wait_converged(three, "3 replicas")
        self.assert_no_double_writers("3 replicas")

        log("SIGTERM to replica-a")
        self.replicas["replica-a"].send_signal(signal.SIGTERM)
        if self.replicas["replica-a"].wait(60) != 0:
            raise AssertionError("replica-a did not stop cleanly")
        eventually(lambda: self.leases_released("replica-a"), "replica-a's Leases released", 10)
        self.wait_converged(["replica-b", "replica-c"], "after SIGTERM")
        self.change("after SIGTERM")
        self.wait_converged(["replica-b", "replica-c"], "after SIGTERM, changed")
        self.assert_no_double_writers("after SIGTERM")

        log("SIGKILL to replica-b")
        self.replicas["replica-b"].kill()
        self.replicas["replica-b"].wait(10)
        self.wait_converged(["replica-c"], "after SIGKILL (Leases ran out)")
        self.change("after SIGKILL")
        self.wait_converged(["replica-c"], "after SIGKILL, changed")
        self.assert_no_double_writers("after SIGKILL")

        self.start_replica("replica-d")
        self.wait_converged(["replica-c", "replica-d"], "a replica joined")
        self.change("after the join")
        self.wait_converged(["replica-c", "replica-d"], "after the join, changed")
        self.assert_no_double_writers("after the join")


if __name__ == "__main__":
    sys.exit(MonitoringRing(sys.argv[1], sys.argv[2], sys.argv[3],
                            int(sys.argv[4]) if len(sys.argv) > 4 else 15).main())
