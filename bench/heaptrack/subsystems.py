#!/usr/bin/env python3
"""The heap of a heaptrack file by subsystem of the operator: MiB and KiB per order.

usage: subsystems.py FILE.zst ORDERS [--cost leaked|peak] [--top N]

leaked: what was live when the operator was killed (bench/heaptrack/c5c3-operator: the steady state);
peak: what was live at the heap's peak. Each allocation counts for the first subsystem whose marker is
on its stack (allocation site, not holder: a document decoded from a watch event counts as the
informers' whoever holds it later). --top N also prints the N largest project frames."""
import argparse
import collections
import re
import subprocess

RULES = [  # (subsystem, markers), first match wins
    ("informer objects: RapidJSON documents (watch, list)", ["parse_watch_event", "list_page", "k8s::project("]),
    ("write answers (decoded responses a pass or the memo holds)", ["decode_object"]),
    ("write memo", ["write_memo"]),
    ("cluster cache label/field indexes", ["index_labels", "index_fields", "label_index_for"]),
    ("cluster cache map (informer_cache::put)", ["informer_cache::put"]),
    ("informer store map (informer::on_event, on_list)", ["informer::on_event", "informer::on_list"]),
    ("order and controller metrics", ["order_metrics", "controller_metrics", "metrics::"]),
    ("ControlPlane directory (per-order registration)", ["control_plane", "controlplane"]),
    ("order actors: actor, state, pass closure, host maps, timers",
     ["spawn_order_actor", "host_state", "make_runner_pass", "order_state", "named_timers", "pass_context",
      "order_host", "run_state", "plan_and_act", "runtime::detail"]),
    ("CAF clock (request timeouts, delayed messages)", ["thread_safe_actor_clock"]),
    ("TLS and HTTP connections", ["tls", "ssl", "CRYPTO", "OPENSSL", "beast", "transport"]),
    ("CAF other (behaviors, monitors, mailboxes)", ["caf::"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("orders", type=int)
    ap.add_argument("--cost", choices=["leaked", "peak"], default="leaked")
    ap.add_argument("--top", type=int, default=0)
    a = ap.parse_args()
    folded = a.file + f".{a.cost}.folded"
    subprocess.run(["heaptrack_print", "-f", a.file, "--print-peaks", "0", "--print-allocators", "0",
                    "--print-temporary", "0", "--flamegraph-cost-type", a.cost, "-F", folded],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    by_rule, by_frame, total = collections.Counter(), collections.Counter(), 0
    for line in open(folded):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        try:
            n = int(n)
        except ValueError:
            continue
        total += n
        name = next((r for r, keys in RULES if any(k in stack for k in keys)), "other (start-up, libraries)")
        by_rule[name] += n
        ours = [re.sub(r" \(.*\)$", "", f) for f in stack.split(";") if "c5c3::" in f]
        by_frame[ours[-1][:140] if ours else "(no project frame)"] += n
    print(f"{a.cost} heap by subsystem, {a.orders} orders")
    print(f"| subsystem | MiB | KiB per order |\n|---|---|---|")
    for name, v in by_rule.most_common():
        print(f"| {name} | {v / 2**20:.2f} | {v / 1024 / a.orders:.2f} |")
    print(f"| **total** | {total / 2**20:.2f} | {total / 1024 / a.orders:.2f} |")
    for frame, v in by_frame.most_common(a.top):
        print(f"{v / 1024:10.1f} KiB  {frame}")


if __name__ == "__main__":
    main()
