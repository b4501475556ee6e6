"""How fast the scheduling run of a snapshot without a capacity can be in CPython: the essential
work of every step and nothing else, on the nocap-pods input that run.py times prio on.

    python benchmarks/bound.py [--asks 1000000] [--queues 10000] [--dump FILE]

It reads the same generated config and snapshot (generate.py's nocap-pods shape, cached under
benchmarks/.cache as run.py caches it) and schedules them the way prio does for that shape:
parents and leaves keyed by (priority, usage, more pending, name) in a heap per parent, a leaf's
applications by (priority, submission or usage, id), each application's asks by priority, every
priority kept in a counted max-heap and reported up the path with its queue's offset and fence,
one result tuple a step with the priority changes. It leaves out everything this shape never
needs: other resource types, maxes and guarantees, ties, set-aside asks, stale-entry checks, the
general walk. So its time is a floor under any pure-Python implementation of that order, and the
order is prio's own (`--dump` writes it; tests/packaging/test_benchmarks.py compares it with
`prio simulate`). It prints the time of the loop alone: loading and writing are not in it.
"""
from __future__ import annotations

import argparse
import gc
import heapq
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import inputs  # noqa: E402

MIN = -2**31


class Queue:
    __slots__ = ("name", "path", "parent", "offset", "fenced", "fair", "heap", "pending", "allocated",
                 "counts", "maxheap", "max", "reported")

    def __init__(self, name: str, parent: Queue | None, props: dict):
        self.name, self.parent = name, parent
        self.path = name if parent is None else f"{parent.path}.{name}"
        self.offset = int(props.get("priority.offset", 0))
        self.fenced = props.get("priority.policy") == "fence"
        self.fair = props.get("application.sort.policy") == "fair"
        self.heap: list = []
        self.pending = self.allocated = 0
        self.counts: dict = {}
        self.maxheap: list = []
        self.max = self.reported = MIN

    def add(self, v: int) -> None:
        c = self.counts.get(v, 0)
        self.counts[v] = c + 1
        if c == 0:
            heapq.heappush(self.maxheap, -v)
        if v > self.max:
            self.max = v

    def report(self) -> int:
        if self.max == MIN:
            return MIN
        return self.offset if self.fenced else self.max + self.offset


class App:
    __slots__ = ("id", "leaf", "prios", "ids", "next", "prio", "usage", "order")


def load(queues_path: str, snapshot_path: str) -> tuple[Queue, list]:
    import yaml

    with open(queues_path) as fh:
        conf = yaml.load(fh, Loader=yaml.CSafeLoader)
    root = Queue("root", None, {})
    leaves = {}
    for p in conf["partitions"][0]["queues"][0]["queues"]:
        parent = Queue(p["name"], root, p.get("properties") or {})
        for l in p["queues"]:
            leaf = Queue(l["name"], parent, l.get("properties") or {})
            leaves[leaf.path] = leaf
    with open(snapshot_path) as fh:
        data = json.load(fh)
    apps = []
    for order, a in enumerate(data["applications"]):
        app = App()
        app.id, app.leaf, app.next, app.usage, app.order = a["id"], leaves[a["queue"]], 0, 0, order
        asks = sorted(((k["priority"], n) for n, k in enumerate(a["asks"], 1)), key=lambda t: -t[0])
        app.prios = [p for p, _ in asks] + [MIN]
        app.ids = [f"{app.id}-{n}" for _, n in asks]
        app.prio = app.prios[0]
        apps.append(app)
    return root, apps


def schedule(root: Queue, apps: list) -> list:
    """The scheduling run: every step, top-down, the first child of each heap, then the path
    updated and re-keyed."""
    for app in apps:
        leaf = app.leaf
        n = len(app.ids)
        q = leaf
        while q is not None:
            q.pending += n
            q = q.parent
        leaf.add(app.prio)
        heapq.heappush(leaf.heap, (-app.prio, 0 if leaf.fair else app.order, app.id, app))
    tree: dict = {}  # parent -> its leaves with applications (dicts keep the order)
    for app in apps:
        tree.setdefault(app.leaf.parent, {})[app.leaf] = None
    for p, leaves in tree.items():
        for leaf in leaves:
            leaf.reported = leaf.report()
            p.add(leaf.reported)
            heapq.heappush(p.heap, (-leaf.reported, 0, -leaf.pending, leaf.name, leaf))
        p.reported = p.report()
        root.add(p.reported)
        heapq.heappush(root.heap, (-p.reported, 0, -p.pending, p.name, p))

    pop, push = heapq.heappop, heapq.heappush
    steps = []
    n = 0
    rheap = root.heap
    while rheap:
        parent = pop(rheap)[4]
        leaf = pop(parent.heap)[4]
        app = pop(leaf.heap)[3]
        i = app.next
        app.next = i + 1
        app.usage += 1
        for q in (leaf, parent, root):
            q.pending -= 1
            q.allocated += 1
        n += 1
        changes = []
        nxt = app.prios[i + 1]
        if nxt != app.prio:  # the application's priority changes: up the path while reports change
            old, new = app.prio, nxt
            app.prio = nxt
            q = leaf
            while True:
                counts = q.counts
                c = counts[old] - 1
                if c:
                    counts[old] = c
                else:  # the value leaves: the max too, when it was the max
                    del counts[old]
                    if old == q.max:
                        h = q.maxheap
                        while h and -h[0] not in counts:
                            pop(h)
                        q.max = -h[0] if h else MIN
                if new != MIN:
                    q.add(new)
                rep = q.report()
                if rep == q.reported or q.parent is None:
                    q.reported = rep
                    break
                changes.append((q.path, None if q.reported == MIN else q.reported, None if rep == MIN else rep))
                old, new, q.reported = q.reported, rep, rep
                q = q.parent
        if nxt != MIN:
            push(leaf.heap, (-nxt, app.usage if leaf.fair else app.order, app.id, app))
        if leaf.pending:
            push(parent.heap, (-leaf.reported, leaf.allocated, -leaf.pending, leaf.name, leaf))
        if parent.pending:
            push(rheap, (-parent.reported, parent.allocated, -parent.pending, parent.name, parent))
        steps.append((n, leaf.path, app.id, app.ids[i], app.prios[i], changes))
    return steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--asks", type=int, default=1_000_000)
    ap.add_argument("--queues", type=int, default=10_000)
    ap.add_argument("--dir", default=os.path.join(HERE, ".cache"))
    ap.add_argument("--dump", help="write the steps, one JSON array a line")
    a = ap.parse_args()
    q, s = inputs(a.dir, "nocap-pods", a.queues, a.asks)
    root, apps = load(q, s)
    gc.disable()  # as prio pauses it while a run builds millions of objects
    t = time.perf_counter()
    steps = schedule(root, apps)
    dt = time.perf_counter() - t
    print(f"bound nocap-pods: {len(steps)} steps in {dt:.2f} s, {dt / max(1, len(steps)) * 1e6:.1f} us a step "
          f"(the scheduling loop alone)")
    if a.dump:
        with open(a.dump, "w") as fh:
            for st in steps:
                fh.write(json.dumps(st) + "\n")


if __name__ == "__main__":
    main()
