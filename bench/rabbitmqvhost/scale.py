"""Orders created fast, for runs of 100,000 (issue 19, Scale): `kubectl create -f` sends one POST at a time
(about 13 ms each here, so 100,000 orders would take over 20 minutes to create); bench_replay sends the same
POSTs over C keep-alive connections (bench/apiserver/replay.hpp), each order's one POST as soon as its
connection is free."""
import json
import os

import yaml

import absorb


def create_by_replay(bin_dir, kubeconfig, work, batch, name, connections):
    """The (kind, yaml) pairs of `batch` created by bench_replay over `connections`; returns its RESULT."""
    path = os.path.join(work, name + ".ndjson")
    with open(path, "w") as f:
        for _, y in batch:
            o = yaml.safe_load(y)
            group, version = o["apiVersion"].split("/")
            target = f"/apis/{group}/{version}/namespaces/{o['metadata']['namespace']}/{o['kind'].lower()}s"
            f.write(json.dumps({"setup": False, "key": target + "/" + o["metadata"]["name"], "method": "POST",
                                "target": target, "contentType": "application/json",
                                "body": json.dumps(o)}) + "\n")
    r = absorb.replay(bin_dir, kubeconfig, work, path, name, connections, watch=False)
    if r["failed"]:
        raise SystemExit(f"{r['failed']} of {len(batch)} creates failed")
    return r
