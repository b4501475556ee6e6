"""prio against what the real YuniKorn scheduler core did: ../shared/testdata/yunikorn-conformance,
the families of ../shared/testdata/yunikorn-conformance-2 prio models and every scenario of
../shared/testdata/yunikorn-conformance-3 (every feature at once; their READMEs say how each case
was recorded). One test per scheduling scenario and engine (the default, fast where it can be,
and the reference engine: PRIO_ENGINE) runs `prio simulate NAME.queues.yaml NAME.asks.yaml -o
json` and compares the steps, the unscheduled asks and the rejected applications; one per queue
config compares prio validate's verdict with YuniKorn's.

The harness replayed every config with root's `submitacl` set to `*` where the config has none
(the READMEs' replay notes): prio is given that config (tests/replayed.py), not the recorded file."""
import difflib
import glob
import json
import os

import pytest

from conftest import SHARED, run_cli, shared
from replayed import replayed

CORPUS = os.path.join(SHARED, "testdata", "yunikorn-conformance")
SCHED = os.path.join(CORPUS, "scheduling")
# conformance-2's families prio models so far: scale (more than 20 siblings, two types, thousands
# of asks); nodes, ugm (users and groups), placement by groups and schedpreempt come with issues
# 28 and 30
FAMILIES_2 = ("scale-", "nodes-", "ugm-", "placement-", "schedpreempt-")
ENGINES = ("auto", "reference")
CORPORA = {"": "yunikorn-conformance", "2/": "yunikorn-conformance-2", "3/": "yunikorn-conformance-3"}


def _scenarios():
    names = []
    for prefix, corpus in CORPORA.items():
        sched = os.path.join(SHARED, "testdata", corpus, "scheduling")
        names += sorted(prefix + os.path.basename(p)[: -len(".yunikorn.json")] for p in glob.glob(os.path.join(sched, "*.yunikorn.json"))
                        if prefix != "2/" or os.path.basename(p).startswith(FAMILIES_2))
    return names or ["(corpus absent)"]


def _manifest():
    path = os.path.join(CORPUS, "validate", "manifest.json")
    if not os.path.exists(path):
        return [{"file": "(corpus absent)"}]
    with open(path) as f:
        return json.load(f)


def _simulate(name, engine="auto"):
    prefix = name[:2] if name[:2] in CORPORA else ""
    base = shared("testdata", CORPORA[prefix], "scheduling", name[len(prefix):] + ".yunikorn.json")[: -len(".yunikorn.json")]
    # the config the harness replayed: root's submitacl '*' where it has none (replayed.py)
    r = run_cli("simulate", replayed(base + ".queues.yaml"), base + ".asks.yaml", "-o", "json", env={"PRIO_ENGINE": engine})
    assert r.exit_code == 0, r.stderr
    with open(base + ".yunikorn.json") as f:
        return json.loads(r.stdout), json.load(f)


def _step_line(s, nodes: bool) -> str:
    if "preemption" in s:  # a preemption inside the run, before allocation step s["step"]
        p = s["preemption"]
        return f"{s['step']:>3} preempt {p['queue']} {p['application']} {p['ask']} on {p['node']}: {', '.join(p['victims'])}"
    ch = ", ".join(f"{c['queue']} {c['from']}->{c['to']}" for c in s["changes"])
    on = f" on {s.get('node')}" if nodes else ""
    return f"{s['step']:>3} {s['queue']:<32} {s['application']:<8} {s['ask']:<12} P{s['priority']:<11}{on} {ch}"


def _readable(got, want) -> list[str]:
    # the node of every allocation, where the recording names it (schedpreempt-*, conformance-3)
    nodes = any("node" in s for s in want["steps"] if "preemption" not in s)
    lines = [f"steps {len(got['steps'])}"] + [_step_line(s, nodes) for s in got["steps"]]
    lines.append("unscheduled " + " ".join(sorted(u["ask"] for u in got["unscheduled"])))
    lines += ["rejected " + r["application"] + ": " + r["reason"] for r in got.get("rejected", [])]
    return lines


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", _scenarios())
def test_scheduling_matches_yunikorn(name, engine):
    got, ref = _simulate(name, engine)
    want = {"steps": ref["steps"], "unscheduled": [{"ask": a} for a in ref["unscheduled"]],
            "rejected": [{"application": r["application"], "reason": r["reason"]} for r in ref["rejectedApplications"]]}
    mine = _readable(got, want)
    theirs = _readable(want, want)
    if mine != theirs:
        diff = "\n".join(difflib.unified_diff(theirs, mine, "YuniKorn", "prio", lineterm="", n=2))
        pytest.fail(f"{name} ({engine} engine) differs from the recorded YuniKorn run:\n{diff}", pytrace=False)
    # rejected applications carry their queue too, and their asks appear nowhere else
    rejected = {r["application"] for r in got.get("rejected", [])}
    assert not rejected & ({s.get("application") or s["preemption"]["application"] for s in got["steps"]}
                           | {u["application"] for u in got["unscheduled"]})


@pytest.mark.parametrize("name", _scenarios())
def test_map_order_ties_are_marked(name):
    """Where YuniKorn's own runs differed (Go's map order decides), prio marks a step; every mark
    names at least two queues or applications."""
    got, ref = _simulate(name)
    # (a reservation made after the last step by a tied choice marks its ask's unscheduled entry)
    marked = [s for s in got["steps"] + got["unscheduled"] if s.get("tie")]
    if ref["variesWithMapOrder"]:
        assert marked, f"{name}: YuniKorn gave {ref['distinctOrdersSeen']} orders, but no step is marked as a tie"
    for s in got["steps"]:
        assert set(s) <= ({"step", "preemption", "tie"} if "preemption" in s else
                          {"step", "queue", "application", "ask", "priority", "changes", "tie", "note", "node"})
        assert s.get("tie", True) is True


@pytest.mark.parametrize("entry", _manifest(), ids=lambda e: e["file"])
def test_validator_verdict_matches_yunikorn(entry):
    path = shared("testdata", "yunikorn-conformance", "validate", entry["file"])
    r = run_cli("validate", path, "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    errors = [f for f in json.loads(r.stdout)["findings"] if f["severity"] == "error"]
    if entry["verdict"] == "accept":
        assert not errors and r.exit_code == 0, errors
    else:
        assert errors and r.exit_code == 1, f"YuniKorn refuses it at {entry['stage']}: {entry['error']}"
        if entry["stage"] in ("partition", "reload"):
            # validate-conf accepts these: the message must say where YuniKorn fails instead
            assert any(w in f["message"] for f in errors for w in ("creat", "reload", "builds")), errors
