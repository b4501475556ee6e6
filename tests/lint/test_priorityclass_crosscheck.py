"""The queue config against the PriorityClasses: effective ranges per queue and class, and the
PRIO310/PRIO311 warnings, on the tenants/system walkthrough config and small configs."""
from __future__ import annotations

import os
import textwrap

from conftest import ROOT, TESTS
from prio.io import documents, yamlnodes
from prio.kube.priorityclass import PriorityClass
from prio.lint import runner
from prio.lint.registry import RULES
from prio.yunikorn import (
    classranges,
    tree,
)
from prio.yunikorn.engine import MIN
from prio.yunikorn.lint import crosscheck
from prio.yunikorn.load import priorityclasses
from prio.yunikorn.load import queues as config

HERE = TESTS
SAMPLES = os.path.join(ROOT, "samples")
TIERS = [PriorityClass("tier1", 4000), PriorityClass("tier2", 2000), PriorityClass("tier3", 1000),
         PriorityClass("batch-low", -100, preemption_policy="Never")]


def doc_of(text: str):
    return yamlnodes.load("queues.yaml", textwrap.dedent(text))[0]


def root_of(text: str):
    return tree.from_config(config.decode(doc_of(text)).partitions[0])


def walkthrough():
    with open(os.path.join(SAMPLES, "walkthrough-queues.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    d = yamlnodes.load("walkthrough-queues.yaml", text)[0]
    return d, tree.from_config(config.decode(d).partitions[0])


def table(rows):
    return {(r["queue"], r["class"]): (r["min"], r["max"]) for r in rows}


def test_rules_registered():
    for rid in ("PRIO310", "PRIO311"):
        r = RULES[rid]
        assert r.family == "priorityclass-crosscheck" and r.severity == "warning"
        assert "Example" in r.doc and "Fix" in r.doc


# ---- ranges ----------------------------------------------------------------------------------

def test_class_ranges_on_the_walkthrough():
    _, root = walkthrough()
    t = table(classranges.class_ranges(root, TIERS))
    # leaves: the class value plus the leaf's own offset
    assert t[("root.system.system-high", "tier1")] == (5000, 5000)
    assert t[("root.system.system-low", "tier3")] == (0, 0)
    assert t[("root.tenants.tenant-a.child-a-1", "tier1")] == (4000, 4000)
    # a parent: from its lowest to its highest leaf
    assert t[("root.system", "tier1")] == (3000, 5000)
    assert t[("root.system", "batch-low")] == (-1100, 900)
    # fenced queues report their offset, whatever the class
    assert t[("root.tenants.tenant-a", "system-node-critical")] == (10, 10)
    assert t[("root.tenants", "tier1")] == (0, 0)
    assert t[("root", "tier1")] == (0, 5000)
    assert t[("root.system.system-normal", "system-node-critical")] == (2000001000, 2000001000)


def test_class_ranges_rows_order_and_builtins():
    _, root = walkthrough()
    rows = classranges.class_ranges(root, TIERS)
    assert len(rows) == 12 * 6
    assert [r["class"] for r in rows[:6]] == ["system-node-critical", "system-cluster-critical", "tier1", "tier2", "tier3", "batch-low"]
    assert rows[0]["queue"] == "root" and rows[-1]["queue"] == "root.tenants.tenant-b.child-b-2"
    assert set(rows[0]) == {"queue", "class", "value", "min", "max"}


def test_saturation_at_int32():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: ops
                    properties:
                      priority.offset: "2000000000"
        """)
    t = table(classranges.class_ranges(root, TIERS))
    assert t[("root.ops", "system-node-critical")] == (2**31 - 1, 2**31 - 1)
    assert t[("root.ops", "tier1")] == (2000004000, 2000004000)


def test_saturation_at_the_bottom_means_nothing_pending():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: sink
                    properties:
                      priority.offset: "-2147483648"
        """)
    t = table(classranges.class_ranges(root, TIERS))
    assert t[("root.sink", "batch-low")] == (None, None)
    assert MIN not in [v for pair in t.values() for v in pair]


def test_parent_without_children_uses_its_child_template():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: users
                    parent: true
                    childtemplate:
                      properties:
                        priority.offset: "-500"
        """)
    t = table(classranges.class_ranges(root, TIERS))
    assert t[("root.users", "tier1")] == (3500, 3500)


# ---- warnings --------------------------------------------------------------------------------

def test_walkthrough_cross_check():
    _, root = walkthrough()
    got = [(q.path, rule, msg) for q, rule, msg in crosscheck.cross_check(root, TIERS)]
    by = {(p, r) for p, r, _ in got}
    assert by == {
        ("root.tenants", "PRIO310"),             # system pods in fenced tenants report 0 at root
        ("root.tenants.tenant-b", "PRIO310"),    # ... and 0 against tenant-a's 10
        ("root.tenants", "PRIO311"),
        ("root.system.system-high", "PRIO311"),  # +1000 vs -1000 swaps tiers inside root.system
        ("root.tenants.tenant-b", "PRIO311"),
    }
    msg = next(m for p, r, m in got if p == "root.system.system-high")
    assert "batch-low (-100) in root.system.system-high outranks tier3 (1000) in root.system.system-low at root.system" in msg
    assert "reports 900" in msg and "reports 0" in msg and "priority.offset +1000" in msg
    msg310 = next(m for p, r, m in got if (p, r) == ("root.tenants", "PRIO310"))
    assert "user class batch-low (-100) passes system class system-node-critical (2000001000) at root" in msg310
    assert "root.tenants is fenced" in msg310


def test_example_of_the_issue_tier3_in_batch_outranks_tier1_in_web():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: web
                  - name: batch
                    properties:
                      priority.offset: "5000"
        """)
    got = crosscheck.cross_check(root, TIERS)
    assert [(q.path, r) for q, r, _ in got] == [("root.batch", "PRIO311")]
    msg = got[0][2]
    assert msg.startswith("batch-low (-100) in root.batch outranks tier1 (4000) in root.web at root")
    # every lower user class passes every higher one (+5000 is more than any gap), and the
    # system classes swap too (system-cluster-critical + 5000 > system-node-critical)
    assert "6 more class pairs swap" in msg


def test_no_offsets_no_warnings():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: a
                  - name: b
                    queues:
                      - name: b1
                      - name: b2
        """)
    assert crosscheck.cross_check(root, TIERS) == []


def test_offsets_smaller_than_class_gaps_are_fine():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: a
                    properties:
                      priority.offset: "50"
                  - name: b
                    properties:
                      priority.offset: "-50"
        """)
    assert crosscheck.cross_check(root, TIERS) == []


def test_large_offset_lets_user_class_pass_system_class():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: kube
                  - name: batch
                    properties:
                      priority.offset: "1999999000"
        """)
    got = crosscheck.cross_check(root, [PriorityClass("tier1", 4000)])
    [(q, rule, msg)] = [g for g in got if g[1] == "PRIO310"]
    assert q.path == "root.batch"
    assert "user class tier1 (4000) passes system class system-node-critical (2000001000)" in msg
    assert "root.batch report 2000003000" in msg and "root.kube report 2000001000" in msg


def test_reaching_exactly_a_system_class_counts():
    root = root_of("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: kube
                  - name: batch
                    properties:
                      priority.offset: "1999996000"
        """)
    got = crosscheck.cross_check(root, [PriorityClass("tier1", 4000)])
    [(q, rule, msg)] = [g for g in got if g[1] == "PRIO310"]
    assert " reaches system class system-cluster-critical" in msg
    # the offset also saturates system-cluster-critical above system-node-critical
    assert [g[1] for g in got if g[1] != "PRIO310"] == ["PRIO311"]


def test_cross_check_issues_point_at_the_config():
    d, _ = walkthrough()
    classes = priorityclasses.classes_from_docs(
        [("p", u.doc) for u in documents.units("p", open(os.path.join(SAMPLES, "priorityclasses.yaml")).read())])
    issues = crosscheck.cross_check_issues(config.decode(d), classes)
    pos = {(i.rule, d.pos(i.path).line, d.pos(i.path).column) for i in issues}
    # system-high's offset (line 16); root.tenants' and tenant-b's fences (lines 22, 33)
    assert pos == {("PRIO311", 16, 36), ("PRIO310", 22, 32), ("PRIO311", 22, 32), ("PRIO310", 33, 36), ("PRIO311", 33, 36)}
    assert crosscheck.cross_check_issues(config.decode(d), []) == []


def test_inserted_root_and_dynamic_positions():
    d = doc_of("""\
        partitions:
          - name: default
            queues:
              - name: web
              - name: batch
                properties:
                  priority.offset: "5000"
        """)
    [i] = crosscheck.cross_check_issues(config.decode(d), TIERS)
    assert i.path == ("partitions", 0, "queues", 1, "properties", "priority.offset")


def test_set_issues_over_files():
    def units(path):
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as fh:
            return name, documents.units(name, fh.read())

    fix = os.path.join(HERE, "fixtures", "priorityclass")
    files = [units(os.path.join(SAMPLES, "walkthrough-queues.yaml")), units(os.path.join(SAMPLES, "priorityclasses.yaml")),
             units(os.path.join(fix, "defaults-a.yaml"))]
    got = runner.set_issues(files)
    rules = sorted((n, i.rule) for n, _, i in got)
    assert ("defaults-a.yaml", "PRIO307") in rules and ("priorityclasses.yaml", "PRIO307") in rules
    assert sum(1 for n, r in rules if n == "walkthrough-queues.yaml") == 5
    # no classes: no cross-check
    assert runner.set_issues([units(os.path.join(SAMPLES, "walkthrough-queues.yaml"))]) == []
    # a ConfigMap's embedded queues.yaml is checked too, with positions in the outer file
    with open(os.path.join(fix, "mixed.yaml"), encoding="utf-8") as fh:
        text = fh.read().replace('priority.offset: "100"', 'priority.offset: "3000"')
    got = runner.set_issues([("mixed.yaml", documents.units("mixed.yaml", text)), units(os.path.join(fix, "tiers.yaml"))])
    [(n, d, i)] = [g for g in got if g[0] == "mixed.yaml"]
    assert i.rule == "PRIO311" and "batch-low (-100) in root.web outranks tier2 (2000) in root.batch" in i.message
    pos = d.pos(i.path)
    assert (n, pos.line, pos.column) == ("mixed.yaml", 16, 36)
