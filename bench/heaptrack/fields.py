#!/usr/bin/python3
"""Which kinds' documents and which of their fields take the informers' space: the objects of a running
emulator (kubectl get -o json over a kubeconfig), by kind and by field path, in bytes of compact JSON per
order (managedFields left out: the informers strip them), the counterpart of subsystems.py's documents row.

usage: fields.py KUBECONFIG ORDERS [--depth D] [--top N] [--kinds a,b,...]

A field's bytes are those of its member name and value as compact JSON; a path's row sums it over every
object of the kind (array elements as `[]`), nested rows counting inside their parents'."""
import argparse
import collections
import json
import subprocess

KINDS = ["rabbitmqvhosts.c5c3.io", "vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
         "pushsecrets.external-secrets.io", "secrets", "rabbitmqclusters.rabbitmq.com",
         "secretstores.external-secrets.io", "clustersecretstores.external-secrets.io", "controlplanes.c5c3.io"]


def size(v):
    return len(json.dumps(v, separators=(",", ":")))


def walk(v, path, depth, out):
    if depth == 0:
        return
    if isinstance(v, dict):
        for k, x in v.items():
            p = f"{path}.{k}" if path else k
            out[p] += size(k) + 1 + size(x)
            walk(x, p, depth - 1, out)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + "[]", depth, out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kubeconfig")
    ap.add_argument("orders", type=int)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--kinds", default=",".join(KINDS))
    a = ap.parse_args()
    print(f"| kind | objects | bytes per order (JSON) |\n|---|---|---|")
    rows = []
    for kind in a.kinds.split(","):
        r = subprocess.run(["/usr/bin/kubectl", "--kubeconfig", a.kubeconfig, "get", kind, "-A", "-o", "json"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            continue
        items = json.loads(r.stdout)["items"]
        fields, total = collections.Counter(), 0
        for o in items:
            o.get("metadata", {}).pop("managedFields", None)
            total += size(o)
            walk(o, "", a.depth, fields)
        print(f"| {kind} | {len(items)} | {total / a.orders:.0f} |")
        rows.append((kind, fields))
    for kind, fields in rows:
        print(f"\n{kind}: bytes per order by field")
        for p, n in sorted(fields.items(), key=lambda x: -x[1])[:a.top]:
            print(f"  {n / a.orders:8.0f}  {p}")


if __name__ == "__main__":
    main()
