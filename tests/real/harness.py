"""Shared pieces of the `real` tests: a real kube-apiserver (tools/real-cluster), the
emulator (`c5c3-sim apiserver`), processes with logs, kubectl, and a small HTTP client
that shows the Warning headers.

Every peer starts and stops inside the test, on loopback, with bounded waits. A missing
prerequisite raises Missing, which the tests turn into a failure naming it: never a skip.
"""
import base64
import json
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import yaml

KUBECTL = "/usr/bin/kubectl"


class Missing(Exception):
    """A prerequisite of the test is not there (the message names it)."""


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def eventually(probe, what, limit=60, interval=0.3):
    deadline = time.time() + limit
    last = None
    while time.time() < deadline:
        try:
            last = probe()
            if last:
                return last
        except Exception as e:  # noqa: BLE001 - the last error is reported on time-out
            last = e
        time.sleep(interval)
    raise AssertionError(f"timed out after {limit}s waiting for {what}; last: {last!r}")


def require_file(path, what):
    if not (path and os.path.exists(path)):
        raise Missing(f"{what} is missing: {path}")
    return path


class Procs:
    """Processes started by a test, each with its log in the work folder."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.procs = []

    def start(self, name, argv, wait_for=None, env=None, limit=60):
        path = os.path.join(self.workdir, name + ".log")
        out = open(path, "w")
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL)
        self.procs.append((name, p))
        if wait_for:
            def up():
                if p.poll() is not None:
                    raise AssertionError(f"{name} exited {p.returncode}: {self.tail(name)}")
                return wait_for in open(path).read()
            eventually(up, f"{name} to print {wait_for!r}", limit)
        return p

    def stop_one(self, name):
        for n, p in self.procs:
            if n == name and p.poll() is None:
                p.terminate()
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()

    def stop(self):
        for name, _ in reversed(self.procs):
            self.stop_one(name)

    def tail(self, name, lines=40):
        path = os.path.join(self.workdir, name + ".log")
        try:
            return "\n".join(open(path).read().splitlines()[-lines:])
        except OSError:
            return ""

    def dump(self):
        for name, _ in self.procs:
            print(f"--- {name}.log (last 40 lines) ---\n{self.tail(name)}")


class Workdir:
    """A temporary folder, kept when the test fails (its path is printed)."""

    def __init__(self, prefix):
        self.path = tempfile.mkdtemp(prefix=prefix)
        os.chmod(self.path, 0o755)
        self.ok = False

    def done(self):
        if self.ok:
            shutil.rmtree(self.path, ignore_errors=True)
        else:
            print(f"work folder kept: {self.path}")


class RealCluster:
    """kube-apiserver and etcd from tools/real-cluster, in DIR/real."""

    def __init__(self, src, workdir):
        self.script = require_file(os.path.join(src, "tools", "real-cluster", "real-cluster"),
                                   "tools/real-cluster/real-cluster")
        self.dir = os.path.join(workdir, "real")
        self.env = None

    def start(self):
        t0 = time.time()
        r = subprocess.run([self.script, "start", self.dir], capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise Missing(f"the real kube-apiserver did not start: {r.stderr.strip()}")
        self.env = dict(line.split("=", 1) for line in r.stdout.split())
        log(f"real kube-apiserver {self.env['REAL_CLUSTER_URL']} ready in {time.time() - t0:.1f}s")
        return self.kubeconfig

    @property
    def kubeconfig(self):
        return os.path.join(self.dir, "kubeconfig")

    def stop(self):
        subprocess.run([self.script, "stop", self.dir], check=False, timeout=120)

    def log_tail(self, lines=30):
        try:
            return "\n".join(open(os.path.join(self.dir, "kube-apiserver.log")).read().splitlines()[-lines:])
        except OSError:
            return ""


def start_emulator(procs, sim, src, name="emulator", extra=()):
    require_file(sim, "c5c3-sim")
    kubeconfig = os.path.join(procs.workdir, name + ".kubeconfig")
    procs.start(name, [sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", kubeconfig,
                       "--crds", os.path.join(src, "deploy", "crds"), "--crds", os.path.join(src, "sim", "crds"),
                       *extra], "listening on")
    return kubeconfig


def kubectl(kubeconfig, *args, stdin=None, timeout=60, check=False):
    if not os.path.exists(KUBECTL):
        raise Missing(f"kubectl is missing: {KUBECTL}")
    r = subprocess.run([KUBECTL, "--kubeconfig", kubeconfig, *args], input=stdin, capture_output=True,
                       text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(f"kubectl {' '.join(args)} failed: {r.stderr.strip()}")
    return r


def service_account_kubeconfig(admin_kc, namespace, name, path):
    """A kubeconfig at `path` for the ServiceAccount namespace/name (a TokenRequest, 2 h), checked with
    `kubectl auth whoami`: how the tests run the operator as the identity its RBAC binds (no kubelet
    mounts a token here)."""
    token = kubectl(admin_kc, "-n", namespace, "create", "token", name, "--duration=2h", check=True).stdout.strip()
    assert token, f"kubectl create token {namespace}/{name} gave no token"
    cfg = yaml.safe_load(open(admin_kc))
    cfg["users"][0]["user"] = {"token": token}
    with open(path, "w") as f:
        yaml.safe_dump(cfg, f)
    os.chmod(path, 0o600)
    who = kubectl(path, "auth", "whoami", "-o", "jsonpath={.status.userInfo.username}")
    assert who.stdout == f"system:serviceaccount:{namespace}:{name}", f"identity: {who.stdout} {who.stderr}"
    return path


def apply_crds(kubeconfig, src):
    for d in ("deploy/crds", "sim/crds"):
        kubectl(kubeconfig, "apply", "--server-side", "-f", os.path.join(src, d), check=True, timeout=120)


class Http:
    """Requests with the kubeconfig's server, CA and token; answers (status, headers, body)."""

    def __init__(self, kubeconfig, token=None):
        kc = yaml.safe_load(open(kubeconfig))
        cluster = kc["clusters"][0]["cluster"]
        self.server = cluster["server"]
        self.ctx = ssl.create_default_context(cadata=base64.b64decode(cluster["certificate-authority-data"]).decode())
        self.token = token or kc["users"][0]["user"]["token"]

    def request(self, method, path, body=None, content_type="application/json"):
        data = body if isinstance(body, (bytes, type(None))) else (
            body.encode() if isinstance(body, str) else json.dumps(body).encode())
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(req, context=self.ctx, timeout=30) as r:
                return r.status, r.headers, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                payload = json.loads(raw)
            except ValueError:
                payload = raw.decode(errors="replace")
            return e.code, e.headers, payload


def run_main(body):
    """Runs body(); exits 1 with the reason on a failed assertion or a missing prerequisite."""
    try:
        body()
    except Missing as e:
        print(f"FAIL: missing prerequisite: {e}", flush=True)
        sys.exit(1)
    except AssertionError as e:
        print(f"FAIL: {e}", flush=True)
        sys.exit(1)


class Both:
    """What a comparison test gets: the two servers' kubeconfigs and addresses."""

    def __init__(self, work, real, real_kc, sim_kc):
        self.work, self.real, self.real_kc, self.sim_kc = work, real, real_kc, sim_kc
        self.servers = [real.env["REAL_CLUSTER_URL"]] + [
            line.split()[-1] for line in open(os.path.join(work.path, "emulator.log")) if "listening on" in line]


def on_both_servers(prefix, sim, src, body, emulator_args=()):
    """Starts the real server (deploy/crds and sim/crds Established) and the emulator (the same
    CRDs, `emulator_args` beside), runs body(Both), stops both; keeps the work folder and prints the
    logs on failure."""
    work = Workdir(prefix)
    procs = Procs(work.path)
    real = RealCluster(src, work.path)
    try:
        real_kc = real.start()
        sim_kc = start_emulator(procs, sim, src, extra=emulator_args)
        apply_crds(real_kc, src)
        kubectl(real_kc, "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s", check=True)
        body(Both(work, real, real_kc, sim_kc))
        work.ok = True
    finally:
        stop_all(work, procs, real)
        work.done()


def stop_all(work, procs, real):
    """Ends the test's processes and the real server; on failure first prints their logs."""
    if not work.ok:
        procs.dump()
        print(real.log_tail())
    procs.stop()
    real.stop()


def report_differences(differences, compared):
    """Prints each difference (FAIL ...) and fails naming how many there are."""
    for d in differences:
        print("FAIL", d)
    log(f"{compared} comparisons, {len(differences)} differ")
    assert not differences, f"{len(differences)} differences between the real server and the emulator"
