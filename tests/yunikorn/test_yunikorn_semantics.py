"""What the conformance corpus taught, on small hand-made cases that need no shared data: Go's
sort.SliceStable, the fair-max defect, fair shares without a capacity, sortedRequests
insertion, placement rules and rejected applications, and the map-order tie marks."""
import json
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders import build_engine
from conftest import run_cli, sample
from prio.yunikorn import engine
from prio.yunikorn.gosort import slice_stable
from strategies import sort_keys


def make(queues_yaml: str, asks_yaml: str) -> engine.Engine:
    return build_engine(textwrap.dedent(queues_yaml), textwrap.dedent(asks_yaml))


def asks(e, **kw):
    return [s.ask for s in e.run(**kw)]


# ---- Go's sort.SliceStable -------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 2, 19, 20, 21, 40, 41, 57, 100, 333])
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_slice_stable_is_a_stable_sort_for_a_proper_comparator(n, data):
    """n: the sizes around Go's blocks of 20 and its merges of doubling width."""
    keys = data.draw(sort_keys(min_size=n, max_size=n))
    xs = [(k, i) for i, k in enumerate(keys)]
    assert slice_stable(list(xs), lambda it, i, j: it[i][0] < it[j][0]) == sorted(xs, key=lambda x: x[0])


def test_slice_stable_compares_by_position_when_the_comparator_does():
    # Three queues: c has the higher priority; a and b tie on it and are told apart by usage over
    # a fair max that belongs to the POSITION (YuniKorn's fairMaxResources[i]), not the queue.
    prio = {"a": 5, "b": 5, "c": 10}
    usage = {"a": 1000, "b": 16000, "c": 9000}
    fm = {"a": 10**15, "b": 10**15, "c": 11000}

    def run(order):
        fms = [fm[x] for x in order]

        def less(it, i, j):
            l, r = it[i], it[j]
            if prio[l] != prio[r]:
                return prio[l] > prio[r]
            return usage[l] / fms[i] < usage[r] / fms[j]

        return slice_stable(list(order), less)

    assert run(["a", "b", "c"]) == ["c", "a", "b"]  # each queue keeps its own fair max by luck
    assert run(["a", "c", "b"]) == ["c", "b", "a"]  # b is measured against c's fair max: b first


# ---- fair shares without a capacity ----------------------------------------------------------
QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
          - name: b
"""


def test_usage_orders_siblings_without_a_capacity():
    # Without a capacity YuniKorn still divides usage by the cluster's size: b uses less, so b first.
    e = make(QUEUES, """
        applications:
          - {id: x, queue: root.a, allocated: {vcore: 4}, asks: [{priority: 1}]}
          - {id: y, queue: root.b, allocated: {vcore: 1}, asks: [{priority: 1}]}
        """)
    assert asks(e) == ["y-1", "x-1"]
    assert e.root.fairmax == {"pods": 10**12, "vcore": 10**15}  # vcore counted in millicores
    assert e.root.max is None  # headroom stays unlimited


# ---- sortedRequests --------------------------------------------------------------------------
def test_equal_asks_are_inserted_as_yunikorn_inserts_them():
    # x-3 equals x-1 (priority and create time) but comes after the lower x-2 was appended: the
    # binary search puts it before its equal. Without a createTime asks are created in turn.
    e = make(QUEUES, """
        applications:
          - id: x
            queue: root.a
            asks:
              - {priority: 9, createTime: "2024-05-01T10:00:00Z"}
              - {priority: 5, createTime: "2024-05-01T10:00:00Z"}
              - {priority: 9, createTime: "2024-05-01T10:00:00Z"}
          - id: y
            queue: root.b
            asks: [{priority: 3, count: 3}]
        """)
    assert asks(e) == ["x-3", "x-1", "x-2", "y-1", "y-2", "y-3"]


# ---- placement -------------------------------------------------------------------------------
PLACED = """
partitions:
  - name: default
    {rules}
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: leaf
          - name: tenants
            parent: true
            childtemplate: {{properties: {{priority.offset: "7"}}}}
"""


def test_without_rules_an_unknown_queue_is_rejected_and_the_rest_scheduled():
    e = make(PLACED.format(rules=""), """
        applications:
          - {id: ok, queue: root.leaf, asks: [{priority: 1}]}
          - {id: new, queue: root.tenants.t1, asks: [{priority: 1}]}
          - {id: below, queue: root.leaf.sub, asks: [{priority: 1}]}
          - {id: parent, queue: root.tenants, asks: [{priority: 1}]}
        """)
    assert asks(e) == ["ok-1"] and e.leftovers() == []
    assert [(r.application, r.reason) for r in e.rejected] == [
        (a, f"failed to place application {a}: application rejected: no placement rule matched") for a in ("new", "below", "parent")]


def test_provided_create_makes_dynamic_queues_but_never_below_a_leaf():
    e = make(PLACED.format(rules="placementrules: [{name: provided, create: true}]"), """
        applications:
          - {id: new, queue: root.tenants.t1, asks: [{priority: 1}]}
          - {id: below, queue: root.leaf.sub, asks: [{priority: 1}]}
          - {id: short, queue: tenants.t2, asks: [{priority: 1}]}
        """)
    assert asks(e) == ["new-1", "short-1"]
    paths = {q.path: q for q in e.root.walk()}
    assert paths["root.tenants.t1"].offset == 7  # the child template
    assert "root.tenants_dot_t2" in paths  # an unqualified name is one queue below root, dots replaced
    assert [(r.application, r.reason) for r in e.rejected] == [
        ("below", "failed to create rule based queue root.leaf.sub for application below\n"
                  "creation of queue root.leaf.sub failed parent is already a leaf: root.leaf")]


def test_a_queue_created_for_one_application_places_the_next_that_asks_for_it():
    """The model keeps where place() put an application for the next with the same queue, user
    and groups, until a queue is created: here alice's first application finds no queue (the
    creating rule is bob's) and goes to root.default, bob's creates root.tenants.t1, and then
    alice's second is placed there by the rule that creates nothing."""
    rules = ("placementrules: [{name: provided, create: true, filter: {type: allow, users: [bob]}},"
             " {name: provided}, {name: fixed, value: root.default}]")
    e = make(PLACED.format(rules=rules).replace("- name: leaf", "- name: leaf\n          - name: default"), """
        applications:
          - {id: a1, queue: root.tenants.t1, user: alice, asks: [{priority: 1}]}
          - {id: a2, queue: root.tenants.t1, user: alice, asks: [{priority: 1}]}
          - {id: b, queue: root.tenants.t1, user: bob, asks: [{priority: 1}]}
          - {id: a3, queue: root.tenants.t1, user: alice, asks: [{priority: 1}]}
        """)
    assert {st.app_id: st.leaf.path for st in e.apps} == {
        "a1": "root.default", "a2": "root.default", "b": "root.tenants.t1", "a3": "root.tenants.t1"}


def test_fixed_rule_filters_user_rule_and_the_default_queue():
    q = """
    partitions:
      - name: default
        placementrules:
          - {name: fixed, value: leaf, filter: {type: allow, users: [alice]}}
          - {name: user, create: true, parent: {name: fixed, value: root.users}}
        queues:
          - name: root
            submitacl: '*'
            queues:
              - {name: leaf}
              - {name: users, parent: true}
              - {name: default}
    """
    e = make(q, """
        applications:
          - {id: a, user: alice, queue: root.anything, asks: [{priority: 1}]}
          - {id: b, user: bob.smith, queue: root.anything, asks: [{priority: 1}]}
          - {id: c, queue: root.anything, asks: [{priority: 1}]}
        """)
    e.run()
    assert {st.app.id: st.leaf.path for st in e.apps} == {"a": "root.leaf", "b": "root.users.bob_dot_smith", "c": "root.default"}
    assert e.rejected == []


@pytest.mark.parametrize("rules,refused", [
    ("[{name: provided}, {name: fixed}]", "2 (fixed: a fixed rule needs a non-empty value"),
    ("[{name: provided}, {name: namespace}]", "2 (namespace: unknown rule name specified namespace"),
    ("[{name: user, parent: {name: tag}}]", "1 (user: a tag rule needs a non-empty value"),
    ("[{name: fixed, value: root.leaf, parent: {name: provided}}]", "1 (fixed: a fully qualified fixed rule (root.leaf) cannot have a parent rule"),
])
def test_rules_yunikorn_cannot_build_reject_every_application(rules, refused):
    """newRule refuses one rule (itself or its parent): NewPlacementManager keeps no rule at all and
    PlaceApplication rejects every application, root.default included (yunikorn-core placement.go)."""
    e = make(PLACED.format(rules=f"placementrules: {rules}").replace("- name: leaf", "- name: leaf\n          - name: default"), """
        applications:
          - {id: ok, queue: root.leaf, asks: [{priority: 1}]}
          - {id: other, queue: root.nosuch, asks: [{priority: 1}]}
        """)
    assert asks(e) == []
    assert [r.application for r in e.rejected] == ["ok", "other"]
    first, second = e.rejected[0].reason.split("\n")
    assert first == "failed to place application ok: application rejected: no placement rule matched"
    assert second.startswith(f"YuniKorn cannot build placement rule {refused}") and "rejects every application" in second


def test_rejected_applications_in_every_output(tmp_path):
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n  - {id: ghost, queue: root.nosuch, asks: [{priority: 1}]}\n"
                 "  - {id: fine, queue: root.system.system-low, asks: [{priority: 1}]}\n")
    q = sample("walkthrough-queues.yaml")
    want = {"application": "ghost", "queue": "root.nosuch",
            "reason": "failed to place application ghost: application rejected: no placement rule matched"}
    r = run_cli("simulate", q, str(s), "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["rejected"] == [want]
    r = run_cli("explain", q, str(s), "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["rejected"] == [want]
    assert all(a["application"] != "ghost" for a in json.loads(r.stdout)["asks"])
    for cmd in ("simulate", "explain"):
        for fmt in ("plain", "markdown", "table"):
            r = run_cli(cmd, q, str(s), "-o", fmt)
            assert r.exit_code == 0 and "Rejected applications" in r.stdout and "no placement rule matched" in r.stdout
    r = run_cli("explain", q, str(s), "--why-ask", "ghost-1")
    assert r.exit_code == 0 and "YuniKorn rejects the application" in r.stdout
    # no rejection, no key: the contract's shape stays as it was
    r = run_cli("simulate", "-o", "json")
    assert "rejected" not in json.loads(r.stdout)


# ---- the fair-max defect and ties --------------------------------------------------------------
DEFECT_QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: s0
          - name: s1
            resources: {max: {vcore: "2"}}
            queues: [{name: l0}, {name: l1}]
          - name: s2
            resources: {max: {vcore: "11"}}
          - name: s3
            resources: {max: {vcore: "12"}}
"""
DEFECT_ASKS = """
capacity: {vcore: "33"}
applications:
  - id: app00
    queue: root.s1.l1
    asks:
      - {priority: 1, resources: {vcore: 500m}}
      - {priority: 0, resources: {vcore: "1"}}
      - {priority: 5, resources: {vcore: "1"}}
  - id: app01
    queue: root.s1.l0
    asks: [{priority: 5, resources: {vcore: 500m}}]
  - id: app02
    queue: root.s0
    asks:
      - {priority: -10, resources: {vcore: "1"}}
      - {priority: 5, resources: {vcore: "1"}}
      - {priority: 1, resources: {vcore: "3"}}
  - id: app03
    queue: root.s3
    allocated: {vcore: "2"}
    asks:
      - {priority: 5, resources: {vcore: "1"}}
      - {priority: 5, resources: {vcore: "1"}}
      - {priority: 1000, resources: {vcore: "3"}}
      - {priority: 5, resources: {vcore: "1"}}
"""


def test_fair_max_defect_is_reproduced_and_noted():
    # Recorded from YuniKorn (the corpus's fairmax-00016): at step 4 the documented order takes
    # s3 (usage 5 of 12 against s1's 1 of 2), YuniKorn takes s1.
    steps = make(DEFECT_QUEUES, DEFECT_ASKS).run()
    assert [s.ask for s in steps[:5]] == ["app03-3", "app02-2", "app00-3", "app01-1", "app03-1"]
    four = steps[3]
    assert "documented fair-share order would take s3" in four.note and four.tie == ("queues root.s1, root.s3",)
    assert [s.step for s in steps if s.note] == [4]


def test_marks_and_footnotes_in_every_format(tmp_path):
    q, a = tmp_path / "q.yaml", tmp_path / "a.yaml"
    q.write_text(textwrap.dedent(DEFECT_QUEUES))
    a.write_text(textwrap.dedent(DEFECT_ASKS))
    r = run_cli("simulate", str(q), str(a), "-o", "json")
    step4 = json.loads(r.stdout)["steps"][3]
    assert step4["tie"] is True and "s3" in step4["note"]
    assert "tie" not in json.loads(r.stdout)["steps"][0]
    for fmt in ("plain", "markdown", "table"):
        out = run_cli("simulate", str(q), str(a), "-o", fmt).stdout
        assert "4*!" in out and "step 4: tied" in out and "queues root.s1, root.s3" in out
        after = out.split("4*!", 1)[1].split("step 4: tied", 1)[0]  # the legend comes before the marked steps
        assert "Marks after a step number (8*, ...): * a tie: the real scheduler may take another order here; ! YuniKorn's queue sort" in " ".join(after.split()), out
    r = run_cli("explain", str(q), str(a), "--why-ask", "app03-1", "--behind", "app01-1")
    assert "tie that YuniKorn leaves to Go's map order" in r.stdout and "differ in fair max" in r.stdout


def test_the_legend_explains_the_marks_shown_and_only_them():
    r = run_cli("simulate", "--sample", "batch", "-o", "plain")
    lines = r.stdout.split("Per queue", 1)[0].splitlines()
    legend = next(i for i, line in enumerate(lines) if line.startswith("Marks after a step number"))
    assert lines[legend] == "Marks after a step number (8*, ...): * a tie: the real scheduler may take another order here."
    assert lines[legend + 1].startswith("* step 5: tied") and "!" not in lines[legend]
    assert "Marks after" not in run_cli("simulate", "-o", "plain").stdout  # the walkthrough: no mark, no legend


def test_applications_tied_on_priority_and_submit_time_are_marked():
    e = make(QUEUES, """
        applications:
          - {id: x, queue: root.a, submitTime: "2024-05-01T10:00:00Z", asks: [{priority: 1}]}
          - {id: y, queue: root.a, submitTime: "2024-05-01T10:00:00Z", asks: [{priority: 1}]}
          - {id: z, queue: root.b, submitTime: "2024-05-01T09:00:00Z", asks: [{priority: 0}]}
        """)
    steps = e.run()
    assert [(s.ask, s.tie) for s in steps] == [("x-1", ("applications x, y",)), ("y-1", ()), ("z-1", ())]


def test_queues_tied_on_everything_are_marked_and_dominance_is_not_a_tie():
    e = make(QUEUES, """
        applications:
          - {id: x, queue: root.a, asks: [{priority: 1}]}
          - {id: y, queue: root.b, asks: [{priority: 1}]}
        """)
    assert e.step().tie == ("queues root.a, root.b",)
    e = make(QUEUES, """
        applications:
          - {id: x, queue: root.a, asks: [{priority: 1}]}
          - {id: y, queue: root.b, asks: [{priority: 1, count: 2}]}
        """)
    assert e.step().tie == ()  # b's pending dominates a's: b first, whatever the map order


def test_strict_choices_have_no_marks():
    steps = build_engine(open(sample("walkthrough-queues.yaml")).read(), open(sample("walkthrough-asks.yaml")).read()).run()
    assert len(steps) == 11 and not any(s.tie or s.note for s in steps)


def test_a_running_allocation_older_than_its_application_makes_it_the_older_one_in_fifo():
    """YuniKorn lowers an application's submission time to the create time of the oldest ask or
    allocation added to it (AddAllocationAsk, addAllocationInternal); times compare by value, an
    equal one goes to the application id (conformance-3 mixed-large-00002: app030, submitted at
    the default 00:00:30, before app072, whose running allocation was created at 00:00:30)."""
    e = make(QUEUES, """
        applications:
          - {id: zed, queue: root.a, asks: [{priority: 1}]}
          - {id: old, queue: root.a, asks: [{priority: 1}],
             allocations: [{id: old-0, resources: {vcore: 1}, createTime: "2023-12-31T00:00:00Z"}]}
          - {id: amy, queue: root.a, asks: [{priority: 1}],
             allocations: [{id: amy-0, resources: {vcore: 1}, createTime: "2024-01-01T00:00:00Z"}]}
          - {id: ann, queue: root.a, asks: [{priority: 1}], allocations: [{id: ann-0, resources: {vcore: 1}}]}
        """)
    # zed's default submit time is 2024-01-01T00:00:00Z (position 0) like amy's allocation: the id
    # decides; ann's allocation has no time of its own (created with ann, at its position 3)
    assert asks(e) == ["old-1", "amy-1", "zed-1", "ann-1"]
