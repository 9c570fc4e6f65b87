"""real: the real RabbitMQ messaging topology operator in place of the simulated one.

A real kube-apiserver (tools/real-cluster), a real RabbitMQ on loopback (tools/rabbitmq-loopback),
the real messaging-topology-operator (tools/topology-operator, its own CRDs for the topology kinds),
`c5c3-sim world --no-topology-operator` simulating only the RabbitmqCluster (its status and
default-user Secret; the annotation rabbitmq.com/operator-connection-uri names the loopback
broker's management API) and External Secrets, and c5c3-operator. An order converges, the
delivered transport_url opens an AMQP connection (pika) on the vhost the real operator made on
the broker, and deleting the order (deletionPolicy Delete) makes the real operator remove it.

Usage: topology_operator_real.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR   (as root: the broker)
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rabbitmq_e2e"))
from operator_rabbitmq_e2e import amqp_opens, management  # noqa: E402
from harness import Missing, Procs, RealCluster, Workdir, eventually, kubectl, log, require_file, run_main, stop_all  # noqa: E402,E501

TOPOLOGY_KINDS = {"vhosts", "users", "permissions"}


def get_json(kc, *args):
    r = kubectl(kc, "get", *args, "-o", "json")
    return json.loads(r.stdout) if r.returncode == 0 else None


def condition(o, type_):
    for c in ((o or {}).get("status") or {}).get("conditions") or []:
        if c["type"] == type_:
            return c
    return None


def install_crds(kc, src, topology_crds):
    """deploy/crds, sim/crds without the topology kinds, and the real operator's CRDs."""
    kubectl(kc, "apply", "--server-side", "-f", os.path.join(src, "deploy", "crds"), check=True, timeout=120)
    for f in sorted(f for f in os.listdir(os.path.join(src, "sim", "crds")) if f.endswith(".yaml")):
        doc = yaml.safe_load(open(os.path.join(src, "sim", "crds", f)))
        if doc["spec"]["group"] == "rabbitmq.com" and doc["spec"]["names"]["plural"] in TOPOLOGY_KINDS:
            continue
        kubectl(kc, "apply", "--server-side", "-f", os.path.join(src, "sim", "crds", f), check=True)
    kubectl(kc, "apply", "--server-side", "-f", topology_crds, check=True, timeout=120)
    kubectl(kc, "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s", check=True)


def main(sim, operator, src):
    if os.geteuid() != 0:
        raise Missing("root (the loopback broker runs as the rabbitmq user)")
    require_file(sim, "c5c3-sim")
    require_file(operator, "c5c3-operator")
    build = os.path.join(src, "tools", "topology-operator", "build")
    r = subprocess.run([build], capture_output=True, text=True, timeout=1800)
    if r.returncode != 0:
        raise Missing(f"the messaging-topology-operator build: {r.stderr.strip()}")
    topology_bin = r.stdout.strip()
    topology_crds = subprocess.run([build, "--crds"], capture_output=True, text=True, check=True).stdout.strip()

    work = Workdir("c5c3-real-topology-")
    procs = Procs(work.path)
    real = RealCluster(src, work.path)
    loopback = os.path.join(src, "tools", "rabbitmq-loopback")
    broker_dir = os.path.join(work.path, "broker")
    os.mkdir(broker_dir)
    broker = None
    try:
        b = subprocess.run([loopback, "start", broker_dir], capture_output=True, text=True, timeout=300)
        if b.returncode != 0:
            raise Missing(f"the loopback broker did not start: {b.stderr.strip()}")
        broker = dict(line.split("=", 1) for line in b.stdout.split())
        mgmt = broker["RABBITMQ_MANAGEMENT_URL"]
        kc = real.start()
        install_crds(kc, src, topology_crds)
        samples = os.path.join(src, "deploy", "samples")
        for f in ("00-namespaces.yaml", "10-controlplane.yaml", "world/20-clustersecretstore.yaml"):
            kubectl(kc, "apply", "-f", os.path.join(samples, f), check=True)
        # The RabbitmqCluster, annotated so the real operator reaches the loopback broker.
        rmq = yaml.safe_load(open(os.path.join(samples, "world", "10-rabbitmqcluster.yaml")))
        rmq["metadata"].setdefault("annotations", {})["rabbitmq.com/operator-connection-uri"] = mgmt
        kubectl(kc, "apply", "-f", "-", stdin=yaml.safe_dump(rmq), check=True)
        kubectl(kc, "create", "namespace", "c5c3-system", check=True)

        password_file = os.path.join(work.path, "admin-password")
        with open(password_file, "w") as f:
            f.write(broker["RABBITMQ_ADMIN_PASSWORD"])
        procs.start("world", [sim, "world", "--kubeconfig", kc, "--no-topology-operator",
                              "--rabbitmq-management-url", mgmt,
                              "--rabbitmq-admin-user", broker["RABBITMQ_ADMIN_USER"],
                              "--rabbitmq-admin-password-file", password_file,
                              "--rabbitmq-host", "127.0.0.1", "--rabbitmq-amqp-port", broker["RABBITMQ_AMQP_PORT"]])
        env = dict(os.environ, KUBECONFIG=kc, OPERATOR_NAMESPACE="c5c3-system", ENABLE_WEBHOOKS="false")
        procs.start("topology-operator", [topology_bin, "--metrics-bind-address=0",
                                          "--health-probe-bind-address=0"], env=env)
        procs.start("operator", [operator, "--kubeconfig", kc, "--namespace", "c5c3-system",
                                 "--metrics-bind-address", "0", "--health-probe-bind-address", "0"])

        t0 = time.time()
        order = ("apiVersion: c5c3.io/v1alpha1\nkind: RabbitMQVhost\nmetadata:\n  name: app\n  namespace: tenant-a\n"
                 "spec:\n  controlPlaneRef: {name: cp, namespace: openstack}\n  deletionPolicy: Delete\n")
        kubectl(kc, "apply", "-f", "-", stdin=order, check=True)

        def ready():
            o = get_json(kc, "-n", "tenant-a", "rabbitmqvhost", "app")
            c = condition(o, "Ready")
            return o if c and c["status"] == "True" else None

        try:
            app = eventually(ready, "tenant-a/app Ready with the real topology operator", 180)
        except AssertionError:
            o = get_json(kc, "-n", "tenant-a", "rabbitmqvhost", "app")
            for kind in ("vhosts", "users", "permissions"):
                print(kind, json.dumps([i.get("status") for i in get_json(kc, "-A", kind + ".rabbitmq.com")["items"]]))
            raise AssertionError(f"not Ready: {json.dumps((o or {}).get('status'))}")
        vhost = app["status"]["vhost"]
        log(f"Ready in {time.time() - t0:.1f}s: vhost {vhost}")
        for kind in ("vhosts", "users", "permissions"):
            for item in get_json(kc, "-A", kind + ".rabbitmq.com")["items"]:
                c = condition(item, "Ready")
                assert c and c["status"] == "True", f"{kind} {item['metadata']['name']}: {item.get('status')}"
        assert management(mgmt, "/api/vhosts/" + urllib.parse.quote(vhost, safe="")) == 200, \
            "the real operator made the vhost on the broker"
        s = get_json(kc, "-n", "tenant-a", "secret", "app-credentials")
        url = base64.b64decode(s["data"]["transport_url"]).decode()
        assert urllib.parse.urlparse(url).path.lstrip("/") == vhost, (url.split("@")[-1], vhost)
        assert amqp_opens(url), "the delivered transport_url opens an AMQP connection"
        log("the delivered transport_url opens an AMQP connection on the vhost the real operator made")

        kubectl(kc, "-n", "tenant-a", "delete", "rabbitmqvhost", "app", "--wait=false", check=True)
        eventually(lambda: kubectl(kc, "-n", "tenant-a", "get", "rabbitmqvhost", "app").returncode != 0,
                   "the order gone", 120)
        eventually(lambda: management(mgmt, "/api/vhosts/" + urllib.parse.quote(vhost, safe="")) == 404,
                   "the real operator removed the vhost from the broker", 60)
        log("deleted: the real operator removed the vhost")
        work.ok = True
    finally:
        stop_all(work, procs, real)
        if broker is not None:
            subprocess.run([loopback, "stop", broker_dir], check=False, timeout=180)
        if work.ok:
            shutil.rmtree(broker_dir, ignore_errors=True)
        work.done()


if __name__ == "__main__":
    run_main(lambda: main(*sys.argv[1:4]))
