"""Unschedulable nodes (cordoned or draining: the node DAO's `schedulable: false`, the native
snapshot's `schedulable: false`): YuniKorn's tryNodes and tryNodesNoReserve pass over them and
its preemptor takes no victim there, while their capacity counts in the partition and what runs
on them keeps running. Every engine, the reasons, --why-ask and prio preempt."""
import json

import pytest

from builders import UNDER_ROOT, build_engine, run_state, step_rows
from conftest import run_cli
from prio.yunikorn import features as F
from prio.yunikorn import reasons

QUEUES = UNDER_ROOT + "          - name: a\n          - name: b\n"

# node-2 (8 cores) is cordoned and runs r-run (2 cores): 6 free there, 4 on node-1
SNAP = {
    "nodes": [{"name": "node-1", "capacity": {"vcore": 4}},
              {"name": "node-2", "capacity": {"vcore": 8}, "schedulable": False}],
    "applications": [
        {"id": "r", "queue": "root.b", "allocations": [{"id": "r-run", "priority": 0, "resources": {"vcore": 2}, "node": "node-2"}]},
        {"id": "x", "queue": "root.a", "asks": [
            {"id": "x-1", "priority": 9, "resources": {"vcore": 3}},
            {"id": "x-big", "priority": 5, "resources": {"vcore": 6}},
            {"id": "x-2", "priority": 1, "resources": {"vcore": 3}}]},
    ],
}


@pytest.fixture
def files(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(QUEUES)
    s = tmp_path / "s.json"
    s.write_text(json.dumps(SNAP))
    return str(q), str(s)


def _simulate(*args):
    r = run_cli("simulate", *args, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("engine", ["auto", "fast", "reference"])
def test_nothing_is_placed_on_an_unschedulable_node(files, engine):
    r = run_cli("simulate", *files, "-o", "json", env={"PRIO_ENGINE": engine})
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert [(s["ask"], s["node"]) for s in got["steps"]] == [("x-1", "node-1")]
    why = {u["ask"]: (u["code"], u["reason"]) for u in got["unscheduled"]}
    # only the cordoned node is big enough: never placed, never reserved
    assert why["x-big"] == ("NodeUnschedulable", "only unschedulable nodes are big enough (node-2): needs vcore 6, "
                                                 "the largest schedulable node has 4")
    # the cordoned node has room (6 free), node-1 has 1: x-2 reserves node-1 and waits
    assert "node node-2 is unschedulable (cordoned or draining): nothing new is placed, reserved or preempted there" in r.stderr
    assert why["x-2"] == ("NodeUnschedulable", "node node-2 has room but is unschedulable; no schedulable node has room: "
                                               "needs vcore 3, the most free on one node is 1 (node-1); it holds the reservation of node-1")


def test_the_engines_agree_and_the_feature_is_named():
    eng = [build_engine(QUEUES, SNAP, c) for c in ("auto", "fast", "reference")]
    assert F.UNSCHEDULABLE_NODES in F.used(eng[0]) and F.NODES in F.used(eng[0])
    rows = [step_rows(e.run()) for e in eng]
    assert rows[0] == rows[1] == rows[2]
    assert eng[0].leftovers() == eng[1].leftovers() == eng[2].leftovers()
    assert run_state(eng[0]) == run_state(eng[1]) == run_state(eng[2])
    plain = dict(SNAP, nodes=[dict(n, schedulable=True) for n in SNAP["nodes"]])
    assert F.UNSCHEDULABLE_NODES not in F.used(build_engine(QUEUES, plain))


def test_its_capacity_and_what_runs_there_still_count(files):
    """The partition's size (root's max) is every node's, the cordoned one too, and r-run keeps
    its 2 cores there: node-2 is simply closed to new work."""
    eng = build_engine(QUEUES, SNAP)
    assert eng.snapshot.capacity == {"vcore": 12000}
    n2 = eng.cluster.by_name["node-2"]
    assert not n2.schedulable and n2.available == {"vcore": 6000}
    assert eng.root.allocated == {"vcore": 2000}


def test_schedulable_true_is_the_default_and_changes_nothing(tmp_path):
    both = dict(SNAP, nodes=[{"name": "node-1", "capacity": {"vcore": 4}}, {"name": "node-2", "capacity": {"vcore": 8}}])
    q = tmp_path / "q.yaml"
    q.write_text(QUEUES)
    for flag in (None, True):
        nodes = [dict(n, **({} if flag is None else {"schedulable": flag})) for n in both["nodes"]]
        s = tmp_path / f"s{flag}.json"
        s.write_text(json.dumps(dict(both, nodes=nodes)))
        got = _simulate(str(q), str(s))
        assert [(s["ask"], s["node"]) for s in got["steps"]] == [("x-1", "node-1"), ("x-big", "node-2")]
        assert [u["code"] for u in got["unscheduled"]] == ["NoCapacity"]  # 11 of 12 cores used


def test_a_bad_schedulable_value_is_one_line(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(QUEUES)
    s = tmp_path / "s.yaml"
    s.write_text("nodes:\n  - {name: n1, capacity: {vcore: 4}, schedulable: 'no'}\n"
                 "applications:\n  - {id: x, queue: root.a, asks: [{priority: 1, resources: {vcore: 1}}]}\n")
    r = run_cli("simulate", str(q), str(s))
    assert r.exit_code == 2
    assert f"{s}:2:" in r.stderr and "schedulable must be true or false" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_why_ask_names_the_unschedulable_node(files):
    r = run_cli("explain", *files, "--why-ask", "x-big", "-o", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["rule"] == "neverPlaced" and d["values"]["code"] == "NodeUnschedulable"
    text = run_cli("explain", *files, "--why-ask", "x-big").stdout
    assert "only unschedulable nodes are big enough (node-2)" in text
    pend = run_cli("explain", *files, "--pending", "-o", "json")
    assert pend.exit_code == 0, pend.stderr
    codes = {r["code"]: r["asks"] for r in json.loads(pend.stdout)["reasons"]}
    assert codes == {"NodeUnschedulable": 2}


@pytest.mark.parametrize("text,words", [
    ("only unschedulable nodes are big enough (node-2): needs vcore 6, the largest schedulable node has 4",
     "Only unschedulable nodes fit: node-2 (cordoned or draining); needs vcore 6, the largest schedulable node has 4"),
    ("only unschedulable nodes are big enough (n1, n2): every node is unschedulable",
     "Only unschedulable nodes fit: n1, n2 (cordoned or draining)"),
    ("node node-2 has room but is unschedulable; no schedulable node has room: needs vcore 3, the most free on one node is 1 (node-1)",
     "Only unschedulable nodes fit: node-2 has room but is cordoned or draining; needs vcore 3, at most 1 free on a schedulable node (node-1)"),
])
def test_classify_the_unschedulable_sentences(text, words):
    r = reasons.classify(text)
    assert (r.code, r.words, r.detail) == ("NodeUnschedulable", words, text)


def test_every_node_unschedulable():
    snap = {"nodes": [{"name": "n1", "capacity": {"vcore": 4}, "schedulable": False}],
            "applications": [{"id": "x", "queue": "root.a", "asks": [{"priority": 1, "resources": {"vcore": 1}}]}]}
    eng = build_engine(QUEUES, snap)
    assert eng.run() == []
    (u,) = eng.leftovers()
    assert u.reason == "only unschedulable nodes are big enough (n1): every node is unschedulable"


# ---- preemption: no victim on an unschedulable node (Preemptor.initWorkingState) ------------------

PREEMPT_QUEUES = (UNDER_ROOT +
                  "          - {name: high, resources: {guaranteed: {vcore: 4}}, properties: {priority.offset: '100'}}\n"
                  "          - {name: low}\n")


def _preempt_snap(cordoned: bool):
    return {"nodes": [{"name": "node-1", "capacity": {"vcore": 4}, **({"schedulable": False} if cordoned else {})}],
            "applications": [
                {"id": "lo", "queue": "root.low",
                 "allocations": [{"id": "lo-run", "priority": 0, "resources": {"vcore": 4}, "node": "node-1"}]},
                {"id": "hi", "queue": "root.high", "asks": [{"id": "hi-1", "priority": 10, "resources": {"vcore": 2}}]}]}


@pytest.mark.parametrize("cordoned", [False, True])
def test_preempt_takes_no_victim_on_an_unschedulable_node(tmp_path, cordoned):
    q = tmp_path / "q.yaml"
    q.write_text(PREEMPT_QUEUES)
    s = tmp_path / "s.json"
    s.write_text(json.dumps(_preempt_snap(cordoned)))
    r = run_cli("preempt", str(q), str(s), "-o", "json")
    assert r.exit_code == 0, r.stderr
    (ask,) = json.loads(r.stdout)["asks"].values()
    if cordoned:
        assert ask["outcome"] == "not placed" and not ask["victims"]
    else:
        assert ask["outcome"] == "preempted" and ask["victims"] == ["lo-run"]
    # the same inside simulate's order (the reference engine's preemption)
    got = _simulate(str(q), str(s))
    pre = [x["preemption"] for x in got["steps"] if "preemption" in x]
    assert (pre == []) == cordoned
    assert [x["ask"] for x in got["steps"] if "ask" in x] == ([] if cordoned else ["hi-1"])


def test_a_preemption_that_only_cancels_a_reservation_does_not_go_round_forever():
    """a-1 fits only the cordoned node-0, so it never finds a node and tries preemption every
    time time passes; each attempt cancels c-1's lower-priority reservation of node-1
    (initWorkingState), which c-1 takes again in the next cycle. YuniKorn goes round like this
    and places nothing; the reference engine ends the run when the state repeats (found by the
    differential test with unschedulable nodes: it never ended)."""
    import threading

    queues = UNDER_ROOT + ("          - {name: a, resources: {guaranteed: {vcore: 6}}}\n          - {name: b}\n          - {name: c}\n"
                           "          - {name: g, resources: {guaranteed: {vcore: 3}}}\n")
    snap = {"nodes": [{"name": "node-0", "capacity": {"vcore": 8}, "schedulable": False}, {"name": "node-1", "capacity": {"vcore": 4}}],
            "applications": [
                {"id": "b", "queue": "root.b", "allocations": [{"id": "b-run", "priority": 0, "resources": {"vcore": 4}, "node": "node-0"}]},
                {"id": "keep", "queue": "root.g", "allocations": [{"id": "keep-run", "priority": 0, "resources": {"vcore": 3}, "node": "node-1"}]},
                {"id": "a", "queue": "root.a", "asks": [{"id": "a-1", "priority": 10, "resources": {"vcore": 5}}]},
                {"id": "c", "queue": "root.c", "asks": [{"id": "c-1", "priority": 1, "resources": {"vcore": 2}}]}]}
    got: dict = {}

    def run():
        eng = build_engine(queues, snap, "reference")
        got["steps"], got["left"] = eng.run(), {u.ask: u.reason for u in eng.leftovers()}

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "the run did not end"
    assert got["steps"] == []
    assert got["left"]["a-1"].startswith("only unschedulable nodes are big enough (node-0)")
    assert got["left"]["c-1"].endswith("it holds the reservation of node-1")
