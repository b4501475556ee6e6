"""explain --why-ask [--behind]: the decisive comparison between two asks, or what blocks an ask,
in words and as JSON (where the paths part, the rule, the values compared)."""
import json

import pytest

from builders import UNDER_ROOT
from conftest import run_cli


@pytest.fixture()
def leaf(tmp_path):
    """Two applications in one leaf that ignores application priority, submitted together."""
    q = tmp_path / "q.yaml"
    q.write_text(UNDER_ROOT +
                 "          - {name: f, properties: {application.sort.priority: disabled}}\n")
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n"
                 "  - {id: F1, queue: root.f, submitTime: 5, asks: [{id: f1, priority: 1}]}\n"
                 "  - {id: F2, queue: root.f, submitTime: 5, asks: [{id: f2, priority: 5}]}\n")
    return q, s


def why_ask(*args):
    r = run_cli("explain", *args, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_why_ask_json_has_structure():
    d = why_ask("--why-ask", "app-7-1", "--behind", "app-1-1")
    assert list(d) == ["ask", "step", "placedBefore", "waitsBehind", "partsAt", "rule", "values", "tie", "lines"]
    assert d["step"] == 9 and d["placedBefore"] == {"ask": "app-1-1", "application": "app-1", "step": 1} and d["waitsBehind"] is True
    assert d["partsAt"] == "root" and d["rule"] == "priority" and d["values"] == {"root.system": 1001, "root.tenants": 0}
    assert d["tie"] is False and "  their paths part at root, where system sorts before tenants:" in d["lines"]
    d = why_ask("--why-ask", "app-1-1", "--behind", "app-7-1")
    assert d["waitsBehind"] is False and d["partsAt"] == "root"
    d = why_ask("--why-ask", "app-1-1")
    assert d["step"] == 1 and d["rule"] == "first" and d["placedBefore"] is None
    d = why_ask("--sample", "batch", "--why-ask", "fe-1")
    assert d["partsAt"] == "root.prod" and d["rule"] == "fairShare" and d["values"]["root.prod.etl"] == 0
    d = why_ask("--sample", "batch", "--why-ask", "exec-3")
    assert d["step"] is None and d["rule"] == "neverPlaced" and d["values"]["code"] == "MaxApplications"
    d = why_ask("--why-ask", "app-2-2", "--behind", "app-2-1")  # two asks of one application
    assert d["partsAt"] == "root.system.system-normal" and d["rule"] == "askPriority" and d["values"] == {"app-2-1": 10, "app-2-2": 2}


def test_why_ask_json_inside_a_leaf(leaf):
    q, s = leaf
    d = why_ask(str(q), str(s), "--why-ask", "f1")
    assert d["partsAt"] == "root.f" and d["rule"] == "applicationPriority" and d["values"] == {"F2": 5, "F1": 1}


def test_why_ask_names_the_decisive_comparison():
    r = run_cli("explain", "--why-ask", "app-7-1", "--behind", "app-1-1")
    assert r.exit_code == 0, r.stderr
    assert "placed at step 9 of 11" in r.stdout and "waits behind app-1-1" in r.stdout
    assert "their paths part at root, where system sorts before tenants" in r.stdout
    assert "priority 1001 against 0" in r.stdout and "tenants is fenced" in r.stdout
    # without --behind: the ask placed just before it, compared when that one was chosen
    r = run_cli("explain", "--why-ask", "app-7-1")
    assert "waits behind app-6-1" in r.stdout and "child-b-1 sorts before child-b-2" in r.stdout and "priority 9 against 8" in r.stdout
    r = run_cli("explain", "--why-ask", "app-3-1", "--behind", "app-4-1")  # decided at step 4, not now
    assert "tenants sorts before system" in r.stdout and "priority 0 against -997" in r.stdout
    r = run_cli("explain", "--why-ask", "app-1-1")
    assert "Nothing goes before it" in r.stdout
    r = run_cli("explain", "--sample", "batch", "--why-ask", "fe-1")
    assert "etl sorts before web" in r.stdout and "fair share 0 against 0.166667" in r.stdout
    r = run_cli("explain", "--sample", "batch", "--why-ask", "exec-3")
    assert "never placed: maxapplications 2 of root.prod.etl" in r.stdout
    assert run_cli("explain", "--why-ask", "nope").exit_code == 2
    assert run_cli("explain", "--behind", "app-1-1").exit_code == 2
    assert run_cli("explain", "--why-ask", "app-1-1", "--behind", "app-1-1").exit_code == 2
    assert run_cli("explain", "--why-ask", "app-1-1", "--why", "root").exit_code == 2


@pytest.mark.parametrize("args, said", [
    (("--behind", "app-1-1"), "prio: --behind goes with --why-ask"),
    (("--why-ask", "app-1-1", "--queue", "root.a"), "prio: --why-ask goes alone (not with --why or --queue)"),
    (("--pending", "--why-ask", "app-1-1"), "prio: --pending goes alone (not with --why, --why-ask or --queue)"),
])
def test_options_that_do_not_go_together_are_refused_before_anything_is_read(tmp_path, args, said):
    """An input that does not exist is not even opened (nor a cluster or a server asked)."""
    r = run_cli("explain", str(tmp_path / "missing.yaml"), *args)
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.strip() == said, r.stderr
    doc = json.loads(run_cli("explain", "--why-ask", "app-5-2", "-o", "json").stdout)
    assert doc["ask"] == "app-5-2" and "step 7" in doc["lines"][0]


def test_why_ask_inside_a_leaf_names_the_deciding_step(leaf):
    q, s = leaf
    r = run_cli("explain", str(q), str(s), "--why-ask", "f1")
    assert "waits behind f2" in r.stdout
    assert "priority only breaks ties" in r.stdout and "higher application priority first: 5 against 1" in r.stdout


def test_why_ask_names_what_blocks_an_ask(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(UNDER_ROOT +
                 "          - {name: a, maxapplications: 1}\n          - {name: b, resources: {max: {vcore: 2}}}\n")
    s = tmp_path / "s.yaml"
    s.write_text("capacity: {vcore: 10}\napplications:\n"
                 "  - {id: run, queue: root.a, allocated: {vcore: 1}, asks: [{priority: 1, resources: {vcore: 1}}]}\n"
                 "  - {id: new, queue: root.a, asks: [{priority: 9, resources: {vcore: 1}}]}\n"
                 "  - {id: big, queue: root.b, asks: [{id: huge, priority: 5, resources: {vcore: 3}}, {id: small, priority: 1, resources: {vcore: 1}}]}\n")
    r = run_cli("explain", str(q), str(s), "--why-ask", "new-1")
    assert "never placed: maxapplications 1 of root.a reached" in r.stdout
    r = run_cli("explain", str(q), str(s), "--why-ask", "small", "--behind", "huge")
    assert "huge is never placed" in r.stdout and "does not fit max of root.b: needs vcore 3, 2 of 2 left" in r.stdout


def test_blockers_name_the_node_and_the_user_limit_at_that_moment():
    """--why-ask's blockers with nodes and limits: no node with room (the node and what is free),
    a user's limit (who, where, the numbers)."""
    from builders import build_engine
    from prio.yunikorn import explain

    queues = UNDER_ROOT + "          - {name: a, limits: [{limit: l, users: [alice], maxresources: {vcore: 2}}]}\n"
    snap = {"nodes": [{"name": "n1", "capacity": {"vcore": 4}}, {"name": "n2", "capacity": {"vcore": 2}}],
            "applications": [{"id": "r", "queue": "root.a", "user": "bob", "allocations": [{"id": "r1", "resources": {"vcore": 3}, "node": "n1"}],
                              "asks": [{"id": "big", "priority": 1, "resources": {"vcore": 3}}]},
                             {"id": "x", "queue": "root.a", "user": "alice", "asks": [{"id": "wide", "priority": 1, "resources": {"vcore": 3}}]}]}
    eng = build_engine(queues, snap)
    st = {s.app_id: s for s in eng.apps}
    facts: dict = {}
    got = explain._blockers(eng, st["r"], st["r"].asks[0], facts)
    # n2 (2 cores) could never hold it: the most free on a node that could is n1's 1
    assert got == ["big finds no node then (no node has room: needs vcore 3, the most free on one node is 1 (n1)): "
                   "YuniKorn tries the next ask instead."] and facts["rule"] == "nodes"
    facts = {}
    got = explain._blockers(eng, st["x"], st["x"].asks[0], facts)
    assert got == ["wide does not fit the user limit of alice in root.a then (needs vcore 3, 2 of 2 left): YuniKorn tries the next ask instead."]
    assert facts["rule"] == "userQuota" and facts["values"]["user"] == "alice"
