"""What the process benchmarks share: ports, a process's CPU and RSS, the operator's request counters, waiting."""
import os
import re
import socket
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


def diff(a, b):
    return {k: b.get(k, 0) - a.get(k, 0) for k in sorted(set(a) | set(b))}


def wait_for(probe, what, limit):
    deadline = time.time() + limit
    while time.time() < deadline:
        if probe():
            return
        time.sleep(0.2)
    sys.exit(f"timed out waiting for {what}")
