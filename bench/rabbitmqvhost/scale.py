"""Orders created fast, for runs of 100,000 (issue 19, Scale): `kubectl create -f` sends one POST at a time
(about 13 ms each here, so 100,000 orders would take over 20 minutes to create); bench_replay sends the same
POSTs over C keep-alive connections (bench/apiserver/replay.hpp), each order's one POST as soon as its
connection is free."""
import json
import os

import absorb


def create_by_replay(bin_dir, kubeconfig, work, batch, name, connections, plural_of):
    """The (kind, yaml) pairs of `batch` created by bench_replay over `connections` (plural_of: a kind's
    collection name); returns its RESULT."""
    path = os.path.join(work, name + ".ndjson")
    with open(path, "w") as f:
        for kind in sorted({k for k, _ in batch}):
            collections = absorb.originals_of([y for k, y in batch if k == kind], plural_of(kind))
            for target, objects in collections.items():
                for o in objects:
                    f.write(json.dumps({"setup": False, "key": target + "/" + o["metadata"]["name"],
                                        "method": "POST", "target": target, "contentType": "application/json",
                                        "body": json.dumps(o)}) + "\n")
    r = absorb.replay(bin_dir, kubeconfig, work, path, name, connections, watch=False)
    if r["failed"]:
        raise SystemExit(f"{r['failed']} of {len(batch)} creates failed")
    return r
