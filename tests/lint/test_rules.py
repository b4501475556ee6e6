"""More shapes per validate rule, in-process: a config that trips it (at the expected line and a
column) and one that does not. The first case of every rule is in test_rule_catalogue.py, which
runs it through `prio validate`; this file keeps the further shapes only."""
import pytest
from configs import placement, tree

from conftest import lint

# (rule, failing config, line of the finding, passing config)
CASES = [
    ("PRIO003", tree("- name: a\n  parent: bogus"), 7, tree("- name: a\n  parent: yes")),
    ("PRIO003", tree("- name: a\n  maxapplications: 18446744073709551616"), 7, tree("- name: a\n  maxapplications: 18446744073709551615")),
    ("PRIO101", "partitions:\n  - queues: [{name: root}]\n  - name: Default\n    queues: [{name: root}]\n", 3, "partitions:\n  - queues: [{name: root}]\n"),
    ("PRIO106", tree("- name: " + "x" * 65), 6, tree("- name: " + "x" * 64)),
    ("PRIO108", tree("- name: a\n  resources:\n    max: {memory: 500m}"), 8, tree("- name: a\n  resources:\n    max: {vcore: 500m}")),
    ("PRIO108", tree("- name: a\n  resources:\n    max: {memory: 10Ki, vcore: 10K}"), 8, tree("- name: a\n  resources:\n    max: {memory: 10Ki, vcore: 10k}")),
    ("PRIO108", tree("- name: a\n  resources:\n    max: {memory: '99999999999999999999'}"), 8, tree("- name: a\n  resources:\n    max: {memory: '9223372036854775807'}")),
    ("PRIO117", tree("- name: a\n  limits:\n    - {groups: ['dev/ops'], maxapplications: 1}"), 8, tree("- name: a\n  limits:\n    - {groups: ['dev-ops'], maxapplications: 1}")),
    ("PRIO119", tree("- name: a\n  limits:\n    - {groups: ['*'], maxapplications: 1}"), 8, tree("- name: a\n  limits:\n    - {groups: [dev, '*'], maxapplications: 1}")),
    ("PRIO122", tree("- name: a\n  resources: {max: {memory: 1G}}\n  limits:\n    - {users: [bob], maxresources: {memory: 2G}}"), 9, tree("- name: a\n  resources: {max: {memory: 1G}}\n  limits:\n    - {users: [bob], maxresources: {memory: 1G}}")),
    ("PRIO123", tree("""
        - name: a
          limits: [{users: ['*'], maxapplications: 2}]
          queues:
            - name: b
              limits: [{users: [bob], maxresources: {memory: 2G}}]
        """), 10, tree("""
        - name: a
          limits: [{users: ['*'], maxapplications: 2}]
          queues:
            - name: b
              limits: [{users: [bob], maxapplications: 2}]
        """)),
    ("PRIO125", tree("- name: a\n  adminacl: 'alice admins '"), 7, tree("- name: a\n  adminacl: 'alice admins'")),
]

CASES += [
    ("PRIO130", placement("- name: user\n  parent:\n    name: fixed\n    value: batch"), 7, placement("- name: user\n  create: true\n  parent:\n    name: fixed\n    value: tenants")),
    ("PRIO131", placement("- name: fixed\n  value: root.upper"), 5, placement("- name: fixed\n  value: root.batch")),
    ("PRIO133", placement("- name: tag"), 4, placement("- name: Tag\n  value: namespace")),
    ("PRIO133", placement("- name: recovery"), 4, placement("- name: provided")),
    ("PRIO201", tree("- name: a\n  properties:\n    priority.policy: fence\n    priority.offset: '2000000000'"), 9, tree("- name: a\n  properties:\n    priority.policy: fence\n    priority.offset: '1999999999'")),
    ("PRIO202", tree("- name: a\n  properties:\n    priority.offset: '2147483000'"), 8, tree("- name: a\n  properties:\n    priority.offset: '1147483647'")),
    ("PRIO203", tree("- name: a\n  properties:\n    priority.offset: ' 5'"), 8, tree("- name: a\n  properties:\n    priority.offset: '+5'")),
    ("PRIO203", tree("- name: a\n  properties:\n    priority.offset: 3000000000"), 8, tree("- name: a\n  properties:\n    priority.offset: -2147483648\n    priority.policy: fence")),
]


@pytest.mark.parametrize("rule,bad,line,good", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_fails_and_passes(rule, bad, line, good):
    got = [f for f in lint(bad) if f.rule == rule]
    assert got, f"{rule} not reported; got {[(f.rule, f.message) for f in lint(bad)]}"
    assert got[0].line == line, (got[0].line, got[0].message)
    assert got[0].column >= 1
    assert not [f for f in lint(good) if f.rule == rule], [f.message for f in lint(good)]


def test_yuniKorn_stops_at_first_error_prio_reports_all():
    found = {f.rule for f in lint(open(__import__("conftest").sample("mistakes.yaml")).read())}
    assert {"PRIO001", "PRIO003", "PRIO106", "PRIO107", "PRIO108", "PRIO109", "PRIO119", "PRIO125", "PRIO131", "PRIO133"} <= found
    assert {"PRIO201", "PRIO203", "PRIO204", "PRIO206"} <= found


def test_offset_sum_across_levels_and_fence_scope():
    text = tree("""
        - name: batch
          properties: {priority.offset: '600000000'}
          queues:
            - name: big
              properties: {priority.offset: '500000000'}
        - name: fenced
          properties: {priority.policy: fence}
          queues:
            - name: inner
              properties: {priority.offset: '1500000000'}
        """)
    got = [f for f in lint(text) if f.rule == "PRIO201"]
    msgs = {f.path: f.message for f in got}
    # 1e9 + 5e8 = 1.5e9 at big, + 6e8 = 2.1e9 at batch: reported where it first crosses
    assert "partitions[0].queues[0].queues[0].properties['priority.offset']" in msgs
    assert "2100000000" in msgs["partitions[0].queues[0].queues[0].properties['priority.offset']"]
    inner = [m for p, m in msgs.items() if "queues[1].queues[0]" in p]
    assert inner and "fence on root.fenced" in inner[0]


def test_schema_catch_all_is_prio005():
    """Schema errors that are neither unknown keys nor types (none today; the schema may grow)."""
    from jsonschema import Draft202012Validator

    from prio.yunikorn.lint.schema import _issue

    err = next(Draft202012Validator({"enum": ["fifo", "fair"]}).iter_errors("lifo"))
    [issue] = _issue(err)
    assert issue.rule == "PRIO005" and "lifo" in issue.message


def test_root_is_always_a_parent_so_its_child_template_counts(tmp_path):
    """checkQueuesStructure makes root a parent even without children: its child template is
    read (no PRIO209), and an error in it is YuniKorn's error."""
    import json

    from conftest import run_cli

    f = tmp_path / "q.yaml"
    f.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        childtemplate:\n"
                 "          maxapplications: 3\n          resources:\n            max: {vcore: -1}\n")
    r = run_cli("validate", str(f), "-o", "json")
    rules = {x["rule"] for x in json.loads(r.stdout)["findings"]}
    assert "PRIO209" not in rules and "PRIO136" in rules and r.exit_code == 1


def test_own_priority_of_a_queue_without_priority_properties_is_what_parsing_nothing_gives():
    """priority.own_priority's shortcut for queues that set neither property."""
    from prio.yunikorn import properties as P
    from prio.yunikorn.config import Queue
    from prio.yunikorn.lint import priority

    plain = Queue((), name="a", properties={"application.sort.policy": "fair"})
    assert priority.own_priority(plain) == (P.offset(None)[0], P.priority_policy(None)[0] == "fence") == (0, False)
    fenced = Queue((), name="b", properties={P.PRIORITY_POLICY: "fence", P.PRIORITY_OFFSET: "5"})
    assert priority.own_priority(fenced) == (5, True)
