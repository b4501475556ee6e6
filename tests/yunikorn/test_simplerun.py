"""The run for one resource type without limits (yunikorn/simplerun.py) against the general
engine and the reference engine, step for step: the same steps, tie notes, priority changes, leftovers and final state."""
import json

import pytest
from hypothesis import HealthCheck, event, given, settings, target
from hypothesis import strategies as st

from builders import QUEUE_A, UNDER_ROOT, build_engine, run_state
from prio.yunikorn import engine, simplerun
from prio.yunikorn.gosort import stable_order
from strategies import an_example, long_runs, scenarios, sort_inputs, tie_groups

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _state(e: engine.Engine):
    qs = [(q.path, q.pending, q.allocated, q.live, q.running, q.reported, q.placed, q.first_step, q.last_step,
           q.tracker.max, dict(q.tracker.counts)) for q in e.root.walk()]
    apps = [(st.app_id, list(st.alloc), st.live, st.first, st.prio, st.pending, st.usage, st.running) for st in e.apps]
    return qs, apps, e.steps_done


def _both(queues, snapshot):
    """The simple run (where it fits), the general engine's walk and the reference engine: the
    same steps, leftovers and state."""
    fast, general, ref = (build_engine(queues, snapshot, c, placement=False) for c in ("auto", "fast", "reference"))
    used = simplerun.fits(fast)
    got = fast.run()
    want = general.run(limit=10**9)  # a limit always takes the general step
    assert [tuple(s) for s in got] == [tuple(s) for s in want] == [tuple(s) for s in ref.run()]
    assert fast.leftovers() == general.leftovers() == ref.leftovers()
    assert _state(fast) == _state(general)  # the fast runs' bookkeeping too (the trackers)
    assert run_state(fast) == run_state(ref)  # what the rest of prio reads
    assert fast.step() is None and general.step() is None
    return used, want


def _share_tied(steps) -> float:
    return sum(1 for s in steps if s.tie) / max(1, len(steps))


@settings(SETTINGS, max_examples=75)
@given(scenarios(limits=False, simple=True))
def test_the_simple_run_gives_the_general_engines_steps_and_state(scenario):
    """Every ordering feature (fences, offsets at the int32 ends, fair and fifo leaves, priority
    sorting off, more than 20 siblings, one to three types, equal priorities and times, running
    applications): whatever has an ask goes the simple way, and gives the general engine's steps."""
    used, steps = _both(*scenario)
    assert used == any(app["asks"] for app in scenario[1]["applications"])
    event("tie notes" if any(s.tie for s in steps) else "no tie note")
    target(_share_tied(steps), label="share of steps with a tie note")


def test_the_simple_scenarios_hold_tie_notes():
    """The property above is not only about untied steps: its scenarios reach tie notes."""
    an_example(scenarios(limits=False, simple=True), lambda sc: _share_tied(_both(*sc)[1]) > 0)


@settings(SETTINGS, max_examples=75)
@given(scenarios(limits=None, simple=True))
def test_inputs_with_limits_go_the_general_way_with_the_same_result(scenario):
    used, _ = _both(*scenario)
    event("simple run" if used else "general engine")


@pytest.mark.parametrize("simple", [True, False])
def test_scenarios_with_limits_take_both_ways(simple):
    """The property above holds both ways to its results: some of its scenarios draw no limit."""
    an_example(scenarios(limits=None, simple=True), lambda sc: simplerun.fits(build_engine(*sc, placement=False)) == simple)


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


@pytest.mark.parametrize("types", [("memory", "vcore"), ("gpu", "memory", "vcore"), ("pods",)])
@settings(SETTINGS, max_examples=40)
@given(data=st.data())
def test_big_tie_groups_as_the_general_engine_keeps_them(types, data):
    """Big tie groups (tests/strategies.py tie_groups): every priority equal, tens of siblings
    whose shares tie while the one taken often keeps its share and joins its group again; each
    goes the simple way."""
    used, steps = _both(*data.draw(tie_groups(types, big=True)))
    assert used
    target(_share_tied(steps), label="share of steps with a tie note")


@pytest.mark.parametrize("types", [("memory", "vcore"), ("gpu", "memory", "vcore"), ("pods",)])
def test_big_tie_groups_put_tie_notes_on_many_steps(types):
    """The groups above are exercised: tie notes on more than a twentieth of the steps."""
    an_example(tie_groups(types, big=True), lambda sc: _share_tied(_both(*sc)[1]) > 1 / 20)


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
@settings(SETTINGS, max_examples=2)
@given(data=st.data())
def test_progress_moves_while_the_queues_are_planned_and_while_the_steps_are_read(types, data):
    """The progress bar (simulate on a terminal) is told of the planning too, in both runs: it
    moves without going back, never past the asks, and the planning alone gets it most of the
    way."""
    e = build_engine(*data.draw(long_runs(types, parents=3, leaves=5, apps=30, asks=100)), placement=False)
    assert simplerun.fits(e)
    seen = []
    steps = e.run(None, seen.append)
    assert len(steps) == 3000
    assert seen == sorted(seen) and seen[-1] <= len(steps)
    planning = [v for v in seen if v <= int(len(steps) * simplerun.PLANNED)]
    assert len(planning) > 1 and planning[-1] >= len(steps) // 2


@settings(SETTINGS, max_examples=200)
@given(data=st.data())
def test_a_wide_parents_siblings_take_the_changes_noted_by_name_when_synced(data):
    """_Siblings: whatever changes and removals were noted by name since the last sync, once
    synced the name-ordered lists are the children left with their newest entries and keys,
    and the sort over them is SliceStable's over those lists (made anew)."""
    keys, vecs = data.draw(sort_inputs(max_size=60))
    names = [f"q{i:03d}" for i in range(len(keys))]
    groups: dict = {}
    for name, k, v in zip(names, keys, vecs):
        groups.setdefault(k, []).append((name, None, v))
    sibs = simplerun._Siblings({k: g if len(g) > 1 else g[0] for k, g in groups.items()})
    model = {name: ((name, None, v), k) for name, k, v in zip(names, keys, vecs)}
    for _ in range(data.draw(st.integers(0, 6))):
        for _ in range(data.draw(st.integers(0, 4))):  # a few choices between two syncs
            if not model:
                break
            name = data.draw(st.sampled_from(sorted(model)))
            if data.draw(st.booleans()):
                del model[name]
                sibs.later[name] = None
            else:
                v = tuple(data.draw(st.integers(0, 6)) for _ in model[name][0][2])
                model[name] = got = ((name, None, v), data.draw(st.integers(0, 5)))
                sibs.later[name] = got
        kept = sibs.synced()
        assert not sibs.later
        assert sibs.names == sorted(model) and sibs.entries == [model[n][0] for n in sibs.names]
        assert sibs.keys == [model[n][1] for n in sibs.names] and sibs.vecs == [e[2] for e in sibs.entries]
        if sibs.keys:
            assert kept.order() == stable_order(sibs.keys, sibs.vecs)


@settings(SETTINGS, max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=3, max_size=40),
       st.lists(st.tuples(st.integers(0, 10**6), st.booleans(), st.tuples(st.integers(0, 4), st.integers(0, 4))), max_size=40))
def test_the_least_groups_dominating_child_is_gosorts_as_it_loses_and_regains_children(vecs, turns):
    """simplerun._least_dominating against gosort.dominating through a least group's choices:
    each turn one entry is taken out (_least_taken) and, some turns, comes back appended with a
    new vector (its key unchanged); the kept lists answer as dominating over the group does."""
    from types import SimpleNamespace

    from prio.yunikorn.gosort import dominating

    g = [(f"q{i:02}", i, v) for i, v in enumerate(vecs)]
    sibs = SimpleNamespace(least=None)
    for pick, back, vec in turns:
        if len(g) < 3:
            break
        least, top = simplerun._least_dominating(g, sibs)
        want = dominating([e[2] for e in g])
        assert top is (None if want is None else g[want])
        e = g.pop(pick % len(g))
        simplerun._least_taken(least, e)
        if back:
            g.append((e[0], e[1], vec))
