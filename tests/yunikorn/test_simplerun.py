"""The run for one resource type without limits (yunikorn/simplerun.py) against the general
engine, step for step: the same steps, tie notes, priority changes, leftovers and final state."""
import json
import random

import pytest

from builders import QUEUE_A, UNDER_ROOT, build_engine
from prio.yunikorn import engine, simplerun


def _state(e: engine.Engine):
    qs = [(q.path, q.pending, q.allocated, q.live, q.running, q.reported, q.placed, q.first_step, q.last_step,
           q.tracker.max, dict(q.tracker.counts)) for q in e.root.walk()]
    apps = [(st.app_id, list(st.alloc), st.live, st.first, st.prio, st.pending, st.usage, st.running) for st in e.apps]
    return qs, apps, e.steps_done


def _scenario(rnd, limits=False):
    """One resource type, three levels, every ordering feature: fences, offsets, fair and fifo
    leaves, priority sorting off, equal priorities and times (ties at every level), submit and
    create times, running applications with usage. `limits`: also what the run must refuse."""
    types = rnd.choice([["pods"], ["vcore"], ["vcore", "memory"], ["vcore", "memory"], ["gpu", "memory", "vcore"]])
    t = types[0]
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []

    def queue(name, indent, leaf):
        lines.append(" " * indent + f"- name: {name}")
        props = []
        if rnd.random() < 0.3:
            props.append(f'priority.offset: "{rnd.choice([-5, -1, 1, 3, 2147483647])}"')
        if rnd.random() < 0.15:
            props.append("priority.policy: fence")
        if leaf and rnd.random() < 0.5:
            props.append("application.sort.policy: fair")
        if rnd.random() < 0.15:
            props.append("application.sort.priority: disabled")
        if props:
            lines.append(" " * (indent + 2) + "properties:")
            lines.extend(" " * (indent + 4) + p for p in props)
        if limits and rnd.random() < 0.1:
            lines.append(" " * (indent + 2) + f"maxapplications: {rnd.randint(1, 3)}")
        if limits and rnd.random() < 0.1:
            lines.extend([" " * (indent + 2) + "resources:", " " * (indent + 4) + f"max: {{{t}: {rnd.randint(2, 9)}}}"])

    for p in range(rnd.randint(1, 3)):
        queue(f"p{p}", 10, False)
        lines.append(" " * 12 + "queues:")
        for m in range(rnd.randint(1, 3)):
            if rnd.random() < 0.3:  # a leaf right under the parent
                queue(f"l{m}", 14, True)
                leaves.append(f"root.p{p}.l{m}")
                continue
            queue(f"m{m}", 14, False)
            lines.append(" " * 16 + "queues:")
            for l in range(rnd.randint(1, 3)):
                queue(f"l{l}", 18, True)
                leaves.append(f"root.p{p}.m{m}.l{l}")
    apps = []
    for i in range(rnd.randint(1, 25)):
        asks = []
        for _ in range(rnd.randint(1, 6)):
            a = {"priority": rnd.choice([0, 0, 0, 1, 5, -3])}
            if t != "pods" or rnd.random() < 0.3:
                a["resources"] = {k: rnd.choice([0, 1, 1, 2, 3]) for k in types}
                a["resources"][t] = max(1, a["resources"][t])  # asks for something
            if rnd.random() < 0.1:
                a["createTime"] = rnd.randint(1, 3)
            if rnd.random() < 0.1:
                a["count"] = rnd.randint(2, 4)
            if limits and rnd.random() < 0.05:
                a["resources"] = {t: 0}
            asks.append(a)
        if rnd.random() < 0.05:  # only running: nothing to place, usage kept as it was
            asks = []
        app = {"id": f"app-{rnd.randint(0, 99):02}-{i}", "queue": rnd.choice(leaves), "asks": asks}
        if rnd.random() < 0.3:
            app["submitTime"] = rnd.randint(1, 3)
        if rnd.random() < 0.15:
            app["allocated"] = {k: rnd.randint(1, 4) for k in types if rnd.random() < 0.7}
        elif rnd.random() < 0.1:
            app["state"] = "Running"
        apps.append(app)
    snap = {"applications": apps}
    if limits and rnd.random() < 0.2:
        snap["capacity"] = {t: rnd.randint(5, 30)}
    if limits and rnd.random() < 0.2:  # a second resource type
        apps[0]["asks"].append({"priority": 1, "resources": {"memory": 1}})
    return "\n".join(lines) + "\n", json.dumps(snap)


def _both(queues, snapshot):
    fast, general = build_engine(queues, snapshot, placement=False), build_engine(queues, snapshot, placement=False)
    used = simplerun.fits(fast)
    got = fast.run()
    want = general.run(limit=10**9)  # a limit always takes the general step
    assert [tuple(s) for s in got] == [tuple(s) for s in want]
    assert fast.leftovers() == general.leftovers()
    assert _state(fast) == _state(general)
    assert fast.step() is None and general.step() is None
    return used, want


def test_the_simple_run_gives_the_general_engines_steps_and_state():
    rnd = random.Random(5)
    used = ties = 0
    for _ in range(400):
        u, steps = _both(*_scenario(rnd))
        used += u
        ties += sum(1 for s in steps if s.tie)
    assert used > 390 and ties > 200  # (nearly) every scenario fits; tie notes are exercised


def test_inputs_with_limits_go_the_general_way_with_the_same_result():
    rnd = random.Random(6)
    used = 0
    for _ in range(300):
        u, _ = _both(*_scenario(rnd, limits=True))
        used += u
    assert 5 < used < 250  # both ways are taken


def test_what_the_simple_run_refuses():
    base = QUEUE_A
    snap = {"applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1}, {"priority": 2}]}]}
    assert simplerun.fits(build_engine(base, json.dumps(snap), placement=False))
    refused = [
        (base + "            maxapplications: 1\n", snap),
        (base + "            resources: {max: {pods: 5}}\n", snap),
        (base + "            resources: {guaranteed: {pods: 5}}\n", snap),
        (base, {**snap, "capacity": {"pods": 5}}),
        # an ask without every type the asks use, and a type only running applications use
        (base, {"applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, "resources": {"vcore": 1, "memory": 1}},
                                                                          {"priority": 1, "resources": {"vcore": 1}}]}]}),
        # ... in another application than the one naming both (the shapes of every application count)
        (base, {"applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, "resources": {"vcore": 1, "memory": 1}}]},
                                 {"id": "y", "queue": "root.a", "asks": [{"priority": 1, "resources": {"memory": 2}}]}]}),
        (base, {"applications": [{"id": "x", "queue": "root.a", "allocated": {"memory": 1}, "asks": [{"priority": 1}]}]}),
        (base, {"applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, "resources": {"pods": 0}}]}]}),
    ]
    for queues, s in refused:
        assert not simplerun.fits(build_engine(queues, json.dumps(s), placement=False)), (queues, s)
    # the runs' shares count on a positive fair max and nothing allocated negative (loaders
    # refuse negative quantities; an engine built otherwise goes the general way)
    for change in ({"allocated": {"pods": -1}}, {"fairmax": {"pods": 0}}):
        e = build_engine(base, json.dumps(snap), placement=False)
        q = next(q for q in e.root.walk() if q.path == "root.a")
        for k, v in change.items():
            setattr(q, k, v)
        assert not simplerun.fits(e), change
    e = build_engine(base, json.dumps(snap), placement=False)
    e.step()  # once the general engine has stepped, the rest of the run stays with it
    assert not simplerun.fits(e)
    assert [s.ask for s in e.run()] == ["x-1"]


def _big(rnd, types):
    """Big tie groups: every priority equal, tens of siblings whose shares tie while the one
    taken often keeps its share (its largest resource did not grow) and joins its group again."""
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []
    for p in range(rnd.randint(2, 4)):
        lines += [f"          - name: p{p}", "            queues:"]
        for l in range(rnd.randint(8, 25)):
            lines.append(f"              - name: l{l:02}")
            leaves.append(f"root.p{p}.l{l:02}")
    apps = []
    for i in range(rnd.randint(60, 140)):
        # a zero for some type: the share (the largest type's) can stay as it is, and the queue
        # taken comes back with its group's key and joins it
        asks = [{"priority": 0, "resources": {k: rnd.choice([0, 1, 2, 4]) for k in types}} for _ in range(rnd.randint(1, 4))]
        for a in asks:
            a["resources"][types[-1]] = max(1, a["resources"][types[-1]])
        app = {"id": f"app-{i}", "queue": rnd.choice(leaves), "asks": asks}
        if rnd.random() < 0.2:
            app["allocated"] = {k: rnd.choice([2, 4]) for k in types}
        apps.append(app)
    return "\n".join(lines) + "\n", json.dumps({"applications": apps})


def test_big_tie_groups_as_the_general_engine_keeps_them():
    for types in (["memory", "vcore"], ["gpu", "memory", "vcore"], ["pods"]):
        rnd = random.Random(len(types))
        ties = total = 0
        for _ in range(6):
            used, steps = _both(*_big(rnd, types))
            assert used
            ties += sum(1 for s in steps if s.tie)
            total += len(steps)
        assert ties > total // 20, (types, ties, total)


def test_an_application_tied_with_the_first_only_as_its_second_child_is_named():
    """The leaf's first application stays in its heap, so a tie is looked for among its two
    children: here b (later submitted) is heap[1] and c, tied with a, is heap[2]."""
    queues = QUEUE_A
    apps = [{"id": i, "queue": "root.a", "submitTime": t, "asks": [{"priority": 5}]} for i, t in (("a", 1), ("b", 2), ("c", 1))]
    used, steps = _both(queues, json.dumps({"applications": apps}))
    assert used
    assert [s.application for s in steps] == ["a", "c", "b"]
    assert [list(map(str, s.tie)) for s in steps] == [["applications a, c"], [], []]


def test_a_held_first_application_keeps_its_tie_note_until_it_is_re_keyed():
    """A fifo leaf's first application holds while its priority does, so each leaf's plan
    (_plan_leaf) looks for its tie once and repeats the note; a priority change re-keys it and
    the tie is looked for again. a and c tie on (priority, submit time); a's third ask drops to
    priority 3, which puts c first; b, submitted later, comes last. Steps in other queues come
    between them, as the queue above orders them."""
    queues = (UNDER_ROOT +
              "          - name: f\n          - name: g\n")
    apps = [{"id": i, "queue": "root.f", "submitTime": t, "asks": [{"priority": p} for p in ps]}
            for i, t, ps in (("a", 1, (5, 5, 3)), ("b", 2, (5,)), ("c", 1, (5, 5)))]
    apps.append({"id": "z", "queue": "root.g", "asks": [{"priority": 5}] * 3})
    used, steps = _both(queues, json.dumps({"applications": apps}))
    assert used
    f = [s for s in steps if s.queue == "root.f"]
    assert [s.application for s in f] == ["a", "a", "c", "c", "b", "a"]
    assert [list(map(str, s.tie)) for s in f][:3] == [["applications a, c"]] * 2 + [[]]
    assert [s.ask for s in steps if s.queue == "root.g"] == ["z-1", "z-2", "z-3"]


def test_a_priority_change_reaches_up_through_planned_parents_in_step_order():
    """With two resource types each parent's choices are planned before the steps are read off
    (_plan_parent), so the priority change of a deep leaf reaches its parents' trackers while
    they are planned: the step that takes a's last priority-9 ask lowers a, its leaf, the
    parent p and the grandparent g together (leaf up), and root.z, a leaf right under root,
    then comes before g."""
    queues = (UNDER_ROOT +
              "          - name: g\n            queues:\n              - name: p\n                queues:\n"
              "                  - name: l\n          - name: z\n")
    r = {"vcore": 1, "memory": 1}
    apps = [{"id": "a", "queue": "root.g.p.l", "asks": [{"priority": 9, "resources": r}, {"priority": 1, "resources": r}]},
            {"id": "b", "queue": "root.z", "asks": [{"priority": 5, "resources": r}]}]
    used, steps = _both(queues, json.dumps({"applications": apps}))
    assert used
    assert [(s.application, s.changes) for s in steps] == [
        ("a", [("root.g.p.l", 9, 1), ("root.g.p", 9, 1), ("root.g", 9, 1)]),
        ("b", [("root.z", 5, None)]),
        ("a", [("root.g.p.l", 1, None), ("root.g.p", 1, None), ("root.g", 1, None)]),
    ]


@pytest.mark.parametrize("types", [("vcore", "memory"), ("vcore",)])
def test_progress_moves_while_the_queues_are_planned_and_while_the_steps_are_read(types):
    """The progress bar (simulate on a terminal) is told of the planning too, in both runs: it
    moves without going back, never past the asks, and the planning alone gets it most of the
    way."""
    rnd = random.Random(3)
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    for p in range(3):
        lines += [f"          - name: p{p}", "            queues:"] + [f"              - name: l{i}" for i in range(5)]
    apps = [{"id": f"a{i}", "queue": f"root.p{i % 3}.l{i % 5}",
             "asks": [{"priority": rnd.randint(0, 3), "resources": {t: rnd.randint(1, 4) for t in types}}
                      for _ in range(100)]} for i in range(30)]
    e = build_engine("\n".join(lines) + "\n", json.dumps({"applications": apps}), placement=False)
    assert simplerun.fits(e)
    seen = []
    steps = e.run(None, seen.append)
    assert len(steps) == 3000
    assert seen == sorted(seen) and seen[-1] <= len(steps)
    planning = [v for v in seen if v <= int(len(steps) * simplerun.PLANNED)]
    assert len(planning) > 1 and planning[-1] >= len(steps) // 2
