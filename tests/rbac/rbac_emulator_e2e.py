"""e2e: rbac_rules.py (or monitoring_rbac_rules.py) against the emulator with --authorization-mode=RBAC.

c5c3-sim apiserver (RBAC, OwnerReferencesPermissionEnforcement, deploy/crds and sim/crds) and, for the
orders, c5c3-sim world (its simulated broker and OpenBao, with the admin kubeconfig), for the monitoring
controllers c5c3-sim trickster (the backend), as processes; the driver then runs c5c3-operator as the
ServiceAccount of deploy/rbac, rule by rule.

Usage: rbac_emulator_e2e.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR [orders|monitoring]
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from e2e import Procs, eventually  # noqa: E402


def as_service_account(kubeconfig):
    """kubectl create token (a protobuf TokenRequest) for the operator's ServiceAccount: the kubectl command line
    that uses it, or None (printed) when no token came."""
    kubectl = ["/usr/bin/kubectl", "--kubeconfig", kubeconfig]
    tok = subprocess.run(kubectl + ["create", "token", "c5c3-operator", "-n", "c5c3-system", "--duration", "20m"],
                         capture_output=True, text=True)
    if tok.returncode != 0 or tok.stdout.count(".") != 2:
        print(f"FAIL: kubectl create token: {tok.stderr}")
        return None
    return kubectl + ["--token", tok.stdout.strip()]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def kubectl_checks(kubeconfig):
    """kubectl create token and kubectl's view of a 403."""
    as_sa = as_service_account(kubeconfig)
    if not as_sa:
        return 1
    ok = run(as_sa + ["get", "secrets", "-n", "c5c3-system"])
    denied = run(as_sa + ["get", "configmaps", "-n", "default"])
    want = ('Error from server (Forbidden): configmaps is forbidden: User '
            '"system:serviceaccount:c5c3-system:c5c3-operator" cannot list resource "configmaps" in API group "" '
            'in the namespace "default"')
    if ok.returncode != 0 or denied.returncode == 0 or want not in denied.stderr:
        print(f"FAIL: kubectl as the ServiceAccount: {ok.stderr} / {denied.stderr}")
        return 1
    print("PASS kubectl create token; kubectl shows the 403 as with kube-apiserver")
    return 0


def kubectl_grant_checks(kubeconfig):
    """kubectl as the monitoring ServiceAccount (which may create ClusterRoles): a ClusterRole granting what it
    holds is created; one granting what it does not hold is refused with kube's escalation message."""
    as_sa = as_service_account(kubeconfig)
    if not as_sa:
        return 1
    held = run(as_sa + ["create", "clusterrole", "c5c3-held", "--verb=get", "--resource=secrets"])
    more = run(as_sa + ["create", "clusterrole", "c5c3-more", "--verb=delete", "--resource=configmaps"])
    want = ('clusterroles.rbac.authorization.k8s.io "c5c3-more" is forbidden: user '
            '"system:serviceaccount:c5c3-system:c5c3-operator" (groups=["system:serviceaccounts" '
            '"system:serviceaccounts:c5c3-system" "system:authenticated"]) is attempting to grant RBAC permissions '
            'not currently held:\n{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}')
    if held.returncode != 0 or more.returncode == 0 or want not in more.stderr:
        print(f"FAIL: kubectl grants as the ServiceAccount: {held.stderr} / {more.stderr}")
        return 1
    print("PASS kubectl: a ClusterRole of held rights is created, one of more is refused as kube-apiserver refuses it")
    return 0


def monitoring_driver(procs, sim, operator, src, kubeconfig, workdir):
    """The backend stand-in, then monitoring_rbac_rules.py; its exit code."""
    env_out = os.path.join(workdir, "trickster.env")
    procs.start("trickster", [sim, "trickster", "--token", "rbac-platform-token", "--grafana-url",
                              "https://grafana.example", "--env-out", env_out])
    eventually(lambda: os.path.exists(env_out), "trickster.env", 30)
    env = dict(line.strip().split("=", 1) for line in open(env_out) if "=" in line)
    driver = os.path.join(os.path.dirname(os.path.abspath(__file__)), "monitoring_rbac_rules.py")
    return subprocess.run([sys.executable, driver, "--kubeconfig", kubeconfig, "--operator", operator,
                           "--source-dir", src, "--workdir", workdir, "--base-url", env["TRICKSTER_URL"],
                           "--token", "rbac-platform-token"]).returncode


def main(sim, operator, src, mode="orders"):
    workdir = tempfile.mkdtemp(prefix="c5c3-rbac-e2e-")
    procs = Procs(workdir)
    rc = 1
    try:
        kubeconfig = os.path.join(workdir, "admin.kubeconfig")
        procs.start("apiserver", [sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", kubeconfig,
                                  "--authorization-mode", "RBAC",
                                  "--enable-admission-plugins", "OwnerReferencesPermissionEnforcement",
                                  "--crds", os.path.join(src, "deploy", "crds"),
                                  "--crds", os.path.join(src, "sim", "crds")], "listening on")
        if mode == "monitoring":
            rc = monitoring_driver(procs, sim, operator, src, kubeconfig, workdir)
            if rc == 0:
                rc = kubectl_grant_checks(kubeconfig)
            return rc
        procs.start("world", [sim, "world", "--kubeconfig", kubeconfig])
        driver = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rbac_rules.py")
        # A step may still complete 5 s after a 403 (the driver's default, 8 s, is for any cluster): on the
        # emulator each step completes in about a second under ASan, as keystone_rbac_rules_test's steps do
        # in its 5 s (tests/rbac/rule_removal.hpp).
        rc = subprocess.run([sys.executable, driver, "--kubeconfig", kubeconfig, "--operator", operator,
                             "--source-dir", src, "--workdir", workdir, "--grace", "5"]).returncode
        if rc == 0:
            rc = kubectl_checks(kubeconfig)
    finally:
        if rc != 0:
            procs.dump()
            for f in sorted(os.listdir(workdir)):
                if f.startswith("operator-") and f.endswith(".log"):
                    lines = open(os.path.join(workdir, f), errors="replace").read().splitlines()
                    print(f"--- {f} (last 15 lines) ---")
                    print("\n".join(lines[-15:]))
        procs.stop()
        if rc == 0:
            shutil.rmtree(workdir, ignore_errors=True)  # kept (and dumped above) when it failed
    return rc


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
