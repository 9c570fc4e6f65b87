"""e2e: a rotation due while its order changes hands happens once (issue 17).

Three replicas share N RabbitMQVhost orders with a 1 minute rotation schedule (grace 10 s; 1m is the
shortest interval the CRD admits). Just before the
first rotations are due, replica-a stops (SIGTERM: its orders move at once) and replica-d joins (the ring
moves a quarter of them again), so the due times fall inside the handoffs: the old owner's rotation timer
goes with its actor, the new owner's first pass finds the rotation due (or arms its own timer for it).
Oracle, per order, from its own status once every order has rotated: with g0 and due0 (passwordGeneration and
nextRotation before), g and lastRotation after, 1 <= g - g0 <= 1 + floor((lastRotation - due0) / interval):
the rotation happened (not lost with the moved timer) and no due time rotated twice (two owners, or a new
owner repeating the old one's switch). Every order Ready, held by a live replica, 0 double writers.

Usage: shard_rotation_e2e.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR [ORDERS]
"""
import calendar
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shard_e2e import Scenario  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from e2e import eventually, log  # noqa: E402

INTERVAL = 60  # seconds, the CRD's shortest: the orders converge in a few seconds (under ASan on 2 busy cores),
# which leaves the due times well ahead of them; the check below fails, rather than passes, if they come too late.
ROTATED_LIMIT = 480  # seconds for every order to rotate once the handoffs started


def epoch(rfc3339):
    return calendar.timegm(time.strptime(rfc3339.replace("Z", "").split(".")[0], "%Y-%m-%dT%H:%M:%S"))


class Rotation(Scenario):
    def statuses(self):
        return {o["metadata"]["name"]: o.get("status") or {} for o in self.orders()}

    def run(self):
        self.start_cluster()
        for name in ("replica-a", "replica-b", "replica-c"):
            self.start_replica(name)
        self.create_orders({"rotation": {"interval": f"{INTERVAL // 60}m", "gracePeriod": "10s"}})
        self.wait_converged(["replica-a", "replica-b", "replica-c"], "3 replicas")
        before = {n: (s["passwordGeneration"], epoch(s["nextRotation"])) for n, s in self.statuses().items()}
        first_due = min(d for _, d in before.values())
        log(f"first rotation due in {first_due - time.time():.0f} s")
        if first_due - time.time() < 4:
            raise AssertionError("the orders converged too late to move them before their rotation is due "
                                 f"({first_due - time.time():.0f} s left)")
        eventually(lambda: time.time() >= first_due - 3, "3 s before the first rotation is due", INTERVAL)

        log("SIGTERM to replica-a, replica-d joins")
        self.replicas["replica-a"].send_signal(signal.SIGTERM)
        self.start_replica("replica-d")
        if self.replicas["replica-a"].wait(60) != 0:
            raise AssertionError("replica-a did not stop cleanly")
        live = ["replica-b", "replica-c", "replica-d"]

        def rotated():
            now = self.statuses()
            return all(s.get("passwordGeneration", 0) > before[n][0] for n, s in now.items()) and now

        after = eventually(rotated, "every order rotated once", ROTATED_LIMIT, interval=1)
        self.wait_converged(live, "after the handoffs")
        wrong = []
        for n, s in after.items():
            g0, due0 = before[n]
            g, last = s["passwordGeneration"], epoch(s["lastRotation"])
            allowed = 1 + max(0, (last - due0)) // INTERVAL
            if not 1 <= g - g0 <= allowed:
                wrong.append(f"{n}: generation {g0} -> {g}, due {due0}, lastRotation {last} (at most {allowed})")
        if wrong:
            raise AssertionError(f"{len(wrong)} orders rotated other than once: {wrong[:5]}")
        log(f"{len(after)} orders rotated once across the handoffs")
        self.assert_no_double_writers("rotation during handoffs")


if __name__ == "__main__":
    sys.exit(Rotation(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 30).main())
