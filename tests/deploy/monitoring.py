"""The queries of deploy/monitoring (dashboard panels, variables, alert rules) and the
metric names they read, for the unit and e2e tests of tests/deploy."""

import json
import os
import re

import yaml

from deploylib import ROOT

DASHBOARD = os.path.join(ROOT, "deploy", "monitoring", "dashboard.json")
RULE = os.path.join(ROOT, "deploy", "monitoring", "prometheus-rule.yaml")

# Series Prometheus makes itself for every target; not on /metrics.
SYNTHETIC = {"up"}

# Grafana's variables, as the e2e substitutes them (every job and controller; a
# rate window covering several 1 s scrapes).
VARIABLES = {"$__rate_interval": "1m", "$controller": ".+", "$job": ".+"}

_KEYWORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset", "and", "or", "unless",
    "sum", "min", "max", "avg", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "group",
    "inf", "nan",
}


def dashboard():
    with open(DASHBOARD) as f:
        return json.load(f)


def rule_spec():
    with open(RULE) as f:
        return yaml.safe_load(f)["spec"]


def panels(d):
    """Every panel, rows' nested panels included."""
    for p in d["panels"]:
        yield p
        yield from p.get("panels", [])


def panel_queries(d):
    """(panel title, expr) of every target of every panel."""
    return [(p["title"], t["expr"]) for p in panels(d) for t in p.get("targets", [])]


def variable_queries(d):
    """(variable name, PromQL inside label_values(...)) of the query variables."""
    out = []
    for v in d["templating"]["list"]:
        if v["type"] != "query":
            continue
        m = re.fullmatch(r"label_values\((.+),\s*(\w+)\)", v["query"]["query"])
        out.append((v["name"], m.group(1) if m else None))
    return out


def rule_exprs(spec):
    return [(r.get("alert") or r.get("record"), r["expr"]) for g in spec["groups"] for r in g["rules"]]


def substitute(expr):
    for k, v in VARIABLES.items():
        expr = expr.replace(k, v)
    return expr


def metric_names(expr):
    """The metric names a PromQL expression reads (a small lexer, enough for ours):
    strings, label matchers, ranges and grouping clauses are dropped first; an
    identifier left that no "(" follows and that is no keyword is a metric."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    e = re.sub(r"\{[^}]*\}", " ", e)
    e = re.sub(r"\[[^\]]*\]", " ", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    names = set()
    for m in re.finditer(r"(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?", e):
        word, call = m.group(1), m.group(2)
        if call or word.lower() in _KEYWORDS:
            continue
        names.add(word)
    return names
