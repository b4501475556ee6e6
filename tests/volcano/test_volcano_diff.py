"""`prio diff OLD NEW` on Volcano inputs: two replays compared PodGroup by PodGroup and pod by
pod (each side a whole file of objects and scheduler config, or two configs beside one objects
file), the config in force on each side, validate findings added or removed, --fail-on."""
from __future__ import annotations

import json
import os

import pytest

from conftest import ROOT, run_cli

SAMPLE = os.path.join(ROOT, "samples", "volcano.yaml")
ALL = "enqueue, allocate, preempt, reclaim, backfill"


@pytest.fixture()
def sides(tmp_path):
    text = open(SAMPLE, encoding="utf-8").read()
    assert ALL in text
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(text)
    new.write_text(text.replace(ALL, "enqueue, allocate, backfill"))
    docs = text.split("\n---\n")
    cm = next(d for d in docs if "kind: ConfigMap" in d)
    (tmp_path / "objects.yaml").write_text("\n---\n".join(d for d in docs if d is not cm) + "\n")
    (tmp_path / "cfg-old.yaml").write_text(cm + "\n")
    (tmp_path / "cfg-new.yaml").write_text(cm.replace(ALL, "enqueue, allocate, backfill") + "\n")
    return tmp_path


def _diff(*args):
    r = run_cli("diff", *map(str, args), "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    return r.exit_code, json.loads(r.stdout)


def test_dropping_preempt_and_reclaim_leaves_the_preemptors_pending(sides):
    code, d = _diff(sides / "old.yaml", sides / "new.yaml")
    assert code == 0 and d["model"] == "volcano" and d["config"]["changed"]
    assert d["config"]["new"]["actions"] == ["enqueue", "allocate", "backfill"]
    pods = {p["pod"]: p["changes"] for p in d["pods"]}
    assert pods["default/notebook-0"] == ["newly pending"]
    assert all(pods[f"default/sweep-{i}"] == ["newly running"] for i in range(4))
    assert d["summary"]["newlyPending"] == 3 and d["summary"]["newlyEvicted"] == 0
    groups = {g["podGroup"]: g for g in d["podGroups"]}
    assert groups["default/notebook"]["changes"][0] == "phase Running -> Inqueue"


def test_two_configs_beside_one_objects_file_compare_the_same(sides):
    _, whole = _diff(sides / "old.yaml", sides / "new.yaml")
    _, configs = _diff(sides / "cfg-old.yaml", sides / "cfg-new.yaml", sides / "objects.yaml")
    assert configs["pods"] == whole["pods"] and configs["podGroups"] == whole["podGroups"]


def test_fail_on_names_the_kinds_of_change(sides):
    assert run_cli("diff", str(sides / "old.yaml"), str(sides / "new.yaml"), "--fail-on", "unscheduled").exit_code == 1
    assert run_cli("diff", str(sides / "old.yaml"), str(sides / "new.yaml"), "--fail-on", "preemption").exit_code == 0
    assert run_cli("diff", str(sides / "new.yaml"), str(sides / "old.yaml"), "--fail-on", "preemption").exit_code == 1


def test_the_same_file_ends_the_same(sides):
    r = run_cli("diff", str(sides / "old.yaml"), str(sides / "old.yaml"), "-o", "plain")
    assert r.exit_code == 0 and "every PodGroup and pod ends the same" in r.stdout
    assert "the config in force is the same on both sides" in r.stdout


def test_volcano_beside_another_scheduler_is_one_line(sides):
    other = os.path.join(ROOT, "samples", "batch-queues.yaml")
    r = run_cli("diff", str(sides / "old.yaml"), other)
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and "compare two Volcano files" in r.stderr
