"""Quota-change preemption (YuniKorn 1.8+): the 40 scenarios recorded from YuniKorn's scheduler
core in ../shared/testdata/yunikorn-quota-preemption agree through `prio preempt -o json`
(armed, preempted in order, usage before and after), and the pure module's corner cases."""
import glob
import json
import os

import pytest

from conftest import SHARED, run_cli, shared
from replayed import replayed

CORPUS = os.path.join(SHARED, "testdata", "yunikorn-quota-preemption")
SCENARIOS = sorted(os.path.basename(p)[: -len(".yunikorn.json")] for p in glob.glob(os.path.join(CORPUS, "*.yunikorn.json")))


def _quota(*paths):
    r = run_cli("preempt", "-o", "json", *paths)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)["quota"]


def test_the_corpus_is_there():
    shared("testdata", "yunikorn-quota-preemption", "README.md")
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("name", SCENARIOS)
def test_recorded_scenario(name):
    queues = replayed(shared("testdata", "yunikorn-quota-preemption", f"{name}.queues.yaml"))  # as the harness ran it
    snapshot = shared("testdata", "yunikorn-quota-preemption", f"{name}.snapshot.yaml")
    with open(os.path.join(CORPUS, f"{name}.yunikorn.json"), encoding="utf-8") as fh:
        want = json.load(fh)
    got = _quota(queues, snapshot)
    assert got["armed"] == want["armed"]
    assert got["preempted"] == want["preempted"]  # per leaf, in the order YuniKorn chose them
    assert got["usageBefore"] == want["usageBefore"]
    assert got["usageAfter"] == want["usageAfter"]
    assert list(got)[:3] == ["armed", "preempted", "usageAfter"]  # the contract's fields first
    assert want["laterRounds"] == []  # YuniKorn runs once per change: prio never shows a second round


# ---- prio preempt on the bundled sample ---------------------------------------------------------

def test_sample_quota_preempts_two_pods_opted_out_and_originator_first():
    r = run_cli("preempt", "--sample", "quota", "-o", "json")
    assert r.exit_code == 0, r.stderr
    q = json.loads(r.stdout)["quota"]
    assert q["armed"] == ["root.tenants.team-a"]
    # YuniKorn's quota preemptor sorts the task that opted out of preemption first, then the
    # originator; it frees exactly the overshoot (4 vcores) and stops
    assert q["preempted"] == {"root.tenants.team-a": ["web-0", "etl-driver"]}
    assert q["usageAfter"]["root.tenants.team-a"] == {"memory": 16 * 2**30, "vcore": 8000}
    assert q["aboveMax"] == []
    queue = q["queues"][0]
    assert (queue["delay"], queue["delayFrom"]) == ("5m", "root.tenants")  # inherited
    leaf = q["leaves"][0]
    assert leaf["amount"] == {"vcore": 4000}
    assert [c["allocation"] for c in leaf["candidates"]][:2] == ["web-0", "etl-driver"]
    assert leaf["candidates"][0]["optedOut"] and leaf["candidates"][1]["originator"]
    assert leaf["candidates"][0]["typeMatch"] == 50  # one of the pod's two types is to free


@pytest.mark.parametrize("fmt", ["plain", "markdown", "table"])
def test_sample_quota_every_format_says_it(fmt):
    r = run_cli("preempt", "--sample", "quota", "-o", fmt)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Quota preemption (YuniKorn 1.8+): armed root.tenants.team-a; after 5m YuniKorn preempts 2 allocations" in out
    assert "quotapreemptionenabled: true" in out
    assert "inherited" in out  # (rich wraps long cells)
    assert "victim #1" in out and "victim #2" in out and "opted out" in out and "originator" in out
    assert "Usage after the victims are released" in out
    if fmt == "markdown":
        assert "### Quota preemption" in out and "| allocation" in out


def test_a_queue_that_stays_above_its_max_says_why():
    name = "quota-00014"  # every candidate of root.p0.l1 alone is over the amount to free
    r = run_cli("preempt", "-o", "plain", replayed(shared("testdata", "yunikorn-quota-preemption", f"{name}.queues.yaml")),
                shared("testdata", "yunikorn-quota-preemption", f"{name}.snapshot.yaml"))
    assert r.exit_code == 0, r.stderr
    above = r.stdout.split("Armed queues still above their max", 1)[1]
    assert "root.p0.l1" in above and "every candidate alone is over the amount to free" in above
    assert "does not run again for this change" in above


def test_switch_off_arms_but_preempts_nothing():
    name = "quota-00024"
    r = run_cli("preempt", "-o", "json", replayed(shared("testdata", "yunikorn-quota-preemption", f"{name}.queues.yaml")),
                shared("testdata", "yunikorn-quota-preemption", f"{name}.snapshot.yaml"))
    q = json.loads(r.stdout)["quota"]
    assert q["armed"] and q["preempted"] == {} and q["enabled"] is False
    assert all("quotapreemptionenabled" in a["why"] for a in q["aboveMax"])


def test_nothing_over_max_still_carries_quota():
    r = run_cli("preempt", "--sample", "preemption", "-o", "json")
    q = json.loads(r.stdout)["quota"]
    assert (q["armed"], q["preempted"], q["queues"]) == ([], {}, [])
    plain = run_cli("preempt", "--sample", "preemption", "-o", "plain").stdout
    assert "Quota preemption (YuniKorn 1.8+): no queue's usage is over its max." in plain


# ---- the pure module: arming on a change (prio diff), Go's comparator on ties ------------------

def _engine(queues_max: str, delay: str | None = "1m", allocs=4):
    from builders import UNDER_ROOT, build_engine

    props = f"            properties: {{quota.preemption.delay: {delay}}}\n" if delay else ""
    queues = UNDER_ROOT + "          - name: a\n" + props + f"            resources: {{max: {queues_max}}}\n"
    snap = {"nodes": [{"name": "n1", "capacity": {"vcore": "100", "memory": "100Gi"}}],
            "applications": [{"id": "app", "queue": "root.a", "asks": [],
                              "allocations": [{"id": f"t{i}", "priority": 0, "resources": {"vcore": "1"}, "node": "n1",
                                               "createTime": "2024-01-01T00:00:00Z"} for i in range(allocs)]}]}
    return build_engine(queues, snap)


def _analyse(eng, before=None, enabled=True):
    from prio.yunikorn.preemption import quota

    return quota.analyse(eng.root, quota.runs_of(eng.root, eng.snapshot), enabled, before)


@pytest.mark.parametrize("old_max, old_delay, armed", [
    ({"vcore": 8000}, True, True),  # lowered: armed
    ({"vcore": 2000}, True, False),  # unchanged, the delay was there: not armed by this change
    ({"vcore": 2000}, False, True),  # unchanged, the delay is new: setPreemptionTime arms it anyway
    (None, True, False),  # no max before: a new max is not a lowered one
    ({"vcore": 8000, "memory": 2**30}, True, True),  # a type dropped, vcore lowered: lower in every type
])
def test_arming_on_a_change(old_max, old_delay, armed):
    from prio.yunikorn.preemption.quota import Before

    res = _analyse(_engine("{vcore: 2}"), {"root.a": Before(old_max, old_delay)})
    assert res.armed == (["root.a"] if armed else [])
    assert [a.armed for a in res.considered] == [armed]


def test_a_type_added_to_the_max_does_not_arm():
    from prio.yunikorn.preemption.quota import Before

    res = _analyse(_engine("{vcore: 2, memory: 1Gi}"), {"root.a": Before({"vcore": 8000}, True)})
    assert res.armed == [] and "not lower in every type" in res.considered[0].why


def test_no_delay_is_never_armed():
    res = _analyse(_engine("{vcore: 2}", delay=None))
    assert res.armed == [] and "no quota.preemption.delay" in res.considered[0].why


def test_full_ties_come_out_reversed_as_gos_comparator_answers_true():
    res = _analyse(_engine("{vcore: 2}"))
    # four identical tasks: SortAllocationsBasedOnAsk answers true on a full tie, so Go's
    # insertion sort moves each one before the ones it ties with
    assert [v.id for v in res.runs[0].candidates] == ["t3", "t2", "t1", "t0"]
    assert res.preempted == {"root.a": ["t3", "t2"]}
