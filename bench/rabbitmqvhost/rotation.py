"""Rotation latency of KeystoneApplicationCredential orders (issue 14, Measure), for
`bench_rabbitmqvhost.py --kind keystoneapplicationcredential`.

Three watches, each on its own thread, started before the orders are created:
  - the orders of the namespace: Ready once, and the due time of each order's first rotation, from its own status
    (generation 1's nextRotation, which the operator computes as min(lastRotation + interval,
    credentialExpiresAt - grace)), its switch to generation 2 (lastRotation) and the end of its grace period
    (previousCredentialGeneration gone at generation >= 2), and when this process first sees generation 2 in it;
  - the K-ORC ApplicationCredentials of the ControlPlane's namespace (the orders' children, by their name
    label): when credential-v2 first appears (the operator minted it) and when K-ORC first reports it Available;
  - the delivered Secrets `<name>-credentials`: when the watch first sees `application_credential_id` change from
    the one first delivered (the new credential delivered), stamped on arrival with this process's clock.
A watch that ends resumes from its last resourceVersion; one that is told 410 (the emulator's history passed it)
lists and watches again from the list, and counts it (a relisted Secret's time is the relist's, not the event's).
"""
import base64
import calendar
import json
import random
import threading
import time

from kubernetes import client, watch

GROUP, VERSION, PLURAL = "c5c3.io", "v1alpha1", "keystoneapplicationcredentials"
SUFFIX = "-credentials"
NAME_LABEL = "c5c3.io/keystoneapplicationcredential-name"


def utc(t):
    return calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%SZ"))


def percentile(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def staggered_intervals(n, shortest, spread, seed=14):
    """n rotation intervals from `shortest` to `shortest + spread` seconds, evenly spaced and shuffled, so that
    orders created (and minted) one after the other have their due times spread over `spread` seconds."""
    out = [shortest + (k * spread) // max(1, n) for k in range(n)]
    random.Random(seed).shuffle(out)
    return out


def _follow(list_call, on_object, counters, key, stop):
    """Lists, then watches from the list's resourceVersion, calling on_object(obj, time) for every object seen."""
    try:
        _follow_until(list_call, on_object, counters, key, stop)
    except Exception:
        if not stop.is_set():  # the run ends: the emulator goes away under the watch
            raise


def _follow_until(list_call, on_object, counters, key, stop):
    while not stop.is_set():
        listed = json.loads(list_call(_preload_content=False).data)
        now = time.time()
        for o in listed["items"]:
            on_object(o, now)
        rv = listed["metadata"]["resourceVersion"]
        w = watch.Watch(return_type="object")  # plain dicts, each event's resourceVersion kept for a resume
        try:
            for ev in w.stream(list_call, resource_version=rv):
                if stop.is_set():
                    w.stop()
                    break
                if ev["type"] in ("ADDED", "MODIFIED"):
                    on_object(ev["raw_object"], time.time())
        except client.exceptions.ApiException as e:
            if e.status != 410:
                raise
            counters[key] += 1


class RotationWatch:
    def __init__(self, ns, cp_ns="openstack"):
        self.lock = threading.Lock()
        self.ready, self.due, self.switched, self.gens, self.swept = set(), {}, {}, {}, set()
        self.first_id, self.delivered = {}, {}
        self.minted, self.available, self.switch_seen = {}, {}, {}
        self.relists = {"orders": 0, "secrets": 0, "credentials": 0}
        self.stop = threading.Event()
        custom, core = client.CustomObjectsApi(), client.CoreV1Api()
        orders = lambda **kw: custom.list_namespaced_custom_object(GROUP, VERSION, ns, PLURAL, **kw)  # noqa: E731
        secrets = lambda **kw: core.list_namespaced_secret(ns, **kw)  # noqa: E731
        creds = lambda **kw: custom.list_namespaced_custom_object(  # noqa: E731
            "openstack.k-orc.cloud", "v1alpha1", cp_ns, "applicationcredentials", label_selector=NAME_LABEL, **kw)
        self.threads = [threading.Thread(target=_follow, args=(orders, self._order, self.relists, "orders", self.stop),
                                         daemon=True),
                        threading.Thread(target=_follow, args=(secrets, self._secret, self.relists, "secrets",
                                                               self.stop), daemon=True),
                        threading.Thread(target=_follow, args=(creds, self._credential, self.relists, "credentials",
                                                               self.stop), daemon=True)]
        for t in self.threads:
            t.start()

    def _order(self, o, t):
        name, st = o["metadata"]["name"], o.get("status") or {}
        conds = {c["type"]: c["status"] for c in st.get("conditions") or []}
        gen = st.get("credentialGeneration", 0)
        with self.lock:
            self.gens[name] = gen
            if conds.get("Ready") == "True":
                self.ready.add(name)
            if gen == 1 and st.get("nextRotation"):
                self.due[name] = utc(st["nextRotation"])
            if gen >= 2 and name in self.due and name not in self.switched and st.get("lastRotation"):
                self.switched[name] = utc(st["lastRotation"])
                self.switch_seen[name] = t
            if gen >= 2 and not st.get("previousCredentialGeneration"):
                self.swept.add(name)

    def _secret(self, s, t):
        name = s["metadata"]["name"]
        if not name.endswith(SUFFIX):
            return
        raw = (s.get("data") or {}).get("application_credential_id")
        if not raw:
            return
        order, cid = name[:-len(SUFFIX)], base64.b64decode(raw).decode()
        with self.lock:
            first = self.first_id.setdefault(order, cid)
            if cid != first and order not in self.delivered:
                self.delivered[order] = t

    def _credential(self, c, t):
        """credential-v2 of an order: first seen (minted) and first seen Available (K-ORC done)."""
        meta = c["metadata"]
        order = (meta.get("labels") or {}).get(NAME_LABEL)
        if not order or not meta["name"].endswith("-credential-v2"):
            return
        available = any(x["type"] == "Available" and x["status"] == "True"
                        for x in (c.get("status") or {}).get("conditions") or [])
        with self.lock:
            self.minted.setdefault(order, t)
            if available:
                self.available.setdefault(order, t)

    def count(self, what):
        with self.lock:
            return len(getattr(self, what))

    def rotated(self, total):
        """Every order delivered its second credential and its grace period is over."""
        with self.lock:
            return len(self.delivered) >= total and len(self.swept) >= total

    def earliest_due(self):
        with self.lock:
            return min(self.due.values()) if self.due else None


def report(w, window_requests, window_seconds, steady_rate, total):
    """The latency from each order's due time to its switch (status, whole seconds) and to its new credential
    delivered (the Secret's watch event), p50/p99/max; the operator's requests per rotation over the window (from
    before the first due time to every grace period over) less the steady-state rate over the same seconds."""
    with w.lock:
        names = [n for n in w.delivered if n in w.due]
        switch = [w.switched[n] - w.due[n] for n in names if n in w.switched]
        deliver = [w.delivered[n] - w.due[n] for n in names]
        rotations = sum(max(0, g - 1) for g in w.gens.values())
    late = [n for n in names if w.delivered[n] - w.due[n] > 5]
    print(f"orders rotated and delivered            {len(names)} of {total}")
    print(f"rotation: due -> switched (lastRotation, whole s)  p50 {percentile(switch, 0.5):.0f} s, "
          f"p99 {percentile(switch, 0.99):.0f} s, max {max(switch):.0f} s")
    print(f"rotation: due -> delivered (Secret watch event)    p50 {percentile(deliver, 0.5):.2f} s, "
          f"p99 {percentile(deliver, 0.99):.2f} s, max {max(deliver):.2f} s, min {min(deliver):.2f} s "
          f"({len(late)} over 5 s)")
    with w.lock:  # where the time goes: the operator's steps and the simulated K-ORC's, stamped on arrival here
        steps = [("due -> minted (operator: timer, pass, create)", w.due, w.minted, True),
                 ("minted -> Available (K-ORC)", w.minted, w.available, False),
                 ("Available -> switched (operator: pass, status)", w.available, w.switch_seen, False),
                 ("switched -> delivered (operator: backup push, Secret)", w.switch_seen, w.delivered, False)]
        for label, a, b, whole in steps:
            d = [b[n] - a[n] for n in names if n in a and n in b]
            if d:
                print(f"  {label:54} p50 {percentile(d, 0.5):.2f} s, p99 {percentile(d, 0.99):.2f} s, "
                      f"max {max(d):.2f} s" + (" (the due time in whole seconds)" if whole else ""))
    extra = {k: v - steady_rate.get(k, 0) * window_seconds for k, v in window_requests.items()}
    print(f"operator requests per rotation          {sum(extra.values()) / max(1, rotations):.2f}  "
          + ", ".join(f"{k} {v / max(1, rotations):.2f}" for k, v in extra.items() if v)
          + f" ({rotations} rotations in {window_seconds:.0f} s, steady state "
          f"{sum(steady_rate.values()):.2f}/s subtracted: the mint, the switch, the backup, the delivery, the sweep)")
    if any(w.relists.values()):
        print("watch relists after 410                 " + ", ".join(f"{k} {v}" for k, v in w.relists.items()))
