"""A finished Workload (condition Finished=True) as Kueue keeps it: finished alone, holding no
quota and never queued (WorkloadReconciler.Create: AddFinishedWorkload; HasActiveQuotaReservation
and IsAdmissible are false for it). The replay is the one without it, and a note says so."""
from __future__ import annotations

import glob
import json
import os

import pytest
import yaml

from conftest import SHARED, run_cli

FINISHED = {"type": "Finished", "status": "True", "reason": "Succeeded", "message": "done",
            "lastTransitionTime": "2026-01-01T00:30:00Z"}
CASES = sorted(p for corpus in ("kueue", "kueue-2") for p in glob.glob(os.path.join(SHARED, "testdata", corpus, "*.yaml")))


def _docs(path: str) -> list:
    return [d for d in yaml.safe_load_all(open(path, encoding="utf-8")) if d is not None]


def _write(tmp_path, name: str, docs: list) -> str:
    p = tmp_path / name
    p.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return str(p)


@pytest.mark.skipif(not CASES, reason="../shared/testdata/kueue is absent")
@pytest.mark.parametrize("case", CASES[::6], ids=[os.path.basename(c)[:-5] for c in CASES[::6]])
def test_a_finished_workload_replays_as_if_absent(case, tmp_path):
    """Each scenario with its first running workload (else its first) marked finished simulates
    as the scenario without that workload, but for the note naming it."""
    docs = _docs(case)
    wls = [d for d in docs if isinstance(d, dict) and d.get("kind") == "Workload"]
    target = next((w for w in wls if (w.get("status") or {}).get("admission")), wls[0])
    done = [dict(d, status=dict(d.get("status") or {}, conditions=list((d.get("status") or {}).get("conditions") or []) + [FINISHED]))
            if d is target else d for d in docs]
    # (the condition's time is before the replay's clock starts on either side: no cycle's time moves)
    without = [d for d in docs if d is not target]
    got = run_cli("simulate", _write(tmp_path, "done.yaml", done), "-o", "json")
    want = run_cli("simulate", _write(tmp_path, "without.yaml", without), "-o", "json")
    assert got.exit_code == want.exit_code == 0, got.stderr + want.stderr
    assert json.loads(got.stdout) == json.loads(want.stdout)
    meta = target["metadata"]
    assert f"Workload {meta.get('namespace') or 'default'}/{meta['name']}: a finished workload is not replayed" in got.stderr


def test_a_finished_workload_needs_no_priority_class(tmp_path):
    """Its class may be long gone (a finished workload outlives it): never resolved."""
    docs = _docs(os.path.join(os.path.dirname(__file__), "..", "..", "samples", "kueue.yaml"))
    wl = next(d for d in docs if d.get("kind") == "Workload" and not (d.get("status") or {}).get("admission"))
    wl["spec"]["priorityClassRef"] = {"group": "kueue.x-k8s.io", "kind": "WorkloadPriorityClass", "name": "gone"}
    wl["spec"].pop("priority", None)
    p = _write(tmp_path, "s.yaml", docs)
    assert run_cli("simulate", p).exit_code == 2  # pending, the missing class is refused
    wl["status"] = dict(wl.get("status") or {}, conditions=[FINISHED])
    r = run_cli("simulate", _write(tmp_path, "s.yaml", docs))
    assert r.exit_code == 0, r.stderr
    assert "a finished workload is not replayed" in r.stderr


@pytest.mark.parametrize("status, noted", [
    ({"conditions": [{"type": "Requeued", "status": "False", "reason": "PodsReadyTimeout", "message": "m",
                      "lastTransitionTime": "2026-01-01T00:10:00Z"}]}, True),
    ({"requeueState": {"count": 2, "requeueAt": "2027-01-01T00:00:00Z"}}, True),
    ({"requeueState": {"count": 2, "requeueAt": "2025-01-01T00:00:00Z"}}, False),  # its backoff ended before the replay
    ({"conditions": [{"type": "Requeued", "status": "True", "reason": "BackoffFinished", "message": "m",
                      "lastTransitionTime": "2026-01-01T00:10:00Z"}]}, False),
])
def test_a_pending_workload_in_a_requeue_backoff_is_noted(tmp_path, status, noted):
    """Kueue's queue sets it aside until the backoff ends (backoffWaitingTimeExpired): not
    replayed, said in a note; one whose requeueAt passed before the replay starts is not in one."""
    docs = _docs(os.path.join(os.path.dirname(__file__), "..", "..", "samples", "kueue.yaml"))
    wl = next(d for d in docs if d.get("kind") == "Workload" and not (d.get("status") or {}).get("admission"))
    wl["status"] = status
    r = run_cli("simulate", _write(tmp_path, "s.yaml", docs))
    assert r.exit_code == 0, r.stderr
    meta = wl["metadata"]
    assert (f"Workload {meta.get('namespace') or 'default'}/{meta['name']}: a requeue backoff is not replayed" in r.stderr) is noted


def test_an_eviction_in_progress_is_noted(tmp_path):
    """Evicted=True while QuotaReserved=True: Kueue keeps the quota until the pods stop and
    preempts such a workload first; prio keeps it running, and says so."""
    docs = _docs(os.path.join(os.path.dirname(__file__), "..", "..", "samples", "kueue.yaml"))
    wl = next(d for d in docs if d.get("kind") == "Workload" and (d.get("status") or {}).get("admission"))
    before = run_cli("simulate", _write(tmp_path, "s.yaml", docs), "-o", "json")
    wl["status"]["conditions"] = list(wl["status"].get("conditions") or []) + [
        {"type": "Evicted", "status": "True", "reason": "Preempted", "message": "m", "lastTransitionTime": "2026-01-01T00:20:00Z"}]
    r = run_cli("simulate", _write(tmp_path, "s.yaml", docs), "-o", "json")
    assert r.exit_code == 0 and r.stdout == before.stdout
    meta = wl["metadata"]
    assert f"Workload {meta.get('namespace') or 'default'}/{meta['name']}: an eviction in progress is not replayed" in r.stderr
