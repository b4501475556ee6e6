"""`prio explain` on Kueue inputs: the cohort tree with quotas and usage, the pending workloads
in Kueue's order with what each would get now, and --why-workload."""
from __future__ import annotations

import json
import os

from conftest import SHARED, run_cli, shared

DATA = os.path.join(SHARED, "testdata", "kueue")


def test_tree_quotas_usage_and_pending_order():
    path = shared("testdata", "kueue", "preempt-reclaim--reclaim-any.yaml")
    r = run_cli("explain", path, "-o", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    rows = {n["name"]: n for n in data["tree"]}
    assert rows["org"]["kind"] == "Cohort" and rows["borrower"]["path"] == "/org/borrower"
    b = rows["borrower"]["resources"][0]
    assert (b["nominalQuota"], b["usage"], b["borrowed"]) == ("2", "8", "6")
    (o1,) = [p for p in data["pending"] if p["workload"] == "owner/o-1"]
    assert o1["outcome"] == "would preempt"
    assert sorted(v["workload"] for v in o1["victims"]) == ["borrower/b-borrowed-1", "borrower/b-borrowed-2"]
    assert {v["reason"] for v in o1["victims"]} == {"InCohortReclamation"}


def test_why_workload_in_prose_and_unknown_workload():
    path = shared("testdata", "kueue", "fifo--strict-head-blocks.yaml")
    r = run_cli("explain", path, "-o", "plain", "--why-workload", "team-a/small-1")
    assert r.exit_code == 0, r.stderr
    assert "StrictFIFO" in r.stdout and "ahead of it: team-a/big" in r.stdout
    bad = run_cli("explain", path, "--why-workload", "team-a/smal-1")
    assert bad.exit_code == 2 and "did you mean team-a/small-1" in bad.stderr


def test_yunikorn_only_options_refused_on_kueue_inputs():
    path = shared("testdata", "kueue", "fifo--strict-head-blocks.yaml")
    r = run_cli("explain", path, "--pending")
    assert r.exit_code == 2 and "--why-workload" in r.stderr


def test_simulate_table_formats_show_cycles_per_cluster_queue():
    path = shared("testdata", "kueue", "preempt-reclaim--reclaim-any.yaml")
    for fmt in ("plain", "markdown", "table"):
        r = run_cli("simulate", path, "-o", fmt)
        assert r.exit_code == 0, r.stderr
        assert "/org/borrower" in r.stdout and "InCohortReclamation" in r.stdout and "End state" in r.stdout
