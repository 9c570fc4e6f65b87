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


def main():
    kubeconfig, corpora = sys.argv[1], pathlib.Path(sys.argv[2])

    def kubectl(*args):
        return subprocess.run([KUBECTL, "--kubeconfig", kubeconfig, *args],
                              capture_output=True, text=True, timeout=60)

    failures, count = [], 0
    for cases_file in sorted(corpora.glob("*/cases.yaml")):
        corpus = cases_file.parent
        for case in yaml.safe_load(cases_file.read_text())["cases"]:
            count += 1
            path = corpus / case["file"]
            name = f"{corpus.name}/{case['file']}"
            if case.get("base"):
                base = kubectl("apply", "-f", str(corpus / case["base"]))
                if base.returncode != 0:
                    failures.append(f"{name}: base refused: {base.stderr.strip()}")
                    continue
                result = kubectl("apply", "-f", str(path))
            else:
                result = kubectl("create", "-f", str(path))
            expect = case.get("expect") or []
            if not expect:
                if result.returncode != 0:
                    failures.append(f"{name}: expected to be admitted, got: {result.stderr.strip()}")
                continue
            if result.returncode == 0:
                failures.append(f"{name}: expected a rejection, but it was admitted")
                continue
            missing = [s for s in expect if s not in result.stderr]
            if missing:
                failures.append(f"{name}: error lacks {missing}: {result.stderr.strip()}")

    for f in failures:
        print("FAIL", f)
    print(f"{count - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
