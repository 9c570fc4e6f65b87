"""What the tests of tests/deploy share: commands, YAML, the emulator, waiting.

Every helper raises Failure with a message naming what went wrong; main()
prints it as "FAIL: ..." (ctest's FAIL_REGULAR_EXPRESSION) and exits 1.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KUBECTL = shutil.which("kubectl") or "/usr/bin/kubectl"


class Failure(Exception):
    pass


def check(ok, message):
    if not ok:
        raise Failure(message)


def run(cmd, *, input=None, env=None, ok=True, timeout=300):
    """Runs cmd; returns (rc, stdout, stderr). With ok, a non-zero rc fails."""
    p = subprocess.run(cmd, input=input, capture_output=True, text=True, env=env, timeout=timeout)
    if ok and p.returncode != 0:
        raise Failure(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p.returncode, p.stdout, p.stderr


def helm_path():
    """tools/helm/helm builds the pinned helm once; its path."""
    return run([os.path.join(ROOT, "tools", "helm", "helm"), "--path"], timeout=1800)[1].strip()


def helm(*args, **kw):
    return run([os.environ.get("C5C3_HELM") or helm_path(), *args], **kw)


def helm_template(*args, release="c5c3-operator", namespace="c5c3-system", ok=True):
    """The chart rendered (CRDs included) as a list of objects, or (rc, stderr) when not ok."""
    rc, out, err = helm("template", release, os.path.join(ROOT, "deploy", "chart"),
                        "--namespace", namespace, "--include-crds", *args, ok=ok)
    if not ok:
        return rc, err
    return docs(out)


def kustomize(folder):
    return docs(run([KUBECTL, "kustomize", os.path.join(ROOT, folder)])[1])


def overlay(folder, *components):
    """A temporary directory holding the kustomization a user's overlay is: `folder` (relative to ROOT) with
    `components` (kustomize refuses absolute paths and a parent of the overlay, so it lives outside the
    tree and names them relatively). Remove it with shutil.rmtree."""
    d = tempfile.mkdtemp(prefix="c5c3-overlay-")
    rel = lambda p: os.path.relpath(os.path.join(ROOT, p), d)  # noqa: E731
    with open(os.path.join(d, "kustomization.yaml"), "w") as f:
        yaml.safe_dump({"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
                        "resources": [rel(folder)], "components": [rel(c) for c in components]}, f)
    return d


def kustomize_with(folder, *components):
    """kubectl kustomize of `folder` with `components` (an overlay)."""
    d = overlay(folder, *components)
    try:
        return docs(run([KUBECTL, "kustomize", d])[1])
    finally:
        shutil.rmtree(d, ignore_errors=True)


def docs(text):
    return [d for d in yaml.safe_load_all(text) if d]


def find(objs, kind, name=None):
    got = [o for o in objs if o.get("kind") == kind and (name is None or o["metadata"]["name"] == name)]
    check(len(got) == 1, f"expected one {kind} {name or ''}, got {len(got)}: {[o['metadata']['name'] for o in got]}")
    return got[0]


def to_yaml(objs):
    return yaml.safe_dump_all(objs, sort_keys=False)


def wait_until(what, predicate, timeout=60.0, interval=0.2):
    """Polls predicate (a truthy answer ends the wait) at most timeout seconds; a
    Failure or an OSError (e.g. a refused connection) means "not yet"."""
    end = time.monotonic() + timeout
    last = None
    while True:
        try:
            got = predicate()
            if got:
                return got
        except (Failure, OSError) as e:
            last = e
        if time.monotonic() > end:
            raise Failure(f"timed out after {timeout:.0f} s waiting for {what}" + (f": {last}" if last else ""))
        time.sleep(interval)


class Processes:
    """Child processes, each with its output in <dir>/<name>.log; stop() ends them, last first."""

    def __init__(self, dir):
        self.dir = dir
        self.procs = []

    def start(self, name, args, env=None):
        log = open(os.path.join(self.dir, name + ".log"), "w")
        self.procs.append((name, subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env), log))

    def alive(self):
        for name, p, _ in self.procs:
            check(p.poll() is None, f"{name} exited {p.returncode}: {self.log(name)}")

    def log(self, name):
        with open(os.path.join(self.dir, name + ".log")) as f:
            return f.read()[-3000:]

    def stop(self):
        for _, p, log in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
            log.close()


class Emulator:
    """`c5c3-sim apiserver` on a free loopback port, its kubeconfig in a temp dir."""

    def __init__(self, sim, crds=()):
        self.dir = tempfile.mkdtemp(prefix="c5c3-deploy-")
        self.kubeconfig = os.path.join(self.dir, "kubeconfig")
        args = [sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", self.kubeconfig]
        for c in crds:
            args += ["--crds", c]
        self.procs = Processes(self.dir)
        self.procs.start("apiserver", args)
        wait_until("the emulator to listen", self._listening, timeout=30)

    def _listening(self):
        self.procs.alive()
        return re.search(r"^listening on ", self.log(), re.M) is not None

    def log(self):
        return self.procs.log("apiserver")

    def stop(self):
        self.procs.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def main(test):
    """Runs test(); prints PASS or FAIL: message."""
    try:
        test()
    except Failure as e:
        print(f"FAIL: {e}")
        sys.exit(1)
    print("PASS")
