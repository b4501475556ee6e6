"""Whole clusters through the shim's predicates and the real core:
../shared/testdata/yunikorn-shim/e2e (its README is the specification). `prio simulate NAME -o
json` on each case directory gives the core's allocations (pod, node) in order, and the pods the
core leaves pending stay unscheduled, with the predicates' messages where the core's log has
them. Both engines."""
import json
import os

import pytest

from conftest import SHARED, run_prio, shared

BASE = os.path.join(SHARED, "testdata", "yunikorn-shim", "e2e")
CASES = sorted(d for d in (os.listdir(BASE) if os.path.isdir(BASE) else ()) if os.path.isdir(os.path.join(BASE, d)))
PREDICATE_WORDS = ("node(s) didn't match", "node(s) had untolerated taint", "node(s) were unschedulable", "node not eligible",
                   "pod affinity terms conflict")


@pytest.mark.parametrize("engine", ["auto", "reference"])
@pytest.mark.parametrize("case", CASES or ["none"])
def test_the_cores_order_and_pending_pods(case, engine):
    want = json.load(open(shared("testdata", "yunikorn-shim", "e2e", f"{case}.yunikorn.json")))
    r = run_prio("simulate", os.path.join(BASE, case), "-o", "json", env={"PRIO_ENGINE": engine})
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert [(s["ask"], s["node"]) for s in got["steps"]] == [(s["pod"].split("/")[1], s["node"]) for s in want["steps"]]
    pending = {u["ask"]: u for u in got["unscheduled"]}
    for w in want["pending"]:
        u = pending[w["pod"].split("/")[1]]
        said = {x for x in w["reasons"] if x.startswith(PREDICATE_WORDS)}
        named = {n["reason"] for n in u.get("nodes", ())}
        # the core logs the predicate messages of the nodes it tried (those with room); prio
        # names every node the predicates refuse: each message the core gave is among them
        assert said <= named, (w["pod"], said - named)
