"""prio against what the real YuniKorn core did with gangs (task groups, the shim's placeholders,
real pods replacing them, releases, placeholder timeouts): ../shared/testdata/yunikorn-gangs
(its README is the specification). One test per scenario and engine runs `prio simulate
NAME.queues.yaml NAME.asks.yaml -o json` and compares, as the corpus's checker does: the steps
(allocations with their node, `placeholder`, `taskGroup` and `replaces`; the
`placeholdersReleased` and `timeout` entries), the real asks left unscheduled (pending
placeholders, marked `"placeholder": true`, left out), the `gangs` summary and the rejected
applications."""
import difflib
import glob
import json
import os

import pytest

from conftest import SHARED, run_cli, shared
from replayed import replayed

SCHED = os.path.join(SHARED, "testdata", "yunikorn-gangs", "scheduling")
ENGINES = ("auto", "fast", "reference")


def _scenarios():
    names = sorted(os.path.basename(p)[: -len(".yunikorn.json")] for p in glob.glob(os.path.join(SCHED, "*.yunikorn.json")))
    return names or ["(corpus absent)"]


def _simulate(name, engine="auto"):
    base = shared("testdata", "yunikorn-gangs", "scheduling", name + ".yunikorn.json")[: -len(".yunikorn.json")]
    # the config the harness replayed: root's submitacl '*' where it has none (the README's
    # replay is conformance-2's, which opened root's submitacl)
    r = run_cli("simulate", replayed(base + ".queues.yaml"), base + ".asks.yaml", "-o", "json", env={"PRIO_ENGINE": engine})
    assert r.exit_code == 0, r.stderr
    with open(base + ".yunikorn.json") as f:
        return json.loads(r.stdout), json.load(f)


def _step_line(s) -> str:
    if "placeholdersReleased" in s:
        p = s["placeholdersReleased"]
        return f"{s['step']:>3} released {p['queue']} {p['application']}/{p['taskGroup']}: {', '.join(p['placeholders'])}"
    if "timeout" in s:
        t = s["timeout"]
        return (f"{s['step']:>3} timeout {t['queue']} {t['application']} {t['style']} {t['phase']} at {t['at']}: "
                f"released {', '.join(t['released'])}; cancelled {', '.join(t['cancelled'])}")
    ch = ", ".join(f"{c['queue']} {c['from']}->{c['to']}" for c in s["changes"])
    gang = (" placeholder" if s.get("placeholder") else "") + (f" tg={s['taskGroup']}" if s.get("taskGroup") else "")
    gang += f" replaces {s['replaces']}" if s.get("replaces") else ""
    return f"{s['step']:>3} {s['queue']:<16} {s['application']:<6} {s['ask']:<16} P{s['priority']:<4} on {s.get('node')}{gang} | {ch}"


def _gang_line(g) -> str:
    return (f"gang {g['application']} {g['state']} sent={g['realAsksSent']} pending={','.join(g['placeholdersPending'])} "
            f"held={','.join(g['placeholdersHeld'])} timeoutAt={g['timeoutAt']}")


def _readable(steps, unscheduled, gangs, rejected) -> list[str]:
    lines = [f"steps {len(steps)}"] + [_step_line(s) for s in steps]
    lines.append("unscheduled " + " ".join(sorted(unscheduled)))
    lines += [_gang_line(g) for g in sorted(gangs, key=lambda g: g["application"])]
    lines += ["rejected " + r["application"] + ": " + r["reason"] for r in rejected]
    return lines


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", _scenarios())
def test_gang_scheduling_matches_yunikorn(name, engine):
    got, ref = _simulate(name, engine)
    theirs = _readable(ref["steps"], ref["unscheduled"], ref["gangs"], ref["rejectedApplications"])
    mine = _readable(got["steps"], [u["ask"] for u in got["unscheduled"] if not u.get("placeholder")],
                     got.get("gangs", []), got.get("rejected", []))
    if mine != theirs:
        diff = "\n".join(difflib.unified_diff(theirs, mine, "YuniKorn", "prio", lineterm="", n=2))
        pytest.fail(f"{name} ({engine} engine) differs from the recorded YuniKorn run:\n{diff}", pytrace=False)
    # a rejected application's asks appear nowhere else
    rejected = {r["application"] for r in got.get("rejected", [])}
    assert not rejected & ({s.get("application") for s in got["steps"]} | {u["application"] for u in got["unscheduled"]})



@pytest.mark.parametrize("name", _scenarios())
def test_map_order_ties_are_marked(name):
    """Where YuniKorn's own runs differed (Go's map order, the shim's random hand-over order:
    variesWithMapOrder), prio marks a step or a leftover; and a placeholder step is marked when
    another placeholder of its application is placed later (it was pending then: every
    placeholder of a gang shares priority and create time, so the shim's hand-over order
    decides which YuniKorn tries first)."""
    got, ref = _simulate(name)
    marked = [s for s in got["steps"] + got["unscheduled"] if s.get("tie")]
    if ref["variesWithMapOrder"]:
        assert marked, f"{name}: YuniKorn gave {ref['distinctOrdersSeen']} orders, but no step is marked as a tie"
    steps = [s for s in got["steps"] if s.get("placeholder")]
    for k, s in enumerate(steps):
        if any(t["application"] == s["application"] for t in steps[k + 1:]):
            assert s.get("tie"), f"{name}: step {s['step']} ({s['ask']}) is not marked"
