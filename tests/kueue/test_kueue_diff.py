"""`prio diff OLD NEW WORK` on Kueue setups: each side replayed on the same workloads, then
which workloads are admitted, preempted or left pending differently (prio.kueue.diff)."""
from __future__ import annotations

import json
import os

import pytest

from builders import kueue_sample_split
from conftest import ROOT, run_cli

SAMPLE = open(os.path.join(ROOT, "samples", "kueue.yaml"), encoding="utf-8").read()
SETUP, NO_RECLAIM, WORK = kueue_sample_split()


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for var in ("PRIO_OUTPUT", "PRIO_OUTPUT_FILE", "PRIO_CONFIG"):
        monkeypatch.delenv(var, raising=False)

    def write(**texts):
        for name, text in texts.items():
            (tmp_path / name.replace("_", ".")).write_text(text, encoding="utf-8")

    return write


def diff(*args):
    r = run_cli("diff", *args)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def test_reclaim_switched_off_leaves_the_owner_pending_and_the_borrower_running(files):
    files(old_yaml=SETUP, new_yaml=NO_RECLAIM, work_yaml=WORK)
    r = diff("old.yaml", "new.yaml", "work.yaml", "-o", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["model"], d["old"], d["new"]) == ("kueue", "old.yaml", "new.yaml")
    by = {c["workload"]: c for c in d["workloads"]}
    assert sorted(by) == ["team-a/a-1", "team-a/a-2", "team-b/b-borrowed"]  # b-own runs on both sides
    a1 = by["team-a/a-1"]
    assert a1["changes"] == ["newly pending"]
    assert (a1["old"]["state"], a1["old"]["admittedInCycle"], a1["old"]["flavors"]) == ("Admitted", 2, {"main": {"cpu": "default"}})
    assert (a1["new"]["state"], a1["new"]["pendingReason"]) == ("Pending", "WaitingForQuota")
    assert a1["new"]["pendingMessage"] == ("couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
                                           "default, 2 more needed")
    assert by["team-b/b-borrowed"]["changes"] == ["newly admitted", "preempted less often"]
    assert by["team-a/a-2"]["changes"] == ["admitted in another cycle"]
    assert d["summary"] == {"workloads": 4, "changed": 3, "newlyAdmitted": 1, "newlyPending": 1, "preemptedMoreOften": 0}
    assert d["cycles"] == {"old": 3, "new": 2}


def test_fail_on_reads_kueue_changes(files):
    files(old_yaml=SETUP, new_yaml=NO_RECLAIM, work_yaml=WORK)
    assert diff("old.yaml", "new.yaml", "work.yaml", "--fail-on", "unscheduled").exit_code == 1
    assert diff("old.yaml", "new.yaml", "work.yaml", "--fail-on", "order").exit_code == 1
    assert diff("old.yaml", "new.yaml", "work.yaml", "--fail-on", "preemption,priority,findings").exit_code == 0
    # the other way round, reclaim switched on: b-borrowed is now preempted
    assert diff("new.yaml", "old.yaml", "work.yaml", "--fail-on", "preemption").exit_code == 1
    assert diff("new.yaml", "old.yaml", "work.yaml", "--fail-on", "unscheduled").exit_code == 1  # b-borrowed


@pytest.mark.parametrize("fmt", ["plain", "table", "markdown"])
def test_human_formats_show_each_side(files, fmt):
    files(old_yaml=SETUP, new_yaml=NO_RECLAIM, work_yaml=WORK)
    r = diff("old.yaml", "new.yaml", "work.yaml", "-o", fmt)
    assert r.exit_code == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "3 of 4 workloads differ (1 newly admitted, 1 newly pending)" in out
    texts = ["team-a/a-1", "newly pending", "team-b/b-borrowed"]
    if fmt != "table":  # (rich wraps the long cells of a narrow terminal)
        texts += ["Admitted to team-a (cycle 2: cpu in default)", "Pending: WaitingForQuota", "preempted 1x"]
    for text in texts:
        assert text in out, (text, r.stdout)


def test_the_same_setup_changes_nothing(files):
    files(old_yaml=SETUP, copy_yaml=SETUP, work_yaml=WORK)
    r = diff("old.yaml", "copy.yaml", "work.yaml", "--fail-on", "priority,order,unscheduled,findings,preemption")
    assert r.exit_code == 0, r.stderr
    assert "0 of 4 workloads differ" in r.stdout and "every workload ends the same" in r.stdout


def test_a_setting_that_cannot_work_shows_as_a_finding_and_in_the_replay(files):
    """NEW drops team-a's namespaceSelector: validate warns (PRIO615) and team-a admits nothing."""
    broken = SETUP.replace("  name: team-a\nspec:\n  namespaceSelector: {}\n", "  name: team-a\nspec:\n", 1)
    assert broken != SETUP
    files(old_yaml=SETUP, new_yaml=broken, work_yaml=WORK)
    r = diff("old.yaml", "new.yaml", "work.yaml", "-o", "json", "--fail-on", "findings")
    assert r.exit_code == 1, r.stderr
    d = json.loads(r.stdout)
    assert [f["rule"] for f in d["findings"]["added"]] == ["PRIO615"] and d["findings"]["removed"] == []
    by = {c["workload"]: c for c in d["workloads"]}
    assert by["team-a/a-1"]["new"]["pendingMessage"] == "workload namespace doesn't match ClusterQueue selector"
    assert "validate findings" in diff("old.yaml", "new.yaml", "work.yaml", "-o", "plain").stdout


def test_workloads_with_each_side_and_a_workload_only_on_one(files):
    """OLD and NEW may carry their own workloads; one only in NEW is said so."""
    extra = WORK.split("\n---\n")[-1].replace("name: a-2", "name: a-3")
    files(old_yaml=SAMPLE, new_yaml=SAMPLE + "---\n" + extra)
    d = json.loads(diff("old.yaml", "new.yaml", "-o", "json").stdout)
    (c,) = [c for c in d["workloads"] if c["workload"] == "team-a/a-3"]
    assert c["changes"] == ["only in NEW"] and c["old"] is None and c["new"]["state"] == "Admitted"


def test_a_kueue_setup_against_something_else_is_one_line(files):
    files(old_yaml=SAMPLE, yk_yaml="partitions:\n  - name: default\n    queues:\n      - name: root\n")
    r = diff("old.yaml", "yk.yaml")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_compare_priority_and_only_in_old():
    from prio.kueue.diff import changed, compare

    def side(prio, *keys):
        return {"cyclesRun": 1, "stopReason": "noPendingHeads", "workloads": [
            {"workload": k, "priority": prio, "state": "Pending", "clusterQueue": None, "admittedInCycle": None,
             "timesPreempted": 0, "pendingReason": "Pending", "pendingMessage": "m"} for k in keys]}

    d = compare(side(1, "ns/a", "ns/b"), side(2, "ns/a"))
    assert [(c["workload"], c["changes"]) for c in d["workloads"]] == [("ns/a", ["priority changed"]), ("ns/b", ["only in OLD"])]
    assert changed(d, "priority") and not changed(d, "unscheduled") and not changed(d, "findings")


@pytest.mark.parametrize("kueue_side", ["OLD", "NEW"])
def test_a_kueue_side_against_a_yunikorn_side_is_refused_naming_the_side_without_objects(files, kueue_side):
    """Either way round, the one line names the side that holds Kueue objects and the one that
    holds none (the claimed side decides the backend, never the default row)."""
    files(kueue_yaml=SAMPLE, queues_yaml=open(os.path.join(ROOT, "samples", "batch-queues.yaml"), encoding="utf-8").read())
    old, new = ("kueue.yaml", "queues.yaml") if kueue_side == "OLD" else ("queues.yaml", "kueue.yaml")
    r = diff(old, new)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip().endswith("kueue.yaml holds Kueue objects and queues.yaml none: compare two Kueue setups"), r.stderr
    assert r.stderr.count("\n") == 1
