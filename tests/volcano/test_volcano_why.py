"""`prio explain --why-job NS/NAME` on Volcano objects: the verdict, each action's and plugin's
gate at the last session, Volcano's own messages for the job and its pods, and its history."""
from __future__ import annotations

import json
import os

import pytest

from conftest import SHARED, run_cli

DATA = os.path.join(SHARED, "testdata", "volcano")


def _why(case: str, job: str) -> dict:
    path = os.path.join(DATA, case + ".yaml")
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/volcano is absent")
    r = run_cli("explain", path, "--why-job", job, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def _recorded(case: str, job: str) -> dict:
    with open(os.path.join(DATA, case + ".volcano.json"), encoding="utf-8") as fh:
        return next(g for g in json.load(fh)["podGroups"] if g["podGroup"] == job)


def test_a_job_no_node_can_hold_names_the_predicates_with_volcanos_words():
    got = _why("capacity--queue-priority", "default/lo4")
    failed = [c for c in got["checks"] if not c["passed"]]
    assert [(c["action"], c["plugin"]) for c in failed] == [("allocate", "predicates")]
    assert failed[0]["reason"] == "default/lo4-0: 0/2 nodes are unavailable: 2 Insufficient cpu."
    assert "allocate (predicates)" in got["verdict"]
    assert got["conditions"] == _recorded("capacity--queue-priority", "default/lo4")["conditions"]
    assert got["pods"] == [{"pod": "default/lo4-0", "reason": "Unschedulable", "message": "0/2 nodes are unavailable: 2 Insufficient cpu."}]
    assert {"cycle": 1, "event": "phase", "detail": "Pending -> Inqueue"} in got["history"]


def test_a_job_enqueue_refuses_names_the_queue_plugin():
    got = _why("proportion--random-06", "j0")  # the namespace defaults to default
    assert got["podGroup"] == "default/j0" and got["phase"] == "Pending"
    failed = [c for c in got["checks"] if not c["passed"]]
    assert failed and (failed[0]["action"], failed[0]["plugin"]) == ("enqueue", "proportion")
    assert "exceed its real capability" in failed[0]["reason"]


def test_a_job_whose_queue_is_missing_is_never_in_a_session():
    got = _why("config--missing-queue", "default/lost")
    assert got["inSession"] is False and got["checks"][0]["plugin"] == "cache"
    assert got["verdict"] == "default/lost is never scheduled: its queue nosuch does not exist"


def test_a_running_job_says_where_and_what_happened():
    r = run_cli("explain", "--sample", "volcano", "--why-job", "default/sweep", "-o", "plain")
    assert r.exit_code == 0, r.stderr
    assert "why default/sweep is Running" in r.stdout and "What happened to it" in r.stdout


def test_an_unknown_job_is_one_line_with_the_near_names():
    path = os.path.join(DATA, "config--missing-queue.yaml")
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/volcano is absent")
    r = run_cli("explain", path, "--why-job", "default/lostt")
    assert r.exit_code == 2
    assert r.stderr.strip().splitlines() == [f"prio: {path}: no PodGroup default/lostt; did you mean default/lost or default/found?"]


def test_why_job_is_for_volcano_and_yunikorns_questions_are_not():
    r = run_cli("explain", "--sample", "walkthrough", "--why-job", "default/x")
    assert r.exit_code == 2 and "--why-job applies to Volcano inputs" in r.stderr
    r = run_cli("explain", "--sample", "volcano", "--why-ask", "x")
    assert r.exit_code == 2 and "for Volcano use --why-job NS/NAME" in r.stderr
