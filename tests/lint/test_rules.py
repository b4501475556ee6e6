"""Every validate rule: a config that trips it (at the expected line) and one that does not."""
import pytest

from configs import cfg, placement, tree
from conftest import lint


# (rule, failing config, line of the finding, passing config)
CASES = [
    ("PRIO001", tree("- name: a\n  maxApplications: 5"), 7, tree("- name: a\n  maxapplications: 5")),
    ("PRIO002", tree("- name: a\n  properties:\n    priority.offset: '1'\n    priority.offset: '2'"), 9, tree("- name: a\n  properties:\n    priority.offset: '1'")),
    ("PRIO003", cfg("""
        partitions:
          - name: default
            nodesortpolicy: fair
            queues: [{name: root}]
        """), 3, cfg("""
        partitions:
          - name: default
            nodesortpolicy: {type: fair}
            queues: [{name: root}]
        """)),
    ("PRIO003", tree("- name: a\n  parent: bogus"), 7, tree("- name: a\n  parent: yes")),
    ("PRIO003", tree("- name: a\n  maxapplications: 18446744073709551616"), 7, tree("- name: a\n  maxapplications: 18446744073709551615")),
    ("PRIO003", tree("- name: a\n  maxapplications: -1"), 7, tree("- name: a\n  maxapplications: 0")),
    ("PRIO004", "partitions: [{name: default, queues: [{name: root}]}]\n---\npartitions: []\n", 3, "partitions: [{name: default, queues: [{name: root}]}]\n"),
    ("PRIO006", tree("- name: !!python/object:os.system a"), 6, tree("- name: a")),
    ("PRIO101", cfg("""
        partitions:
          - name: gpu
            queues: [{name: root}]
          - name: GPU
            queues: [{name: root}]
        """), 4, cfg("""
        partitions:
          - name: gpu
            queues: [{name: root}]
          - name: cpu
            queues: [{name: root}]
        """)),
    ("PRIO101", "partitions:\n  - queues: [{name: root}]\n  - name: Default\n    queues: [{name: root}]\n", 3, "partitions:\n  - queues: [{name: root}]\n"),
    ("PRIO102", "partitions:\n  - name: default\n", 2, "partitions:\n  - name: default\n    queues: []\n"),
    ("PRIO137", "partitions: []\n", 1, "partitions:\n  - name: default\n    queues: []\n"),
    ("PRIO103", cfg("""
        partitions:
          - name: default
            queues:
              - name: root
                resources:
                  guaranteed: {}
        """), 6, cfg("""
        partitions:
          - name: default
            queues:
              - name: root
                resources: {}
        """)),
    ("PRIO104", "partitions:\n  - name: default\n    queues:\n      - name: root\n      - name: other\n", 3, "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues: [{name: other}]\n"),
    ("PRIO105", "partitions:\n  - name: default\n    queues:\n      - name: Root\n", 4, "partitions:\n  - name: default\n    queues:\n      - name: root\n"),
    ("PRIO106", tree("- name: team.a"), 6, tree("- name: team-a")),
    ("PRIO106", tree("- name: " + "x" * 65), 6, tree("- name: " + "x" * 64)),
    ("PRIO107", tree("- name: batch\n- name: Batch"), 7, tree("- name: batch\n- name: batch2")),
    ("PRIO108", tree("- name: a\n  resources:\n    max: {memory: 1.5Gi}"), 8, tree("- name: a\n  resources:\n    max: {memory: 1536Mi}")),
    ("PRIO108", tree("- name: a\n  resources:\n    max: {memory: 500m}"), 8, tree("- name: a\n  resources:\n    max: {vcore: 500m}")),
    ("PRIO108", tree("- name: a\n  resources:\n    max: {memory: 10Ki, vcore: 10K}"), 8, tree("- name: a\n  resources:\n    max: {memory: 10Ki, vcore: 10k}")),
    ("PRIO108", tree("- name: a\n  resources:\n    max: {memory: '99999999999999999999'}"), 8, tree("- name: a\n  resources:\n    max: {memory: '9223372036854775807'}")),
    ("PRIO109", tree("- name: a\n  resources:\n    guaranteed: {memory: 10G}\n    max: {memory: 5G}"), 8, tree("- name: a\n  resources:\n    guaranteed: {memory: 5G}\n    max: {memory: 10G}")),
    ("PRIO110", tree("""
        - name: a
          resources: {max: {memory: 10G}}
          queues:
            - name: b
              queues:
                - name: c
                  resources: {max: {memory: 20G}}
        """), 12, tree("""
        - name: a
          resources: {max: {memory: 10G}}
          queues:
            - name: b
              queues:
                - name: c
                  resources: {max: {memory: 10G}}
        """)),
    ("PRIO111", tree("""
        - name: a
          resources: {guaranteed: {memory: 10G}}
          queues:
            - {name: b, resources: {guaranteed: {memory: 6G}}}
            - {name: c, resources: {guaranteed: {memory: 6G}}}
        """), 7, tree("""
        - name: a
          resources: {guaranteed: {memory: 12G}}
          queues:
            - {name: b, resources: {guaranteed: {memory: 6G}}}
            - {name: c, resources: {guaranteed: {memory: 6G}}}
        """)),
    ("PRIO112", tree("""
        - name: a
          resources: {max: {memory: 10G}}
          queues:
            - name: b
              queues:
                - {name: c, resources: {guaranteed: {memory: 6G}}}
                - {name: d, resources: {guaranteed: {memory: 6G}}}
        """), 6, tree("""
        - name: a
          resources: {max: {memory: 12G}}
          queues:
            - name: b
              queues:
                - {name: c, resources: {guaranteed: {memory: 6G}}}
                - {name: d, resources: {guaranteed: {memory: 6G}}}
        """)),
    ("PRIO113", tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b, maxapplications: 20}"), 9, tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b, maxapplications: 10}")),
    ("PRIO114", tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b}"), 9, tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b, maxapplications: 1}")),
    ("PRIO115", cfg("""
        partitions:
          - name: default
            limits: [{limit: a, users: [x], maxapplications: 1}]
            queues:
              - name: root
                limits: [{limit: a, users: [y], maxapplications: 1}]
        """), 3, cfg("""
        partitions:
          - name: default
            limits: [{limit: a, users: [x], maxapplications: 1}]
            queues:
              - name: root
        """)),
    ("PRIO116", tree("- name: a\n  limits:\n    - {limit: x, maxapplications: 1}"), 8, tree("- name: a\n  limits:\n    - {limit: x, users: ['*'], maxapplications: 1}")),
    ("PRIO117", tree("- name: a\n  limits:\n    - {users: [1bob], maxapplications: 1}"), 8, tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}")),
    ("PRIO117", tree("- name: a\n  limits:\n    - {groups: ['dev/ops'], maxapplications: 1}"), 8, tree("- name: a\n  limits:\n    - {groups: ['dev-ops'], maxapplications: 1}")),
    ("PRIO118", tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}\n    - {users: [bob], maxapplications: 2}"), 9, tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}\n    - {users: [sue], maxapplications: 2}")),
    ("PRIO119", tree("- name: a\n  limits:\n    - {users: ['*'], maxapplications: 1}\n    - {users: [bob], maxapplications: 2}"), 9, tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 2}\n    - {users: ['*'], maxapplications: 1}")),
    ("PRIO119", tree("- name: a\n  limits:\n    - {groups: ['*'], maxapplications: 1}"), 8, tree("- name: a\n  limits:\n    - {groups: [dev, '*'], maxapplications: 1}")),
    ("PRIO120", tree("- name: a\n  limits:\n    - {users: [bob], maxresources: {vcore: 0}}"), 8, tree("- name: a\n  limits:\n    - {users: [bob], maxresources: {vcore: 0, memory: 10}}")),
    ("PRIO121", tree("- name: a\n  limits:\n    - {users: [bob]}"), 8, tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}")),
    ("PRIO122", tree("- name: a\n  maxapplications: 5\n  limits:\n    - {users: [bob], maxapplications: 6}"), 9, tree("- name: a\n  maxapplications: 5\n  limits:\n    - {users: [bob], maxapplications: 5}")),
    ("PRIO122", tree("- name: a\n  resources: {max: {memory: 1G}}\n  limits:\n    - {users: [bob], maxresources: {memory: 2G}}"), 9, tree("- name: a\n  resources: {max: {memory: 1G}}\n  limits:\n    - {users: [bob], maxresources: {memory: 1G}}")),
    ("PRIO123", tree("""
        - name: a
          limits: [{users: [bob], maxresources: {memory: 1G}}]
          queues:
            - name: b
              limits: [{users: [bob], maxresources: {memory: 2G}}]
        """), 10, tree("""
        - name: a
          limits: [{users: [bob], maxresources: {memory: 2G}}]
          queues:
            - name: b
              limits: [{users: [bob], maxresources: {memory: 2G}}]
        """)),
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
    ("PRIO124", tree("- name: a\n  submitacl: 'alice bob admins'"), 7, tree("- name: a\n  submitacl: 'alice,bob admins'")),
    ("PRIO125", tree("- name: a\n  adminacl: 'alice  admins'"), 7, tree("- name: a\n  adminacl: ' admins'")),
    ("PRIO125", tree("- name: a\n  adminacl: 'alice admins '"), 7, tree("- name: a\n  adminacl: 'alice admins'")),
]

CASES += [
    ("PRIO126", placement("- name: 'tag rule'\n  value: namespace"), 4, placement("- name: tag\n  value: namespace")),
    ("PRIO127", placement("- name: provided\n  filter: {type: permit}"), 5, placement("- name: provided\n  filter: {type: Allow}")),
    ("PRIO128", placement("- name: provided\n  filter: {users: ['bob smith']}"), 5, placement("- name: provided\n  filter: {users: ['^team-.*']}")),
    ("PRIO129", placement("- name: fixed\n  value: root.batch\n  parent:\n    name: fixed\n    value: root.tenants"), 5, placement("- name: fixed\n  value: batch\n  parent:\n    name: fixed\n    value: root.tenants")),
    ("PRIO130", placement("- name: fixed\n  value: root.tenants"), 5, placement("- name: fixed\n  value: root.batch")),
    ("PRIO130", placement("- name: user\n  parent:\n    name: fixed\n    value: batch"), 7, placement("- name: user\n  create: true\n  parent:\n    name: fixed\n    value: tenants")),
    ("PRIO131", placement("- name: fixed\n  value: root.nosuch"), 5, placement("- name: fixed\n  value: root.nosuch\n  create: true")),
    ("PRIO131", placement("- name: fixed\n  value: root.upper"), 5, placement("- name: fixed\n  value: root.batch")),
    ("PRIO132", placement("- name: fixed\n  value: root.batch.jobs\n  create: true"), 5, placement("- name: fixed\n  value: root.tenants.jobs\n  create: true")),
    ("PRIO133", placement("- name: namespace"), 4, placement("- name: tag\n  value: namespace")),
    ("PRIO133", placement("- name: tag"), 4, placement("- name: Tag\n  value: namespace")),
    ("PRIO133", placement("- name: recovery"), 4, placement("- name: provided")),
    ("PRIO134", "partitions:\n  - name: default\n    nodesortpolicy: {type: BinPacking}\n    queues: [{name: root}]\n", 3, "partitions:\n  - name: default\n    nodesortpolicy: {type: binpacking}\n    queues: [{name: root}]\n"),
    ("PRIO135", "partitions:\n  - name: default\n    nodesortpolicy: {type: fair, resourceweights: {vcore: -1}}\n    queues: [{name: root}]\n", 3, "partitions:\n  - name: default\n    nodesortpolicy: {type: fair, resourceweights: {vcore: 1.5}}\n    queues: [{name: root}]\n"),
    ("PRIO136", tree("- name: a\n  parent: true\n  childtemplate:\n    resources: {max: {memory: ten}}"), 9, tree("- name: a\n  parent: true\n  childtemplate:\n    resources: {max: {memory: 10G}}")),
    ("PRIO201", tree("- name: a\n  properties:\n    priority.offset: '1000000000'"), 8, tree("- name: a\n  properties:\n    priority.offset: '999999999'")),
    ("PRIO201", tree("- name: a\n  properties:\n    priority.policy: fence\n    priority.offset: '2000000000'"), 9, tree("- name: a\n  properties:\n    priority.policy: fence\n    priority.offset: '1999999999'")),
    ("PRIO202", tree("- name: a\n  properties:\n    priority.offset: '-2147483648'"), 8, tree("- name: a\n  properties:\n    priority.offset: '-2147483647'")),
    ("PRIO202", tree("- name: a\n  properties:\n    priority.offset: '2147483000'"), 8, tree("- name: a\n  properties:\n    priority.offset: '1147483647'")),
    ("PRIO203", tree("- name: a\n  properties:\n    priority.offset: '0x10'"), 8, tree("- name: a\n  properties:\n    priority.offset: 010")),
    ("PRIO203", tree("- name: a\n  properties:\n    priority.offset: ' 5'"), 8, tree("- name: a\n  properties:\n    priority.offset: '+5'")),
    ("PRIO203", tree("- name: a\n  properties:\n    priority.offset: 3000000000"), 8, tree("- name: a\n  properties:\n    priority.offset: -2147483648\n    priority.policy: fence")),
    ("PRIO204", tree("- name: a\n  properties:\n    application.sort.policy: Fair"), 8, tree("- name: a\n  properties:\n    application.sort.policy: fair")),
    ("PRIO205", tree("- name: a\n  properties:\n    application.sort.policy: stateaware"), 8, tree("- name: a\n  properties:\n    application.sort.policy: fifo")),
    ("PRIO206", tree("- name: a\n  properties:\n    priority.policy: fenced"), 8, tree("- name: a\n  properties:\n    priority.policy: FENCE")),
    ("PRIO207", tree("- name: a\n  properties:\n    application.sort.priority: off"), 8, tree("- name: a\n  properties:\n    application.sort.priority: Disabled")),
    ("PRIO208", cfg("""
        partitions:
          - name: default
            queues:
              - name: root
                properties: {priority.offset: '100'}
        """), 5, cfg("""
        partitions:
          - name: default
            queues:
              - name: root
                properties: {application.sort.priority: disabled}
        """)),
    ("PRIO209", tree("- name: a\n  childtemplate:\n    maxapplications: 5"), 7, tree("- name: a\n  parent: true\n  childtemplate:\n    maxapplications: 5")),
    ("PRIO210", tree("- name: a\n  properties:\n    priority.offest: '5'"), 8, tree("- name: a\n  properties:\n    priority.offset: '5'")),
    ("PRIO211", tree("- name: a\n  properties:\n    preemption.delay: '30'"), 8, tree("- name: a\n  properties:\n    preemption.delay: 1m30s")),
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

    from prio.lint.schema import _issue

    err = next(Draft202012Validator({"enum": ["fifo", "fair"]}).iter_errors("lifo"))
    [issue] = _issue(err)
    assert issue.rule == "PRIO005" and "lifo" in issue.message
