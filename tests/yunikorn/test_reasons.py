"""Reason codes: every ask prio does not place gets a stable code and words, in simulate, explain
--pending, --why-ask (and diff, see test_diff.py)."""
import json
from types import SimpleNamespace

import pytest

from builders import UNDER_ROOT
from conftest import run_cli, sample
from prio.yunikorn import reasons

QUEUES = (UNDER_ROOT +
          "          - {name: a, maxapplications: 1}\n"
          "          - {name: b, resources: {max: {vcore: 2, memory: 4Gi}}}\n"
          "          - {name: c}\n")
SNAP = ("capacity: {vcore: 3}\napplications:\n"
        "  - {id: run, queue: root.a, allocated: {vcore: 1}, asks: [{priority: 1, resources: {vcore: 1}}]}\n"
        "  - {id: new, queue: root.a, asks: [{priority: 9, resources: {vcore: 1}}, {priority: 8, resources: {vcore: 1}}]}\n"
        "  - {id: big, queue: root.b, asks: [{id: huge, priority: 5, resources: {vcore: 3}}, {id: fat, priority: 4, resources: {memory: 5Gi}},"
        " {id: small, priority: 1, resources: {vcore: 1}}]}\n"
        "  - {id: many, queue: root.c, asks: [{id: m, priority: 0, resources: {vcore: 1}, count: 5}]}\n")


@pytest.fixture
def files(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(QUEUES)
    s = tmp_path / "s.yaml"
    s.write_text(SNAP)
    return str(q), str(s)


@pytest.mark.parametrize("text,code,queue,resource", [
    ("maxapplications 2 of root.prod.etl reached (2 running)", "MaxApplications", "root.prod.etl", None),
    ("does not fit max of root.research.alice: needs vcore 2, 0 of 4 left", "QueueQuota", "root.research.alice", "vcore"),
    ("does not fit max of root.x: needs memory 1Gi, 512Mi of 4Gi left", "QueueQuota", "root.x", "memory"),
    ("does not fit the cluster capacity: needs vcore 1, 0 of 16 left", "NoCapacity", None, "vcore"),
    ("queue root.q is Stopped: YuniKorn schedules nothing from it", "QueueStopped", "root.q", None),
    ("something new", "Unknown", None, None),
])
def test_classify_the_engines_sentences(text, code, queue, resource):
    r = reasons.classify(text)
    assert (r.code, r.queue, r.resource, r.detail) == (code, queue, resource, text)
    assert r.code in reasons.CODES


def test_words_are_yunikorns_own_strings():
    assert reasons.classify("does not fit max of root.b: needs vcore 3, 2 of 2 left").words == \
        "Not enough queue quota: root.b is short of vcore (needs 3, 2 of max 2 left)"
    assert reasons.classify("maxapplications 1 of root.a reached (1 running)").words.startswith(
        "Application cannot run in queue: maxapplications reached on root.a")
    assert reasons.CODES["UserQuota"][0] == "Not enough user quota"
    rej = reasons.rejected("failed to place application x: no rule\nmore", "root.nope")
    assert rej.code == "RejectedByPlacement" and "failed to place application x" in rej.words and "\n" not in rej.words


def test_pending_covers_rejected_and_not_reached_asks():
    # an engine as the placement step will expose it: rejected applications beside leftovers
    ask = SimpleNamespace(id="r-1", priority=3)
    eng = SimpleNamespace(leftovers=list, apps=[],
                          rejected=[SimpleNamespace(application="r", queue="root.nope", reason="failed to place application r")],
                          snapshot=SimpleNamespace(apps=[SimpleNamespace(id="r", asks=[ask])]))
    got = reasons.pending(eng)
    assert [(p.ask, p.application, p.queue, p.reason.code) for p in got] == [("r-1", "r", "root.nope", "RejectedByPlacement")]
    assert reasons.rejected_apps(eng)[0][:2] == ("r", "root.nope")


def test_simulate_json_has_a_code_beside_the_reason(files):
    doc = json.loads(run_cli("simulate", *files, "-o", "json").stdout)
    got = {u["ask"]: (u["code"], u["reason"]) for u in doc["unscheduled"]}
    assert got["new-1"] == ("MaxApplications", "maxapplications 1 of root.a reached (1 running)")
    assert got["huge"][0] == "QueueQuota" and got["huge"][1].startswith("does not fit max of root.b: needs vcore 3")
    assert got["fat"][0] == "QueueQuota" and "memory" in got["fat"][1]
    assert {c for c, _ in got.values()} == {"MaxApplications", "QueueQuota", "NoCapacity"}
    assert list(doc["unscheduled"][0]) == ["ask", "application", "queue", "priority", "reason", "code"]


@pytest.mark.parametrize("fmt", ["plain", "markdown", "table"])
def test_simulate_tables_show_the_code(files, fmt):
    out = run_cli("simulate", *files, "-o", fmt).stdout
    assert "MaxApplications" in out and "QueueQuota" in out and "NoCapacity" in out


def test_explain_pending_json(files):
    r = run_cli("explain", *files, "--pending", "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    by = {g["code"]: g for g in doc["reasons"]}
    assert doc["pending"] == sum(g["asks"] for g in doc["reasons"])
    assert doc["placed"] + doc["pending"] == 11
    assert by["MaxApplications"]["asks"] == 2 and by["MaxApplications"]["queues"][0]["queue"] == "root.a"
    assert by["QueueQuota"]["asks"] == 2 and by["QueueQuota"]["words"] == "Not enough queue quota"
    nc = by["NoCapacity"]
    assert nc["queues"][0]["queue"] == "root.c" and len(nc["queues"][0]["first"]) == 3  # the first few only
    assert [g["asks"] for g in doc["reasons"]] == sorted((g["asks"] for g in doc["reasons"]), reverse=True)
    r = run_cli("explain", *files, "--pending", "--limit", "1", "-o", "json")
    assert all(len(q["first"]) <= 1 for g in json.loads(r.stdout)["reasons"] for q in g["queues"])


@pytest.mark.parametrize("fmt", ["plain", "markdown", "table"])
def test_explain_pending_human_formats(files, fmt):
    r = run_cli("explain", *files, "--pending", "-o", fmt)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "asks not placed" in out and "MaxApplications" in out and "root.a" in out
    assert "Not enough queue quota" in out
    assert "(+" in out  # the queue with more asks than shown says how many more
    if fmt == "markdown":
        assert "## Pending reasons" in out and "| code" in out


def test_explain_pending_when_everything_is_placed():
    r = run_cli("explain", "--pending", "-o", "plain")
    assert r.exit_code == 0 and "nothing waits" in r.stdout
    doc = json.loads(run_cli("explain", "--pending", "-o", "json").stdout)
    assert doc == {"placed": 11, "pending": 0, "reasons": []}


def test_explain_pending_goes_alone(files):
    r = run_cli("explain", *files, "--pending", "--why", "root.a")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == "prio: --pending goes alone (not with --why, --why-ask or --queue)\n", r.stderr


def test_why_ask_uses_the_same_codes(files):
    r = run_cli("explain", *files, "--why-ask", "huge")
    assert "never placed: does not fit max of root.b" in r.stdout
    assert "Reason QueueQuota: Not enough queue quota: root.b is short of vcore" in r.stdout
    r = run_cli("explain", sample("batch-queues.yaml"), sample("batch-asks.yaml"), "--why-ask", "etl-nightly/exec-3")
    assert "Reason MaxApplications" in r.stdout


def test_explain_pending_refuses_armada_scenarios():
    r = run_cli("explain", sample("armada-current.yaml"), "--pending")
    assert r.exit_code == 2 and "--pending" in r.stderr and "Traceback" not in r.stderr


def test_rejections_for_acls_and_user_names_have_codes_of_their_own():
    from prio.yunikorn import placement, reasons

    closed = reasons.rejected(f"failed to place application x: {placement.NO_RULE}\n{placement.CLOSED}", "root.a")
    assert closed.code == "NoSubmitAccess" and "no submitacl or adminacl" in closed.words
    assert reasons.rejected(placement.BAD_USER, "root.a").code == "InvalidUser"
    assert reasons.rejected(f"failed to place application x: {placement.NO_RULE}", "root.a").code == "RejectedByPlacement"
