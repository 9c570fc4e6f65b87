"""Helpers of the Python e2e tests: logging, polling and child processes.

Imported by tests/rabbitmq_e2e, tests/keystone_e2e and tests/rbac (add this folder to sys.path).
"""
import os
import subprocess
import time


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def eventually(probe, what, limit=90, tolerate=(Exception,), interval=0.3):
    """Polls probe() until it returns something truthy (returned); raises
    AssertionError after `limit` seconds. Exceptions in `tolerate` count as
    not yet."""
    deadline = time.time() + limit
    last = None
    while time.time() < deadline:
        try:
            last = probe()
            if last:
                return last
        except tolerate as e:  # noqa: PERF203 - polling
            last = e
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}; last: {last}")


def condition(obj, type_):
    """The condition of that type in obj's status (None when absent)."""
    for c in (obj.get("status") or {}).get("conditions") or []:
        if c["type"] == type_:
            return c
    return None


SAMPLES = ["00-namespaces.yaml", "10-controlplane.yaml", "world/10-rabbitmqcluster.yaml",
           "world/20-clustersecretstore.yaml"]


def apply_samples(kubeconfig, src, files=SAMPLES):
    """kubectl apply of deploy/samples/<file> for each file, retried until the CRDs are served."""
    kubectl = ["/usr/bin/kubectl", "--kubeconfig", kubeconfig]
    for f in files:
        path = os.path.join(src, "deploy", "samples", f)
        eventually(lambda: subprocess.run(kubectl + ["apply", "-f", path], capture_output=True).returncode == 0,
                   f"kubectl apply {f}", 60)


class Procs:
    """Child processes whose output goes to WORKDIR/NAME.log; stop() ends them
    newest first (SIGTERM, then SIGKILL after 30 s)."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.procs = []

    def path(self, name):
        return os.path.join(self.workdir, name + ".log")

    def start(self, name, argv, wait_for=None, env=None):
        out = open(self.path(name), "w")
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
        self.procs.append((name, p))
        if wait_for:
            eventually(lambda: p.poll() is None and wait_for in open(out.name).read(), f"{name}: {wait_for}", 60)
        return p

    def stop_one(self, name):
        for n, p in self.procs:
            if n == name:
                self._end(n, p)
        self.procs = [(n, p) for n, p in self.procs if n != name]

    def stop(self):
        for name, p in reversed(self.procs):
            self._end(name, p)
        self.procs = []

    @staticmethod
    def _end(name, p):
        if p.poll() is None:
            p.terminate()
            try:
                rc = p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
            log(f"{name} exited {rc}")

    def dump(self, lines=40):
        for name in sorted({n for n, _ in self.procs} | {f[:-4] for f in os.listdir(self.workdir)
                                                          if f.endswith(".log")}):
            text = open(self.path(name)).read().splitlines()
            print(f"--- {name}.log (last {lines} lines) ---")
            print("\n".join(text[-lines:]))
