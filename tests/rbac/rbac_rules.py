"""Every rule of deploy/rbac/role.yaml is needed: the driver (issue 18, "RBAC in the emulator").

The operator runs as the ServiceAccount of deploy/rbac, with a TokenRequest token and exactly the
ClusterRole's rules, and converges the RabbitMQVhost sample through named steps (operator ready,
finalizer added, Ready, credentials delivered, order gone). Then once per rule, with only that rule
removed from the ClusterRole: some named step must fail, and the operator's log must hold a 403
naming a resource of the removed rule. A rule listed in NOT_USED_YET must instead leave every step
passing (so that the list cannot go stale); one in REFUSED_WITHOUT_FAILING must be asked for (its
403 logged) while no step fails, a gap of this scenario named there.

Works against any cluster given an admin kubeconfig: the emulator (rbac_emulator_e2e.py starts it
with --authorization-mode=RBAC) or a real kube-apiserver. The cluster must serve deploy/crds and
sim/crds, authorize with RBAC, run the OwnerReferencesPermissionEnforcement admission plugin (the
finalizers rule is needed only there, as on OpenShift), and have the external controllers running
(`c5c3-sim world --kubeconfig ADMIN`). The driver applies deploy/rbac and the samples itself.

Usage: rbac_rules.py --kubeconfig ADMIN --operator BIN --source-dir SRC [--workdir DIR]
                     [--only 0,3] [--step-timeout 60] [--grace 8]
Debian's /usr/bin/python3 with python3-kubernetes and python3-yaml. Exit 0 when every check held.
"""
import argparse
import copy
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml
from kubernetes import client, config

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from e2e import Procs, eventually, log  # noqa: E402

NAMESPACE = "c5c3-system"
SERVICE_ACCOUNT = "c5c3-operator"
ROLE = "c5c3-operator"
ORDER_NS = "tenant-a"
GROUP, VERSION, PLURAL = "c5c3.io", "v1alpha1", "rabbitmqvhosts"

# Rules the operator does not exercise yet, by their resources, with the reason (none: role.yaml holds no
# events rule, since the orders record no Events, as the reference reconcilers record none).
NOT_USED_YET = {}

# A 403 in a JSON log line: `secrets \"x\" is forbidden: ...` or `rabbitmqvhosts.c5c3.io is forbidden: ...`.
# Rules the operator asks for at once (its 403 must be logged) but whose loss no step of this scenario
# shows, with the reason; each is a gap in the scenario, not a rule to drop.
REFUSED_WITHOUT_FAILING = {
    ("customresourcedefinitions",): "the CRD watch (optional kinds following their CRDs) is refused and retried, "
                                    "but every kind is served from the start, so nothing depends on it here, "
                                    "and /readyz does not wait for it; keystone_rbac_rules_test installs a CRD "
                                    "late and shows the rule needed",
}


def keystone_rule(rule):
    """The Keystone orders' rules (their kinds, the holds' reads, K-ORC): a RabbitMQVhost order needs none of them;
    tests/keystone_actor/keystone_rbac_rules_test.cpp removes each in turn against the simulated K-ORC (which a
    real cluster lacks) and sees a named step fail on its 403."""
    return "openstack.k-orc.cloud" in rule.get("apiGroups", []) or any(
        r.startswith("keystone") for r in rule.get("resources", []))


FORBIDDEN = re.compile(r'([a-z0-9][\w.\-]*)(?: \\"(?:[^"\\]|\\.)*?\\")? is forbidden: ((?:[^"\\]|\\.)*)')


class StepFailed(Exception):
    def __init__(self, step, refusal):
        super().__init__(f"step '{step}' failed" + (f": {refusal}" if refusal else ""))
        self.step = step
        self.refusal = refusal


def rule_text(rule):
    groups = ",".join(g or '""' for g in rule.get("apiGroups", []))
    return f"{groups} {','.join(rule.get('resources', []))} [{','.join(rule.get('verbs', []))}]"


class Cluster:
    """The admin's view: applying files, the ClusterRole, orders, the ServiceAccount token."""

    def __init__(self, kubeconfig, src, role=ROLE):
        self.kubeconfig = kubeconfig
        self.src = src
        self.role = role
        api = config.new_client_from_config(config_file=kubeconfig)
        self.custom = client.CustomObjectsApi(api)
        self.core = client.CoreV1Api(api)
        self.rbac = client.RbacAuthorizationV1Api(api)

    def apply(self, rel):
        path = os.path.join(self.src, rel)
        eventually(lambda: subprocess.run(["/usr/bin/kubectl", "--kubeconfig", self.kubeconfig, "apply", "-f", path],
                                          capture_output=True).returncode == 0, f"kubectl apply {rel}", 60)

    def set_rules(self, rules):
        role = self.rbac.read_cluster_role(self.role)
        role.rules = [client.V1PolicyRule(api_groups=r.get("apiGroups"), resources=r.get("resources"),
                                          verbs=r.get("verbs"), resource_names=r.get("resourceNames"),
                                          non_resource_ur_ls=r.get("nonResourceURLs")) for r in rules]
        self.rbac.replace_cluster_role(self.role, role)

    def service_account_kubeconfig(self, path):
        spec = client.V1TokenRequestSpec(audiences=[], expiration_seconds=3600)
        tr = self.core.create_namespaced_service_account_token(SERVICE_ACCOUNT, NAMESPACE,
                                                               client.AuthenticationV1TokenRequest(spec=spec))
        admin = yaml.safe_load(open(self.kubeconfig))
        ctx_name = admin.get("current-context") or admin["contexts"][0]["name"]
        ctx = next(c for c in admin["contexts"] if c["name"] == ctx_name)["context"]
        cluster = next(c for c in admin["clusters"] if c["name"] == ctx["cluster"])
        sa = {"apiVersion": "v1", "kind": "Config", "clusters": [cluster],
              "users": [{"name": SERVICE_ACCOUNT, "user": {"token": tr.status.token}}],
              "contexts": [{"name": "sa", "context": {"cluster": cluster["name"], "user": SERVICE_ACCOUNT}}],
              "current-context": "sa"}
        with open(path, "w") as f:
            yaml.safe_dump(sa, f)
        os.chmod(path, 0o600)

    def order(self, name):
        return self.custom.get_namespaced_custom_object(GROUP, VERSION, ORDER_NS, PLURAL, name)

    def create_order(self, name):
        sample = yaml.safe_load(open(os.path.join(self.src, "deploy", "samples", "20-rabbitmqvhost.yaml")))
        sample["metadata"]["name"] = name
        self.custom.create_namespaced_custom_object(GROUP, VERSION, ORDER_NS, PLURAL, sample)

    def delete_order(self, name):
        self.custom.delete_namespaced_custom_object(GROUP, VERSION, ORDER_NS, PLURAL, name)

    def order_gone(self, name):
        try:
            self.order(name)
            return False
        except client.exceptions.ApiException as e:
            return e.status == 404

    def force_remove(self, name):
        """After a failed run: release the order's finalizers so it goes."""
        try:
            self.custom.patch_namespaced_custom_object(GROUP, VERSION, ORDER_NS, PLURAL, name,
                                                       {"metadata": {"finalizers": None}})
            self.delete_order(name)
        except client.exceptions.ApiException:
            pass


class OperatorRun:
    """One operator process and the named steps of the scenario."""

    def __init__(self, procs, operator, kubeconfig, step_timeout, grace, extra_args=(), shard_name=None):
        self.procs = procs
        self.step_timeout = step_timeout
        self.grace = grace
        self.name = "operator"
        self.log_path = procs.path(self.name)
        # Sharded (one replica) when `shard_name` is given, so that the Lease rule is exercised: without
        # it the replica never holds its Lease and runs no order.
        sharding = ["--shard-name", shard_name] if shard_name else []
        self.p = procs.start(self.name, [operator, "--kubeconfig", kubeconfig, "--namespace", NAMESPACE, *sharding,
                                         "--metrics-bind-address", "127.0.0.1:0",
                                         "--health-probe-bind-address", "127.0.0.1:0", *extra_args])

    def stop(self):
        self.procs.stop_one(self.name)

    def refusals(self):
        """The operator's 403s so far: (qualified resource, message) per log line."""
        out = []
        for line in open(self.log_path, errors="replace"):
            m = FORBIDDEN.search(line)
            if m:
                out.append((m.group(1), m.group(0).replace('\\"', '"')))
        return out

    def step(self, name, probe):
        start = time.time()
        first_refusal = None
        while True:
            try:
                if probe():
                    log(f"  step '{name}': done in {time.time() - start:.1f} s")
                    return
            except (client.exceptions.ApiException, OSError, ValueError):
                pass
            if self.p.poll() is not None:
                raise StepFailed(name, f"the operator exited {self.p.returncode}")
            refused = self.refusals()
            if refused and first_refusal is None:
                first_refusal = time.time()
            now = time.time()
            if first_refusal and now - max(start, first_refusal) > self.grace:
                raise StepFailed(name, refused[0][1])
            if now - start > self.step_timeout:
                raise StepFailed(name, refused[0][1] if refused else None)
            time.sleep(0.2)

    def health_port(self):
        for line in open(self.log_path, errors="replace"):
            m = re.search(r'"Starting health probe server".*"bindAddress":"[^"]*:(\d+)"', line)
            if m:
                return int(m.group(1))
        return None

    def ready(self):
        port = self.health_port()
        if not port:
            return False
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as r:
                return r.status == 200
        except OSError:
            return False


def condition(obj, type_):
    for c in (obj.get("status") or {}).get("conditions") or []:
        if c["type"] == type_:
            return c
    return None


def scenario(cluster, run, name):
    """The named steps; raises StepFailed at the first that does not complete."""
    run.step("operator ready", run.ready)
    cluster.create_order(name)
    run.step("finalizer added", lambda: cluster.order(name)["metadata"].get("finalizers"))
    run.step("order Ready", lambda: (condition(cluster.order(name), "Ready") or {}).get("status") == "True")
    run.step("credentials delivered",
             lambda: "transport_url" in (cluster.core.read_namespaced_secret(f"{name}-credentials", ORDER_NS).data or {}))
    cluster.delete_order(name)
    run.step("order gone", lambda: cluster.order_gone(name))


def resources_of(rule):
    out = set()
    for g in rule.get("apiGroups", []):
        for r in rule.get("resources", []):
            base = r.split("/")[0]
            out.add(base if not g else f"{base}.{g}")
    return out


class Options:
    """How each attempt runs the operator."""

    def __init__(self, operator, kubeconfig, step_timeout, grace, extra_args=(), shard_name=None):
        self.shard_name = shard_name
        self.operator = operator
        self.kubeconfig = kubeconfig
        self.step_timeout = step_timeout
        self.grace = grace
        self.extra_args = list(extra_args)


def check_rules(cluster, procs, rules, scenario, opts, only=None, skip=None, cleanup=None,
                not_used_yet=None, refused_without_failing=None):
    """A baseline with every rule, then each rule removed in turn (cluster.role re-written without it, a fresh
    operator, scenario(cluster, run, name) with a fresh name): some named step must fail and the operator's log
    hold a 403 naming a resource of the removed rule. `skip(rule)` gives a reason to pass a rule over;
    `not_used_yet` / `refused_without_failing` map a rule's resources to the reason it may fail no step (the
    first: every step passes and nothing is refused; the second: refused, logged, no step failed).
    `cleanup(name)` runs after a failed attempt. Returns [(what, ok, detail)]; the full rules are restored."""
    not_used_yet = NOT_USED_YET if not_used_yet is None else not_used_yet
    refused_without_failing = REFUSED_WITHOUT_FAILING if refused_without_failing is None else refused_without_failing
    results = []  # (what, ok, detail)

    def attempt(label, variant_rules, order):
        cluster.set_rules(variant_rules)
        run = OperatorRun(procs, opts.operator, opts.kubeconfig, opts.step_timeout, opts.grace, opts.extra_args,
                          opts.shard_name)
        try:
            scenario(cluster, run, order)
            return None, run.refusals()
        except StepFailed as e:
            return e, run.refusals()
        finally:
            run.stop()
            os.replace(run.log_path, os.path.join(procs.workdir, f"operator-{label}.log"))

    try:
        log(f"baseline: every rule of ClusterRole {cluster.role}")
        failed, refused = attempt("baseline", rules, "rbac-baseline")
        results.append(("baseline", failed is None and not refused,
                        str(failed) if failed else (f"refused: {refused[0][1]}" if refused else "all steps passed")))
        if failed and cleanup:
            cleanup("rbac-baseline")
        for i in ([int(i) for i in only.split(",")] if only else range(len(rules))):
            rule = rules[i]
            label = f"rule {i}: {rule_text(rule)}"
            reason = skip(rule) if skip else None
            if reason:
                log(f"{label}: {reason}")
                continue
            log(f"without {label}")
            order = f"rbac-{i}"
            failed, refused = attempt(f"rule-{i}", rules[:i] + rules[i + 1:], order)
            if failed and cleanup:
                cleanup(order)
            unused = not_used_yet.get(tuple(rule.get("resources", [])))
            if unused:
                results.append((label, failed is None and not refused,
                                f"not needed yet ({unused})" if failed is None else f"now needed: {failed}"))
                continue
            named = resources_of(rule)
            later = refused_without_failing.get(tuple(rule.get("resources", [])))
            if later:
                asked = [m for r, m in refused if r in named]
                results.append((label, failed is None and bool(asked),
                                f"refused ({asked[0]}), no step failed: {later}" if asked and failed is None
                                else f"a step failed: {failed}" if failed else "never asked for"))
                continue
            # A finalizers rule is asked for by OwnerReferencesPermissionEnforcement on the child's write; a
            # right the operator grants (a ClusterRole it writes) is named in RBAC's refusal of the grant; a
            # `bind` rule by RBAC's refusal of a binding to a role the operator does not hold.
            finalizers = all(r.endswith("/finalizers") for r in rule.get("resources", []))
            granted = [f'APIGroups:["{g}"], Resources:["{r}"]' for g in rule.get("apiGroups", [])
                       for r in rule.get("resources", [])]
            binds = rule.get("verbs") == ["bind"]
            hits = [m for r, m in refused if (r in named and not binds)
                    or (finalizers and "you can't set finalizers on" in m) or any(g in m for g in granted)
                    or (binds and r.startswith(("rolebindings.", "clusterrolebindings."))
                        and "attempting to grant RBAC permissions not currently held" in m)]
            ok = failed is not None and bool(hits)
            detail = (f"step '{failed.step}' failed; refused: {hits[0]}" if ok
                      else f"no step failed" if failed is None
                      else f"step '{failed.step}' failed but no 403 names {sorted(named)}: {failed}")
            results.append((label, ok, detail))
    finally:
        cluster.set_rules(rules)
    return results


def report(results):
    """Prints one PASS/FAIL line per result; the exit code."""
    for what, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'} {what}: {detail}")
    passed = sum(1 for _, ok, _ in results if ok)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


def arguments(grace):
    """The drivers' common flags (--grace defaulting to `grace` seconds)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--kubeconfig", required=True)
    ap.add_argument("--operator", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--workdir")
    ap.add_argument("--only", help="comma-separated rule indexes to remove (default: all)")
    ap.add_argument("--step-timeout", type=float, default=60)
    ap.add_argument("--grace", type=float, default=grace, help="seconds a step may still take once a 403 was logged")
    return ap


def main():
    a = arguments(8).parse_args()
    workdir = a.workdir or tempfile.mkdtemp(prefix="c5c3-rbac-")
    cluster = Cluster(a.kubeconfig, a.source_dir)
    role = yaml.safe_load(open(os.path.join(a.source_dir, "deploy", "rbac", "role.yaml")))
    rules = role["rules"]
    for f in ["deploy/rbac/service_account.yaml", "deploy/rbac/role.yaml", "deploy/rbac/role_binding.yaml",
              "deploy/samples/00-namespaces.yaml", "deploy/samples/10-controlplane.yaml",
              "deploy/samples/world/10-rabbitmqcluster.yaml", "deploy/samples/world/20-clustersecretstore.yaml"]:
        cluster.apply(f)
    sa_kubeconfig = os.path.join(workdir, "service-account.kubeconfig")
    cluster.service_account_kubeconfig(sa_kubeconfig)
    procs = Procs(workdir)
    try:
        # The orders run sharded here, as deploy/ runs them (deploy/rbac/role.yaml holds the Lease
        # rule); so does the monitoring controllers' check (monitoring_rbac_rules.py).
        opts = Options(a.operator, sa_kubeconfig, a.step_timeout, a.grace, shard_name="rbac-replica")
        results = check_rules(cluster, procs, rules, scenario, opts, only=a.only, cleanup=cluster.force_remove,
                              skip=lambda r: keystone_rule(r) and "the Keystone orders' rule, not exercised by a "
                              "RabbitMQVhost order (keystone_rbac_rules_test removes it)")
    finally:
        procs.stop()
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
