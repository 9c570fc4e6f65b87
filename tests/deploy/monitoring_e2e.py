#!/usr/bin/env python3
"""E2e: deploy/monitoring against a running operator and a real Prometheus (Debian's), on loopback.

usage: monitoring_e2e.py --operator PATH/TO/c5c3-operator

1. Prometheus starts first (scrape and rule evaluation every second, the rules of
   deploy/monitoring/prometheus-rule.yaml), then `c5c3-operator --embedded` on the port it scrapes.
2. Every metric a panel, a dashboard variable or an alert rule names is on the operator's /metrics
   (`up` excepted: Prometheus makes it).
   The operator is first put in a state where every series exists: a target cluster whose API server
   does not answer (a labelled kubeconfig Secret naming a closed port), an order that is never Ready
   (its ControlPlane does not exist) and an order that rotates every minute.
3. Every panel query and variable query (Grafana's variables substituted: every job and
   controller, a 1m rate window) answers at least one finite sample. New RabbitMQVhost orders keep
   the controllers busy while the queries wait for data; the rotation panels wait for the first
   scheduled rotation (a minute after the order is provisioned).
4. Every rule evaluates without error; the unreachable target cluster's alert is pending.
"""

import argparse
import json
import math
import os
import re
import shutil
import socket
import tempfile
import urllib.parse
import urllib.request

import yaml

from deploylib import KUBECTL, ROOT, Failure, Processes, check, main, run, wait_until
from monitoring import SYNTHETIC, dashboard, metric_names, panel_queries, rule_exprs, rule_spec, substitute, variable_queries

PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
JOB = "c5c3-operator-metrics"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def exposed_names(text):
    """Sample names of a text exposition."""
    return {m.group(1) for m in re.finditer(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", text, re.M)}


def query(prom, expr):
    url = f"http://127.0.0.1:{prom}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    answer = json.loads(get(url))
    check(answer["status"] == "success", f"query {expr}: {answer}")
    return answer["data"]["result"]


def finite(result):
    return [r for r in result if not math.isnan(float(r["value"][1]))]


def add_order(kubeconfig, n, control_plane="cp", **spec):
    order = {"apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost",
             "metadata": {"name": f"monitoring-e2e-{n}", "namespace": "tenant-a"},
             "spec": {"controlPlaneRef": {"name": control_plane, "namespace": "openstack"}, **spec}}
    run([KUBECTL, "--kubeconfig", kubeconfig, "apply", "-f", "-"], input=yaml.safe_dump(order))


TARGET = "monitoring-e2e-edge"


def add_unreachable_target(kubeconfig):
    """A target cluster (the Secret convention of actors/cluster/README.md, in the operator's namespace:
    "default" for --embedded) whose API server is a closed loopback port."""
    target = {"apiVersion": "v1", "kind": "Config", "current-context": "edge",
              "clusters": [{"name": "edge", "cluster": {"server": f"https://127.0.0.1:{free_port()}",
                                                        "insecure-skip-tls-verify": True}}],
              "users": [{"name": "edge", "user": {"token": "not-a-real-token"}}],
              "contexts": [{"name": "edge", "context": {"cluster": "edge", "user": "edge"}}]}
    secret = {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
              "metadata": {"name": "monitoring-e2e-edge", "namespace": "default",
                           "labels": {"c5c3.io/target-cluster": TARGET}},
              "stringData": {"kubeconfig": yaml.safe_dump(target)}}
    run([KUBECTL, "--kubeconfig", kubeconfig, "apply", "-f", "-"], input=yaml.safe_dump(secret))


# Queries that have data only once a scheduled rotation ran.
ROTATION_RAN = ("c5c3_rotation_lag_seconds_bucket",)


def test():
    p = argparse.ArgumentParser()
    p.add_argument("--operator", required=True)
    a = p.parse_args()
    d = tempfile.mkdtemp(prefix="c5c3-monitoring-")
    procs = Processes(d)
    try:
        metrics, prom = free_port(), free_port()
        with open(os.path.join(d, "rules.yaml"), "w") as f:
            yaml.safe_dump(rule_spec(), f, sort_keys=False)
        with open(os.path.join(d, "prometheus.yml"), "w") as f:
            yaml.safe_dump({"global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                            "rule_files": [os.path.join(d, "rules.yaml")],
                            "scrape_configs": [{"job_name": JOB, "static_configs": [{"targets": [f"127.0.0.1:{metrics}"]}]}]}, f)
        procs.start("prometheus", [PROMETHEUS, f"--config.file={d}/prometheus.yml", f"--storage.tsdb.path={d}/tsdb",
                                   f"--web.listen-address=127.0.0.1:{prom}", "--log.level=warn"])
        wait_until("Prometheus to be ready", lambda: (procs.alive(), get(f"http://127.0.0.1:{prom}/-/ready"))[1], timeout=60)
        data = os.path.join(d, "operator")
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1"))
        procs.start("operator", [a.operator, "--embedded", "--data-dir", data, "--source-dir", ROOT,
                                 f"--metrics-bind-address=127.0.0.1:{metrics}",
                                 "--health-probe-bind-address=127.0.0.1:0"], env=env)

        # 2. Names on /metrics, once the sample order has had its passes, the orders below theirs and
        # the sync poller has seen the target cluster.
        kubeconfig = os.path.join(data, "kubeconfig")
        wait_until("the embedded emulator's kubeconfig", lambda: (procs.alive(), os.path.exists(kubeconfig))[1],
                   timeout=120)
        wait_until("the emulator to take writes", lambda: add_unreachable_target(kubeconfig) or True, timeout=60)
        # The orders go to tenant-a, a namespace of the samples, which the operator applies after it wrote the
        # kubeconfig; it marks them applied (actors/operator/embedded.cpp).
        wait_until("the samples applied", lambda: (procs.alive(), os.path.exists(os.path.join(data, "samples-applied")))[1],
                   timeout=120)
        add_order(kubeconfig, "waiting", control_plane="missing")
        add_order(kubeconfig, "rotating", rotation={"interval": "1m", "gracePeriod": "0s"})
        present = ("c5c3_sub_reconciler_results_total{", 'c5c3_orders{controller="rabbitmqvhost",ready="False"',
                   'c5c3_rotation_overdue_seconds{controller="rabbitmqvhost"}',
                   f'c5c3_target_cluster_reachable{{cluster="{TARGET}"}} 0')

        def exposition():
            procs.alive()
            text = get(f"http://127.0.0.1:{metrics}/metrics", timeout=30)
            missing = [p for p in present if p not in text]
            if missing:
                raise Failure(f"not on /metrics yet: {missing}")
            return text
        text = wait_until("the operator's first passes on /metrics", exposition, timeout=240)
        print("every series on /metrics", flush=True)
        exposed = exposed_names(text)
        d_ = dashboard()
        queries = [(f"panel {t}", e) for t, e in panel_queries(d_)]
        queries += [(f"variable {n}", q) for n, q in variable_queries(d_)]
        named = set()
        for where, expr in queries + [(f"rule {n}", e) for n, e in rule_exprs(rule_spec())]:
            names = metric_names(substitute(expr)) - SYNTHETIC
            named |= names
            check(names <= exposed, f"{where} names {sorted(names - exposed)}, not on /metrics")
        check(len(named) >= 12, f"only {sorted(named)} named")

        # 3. Every query answers with data; new orders keep the controllers busy.
        wait_until("Prometheus to scrape the operator",
                   lambda: finite(query(prom, f'up{{job="{JOB}"}} == 1')), timeout=60)
        pending = {where: substitute(expr) for where, expr in queries}
        orders = [0]

        def all_answer():
            procs.alive()
            for where, expr in list(pending.items()):
                if finite(query(prom, expr)):
                    del pending[where]
            if pending:
                if any(not any(m in pending[w] for m in ROTATION_RAN) for w in pending):
                    orders[0] += 1
                    add_order(kubeconfig, orders[0])
                raise Failure(f"no data yet for {sorted(pending)}")
            return True
        # The first scheduled rotation runs a minute after the order was provisioned.
        wait_until("every panel query to answer", all_answer, timeout=240, interval=2)
        print(f"every query answered ({orders[0]} orders added)")

        # 4. Every rule evaluated, none in error.
        def rules_evaluated():
            groups = json.loads(get(f"http://127.0.0.1:{prom}/api/v1/rules"))["data"]["groups"]
            rules = [r for g in groups for r in g["rules"]]
            check(len(rules) == len(rule_exprs(rule_spec())), f"Prometheus loaded {len(rules)} rules")
            for r in rules:
                check(r["health"] != "err", f"rule {r['name']}: {r.get('lastError')}")
            return all(r["health"] == "ok" for r in rules)
        wait_until("every rule to evaluate", rules_evaluated, timeout=60)

        def target_alert():
            alerts = json.loads(get(f"http://127.0.0.1:{prom}/api/v1/alerts"))["data"]["alerts"]
            return [a for a in alerts if a["labels"].get("alertname") == "C5C3OperatorTargetClusterUnreachable"
                    and a["labels"].get("cluster") == TARGET and a["state"] in ("pending", "firing")]
        wait_until(f"the alert on {TARGET} to be pending", target_alert, timeout=60)
    except Failure:
        for name in ("prometheus", "operator"):
            if os.path.exists(os.path.join(d, name + ".log")):
                print(f"--- {name}\n{procs.log(name)}")
        raise
    finally:
        procs.stop()
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main(test)
