"""real: deploy/chart and deploy/kustomization.yaml on a real kube-apiserver (RBAC enforced, no kubelet, no
controllers), as tests/deploy/install_e2e.py checks them on the emulator.

1. install_e2e's steps against the real server: `helm template` and `kubectl kustomize` renders pass
   `kubectl apply --dry-run=server`; `kubectl apply -k` and `helm install` create every object, delete and
   `helm uninstall` remove them; short names, printer columns, `kubectl explain`, `kubectl wait`.
2. Installed and run: `helm install` of the chart with its default values. No kubelet starts the
   Deployment's pod, so the test runs c5c3-operator as that pod would: the Deployment's args and env (the
   pod's name and namespace filled in, the bind addresses on loopback), with the installed ServiceAccount's
   token (a TokenRequest) and so the installed ClusterRole; `c5c3-sim world` beside it. The sample
   RabbitMQVhost gets Ready with its Secret's six keys; deleted, its finalizer is released.

Usage: deploy_install_real.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR
"""
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "deploy"))
import deploylib  # noqa: E402
import install_e2e  # noqa: E402
from harness import (Procs, RealCluster, Workdir, eventually, kubectl, log, require_file, run_main,  # noqa: E402
                     service_account_kubeconfig, stop_all)
from operator_real import KEYS, gone, ready, secret_data  # noqa: E402

NS, SA, POD = install_e2e.NS, "c5c3-operator", "c5c3-operator-7d9f8b6c5-real0"


def container_of(kc):
    d = json.loads(kubectl(kc, "-n", NS, "get", "deployment", "c5c3-operator", "-o", "json", check=True).stdout)
    spec = d["spec"]["template"]["spec"]
    assert spec["serviceAccountName"] == SA, f"the Deployment runs as {spec['serviceAccountName']}"
    return spec["containers"][0]


def pod_env(container):
    """The container's env as the kubelet would give it to pod POD in NS (fieldRefs resolved)."""
    fields = {"metadata.name": POD, "metadata.namespace": NS}
    env = {}
    for e in container.get("env") or []:
        if "value" in e:
            env[e["name"]] = e["value"]
        else:
            path = e["valueFrom"]["fieldRef"]["fieldPath"]
            assert path in fields, f"env {e['name']} reads {path}, which the test does not fill in"
            env[e["name"]] = fields[path]
    return env


def loopback(args):
    """The Deployment's args with the metrics and probe ports on a free loopback port."""
    out = []
    for a in args:
        if a.startswith(("--metrics-bind-address", "--health-probe-bind-address")):
            a = a.split("=")[0] + "=127.0.0.1:0"
        out.append(a)
    return out


def install_and_run(kc, sim, operator, src, work, procs):
    deploylib.helm("--kubeconfig", kc, "install", "c5c3-operator", os.path.join(src, "deploy", "chart"),
                   "--namespace", NS, "--wait=false")
    kubectl(kc, "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s", check=True)
    container = container_of(kc)
    env = dict(os.environ, **pod_env(container))
    args = loopback(container.get("args") or [])
    log(f"the installed Deployment's container: args {args}, env {sorted(pod_env(container))}")
    op_kc = service_account_kubeconfig(kc, NS, SA, os.path.join(work.path, "operator.kubeconfig"))
    procs.start("world", [sim, "world", "--kubeconfig", kc])
    samples = os.path.join(src, "deploy", "samples")
    for f in ("00-namespaces.yaml", "10-controlplane.yaml", "world/10-rabbitmqcluster.yaml",
              "world/20-clustersecretstore.yaml"):
        kubectl(kc, "apply", "-f", os.path.join(samples, f), check=True)
    procs.start("operator", [operator, "--kubeconfig", op_kc, *args], env=env)
    kubectl(kc, "apply", "-f", os.path.join(samples, "20-rabbitmqvhost.yaml"), check=True)
    app = eventually(lambda: ready(kc, "app"), "tenant-a/app Ready (the operator as the installed identity)", 180)
    data = eventually(lambda: secret_data(kc, "app") if set(secret_data(kc, "app")) == KEYS else None,
                      "tenant-a/app-credentials with its six keys", 60)
    assert data["vhost"] == app["status"]["vhost"], (data["vhost"], app["status"])
    leases = kubectl(kc, "-n", NS, "get", "leases", "-o", "name", check=True).stdout.split()
    assert any(POD in lease for lease in leases), f"no Lease of member {POD} (--sharding): {leases}"
    log(f"installed and running: tenant-a/app Ready, vhost {data['vhost']}, Leases {leases}")
    kubectl(kc, "-n", "tenant-a", "delete", "rabbitmqvhost", "app", "--wait=false", check=True)
    eventually(lambda: gone(kc, "-n", "tenant-a", "rabbitmqvhost", "app"), "tenant-a/app gone (finalizer released)", 120)
    procs.stop_one("operator")
    deploylib.helm("--kubeconfig", kc, "uninstall", "c5c3-operator", "-n", NS)


def main(sim, operator, src):
    require_file(sim, "c5c3-sim")
    require_file(operator, "c5c3-operator")
    work = Workdir("c5c3-real-deploy-")
    procs = Procs(work.path)
    real = RealCluster(src, work.path)
    t0 = time.time()
    try:
        kc = real.start()
        try:
            install_e2e.against(kc, operator)
            log("install_e2e's steps passed on the real kube-apiserver")
            install_and_run(kc, sim, operator, src, work, procs)
        except deploylib.Failure as e:
            raise AssertionError(str(e)) from e
        log(f"done in {time.time() - t0:.1f}s")
        work.ok = True
    finally:
        stop_all(work, procs, real)
        work.done()


if __name__ == "__main__":
    run_main(lambda: main(*sys.argv[1:4]))
