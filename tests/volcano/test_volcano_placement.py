"""allocate's node choice from placement.py's per-shape heaps, and the queues served from a heap
on their order key, against the reference that asks every node for every task and scans the
queues with queue_order (Session.scan): random clusters (labels, taints, node selectors,
tolerations, GPUs, a small pod limit, pods running from the start) under configs with preempt
and reclaim (releasing and pipelined room, also before allocate), binpack and capacity replay to the same JSON, ties
and fit-error messages included."""
from __future__ import annotations

import json
import os
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from prio.io.gather import gather
from prio.volcano import load as loader
from prio.volcano import placement, report, session

CONFIGS = {
    "default": None,
    "preempt": ("actions: \"enqueue, allocate, preempt, reclaim, backfill\"\ntiers:\n- plugins:\n  - name: priority\n"
                "  - name: gang\n  - name: conformance\n- plugins:\n  - name: overcommit\n  - name: drf\n"
                "  - name: predicates\n  - name: proportion\n  - name: nodeorder\n"),
    # allocate after preempt and reclaim: room being released, the second gradient
    "preempt-first": ("actions: \"enqueue, preempt, reclaim, allocate, backfill\"\ntiers:\n- plugins:\n  - name: priority\n"
                      "  - name: gang\n- plugins:\n  - name: drf\n  - name: predicates\n  - name: proportion\n"
                      "  - name: nodeorder\n"),
    "binpack": ("actions: \"enqueue, allocate, backfill\"\ntiers:\n- plugins:\n  - name: priority\n  - name: gang\n"
                "- plugins:\n  - name: predicates\n  - name: proportion\n  - name: binpack\n"),
    "capacity": ("actions: \"enqueue, allocate, reclaim, backfill\"\ntiers:\n- plugins:\n  - name: priority\n"
                 "  - name: gang\n- plugins:\n  - name: predicates\n  - name: capacity\n  - name: nodeorder\n"),
}

node_st = st.fixed_dictionaries({
    "cpu": st.sampled_from([2, 4, 8]), "mem": st.sampled_from([4, 8, 16]), "gpu": st.sampled_from([0, 0, 2]),
    "zone": st.sampled_from(["a", "b"]), "taint": st.booleans(), "pods": st.sampled_from([3, 110, 110]),
})
pod_st = st.fixed_dictionaries({
    "cpu": st.sampled_from(["500m", "1", "2", "3"]), "mem": st.sampled_from([1, 2, 4]), "gpu": st.sampled_from([0, 0, 1]),
    "zone": st.sampled_from([None, None, "a"]), "tolerate": st.booleans(), "run": st.sampled_from([None, None, None, 0, 1]),
})
group_st = st.fixed_dictionaries({
    "pods": st.lists(pod_st, min_size=1, max_size=4), "min": st.integers(1, 4), "queue": st.integers(0, 2),
    "prio": st.sampled_from([None, "low", "high"]),
})
cluster_st = st.fixed_dictionaries({
    "nodes": st.lists(node_st, min_size=1, max_size=5), "groups": st.lists(group_st, min_size=1, max_size=6),
    "weights": st.lists(st.integers(1, 3), min_size=3, max_size=3), "config": st.sampled_from(sorted(CONFIGS)),
})


def _yaml(c: dict) -> str:
    docs = ["apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 10\n",
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n"]
    for i, w in enumerate(c["weights"]):
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {{name: q{i}}}\n"
                    f"spec: {{weight: {w}, deserved: {{cpu: '4', memory: 8Gi}}}}\n")
    for i, n in enumerate(c["nodes"]):
        gpu = f", nvidia.com/gpu: '{n['gpu']}'" if n["gpu"] else ""
        taints = "[{key: dedicated, value: x, effect: NoSchedule}]" if n["taint"] else "[]"
        docs.append(f"apiVersion: v1\nkind: Node\nmetadata: {{name: n{i}, labels: {{zone: {n['zone']}}}}}\n"
                    f"spec: {{taints: {taints}}}\n"
                    f"status: {{allocatable: {{cpu: '{n['cpu']}', memory: {n['mem']}Gi, pods: '{n['pods']}'{gpu}}}}}\n")
    for g, grp in enumerate(c["groups"]):
        running = any(p["run"] is not None and p["run"] < len(c["nodes"]) for p in grp["pods"])
        pc = f", priorityClassName: {grp['prio']}" if grp["prio"] else ""
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {{name: g{g}}}\n"
                    f"spec: {{minMember: {min(grp['min'], len(grp['pods']))}, queue: q{grp['queue']}{pc}}}\n"
                    + ("status: {phase: Running}\n" if running else ""))
        for i, p in enumerate(grp["pods"]):
            gpu = f", nvidia.com/gpu: '{p['gpu']}'" if p["gpu"] else ""
            spec = [f"  containers:\n  - name: main\n    resources: {{requests: {{cpu: '{p['cpu']}', memory: {p['mem']}Gi{gpu}}}}}\n"]
            if grp["prio"]:
                spec.append(f"  priorityClassName: {grp['prio']}\n")
            if p["zone"]:
                spec.append(f"  nodeSelector: {{zone: {p['zone']}}}\n")
            if p["tolerate"]:
                spec.append("  tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]\n")
            if p["run"] is not None and p["run"] < len(c["nodes"]):
                spec.append(f"  nodeName: n{p['run']}\n")
            docs.append(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: g{g}-{i}\n"
                        f"  annotations: {{scheduling.k8s.io/group-name: g{g}}}\nspec:\n" + "".join(spec))
    conf = CONFIGS[c["config"]]
    if conf:
        body = "".join("    " + line + "\n" for line in conf.splitlines())
        docs.append("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: volcano-scheduler-configmap}\n"
                    f"data:\n  volcano-scheduler.conf: |\n{body}")
    return "---\n".join(docs)


class _search_stops_early:
    """MIN_NODES_TO_FIND at 1: a cluster of 2 to 5 nodes collects only the first of its
    feasible nodes (num_nodes_to_find: n * 50 // 100, at least 1), as one above 100 nodes does."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __enter__(self):
        self.saved = session.MIN_NODES_TO_FIND
        if self.on:
            session.MIN_NODES_TO_FIND = 1

    def __exit__(self, *exc) -> None:
        session.MIN_NODES_TO_FIND = self.saved


def _simulate(text: str, scan: bool) -> str:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.yaml")
        with open(path, "w") as fh:
            fh.write(text)
        cluster, cfg = loader.load(*gather([path]).objects[0])
    saved = session.Session.scan
    session.Session.scan = scan
    try:
        return json.dumps(report.simulate(cluster, cfg), sort_keys=True)
    finally:
        session.Session.scan = saved


@settings(max_examples=150, deadline=None)
@given(cluster_st, st.booleans())
def test_heaps_place_as_the_scan_does(c, early):
    """With `early` the predicate search stops at the first feasible nodes: the trees against
    the scan that takes the first of them in name order."""
    text = _yaml(c)
    with _search_stops_early(early):
        assert _simulate(text, scan=False) == _simulate(text, scan=True), text


def test_a_shape_evicted_from_the_cache_is_built_again(monkeypatch):
    """More shapes than MAX_SHAPES: the least recently asked is dropped and rebuilt when asked
    again, with the same answers."""
    c = {"nodes": [{"cpu": 8, "mem": 16, "gpu": 0, "zone": "a", "taint": False, "pods": 110}] * 3,
         "groups": [{"pods": [{"cpu": cpu, "mem": mem, "gpu": 0, "zone": None, "tolerate": False, "run": None}] * 2,
                     "min": 1, "queue": q, "prio": None}
                    for q in range(3) for cpu in ("500m", "1", "2") for mem in (1, 2)],
        "weights": [1, 2, 3], "config": "default"}
    monkeypatch.setattr(placement, "MAX_SHAPES", 2)
    text = _yaml(c)
    assert _simulate(text, scan=False) == _simulate(text, scan=True)


def _session(text: str) -> session.Session:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.yaml")
        with open(path, "w") as fh:
            fh.write(text)
        cluster, cfg = loader.load(*gather([path]).objects[0])
    return session.Session(cluster, cfg)


@settings(max_examples=400, deadline=None)
@given(cluster_st, st.lists(st.tuples(st.sampled_from(["release", "pipeline", "allocate", "undo"]), st.integers(0, 99),
                                      st.integers(0, 9)), max_size=12), st.booleans(), st.booleans())
def test_every_task_placed_as_the_scan_places_it_in_any_node_state(c, moves, crowded_first, early):
    """Tasks of every shape asked after running pods start releasing, pending ones are pipelined
    or allocated and allocations undone (each a change to one node): the heaps' node and tie
    equal the scan's at every step, and so do the fit errors; every node's k8s NodeInfo sums
    (requested, non-zero requested) equal their sums over its pods worked out again. With
    `crowded_first` a score that
    prefers the nodes holding the most pods (many ties, and a node with room only once its
    releasing pods are gone scoring above the idle ones: the gradients' order decides). With
    `early` the search stops at the first feasible nodes (the trees instead of the heaps)."""
    with _search_stops_early(early):
        _placed_as_the_scan_places(c, moves, crowded_first)


def _placed_as_the_scan_places(c, moves, crowded_first):
    ssn = _session(_yaml(c))
    if crowded_first:
        ssn.score = lambda t, ns: float(len(ns.tasks))  # type: ignore[method-assign]
    tasks = sorted((t for j in ssn.jobs.values() for t in j.tasks.values()), key=lambda t: t.key)
    nodes = list(ssn.nodes)
    assert ssn.placement is not None

    def check():
        for ns in ssn.nodes.values():  # the kept k8s NodeInfo sums against the node's pods from scratch
            pods = [x.req for x in ns.tasks.values() if x.status != "Releasing"]
            want_req: dict = {}
            for r in pods:
                for k, v in r.items():
                    want_req[k] = want_req.get(k, 0.0) + v
            assert all(abs(ns.requested.get(k, 0.0) - v) < 1e-6 for k, v in want_req.items()), ns.name
            assert all(abs(v) < 1e-6 for k, v in ns.requested.items() if k not in want_req), ns.name
            want_nz = [sum(session._nonzero(r)["cpu"] for r in pods), sum(session._nonzero(r)["memory"] for r in pods)]
            assert [round(x, 3) for x in ns.nonzero] == [round(x, 3) for x in want_nz], ns.name
        for t in tasks:
            if t.status != "Pending":
                continue
            got = ssn.placement.place(t)
            tie = t.tie
            want = ssn._place_scan(t)
            assert (got and got.name, tie) == (want and want.name, t.tie), t.key
            assert ssn.placement.fit_errors(t) == {ns.name: ssn.fit_reasons(t, ns) for ns in ssn.nodes.values()}
    check()
    for kind, ti, ni in moves:
        t = tasks[ti % len(tasks)]
        node = nodes[ni % len(nodes)]
        if kind == "release" and t.status == "Running":
            ssn._set(t, "Releasing", t.node)
        elif kind in ("pipeline", "allocate") and t.status == "Pending":
            ssn._set(t, "Pipelined" if kind == "pipeline" else "Allocated", node)
        elif kind == "undo" and t.status in ("Allocated", "Pipelined", "Releasing"):
            ssn._set(t, "Pending", None)
        check()


def test_num_nodes_to_find_follows_volcanos_formula():
    # every node up to 100; then n * (50 - n // 125) // 100, at least 5% and at least 100
    got = {n: session.num_nodes_to_find(n) for n in (1, 100, 101, 250, 1000, 5000, 10_000, 20_000)}
    assert got == {1: 1, 100: 100, 101: 100, 250: 120, 1000: 420, 5000: 500, 10_000: 500, 20_000: 1000}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 1), st.sampled_from([-3.0, -2.0, -1.0]))), min_size=1, max_size=20),
       st.lists(st.tuples(st.integers(0, 19), st.one_of(st.none(), st.tuples(st.integers(0, 1), st.sampled_from([-3.0, -2.0])))),
                max_size=8), st.integers(1, 21))
def test_the_tree_finds_the_best_of_the_first_k_feasible_nodes(leaves, changes, k):
    tree = placement._Tree(leaves)
    leaves = list(leaves)
    for i, e in changes:
        if i < len(leaves):
            leaves[i] = e
            tree.set(i, e)
    first = [(e, i) for i, e in enumerate(leaves) if e is not None][:k]
    if not first:
        assert tree.first(k) is None
        return
    best = min(e for e, _ in first)
    same = [i for e, i in first if e == best]
    assert tree.first(k) == (best[0], best[1], len(same), same[0])


def test_preempt_and_reclaim_search_the_first_feasible_nodes_of_those_left_to_them():
    """FilterOutUnschedulableAndUnresolvableNodesForTask leaves out the nodes the task's allocate
    fit errors found unresolvable; PredicateNodes then collects num_nodes_to_find of the rest."""
    c = {"nodes": [{"cpu": 4, "mem": 8, "gpu": 0, "zone": z, "taint": False, "pods": 110} for z in "aabab"],
         "groups": [{"pods": [{"cpu": "1", "mem": 1, "gpu": 0, "zone": "a", "tolerate": False, "run": None}],
                     "min": 1, "queue": 0, "prio": None}], "weights": [1, 1, 1], "config": "preempt"}
    with _search_stops_early(True):
        ssn = _session(_yaml(c))
        t = next(iter(ssn.jobs["default/g0"].tasks.values()))
        assert [ns.name for ns in ssn._unresolvable_left(t)] == ["n0", "n1", "n2", "n3", "n4"]  # no fit errors yet
        ssn.jobs["default/g0"].fit_errors[t.key] = {"n0": ["Insufficient cpu"], "n2": ["node(s) didn't match Pod's node affinity/selector"],
                                                    "n4": ["node(s) had untolerated taint {a: b}"]}
        left = ssn._unresolvable_left(t)
        assert [ns.name for ns in left] == ["n0", "n1", "n3"]
        # 3 left: num_nodes_to_find(3) is 1 here, the first feasible of them
        assert [ns.name for ns in ssn._first_feasible(left, lambda ns: ns.name != "n0", len(left))] == ["n1"]
