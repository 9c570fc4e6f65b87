#!/usr/bin/env python3
"""Unit: deploy/monitoring offline. The PrometheusRule's spec passes `promtool check
rules` and the alert cases of rules_test.yaml (`promtool test rules`); the dashboard
is well formed (ids, data source, variables, targets); the metric-name lexer the
e2e relies on reads the right names.

usage: monitoring_rules_test.py   (promtool from Debian's prometheus package)
"""

import os
import re
import shutil
import tempfile

import yaml

from deploylib import check, main, run
from monitoring import dashboard, metric_names, panel_queries, panels, rule_exprs, rule_spec, variable_queries

PROMTOOL = shutil.which("promtool") or "/usr/bin/promtool"

LEXER_CASES = [
    ('sum by (controller, result) (rate(controller_runtime_reconcile_total{job=~"$job"}[1m]))',
     {"controller_runtime_reconcile_total"}),
    ("histogram_quantile(0.9, sum by (le) (rate(workqueue_queue_duration_seconds_bucket[5m])))",
     {"workqueue_queue_duration_seconds_bucket"}),
    ('a_total > 0 unless b_total{code=~"2.."} > 0', {"a_total", "b_total"}),
    ("time() - process_start_time_seconds", {"process_start_time_seconds"}),
    ('up{job=~".*c5c3-operator.*"} == 0', {"up"}),
    ("sum without (instance) (x) / on (job) group_left y", {"x", "y"}),
]


def lexer_reads_names():
    for expr, want in LEXER_CASES:
        got = metric_names(expr)
        check(got == want, f"metric_names({expr!r}) = {sorted(got)}, want {sorted(want)}")


def rules_pass_promtool():
    d = tempfile.mkdtemp(prefix="c5c3-rules-")
    try:
        with open(os.path.join(d, "rules.yaml"), "w") as f:
            yaml.safe_dump(rule_spec(), f, sort_keys=False)
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules_test.yaml"), d)
        _, out, _ = run([PROMTOOL, "check", "rules", os.path.join(d, "rules.yaml")])
        check("SUCCESS" in out, f"promtool check rules: {out}")
        run([PROMTOOL, "test", "rules", os.path.join(d, "rules_test.yaml")])
    finally:
        shutil.rmtree(d, ignore_errors=True)
    spec = rule_spec()
    alerts = [name for name, _ in rule_exprs(spec)]
    want = {"C5C3OperatorReconcileErrors", "C5C3OperatorNoSuccessfulAPIRequests", "C5C3OperatorOrdersNotReady",
            "C5C3OperatorRotationOverdue", "C5C3OperatorTargetClusterUnreachable"}
    check(want <= set(alerts), f"alerts {alerts} lack {sorted(want - set(alerts))}")
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules_test.yaml")) as f:
        tested = {c["alertname"] for t in yaml.safe_load(f)["tests"] for c in t["alert_rule_test"]}
    check(tested == set(alerts), f"rules_test.yaml tests {sorted(tested)}, the rule has {sorted(alerts)}")
    for g in spec["groups"]:
        for r in g["rules"]:
            check(r.get("labels", {}).get("severity") in ("warning", "critical"), f"{r['alert']}: no severity")
            check(r.get("annotations", {}).get("summary") and r["annotations"].get("description"),
                  f"{r['alert']}: summary and description needed")


def dashboard_is_well_formed():
    d = dashboard()
    ids = [p["id"] for p in panels(d)]
    check(len(ids) == len(set(ids)), f"duplicate panel ids {ids}")
    names = {v["name"] for v in d["templating"]["list"]}
    check({"datasource", "job", "controller"} <= names, f"variables {names}")
    for p in panels(d):
        if p["type"] == "row":
            continue
        g = p["gridPos"]
        check(g["x"] + g["w"] <= 24, f"{p['title']}: wider than the grid")
        check(p.get("targets"), f"{p['title']}: no query")
        check(p["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, f"{p['title']}: data source")
        check(p.get("description"), f"{p['title']}: no description")
        refs = [t["refId"] for t in p["targets"]]
        check(len(refs) == len(set(refs)), f"{p['title']}: duplicate refIds")
    for title, expr in panel_queries(d) + [(n, q) for n, q in variable_queries(d)]:
        check(expr, f"{title}: a variable query must be label_values(<query>, <label>)")
        for var in re.findall(r"\$[\w]+", expr):
            check(var == "$__rate_interval" or var[1:] in names, f"{title}: unknown variable {var}")
        check(metric_names(expr.replace("$__rate_interval", "1m")), f"{title}: reads no metric: {expr}")
    check(d["uid"] == "c5c3-operator", "dashboard uid")


def test():
    lexer_reads_names()
    rules_pass_promtool()
    dashboard_is_well_formed()


if __name__ == "__main__":
    main(test)
