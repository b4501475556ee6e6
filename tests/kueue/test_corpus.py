"""Every recorded Kueue scenario of ../shared/testdata/kueue and ../shared/testdata/kueue-2 through `prio simulate -o json`:
cyclesRun, stopReason, every cycle's admissions and preemptions (with Kueue's messages) and
every workload's end state must equal what Kueue's scheduler did, or, for a scenario Kueue
itself replays differently from run to run, one of the recorded outcomes."""
from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import SHARED, run_cli

DATA = os.path.join(SHARED, "testdata", "kueue")
CORPORA = ("kueue", "kueue-2")
CASES = sorted(os.path.join(corpus, os.path.basename(p)[:-5]) for corpus in CORPORA
               for p in glob.glob(os.path.join(SHARED, "testdata", corpus, "*.yaml")))
FIELDS = ("cyclesRun", "stopReason", "cycles", "workloads")


def _outcome(data: dict) -> dict:
    out = {k: json.loads(json.dumps(data[k])) for k in FIELDS}
    for c in out["cycles"]:
        c.pop("tie", None)  # prio's own mark; the recordings carry none
    return out


@pytest.mark.skipif(not CASES, reason="../shared/testdata/kueue is absent")
@pytest.mark.parametrize("case", CASES)
def test_scenario_agrees_with_kueue(case):
    base = os.path.join(SHARED, "testdata", case)
    r = run_cli("simulate", base + ".yaml", "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert list(got) == list(FIELDS)
    recorded = json.load(open(base + ".kueue.json"))
    outcomes = [_outcome(recorded)] + [_outcome(a) for a in recorded.get("alternatives", [])]
    mine = _outcome(got)
    if mine in outcomes:
        return
    assert mine == outcomes[0]  # shows the first difference


@pytest.mark.skipif(not CASES, reason="../shared/testdata/kueue is absent")
def test_a_tie_kueue_leaves_to_map_order_is_marked():
    """fifo--equal-creation-tie: two heads equal on everything Kueue compares; the cycle that
    picks one says tie."""
    r = run_cli("simulate", os.path.join(DATA, "fifo--equal-creation-tie.yaml"), "-o", "json")
    assert any(c.get("tie") for c in json.loads(r.stdout)["cycles"])
