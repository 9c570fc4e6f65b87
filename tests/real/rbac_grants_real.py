"""real: RBAC's guard on grants, compared on the real kube-apiserver and the emulator (issue 18, "RBAC in
the emulator"; sim/apiserver/rbac_escalation.hpp).

The operator's ServiceAccount holds deploy/rbac/monitoring_role.yaml (it may create ClusterRoles and
RoleBindings, and `bind` cluster-monitoring-view) and, for this test, the creation of
ClusterRoleBindings. As that identity kubectl creates roles and bindings: of rights it holds, of rights
it lacks (one missing right, several, all of them through cluster-admin), an aggregationRule, bindings to
roles that do not exist, and a binding its `bind` allows. The exit code and what kubectl prints must be the
same on both servers (the emulator runs --authorization-mode=RBAC).

Usage: rbac_grants_real.py C5C3_SIM SOURCE_DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import kubectl, on_both_servers, report_differences, run_main, service_account_kubeconfig  # noqa: E402

SETUP = """apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: c5c3-test-binding-writer}
rules:
- apiGroups: [rbac.authorization.k8s.io]
  resources: [clusterrolebindings]
  verbs: [create]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: c5c3-test-binding-writer}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: c5c3-test-binding-writer}
subjects: [{kind: ServiceAccount, name: c5c3-operator, namespace: c5c3-system}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cluster-monitoring-view}
rules:
- apiGroups: [""]
  resources: [nodes, pods]
  verbs: [get, list, watch]
"""

# (name, kubectl arguments) run as the ServiceAccount, in order.
CASES = [
    ("a ClusterRole of held rights", ["create", "clusterrole", "held", "--verb=get", "--resource=secrets"]),
    ("a ClusterRole of one right more", ["create", "clusterrole", "more", "--verb=delete", "--resource=configmaps"]),
    ("a ClusterRole of several rights more",
     ["create", "clusterrole", "several", "--verb=get,list,delete", "--resource=configmaps,secrets"]),
    ("a ClusterRole with an aggregationRule", ["create", "clusterrole", "agg", "--aggregation-rule=a=b"]),
    ("a RoleBinding to held rights", ["create", "rolebinding", "ok", "--clusterrole=held", "--user=u", "-n", "default"]),
    ("a RoleBinding to cluster-admin",
     ["create", "rolebinding", "admin", "--clusterrole=cluster-admin", "--user=u", "-n", "default"]),
    ("a RoleBinding its bind allows",
     ["create", "rolebinding", "view", "--clusterrole=cluster-monitoring-view", "--user=u", "-n", "default"]),
    ("a RoleBinding to a missing ClusterRole",
     ["create", "rolebinding", "gone", "--clusterrole=nope", "--user=u", "-n", "default"]),
    ("a RoleBinding to a missing Role", ["create", "rolebinding", "gone2", "--role=nope", "--user=u", "-n", "default"]),
    ("a ClusterRoleBinding to a missing ClusterRole", ["create", "clusterrolebinding", "gone3", "--clusterrole=nope",
                                                       "--user=u"]),
    ("a ClusterRoleBinding to cluster-admin", ["create", "clusterrolebinding", "admin", "--clusterrole=cluster-admin",
                                               "--user=u"]),
]


def run(admin_kc, src, workdir, label):
    for f in ("service_account.yaml", "monitoring_role.yaml"):
        kubectl(admin_kc, "apply", "-f", os.path.join(src, "deploy", "rbac", f), check=True)
    kubectl(admin_kc, "apply", "-f", "-", stdin=SETUP, check=True)
    sa_kc = service_account_kubeconfig(admin_kc, "c5c3-system", "c5c3-operator",
                                       os.path.join(workdir, f"{label}-sa.kubeconfig"))
    out = {}
    for name, args in CASES:
        r = kubectl(sa_kc, *args)
        out[name] = (r.returncode, r.stderr.strip() or r.stdout.strip())
    return out


def main(sim, src):
    def body(both):
        real = run(both.real_kc, src, both.work.path, "real")
        emulated = run(both.sim_kc, src, both.work.path, "emulator")
        # The real server is the oracle; these pin what the comparison relies on.
        assert real["a ClusterRole of held rights"][0] == 0, real
        assert "not currently held" in real["a ClusterRole of one right more"][1], real
        assert real["a RoleBinding its bind allows"][0] == 0, real
        differences = [f"'{k}' differs:\n  real:     {real[k]}\n  emulator: {emulated.get(k)}"
                       for k in real if real[k] != emulated.get(k)]
        report_differences(differences, len(real))

    on_both_servers("c5c3-real-grants-", sim, src, body,
                    emulator_args=["--authorization-mode", "RBAC",
                                   "--enable-admission-plugins", "OwnerReferencesPermissionEnforcement"])


if __name__ == "__main__":
    run_main(lambda: main(*sys.argv[1:3]))
