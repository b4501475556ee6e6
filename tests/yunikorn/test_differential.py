"""The fast engines against the reference engine (yunikorn/reference.py) on generated
scenarios (tests/strategies.py): identical steps (tie notes and notes included), leftovers and
final state. Three ways through each scenario: the default (simplerun where it fits, else the
engine's heaps with its fast pick), the engine's step-by-step walk (a limit always takes it),
and the reference engine."""
import os

import pytest
from hypothesis import HealthCheck, given, settings

from builders import build_engine, run_state, step_rows
from strategies import everything, examples, rest_scenarios, scenarios

SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _agree(queues, snapshot):
    default, walk, ref = (build_engine(queues, snapshot, c) for c in ("auto", "fast", "reference"))
    want = step_rows(ref.run())
    assert step_rows(default.run()) == want
    assert step_rows(walk.run(limit=10**9)) == want
    assert default.leftovers() == ref.leftovers() == walk.leftovers()
    assert run_state(default) == run_state(ref) == run_state(walk)
    assert ref.run() == []  # nothing more can be placed once it stopped


@SETTINGS
@given(scenarios(limits=False))
def test_without_limits_the_fast_runs_give_the_reference_steps(scenario):
    _agree(*scenario)


@SETTINGS
@given(scenarios(limits=True))
def test_with_limits_the_fast_runs_give_the_reference_steps(scenario):
    _agree(*scenario)


@settings(SETTINGS, max_examples=examples(20))  # the reference engine on clusters is the slowest of these
@given(scenarios(cluster=True))
def test_with_nodes_and_user_limits_the_fast_runs_give_the_reference_steps(scenario):
    _agree(*scenario)


@settings(SETTINGS, max_examples=examples(15))
@given(scenarios(cluster=True, preempting=True))
def test_with_preemption_in_the_run_the_reference_keeps_its_values_right(scenario):
    """Preemption inside the run is the reference engine's alone (every choice takes it): what
    it keeps between steps (each leaf's application order and priority, the tie notes read from
    neighbours, who holds a reservation, the attempts it skips) is compared with the value
    worked out from scratch at every use (reference.CHECK_CACHES, on in every test), and the
    three ways still agree."""
    from prio.yunikorn import features

    eng = build_engine(*scenario)
    assert features.PREEMPTION_IN_RUN in features.used(eng)
    _agree(*scenario)


def test_an_ask_for_nothing_finds_no_node_in_the_walk():
    """Found by the test above: the walk's node shortcut (Cluster.first_with_room) must leave an
    ask for nothing to find_node, which never places it (preAllocateCheck)."""
    queues = ("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n"
              "          - name: p0\n            resources:\n              max: {vcore: 1}\n")
    _agree(queues, {"applications": [{"id": "app-000", "queue": "root.p0", "user": "alice",
                                      "asks": [{"priority": 0, "resources": {"vcore": 1}}, {"priority": 0, "resources": {}}],
                                      "allocations": [{"id": "app-000-run", "resources": {"vcore": 1}, "node": "node-0"}]}],
                    "nodes": [{"name": "node-0", "capacity": {"vcore": 2}}]})


@settings(SETTINGS, max_examples=examples(15))
@given(scenarios(many_siblings=True))
def test_more_than_20_siblings_the_fast_runs_give_the_reference_steps(scenario):
    _agree(*scenario)


def test_why_ask_says_when_siblings_are_ordered_by_go_merges(tmp_path):
    """Beyond 20 children with two resource types, explain --why-ask says that the sort can order
    siblings equal on priority and share by the queues around them."""
    from conftest import run_cli

    leaves = "\n".join(f"          - name: l{i:02}" for i in range(21))
    (tmp_path / "q.yaml").write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n" + leaves + "\n")
    apps = [{"id": f"a{i:02}", "queue": f"root.l{i:02}", "asks": [{"priority": 0, "resources": {"vcore": 1 + i % 3, "memory": 3 - i % 3}}]}
            for i in range(21)]
    import json
    (tmp_path / "s.json").write_text(json.dumps({"applications": apps}))
    r = run_cli("explain", str(tmp_path / "q.yaml"), str(tmp_path / "s.json"), "--why-ask", "a01-1", "--behind", "a00-1")
    assert r.exit_code == 0, r.stderr
    assert "more than 20 children" in r.stdout


@settings(SETTINGS, max_examples=examples(25))
@given(scenarios())
def test_scenarios_of_every_kind_the_fast_runs_give_the_reference_steps(scenario):
    """Limits drawn or not, more than 20 siblings or not, in one draw."""
    _agree(*scenario)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(scenarios())
def test_the_engine_keeps_each_application_as_the_reference_sees_it(scenario):
    """What explain's static order reads from the engine (reference.considered_groups): every
    application's asks in sortedRequests order, and its priority, before any step."""
    from prio.yunikorn.reference import ask_max_priority, sorted_requests

    e = build_engine(*scenario)
    for st in e.apps:
        assert sorted_requests(st) == list(range(len(st.asks)))
        assert st.prio == ask_max_priority(st)


@pytest.mark.slow
def test_the_run_that_tried_preemption_forever_ends(tmp_path):
    """tests/fixtures/preemption-run-loops.json ([queues text, snapshot]): each attempt cancelled a
    lower-priority reservation that the next cycle made again; the run ends once its state
    repeats as time passes (a process with a deadline: a hang fails, not blocks, the suite)."""
    import json
    import subprocess
    import sys

    from conftest import ROOT

    with open(os.path.join(ROOT, "tests", "fixtures", "preemption-run-loops.json"), encoding="utf-8") as fh:
        queues, snapshot = json.load(fh)
    from replayed import open_root

    (tmp_path / "q.yaml").write_text(open_root(queues))  # a drawn config: root admits everyone (ACLs are enforced)
    (tmp_path / "s.json").write_text(snapshot if isinstance(snapshot, str) else json.dumps(snapshot))
    r = subprocess.run([sys.executable, "-m", "prio", "simulate", str(tmp_path / "q.yaml"), str(tmp_path / "s.json"), "-o", "json"],
                       capture_output=True, text=True, timeout=120, env={**os.environ, "PRIO_ENGINE": "reference", "PYTHONPATH": os.path.join(ROOT, "cli")})
    assert r.returncode == 0, r.stderr
    left = {u["ask"]: u["code"] for u in json.loads(r.stdout)["unscheduled"]}
    assert left["app-601-2"] == "NoNodeRoom" and left["app-002-2"] == "NodeReserved"


@settings(SETTINGS, max_examples=examples(20))
@given(everything())
def test_with_every_feature_at_once_the_fast_runs_give_the_reference_steps(scenario):
    """Placement rules, rejected applications, nodes, user and group limits, running tasks with
    create times, originators and opt-outs, int32 priorities, and the preemption switch on (the
    reference engine's alone: its kept values checked) or off (the walk's)."""
    _agree(*scenario)




@pytest.mark.slow
def test_every_feature_at_once_reaches_preemption_rejection_and_the_walk_on_a_cluster():
    """everything() draws what its test is for: a preemption in the run, a rejected application,
    and the walk (not the reference alone) on nodes with user limits."""
    from prio.yunikorn import features
    from strategies import an_example

    def preempts(s):
        e = build_engine(*s, "reference")
        e.run()
        return bool(e.preemptions)

    def walked(s):
        used = features.used(build_engine(*s))
        return features.NODES in used and features.USER_LIMITS in used and features.PREEMPTION_IN_RUN not in used

    an_example(everything(preempting=True), preempts)
    an_example(everything(), lambda s: bool(build_engine(*s).rejected))
    an_example(everything(preempting=False), walked)


@settings(SETTINGS, max_examples=examples(30))
@given(rest_scenarios())
def test_on_a_rest_queues_dump_the_fast_runs_give_the_reference_steps(scenario):
    """The queue tree as --yunikorn reads it (tests/strategies.py rest_scenarios): Stopped and
    Draining queues, the usage the dump reports, a fair max of zero in some type."""
    _agree(*scenario)


def test_the_rest_dumps_draw_what_only_a_dump_carries():
    """rest_scenarios reaches each feature only a REST dump gives the walk (features.py)."""
    from prio.yunikorn import features
    from strategies import an_example

    for f in (features.STOPPED, features.REST_USAGE, features.ZERO_FAIR_MAX):
        an_example(rest_scenarios(), lambda s, f=f: f in features.used(build_engine(*s)))


def _drawn_by_the_differential_tests():
    """Every scenario the properties above draw, as one strategy."""
    from hypothesis import strategies as st

    return st.one_of(scenarios(limits=False), scenarios(limits=True), scenarios(cluster=True),
                     scenarios(many_siblings=True), rest_scenarios(), everything(preempting=False))


@pytest.mark.parametrize("feature", sorted(__import__("prio.yunikorn.engine", fromlist=["WALK_SUPPORTS"]).WALK_SUPPORTS))
def test_every_feature_a_fast_run_claims_is_drawn(feature):
    """The proof has no hole: each feature the walk (and so simplerun, whose list is a part of
    it) claims occurs in some scenario the differential properties draw, so a fast run taught a
    feature is held to the reference on it."""
    from prio.yunikorn import features, simplerun
    from prio.yunikorn.engine import WALK_SUPPORTS
    from strategies import an_example

    assert simplerun.SUPPORTS <= WALK_SUPPORTS
    an_example(_drawn_by_the_differential_tests(), lambda s: feature in features.used(build_engine(*s)), max_examples=2000)
