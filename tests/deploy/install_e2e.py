#!/usr/bin/env python3
"""E2e: the chart and the plain set against an API server, with kubectl and helm.

usage: install_e2e.py --sim PATH/TO/c5c3-sim [--operator PATH/TO/c5c3-operator]
       install_e2e.py --kubeconfig FILE      [--operator ...]   (any cluster, e.g. a real kube-apiserver)

1. `helm template` and `kubectl kustomize` output (monitoring objects included; the chart with both
   controller groups, deploy/ alone and with the deploy/monitoring-controllers component) pass
   `kubectl apply --dry-run=server`; the operator binary accepts the rendered flags.
2. `kubectl apply -k` of deploy/ with the monitoring-controllers component (an overlay: deploy/ and the
   monitoring controllers' ClusterRole, binding and flag) and `-k deploy/monitoring/` create every object;
   delete removes them (but the CRDs and the Namespace).
3. `helm install` (controllers orders and monitoring) creates every object of its manifest (RollingUpdate
   Deployment, both ClusterRoles and the client-org users' one); `helm uninstall` removes them.
4. kubectl ergonomics on every c5c3.io kind: short names, the `c5c3` category, printer columns,
   `kubectl explain` text, a description on every property of the served OpenAPI v3, and
   `kubectl wait --for=condition=Ready` ending once a Ready=True status is written (and timing out on False).

The monitoring.coreos.com kinds come from the stand-in CRDs in crds/ where the server does not serve them.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess

import yaml

from deploylib import (KUBECTL, ROOT, Emulator, check, docs, find, helm, kustomize, kustomize_with, main, overlay, run,
                       to_yaml, wait_until)

NS = "c5c3-system"
MONITORING = "serviceMonitor.enabled=true,prometheusRule.enabled=true,dashboard.enabled=true"
CONTROLLERS = "controllers={orders,monitoring}"
COMPONENT = "deploy/monitoring-controllers"


class Cluster:
    def __init__(self, kubeconfig):
        self.kubeconfig = kubeconfig
        self.env = dict(os.environ, KUBECONFIG=kubeconfig)

    def k(self, *args, input=None, ok=True, timeout=120):
        return run([KUBECTL, "--request-timeout=30s", *args], input=input, env=self.env, ok=ok, timeout=timeout)

    def helm(self, *args, ok=True):
        return helm("--kubeconfig", self.kubeconfig, *args, ok=ok)

    def exists(self, objs):
        """Names kubectl get finds of objs (by kind and name)."""
        rc, out, err = self.k("get", "-f", "-", "-o", "name", input=to_yaml(objs), ok=False)
        return set(out.split()), err


def names(objs):
    return {f"{o['kind'].lower()}.{o['apiVersion'].split('/')[0]}/{o['metadata']['name']}"
            if "/" in o["apiVersion"] else f"{o['kind'].lower()}/{o['metadata']['name']}" for o in objs}


def created(c, objs, what):
    want = names(objs)
    got, err = c.exists(objs)
    check(got == want, f"{what}: missing {sorted(want - got)}: {err}")


def gone(c, objs, what):
    def none_left():
        got, _ = c.exists(objs)
        return not got or None
    wait_until(f"{what} to be deleted", none_left, timeout=60)


def serve_monitoring_kinds(c):
    for path in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "crds", "*.yaml"))):
        with open(path) as f:
            name = yaml.safe_load(f)["metadata"]["name"]
        if c.k("get", "crd", name, ok=False)[0] != 0:
            c.k("apply", "-f", path)
            c.k("wait", "--for=condition=Established", f"crd/{name}", "--timeout=30s")


def dry_run(c, renders, operator):
    """renders: (what, objects) pairs; the last one's objects are checked not to be stored."""
    c.k("apply", "-f", "-", input=to_yaml([{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}}]))
    for what, objs in renders:
        rc, out, err = c.k("apply", "--dry-run=server", "-f", "-", input=to_yaml(objs), ok=False)
        check(rc == 0, f"{what} | kubectl apply --dry-run=server: {out}{err}")
        check(out.count("(server dry run)") == len(objs), f"{what}: dry run of {len(objs)} objects answered:\n{out}")
    # Dry run stored nothing.
    got, _ = c.exists([o for o in renders[-1][1] if o["kind"] != "Namespace"])
    check(not got, f"the dry run created {sorted(got)}")
    if operator:
        for _, objs in renders:
            args = find(objs, "Deployment")["spec"]["template"]["spec"]["containers"][0]["args"]
            rc, out, err = run([operator, *args, "--help"], ok=False)
            check(rc == 0, f"c5c3-operator refuses the rendered flags {args}: {err}")


def kustomize_install(c, plain, plain_monitoring):
    """plain: what deploy/ with the monitoring-controllers component renders."""
    d = overlay("deploy", COMPONENT)
    try:
        c.k("apply", "-k", d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.k("apply", "-k", os.path.join(ROOT, "deploy", "monitoring"))
    created(c, plain + plain_monitoring, "kubectl apply -k")
    strategy = c.k("get", "deployment", "-n", NS, "c5c3-operator", "-o", "jsonpath={.spec.strategy.type}")[1]
    check(strategy == "RollingUpdate", f"the plain Deployment's strategy is {strategy!r}")
    c.k("delete", "-k", os.path.join(ROOT, "deploy", "monitoring"))
    # The CRDs stay for the chart (helm leaves existing crds/ alone), and the
    # Namespace (a kube-apiserver without kube-controller-manager never finishes
    # deleting one); the rest goes.
    rest = [o for o in plain if o["kind"] not in ("CustomResourceDefinition", "Namespace")]
    c.k("delete", "-f", "-", "--wait=false", "--ignore-not-found", input=to_yaml(rest))
    gone(c, rest + plain_monitoring, "the plain set")


def helm_install(c):
    c.helm("install", "c5c3-operator", os.path.join(ROOT, "deploy", "chart"), "--namespace", NS,
           "--create-namespace", "--set", MONITORING, "--set", CONTROLLERS)
    status = json.loads(c.helm("status", "c5c3-operator", "-n", NS, "-o", "json")[1])
    check(status["info"]["status"] == "deployed", f"helm status {status['info']['status']}")
    manifest = docs(c.helm("get", "manifest", "c5c3-operator", "-n", NS)[1])
    kinds = sorted({o["kind"] for o in manifest})
    check(kinds == ["ClusterRole", "ClusterRoleBinding", "ConfigMap", "Deployment", "PodDisruptionBudget",
                    "PrometheusRule", "Service", "ServiceAccount", "ServiceMonitor"], f"helm manifest kinds {kinds}")
    roles = sorted(o["metadata"]["name"] for o in manifest if o["kind"] == "ClusterRole")
    check(roles == ["appscode:client-org:monitoring", "c5c3-operator", "c5c3-operator-monitoring"],
          f"helm manifest ClusterRoles {roles}")
    created(c, manifest, "helm install")
    d = json.loads(c.k("get", "deployment", "-n", NS, "c5c3-operator", "-o", "json")[1])
    check(d["spec"]["strategy"]["type"] == "RollingUpdate", f"the chart's Deployment strategy {d['spec']['strategy']}")
    check(d["spec"]["replicas"] == 3, f"replicas {d['spec']['replicas']}")
    for path in glob.glob(os.path.join(ROOT, "deploy", "crds", "*.yaml")):
        with open(path) as f:
            name = yaml.safe_load(f)["metadata"]["name"]
        c.k("wait", "--for=condition=Established", f"crd/{name}", "--timeout=30s")
    return manifest


def helm_uninstall(c, manifest):
    c.helm("uninstall", "c5c3-operator", "-n", NS)
    gone(c, manifest, "the helm release")


def served_crds():
    """The c5c3.io CRDs (deploy/crds also holds the third-party kinds the monitoring controllers ensure, with
    their projects' own descriptions)."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "deploy", "crds", "c5c3.io_*.yaml"))):
        with open(path) as f:
            out.append(yaml.safe_load(f))
    return out


def undescribed(schema, path, out):
    if "$ref" in schema or "allOf" in schema:
        return out  # metadata: ObjectMeta, described by the server
    if "description" not in schema:
        out.append(path or "(root)")
    for key, child in (schema.get("properties") or {}).items():
        undescribed(child, f"{path}.{key}", out)
    if isinstance(schema.get("items"), dict):
        undescribed(schema["items"], path + "[]", out)
    return out


def explain(c, crds):
    openapi = json.loads(c.k("get", "--raw", "/openapi/v3/apis/c5c3.io/v1alpha1")[1])
    schemas = openapi["components"]["schemas"]
    for crd in crds:
        plural, kind = crd["spec"]["names"]["plural"], crd["spec"]["names"]["kind"]
        schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
        served = [s for n, s in schemas.items() if n.endswith(f".{kind}")]
        check(len(served) == 1, f"/openapi/v3 serves {len(served)} schemas named *.{kind}")
        missing = undescribed(served[0]["properties"]["spec"], ".spec", [])
        missing += undescribed(served[0]["properties"]["status"], ".status", [])
        check(not missing, f"{kind}: /openapi/v3 has no description on {missing}")
        for field, node in (("", schema), (".spec", schema["properties"]["spec"]),
                            (".status.conditions", schema["properties"]["status"]["properties"]["conditions"])):
            out = c.k("explain", plural + field)[1]
            first = node["description"].split("\n")[0].split(". ")[0][:50]
            check(" ".join(first.split()) in " ".join(out.split()), f"kubectl explain {plural}{field} lacks {first!r}:\n{out}")
        out = c.k("explain", f"{plural}.status.conditions.reason")[1]
        check("why the condition has its status" in out, f"kubectl explain {plural}.status.conditions.reason:\n{out}")


def set_ready(c, kind, ns, name, status):
    cond = {"type": "Ready", "status": status, "reason": "AllReady" if status == "True" else "NotAllReady",
            "message": "written by install_e2e.py", "lastTransitionTime": "2026-01-01T00:00:00Z"}
    c.k("patch", kind, name, "-n", ns, "--subresource=status", "--type=merge",
        "-p", json.dumps({"status": {"conditions": [cond]}}))


def wait_and_columns(c, crds):
    samples = [os.path.join(ROOT, "deploy", "samples", f) for f in
               ("00-namespaces.yaml", "10-controlplane.yaml", "20-rabbitmqvhost.yaml")]
    samples += sorted(glob.glob(os.path.join(ROOT, "deploy", "samples", "orders", "*.yaml")))
    objs = []
    for s in samples:
        c.k("apply", "-f", s)
        with open(s) as f:
            objs += [o for o in docs(f.read()) if o["kind"] != "Namespace"]
    by_kind = {o["kind"]: o for o in objs}
    check(set(by_kind) == {crd["spec"]["names"]["kind"] for crd in crds}, f"the samples cover {sorted(by_kind)}")
    out = c.k("get", "c5c3", "-A", "-o", "name")[1].split()
    check(len(out) == len(objs), f"kubectl get c5c3 -A lists {out}")
    on_false = []  # the waits on Ready=False: each must time out; they run together (2 s, not 2 s a kind)
    for crd in crds:
        n = crd["spec"]["names"]
        o = by_kind[n["kind"]]
        ns, name, short = o["metadata"]["namespace"], o["metadata"]["name"], n["shortNames"][0]
        waiter = subprocess.Popen([KUBECTL, "wait", "--for=condition=Ready", f"{short}/{name}", "-n", ns,
                                   "--timeout=60s"], env=c.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        set_ready(c, n["plural"], ns, name, "True")
        out, _ = waiter.communicate(timeout=90)
        check(waiter.returncode == 0 and "condition met" in out, f"kubectl wait {short}/{name}: {out}")
        header, row = c.k("get", short, name, "-n", ns)[1].splitlines()[:2]
        columns = [col["name"].upper() for col in crd["spec"]["versions"][0]["additionalPrinterColumns"]]
        check(header.split() == ["NAME"] + columns, f"kubectl get {short}: header {header!r}, want {columns}")
        check(row.split()[:2] == [name, "True"], f"kubectl get {short}: row {row!r}")
        set_ready(c, n["plural"], ns, name, "False")
        on_false.append((f"{short}/{name}", subprocess.Popen(
            [KUBECTL, "--request-timeout=30s", "wait", "--for=condition=Ready", f"{short}/{name}", "-n", ns,
             "--timeout=2s"], env=c.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    for what, waiter in on_false:
        out, err = waiter.communicate(timeout=120)
        check(waiter.returncode != 0 and "timed out" in err,
              f"kubectl wait {what} on Ready=False: rc {waiter.returncode} {out}{err}")
    for s in reversed(samples[1:]):  # the orders and the ControlPlane; the Namespaces stay
        c.k("delete", "-f", s, "--wait=false")


def against(kubeconfig, operator=None):
    """Steps 1-4 against the API server of `kubeconfig` (the emulator, or tests/real's kube-apiserver)."""
    chart = docs(helm("template", "c5c3-operator", os.path.join(ROOT, "deploy", "chart"), "--namespace", NS,
                      "--include-crds", "--set", MONITORING, "--set", CONTROLLERS)[1])
    plain, plain_monitoring = kustomize_with("deploy", COMPONENT), kustomize("deploy/monitoring")
    orders_only = kustomize("deploy")
    c = Cluster(kubeconfig)
    serve_monitoring_kinds(c)
    dry_run(c, [("helm template", chart), ("kubectl kustomize deploy/", orders_only),
                ("kubectl kustomize deploy/ + the monitoring-controllers component", plain + plain_monitoring)],
            operator)
    kustomize_install(c, plain, plain_monitoring)
    manifest = helm_install(c)
    crds = served_crds()
    explain(c, crds)
    wait_and_columns(c, crds)
    helm_uninstall(c, manifest)


def test():
    p = argparse.ArgumentParser()
    p.add_argument("--sim")
    p.add_argument("--kubeconfig")
    p.add_argument("--operator")
    a = p.parse_args()
    check(bool(a.sim) != bool(a.kubeconfig), "give --sim or --kubeconfig")
    emulator = Emulator(a.sim) if a.sim else None
    try:
        against(emulator.kubeconfig if emulator else a.kubeconfig, a.operator)
    except Exception:
        if emulator:
            print(emulator.log())
        raise
    finally:
        if emulator:
            emulator.stop()


if __name__ == "__main__":
    main(test)
