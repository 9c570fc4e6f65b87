"""What the process benchmarks share: ports, a process's CPU and RSS, the operator's request counters, waiting."""
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def context_switches(pid):
    """The switches of every live thread of `pid` away from its CPU, voluntary (a wait: a
    sleeping worker, a socket with nothing to read) and not."""
    n = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            for line in open(f"/proc/{pid}/task/{tid}/status"):
                if "ctxt_switches:" in line:
                    n += int(line.split()[1])
        except FileNotFoundError:  # the thread ended meanwhile
            pass
    return n


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def requests_by_method(metrics_url):
    """The operator's rest_client_requests_total summed by method."""
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    out = {}
    for line in text.splitlines():
        m = re.match(r'rest_client_requests_total\{([^}]*)\} ([0-9.e+]+)', line)
        if not m:
            continue
        method = re.search(r'method="([^"]*)"', m.group(1)).group(1)
        out[method] = out.get(method, 0) + float(m.group(2))
    return out


def gauge_sum(metrics_url, name):
    """The sum of every sample of the operator's gauge `name` (e.g. c5c3_orders_parked)."""
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    total = 0.0
    for line in text.splitlines():
        m = re.match(re.escape(name) + r'(\{[^}]*\})? ([0-9.e+]+)$', line)
        if m:
            total += float(m.group(2))
    return total


def diff(a, b):
    return {k: b.get(k, 0) - a.get(k, 0) for k in sorted(set(a) | set(b))}


def wait_for(probe, what, limit):
    deadline = time.time() + limit
    while time.time() < deadline:
        if probe():
            return
        time.sleep(0.2)
    sys.exit(f"timed out waiting for {what}")


def settle(procs, operator_pid, metrics_url, create, done, what, steady_seconds):
    """Runs `create`, waits until `done`, then `steady_seconds` more: the figures around it."""
    rss0 = rss_kib(operator_pid)
    cpu0 = {n: cpu_seconds(p.pid) for n, p in procs.items()}
    req0 = requests_by_method(metrics_url)
    t0 = time.time()
    create()
    created = time.time() - t0
    wait_for(done, what, 3600)
    settled = time.time() - t0
    req1 = requests_by_method(metrics_url)
    cpu1 = {n: cpu_seconds(p.pid) for n, p in procs.items()}
    rss1 = rss_kib(operator_pid)
    time.sleep(steady_seconds)
    req2 = requests_by_method(metrics_url)
    return {"created": created, "settled": settled, "converge": diff(req0, req1), "steady": diff(req1, req2),
            "rss0": rss0, "rss1": rss1, "cpu": {n: cpu1[n] - cpu0[n] for n in procs}}


def print_settled(r, n, noun, steady_seconds):
    """The request, RSS and CPU rows of a settle() result over n objects (`noun`: "order", ...)."""
    conv = r["converge"]
    print(f"operator requests per {noun:<18}{sum(conv.values()) / n:.2f}  "
          + ", ".join(f"{k} {v / n:.2f}" for k, v in conv.items() if v))
    print(f"operator requests in {steady_seconds} s steady state   {int(sum(r['steady'].values()))}  "
          + ", ".join(f"{k} {int(v)}" for k, v in r["steady"].items() if v))
    print(f"operator RSS                            {r['rss0'] / 1024:.1f} MiB -> {r['rss1'] / 1024:.1f} MiB, "
          f"{(r['rss1'] - r['rss0']) / n:.1f} KiB per {noun}")
    print("CPU seconds while they settle           " + ", ".join(f"{k} {v:.1f}" for k, v in r["cpu"].items()))


class Processes:
    """The processes of one run, each logging to <work>/<name>.log, and the emulator every bench starts first."""

    def __init__(self, work):
        self.work = work
        self.procs = {}
        self.kubeconfig = os.path.join(work, "kubeconfig")

    def start(self, name, argv, env=None):
        """`env`: variables added to this process's environment."""
        self.procs[name] = subprocess.Popen(argv, stdout=open(os.path.join(self.work, name + ".log"), "w"),
                                            stderr=subprocess.STDOUT, env={**os.environ, **env} if env else None)
        return self.procs[name]

    def start_emulator(self, sim, src, extra=()):
        """c5c3-sim apiserver with deploy/crds and sim/crds (and `extra` flags), its kubeconfig at self.kubeconfig,
        once it listens."""
        self.start("apiserver", [sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", self.kubeconfig,
                                 "--crds", os.path.join(src, "deploy", "crds"), "--crds", os.path.join(src, "sim", "crds")]
                   + list(extra))
        wait_for(lambda: "listening on" in open(os.path.join(self.work, "apiserver.log")).read(), "the emulator", 60)


def stop(procs, work):
    for p in procs.values():
        p.terminate()
    for p in procs.values():
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
    print(f"logs in {work}")
