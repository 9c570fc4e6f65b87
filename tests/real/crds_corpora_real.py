"""real: deploy/crds and sim/crds on a real kube-apiserver, and tests/corpora on both servers.

1. Every CRD of deploy/crds and sim/crds is accepted and Established (and NamesAccepted) on the
   real server.
2. Every case of tests/corpora is applied to the real server and to the emulator: each must get
   the verdict its cases.yaml expects, with every expected substring, on both; and the two servers'
   errors must be the same text (the emulator speaks kube-apiserver's wording).

Usage: crds_corpora_real.py C5C3_SIM SOURCE_DIR
"""
import concurrent.futures
import glob
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpora"))
import apply_corpora  # noqa: E402
from harness import kubectl, log, on_both_servers, report_differences, run_main  # noqa: E402


def crd_names(src):
    names = []
    for d in ("deploy/crds", "sim/crds"):
        for f in sorted(glob.glob(os.path.join(src, d, "*.yaml"))):
            for doc in yaml.safe_load_all(open(f)):
                if doc and doc.get("kind") == "CustomResourceDefinition":
                    names.append(doc["metadata"]["name"])
    return names


def check_established(kubeconfig, names):
    r = kubectl(kubeconfig, "wait", "--for=condition=Established", "--timeout=60s",
                *[f"crd/{n}" for n in names], timeout=90)
    assert r.returncode == 0, f"CRDs not Established on the real server: {r.stderr.strip()}"
    for n in names:
        r = kubectl(kubeconfig, "get", f"crd/{n}", "-o",
                    "jsonpath={.status.conditions[?(@.type=='NamesAccepted')].status}", check=True)
        assert r.stdout == "True", f"CRD {n}: NamesAccepted is {r.stdout!r} on the real server"
    log(f"{len(names)} CRDs Established and NamesAccepted on the real server")


def judge(kubeconfig, src):
    kubectl(kubeconfig, "create", "namespace", "corpora", check=True)

    def run(*args):
        return kubectl(kubeconfig, "-n", "corpora", *args)

    return {name: (case, result) for name, case, result in
            apply_corpora.run_cases(run, os.path.join(src, "tests", "corpora"))}


def main(sim, src):
    def body(both):
        check_established(both.real_kc, crd_names(src))
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            on_real, on_sim = pool.map(lambda kc: judge(kc, src), (both.real_kc, both.sim_kc))
        assert on_real.keys() == on_sim.keys() and on_real, "the corpora ran differently"
        failures = []
        for name, (case, r) in on_real.items():
            _, s = on_sim[name]
            for server, result in (("real", r), ("emulator", s)):
                why = apply_corpora.verdict(case, result)
                if why:
                    failures.append(f"{name} on the {server} server: {why}")
            if r is not None and s is not None and (r.returncode != 0) == (s.returncode != 0) \
                    and r.stderr.strip() != s.stderr.strip():
                failures.append(f"{name}: wording differs\n  real:     {r.stderr.strip()}\n"
                                f"  emulator: {s.stderr.strip()}")
        report_differences(failures, len(on_real))

    on_both_servers("c5c3-real-corpora-", sim, src, body)


if __name__ == "__main__":
    run_main(lambda: main(*sys.argv[1:3]))
