"""`prio explain` on Volcano objects: the queue order and the job order the configured plugins
give at the first session, and the PodGroups Volcano leaves out."""
from __future__ import annotations

import json
import os

import pytest

from conftest import SHARED, run_cli

DATA = os.path.join(SHARED, "testdata", "volcano")


def _explain(path: str) -> dict:
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/volcano is absent")
    r = run_cli("explain", path, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_jobs_in_priority_then_creation_order():
    got = _explain(os.path.join(DATA, "priority--globalDefault.yaml"))
    assert [j["priority"] for j in got["jobs"]] == sorted((j["priority"] for j in got["jobs"]), reverse=True)


def test_a_podgroup_whose_queue_is_missing_is_left_out():
    got = _explain(os.path.join(DATA, "config--missing-queue.yaml"))
    assert got["notInSession"] == ["default/lost"]
    assert "default/lost" not in [j["podGroup"] for j in got["jobs"]]


def test_the_refused_config_shows_the_default_in_force():
    got = _explain(os.path.join(DATA, "config--unknown-action.yaml"))
    assert (got["config"]["valid"], got["config"]["actions"]) == (False, ["enqueue", "allocate", "backfill"])


def test_proportion_deserved_comes_from_weights_not_spec():
    got = _explain(os.path.join(DATA, "proportion--deserved-ignored.yaml"))
    assert all(q["deserved"] != "-" for q in got["queues"])


def test_the_sample_explains_in_plain_text():
    r = run_cli("explain", "--sample", "volcano", "-o", "plain")
    assert r.exit_code == 0, r.stderr
    assert "Queues, in the order allocate serves them" in r.stdout and "default/notebook" in r.stdout
