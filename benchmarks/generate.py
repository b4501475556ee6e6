"""Generate benchmark inputs: a 10,000-queue config and a snapshot of pending asks.

Usage: python benchmarks/generate.py OUTDIR [--queues 10000] [--asks 1000000] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import os
import random


def generate(outdir: str, queues: int = 10_000, asks: int = 1_000_000, seed: int = 1) -> tuple[str, str]:
    rnd = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    # root -> 100 tenants (some fenced, with offsets) -> leaves (the rest)
    tenants = max(1, min(100, queues // 100))
    per = max(1, (queues - tenants) // tenants)
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []
    for t in range(tenants):
        lines += [f"          - name: tenant-{t}",
                  "            properties:",
                  f"              priority.policy: {'fence' if t % 3 == 0 else 'default'}",
                  f"              priority.offset: \"{rnd.randint(-100, 100)}\"",
                  "            resources:",
                  f"              guaranteed: {{vcore: {rnd.randint(50, 200)}, memory: {rnd.randint(100, 400)}Gi}}",
                  "            queues:"]
        for l in range(per):
            name = f"leaf-{l}"
            leaves.append(f"root.tenant-{t}.{name}")
            lines += [f"              - name: {name}",
                      "                properties:",
                      f"                  application.sort.policy: {'fair' if l % 2 else 'fifo'}",
                      f"                  priority.offset: \"{rnd.randint(-10, 10)}\""]
    qpath = os.path.join(outdir, "queues.yaml")
    with open(qpath, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    classes = [-100, 0, 1000, 2000, 4000]
    apps = []
    n = 0
    i = 0
    while n < asks:
        k = min(asks - n, rnd.randint(1, 40))
        app_asks = [{"priority": rnd.choice(classes), "resources": {"vcore": f"{rnd.choice([250, 500, 1000])}m", "memory": f"{rnd.choice([1, 2, 4])}Gi"}}
                    for _ in range(k)]
        apps.append({"id": f"app-{i}", "queue": rnd.choice(leaves), "asks": app_asks})
        n += k
        i += 1
    # A real partition always has a capacity (root's max is the nodes' total; YuniKorn schedules
    # nothing without nodes): room for every ask, so the step count is the ask count.
    cores = sum(int(a["resources"]["vcore"][:-1]) for app in apps for a in app["asks"]) // 1000
    gib = sum(int(a["resources"]["memory"][:-2]) for app in apps for a in app["asks"])
    capacity = {"vcore": str(cores * 3 // 2 + 1), "memory": f"{gib * 3 // 2 + 1}Gi"}
    spath = os.path.join(outdir, "asks.json")
    with open(spath, "w") as fh:
        json.dump({"partition": "default", "capacity": capacity, "applications": apps}, fh)
    return qpath, spath


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--queues", type=int, default=10_000)
    ap.add_argument("--asks", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(*generate(a.outdir, a.queues, a.asks, a.seed))
