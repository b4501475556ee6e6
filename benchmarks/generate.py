"""Generate benchmark inputs: a 10,000-queue config and a snapshot of pending asks, in the shapes
issue 13 names.

Usage: python benchmarks/generate.py OUTDIR [--queues 10000] [--asks 1000000] [--seed 1] [--shape capacity]

Shapes (`SHAPES`):
- capacity: 100 tenants (some fenced, offsets, guaranteed) of leaves (fair and fifo, offsets),
  PriorityClass-like ask priorities, vcore+memory asks and a capacity every ask fits in.
- nocap-pods: what a snapshot without node data looks like: 100 parents x 100 leaves, some
  offsets and fences, ask priorities -100..100, no capacity, no guaranteed, the default
  `{pods: 1}` resources (one resource type).
- nocap-vcore-memory: the same with vcore+memory asks (two resource types).
- equal-priorities: where siblings tie the most: no offsets or fences, every ask at priority 0,
  no capacity, vcore+memory asks (only usage and pending dominance order siblings).

Shapes of issue 27 (`FENCED_SHAPES`, run.py times them at 200,000 asks): a config of 100
parents x 100 leaves (`--queues` counts the leaves here: 10,000 leaves, 10,100 queues under
root), a third of the parents fenced (`priority.policy: fence`, no offset: every 3rd, 34 of
100), a fifth of the leaves with a `priority.offset` (every 5th, -10..10 but never 0), no other
properties; no capacity, no guaranteed, ask priorities uniformly -100..100.
- fenced-pods: `{pods: 1}` asks (one resource type).
- fenced-vcore-memory: vcore+memory asks (two resource types).
The same seed and size give both the same config.
"""
from __future__ import annotations

import argparse
import json
import os
import random

# Bumped whenever the same arguments generate other inputs (cached inputs are named by it).
GENERATION = 2

SHAPES = ("capacity", "nocap-pods", "nocap-vcore-memory", "equal-priorities")
FENCED_SHAPES = ("fenced-pods", "fenced-vcore-memory")


def _config(rnd, queues: int, guaranteed: bool, offsets: bool) -> tuple[list[str], list[str]]:
    # root -> 100 tenants (some fenced, with offsets) -> leaves (the rest)
    tenants = max(1, min(100, queues // 100))
    per = max(1, (queues - tenants) // tenants)
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []
    for t in range(tenants):
        lines += [f"          - name: tenant-{t}",
                  "            properties:",
                  f"              priority.policy: {'fence' if t % 3 == 0 and offsets else 'default'}",
                  f"              priority.offset: \"{rnd.randint(-100, 100) if offsets else 0}\""]
        if guaranteed:
            lines += ["            resources:",
                      f"              guaranteed: {{vcore: {rnd.randint(50, 200)}, memory: {rnd.randint(100, 400)}Gi}}"]
        lines += ["            queues:"]
        for l in range(per):
            name = f"leaf-{l}"
            leaves.append(f"root.tenant-{t}.{name}")
            lines += [f"              - name: {name}",
                      "                properties:",
                      f"                  application.sort.policy: {'fair' if l % 2 else 'fifo'}",
                      f"                  priority.offset: \"{rnd.randint(-10, 10) if offsets else 0}\""]
    return lines, leaves


def _fenced_config(rnd, queues: int) -> tuple[list[str], list[str]]:
    # root -> 100 parents (a third fenced) -> 100 leaves each (a fifth with an offset)
    parents = max(1, min(100, queues // 100))
    per = max(1, queues // parents)
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []
    for t in range(parents):
        lines += [f"          - name: parent-{t}"]
        if t % 3 == 0:
            lines += ["            properties:", "              priority.policy: fence"]
        lines += ["            queues:"]
        for l in range(per):
            name = f"leaf-{l}"
            leaves.append(f"root.parent-{t}.{name}")
            lines += [f"              - name: {name}"]
            if l % 5 == 0:
                lines += ["                properties:",
                          f"                  priority.offset: \"{rnd.choice((-1, 1)) * rnd.randint(1, 10)}\""]
    return lines, leaves


def generate(outdir: str, queues: int = 10_000, asks: int = 1_000_000, seed: int = 1,
             shape: str = "capacity") -> tuple[str, str]:
    rnd = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    nocap = shape != "capacity"
    if shape in FENCED_SHAPES:
        lines, leaves = _fenced_config(rnd, queues)
    else:
        lines, leaves = _config(rnd, queues, guaranteed=not nocap, offsets=shape != "equal-priorities")
    qpath = os.path.join(outdir, "queues.yaml")
    with open(qpath, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    if shape == "equal-priorities":
        classes = [0]
    elif nocap:
        classes = list(range(-100, 101))
    else:
        classes = [-100, 0, 1000, 2000, 4000]
    pods = shape in ("nocap-pods", "fenced-pods")
    apps = []
    n = 0
    i = 0
    while n < asks:
        k = min(asks - n, rnd.randint(1, 40))
        app_asks = []
        for _ in range(k):
            a = {"priority": rnd.choice(classes)}
            if not pods:
                a["resources"] = {"vcore": f"{rnd.choice([250, 500, 1000])}m", "memory": f"{rnd.choice([1, 2, 4])}Gi"}
            app_asks.append(a)
        apps.append({"id": f"app-{i}", "queue": rnd.choice(leaves), "asks": app_asks})
        n += k
        i += 1
    snapshot: dict = {"partition": "default"}
    if not nocap:
        # A real partition always has a capacity (root's max is the nodes' total; YuniKorn
        # schedules nothing without nodes): room for every ask, so the step count is the ask count.
        cores = sum(int(a["resources"]["vcore"][:-1]) for app in apps for a in app["asks"]) // 1000
        gib = sum(int(a["resources"]["memory"][:-2]) for app in apps for a in app["asks"])
        snapshot["capacity"] = {"vcore": str(cores * 3 // 2 + 1), "memory": f"{gib * 3 // 2 + 1}Gi"}
    snapshot["applications"] = apps
    spath = os.path.join(outdir, "asks.json")
    with open(spath, "w") as fh:
        json.dump(snapshot, fh)
    return qpath, spath


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--queues", type=int, default=10_000)
    ap.add_argument("--asks", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shape", choices=SHAPES + FENCED_SHAPES, default="capacity")
    a = ap.parse_args()
    print(*generate(a.outdir, a.queues, a.asks, a.seed, a.shape))
