"""Gangs through every format of simulate, explain --why-ask and the pending-reason codes, and the
native format's gang fields refused one line at a time (issue 45). The recorded corpus is
test_gangs.py's; these are small scenarios written here."""
import json

import pytest
import yaml

from builders import UNDER_ROOT
from conftest import run_cli

QUEUES = UNDER_ROOT + """\
          - name: a
          - name: fair
            properties: {application.sort.policy: fair}
          - name: small
            resources: {max: {vcore: 4}}
"""

# one node of 10 vcore; g1 needs 4 x 3 vcore (never completes), g2 2 x 2 vcore (completes)
SNAPSHOT = """
nodes:
  - {name: node-1, capacity: {vcore: 10}}
applications:
  - id: g2
    queue: root.a
    taskGroups: [{name: exec, minMember: 2, minResource: {vcore: 2}}]
    asks:
      - {priority: 5, resources: {vcore: 2}, taskGroup: exec, count: 2}
  - id: g1
    queue: root.a
    taskGroups: [{name: worker, minMember: 4, minResource: {vcore: 3}}]
    placeholderTimeoutInSeconds: 60
    asks:
      - {priority: 1, resources: {vcore: 3}, taskGroup: worker, count: 4}
  - id: g3
    queue: root.fair
    taskGroups: [{name: w, minMember: 1, minResource: {vcore: 1}}]
    asks: [{priority: 1, resources: {vcore: 1}, taskGroup: w}]
  - id: g4
    queue: root.small
    taskGroups: [{name: w, minMember: 3, minResource: {vcore: 2}}]
    asks: [{priority: 1, resources: {vcore: 2}, taskGroup: w, count: 3}]
"""


def _files(tmp_path, snapshot=SNAPSHOT):
    q = tmp_path / "queues.yaml"
    q.write_text(QUEUES)
    s = tmp_path / "snap.yaml"
    s.write_text(snapshot)
    return str(q), str(s)


def test_json_steps_gangs_and_refusals(tmp_path):
    q, s = _files(tmp_path)
    r = run_cli("simulate", q, s, "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    steps = [(x["ask"], x.get("placeholder", False), x.get("taskGroup"), x.get("replaces")) for x in got["steps"]]
    assert steps[:2] == [("tg-g2-exec-1", True, "exec", None), ("tg-g2-exec-2", True, "exec", None)]
    # g2 completes: its real pods take their placeholders' places, before anything else
    assert steps[2:4] == [("g2-1", False, "exec", "tg-g2-exec-1"), ("g2-2", False, "exec", "tg-g2-exec-2")]
    # g1 gets 2 of its 4 placeholders (6 vcore left on the node) and never completes
    assert [a for a, *_ in steps[4:]] == ["tg-g1-worker-1", "tg-g1-worker-2"]
    gangs = {g["application"]: g for g in got["gangs"]}
    assert gangs["g2"]["state"] == "Running" and gangs["g2"]["realAsksSent"] and gangs["g2"]["timeoutAt"] is None
    assert gangs["g1"] == {"application": "g1", "state": "Accepted", "realAsksSent": False,
                           "placeholdersPending": ["tg-g1-worker-3", "tg-g1-worker-4"],
                           "placeholdersHeld": ["tg-g1-worker-1", "tg-g1-worker-2"], "timeoutAt": 60}
    real = {u["ask"]: u for u in got["unscheduled"] if not u.get("placeholder")}
    assert set(real) == {"g1-1", "g1-2", "g1-3", "g1-4"}
    assert real["g1-1"]["code"] == "GangIncomplete"
    assert real["g1-1"]["reason"].startswith("gang g1 waits: 2 of 4 worker placeholders allocated; the next (tg-g1-worker-3) needs vcore 3")
    assert {u["ask"] for u in got["unscheduled"] if u.get("placeholder")} == {"tg-g1-worker-3", "tg-g1-worker-4"}
    rejected = {x["application"]: x["reason"] for x in got["rejected"]}
    assert rejected["g3"] == "queue root.fair cannot run application g3 with task group request: unsupported sort type"
    assert rejected["g4"] == ("queue root.small cannot fit application g4: task group request map[vcore:6000] "
                              "larger than max queue allocation map[vcore:4000]")


def test_horizon_fires_the_soft_timeout(tmp_path):
    q, s = _files(tmp_path, "horizon: 2m\n" + SNAPSHOT)
    got = json.loads(run_cli("simulate", q, s, "-o", "json").stdout)
    timeouts = [x["timeout"] for x in got["steps"] if "timeout" in x]
    assert timeouts == [{"application": "g1", "queue": "root.a", "style": "Soft", "phase": "reserving", "at": 60,
                         "released": ["tg-g1-worker-1", "tg-g1-worker-2"], "cancelled": ["tg-g1-worker-3", "tg-g1-worker-4"]}]
    # resumed as an ordinary application: two of its 3-vcore pods fit the 6 vcore left
    after = [x["ask"] for x in got["steps"] if "ask" in x][6:]
    assert after == ["g1-1", "g1-2"]
    g1 = next(g for g in got["gangs"] if g["application"] == "g1")
    assert g1["state"] == "Running" and g1["realAsksSent"] and g1["timeoutAt"] is None


@pytest.mark.parametrize("fmt", ["plain", "markdown", "table"])
def test_human_formats_show_the_gang_column_and_tables(tmp_path, fmt):
    q, s = _files(tmp_path, "horizon: 2m\n" + SNAPSHOT)
    r = run_cli("simulate", q, s, "-o", fmt)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "placeholder exec" in out and "exec, replaces tg-g2-exec-1" in out
    assert "Placeholder releases and timeouts" in out and "Soft timeout (reserving) at 60 s" in out
    assert "Gangs" in out


def test_outputs_without_gangs_have_no_gang_column(tmp_path):
    q, s = _files(tmp_path, """
applications:
  - {id: a1, queue: root.a, asks: [{priority: 1, resources: {vcore: 1}}]}
""")
    assert "gang" not in run_cli("simulate", q, s, "-o", "plain").stdout.lower()
    assert "gangs" not in json.loads(run_cli("simulate", q, s, "-o", "json").stdout)


def test_why_ask_says_what_a_gang_member_waits_for(tmp_path):
    q, s = _files(tmp_path)
    r = run_cli("explain", q, s, "--why-ask", "g1-3")
    assert r.exit_code == 0, r.stderr
    assert "gang g1 waits: 2 of 4 worker placeholders allocated; the next (tg-g1-worker-3) needs vcore 3" in r.stdout
    assert "Reason GangIncomplete" in r.stdout
    r = run_cli("explain", q, s, "--why-ask", "g2-2")
    assert "takes the place of placeholder tg-g2-exec-2 (task group exec) on node-1" in r.stdout
    assert "handed over after step 2" in r.stdout
    r = run_cli("explain", q, s, "--why-ask", "g3-1")
    assert "rejects the application at submission (queue root.fair cannot run application g3" in r.stdout


def test_pending_reason_codes_of_gangs():
    from prio.yunikorn.reasons import classify, rejected

    assert classify("gang g failed (Hard placeholder timeout): the shim never hands its pods over").code == "GangFailed"
    assert classify("placeholder cancelled by the placeholder timeout of gang g").code == "PlaceholderCancelled"
    assert classify("gang g waits: 1 of 3 w placeholders allocated").code == "GangIncomplete"
    assert rejected("queue root.a cannot fit application g: task group request map[vcore:5000] larger than max queue allocation map[vcore:1000]",
                    "root.a").code == "GangRejected"


@pytest.mark.parametrize("bad, message", [
    ("taskGroups: [{name: w, minMember: 0, minResource: {vcore: 1}}]", "minMember must be a whole number of at least 1"),
    ("taskGroups: [{name: w, minMember: 1}]", "minResource must be a mapping"),
    ("taskGroups: [{minMember: 1, minResource: {vcore: 1}}]", "a task group needs a name"),
    ("taskGroups: [{name: w, minMember: 1, minResource: {vcore: 1}}, {name: w, minMember: 1, minResource: {vcore: 1}}]",
     "task group 'w' appears twice"),
    ("taskGroups: {name: w}", "taskGroups must be a list"),
    ("placeholderTimeoutInSeconds: soon", "placeholderTimeoutInSeconds must be a whole number"),
])
def test_bad_gang_fields_are_one_line(tmp_path, bad, message):
    q, s = _files(tmp_path, f"""
applications:
  - id: g
    queue: root.a
    {bad}
    asks: [{{priority: 1, resources: {{vcore: 1}}}}]
""")
    r = run_cli("simulate", q, s)
    assert r.exit_code == 2
    assert message in r.stderr and "snap.yaml" in r.stderr and "Traceback" not in r.stderr


def test_bad_horizon_is_one_line(tmp_path):
    q, s = _files(tmp_path, "horizon: later\n" + SNAPSHOT)
    r = run_cli("simulate", q, s)
    assert r.exit_code == 2 and "horizon must be a number of seconds or a duration" in r.stderr


def test_gang_inputs_take_the_gang_walk_with_the_reference_engines_steps():
    """Gangs are the gang walk's where it can prove them (gangwalk.py) and the reference engine's
    otherwise: auto and fast asked for give the reference engine's steps either way."""
    import yaml

    from builders import build_engine
    from prio.yunikorn import features as F

    snap = yaml.safe_load(SNAPSHOT)
    e = build_engine(QUEUES, snap)
    assert F.GANGS in F.used(e) and F.GANGS not in F.REFERENCE_ONLY
    want = [(s.ask, s.step) for s in build_engine(QUEUES, snap, "reference").run()]
    for choice in ("auto", "fast"):
        assert [(s.ask, s.step) for s in build_engine(QUEUES, snap, choice).run()] == want
    assert want[0] == ("tg-g2-exec-1", 1)


MAXAPPS_QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - {name: a, maxapplications: 1}
          - name: b
"""


def _simulate(tmp_path, queues, snapshot):
    q = tmp_path / "q.yaml"
    q.write_text(queues)
    s = tmp_path / "s.yaml"
    s.write_text(snapshot)
    r = run_cli("simulate", str(q), str(s), "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_a_placeholder_reservation_counts_for_maxapplications(tmp_path):
    """An Accepted gang whose placeholder only reserved a node already counts as running in its
    queue (Queue.setAllocatingAccepted on a reservation): a second application waits."""
    got = _simulate(tmp_path, MAXAPPS_QUEUES, """
nodes:
  - {name: node-1, capacity: {vcore: 8}}
  - {name: node-2, capacity: {vcore: 2}}
applications:
  - id: x
    queue: root.b
    allocations: [{id: x-0, resources: {vcore: 6}, node: node-1}]
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 1, minResource: {vcore: 4}}]
    asks: [{priority: 1, resources: {vcore: 4}, taskGroup: w}]
  - id: a2
    queue: root.a
    asks: [{priority: 1, resources: {vcore: 1}}]
""")
    assert [s["ask"] for s in got["steps"] if "ask" in s] == []
    a2 = next(u for u in got["unscheduled"] if u["ask"] == "a2-1")
    assert a2["code"] == "MaxApplications"


def test_a_hard_timeout_frees_the_queue_for_others(tmp_path):
    """A Hard gang fails at its timeout: its placeholders go, it leaves its queue (moveTerminatedApp),
    and an application maxapplications held back runs."""
    got = _simulate(tmp_path, MAXAPPS_QUEUES, """
horizon: 120
nodes:
  - {name: node-1, capacity: {vcore: 8}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 2, minResource: {vcore: 6}}]
    gangSchedulingStyle: Hard
    placeholderTimeoutInSeconds: 60
    asks: [{priority: 1, resources: {vcore: 6}, taskGroup: w, count: 2}]
  - id: a2
    queue: root.a
    asks: [{priority: 1, resources: {vcore: 1}}]
""")
    kinds = [s.get("ask") or ("timeout" if "timeout" in s else "?") for s in got["steps"]]
    assert kinds == ["tg-g1-w-1", "timeout", "a2-1"]
    assert got["steps"][1]["timeout"]["style"] == "Hard" and got["steps"][1]["timeout"]["cancelled"] == ["tg-g1-w-2"]
    assert next(g for g in got["gangs"] if g["application"] == "g1")["state"] == "Failed"


def test_a_smaller_real_pod_gives_room_back(tmp_path):
    """A real pod smaller than its placeholder takes its place and gives the difference back to the
    node: an ask that did not fit then does."""
    got = _simulate(tmp_path, MAXAPPS_QUEUES.replace("{name: a, maxapplications: 1}", "name: a"), """
nodes:
  - {name: node-1, capacity: {vcore: 10}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 2, minResource: {vcore: 4}}]
    asks: [{priority: 10, resources: {vcore: 2}, taskGroup: w, count: 2}]
  - id: o1
    queue: root.b
    asks: [{priority: 1, resources: {vcore: 6}}]
""")
    # the real pods take their placeholders first (replacement precedes the walk), then o1 fits
    # the 6 vcore the two smaller pods left (the placeholders held 8)
    steps = [(s["ask"], s.get("replaces")) for s in got["steps"] if "ask" in s]
    assert steps == [("tg-g1-w-1", None), ("tg-g1-w-2", None), ("g1-1", "tg-g1-w-1"), ("g1-2", "tg-g1-w-2"), ("o1-1", None)]


def test_replacement_runs_the_predicates_on_the_placeholders_node(tmp_path):
    """tryPlaceholderAllocate runs the shim's predicates (preReserveConditions) on the placeholder's
    node: a real pod they refuse there takes the first node in order with room they admit it on,
    the placeholder is released all the same (its node gets its room back)."""
    got = _simulate(tmp_path, MAXAPPS_QUEUES.replace("{name: a, maxapplications: 1}", "name: a"), """
nodes:
  - {name: node-1, capacity: {vcore: 4}, labels: {zone: a}}
  - {name: node-2, capacity: {vcore: 4}, labels: {zone: b}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 1, minResource: {vcore: 3}}]
    asks: [{priority: 10, resources: {vcore: 3}, taskGroup: w, nodeSelector: {zone: b}}]
  - id: o1
    queue: root.b
    asks: [{priority: 1, resources: {vcore: 4}}]
""")
    steps = [(s["ask"], s.get("node"), s.get("replaces")) for s in got["steps"] if "ask" in s]
    # the placeholder has no node selector: it lands on node-1; its real pod may only run in zone b
    assert steps[:2] == [("tg-g1-w-1", "node-1", None), ("g1-1", "node-2", "tg-g1-w-1")]
    # node-1's room came back with the placeholder: o1 runs there
    assert steps[2:] == [("o1-1", "node-1", None)]
    r = run_cli("explain", str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml"), "--why-ask", "g1-1")
    assert r.exit_code == 0, r.stderr
    assert "the shim's predicates refuse it on node-1, the placeholder's node, so it runs on node-2" in " ".join(r.stdout.split())


def test_replacement_waits_when_no_node_admits_the_real_pod(tmp_path):
    """No node the predicates admit the real pod on has room: nothing is replaced, the placeholder
    stays held (hope the next round works, as the core says)."""
    got = _simulate(tmp_path, MAXAPPS_QUEUES.replace("{name: a, maxapplications: 1}", "name: a"), """
nodes:
  - {name: node-1, capacity: {vcore: 4}, labels: {zone: a}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 1, minResource: {vcore: 3}}]
    asks: [{priority: 1, resources: {vcore: 3}, taskGroup: w, nodeSelector: {zone: b}}]
""")
    assert [(s["ask"], s.get("replaces")) for s in got["steps"] if "ask" in s] == [("tg-g1-w-1", None)]
    g = got["gangs"][0]
    assert g["realAsksSent"] and g["placeholdersHeld"] == ["tg-g1-w-1"]
    assert [u["ask"] for u in got["unscheduled"]] == ["g1-1"]


def test_identical_placeholders_mark_the_replacement_a_tie(tmp_path):
    """YuniKorn walks an application's placeholders as a Go map: where a real pod could take more
    than one, the step is a tie (prio takes the first by id), as the other map-order choices are."""
    got = _simulate(tmp_path, MAXAPPS_QUEUES.replace("{name: a, maxapplications: 1}", "name: a"), """
nodes:
  - {name: node-1, capacity: {vcore: 10}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 2, minResource: {vcore: 2}}]
    asks: [{priority: 1, resources: {vcore: 2}, taskGroup: w, count: 2}]
""")
    steps = [(s["ask"], s.get("replaces"), s.get("tie", False)) for s in got["steps"] if "ask" in s]
    assert steps[2:] == [("g1-1", "tg-g1-w-1", True), ("g1-2", "tg-g1-w-2", False)]
    q, s = str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml")
    r = run_cli("simulate", q, s)
    assert r.exit_code == 0, r.stderr
    assert "placeholders tg-g1-w-1, tg-g1-w-2" in r.stdout


def test_a_run_cut_short_says_not_reached_for_the_pods_a_reserving_gang_holds(tmp_path):
    """--steps stops the run while g2 reserves: its real pods (held back by the shim, so marked
    taken in the run) are pending, NotReached, with what the gang waits for; simulate counts them
    among the asks still pending."""
    from builders import build_engine
    from prio.yunikorn import reasons

    eng = build_engine(QUEUES, yaml.safe_load(SNAPSHOT))
    eng.run(1)
    got = {p.ask: p.reason for p in reasons.pending(eng)}
    assert got["g2-1"].code == got["g2-2"].code == "NotReached"
    assert "gang g2 waits: 1 of 2 exec placeholders allocated" in got["g2-1"].words
    assert got["tg-g2-exec-2"].code == "NotReached" and "shim" not in got["tg-g2-exec-2"].words
    assert {"g1-1", "g1-2", "g1-3", "g1-4"} <= set(got)
    q, s = _files(tmp_path)
    r = run_cli("simulate", q, s, "--steps", "1")
    assert r.exit_code == 0, r.stderr
    # 11: g2's other placeholder and its 2 pods, g1's 4 placeholders and 4 pods
    assert "Stopped after step 1 (--steps 1): 11 asks still pending." in r.stdout


def test_placeholders_never_tried_give_the_gangs_cause_not_unknown():
    """g1's placeholders ask for nothing (minResource zero): YuniKorn never tries an application
    with nothing pending, so they are never allocated and the gang never completes. At the end of
    the run (no preemption) they and g1's held pods are GangIncomplete with that cause, never
    the generic Unknown; g2 beside it runs."""
    from builders import build_engine
    from prio.yunikorn import reasons

    eng = build_engine(QUEUES, yaml.safe_load("""
nodes:
  - {name: node-1, capacity: {vcore: 10}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 2, minResource: {vcore: 0}}]
    asks: [{priority: 1, resources: {vcore: 1}, taskGroup: w, count: 2}]
  - id: g2
    queue: root.a
    taskGroups: [{name: w, minMember: 1, minResource: {vcore: 2}}]
    asks: [{priority: 1, resources: {vcore: 2}, taskGroup: w}]
"""), "reference")
    eng.run()
    got = {p.ask: p.reason for p in reasons.pending(eng)}
    assert set(got) == {"tg-g1-w-1", "tg-g1-w-2", "g1-1", "g1-2"}
    assert {r.code for r in got.values()} == {"GangIncomplete"}
    assert "tg-g1-w-1 asks for vcore 0: YuniKorn allocates no such ask" in got["tg-g1-w-1"].detail
    assert "filterOnPendingResources" in got["g1-1"].detail and got["g1-1"].detail.count("gang g1 waits") == 1



def test_placeholders_under_a_stopped_queue_say_so():
    """A gang in a Stopped queue (as a REST dump gives it): YuniKorn schedules nothing there, so
    its pending placeholders are QueueStopped (the run's end leaves them to the leftovers' own
    reason), not a gang cause."""
    from builders import build_engine
    from prio.yunikorn import reasons

    eng = build_engine(QUEUES, yaml.safe_load(SNAPSHOT), "reference")
    next(q for q in eng.root.walk() if q.path == "root.a").stopped = True
    eng.run()
    got = {p.ask: p.reason.code for p in reasons.pending(eng)}
    assert got["tg-g2-exec-1"] == got["tg-g1-worker-1"] == "QueueStopped"

# ---- preemption and diff with gangs (modelled from yunikorn-core's code: no recording has them) ----

PREEMPT_QUEUES = UNDER_ROOT + "          - name: a\n          - name: b\n            resources: {guaranteed: {vcore: 2}}\n"

# g1 reserves: 2 of its 3 placeholders run on the only node; o1 (under b's guarantee) needs room
RESERVING = """
nodes:
  - {name: node-1, capacity: {vcore: 4}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 3, minResource: {vcore: 2}}]
    allocations:
      - {id: ph-1, priority: 1, resources: {vcore: 2}, node: node-1, placeholder: true, taskGroup: w}
      - {id: ph-2, priority: 1, resources: {vcore: 2}, node: node-1, placeholder: true, taskGroup: w}
    asks: [{priority: 1, resources: {vcore: 2}, taskGroup: w, count: 3}]
  - id: o1
    queue: root.b
    asks: [{priority: 10, resources: {vcore: 2}}]
"""


def test_a_preempted_placeholder_leaves_its_gang(tmp_path):
    """Simulate with preemption: o1 preempts one of g1's running placeholders (a placeholder is a
    victim like any task); the gang no longer holds it (counted as timed out, never made again),
    so it stays incomplete with one placeholder held and one pending."""
    got = _simulate(tmp_path, PREEMPT_QUEUES, RESERVING)
    pre = [s["preemption"] for s in got["steps"] if "preemption" in s]
    assert pre == [{"ask": "o1-1", "application": "o1", "queue": "root.b", "node": "node-1", "victims": ["ph-2"]}]
    assert [s["ask"] for s in got["steps"] if "ask" in s] == ["o1-1"]
    assert got["gangs"] == [{"application": "g1", "state": "Accepted", "realAsksSent": False, "placeholdersPending": ["tg-g1-w-1"],
                             "placeholdersHeld": ["ph-1"], "timeoutAt": 900}]


def test_preempt_analyses_what_yunikorn_knows_of_a_gang(tmp_path):
    """prio preempt: a reserving gang is its pending placeholders (they may preempt, as any ask);
    its real pods, held back by the shim, are not analysed; its running placeholders are victims;
    the notes say so, and that it is modelled from the core's code."""
    q, s = tmp_path / "q.yaml", tmp_path / "s.yaml"
    q.write_text(PREEMPT_QUEUES)
    s.write_text(RESERVING)
    r = run_cli("preempt", str(q), str(s), "-o", "json")
    assert r.exit_code == 0, r.stderr
    asks = json.loads(r.stdout)["asks"]
    assert set(asks) == {"tg-g1-w-1", "o1-1"}
    assert asks["o1-1"]["outcome"] == "preempted" and asks["o1-1"]["victims"] == ["ph-2"]
    note = " ".join(r.stderr.split())
    assert "modelled from yunikorn-core's code, not recorded" in note
    assert "held back by the shim and not analysed (g1/g1-1, g1/g1-2, g1/g1-3)" in note
    assert "running placeholders are candidate victims like any task" in note


def test_preempt_leaves_out_real_pods_that_wait_to_replace(tmp_path):
    """A gang that runs (a real pod bound: no reservation) with a placeholder left: its pending real
    pod of that group waits to take the placeholder's place (the walk skips it, it never preempts);
    a pod of a group without placeholder is analysed."""
    q, s = tmp_path / "q.yaml", tmp_path / "s.yaml"
    q.write_text(PREEMPT_QUEUES)
    s.write_text("""
nodes:
  - {name: node-1, capacity: {vcore: 4}}
applications:
  - id: g1
    queue: root.a
    taskGroups: [{name: w, minMember: 2, minResource: {vcore: 2}}, {name: d, minMember: 1, minResource: {vcore: 1}}]
    allocations:
      - {id: run-1, priority: 1, resources: {vcore: 2}, node: node-1, taskGroup: w}
      - {id: ph-2, priority: 1, resources: {vcore: 2}, node: node-1, placeholder: true, taskGroup: w}
    asks:
      - {id: w-2, priority: 1, resources: {vcore: 2}, taskGroup: w}
      - {id: d-1, priority: 1, resources: {vcore: 1}, taskGroup: d}
""")
    r = run_cli("preempt", str(q), str(s), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert set(json.loads(r.stdout)["asks"]) == {"d-1"}
    assert "g1/w-2 wait to take a running placeholder's place" in " ".join(r.stderr.split())


def test_diff_reports_a_gang_that_ends_otherwise(tmp_path):
    """diff: NEW's max on root.a rejects g1 (its task group request is over it): the gang's end
    state is reported (before: Accepted, 2 placeholders held, 2 pending; after: no gang), and its
    placeholders, which NEW does not have at all, are not called newly placeable."""
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(QUEUES)
    new.write_text(QUEUES.replace("          - name: a\n", "          - name: a\n            resources: {max: {vcore: 6}}\n"))
    _, s = _files(tmp_path)
    r = run_cli("diff", str(old), str(new), s, "-o", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["gangs"] == [{"application": "g1", "before": {"state": "Accepted", "realAsksSent": False, "placeholdersHeld": 2,
                                                          "placeholdersPending": 2}, "after": None}]
    assert d["unscheduled"]["removed"] == []
    assert [x["application"] for x in d["rejected"]["added"]] == ["g1"]
    t = run_cli("diff", str(old), str(new), s, "-o", "plain")
    assert "1 gang ends otherwise" in t.stdout.splitlines()[0]
    assert "Gangs that end otherwise" in t.stdout and "Accepted, real pods held, 2 held, 2 pending" in t.stdout
    same = run_cli("diff", str(old), str(old), s, "-o", "json")
    assert "gangs" not in json.loads(same.stdout)


def test_a_hand_over_tie_says_prio_takes_the_snapshots_order():
    # identical placeholders have no name order: prio follows the snapshot's, and says so
    r = run_cli("simulate", "--sample", "gang", "-o", "plain")
    assert r.exit_code == 0
    marked = [ln for ln in r.stdout.splitlines() if ln.startswith("* step ")]
    assert any("(prio takes the snapshot's order): hand-over order " in ln for ln in marked)
    assert all("(prio takes the name): hand-over order " not in ln for ln in marked)
