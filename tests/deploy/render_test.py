#!/usr/bin/env python3
"""Unit: deploy/chart and deploy/kustomization.yaml render, agree, and mean what values.yaml says.

usage: render_test.py   (helm from tools/helm/helm, or $C5C3_HELM; kubectl from PATH)
"""

import copy
import glob
import os
import re

import yaml

from deploylib import ROOT, check, find, helm, helm_template, kustomize, kustomize_with, main


def read_yaml(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def versions_agree():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        project = re.search(r"project\(c5c3 VERSION ([0-9.]+)", f.read()).group(1)
    chart = read_yaml("deploy/chart/Chart.yaml")[0]
    check(chart["version"] == project, f"Chart.yaml version {chart['version']} is not the project's {project}")
    check(chart["appVersion"] == project, f"Chart.yaml appVersion {chart['appVersion']} is not {project}")
    image = find(read_yaml("deploy/operator.yaml"), "Deployment")["spec"]["template"]["spec"]["containers"][0]["image"]
    check(image == f"c5c3-operator:{project}", f"deploy/operator.yaml runs {image}, not c5c3-operator:{project}")


def kustomization_lists_every_crd():
    listed = set(read_yaml("deploy/kustomization.yaml")[0]["resources"])
    crds = {os.path.relpath(p, os.path.join(ROOT, "deploy")) for p in glob.glob(os.path.join(ROOT, "deploy/crds/*.yaml"))}
    check(crds <= listed, f"deploy/kustomization.yaml misses {sorted(crds - listed)}")


# Labels and selectors differ on purpose (the chart adds its release labels);
# everything else must be the same object.
def normalized(o):
    o = copy.deepcopy(o)
    o["metadata"].pop("labels", None)
    o["metadata"].pop("annotations", None)
    spec = o.get("spec") or {}
    if o["kind"] in ("Deployment", "Service", "PodDisruptionBudget", "ServiceMonitor"):
        spec.pop("selector", None)
    if o["kind"] == "Deployment":
        spec["template"]["metadata"].pop("labels", None)
        for t in spec["template"]["spec"].get("topologySpreadConstraints", []):
            t.pop("labelSelector", None)
    return o


def by_key(objs):
    return {(o["kind"], o["metadata"]["name"]): normalized(o) for o in objs if o["kind"] != "Namespace"}


def same_objects(chart, plain, what):
    c, p = by_key(chart), by_key(plain)
    check(set(c) == set(p), f"{what}: the chart renders {sorted(set(c) - set(p))} more and {sorted(set(p) - set(c))} fewer")
    for k in sorted(p):
        check(c[k] == p[k], f"{what}: {k} differs:\n--- chart\n{yaml.safe_dump(c[k])}\n--- plain\n{yaml.safe_dump(p[k])}")


def selects(selector, labels, what):
    check(selector and all(labels.get(k) == v for k, v in selector.items()), f"{what}: {selector} does not select {labels}")


def selectors_hold(objs):
    d = find(objs, "Deployment")
    pod = d["spec"]["template"]["metadata"]["labels"]
    selects(d["spec"]["selector"]["matchLabels"], pod, "Deployment selector")
    svc = find(objs, "Service")
    selects(svc["spec"]["selector"], pod, "Service selector")
    for t in d["spec"]["template"]["spec"].get("topologySpreadConstraints", []):
        selects(t["labelSelector"]["matchLabels"], pod, "topologySpreadConstraints selector")
    for o in objs:
        if o["kind"] == "PodDisruptionBudget":
            selects(o["spec"]["selector"]["matchLabels"], pod, "PodDisruptionBudget selector")
        if o["kind"] == "ServiceMonitor":
            selects(o["spec"]["selector"]["matchLabels"], svc["metadata"]["labels"], "ServiceMonitor selector")


def one_source_of_truth(chart):
    """The chart's CRDs, rules and monitoring files are deploy/'s, not copies."""
    for path in sorted(glob.glob(os.path.join(ROOT, "deploy/crds/*.yaml"))):
        with open(path) as f:
            crd = yaml.safe_load(f)
        check(find(chart, "CustomResourceDefinition", crd["metadata"]["name"]) == crd, f"the chart's {path} differs")
    role = read_yaml("deploy/rbac/role.yaml")[0]
    check(find(chart, "ClusterRole")["rules"] == role["rules"], "the chart's ClusterRole rules are not deploy/rbac/role.yaml's")
    rule = read_yaml("deploy/monitoring/prometheus-rule.yaml")[0]
    check(find(chart, "PrometheusRule")["spec"] == rule["spec"], "the chart's PrometheusRule is not deploy/monitoring's")
    with open(os.path.join(ROOT, "deploy/monitoring/dashboard.json")) as f:
        dashboard = f.read()
    check(find(chart, "ConfigMap")["data"]["c5c3-operator.json"] == dashboard, "the chart's dashboard is not deploy/monitoring's")
    for link, target in (("crds", "../crds"), ("files/rbac", "../../rbac"), ("files/monitoring", "../../monitoring")):
        path = os.path.join(ROOT, "deploy/chart", link)
        check(os.path.islink(path) and os.readlink(path) == target, f"deploy/chart/{link} must be a link to {target}")


def container(objs):
    return find(objs, "Deployment")["spec"]["template"]["spec"]["containers"][0]


ROLLING = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}


def env_names(c):
    return [e["name"] for e in c.get("env", [])]


def sharded_replicas_roll():
    # The default and deploy/operator.yaml: three sharded replicas (a Lease each,
    # named after the pod), a rolling update.
    for what, objs in (("the chart", helm_template()), ("deploy/operator.yaml", read_yaml("deploy/operator.yaml"))):
        d = find(objs, "Deployment")
        c = d["spec"]["template"]["spec"]["containers"][0]
        check(d["spec"]["replicas"] == 3, f"{what}: replicas {d['spec']['replicas']}")
        check(d["spec"]["strategy"] == ROLLING, f"{what}: strategy {d['spec']['strategy']}")
        check("--sharding" in c["args"], f"{what}: args {c['args']} lack --sharding")
        pod_name = [e for e in c["env"] if e["name"] == "POD_NAME"]
        check(pod_name and pod_name[0]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name",
              f"{what}: POD_NAME is not the pod's name: {c['env']}")
        spread = d["spec"]["template"]["spec"].get("topologySpreadConstraints", [])
        check(len(spread) == 1 and spread[0]["topologyKey"] == "kubernetes.io/hostname"
              and spread[0]["whenUnsatisfiable"] == "ScheduleAnyway", f"{what}: topologySpreadConstraints {spread}")
    d = find(helm_template("--set", "replicas=5"), "Deployment")
    check(d["spec"]["replicas"] == 5 and d["spec"]["strategy"] == ROLLING, f"replicas=5: {d['spec']}")
    d = find(helm_template("--set", "topologySpread=false"), "Deployment")
    check("topologySpreadConstraints" not in d["spec"]["template"]["spec"], "topologySpread=false still spreads")


def unsharded_is_one_replica_and_recreate():
    for replicas in ("1", "0"):
        d = find(helm_template("--set", f"sharding=false,replicas={replicas}"), "Deployment")
        c = d["spec"]["template"]["spec"]["containers"][0]
        check(d["spec"]["replicas"] == int(replicas), f"replicas={replicas} rendered {d['spec']['replicas']}")
        check(d["spec"]["strategy"] == {"type": "Recreate"}, f"replicas={replicas}: strategy {d['spec']['strategy']}")
        check("--sharding" not in c["args"] and "POD_NAME" not in env_names(c), f"unsharded: {c['args']} {c['env']}")
    rc, err = helm_template("--set", "sharding=false,replicas=2", ok=False)
    check(rc != 0 and "replicas above 1 need sharding" in err, f"sharding=false,replicas=2 rendered (rc {rc}): {err}")


def values_reach_the_operator():
    base = container(helm_template())["args"]
    check(base == ["--metrics-bind-address=:8080", "--health-probe-bind-address=:8081", "--max-concurrent-reconciles=4",
                   "--sharding"], f"default args {base}")
    objs = helm_template("--set", "logLevel=debug,verbosity=3,maxConcurrentReconciles=8,metrics.port=9090,health.port=9091",
                         "--set", "extraArgs[0]=--context=prod", "--set", "image.tag=dev,image.repository=registry.example/c5c3")
    c = container(objs)
    want = ["--metrics-bind-address=:9090", "--health-probe-bind-address=:9091", "--max-concurrent-reconciles=8",
            "--sharding", "--log-level=debug", "-v=3", "--context=prod"]
    check(c["args"] == want, f"args {c['args']}, want {want}")
    check(c["image"] == "registry.example/c5c3:dev", f"image {c['image']}")
    check({p["name"]: p["containerPort"] for p in c["ports"]} == {"metrics": 9090, "probes": 9091}, f"ports {c['ports']}")
    check(find(objs, "Service")["spec"]["ports"][0]["port"] == 9090, "the Service does not follow metrics.port")
    rc, err = helm_template("--set", "logLevel=loud", ok=False)
    check(rc != 0 and "logLevel must be" in err, f"logLevel=loud rendered: {err}")
    rc, err = helm_template("--set", "serviceAccount.create=false", ok=False)
    check(rc != 0 and "serviceAccount.name is required" in err, f"serviceAccount.create=false without a name: {err}")
    objs = helm_template("--set", "serviceAccount.create=false,serviceAccount.name=ops,rbac.create=false,podDisruptionBudget.enabled=false")
    kinds = sorted({o["kind"] for o in objs})
    check(kinds == ["CustomResourceDefinition", "Deployment", "Service"], f"with create=false: {kinds}")
    check(find(objs, "Deployment")["spec"]["template"]["spec"]["serviceAccountName"] == "ops", "serviceAccount.name ignored")


def other_release_names():
    objs = helm_template(release="blue", namespace="ops")
    for o in objs:
        if o["kind"] != "CustomResourceDefinition":
            check(o["metadata"]["name"].startswith("blue-c5c3-operator"), f"{o['kind']} named {o['metadata']['name']}")
    binding = find(objs, "ClusterRoleBinding")
    check(binding["subjects"] == [{"kind": "ServiceAccount", "name": "blue-c5c3-operator", "namespace": "ops"}],
          f"binding subjects {binding['subjects']}")
    check(binding["roleRef"]["name"] == find(objs, "ClusterRole")["metadata"]["name"], "binding names another role")


MONITORING_CRDS = ("appbindings.appcatalog.appscode.com", "grafanadashboards.openviz.dev",
                   "grafanadatasources.openviz.dev")


def monitoring_group():
    """controllers: each group brings its ClusterRole and binding and the --controllers flag; both groups render
    what deploy/ with the deploy/monitoring-controllers component renders; the CRDs the monitoring controllers
    write are in either."""
    both = helm_template("--set", "controllers={orders,monitoring}")
    plain = kustomize_with("deploy", "deploy/monitoring-controllers")
    same_objects(both, plain, "controllers={orders,monitoring} vs deploy/ + deploy/monitoring-controllers/")
    selectors_hold(both)
    link = os.path.join(ROOT, "deploy/rbac/monitoring_role.yaml")
    check(os.path.realpath(link) == os.path.join(ROOT, "deploy/monitoring-controllers/monitoring_role.yaml"),
          "deploy/rbac/monitoring_role.yaml must be a link to deploy/monitoring-controllers/monitoring_role.yaml")
    role = read_yaml("deploy/rbac/monitoring_role.yaml")[0]
    check(find(both, "ClusterRole", "c5c3-operator-monitoring")["rules"] == role["rules"],
          "the chart's monitoring ClusterRole rules are not deploy/rbac/monitoring_role.yaml's")
    check(find(both, "ClusterRole", "c5c3-operator")["rules"] == read_yaml("deploy/rbac/role.yaml")[0]["rules"],
          "with both groups the orders' ClusterRole changed")
    for objs in (both, plain):
        check(container(objs)["args"][-1] == "--controllers=orders,monitoring", f"args {container(objs)['args']}")
        for name in MONITORING_CRDS:
            find(objs, "CustomResourceDefinition", name)
    only = helm_template("--set", "controllers={monitoring}", release="blue", namespace="ops")
    roles = sorted(o["metadata"]["name"] for o in only if o["kind"] == "ClusterRole")
    check(roles == ["blue-c5c3-operator-monitoring"], f"controllers={{monitoring}} renders ClusterRoles {roles}")
    binding = find(only, "ClusterRoleBinding")
    check(binding["roleRef"]["name"] == "blue-c5c3-operator-monitoring", f"binding names {binding['roleRef']}")
    check(binding["subjects"] == [{"kind": "ServiceAccount", "name": "blue-c5c3-operator", "namespace": "ops"}],
          f"binding subjects {binding['subjects']}")
    check(container(only)["args"][-1] == "--controllers=monitoring", f"args {container(only)['args']}")
    check(not any(a.startswith("--controllers") for a in container(helm_template())["args"]),
          "the default (orders) renders a --controllers flag")
    for bad, want in (("controllers={orders,grafana}", '"grafana" is not a group'),
                      ("controllers=null", "controllers must name at least one")):
        rc, err = helm_template("--set", bad, ok=False)
        check(rc != 0 and want in err, f"{bad} rendered (rc {rc}): {err}")


def test():
    helm("lint", "--strict", os.path.join(ROOT, "deploy", "chart"))
    versions_agree()
    kustomization_lists_every_crd()
    plain = kustomize("deploy")
    chart = helm_template()
    same_objects(chart, plain, "defaults vs kubectl kustomize deploy/")
    selectors_hold(chart)
    selectors_hold(plain)
    full = helm_template("--set", "serviceMonitor.enabled=true,prometheusRule.enabled=true,dashboard.enabled=true")
    same_objects(full, plain + kustomize("deploy/monitoring"), "monitoring on vs deploy/ + deploy/monitoring/")
    selectors_hold(full)
    one_source_of_truth(full)
    sharded_replicas_roll()
    unsharded_is_one_replica_and_recreate()
    values_reach_the_operator()
    other_release_names()
    monitoring_group()


if __name__ == "__main__":
    main(test)
