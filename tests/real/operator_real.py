"""real: c5c3-sim world and c5c3-operator on a real kube-apiserver (RBAC enforced, no controllers).

converge: the operator runs with the token of its own ServiceAccount, bound by deploy/rbac, and
  converges the samples (deploy/samples): the order Ready, the Secret delivered with its six keys;
  a declared rotation (passwordGeneration 2) delivers a new password; a second order with
  deletionPolicy Delete is torn down by the operator itself (no garbage collector runs there):
  its topology children and Secret are gone, and both orders' finalizers are released.
rbac: each rule of deploy/rbac/role.yaml removed in turn (the ClusterRole re-applied without it,
  the operator restarted, a fresh order created) makes a named step fail: the operator's log or the
  order's Ready condition names the refusal of that rule's resource. Every rule is needed.

Usage: operator_real.py converge|rbac C5C3_SIM C5C3_OPERATOR SOURCE_DIR
"""
import base64
import json
import os
import sys
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rbac"))
from rbac_rules import keystone_rule  # noqa: E402
from harness import (Procs, RealCluster, Workdir, apply_crds, eventually, kubectl, log, require_file, run_main,  # noqa: E402
                     service_account_kubeconfig, stop_all)

KEYS = {"transport_url", "host", "port", "username", "password", "vhost"}
SA_NS, SA = "c5c3-system", "c5c3-operator"


def order(name, policy="Retain"):
    return (f"apiVersion: c5c3.io/v1alpha1\nkind: RabbitMQVhost\nmetadata:\n  name: {name}\n  namespace: tenant-a\n"
            f"spec:\n  controlPlaneRef: {{name: cp, namespace: openstack}}\n  deletionPolicy: {policy}\n")


def get_json(kc, *args):
    r = kubectl(kc, "get", *args, "-o", "json")
    return json.loads(r.stdout) if r.returncode == 0 else None


def ready(kc, name, generation=None):
    o = get_json(kc, "-n", "tenant-a", "rabbitmqvhost", name)
    for c in ((o or {}).get("status") or {}).get("conditions") or []:
        if c["type"] == "Ready" and c["status"] == "True":
            if generation is None or o["status"].get("passwordGeneration") == generation:
                return o
    return None


def ready_message(kc, name):
    o = get_json(kc, "-n", "tenant-a", "rabbitmqvhost", name)
    for c in ((o or {}).get("status") or {}).get("conditions") or []:
        if c["type"] == "Ready":
            return f"{c['status']} {c.get('reason')}: {c.get('message')}"
    return "no Ready condition"


def secret_data(kc, name):
    s = get_json(kc, "-n", "tenant-a", "secret", f"{name}-credentials")
    return {k: base64.b64decode(v).decode() for k, v in ((s or {}).get("data") or {}).items()}


def gone(kc, *args):
    r = kubectl(kc, "get", *args)
    return r.returncode != 0 and "NotFound" in r.stderr


class Setup:
    """The real server with the CRDs, deploy/rbac, the world and the samples; the operator's token."""

    def __init__(self, sim, operator, src, work):
        self.sim, self.src, self.work = require_file(sim, "c5c3-sim"), src, work
        self.operator = require_file(operator, "c5c3-operator")
        self.procs = Procs(work.path)
        self.real = RealCluster(src, work.path)

    def start(self):
        kc = self.admin = self.real.start()
        apply_crds(kc, self.src)
        kubectl(kc, "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s", check=True)
        for f in ("service_account.yaml", "role.yaml", "role_binding.yaml"):
            kubectl(kc, "apply", "-f", os.path.join(self.src, "deploy", "rbac", f), check=True)
        self.procs.start("world", [self.sim, "world", "--kubeconfig", kc])
        samples = os.path.join(self.src, "deploy", "samples")
        for f in ("00-namespaces.yaml", "10-controlplane.yaml", "world/10-rabbitmqcluster.yaml",
                  "world/20-clustersecretstore.yaml"):
            kubectl(kc, "apply", "-f", os.path.join(samples, f), check=True)
        # The operator's identity: a TokenRequest for its ServiceAccount.
        self.operator_kc = service_account_kubeconfig(kc, SA_NS, SA, os.path.join(self.work.path, "operator.kubeconfig"))

    def start_operator(self, name="operator", sharded=False):
        # The RBAC check runs it sharded (one replica), as tests/rbac does, so that the Lease rule of
        # deploy/rbac/role.yaml is needed there too.
        sharding = ["--shard-name", "real-replica"] if sharded else []
        return self.procs.start(name, [self.operator, "--kubeconfig", self.operator_kc, "--namespace", SA_NS,
                                       *sharding,
                                       "--metrics-bind-address", "0", "--health-probe-bind-address", "0"])

    def stop(self):
        stop_all(self.work, self.procs, self.real)


def converge(s):
    kc = s.admin
    s.start_operator()
    kubectl(kc, "apply", "-f", os.path.join(s.src, "deploy", "samples", "20-rabbitmqvhost.yaml"), check=True)
    app = eventually(lambda: ready(kc, "app"), "tenant-a/app Ready", 120)
    data = eventually(lambda: secret_data(kc, "app") if set(secret_data(kc, "app")) == KEYS else None,
                      "tenant-a/app-credentials with its six keys", 60)
    assert data["vhost"] == app["status"]["vhost"], (data["vhost"], app["status"])
    log(f"converged: vhost {data['vhost']}, Secret keys {sorted(data)}")

    kubectl(kc, "-n", "tenant-a", "patch", "rabbitmqvhost", "app", "--type=merge",
            "-p", '{"spec":{"passwordGeneration":2}}', check=True)
    eventually(lambda: ready(kc, "app", 2), "app rotated to passwordGeneration 2", 120)
    eventually(lambda: secret_data(kc, "app").get("password") not in (None, data["password"]),
               "a new password delivered", 60)
    log("rotated to passwordGeneration 2")

    kubectl(kc, "apply", "-f", "-", stdin=order("temp", "Delete"), check=True)
    temp = eventually(lambda: ready(kc, "temp"), "tenant-a/temp Ready", 120)
    children = []
    for kind in ("vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com"):
        items = get_json(kc, "-A", kind)["items"]
        mine = [i for i in items if any(r.get("uid") == temp["metadata"]["uid"]
                                        for r in i["metadata"].get("ownerReferences") or [])
                or "temp" in i["metadata"]["name"]]
        assert mine, f"no {kind} child of tenant-a/temp found"
        children += [(kind, i["metadata"]["namespace"], i["metadata"]["name"]) for i in mine]
    for name in ("temp", "app"):
        kubectl(kc, "-n", "tenant-a", "delete", "rabbitmqvhost", name, "--wait=false", check=True)
    eventually(lambda: gone(kc, "-n", "tenant-a", "rabbitmqvhost", "temp")
               and gone(kc, "-n", "tenant-a", "rabbitmqvhost", "app"), "both orders gone (finalizers released)", 120)
    eventually(lambda: all(gone(kc, "-n", ns, kind, n) for kind, ns, n in children),
               f"tenant-a/temp's children deleted by the operator: {children}", 60)
    eventually(lambda: gone(kc, "-n", "tenant-a", "secret", "temp-credentials"), "temp-credentials deleted", 60)
    log(f"torn down: {len(children)} children of the Delete order gone, both finalizers released")


def role_rules(src):
    return yaml.safe_load(open(os.path.join(src, "deploy", "rbac", "role.yaml")))


def rbac(s):
    """Each rule removed in turn: the operator must fail a step that names the rule's resource."""
    kc = s.admin
    full = role_rules(s.src)
    s.start_operator("operator-full", sharded=True)
    kubectl(kc, "apply", "-f", "-", stdin=order("full"), check=True)
    eventually(lambda: ready(kc, "full"), "tenant-a/full Ready with the whole ClusterRole", 120)
    s.procs.stop_one("operator-full")
    unneeded = []
    for i, rule in enumerate(full["rules"]):
        what = f"rule {i} ({','.join(rule['apiGroups'])} {','.join(rule['resources'])})"
        if keystone_rule(rule):
            # A RabbitMQVhost order needs none of them; the real world has no K-ORC yet.
            log(f"{what}: the Keystone orders' rule, not exercised by a RabbitMQVhost order")
            continue
        less = dict(full, rules=[r for j, r in enumerate(full["rules"]) if j != i])
        kubectl(kc, "apply", "-f", "-", stdin=yaml.safe_dump(less), check=True)
        name = f"rbac-{i}"
        log_name = f"operator-without-{i}"
        s.start_operator(log_name, sharded=True)
        kubectl(kc, "apply", "-f", "-", stdin=order(name), check=True)
        # The refused resource, or the subresource ("status", "finalizers") a rule grants.
        words = [r.split("/")[-1] for r in rule["resources"]]
        log_path = os.path.join(s.work.path, log_name + ".log")

        def refused():
            text = open(log_path).read().lower()
            hits = [ln for ln in text.splitlines() if ("forbidden" in ln or "403" in ln)
                    and any(w in ln for w in words)]
            msg = ready_message(kc, name).lower()
            if "forbidden" in msg and any(w in msg for w in words):
                hits.append("Ready: " + msg)
            return hits[:2] or (ready(kc, name) and ["CONVERGED"])

        try:
            hits = eventually(refused, f"a refusal naming {words} without {what}", 45)
        except AssertionError:
            hits = ["nothing refused within 45 s"]
        if hits == ["CONVERGED"] or hits == ["nothing refused within 45 s"]:
            unneeded.append(f"{what}: {hits[0]}; Ready: {ready_message(kc, name)}")
        else:
            log(f"without {what}: {hits[0][:200]}")
        s.procs.stop_one(log_name)
        kubectl(kc, "-n", "tenant-a", "delete", "rabbitmqvhost", name, "--wait=false")
    kubectl(kc, "apply", "-f", os.path.join(s.src, "deploy", "rbac", "role.yaml"), check=True)
    assert not unneeded, "rules no step needs (least privilege): " + "; ".join(unneeded)


def main(mode, sim, operator, src):
    work = Workdir(f"c5c3-real-operator-{mode}-")
    s = Setup(sim, operator, src, work)
    try:
        s.start()
        t0 = time.time()
        {"converge": converge, "rbac": rbac}[mode](s)
        log(f"{mode}: done in {time.time() - t0:.1f}s")
        work.ok = True
    finally:
        s.stop()
        work.done()


if __name__ == "__main__":
    run_main(lambda: main(*sys.argv[1:5]))
