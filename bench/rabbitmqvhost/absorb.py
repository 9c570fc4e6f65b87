"""P3 of issue 19: the API server's absorb rate of an operator's writes, beside the operator's convergence, for
`bench_rabbitmqvhost.py --absorb`.

The emulator runs with --record-write-bodies, so its write log (GET /sim/writelog) keeps every request: method,
target, Content-Type, body. The log is cleared just before the operator starts over the N orders (created before
it, so they are there at once); when all are Ready the log holds the convergence's writes. Those of the operator
(User-Agent c5c3-operator) that succeeded are written to a replay file (format in bench/apiserver/replay.hpp) and
`bench_replay` sends them again to the same emulator process (the operator and the world stopped first), into
fresh namespaces "<run>-<namespace>" (so every create creates), after untimed set-up writes: the namespaces and a
copy of each order as it was created. The transform, per write:
  - a namespace in the target and in the body's metadata.namespace gets the run's prefix ("@RUN@-" + namespace);
  - a resourceVersion the write carried (a PUT's metadata.resourceVersion, a merge patch's, the value of a JSON
    patch's `test` of /metadata/resourceVersion: the operator's finalizer patch) becomes "@RV@", which the
    replayer fills with the object's resourceVersion from its own last answer for it;
  - everything else (verb, subresource, query, Content-Type, the body's bytes) is sent as recorded.
Writes of one object (the status subresource counts as the object) go in their recorded order on one connection;
the connections send as fast as the answers come (no rate limit). Then the same for the operator's and the
simulated world's writes together (User-Agent c5c3-sim-world: the topology operator's and External Secrets'
status and Secrets): the API server's rate for the convergence's whole write traffic.
"""
import base64
import json
import os
import re
import subprocess
import threading

import yaml
from kubernetes import client

from benchlib import cpu_seconds
from rotation import _follow

RUN, RV = "@RUN@", "@RV@"
NS_IN_PATH = re.compile(r"/namespaces/([^/?]+)")
OPERATOR = ("c5c3-operator",)
WORLD = ("c5c3-sim-world",)
JSON_PATCH = "application/json-patch+json"


def sim_get(api_client, path):
    """GET of an emulator admin path (/sim/...) with the kubeconfig's credentials, as parsed JSON."""
    r = api_client.call_api(path, "GET", auth_settings=["BearerToken"], _preload_content=False,
                            response_type=None, _return_http_data_only=True)
    return json.loads(r.data)


def sim_delete(api_client, path):
    api_client.call_api(path, "DELETE", auth_settings=["BearerToken"], _preload_content=False,
                        _return_http_data_only=True)


def renamespace(path):
    """The path with its namespace given the run's prefix."""
    return NS_IN_PATH.sub(lambda m: f"/namespaces/{RUN}-{m.group(1)}", path, count=1)


def object_key(method, path, body):
    """The object a write is about: its path (a create: the collection's path and the body's name), without
    /status."""
    if method == "POST":
        name = ((body or {}).get("metadata") or {}).get("name", "")
        return f"{path}/{name}"
    return path[:-len("/status")] if path.endswith("/status") else path


def parse_body(text):
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return yaml.safe_load(text)  # an apply patch may be YAML


def transform(rec):
    """One write-log record (with its request) as a replay write: (key, method, target, contentType, body)."""
    method, ctype = rec["method"], rec.get("contentType", "")
    path, _, query = rec["target"].partition("?")
    body = parse_body(rec.get("body", ""))
    key = renamespace(object_key(method, path, body))
    if isinstance(body, dict):
        md = body.get("metadata")
        if isinstance(md, dict):
            if md.get("namespace"):
                md["namespace"] = f"{RUN}-{md['namespace']}"
            if md.get("resourceVersion") and method in ("PUT", "PATCH"):
                md["resourceVersion"] = RV
    elif isinstance(body, list) and ctype.startswith(JSON_PATCH):
        for op in body:
            if op.get("op") == "test" and op.get("path") == "/metadata/resourceVersion":
                op["value"] = RV
    text = "" if body is None else json.dumps(body, separators=(",", ":"))
    target = renamespace(path) + (f"?{query}" if query else "")
    return {"setup": False, "key": key, "method": method, "target": target, "contentType": ctype, "body": text}


def setup_writes(namespaces, originals):
    """The untimed set-up: the run's namespaces, then `originals` (collection path -> objects) created."""
    out = []
    for ns in sorted(namespaces):
        path = "/api/v1/namespaces"
        out.append({"setup": True, "key": f"{path}/{RUN}-{ns}", "method": "POST", "target": path,
                    "contentType": "application/json",
                    "body": json.dumps({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": f"{RUN}-{ns}"}})})
    for path, objects in originals.items():
        for o in objects:
            o = json.loads(json.dumps(o))
            o["metadata"]["namespace"] = f"{RUN}-{o['metadata']['namespace']}"
            out.append({"setup": True, "key": renamespace(f"{path}/{o['metadata']['name']}"), "method": "POST",
                        "target": renamespace(path), "contentType": "application/json",
                        "body": json.dumps(o, separators=(",", ":"))})
    return out


def replay_file(log, originals, path, writers=OPERATOR):
    """Writes the replay file of the successful writes of `writers` (User-Agent prefixes) in `log`; returns what
    it holds: writes by method, by resource, by Content-Type, body bytes, and the writes left out."""
    writes, namespaces = [], set()
    stats = {"method": {}, "resource": {}, "contentType": {}, "bytes": 0, "failed": 0, "others": {}}
    for rec in log:
        if not rec.get("userAgent", "").startswith(writers):
            agent = rec.get("userAgent", "").split("/")[0] or rec.get("client", "")
            stats["others"][agent] = stats["others"].get(agent, 0) + 1
            continue
        if rec.get("dryRun") or not 200 <= rec.get("code", 0) < 300:
            stats["failed"] += 1
            continue
        if "method" not in rec:
            raise SystemExit("the write log has no requests: run the emulator with --record-write-bodies")
        w = transform(rec)
        writes.append(w)
        m = NS_IN_PATH.search(rec["target"])
        if m:
            namespaces.add(m.group(1))
        for field, value in (("method", w["method"]), ("resource", rec["resource"]),
                             ("contentType", w["contentType"] or "-")):
            stats[field][value] = stats[field].get(value, 0) + 1
        stats["bytes"] += len(rec.get("body", ""))
    with open(path, "w") as f:
        for w in setup_writes(namespaces, originals) + writes:
            f.write(json.dumps(w, separators=(",", ":")) + "\n")
    stats["writes"] = len(writes)
    return stats


def credentials(kubeconfig, work):
    """(server URL, CA file, token file) of the kubeconfig's first cluster and user."""
    kc = yaml.safe_load(open(kubeconfig))
    cluster, user = kc["clusters"][0]["cluster"], kc["users"][0]["user"]
    ca = os.path.join(work, "replay-ca.pem")
    with open(ca, "wb") as f:
        f.write(base64.b64decode(cluster.get("certificate-authority-data", "")))
    token = os.path.join(work, "replay-token")
    with os.fdopen(os.open(token, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write(user.get("token", ""))
    return cluster["server"], ca, token


def replay(bin_dir, kubeconfig, work, path, run, connections, watch=True):
    """One bench_replay run; its RESULT as a dict (and its summary lines printed)."""
    server, ca, token = credentials(kubeconfig, work)
    argv = [os.path.join(bin_dir, "bench_replay"), "--server", server, "--ca", ca, "--token-file", token,
            "--file", path, "--run", run, "--connections", str(connections)] + (["--watch"] if watch else [])
    t0 = os.times()
    out = subprocess.run(argv, capture_output=True, text=True)
    t1 = os.times()
    result = None
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[len("RESULT "):])
        else:
            print("  " + line)
    if result is None:
        raise SystemExit(f"bench_replay failed ({out.returncode}): {out.stderr.strip()}")
    result["replayer_cpu"] = t1.children_user + t1.children_system - t0.children_user - t0.children_system
    return result


def replay_row(ps, bin_dir, work, path, run, connections, writes, total, converged, label):
    """One replay of `path` and its P3 row: absorb writes/s, the orders/s they are worth, the ratio of the
    convergence's rate of the same writes (`writes` in `converged` seconds) to it."""
    cpu0 = cpu_seconds(ps.procs["apiserver"].pid)
    r = replay(bin_dir, ps.kubeconfig, work, path, run, connections)
    cpu = cpu_seconds(ps.procs["apiserver"].pid) - cpu0
    rate, per_order = r["rate"], writes / total
    print(f"P3 absorb, {label}, {connections} connections: {rate:.0f} writes/s = {rate / per_order:.1f} orders/s "
          f"({r['ok']} ok, {r['failed']} failed, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, "
          f"{r['watch_events']} watch events; CPU s apiserver {cpu:.1f}, replayer {r['replayer_cpu']:.1f} with "
          f"its set-up); **ratio convergence / absorb {(writes / converged) / rate:.2f}** (goal >= 0.8)")


class ReadyWatch:
    """When this process first saw each order of `plural` in `ns` Ready=True (a watch on its own thread: no list
    of every order polled while the operator converges)."""

    def __init__(self, plural, ns="tenant-a"):
        self.lock = threading.Lock()
        self.ready, self.names = {}, set()
        self.relists = {"orders": 0}
        self.stop = threading.Event()
        custom = client.CustomObjectsApi()
        def orders(**kw):
            return custom.list_namespaced_custom_object("c5c3.io", "v1alpha1", ns, plural, **kw)

        threading.Thread(target=_follow, args=(orders, self._order, self.relists, "orders", self.stop),
                         daemon=True).start()

    def _order(self, o, t):
        with self.lock:
            self.names.add(o["metadata"]["name"])
        if any(c.get("type") == "Ready" and c.get("status") == "True"
               for c in (o.get("status") or {}).get("conditions") or []):
            with self.lock:
                self.ready.setdefault(o["metadata"]["name"], t)

    def count(self):
        with self.lock:
            return len(self.ready)

    def seen(self):
        with self.lock:
            return len(self.names)

    def last(self):
        with self.lock:
            return max(self.ready.values())


def originals_of(yamls, plural):
    """The orders as they were created (collection path -> objects), for the replay's set-up."""
    out = {}
    for y in yamls:
        o = yaml.safe_load(y)
        path = f"/apis/c5c3.io/v1alpha1/namespaces/{o['metadata']['namespace']}/{plural}"
        out.setdefault(path, []).append(o)
    return out


def operator_concurrency(operator_args, default=2):
    """The operator's --max-concurrent-reconciles (passes in flight per kind; a pass writes one at a time)."""
    for i, arg in enumerate(operator_args):
        if arg.startswith("--max-concurrent-reconciles="):
            return int(arg.split("=", 1)[1])
        if arg == "--max-concurrent-reconciles" and i + 1 < len(operator_args):
            return int(operator_args[i + 1])
    return default


def run(ps, bin_dir, work, write_log, originals, total, converged, requests, op_cpu, connections):
    """After the run: the operator and the world stopped; the operator's writes of the convergence replayed over
    each of `connections`, then the operator's and the world's together over one more connection than the first
    (the world writes one at a time) and over the last; the P3 rows printed. requests: the operator's
    rest_client_requests_total by method until all Ready; op_cpu: its CPU seconds until then."""
    for name in ("operator", "world", "peer"):
        if name in ps.procs:
            ps.procs[name].terminate()
            ps.procs[name].wait(30)
    mix = lambda d: ", ".join(f"{k} {v / total:.2f}" for k, v in sorted(d.items()))  # noqa: E731
    path = os.path.join(work, "replay-operator.ndjson")
    st = replay_file(write_log, originals, path)
    metric_writes = sum(v for k, v in requests.items() if k in ("POST", "PUT", "PATCH", "DELETE"))
    print(f"P3 operator writes until all Ready      {st['writes']} in the write log ({metric_writes:.0f} by its "
          f"metrics), {st['writes'] / total:.2f} per order: {mix(st['method'])}")
    print(f"P3 the write mix per order              {mix(st['resource'])}")
    print(f"P3 content types per order              {mix(st['contentType'])}; "
          f"{st['bytes'] / max(1, st['writes']):.0f} body bytes per write")
    print(f"P3 left out                             {st['failed']} failed writes of the operator; other "
          "writers: " + (", ".join(f"{k} {v}" for k, v in sorted(st["others"].items())) or "none"))
    print(f"P3 operator: {total / converged:.1f} orders/s to Ready, {st['writes'] / converged:.0f} writes/s, "
          f"CPU {1000 * op_cpu / total:.2f} ms per order (goal < 1 ms)")
    for i, c in enumerate(connections):
        replay_row(ps, bin_dir, work, path, f"r{i + 1}", c, st["writes"], total, converged, "the operator's writes")
    path = os.path.join(work, "replay-all.ndjson")
    every = replay_file(write_log, originals, path, OPERATOR + WORLD)
    print(f"P3 the operator's and the world's writes {every['writes']}, {every['writes'] / total:.2f} per order "
          f"({every['failed']} failed left out): {every['writes'] / converged:.0f} writes/s during convergence")
    for i, c in enumerate(sorted({connections[0] + 1, connections[-1]})):
        replay_row(ps, bin_dir, work, path, f"w{i + 1}", c, every["writes"], total, converged,
                   "the operator's and the world's writes")
