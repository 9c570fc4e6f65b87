"""e2e: three, then four c5c3-operator replicas sharing the orders (issue 17).

c5c3-sim apiserver and c5c3-sim world as processes, N RabbitMQVhost orders, and replicas started with
distinct --shard-name (Leases of --shard-lease-duration 15s, the default). Checked, each time by waiting on conditions:
every order Ready and held (label c5c3.io/shard) by exactly one live replica, every replica holding some;
a 4th replica joins and takes its share; one replica stopped with SIGTERM (its Lease released, its orders
taken over at once) and one with SIGKILL (its Lease runs out first); every order Ready again; one replica
cut off from the API server (every request it makes reset, its watches ended: a partition) until its orders
are the other's, then healed: it rejoins and takes its share back. After each move every child of an order
(Vhost, User, Permission, PushSecret, Secret) carries its order's holder (c5c3.io/shard: the replicas' children
watches are scoped by it; the new holder restamps what the old one stamped). Throughout,
the emulator's double-writer count (GET /sim/doublewriters: a write for an order's status or children by a
replica not holding the order at that moment) stays 0.

Usage: shard_e2e.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR [ORDERS]
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from e2e import Procs, apply_samples, condition, eventually, log  # noqa: E402

NAMESPACE = "c5c3-system"
ORDER_NS = "tenant-a"
LEASE = "15s"
# The orders' children, each labelled with its order's name (and stamped with the order's holder).
CHILD_KINDS = ("vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
               "pushsecrets.external-secrets.io", "secrets")
ORDER_LABEL = "c5c3.io/rabbitmqvhost-name"


class Scenario:
    def __init__(self, sim, operator, src, orders):
        self.sim, self.operator, self.src, self.n = sim, operator, src, orders
        self.workdir = tempfile.mkdtemp(prefix="c5c3-shard-e2e-")
        self.procs = Procs(self.workdir)
        self.kubeconfig = os.path.join(self.workdir, "kubeconfig")
        self.replicas = {}  # name -> Popen
        self.last = ""  # the last convergence check's summary

    def kubectl(self, *args, check=True):
        r = subprocess.run(["/usr/bin/kubectl", "--kubeconfig", self.kubeconfig, *args], capture_output=True,
                           text=True)
        if check and r.returncode != 0:
            raise RuntimeError(f"kubectl {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    def start_replica(self, name):
        self.replicas[name] = self.procs.start(name, [
            self.operator, "--kubeconfig", self.kubeconfig, "--namespace", NAMESPACE, "--shard-name", name,
            "--shard-lease-duration", LEASE, "--metrics-bind-address", "0",
            "--health-probe-bind-address", "0"], "Operator started")

    def orders(self):
        return json.loads(self.kubectl("get", "rabbitmqvhosts", "-n", ORDER_NS, "-o", "json"))["items"]

    def double_writes(self):
        return json.loads(self.kubectl("get", "--raw", "/sim/doublewriters"))

    def assert_no_double_writers(self, when):
        d = self.double_writes()
        if d["count"] != 0:
            raise AssertionError(f"{when}: {d['count']} double writes, e.g. {d['writes'][:5]}")
        log(f"{when}: 0 double writers")

    def assert_faded_before_dropped(self, name, members):
        """The survivor saw the dead replica fade (its Lease unrenewed for 2/3 of the duration: the scoped
        watches widened to its orders) before its ring dropped it."""
        lines = open(self.procs.path(name)).read().splitlines()
        fading = [i for i, line in enumerate(lines) if '"Ring members fading"' in line and '"fading":1' in line]
        dropped = [i for i, line in enumerate(lines)
                   if '"Ring members changed"' in line and f'"members":{members},' in line]
        if not fading or not dropped or fading[-1] > dropped[-1]:
            raise AssertionError(f"{name}: no member faded before the ring dropped it "
                                 f"(fading at lines {fading[-3:]}, dropped at {dropped[-3:]})")
        log(f"{name}: the dead replica faded before the ring dropped it")

    def converged(self, live):
        """Every order Ready (at its generation) and held by exactly one live replica; the holders' counts."""
        items = self.orders()
        held = {r: 0 for r in live}
        seen, not_ready = {}, 0
        for o in items:
            holder = (o["metadata"].get("labels") or {}).get("c5c3.io/shard", "")
            seen[holder] = seen.get(holder, 0) + 1
            ready = condition(o, "Ready")
            if not ready or ready["status"] != "True" or \
                    ready.get("observedGeneration", o["metadata"]["generation"]) != o["metadata"]["generation"]:
                not_ready += 1
            elif holder in held:
                held[holder] += 1
        self.last = f"{len(items)} orders, held {seen}, {not_ready} not Ready"
        ok = len(items) == self.n and not_ready == 0 and sum(held.values()) == self.n and all(held.values())
        return held if ok else None

    def wait_converged(self, live, what, limit=300):
        try:
            held = eventually(lambda: self.converged(live), what, limit, interval=0.5)
        except AssertionError as e:
            raise AssertionError(f"{e}; {self.last}") from None
        log(f"{what}: {held}")
        mean = self.n / len(live)
        log(f"{what}: max/mean {max(held.values()) / mean:.3f}")
        return held

    def children_stamped(self):
        """Every child labelled with an order's name carries that order's holder (c5c3.io/shard)."""
        holders = {o["metadata"]["name"]: (o["metadata"].get("labels") or {}).get("c5c3.io/shard", "")
                   for o in self.orders()}
        wrong, seen = [], 0
        for kind in CHILD_KINDS:
            items = json.loads(self.kubectl("get", kind, "-A", "-l", ORDER_LABEL, "-o", "json"))["items"]
            for c in items:
                labels = c["metadata"].get("labels") or {}
                order = labels.get(ORDER_LABEL)
                if order not in holders:
                    continue
                seen += 1
                if labels.get("c5c3.io/shard", "") != holders[order]:
                    wrong.append(f"{kind} {c['metadata']['namespace']}/{c['metadata']['name']}: "
                                 f"{labels.get('c5c3.io/shard', '(none)')}, its order held by {holders[order]}")
        self.last = f"{seen} children, {len(wrong)} not stamped with their order's holder, e.g. {wrong[:3]}"
        return seen > 0 and not wrong

    def wait_children_stamped(self, what, limit=120):
        try:
            eventually(self.children_stamped, f"{what}: every child stamped with its order's holder", limit,
                       interval=1)
        except AssertionError as e:
            raise AssertionError(f"{e}; {self.last}") from None
        log(f"{what}: {self.last}")

    def raw(self, verb, path, body=None):
        args = [verb, "--raw", path]
        if body is not None:
            f = os.path.join(self.workdir, "raw.json")
            with open(f, "w") as out:
                json.dump(body, out)
            args += ["-f", f]
        return self.kubectl(*args)

    def partition(self, name):
        """Every request of replica `name` reset and its open watches ended (the emulator's client rules)."""
        client = f"c5c3-operator/{name}"
        self.raw("create", "/sim/faults", [{"id": f"partition-{name}", "client": client, "resetConnection": True},
                                           {"id": f"partition-{name}-watches", "client": client,
                                            "expireWatches": True}])

    def heal(self, name):
        for rule in (f"partition-{name}", f"partition-{name}-watches"):
            self.raw("delete", f"/sim/faults/{rule}")

    def leases(self):
        items = json.loads(self.kubectl("get", "leases", "-n", NAMESPACE, "-o", "json"))["items"]
        return {o["metadata"]["name"]: o["spec"].get("holderIdentity", "") for o in items}

    def start_cluster(self):
        """The emulator, the simulated world, the samples and the operator's namespace."""
        src = self.src
        self.procs.start("apiserver", [self.sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out",
                                       self.kubeconfig, "--crds", os.path.join(src, "deploy", "crds"),
                                       "--crds", os.path.join(src, "sim", "crds")], "listening on")
        self.procs.start("world", [self.sim, "world", "--kubeconfig", self.kubeconfig])
        apply_samples(self.kubeconfig, src)
        eventually(lambda: self.kubectl("create", "namespace", NAMESPACE, check=False) is not None and
                   self.kubectl("get", "namespace", NAMESPACE), f"namespace {NAMESPACE}", 60)

    def create_orders(self, spec=None):
        """self.n RabbitMQVhost orders in one apply (their spec: the ControlPlane reference and `spec`)."""
        docs = [{"apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost",
                 "metadata": {"name": f"vhost-{i:04d}", "namespace": ORDER_NS},
                 "spec": {"controlPlaneRef": {"name": "cp", "namespace": "openstack"}, **(spec or {})}}
                for i in range(self.n)]
        path = os.path.join(self.workdir, "orders.json")
        with open(path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": docs}, f)
        # kubectl apply (idempotent), retried: on a loaded machine its OpenAPI read may time out.
        eventually(lambda: self.kubectl("apply", "-f", path, check=False) is not None and
                   len(self.orders()) == self.n, f"{self.n} orders created", 120, tolerate=(Exception,))
        log(f"{self.n} orders created")

    def run(self):
        self.start_cluster()
        for name in ("replica-a", "replica-b", "replica-c"):
            self.start_replica(name)
        self.create_orders()
        self.wait_converged(["replica-a", "replica-b", "replica-c"], "3 replicas")
        self.wait_children_stamped("3 replicas")
        self.assert_no_double_writers("3 replicas")

        self.start_replica("replica-d")
        held = self.wait_converged(["replica-a", "replica-b", "replica-c", "replica-d"], "a 4th joined")
        if held["replica-d"] < self.n / 8:
            raise AssertionError(f"the 4th replica took too small a share: {held}")
        self.assert_no_double_writers("a 4th joined")

        log("SIGTERM to replica-a")
        self.replicas["replica-a"].send_signal(signal.SIGTERM)
        if self.replicas["replica-a"].wait(60) != 0:
            raise AssertionError("replica-a did not stop cleanly")
        eventually(lambda: self.leases().get("replica-a-orders") == "", "replica-a's Lease released", 10)
        self.wait_converged(["replica-b", "replica-c", "replica-d"], "after SIGTERM")
        self.wait_children_stamped("after SIGTERM")
        self.assert_no_double_writers("after SIGTERM")

        log("SIGKILL to replica-b")
        self.replicas["replica-b"].kill()
        self.replicas["replica-b"].wait(10)
        self.wait_converged(["replica-c", "replica-d"], "after SIGKILL (Lease ran out)")
        for name in ("replica-c", "replica-d"):
            self.assert_faded_before_dropped(name, members=2)
        self.wait_children_stamped("after SIGKILL")
        self.assert_no_double_writers("after SIGKILL")

        # A partition: replica-c reaches nothing. Its Lease lapses (it stops its orders first: its Lease
        # counts as held only 2/3 of the duration past its last renewal), replica-d takes every order;
        # healed, replica-c renews its Lease, rejoins the ring and takes its share back.
        log("partition replica-c")
        self.partition("replica-c")
        self.wait_converged(["replica-d"], "replica-c partitioned")
        self.assert_no_double_writers("replica-c partitioned")
        log("heal replica-c")
        self.heal("replica-c")
        self.wait_converged(["replica-c", "replica-d"], "replica-c healed")
        self.wait_children_stamped("replica-c healed")
        self.assert_no_double_writers("replica-c healed")

    def main(self):
        ok = False
        try:
            self.run()
            ok = True
        finally:
            if not ok:
                self.procs.dump(60)
                try:
                    print(json.dumps(self.double_writes())[:3000])
                except Exception as e:  # noqa: BLE001 - diagnostics only
                    print(f"(no double-writer report: {e})")
            self.procs.stop()
            if ok:
                subprocess.run(["rm", "-rf", self.workdir], check=False)
        print("shard e2e: ok")
        return 0


if __name__ == "__main__":
    sys.exit(Scenario(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 300).main())
