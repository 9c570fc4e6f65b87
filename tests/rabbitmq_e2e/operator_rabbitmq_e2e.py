"""e2e: the operator, the emulator and the simulated world as separate processes, a real RabbitMQ.

Issue 7, "Proof with a real broker": the delivered transport_url opens an AMQP connection on its vhost;
after a declared rotation the new credential works and the old one keeps working until the grace
period ends, then is refused; deleting the order with deletionPolicy Delete removes the vhost from the
broker, with Retain keeps it.

Usage: operator_rabbitmq_e2e.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR
Runs as root (the loopback broker runs as the rabbitmq user). Debian's /usr/bin/python3 with
python3-kubernetes and python3-pika.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pika
from kubernetes import client, config

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from e2e import Procs, apply_samples, condition, eventually, log  # noqa: E402

GRACE = 6  # seconds: the declared rotation's grace period


def amqp_opens(url):
    try:
        c = pika.BlockingConnection(pika.URLParameters(url.replace("rabbit://", "amqp://", 1)))
        c.channel()
        c.close()
        return True
    except pika.exceptions.AMQPError:
        return False


def management(base, path):
    req = urllib.request.Request(base + path)
    req.add_header("Authorization", "Basic " + base64.b64encode(b"guest:guest").decode())
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def main(sim, operator, src):
    workdir = tempfile.mkdtemp(prefix="c5c3-rmq-e2e-")
    os.chmod(workdir, 0o755)  # the broker runs as the rabbitmq user
    broker_dir = os.path.join(workdir, "broker")
    os.mkdir(broker_dir)
    loopback = os.path.join(src, "tools", "rabbitmq-loopback")
    env = dict(line.split("=", 1) for line in subprocess.run(
        [loopback, "start", broker_dir], check=True, capture_output=True, text=True).stdout.split())
    procs = Procs(workdir)
    ok = False
    try:
        kubeconfig = os.path.join(workdir, "kubeconfig")
        procs.start("apiserver", [sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", kubeconfig,
                                  "--crds", os.path.join(src, "deploy", "crds"),
                                  "--crds", os.path.join(src, "sim", "crds")], "listening on")
        admin_file = os.path.join(workdir, "admin-password")
        with open(admin_file, "w") as f:
            f.write(env["RABBITMQ_ADMIN_PASSWORD"])
        procs.start("world", [sim, "world", "--kubeconfig", kubeconfig,
                              "--rabbitmq-management-url", env["RABBITMQ_MANAGEMENT_URL"],
                              "--rabbitmq-admin-user", env["RABBITMQ_ADMIN_USER"],
                              "--rabbitmq-admin-password-file", admin_file,
                              "--rabbitmq-host", "127.0.0.1",
                              "--rabbitmq-amqp-port", env["RABBITMQ_AMQP_PORT"]])
        procs.start("operator", [operator, "--kubeconfig", kubeconfig, "--namespace", "c5c3-system",
                                 "--metrics-bind-address", "127.0.0.1:0",
                                 "--health-probe-bind-address", "127.0.0.1:0"])
        run_scenario(kubeconfig, src, env)
        ok = True
    finally:
        if not ok:
            procs.dump()
        procs.stop()
        subprocess.run([loopback, "stop", broker_dir], check=False)
    print("operator rabbitmq e2e: ok")


def run_scenario(kubeconfig, src, env):
    apply_samples(kubeconfig, src)
    config.load_kube_config(config_file=kubeconfig)
    api = client.CustomObjectsApi()
    core = client.CoreV1Api()
    grp, ver, plural = "c5c3.io", "v1alpha1", "rabbitmqvhosts"
    mgmt = env["RABBITMQ_MANAGEMENT_URL"]

    def order(name, policy):
        return {"apiVersion": f"{grp}/{ver}", "kind": "RabbitMQVhost",
                "metadata": {"name": name, "namespace": "tenant-a"},
                "spec": {"controlPlaneRef": {"name": "cp", "namespace": "openstack"},
                         "rotation": {"interval": "0s", "gracePeriod": f"{GRACE}s"},
                         "deletionPolicy": policy}}

    def get(name):
        return api.get_namespaced_custom_object(grp, ver, "tenant-a", plural, name)

    def ready(name, generation=None):
        o = get(name)
        c = condition(o, "Ready")
        if not c or c["status"] != "True":
            return None
        if generation and (o.get("status") or {}).get("passwordGeneration") != generation:
            return None
        return o

    def transport_url(name):
        s = core.read_namespaced_secret(f"{name}-credentials", "tenant-a")
        return base64.b64decode(s.data["transport_url"]).decode()

    # Two orders: one deleted with Delete, one with Retain.
    api.create_namespaced_custom_object(grp, ver, "tenant-a", plural, order("app", "Delete"))
    api.create_namespaced_custom_object(grp, ver, "tenant-a", plural, order("keep", "Retain"))
    app = eventually(lambda: ready("app"), "app Ready", 120)
    keep = eventually(lambda: ready("keep"), "keep Ready", 60)
    log(f"Ready: vhost {app['status']['vhost']}, user {app['status']['username']}")
    url1 = transport_url("app")
    assert url1.startswith("rabbit://"), "transport_url scheme"
    parsed = urllib.parse.urlparse(url1)
    assert parsed.path.lstrip("/") == app["status"]["vhost"], (parsed.path, app["status"]["vhost"])
    assert amqp_opens(url1), "the delivered transport_url opens an AMQP connection"
    assert management(mgmt, "/api/vhosts/" + urllib.parse.quote(app["status"]["vhost"], safe="")) == 200

    # A declared rotation: generation 2 works, generation 1 keeps working until the grace ends.
    api.patch_namespaced_custom_object(grp, ver, "tenant-a", plural, "app", {"spec": {"passwordGeneration": 2}})
    rotated = eventually(lambda: ready("app", 2), "app rotated to generation 2", 120)
    assert rotated["status"].get("previousPasswordGeneration") == 1, rotated["status"]
    url2 = eventually(lambda: (lambda u: u if u != url1 else None)(transport_url("app")), "new transport_url", 60)
    assert amqp_opens(url2), "the rotated credential works"
    assert amqp_opens(url1), "the old credential works during the grace period"
    log("rotation: both credentials open; waiting for the grace period to end")
    eventually(lambda: "previousPasswordGeneration" not in (get("app").get("status") or {}),
               "previous* cleared after the grace period", GRACE + 60)
    eventually(lambda: not amqp_opens(url1), "the old credential refused", 30)
    assert amqp_opens(url2), "the new credential still works"
    log("grace ended: old credential refused, new one works")

    # Deletion: Delete removes the vhost from the broker, Retain keeps it.
    vhost_app = urllib.parse.quote(app["status"]["vhost"], safe="")
    vhost_keep = urllib.parse.quote(keep["status"]["vhost"], safe="")
    api.delete_namespaced_custom_object(grp, ver, "tenant-a", plural, "app")
    api.delete_namespaced_custom_object(grp, ver, "tenant-a", plural, "keep")

    def gone(name):
        try:
            get(name)
            return False
        except client.exceptions.ApiException as e:
            return e.status == 404

    eventually(lambda: gone("app") and gone("keep"), "both orders gone (finalizers released)", 120)
    eventually(lambda: management(mgmt, "/api/vhosts/" + vhost_app) == 404, "Delete: vhost removed", 30)
    assert management(mgmt, "/api/vhosts/" + vhost_keep) == 200, "Retain: vhost kept"
    assert not amqp_opens(url2), "the deleted order's user is gone"
    log("deletion: Delete removed the vhost, Retain kept it")


if __name__ == "__main__":
    if os.geteuid() != 0:
        sys.exit("the loopback broker needs root (CI runs as root)")
    main(*sys.argv[1:4])
