#!/usr/bin/python3
"""Applies every admission-rejection corpus case to a live API server with kubectl.

usage: apply_corpora.py KUBECONFIG CORPORA_DIR

For each tests/corpora/<corpus>/cases.yaml, in order: a case with a `base` first
(re)creates the base object with `kubectl apply` and then applies the case as an
update of it; any other case is created with `kubectl create`. A case with an
empty `expect` must be admitted; otherwise kubectl must fail and its error must
contain every expected substring. The same files work against any cluster that
has deploy/crds and sim/crds installed.
"""
import pathlib
import subprocess
import sys

import yaml

KUBECTL = "/usr/bin/kubectl"


def run_cases(kubectl, corpora):
    """Applies every case with kubectl(*args) (a CompletedProcess); yields (name, case, result),
    where result is None when the case's base was refused (then base_error says why)."""
    for cases_file in sorted(pathlib.Path(corpora).glob("*/cases.yaml")):
        corpus = cases_file.parent
        for case in yaml.safe_load(cases_file.read_text())["cases"]:
            path = corpus / case["file"]
            name = f"{corpus.name}/{case['file']}"
            if case.get("base"):
                base = kubectl("apply", "-f", str(corpus / case["base"]))
                if base.returncode != 0:
                    yield name, dict(case, base_error=base.stderr.strip()), None
                    continue
                result = kubectl("apply", "-f", str(path))
            else:
                result = kubectl("create", "-f", str(path))
            yield name, case, result


def verdict(case, result):
    """None when the result is what the case expects, else why not."""
    if result is None:
        return f"base refused: {case['base_error']}"
    expect = case.get("expect") or []
    if not expect:
        return None if result.returncode == 0 else f"expected to be admitted, got: {result.stderr.strip()}"
    if result.returncode == 0:
        return "expected a rejection, but it was admitted"
    missing = [s for s in expect if s not in result.stderr]
    return f"error lacks {missing}: {result.stderr.strip()}" if missing else None


def main():
    kubeconfig, corpora = sys.argv[1], sys.argv[2]

    def kubectl(*args):
        return subprocess.run([KUBECTL, "--kubeconfig", kubeconfig, *args],
                              capture_output=True, text=True, timeout=60)

    failures, count = [], 0
    for name, case, result in run_cases(kubectl, corpora):
        count += 1
        why = verdict(case, result)
        if why:
            failures.append(f"{name}: {why}")

    for f in failures:
        print("FAIL", f)
    print(f"{count - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
