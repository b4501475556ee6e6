"""The scheduling rules that differ by YuniKorn release, modelled behind --yunikorn-version
(issue 46 item 2; prio.yunikorn.releases: fair_max_share, cancels_reservations,
resource_wise_preemption): each scenario is one where yunikorn-core's code at the release tags
orders or preempts differently, and the newest's outputs are those of no option at all."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders import FAIR_QUEUES, FAIR_SNAPSHOT, UNDER_ROOT, build_engine
from conftest import run_cli
from prio.yunikorn import engine, features, releases
from prio.yunikorn.reference import compare_shares, guarantee_shares

# Two nodes with 1 vcore free each. x (priority 0, root.low: no guarantee, so it cannot preempt)
# comes first (root sorts by fair share first; low uses nothing) and reserves node-1; y (priority
# 100, root.high under its guarantee) then needs batch-0's room on node-1. From v1.8.0
# (YUNIKORN-3092) initWorkingState cancels x's lower-priority reservation and y preempts there;
# before, a node reserved for another ask is never a candidate: y reserves node-2 and both wait.
RESERVED_QUEUES = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        properties: {application.sort.priority: disabled}
        queues:
          - name: low
          - name: high
            resources: {guaranteed: {vcore: 8}}
          - name: other
"""
RESERVED_SNAPSHOT = """nodes:
  - {name: node-1, capacity: {vcore: 4}}
  - {name: node-2, capacity: {vcore: 4}}
applications:
  - id: batch
    queue: root.other
    allocations: [{id: batch-0, priority: 0, resources: {vcore: 3}, node: node-1, createTime: '2024-05-01T10:00:00Z'}]
  - id: serving
    queue: root.high
    allocations: [{id: serving-0, priority: 100, resources: {vcore: 3}, node: node-2, createTime: '2024-05-01T10:00:00Z'}]
    asks: [{id: y, priority: 100, resources: {vcore: 2}, createTime: '2024-05-01T10:05:00Z'}]
  - id: lowapp
    queue: root.low
    asks: [{id: x, priority: 0, resources: {vcore: 2}, createTime: '2024-05-01T09:00:00Z'}]
"""

# root.high is guaranteed 4 vcore and 4 memory, uses 1 vcore and 6 memory: over its guarantee in
# memory only. y asks for vcore alone. From v1.8.0 (YUNIKORN-3113) the guarantee checks look at
# the ask's types: the remaining 3 vcore fit y, batch-0 is taken. Before, the remaining guarantee
# must be >= 0 in every type (StrictlyGreaterThanOrEquals(remaining, Zero)): memory is -2, so
# checkPreemptionQueueGuarantees fails.
WISE_QUEUES = UNDER_ROOT + ("          - name: high\n            resources: {guaranteed: {vcore: 4, memory: 4}}\n"
                            "          - name: other\n")
WISE_SNAPSHOT = """nodes:
  - {name: node-1, capacity: {vcore: 4, memory: 16}}
applications:
  - id: batch
    queue: root.other
    allocations: [{id: batch-0, priority: 0, resources: {vcore: 3}, node: node-1, createTime: '2024-05-01T10:00:00Z'}]
  - id: serving
    queue: root.high
    allocations: [{id: serving-0, priority: 100, resources: {vcore: 1, memory: 6}, node: node-1, createTime: '2024-05-01T10:00:00Z'}]
    asks: [{id: y, priority: 100, resources: {vcore: 2}, createTime: '2024-05-01T10:05:00Z'}]
"""


def _files(tmp_path, queues, snapshot):
    (tmp_path / "q.yaml").write_text(queues, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(snapshot, encoding="utf-8")
    return str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml")


def _simulate(files, *args):
    r = run_cli("simulate", *files, "-o", "json", *args)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout), r.stderr


def _order(out) -> list:
    return [s["ask"] for s in out["steps"] if "ask" in s]


def _preemptions(out) -> list:
    return [(p["ask"], p["node"], p["victims"]) for p in (s["preemption"] for s in out["steps"] if "preemption" in s)]


def test_the_fair_queue_sort_of_1_5_divides_by_the_guarantee_alone(tmp_path):
    files = _files(tmp_path, FAIR_QUEUES, FAIR_SNAPSHOT)
    for v in ("1.6", "1.7", "1.8", "1.9"):
        assert _order(_simulate(files, "--yunikorn-version", v)[0]) == ["a-0", "b-0"], v
    assert _order(_simulate(files, "--yunikorn-version", "1.5")[0]) == ["b-0", "a-0"]


def test_explain_says_the_share_1_5_compares(tmp_path):
    files = _files(tmp_path, FAIR_QUEUES, FAIR_SNAPSHOT)
    r = run_cli("explain", *files, "--why-ask", "a-0", "--yunikorn-version", "1.5")
    assert r.exit_code == 0, r.stderr
    assert "where b sorts before a" in r.stdout
    assert "fair share (0.6) against (50, 0.1) (YuniKorn 1.5: allocated over guaranteed per resource type" in r.stdout
    new = run_cli("explain", *files, "--why-ask", "b-0")
    assert "where a sorts before b" in new.stdout and "fair share 0.5 against 0.6" in new.stdout


def test_guarantee_shares_compare_as_compare_shares_does():
    class Q:
        def __init__(self, allocated, guaranteed=None):
            self.allocated, self.guaranteed = allocated, guaranteed

    # a type with no usage is a 0 where it sorts; the zeros that sort first do not count
    assert guarantee_shares(Q({"vcore": 1, "memory": 50}, {"vcore": 10})) == (0.1, 50.0)
    assert guarantee_shares(Q({"vcore": 0, "memory": 5}, {"memory": 10})) == (0.5,)
    assert guarantee_shares(Q({"vcore": -1, "memory": 0, "gpu": 1}, {"gpu": 2})) == (-1.0, 0.0, 0.5)
    assert compare_shares((0.5,), (0.2, 0.5)) == -1  # equal at the top, then the other's 0.2 > 0
    assert compare_shares((-1.0, 0.0, 0.5), (-0.5, 0.5)) == 1  # the 0 beats -0.5
    assert compare_shares((0.5,), (0.5,)) == 0


_SHARES = st.lists(st.sampled_from([-1, 0, 1, 2, 5]), max_size=3)  # allocated per type (some not guaranteed)


@settings(deadline=None)
@given(_SHARES, _SHARES, st.lists(st.sampled_from([0, 2, 4]), min_size=3, max_size=3))
def test_guarantee_shares_order_as_compare_shares(left, right, guaranteed):
    """GuaranteeShares, what the pre-1.6 sort compares, orders as compareShares and is equal
    exactly where compareShares says 0 (the tie notes read equality)."""
    class Q:
        def __init__(self, allocated):
            self.allocated = dict(zip("abc", allocated))
            self.guaranteed = dict(zip("abc", guaranteed))

    l, r = guarantee_shares(Q(left)), guarantee_shares(Q(right))
    comp = compare_shares(l, r)
    assert ((l < r), (l <= r), (l > r), (l >= r), (l == r)) == (comp < 0, comp <= 0, comp > 0, comp >= 0, comp == 0)
    assert ((0, l) < (0, r)) == (comp < 0) and ((l, 1) < (r, 0)) == (comp < 0)


def _v152_less(prio_first: bool, l, r, ls, rs) -> bool:
    """sortQueuesByPriorityAndFairness / ...FairnessAndPriority as yunikorn-core v1.5.2's
    objects/sorters.go states them, comparison by comparison."""
    from prio.yunikorn.resources import strictly_greater

    if prio_first and l.reported != r.reported:
        return l.reported > r.reported
    comp = compare_shares(ls, rs)
    if comp:
        return comp < 0
    if l.reported != r.reported:
        return l.reported > r.reported
    return strictly_greater(l.pending, r.pending)


@settings(deadline=None)
@given(st.booleans(), st.lists(st.tuples(st.sampled_from([0, 1, 5]), _SHARES, st.lists(st.sampled_from([0, 1, 2]), min_size=2,
                                                                                           max_size=2)), max_size=24))
def test_the_pre_1_6_queue_sort_is_queue_less_over_guarantee_shares(prio_first, queues):
    """_sort_queues_by_guarantee orders through queue_less (the one comparator) with the share
    v1.5.2 compares: the order is v1.5.2's comparator's, over up to 24 queues (SliceStable's
    merges past 20)."""
    from types import SimpleNamespace as NS

    from prio.yunikorn import reference
    from prio.yunikorn.gosort import slice_stable

    cands = [NS(name=f"q{i}", reported=p, allocated=dict(zip("abc", a)), guaranteed={"a": 2, "b": 0}, pending=dict(zip("ab", pe)))
             for i, (p, a, pe) in enumerate(queues)]
    parent = NS(sort_priority=prio_first)
    shares = {id(c): guarantee_shares(c) for c in cands}
    want = slice_stable(list(cands), lambda items, i, j: _v152_less(prio_first, items[i], items[j], shares[id(items[i])],
                                                                    shares[id(items[j])]))
    assert reference._sort_queues_by_guarantee(parent, list(cands)) == want


def test_the_pre_1_6_queue_sort_reads_queue_less(monkeypatch):
    """The pre-1.6 sort has no comparator of its own: queue_less changed, it follows."""
    from types import SimpleNamespace as NS

    from prio.yunikorn import reference

    cands = [NS(name=n, reported=0, allocated={"a": u}, guaranteed={"a": 2}, pending={"a": 1}) for n, u in (("a", 1), ("b", 0))]
    parent = NS(sort_priority=True)
    assert [c.name for c in reference._sort_queues_by_guarantee(parent, list(cands))] == ["b", "a"]
    monkeypatch.setattr(reference, "queue_less", lambda prio_first, l, r, ls, rs: not reference.queue_key(prio_first, l.reported, ls)
                        <= reference.queue_key(prio_first, r.reported, rs))  # more share first
    assert [c.name for c in reference._sort_queues_by_guarantee(parent, list(cands))] == ["a", "b"]


def test_a_1_8_preemptor_cancels_a_lower_priority_reservation_a_1_7_one_does_not(tmp_path):
    files = _files(tmp_path, RESERVED_QUEUES, RESERVED_SNAPSHOT)
    for v in ("1.8", "1.9"):
        out, _ = _simulate(files, "--yunikorn-version", v)
        assert _order(out) == ["y", "x"], v
        assert _preemptions(out) == [("y", "node-1", ["batch-0"])], v
    for v in ("1.5", "1.6", "1.7"):
        out, _ = _simulate(files, "--yunikorn-version", v)
        assert _order(out) == [] and _preemptions(out) == [], v
        reasons = {u["ask"]: u["reason"] for u in out["unscheduled"]}
        assert "it holds the reservation of node-2" in reasons["y"] and "it holds the reservation of node-1" in reasons["x"], v


def test_before_1_8_preemption_checks_the_guarantee_in_every_type(tmp_path):
    files = _files(tmp_path, WISE_QUEUES, WISE_SNAPSHOT)

    def preempt(v):
        r = run_cli("preempt", *files, "-o", "json", "--yunikorn-version", v)
        assert r.exit_code == 0, r.stderr
        return json.loads(r.stdout)["asks"]["y"]

    for v in ("1.8", "1.9"):
        got = preempt(v)
        assert (got["outcome"], got["victims"]) == ("preempted", ["batch-0"]), v
    for v in ("1.5", "1.6", "1.7"):
        got = preempt(v)
        assert (got["outcome"], got["reason"]) == ("not placed", "Preemption queue guarantees check failed"), v


# root.q sorts stateaware; app-a and app-b ask once each, app-d in root.r three times. In 1.5 a
# Starting application (one allocation so far) holds every Accepted one of its queue back
# (stateAwareFilter): app-b waits until app-a leaves Starting, its second allocation or the
# starting timeout, which prio fires when nothing else can be placed (after d-2). From 1.6
# stateaware is fifo; with the tag application.stateaware.disable app-a is Running at once.
STATEAWARE_QUEUES = UNDER_ROOT + ("          - name: q\n            properties: {application.sort.policy: stateaware}\n"
                                  "          - name: r\n")
STATEAWARE_SNAPSHOT = """capacity: {vcore: 100}
applications:
  - {id: app-a, queue: root.q, submitTime: '2024-05-01T10:00:00Z', TAGS asks: [{id: a-0, resources: {vcore: 1}}]}
  - {id: app-b, queue: root.q, submitTime: '2024-05-01T10:01:00Z', asks: [{id: b-0, resources: {vcore: 1}}]}
  - id: app-d
    queue: root.r
    submitTime: '2024-05-01T10:02:00Z'
    asks: [{id: d-0, resources: {vcore: 1}}, {id: d-1, resources: {vcore: 1}}, {id: d-2, resources: {vcore: 1}}]
"""


def test_stateaware_in_1_5_starts_one_application_at_a_time(tmp_path):
    files = _files(tmp_path, STATEAWARE_QUEUES, STATEAWARE_SNAPSHOT.replace("TAGS ", ""))
    assert _order(_simulate(files, "--yunikorn-version", "1.5")[0]) == ["d-0", "a-0", "d-1", "d-2", "b-0"]
    for v in ("1.6", "1.9"):
        assert _order(_simulate(files, "--yunikorn-version", v)[0]) == ["d-0", "a-0", "d-1", "b-0", "d-2"], v
    tagged = _files(tmp_path, STATEAWARE_QUEUES, STATEAWARE_SNAPSHOT.replace("TAGS ", "tags: {application.stateaware.disable: 'true'}, "))
    assert _order(_simulate(tagged, "--yunikorn-version", "1.5")[0]) == ["d-0", "a-0", "d-1", "b-0", "d-2"]


def test_explain_shows_1_5s_stateaware_leaf_and_what_it_offers_now(tmp_path):
    files = _files(tmp_path, STATEAWARE_QUEUES, STATEAWARE_SNAPSHOT.replace("TAGS ", ""))
    old, new = (json.loads(run_cli("explain", *files, "-o", "json", *v).stdout) for v in (("--yunikorn-version", "1.5"), ()))
    rows = {v: {q["queue"]: q for q in out["queues"]} for v, out in (("1.5", old), ("1.9", new))}
    assert rows["1.5"]["root.q"]["sortPolicy"] == "stateaware" and rows["1.9"]["root.q"]["sortPolicy"] == "fifo"
    # considered now: app-b is Accepted behind the older app-a in 1.5
    assert [a["ask"] for a in old["asks"]] == ["d-0", "d-1", "d-2", "a-0"]
    assert "b-0" in [a["ask"] for a in new["asks"]]
    plain = {v: run_cli("explain", *files, "-o", "plain", *a).stdout for v, a in (("1.5", ("--yunikorn-version", "1.5")), ("1.9", ()))}
    assert "now means fifo" in plain["1.9"] and "now means fifo" not in plain["1.5"]


def test_the_stateaware_filter():
    """stateAwareFilter: Running and Starting applications with something pending, and the
    oldest Accepted one only while none is Starting (even one with nothing pending)."""
    from types import SimpleNamespace as NS

    from prio.yunikorn.stateaware import ACCEPTED, RUNNING, STARTING, StateAware

    leaf = NS(apps=[])
    apps = [NS(app_id=n, leaf=leaf, pending={"vcore": p}, key_submit=(t, 0), running=False, app=NS(state="", tags={}, task_groups=[]))
            for n, p, t in (("a", 1, 3), ("b", 1, 2), ("c", 0, 1), ("d", 1, 4))]
    leaf.apps = apps
    sa = StateAware([leaf], apps).bind(apps)
    assert sa.candidates(leaf) == {id(apps[1])}  # the oldest Accepted with something pending
    sa.states[id(apps[3])] = RUNNING
    assert sa.candidates(leaf) == {id(apps[1]), id(apps[3])}
    sa.states[id(apps[2])] = STARTING  # nothing pending, still holds the Accepted ones back
    assert sa.candidates(leaf) == {id(apps[3])}
    sa.allocated(apps[1])
    assert sa.states[id(apps[1])] == STARTING and sa.states[id(apps[0])] == ACCEPTED
    assert sa.times_out() and sa.states[id(apps[1])] == sa.states[id(apps[2])] == RUNNING
    assert not sa.times_out()
    assert sa.candidates(NS(apps=[])) is None  # not a stateaware leaf


# root.p (max 10 vcore) uses 8; a-ask (4 vcore) in root.p.a. From v1.9.0 (YUNIKORN-3241) the
# fence root is the first queue the ask would take past its max: root.p, so only b-run (root.p.b)
# is a candidate, and taking it makes room. Before, a queue is the fence root only when its usage
# equals its own max: the walk goes up to root, c-run (newer) is tried too, and preempting does
# not help the ask within root.p's max.
FENCE_QUEUES = UNDER_ROOT + ("          - name: p\n            resources: {max: {vcore: 10}}\n            queues:\n"
                             "              - name: a\n                resources: {guaranteed: {vcore: 8}}\n"
                             "              - name: b\n"
                             "          - name: c\n")
FENCE_SNAPSHOT = """nodes: [{name: node-1, capacity: {vcore: 16}}]
applications:
  - id: app-a
    queue: root.p.a
    allocations: [{id: a-run, priority: 10, resources: {vcore: 4}, node: node-1, createTime: '2024-05-01T10:00:00Z'}]
    asks: [{id: a-ask, priority: 10, resources: {vcore: 4}, createTime: '2024-05-01T10:05:00Z'}]
  - {id: app-b, queue: root.p.b, allocations: [{id: b-run, priority: 0, resources: {vcore: 4}, node: node-1, createTime: '2024-05-01T10:01:00Z'}]}
  - {id: app-c, queue: root.c, allocations: [{id: c-run, priority: 0, resources: {vcore: 6}, node: node-1, createTime: '2024-05-01T10:02:00Z'}]}
"""


def test_before_1_9_the_fence_root_is_a_queue_at_its_max_exactly(tmp_path):
    files = _files(tmp_path, FENCE_QUEUES, FENCE_SNAPSHOT)

    def preempt(v):
        r = run_cli("preempt", *files, "-o", "json", "--yunikorn-version", v)
        assert r.exit_code == 0, r.stderr
        got = json.loads(r.stdout)["asks"]["a-ask"]
        return got["fenceRoot"], got["eligibleVictims"], got["outcome"], got["victims"]

    assert preempt("1.9") == ("root.p", ["b-run"], "preempted", ["b-run"])
    for v in ("1.5", "1.6", "1.7", "1.8"):
        assert preempt(v) == ("root", ["b-run", "c-run"], "not placed", []), v


@pytest.mark.parametrize("queues,snapshot,command", [(FAIR_QUEUES, FAIR_SNAPSHOT, "simulate"), (RESERVED_QUEUES, RESERVED_SNAPSHOT, "simulate"),
                                                     (WISE_QUEUES, WISE_SNAPSHOT, "preempt"), (FAIR_QUEUES, FAIR_SNAPSHOT, "explain"),
                                                     (STATEAWARE_QUEUES, STATEAWARE_SNAPSHOT.replace("TAGS ", ""), "simulate"),
                                                     (FENCE_QUEUES, FENCE_SNAPSHOT, "preempt")])
def test_the_newest_named_is_the_default_byte_for_byte(tmp_path, queues, snapshot, command):
    files = _files(tmp_path, queues, snapshot)
    default = run_cli(command, *files, "-o", "json")
    named = run_cli(command, *files, "-o", "json", "--yunikorn-version", releases.NEWEST.name)
    assert default.exit_code == named.exit_code == 0 and default.stdout == named.stdout and default.stderr == named.stderr


@pytest.mark.parametrize("name", releases.NAMES)
@pytest.mark.parametrize("queues", [FAIR_QUEUES, STATEAWARE_QUEUES])
def test_a_fast_run_declines_a_release_whose_rules_differ_for_the_input(name, queues):
    """An older release runs on the reference engine (features.OLDER_RELEASE), also when the
    fast engine is asked for, where its rules can schedule the input otherwise: 1.5's queue sort
    always, its stateaware leaves; 1.6 to 1.8 differ in the preemptor alone, which only the
    reference engine runs (PREEMPTION_IN_RUN): they keep the fast runs."""
    snap = {"capacity": {"vcore": 100}, "applications": [{"id": "a", "queue": "root.a", "asks": [{"id": "a-0", "resources": {"vcore": 1}}]}]}
    e = build_engine(queues, snap, placement=False)
    e.release = releases.RELEASES[name]
    older = name == "1.5"
    assert (features.OLDER_RELEASE in features.used(e)) == older
    assert features.choose(e, ((engine.SIMPLE, features.ALL - features.REFERENCE_ONLY),)) == ("reference" if older else engine.SIMPLE)
    assert releases.schedules_as_newest(e.release) == (name == "1.9")


def test_the_notes_name_the_rules_modelled_and_those_not(tmp_path):
    """Each rule of the release that differs from the newest is named: modelled from the code
    (no recording to check it against), or scheduled with the newest's rules."""
    files = _files(tmp_path, FAIR_QUEUES, FAIR_SNAPSHOT)
    _, err = _simulate(files, "--yunikorn-version", "1.5")
    own, missing = (next(line for line in err.splitlines() if what in line) for what in ("own rules", "no model of"))
    assert "prio schedules with 1.5's own rules where it models them, read from yunikorn-core's code at v1.5.2 (no recording" in own
    assert "no model of 1.5's: after a config update, inherited properties missing" in missing
    for s in releases.SCHEDULING:
        if "1.5" in s.releases:
            assert s.what in (own if s.modelled else missing) and s.what not in (missing if s.modelled else own), s.what
    _, newest = _simulate(files)
    assert "own rules" not in newest and "no model of" not in newest


# A gang in 1.5's stateaware leaf (v1.5.2 Application.addAllocation; not recorded, built from the
# code): app-g stays Accepted while its two placeholders are allocated, is Starting when the last
# is, and its one real pod (g-0) replacing a placeholder changes nothing, so app-b waits behind
# the Starting gang until the starting timeout (prio: when nothing else can be placed, after
# d-4). Counting each placeholder as an allocation would have made app-g Running at its second
# placeholder and let b-0 in after d-2, as 1.6's fifo does.
GANG_SNAPSHOT = """capacity: {vcore: 100}
applications:
  - id: app-g
    queue: root.q
    submitTime: '2024-05-01T10:00:00Z'
    taskGroups: [{name: tg, minMember: 2, minResource: {vcore: 1}}]
    asks: [{id: g-0, resources: {vcore: 1}, taskGroup: tg}]
  - {id: app-b, queue: root.q, submitTime: '2024-05-01T10:01:00Z', asks: [{id: b-0, resources: {vcore: 1}}]}
  - id: app-d
    queue: root.r
    submitTime: '2024-05-01T10:02:00Z'
    asks: [{id: d-0, resources: {vcore: 1}, count: 5}]
"""


def test_a_gang_in_1_5_stateaware_is_starting_when_its_last_placeholder_is_allocated(tmp_path):
    files = _files(tmp_path, STATEAWARE_QUEUES, GANG_SNAPSHOT)
    old = _order(_simulate(files, "--yunikorn-version", "1.5")[0])
    new = _order(_simulate(files, "--yunikorn-version", "1.6")[0])
    assert old[-1] == "b-0" and old.index("g-0") == 4, old
    assert new.index("b-0") < len(new) - 1, new
    assert [a for a in old if a.startswith("tg-")] == [a for a in new if a.startswith("tg-")]  # the placeholders alike


def test_the_stateaware_states_of_a_gang():
    """The states 1.5 gives a gang application: from a snapshot (a real pod running: Running;
    every placeholder allocated: Starting; else Accepted), then by its allocations."""
    from types import SimpleNamespace as NS

    from prio.yunikorn.stateaware import ACCEPTED, RUNNING, STARTING, StateAware

    leaf = NS(apps=[])
    groups = [NS(name="tg", min_member=2, min_resource={"vcore": 1})]

    def app(name, allocations):
        a = NS(state="", tags={}, task_groups=groups, allocations=[NS(placeholder=p, resources={"vcore": 1}) for p in allocations])
        return NS(app_id=name, leaf=leaf, pending={"vcore": 1}, key_submit=(0, 0), running=bool(allocations), app=a)

    apps = [app("none", []), app("half", [True]), app("all", [True, True]), app("real", [True, False])]
    sa = StateAware([leaf], apps).bind(apps)
    assert [sa.states[id(st)] for st in apps] == [ACCEPTED, ACCEPTED, STARTING, RUNNING]
    ph, real = NS(placeholder=True, resources={"vcore": 1}), NS(placeholder=False, resources={"vcore": 1})
    half = apps[1]
    sa.allocated(half, ph)
    assert sa.states[id(half)] == STARTING  # its last placeholder
    sa.allocated(half, real, replacing=True)
    assert sa.states[id(half)] == STARTING  # the first replacement changes nothing
    sa.allocated(half, real, replacing=True)
    assert sa.states[id(half)] == RUNNING
    none = apps[0]
    sa.allocated(none, real)  # a real pod not replacing (its placeholders gone): RunApplication
    assert sa.states[id(none)] == STARTING
