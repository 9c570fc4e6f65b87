"""real: one kubectl scenario against the real kube-apiserver and the emulator, compared line by line.

Each step runs the same kubectl command on both servers; its exit code, stdout and stderr are
normalized (uids, resourceVersions, timestamps, ages, the servers' addresses) and must be equal.
A difference fails the test naming the step. The steps cover create, apply, server-side apply with
a conflict, patch (strategic, merge, json), label, get -o (yaml, json, jsonpath, name, custom-columns,
table), get -w with a label selector, finalizers, the status subresource, delete with propagation,
pagination with --chunk-size, explain and wait.

Usage: kubectl_scenario_real.py C5C3_SIM SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import KUBECTL, eventually, kubectl, log, on_both_servers, report_differences, run_main  # noqa: E402,E501

NS = "scenario"
VHOST = f"""apiVersion: c5c3.io/v1alpha1
kind: RabbitMQVhost
metadata:
  name: vh
  namespace: {NS}
spec:
  controlPlaneRef: {{name: cp-absent, namespace: {NS}}}
"""


def cm(name, labels="", data="a: '1'", extra=""):
    return (f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: {NS}\n"
            f"{labels}{extra}data:\n  {data}\n")


# (step, kubectl arguments, stdin). Steps run in order on each server.
STEPS = [
    ("create namespace", ["create", "namespace", NS], None),
    ("create configmap", ["-n", NS, "create", "configmap", "one", "--from-literal=a=1"], None),
    ("create existing", ["-n", NS, "create", "configmap", "one", "--from-literal=a=1"], None),
    ("apply new", ["apply", "-f", "-"], cm("two", "  labels: {tier: web}\n")),
    ("apply unchanged", ["apply", "-f", "-"], cm("two", "  labels: {tier: web}\n")),
    ("apply changed", ["apply", "-f", "-"], cm("two", "  labels: {tier: web}\n", "a: '2'")),
    ("get applied yaml", ["-n", NS, "get", "configmap", "two", "-o", "yaml"], None),
    ("ssa create", ["apply", "--server-side", "--field-manager=alice", "-f", "-"], cm("three", data="a: x")),
    ("ssa same manager", ["apply", "--server-side", "--field-manager=alice", "-f", "-"], cm("three", data="a: 'y'")),
    ("ssa conflict", ["apply", "--server-side", "--field-manager=bob", "-f", "-"], cm("three", data="a: z")),
    ("ssa force", ["apply", "--server-side", "--field-manager=bob", "--force-conflicts", "-f", "-"],
     cm("three", data="a: z")),
    ("ssa managed fields", ["-n", NS, "get", "configmap", "three", "--show-managed-fields", "-o",
                            "jsonpath={range .metadata.managedFields[*]}{.manager} {.operation} {.fieldsV1}{'\\n'}{end}"],
     None),
    ("patch strategic", ["-n", NS, "patch", "configmap", "one", "-p", '{"data":{"b":"2"}}'], None),
    ("patch merge", ["-n", NS, "patch", "configmap", "one", "--type=merge", "-p", '{"data":{"a":null}}'], None),
    ("patch json", ["-n", NS, "patch", "configmap", "one", "--type=json",
                    "-p", '[{"op":"add","path":"/data/c","value":"3"}]'], None),
    ("patch json failing test", ["-n", NS, "patch", "configmap", "one", "--type=json",
                                 "-p", '[{"op":"test","path":"/data/c","value":"4"}]'], None),
    ("patch no change", ["-n", NS, "patch", "configmap", "one", "-p", '{"data":{"b":"2"}}'], None),
    ("patch missing", ["-n", NS, "patch", "configmap", "nope", "-p", '{"data":{"b":"2"}}'], None),
    ("label", ["-n", NS, "label", "configmap", "one", "tier=web"], None),
    ("label no overwrite", ["-n", NS, "label", "configmap", "one", "tier=db"], None),
    ("label overwrite", ["-n", NS, "label", "configmap", "one", "tier=db", "--overwrite"], None),
    ("label remove", ["-n", NS, "label", "configmap", "one", "tier-"], None),
    ("get yaml", ["-n", NS, "get", "configmap", "one", "-o", "yaml"], None),
    ("get json", ["-n", NS, "get", "configmap", "one", "-o", "json"], None),
    ("get jsonpath", ["-n", NS, "get", "configmap", "one", "-o", "jsonpath={.data}"], None),
    ("get name", ["-n", NS, "get", "configmaps", "-l", "tier", "-o", "name"], None),
    ("get custom-columns", ["-n", NS, "get", "configmaps", "-o",
                            "custom-columns=NAME:.metadata.name,A:.data.a,TIER:.metadata.labels.tier"], None),
    ("get table", ["-n", NS, "get", "configmaps", "two", "three"], None),
    ("get table labels", ["-n", NS, "get", "configmaps", "two", "--show-labels", "-L", "tier"], None),
    ("get missing", ["-n", NS, "get", "configmap", "nope"], None),
    ("get bad selector", ["-n", NS, "get", "configmaps", "-l", "tier in (web"], None),
    ("field selector", ["-n", NS, "get", "configmaps", "--field-selector", "metadata.name=two", "-o", "name"], None),
    ("create cr", ["apply", "-f", "-"], VHOST),
    ("cr generation", ["-n", NS, "get", "rabbitmqvhost", "vh", "-o", "jsonpath={.metadata.generation}"], None),
    ("status patch", ["-n", NS, "patch", "rabbitmqvhost", "vh", "--subresource=status", "--type=merge",
                      "-p", '{"status":{"observedGeneration":1,"conditions":[{"type":"Ready","status":"True",'
                            '"reason":"Ready","message":"ok","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}'],
     None),
    ("status ignores spec", ["-n", NS, "patch", "rabbitmqvhost", "vh", "--subresource=status", "--type=merge",
                             "-p", '{"spec":{"passwordGeneration":5}}'], None),
    ("main ignores status", ["-n", NS, "patch", "rabbitmqvhost", "vh", "--type=merge",
                             "-p", '{"status":{"observedGeneration":9}}'], None),
    ("cr after status", ["-n", NS, "get", "rabbitmqvhost", "vh", "-o",
                         "jsonpath={.metadata.generation} {.spec.passwordGeneration} {.status.observedGeneration}"],
     None),
    ("spec patch bumps generation", ["-n", NS, "patch", "rabbitmqvhost", "vh", "--type=merge",
                                     "-p", '{"spec":{"passwordGeneration":2}}'], None),
    ("cr generation 2", ["-n", NS, "get", "rabbitmqvhost", "vh", "-o", "jsonpath={.metadata.generation}"], None),
    ("wait condition", ["-n", NS, "wait", "--for=condition=Ready", "rabbitmqvhost/vh", "--timeout=20s"], None),
    ("wait jsonpath", ["-n", NS, "wait", "--for=jsonpath={.data.b}=2", "configmap/one", "--timeout=20s"], None),
    ("get cr table", ["-n", NS, "get", "rabbitmqvhosts"], None),
    ("explain cr", ["explain", "rabbitmqvhosts.spec.rotation"], None),
    ("explain builtin", ["explain", "configmap.data"], None),
    ("explain recursive", ["explain", "rabbitmqvhosts.spec", "--recursive"], None),
    ("finalizer create", ["apply", "-f", "-"], cm("held", extra="  finalizers: [example.com/hold]\n")),
    ("finalizer delete", ["-n", NS, "delete", "configmap", "held", "--wait=false"], None),
    ("finalizer held", ["-n", NS, "get", "configmap", "held", "-o",
                        "jsonpath={.metadata.finalizers} {.metadata.deletionGracePeriodSeconds}"], None),
    ("finalizer held has deletionTimestamp", ["-n", NS, "get", "configmap", "held", "-o",
                                              "jsonpath={.metadata.deletionTimestamp}"], None),
    ("finalizer add refused", ["-n", NS, "patch", "configmap", "held", "--type=json",
                               "-p", '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/more"}]'],
     None),
    ("finalizer release", ["-n", NS, "patch", "configmap", "held", "--type=merge",
                           "-p", '{"metadata":{"finalizers":null}}'], None),
    ("wait delete", ["-n", NS, "wait", "--for=delete", "configmap/held", "--timeout=20s"], None),
    ("delete background", ["-n", NS, "delete", "configmap", "two", "--cascade=background"], None),
    ("delete orphan", ["-n", NS, "delete", "configmap", "three", "--cascade=orphan", "--wait=false"], None),
    ("delete missing", ["-n", NS, "delete", "configmap", "nope"], None),
    ("delete ignore missing", ["-n", NS, "delete", "configmap", "nope", "--ignore-not-found"], None),
    ("many", ["-n", NS, "create", "-f", "-"], "".join(
        "---\n" + cm(f"page-{i}", "  labels: {page: 'yes'}\n") for i in range(7))),
    ("chunked", ["-n", NS, "get", "configmaps", "-l", "page", "--chunk-size=2", "-o", "name"], None),
    ("chunked table", ["-n", NS, "get", "configmaps", "-l", "page", "--chunk-size=3", "-o",
                       "custom-columns=NAME:.metadata.name"], None),
    ("raw page 1", ["get", "--raw", f"/api/v1/namespaces/{NS}/configmaps?labelSelector=page&limit=3"], None),
    ("delete by selector", ["-n", NS, "delete", "configmaps", "-l", "page"], None),
    ("delete cr", ["-n", NS, "delete", "rabbitmqvhost", "vh"], None),
]


def normalize(text, servers):
    for s in servers:
        text = text.replace(s, "<server>")
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uid>", text)
    text = re.sub(r'("?resourceVersion"?:\s*)"?\d+"?', r"\1<rv>", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "<time>", text)
    text = re.sub(r'"continue":\s*"[^"]*"', '"continue":"<token>"', text)
    # Ages in tables ("5s", "2m3s", "<invalid>").
    text = re.sub(r"(?<=\s)(\d+[smhd])+(?=\s|$)", "<age>", text)
    text = re.sub(r"(?<=\s)<invalid>(?=\s|$)", "<age>", text)
    # Table columns are as wide as their widest cell: an age of 9s beside one of 10s shifts them.
    text = re.sub(r"(?<=\S) {2,}", "  ", text)
    return text


def comparable(name, stdout):
    """What of a step's output is compared beyond normalize(): raw JSON with sorted keys (key
    order is the server's serialization, not its meaning); for `explain` of a built-in kind,
    the structure without the description text (the emulator does not copy kube's API
    documentation: see tests/real/README.md)."""
    if name.startswith("raw ") and stdout.strip():
        return json.dumps(json.loads(stdout), sort_keys=True)
    if name == "explain builtin":
        return stdout.split("DESCRIPTION:")[0]
    return stdout


def run_steps(kubeconfig, servers):
    out = []
    for name, args, stdin in STEPS:
        r = kubectl(kubeconfig, *args, stdin=stdin, timeout=60)
        out.append((name, r.returncode, normalize(comparable(name, r.stdout), servers), normalize(r.stderr, servers)))
    return out


def watch(kubeconfig, servers, write):
    """`get -w -l tier=web`: the lines seen while write() changes matching and other objects.
    The object w0 exists before, so its line shows that the watch is established."""
    kubectl(kubeconfig, "apply", "-f", "-", stdin=cm("w0", "  labels: {tier: web}\n"), check=True)
    p = subprocess.Popen([KUBECTL, "--kubeconfig", kubeconfig, "-n", NS, "get", "configmaps", "-w",
                          "-l", "tier=web", "--output-watch-events"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(iter(p.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        eventually(lambda: any("w0" in line for line in lines), "the watch's first line", 30)
        write()
        eventually(lambda: sum(line.startswith("DELETED") for line in lines) == 2, "two DELETED events", 30)
    finally:
        p.terminate()
        p.wait(10)
    reader.join(10)
    return [normalize(line.rstrip("\n"), servers) for line in lines]


def watch_writes(kubeconfig):
    def write():
        for stdin in (cm("w1", "  labels: {tier: web}\n"), cm("w2", "  labels: {tier: db}\n"),
                      cm("w1", "  labels: {tier: web}\n", "a: '2'")):
            kubectl(kubeconfig, "apply", "-f", "-", stdin=stdin, check=True)
        kubectl(kubeconfig, "-n", NS, "delete", "configmap", "w2", "w1", "w0", check=True)
    return write


def main(sim, src):
    def body(both):
        t0 = time.time()
        on_real = run_steps(both.real_kc, both.servers)
        on_sim = run_steps(both.sim_kc, both.servers)
        log(f"{len(STEPS)} steps on both servers in {time.time() - t0:.1f}s")
        differences = []
        for (name, rc_r, out_r, err_r), (_, rc_s, out_s, err_s) in zip(on_real, on_sim):
            if (rc_r, out_r, err_r) != (rc_s, out_s, err_s):
                differences.append(f"step '{name}' differs:\n  real:     rc={rc_r} out={out_r!r} err={err_r!r}\n"
                                   f"  emulator: rc={rc_s} out={out_s!r} err={err_s!r}")
        w_real = watch(both.real_kc, both.servers, watch_writes(both.real_kc))
        w_sim = watch(both.sim_kc, both.servers, watch_writes(both.sim_kc))
        if w_real != w_sim:
            differences.append(f"step 'get -w with a selector' differs:\n  real:     {w_real}\n  emulator: {w_sim}")
        report_differences(differences, len(STEPS) + 1)

    on_both_servers("c5c3-real-kubectl-", sim, src, body)


if __name__ == "__main__":
    run_main(lambda: main(*sys.argv[1:3]))
