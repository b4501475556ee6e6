"""features.py: what an input uses, and the engine that runs it (an allow-list per fast run)."""
import pytest

from builders import build_engine
from prio.yunikorn import engine, gangwalk, reference, simplerun
from prio.yunikorn import features as F

BASE = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            {a}
          - name: b
"""


def _used(a_settings="", snapshot=None):
    snap = snapshot or {"applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1}]}]}
    return F.used(build_engine(BASE.format(a=a_settings), snap))


@pytest.mark.parametrize("settings, feature", [
    ('properties: {priority.offset: "3"}', F.OFFSET),
    ("properties: {priority.policy: fence}", F.FENCE),
    ("properties: {application.sort.policy: fair}", F.FAIR_SORT),
    ("properties: {application.sort.priority: disabled}", F.PRIORITY_SORT_OFF),
    ("resources: {max: {pods: 3}}", F.QUEUE_MAX),
    ("resources: {guaranteed: {pods: 3}}", F.GUARANTEED),
    ("maxapplications: 2", F.MAXAPPS),
    ("limits: [{limit: l, users: ['*'], maxapplications: 1}]", F.USER_LIMITS),
    ("limits: [{limit: l, groups: [dev], maxresources: {pods: 2}}]", F.USER_LIMITS),
])
def test_a_queue_setting_is_a_feature(settings, feature):
    assert feature in _used(settings)
    assert feature not in _used()


def test_snapshot_features():
    assert _used() == frozenset()
    two = {"applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, "resources": {"vcore": 1, "memory": 2}},
                                                                    {"priority": 1, "resources": {"vcore": 1}}]}]}
    assert {F.TYPES, F.PARTIAL_ASKS} <= _used(snapshot=two)
    cap = {"capacity": {"pods": 9}, "applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1}], "allocated": {"pods": 1}}]}
    assert {F.CAPACITY, F.RUNNING} <= _used(snapshot=cap)
    nothing = {"applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, "resources": {"pods": 0}}]}]}
    assert F.NOT_POSITIVE_ASKS in _used(snapshot=nothing)
    nodes = {"nodes": [{"name": "n1", "capacity": {"pods": 4}}], "applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1}]}]}
    assert F.NODES in _used(snapshot=nodes) and F.NODES not in _used(snapshot=cap)


def test_node_predicates_are_a_feature_where_they_can_close_a_node():
    def snap(node=None, ask=None):
        return {"nodes": [{"name": "n1", "capacity": {"pods": 4}, **(node or {})}],
                "applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, **(ask or {})}]}]}

    assert F.PREDICATES not in _used(snapshot=snap())
    assert F.PREDICATES not in _used(snapshot=snap({"labels": {"pool": "a"}, "taints": [{"key": "k", "effect": "PreferNoSchedule"}]}))
    assert F.PREDICATES in _used(snapshot=snap({"taints": [{"key": "k", "effect": "NoSchedule"}]}))
    assert F.PREDICATES in _used(snapshot=snap(ask={"nodeSelector": {"pool": "a"}}))
    assert F.PREDICATES in engine.WALK_SUPPORTS and F.PREDICATES not in simplerun.SUPPORTS


def test_each_fast_run_names_what_it_supports():
    """The walk supports every feature of today's model, by name (not by taking features.ALL):
    a feature added to ALL fails here until someone decides whether a fast run knows it."""
    assert engine.WALK_SUPPORTS <= F.ALL and simplerun.SUPPORTS < engine.WALK_SUPPORTS
    assert F.ALL - engine.WALK_SUPPORTS == F.REFERENCE_ONLY | {F.GANGS}, "a new feature: teach a fast run, or leave it to the reference engine (features.REFERENCE_ONLY)"
    # the gang walk: the walk's features and gangs (what it cannot follow it leaves to the reference engine, from scratch)
    assert gangwalk.SUPPORTS == engine.WALK_SUPPORTS | {F.GANGS} and not F.REFERENCE_ONLY & gangwalk.SUPPORTS


def _runs(monkeypatch, choice, walk_supports):
    """Which runs an engine's run() takes: a list of names."""
    took = []
    monkeypatch.setattr(engine, "WALK_SUPPORTS", walk_supports)
    real_ref, real_simple = reference.ReferenceRun.run, simplerun.run
    monkeypatch.setattr(reference.ReferenceRun, "run", lambda self, *a: took.append("reference") or real_ref(self, *a))
    monkeypatch.setattr(simplerun, "run", lambda *a: took.append("simplerun") or real_simple(*a))
    e = build_engine(BASE.format(a="maxapplications: 1"), {"applications": [
        {"id": f"x{i}", "queue": "root.a", "asks": [{"priority": 1}]} for i in range(3)]}, choice)
    steps = e.run()
    return took or ["walk"], [s.ask for s in steps]


def test_an_input_using_a_feature_no_fast_run_supports_goes_to_the_reference_engine(monkeypatch):
    took, steps = _runs(monkeypatch, "auto", F.ALL - {F.MAXAPPS})
    assert took == ["reference"] and steps == ["x0-1"]


def test_a_supported_input_takes_the_fastest_run_that_supports_it(monkeypatch):
    assert _runs(monkeypatch, "auto", F.ALL) == (["walk"], ["x0-1"])  # maxapplications: not simplerun's
    assert _runs(monkeypatch, "fast", F.ALL - {F.MAXAPPS}) == (["walk"], ["x0-1"])  # fast: asked for
    assert _runs(monkeypatch, "reference", F.ALL) == (["reference"], ["x0-1"])


def test_fast_asked_for_still_takes_the_reference_engine_where_no_fast_run_exists():
    """Nodes and user/group limits only the reference engine schedules: a fast run asked for
    would ignore them (the ask of 5 fits no node of 4)."""
    snap = {"nodes": [{"name": "n1", "capacity": {"pods": 4}}],
            "applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, "resources": {"pods": 5}}]}]}
    e = build_engine(BASE.format(a=""), snap, "fast")
    assert e.run() == [] and [u.ask for u in e.leftovers()] == ["x-1"]


def test_a_gang_input_takes_the_gang_walk_where_it_is_ready():
    """With nodes and gangs that reserve: the gang walk (fast asked for too); without nodes, or
    with a gang that already runs a pod (the shim skips the reservation): the reference engine,
    whatever is asked for (the walk without gangs never runs one)."""
    gang = {"id": "g", "queue": "root.a", "taskGroups": [{"name": "w", "minMember": 2, "minResource": {"vcore": 1}}],
            "asks": [{"id": "g-w", "priority": 1, "resources": {"vcore": 1}, "taskGroup": "w", "count": 2}]}
    nodes = [{"name": "n1", "capacity": {"vcore": 4}}]
    for choice in ("auto", "fast"):
        e = build_engine(BASE.format(a=""), {"nodes": nodes, "applications": [gang]}, choice)
        assert F.GANGS in F.used(e) and F.choose(e, ((engine.GANG_WALK, gangwalk.SUPPORTS),)) == engine.GANG_WALK
        assert [s.ask for s in e.run()] == ["tg-g-w-1", "tg-g-w-2", "g-w-1", "g-w-2"] and e._gang_run is not None
        bare = build_engine(BASE.format(a=""), {"applications": [gang]}, choice)
        assert not gangwalk.ready(bare) and [s.ask for s in bare.run()] == ["tg-g-w-1", "tg-g-w-2", "g-w-1", "g-w-2"]
        assert bare._gang_run is None
        running = {**gang, "allocations": [{"id": "r", "priority": 1, "resources": {"vcore": 1}, "node": "n1"}]}
        skip = build_engine(BASE.format(a=""), {"nodes": nodes, "applications": [running]}, choice)
        assert not gangwalk.ready(skip) and [s.ask for s in skip.run()] == ["g-w-1", "g-w-2"] and skip._gang_run is None
