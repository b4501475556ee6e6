"""A pod's `status.phase` as Volcano's cache reads it (api.getTaskStatus; cache addTask): a
Succeeded or Failed pod takes nothing of its node and is in no allocation, but counts toward its
gang as Volcano counts it (Succeeded ready and valid, both scheduled and completed); Pending on
a node is Bound; Failed or Unknown with no node is never scheduled. With no phase written, a pod
on a node is Running and one on none Pending (the corpus's defaults)."""
from __future__ import annotations

import glob
import json
import os

import pytest
import yaml

from conftest import SHARED, run_cli
from prio.volcano import session

NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '2', memory: 4Gi}}\n"


def _group(name: str, min_member: int = 1, phase: str | None = None) -> str:
    return (f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {{name: {name}}}\nspec: {{minMember: {min_member}}}\n"
            + (f"status: {{phase: {phase}}}\n" if phase else ""))


def _pod(name: str, group: str, node: str | None = None, phase: str | None = None, cpu: str = "2") -> str:
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  annotations: {{scheduling.k8s.io/group-name: {group}}}\n"
            f"spec:\n  containers:\n  - name: main\n    resources: {{requests: {{cpu: '{cpu}', memory: 1Gi}}}}\n"
            + (f"  nodeName: {node}\n" if node else "") + (f"status: {{phase: {phase}}}\n" if phase else ""))


def _simulate(tmp_path, *docs: str) -> dict:
    p = tmp_path / "in.yaml"
    p.write_text("---\n".join(docs))
    r = run_cli("simulate", str(p), "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("phase, node, status", [
    ("Running", "n1", "Running"), ("Pending", None, "Pending"), ("Pending", "n1", "Bound"),
    ("Succeeded", "n1", "Succeeded"), ("Failed", None, "Failed"), ("Unknown", "n1", "Unknown"), ("Evicting", None, "Unknown"),
])
def test_the_task_status_of_each_phase(phase, node, status):
    assert session.task_status(phase, node) == status


@pytest.mark.parametrize("phase", ["Succeeded", "Failed"])
def test_a_terminated_pod_frees_its_node(tmp_path, phase):
    """The node's 2 cpu are all the finished pod asked: a new 2-cpu pod binds in the first cycle
    (before, prio held the node for it and never bound the new one)."""
    out = _simulate(tmp_path, NODE, _group("done", phase="Running"), _pod("done-0", "done", "n1", phase), _group("new"), _pod("new-0", "new"))
    pods = {p["pod"]: p for p in out["pods"]}
    assert pods["default/new-0"]["state"] == "Running" and pods["default/new-0"]["boundInCycle"] == 1
    assert pods["default/done-0"]["state"] == phase and pods["default/done-0"]["node"] == "n1"
    groups = {g["podGroup"]: g for g in out["podGroups"]}
    assert groups["default/done"]["phase"] == "Completed"  # every scheduled task completed (getPodGroupPhase)
    assert (groups["default/done"]["running"], groups["default/done"]["pending"]) == (0, 0)


def test_a_succeeded_pod_counts_toward_its_gang(tmp_path):
    """minMember 2, one pod Succeeded and one pending: the gang is valid and ready once the
    pending one is allocated (ReadyTaskNum counts Succeeded); with Failed it is not valid."""
    ok = _simulate(tmp_path, NODE, _group("g", 2, "Running"), _pod("g-0", "g", "n1", "Succeeded"), _pod("g-1", "g", cpu="1"))
    assert {p["pod"]: p["state"] for p in ok["pods"]}["default/g-1"] == "Running"
    failed = _simulate(tmp_path, NODE, _group("g", 2, "Running"), _pod("g-0", "g", "n1", "Failed"), _pod("g-1", "g", cpu="1"))
    assert {p["pod"]: p["state"] for p in failed["pods"]}["default/g-1"] == "Pending"


def test_a_failed_pod_on_no_node_is_never_scheduled(tmp_path):
    out = _simulate(tmp_path, NODE, _group("g"), _pod("g-0", "g", None, "Failed"))
    assert [(p["state"], p["boundInCycle"]) for p in out["pods"]] == [("Failed", None)]
    assert out["cycles"] == [] or all(not c.get("binds") for c in out["cycles"])


def test_the_plain_table_says_a_terminated_pod_stays(tmp_path):
    p = tmp_path / "in.yaml"
    p.write_text("---\n".join([NODE, _group("done", phase="Running"), _pod("done-0", "done", "n1", "Succeeded")]))
    r = run_cli("simulate", str(p))
    assert r.exit_code == 0 and "as written: Volcano never schedules it again" in r.stdout


def _deleting(text: str) -> str:
    return text.replace("metadata:\n  name:", "metadata:\n  deletionTimestamp: '2026-01-01T00:00:00Z'\n  name:", 1)


@pytest.mark.parametrize("phase, node, status", [("Running", "n1", "Releasing"), ("Pending", None, "Releasing"),
                                                 ("Succeeded", "n1", "Succeeded")])
def test_a_pod_being_deleted_is_releasing(phase, node, status):
    assert session.task_status(phase, node, deleting=True) == status


def test_a_pod_being_deleted_releases_its_node_after_the_first_cycle(tmp_path):
    """Its 2 cpu are Releasing in cycle 1 (in the node's use, out of the queue's allocation): the
    new pod fits only the node's future idle and is pipelined there (nominatedNode); the deleted
    pod is gone after the cycle, as an evicted one is, and the new one binds in cycle 2."""
    out = _simulate(tmp_path, NODE, _group("old", phase="Running"), _deleting(_pod("old-0", "old", "n1", "Running")),
                    _group("new"), _pod("new-0", "new"))
    pods = {p["pod"]: p for p in out["pods"]}
    assert (pods["default/old-0"]["state"], pods["default/old-0"]["node"]) == ("Deleted", "n1")
    assert (pods["default/new-0"]["state"], pods["default/new-0"]["boundInCycle"]) == ("Running", 2)
    assert [p["pod"] for p in out["cycles"][0]["pipelined"]] == ["default/new-0"]
    groups = {g["podGroup"]: g for g in out["podGroups"]}
    assert (groups["default/old"]["running"], groups["default/old"]["evicted"]) == (0, 0)


CASES = sorted(glob.glob(os.path.join(SHARED, "testdata", "volcano", "*.yaml")))


def _without(out: dict, group: str) -> dict:
    out = dict(out)
    out["podGroups"] = [g for g in out["podGroups"] if g["podGroup"] != group]
    out["pods"] = [p for p in out["pods"] if p["podGroup"] != group]
    return out


@pytest.mark.skipif(not CASES, reason="../shared/testdata/volcano is absent")
@pytest.mark.parametrize("case", CASES[::3], ids=[os.path.basename(c)[:-5] for c in CASES[::3]])
def test_a_finished_job_on_a_node_changes_nothing_else(case, tmp_path):
    """Every third recorded scenario with one more PodGroup, Completed, whose only pod Succeeded on
    the scenario's first node asking for all of it: the replay of everything else is the same
    (a terminated pod takes nothing of its node, is in no allocation and never schedules)."""
    docs = [d for d in yaml.safe_load_all(open(case, encoding="utf-8")) if d is not None]
    node = next((d for d in docs if isinstance(d, dict) and d.get("kind") == "Node"), None)
    if node is None:
        pytest.skip("no Node in the scenario")
    cpu = str(((node.get("status") or {}).get("allocatable") or (node.get("status") or {}).get("capacity") or {}).get("cpu", "1"))
    extra = [yaml.safe_load(_group("zz-done", phase="Completed")),
             yaml.safe_load(_pod("zz-done-0", "zz-done", node["metadata"]["name"], "Succeeded", cpu))]
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    b.write_text(yaml.safe_dump_all(docs + extra, sort_keys=False))
    want = run_cli("simulate", str(a), "-o", "json")
    got = run_cli("simulate", str(b), "-o", "json")
    assert (got.exit_code, want.exit_code) == (0, 0), got.stderr + want.stderr
    g = json.loads(got.stdout)
    assert [p["state"] for p in g["pods"] if p["podGroup"] == "default/zz-done"] == ["Succeeded"]
    assert _without(g, "default/zz-done") == json.loads(want.stdout)


def test_a_pod_on_a_node_not_among_the_inputs_keeps_its_allocation(tmp_path):
    """The cache adds a placeholder node for it (NewNodeInfo(nil)), never in a snapshot: the
    pod stays Running on it, in its queue's allocation, and is never scheduled elsewhere (before,
    prio bound it again on n1). Its job's allocation counts: a second pod of a 2-member gang binds."""
    out = _simulate(tmp_path, NODE, _group("g", 2, "Running"), _pod("g-0", "g", "gone", "Running", cpu="1"), _pod("g-1", "g", cpu="1"))
    pods = {p["pod"]: p for p in out["pods"]}
    assert (pods["default/g-0"]["state"], pods["default/g-0"]["node"], pods["default/g-0"]["boundInCycle"]) == ("Running", "gone", 0)
    assert (pods["default/g-1"]["state"], pods["default/g-1"]["node"]) == ("Running", "n1")
