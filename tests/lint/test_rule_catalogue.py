"""The whole rule catalogue in one table: for every rule the registry knows, an input that trips
it and one that does not, run through `prio validate` itself (files in a temporary directory,
JSON output), so decoder, schema, queue, PriorityClass, Armada, cross-file and suppression rules
are all tested the same way. Then: every registered rule has a case, and every rule is documented
(summary, Example, Fix, severity, target, slug) and shown by `prio rule ID`.

The config builders and the preemption configs come from configs.py, shared with the rules'
own tests. The config rules' cases live here only (test_rules.py keeps their further shapes);
the other inputs are taken from their rules' tests (test_preemption_rules.py,
test_priorityclass_lint.py, test_priorityclass_crosscheck.py, test_armada_lint.py,
test_suppress.py, test_configmap.py, tests/armada/test_armada_current.py, test_kueue_lint.py), which keep the finer
points (messages, several shapes per rule); this file keeps the catalogue whole."""
from __future__ import annotations

import copy
import json
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from configs import (
    DISABLED_WITH_POLICY,
    FENCE_OUT_OF_REACH,
    KUEUE,
    LEAF_GUARANTEE_ON_PARENT,
    LEAF_NO_GUARANTEE,
    QUOTA_BOTH,
    QUOTA_DELAY_NO_SWITCH,
    QUOTA_MAX_UNDER_PARENT_GUARANTEE,
    QUOTA_PARENT_DELAY,
    QUOTA_PARENT_DELAY_NO_MAX,
    VOLCANO,
    cfg,
    kueue,
    line_of,
    placement,
    tree,
    volcano,
)

from conftest import run_cli

Files = str | dict  # one file's text (named input.yaml), or {file name: text}


@dataclass(frozen=True)
class Case:
    bad: Files  # trips the rule ...
    line: int | None  # ... at this line (None: the rule has no line to point at)
    good: Files  # ... and this, the fixed input, does not
    file: str | None = None  # the file the finding is in (default: the first one)
    classes: tuple = ()  # files given with --priority-classes rather than as paths
    severity: str | None = None  # the finding's severity, when not the rule's own
    setup: Callable | None = field(default=None, compare=False)  # setup(monkeypatch), before validate runs
    args: tuple = ()  # more options of validate (--yunikorn-version ...)


def case(bad, line, good, **kw) -> Case:
    return Case(bad, line, good, **kw)


def configmap(inner: str, literal: bool = True) -> str:
    """The yunikorn-configs ConfigMap carrying `inner` as queues.yaml (its key is on line 6)."""
    if literal:
        block = "|\n" + "".join("    " + ln + "\n" for ln in inner.splitlines())
    else:
        block = json.dumps(inner) + "\n"
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n  queues.yaml: " + block


def pc(body: str, api: str = "scheduling.k8s.io/v1") -> str:
    """A PriorityClass manifest: metadata is on line 3, so `name` is on 4 and `value` on 5."""
    return f"apiVersion: {api}\nkind: PriorityClass\n" + textwrap.dedent(body)


# Quota preemption on, a queue with a max and the quota-preemption delay under `key` (line 9).
UPGRADE_QUOTA = """partitions:
  - name: default
    preemption: {{quotapreemptionenabled: true}}
    queues:
      - name: root
        queues:
          - name: a
            properties:
              {key}: 30s
            resources: {{max: {{vcore: "4"}}}}
"""

ARMADA_QUEUE = "apiVersion: armadaproject.io/v1beta1\nkind: Queue\n"  # the queue's fields from line 3

ARMADA_SCENARIO = """model: armada
totalResources: {cpu: "100", nvidia.com/gpu: "8"}
RESOURCES
priorityClasses:
  armada-default: {priority: 1000, preemptible: false}
  armada-preemptible: {priority: 1000, preemptible: true}
queues:
  - {name: a, priorityFactor: PF}
jobs:
  - {queue: a, requests: {cpu: "1"}, priorityClass: CLASS}
"""


def scenario(**changes) -> str:
    """An Armada scenario for the current scheduler that lints clean, with `changes` made."""
    good = {"RESOURCES": "resourcesToConsider: [cpu, nvidia.com/gpu]", "PF": "2", "CLASS": "armada-default"}
    text = ARMADA_SCENARIO
    for k, v in {**good, **changes}.items():
        text = text.replace(k, v)
    return text


# root.system lifts pods over the system priorities: PRIO201 and PRIO202 on line 8.
SUPPRESS_QUEUES = """\
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: system
            properties:
              priority.offset: "1500000000"
          - name: team.a
"""


def with_comment(text: str, lineno: int, comment: str) -> str:
    lines = text.split("\n")
    lines[lineno - 1] += comment
    return "\n".join(lines)


# The PriorityClasses of the cross-checks: tier1 4000, tier2 2000, tier3 1000, batch-low -100.
TIERS = "---\n".join([
    pc("metadata: {name: tier1}\nvalue: 4000\n"),
    pc("metadata: {name: tier2}\nvalue: 2000\n"),
    pc("metadata: {name: tier3}\nvalue: 1000\n"),
    pc("metadata: {name: batch-low}\nvalue: -100\npreemptionPolicy: Never\n"),
])


def two_queues(a: str, b: str, offset: str) -> str:
    """Queues `a` and `b` under root, `b` with a priority.offset on line 9."""
    return tree(f"- name: {a}\n- name: {b}\n  properties:\n    priority.offset: \"{offset}\"")


def grown_schema(monkeypatch) -> None:
    """PRIO005 is the schema's catch-all: every constraint of the schema prio ships is reported as
    PRIO001 (unknown keys) or PRIO003 (types, ranges). Validate against the shipped schema grown by
    one constraint of another kind (at least one partition), as the schema may grow."""
    from jsonschema import Draft202012Validator

    from prio.yunikorn.lint import schema

    grown = copy.deepcopy(schema.load_schema())
    grown["$defs"]["SchedulerConfig"]["properties"]["partitions"]["minItems"] = 1
    monkeypatch.setattr(schema, "validator", lambda name=None: Draft202012Validator(schema.inline_refs(grown)))
    monkeypatch.setattr(schema, "load_schema", lambda name=None: grown)  # the jsonschema-free check reads it too


CLEAN_INNER = "partitions:\n  - name: default\n    queues:\n      - name: root\n"


# rule id -> the cases that trip it and their fixes. Every registered rule has at least one.
# (rule, failing Kueue setup, a text on the finding's line, passing setup): variations of
# configs.KUEUE, which validates clean (test_kueue_lint.py checks that, and the finer points)
_NO_COHORT = ("  cohortName: org\n", "")
_B_NO_COHORT = ("team-b}\nspec:\n  namespaceSelector: {}\n  cohortName: org", "team-b}\nspec:\n  namespaceSelector: {}")
_QUOTA = "{name: cpu, nominalQuota: 8, borrowingLimit: 4, lendingLimit: 2}"
_GPU_WL = ("requests: {cpu: 1, memory: 1Gi}", "requests: {cpu: 1, memory: 1Gi, nvidia.com/gpu: 1}")
_NS_A = ("kind: ResourceFlavor", "kind: Namespace\nmetadata: {name: team-a, labels: {team: a}}\n---\n"
                                 "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor")


def _selector(labels: str):
    return ("{name: team-a}\nspec:\n  namespaceSelector: {}", "{name: team-a}\nspec:\n  namespaceSelector: {matchLabels: " + labels + "}")


def _cohorts(*docs: str):
    """Cohort documents written before the ResourceFlavor."""
    return ("kind: ResourceFlavor", "".join(f"kind: Cohort\n{d}\n---\napiVersion: kueue.x-k8s.io/v1beta2\n" for d in docs) + "kind: ResourceFlavor")


_GPU_POOL = "metadata: {name: org}\nspec:\n  resourceGroups:\n  - coveredResources: [RES]\n    flavors: [{name: default, resources: [{name: RES, nominalQuota: 8}]}]"
KUEUE_CASES = [
    ("PRIO601", kueue(_NO_COHORT, _B_NO_COHORT), "borrowingLimit: 4",
     kueue(_NO_COHORT, _B_NO_COHORT, (_QUOTA, "{name: cpu, nominalQuota: 8}"), ("reclaimWithinCohort: Any", "reclaimWithinCohort: Never"))),
    ("PRIO602", kueue(("lendingLimit: 2", "lendingLimit: 9")), "lendingLimit: 9", KUEUE),
    ("PRIO603", kueue(("      - {name: memory, nominalQuota: 32Gi}\n", "")), _QUOTA, KUEUE),
    ("PRIO604", kueue(("  preemption:\n    reclaimWithinCohort",
                       "  - coveredResources: [cpu]\n    flavors: [{name: spot, resources: [{name: cpu, nominalQuota: 2}]}]\n"
                       "  preemption:\n    reclaimWithinCohort")), "coveredResources: [cpu]", KUEUE),
    ("PRIO605", kueue(("reclaimWithinCohort: Any", "reclaimWithinCohort: Never\n    borrowWithinCohort: {policy: LowerPriority}")),
     "borrowWithinCohort", kueue(("reclaimWithinCohort: Any", "reclaimWithinCohort: Any\n    borrowWithinCohort: {policy: LowerPriority}"))),
    ("PRIO606", kueue(("  preemption:\n", "  flavorFungibility: {preference: BorrowingOverPreemption}\n  preemption:\n")), "preference",
     kueue(("  preemption:\n", "  flavorFungibility: {whenCanBorrow: TryNextFlavor, preference: BorrowingOverPreemption}\n  preemption:\n"))),
    ("PRIO607", kueue(("withinClusterQueue: LowerPriority", "withinClusterQueue: Any")), "withinClusterQueue: Any", KUEUE),
    ("PRIO608", kueue(("nominalQuota: 32Gi", "nominalQuota: 32GB")), "32GB", KUEUE),
    ("PRIO609", kueue(("cohortName: org", "cohortName: ML_Org")), "ML_Org", KUEUE),
    ("PRIO610", kueue(("cohortName: org", "cohort: org")), "cohort: org", KUEUE),
    ("PRIO611", kueue(("    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 4}",
                       "    - name: defualt\n      resources:\n      - {name: cpu, nominalQuota: 4}")), "name: defualt", KUEUE),
    ("PRIO612", kueue(("spec: {clusterQueue: team-a}", "spec: {clusterQueue: team-a-cq}")), "team-a-cq", KUEUE),
    ("PRIO613", kueue(("  queueName: queue", "  queueName: queue-a")), "queueName: queue-a", KUEUE),
    ("PRIO614", kueue(_cohorts("metadata: {name: org}\nspec: {parentName: research}", "metadata: {name: research}\nspec: {parentName: org}")),
     "parentName: research", kueue(_cohorts("metadata: {name: org}\nspec: {parentName: research}", "metadata: {name: research}"))),
    ("PRIO615", kueue(("metadata: {name: team-a}\nspec:\n  namespaceSelector: {}\n", "metadata: {name: team-a}\nspec:\n")),
     "spec:", KUEUE),
    ("PRIO616", kueue(_NS_A, _selector("{team: b}")), "namespace: team-a, name: queue", kueue(_NS_A, _selector("{team: a}"))),
    ("PRIO617", kueue(_NO_COHORT, (_QUOTA, "{name: cpu, nominalQuota: 8}")), "reclaimWithinCohort: Any", KUEUE),
    ("PRIO618", kueue(("priority-class: high}", "priority-class: hihg}")), "hihg", KUEUE),
    ("PRIO619", kueue(_GPU_WL), "requests: {cpu: 1",
     kueue(_GPU_WL, ("coveredResources: [cpu, memory]\n    flavors:\n    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 8",
                     "coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n    - name: default\n      resources:\n"
                     "      - {name: cpu, nominalQuota: 8"),
           ("      - {name: memory, nominalQuota: 32Gi}\n", "      - {name: memory, nominalQuota: 32Gi}\n      - {name: nvidia.com/gpu, nominalQuota: 2}\n"))),
    ("PRIO620", kueue(_cohorts(_GPU_POOL.replace("RES", "nvidia.com/gpu"))), "nominalQuota: 8}]}]", kueue(_cohorts(_GPU_POOL.replace("RES", "cpu")))),
    # (a count of the wrong type is PRIO622's: the CRD's schema; one past int32 is the loader's alone)
    ("PRIO621", kueue(("    count: 1\n", "    count: 3000000000\n")), "count: 3000000000", KUEUE),
    ("PRIO622", kueue(("{name: memory, nominalQuota: 32Gi}", "{name: memory}")), "{name: memory}", KUEUE),
    ("PRIO623", kueue(("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor", "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor")),
     "kueue.x-k8s.io/v1beta1", KUEUE),
    ("PRIO624", kueue(("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor", "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: ResourceFlavor")),
     "kueue.x-k8s.io/v1alpha1", KUEUE),
]


# (rule, failing Volcano setup, a text on the finding's line, passing setup): variations of
# configs.VOLCANO, which validates clean (tests/volcano/test_volcano_lint.py)
_PROPORTION = ("      - name: capacity\n        enableHierarchy: true\n", "      - name: proportion\n")
VOLCANO_CASES = [
    ("PRIO701", volcano(("preempt, reclaim", "preemt, reclaim")), "actions:", VOLCANO),
    ("PRIO702", volcano(("enableHierarchy: true", "enableHierarchy: true\n        enableOverused: false")), "enableOverused", VOLCANO),
    ("PRIO703", volcano(("- name: nodeorder", "- name: nodeordr")), "nodeordr", VOLCANO),
    ("PRIO704", volcano(("    tiers:\n", "    metric: {}\n    tiers:\n")), "metric:", VOLCANO),
    ("PRIO705", volcano(_PROPORTION, ("  parent: org\n", "")), "deserved:", volcano(_PROPORTION, ("  parent: org\n", ""), ("  deserved: {cpu: \"4\"}\n", ""))),
    ("PRIO706", volcano(("deserved: {cpu: \"4\"}", "deserved: {cpu: \"1\"}")), "deserved:", VOLCANO),
    ("PRIO707", volcano(("capability: {cpu: \"4\"}", "capability: {cpu: \"16\"}")), "capability: {cpu: \"16\"}", VOLCANO),
    ("PRIO708", volcano(("queue: team-a", "queue: team-b")), "queue: team-b", VOLCANO),
    ("PRIO709", volcano(("priorityClassName: high", "priorityClassName: hihg")), "hihg", VOLCANO),
    ("PRIO710", volcano(("queue: team-a", "queue: org")), "queue: org", VOLCANO),
    ("PRIO711", volcano(("minMember: 2", "minMember: 0")), "minMember: 0", VOLCANO),
    ("PRIO712", volcano(("      - name: capacity\n        enableHierarchy: true\n", "      - name: proportion\n        enabledAllocatable: false\n")),
     "enabledAllocatable", volcano(("      - name: capacity\n        enableHierarchy: true\n", "      - name: proportion\n        enabledAllocatable: true\n"))),
    ("PRIO713", volcano(("- name: priority\n", "- name: priority\n        enablePreemptable: false\n")), "enablePreemptable", VOLCANO),
    ("PRIO714", volcano(('capability: {cpu: "8"}', 'capability: {cpu: "8"}\n  weight: abc')), "weight: abc", VOLCANO),
]


GANG_QUEUES = tree("- name: fair\n  properties: {application.sort.policy: fair}\n- name: fifo\n- name: small\n  resources: {max: {vcore: 4}}")


def _gang_pod(members: int) -> str:
    """A pod list of one pod whose task-groups annotation (line 10) has minMember `members`."""
    return ("apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Pod\n    metadata:\n      name: driver\n"
            "      namespace: spark\n      annotations:\n"
            f"        yunikorn.apache.org/task-groups: '[{{\"name\": \"exec\", \"minMember\": {members}, \"minResource\": {{\"cpu\": \"1\"}}}}]'\n"
            "    spec:\n      containers: [{name: c, resources: {requests: {cpu: '1'}}}]\n")


def _gang_snap(queue: str, members: int = 1, vcore: int = 2) -> str:
    """A prio snapshot with one gang application (line 4: its queue, line 5: its task groups) on two nodes of 4 vcore."""
    return ("nodes: [{name: n1, capacity: {vcore: 4}}, {name: n2, capacity: {vcore: 4}}]\n"
            "applications:\n  - id: g\n    " + queue + "\n"
            f"    taskGroups: [{{name: w, minMember: {members}, minResource: {{vcore: {vcore}}}}}]\n"
            "    asks: [{priority: 1, resources: {vcore: 1}}]\n")


CATALOGUE: dict[str, list[Case]] = {
    # ---- decoding: how YuniKorn's decoder reads the YAML -------------------------------------
    "PRIO001": [case(tree("- name: a\n  maxApplications: 5"), 7, tree("- name: a\n  maxapplications: 5"))],
    "PRIO002": [case(tree("- name: a\n  properties:\n    priority.offset: '1'\n    priority.offset: '2'"), 9,
                     tree("- name: a\n  properties:\n    priority.offset: '1'"))],
    "PRIO003": [
        case("partitions:\n  - name: default\n    nodesortpolicy: fair\n    queues: [{name: root}]\n", 3,
             "partitions:\n  - name: default\n    nodesortpolicy: {type: fair}\n    queues: [{name: root}]\n"),
        case(tree("- name: a\n  maxapplications: -1"), 7, tree("- name: a\n  maxapplications: 0")),
    ],
    "PRIO004": [case("partitions: [{name: default, queues: [{name: root}]}]\n---\npartitions: []\n", 3,
                     "partitions: [{name: default, queues: [{name: root}]}]\n")],
    "PRIO005": [case("partitions: []\n", 1, "partitions: [{name: default, queues: [{name: root}]}]\n", setup=grown_schema)],
    "PRIO006": [case(tree("- name: !!python/object:os.system a"), 6, tree("- name: a"))],
    "PRIO007": [case(configmap(CLEAN_INNER, literal=False), 6, configmap(CLEAN_INNER))],
    # a ConfigMap the shim reads without a queues.yaml, or never reads (issue 14; test_configmap_rules.py)
    "PRIO008": [case(configmap(CLEAN_INNER).replace("queues.yaml:", "queues.yml:"), 6, configmap(CLEAN_INNER))],
    "PRIO009": [case(configmap(CLEAN_INNER).replace("name: yunikorn-configs", "name: yunikorn-config"), 4,
                     configmap(CLEAN_INNER))],
    # ---- structure ---------------------------------------------------------------------------
    "PRIO101": [case("partitions:\n  - name: gpu\n    queues: [{name: root}]\n  - name: GPU\n    queues: [{name: root}]\n", 4,
                     "partitions:\n  - name: gpu\n    queues: [{name: root}]\n  - name: cpu\n    queues: [{name: root}]\n")],
    "PRIO138": [case(tree("- name: a\n  parent: false\n  queues:\n    - name: b"), 7, tree("- name: a\n  queues:\n    - name: b"))],
    "PRIO137": [case("partitions: []\n", 1, "partitions:\n  - name: default\n    queues: []\n")],
    "PRIO102": [case("partitions:\n  - name: default\n", 2, "partitions:\n  - name: default\n    queues: []\n")],
    "PRIO103": [case("partitions:\n  - name: default\n    queues:\n      - name: root\n        resources:\n          guaranteed: {}\n", 6,
                     "partitions:\n  - name: default\n    queues:\n      - name: root\n        resources: {}\n")],
    "PRIO104": [case("partitions:\n  - name: default\n    queues:\n      - name: root\n      - name: other\n", 3,
                     "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues: [{name: other}]\n")],
    "PRIO105": [case("partitions:\n  - name: default\n    queues:\n      - name: Root\n", 4,
                     "partitions:\n  - name: default\n    queues:\n      - name: root\n")],
    "PRIO106": [case(tree("- name: team.a"), 6, tree("- name: team-a"))],
    "PRIO107": [case(tree("- name: batch\n- name: Batch"), 7, tree("- name: batch\n- name: batch2"))],
    # ---- resources and limits ----------------------------------------------------------------
    "PRIO108": [case(tree("- name: a\n  resources:\n    max: {memory: 1.5Gi}"), 8,
                     tree("- name: a\n  resources:\n    max: {memory: 1536Mi}"))],
    "PRIO109": [case(tree("- name: a\n  resources:\n    guaranteed: {memory: 10G}\n    max: {memory: 5G}"), 8,
                     tree("- name: a\n  resources:\n    guaranteed: {memory: 5G}\n    max: {memory: 10G}"))],
    "PRIO110": [case(tree("""
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
        """))],
    "PRIO111": [case(tree("""
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
        """))],
    "PRIO112": [case(tree("""
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
        """))],
    "PRIO113": [case(tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b, maxapplications: 20}"), 9,
                     tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b, maxapplications: 10}"))],
    "PRIO114": [case(tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b}"), 9,
                     tree("- name: a\n  maxapplications: 10\n  queues:\n    - {name: b, maxapplications: 1}"))],
    "PRIO115": [case(cfg("""
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
        """))],
    "PRIO116": [case(tree("- name: a\n  limits:\n    - {limit: x, maxapplications: 1}"), 8,
                     tree("- name: a\n  limits:\n    - {limit: x, users: ['*'], maxapplications: 1}"))],
    "PRIO117": [case(tree("- name: a\n  limits:\n    - {users: [1bob], maxapplications: 1}"), 8,
                     tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}"))],
    "PRIO118": [case(tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}\n    - {users: [bob], maxapplications: 2}"), 9,
                     tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}\n    - {users: [sue], maxapplications: 2}"))],
    "PRIO119": [case(tree("- name: a\n  limits:\n    - {users: ['*'], maxapplications: 1}\n    - {users: [bob], maxapplications: 2}"), 9,
                     tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 2}\n    - {users: ['*'], maxapplications: 1}"))],
    "PRIO120": [case(tree("- name: a\n  limits:\n    - {users: [bob], maxresources: {vcore: 0}}"), 8,
                     tree("- name: a\n  limits:\n    - {users: [bob], maxresources: {vcore: 0, memory: 10}}"))],
    "PRIO121": [case(tree("- name: a\n  limits:\n    - {users: [bob]}"), 8,
                     tree("- name: a\n  limits:\n    - {users: [bob], maxapplications: 1}"))],
    "PRIO122": [case(tree("- name: a\n  maxapplications: 5\n  limits:\n    - {users: [bob], maxapplications: 6}"), 9,
                     tree("- name: a\n  maxapplications: 5\n  limits:\n    - {users: [bob], maxapplications: 5}"))],
    "PRIO123": [case(tree("""
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
        """))],
    # ---- ACLs, placement, node sorting -------------------------------------------------------
    "PRIO124": [case(tree("- name: a\n  submitacl: 'alice bob admins'"), 7, tree("- name: a\n  submitacl: 'alice,bob admins'"))],
    "PRIO125": [case(tree("- name: a\n  adminacl: 'alice  admins'"), 7, tree("- name: a\n  adminacl: ' admins'"))],
    "PRIO126": [case(placement("- name: 'tag rule'\n  value: namespace"), 4, placement("- name: tag\n  value: namespace"))],
    "PRIO127": [case(placement("- name: provided\n  filter: {type: permit}"), 5, placement("- name: provided\n  filter: {type: Allow}"))],
    "PRIO139": [case(placement("- name: provided\n  filter: {type: Deny, groups: [contractors]}"), 5,
                     placement("- name: provided\n  filter: {type: deny, groups: [contractors]}"))],
    "PRIO128": [case(placement("- name: provided\n  filter: {users: ['bob smith']}"), 5,
                     placement("- name: provided\n  filter: {users: ['^team-.*']}"))],
    "PRIO129": [case(placement("- name: fixed\n  value: root.batch\n  parent:\n    name: fixed\n    value: root.tenants"), 5,
                     placement("- name: fixed\n  value: batch\n  parent:\n    name: fixed\n    value: root.tenants"))],
    "PRIO130": [case(placement("- name: fixed\n  value: root.tenants"), 5, placement("- name: fixed\n  value: root.batch"))],
    "PRIO131": [case(placement("- name: fixed\n  value: root.nosuch"), 5, placement("- name: fixed\n  value: root.nosuch\n  create: true"))],
    "PRIO132": [case(placement("- name: fixed\n  value: root.batch.jobs\n  create: true"), 5,
                     placement("- name: fixed\n  value: root.tenants.jobs\n  create: true"))],
    "PRIO133": [case(placement("- name: namespace"), 4, placement("- name: tag\n  value: namespace"))],
    "PRIO134": [case("partitions:\n  - name: default\n    nodesortpolicy: {type: BinPacking}\n    queues: [{name: root}]\n", 3,
                     "partitions:\n  - name: default\n    nodesortpolicy: {type: binpacking}\n    queues: [{name: root}]\n")],
    "PRIO135": [case("partitions:\n  - name: default\n    nodesortpolicy: {type: fair, resourceweights: {vcore: -1}}\n    queues: [{name: root}]\n", 3,
                     "partitions:\n  - name: default\n    nodesortpolicy: {type: fair, resourceweights: {vcore: 1.5}}\n    queues: [{name: root}]\n")],
    "PRIO136": [case(tree("- name: a\n  parent: true\n  childtemplate:\n    resources: {max: {memory: ten}}"), 9,
                     tree("- name: a\n  parent: true\n  childtemplate:\n    resources: {max: {memory: 10G}}"))],
    # ---- priorities and queue properties -----------------------------------------------------
    "PRIO201": [case(tree("- name: a\n  properties:\n    priority.offset: '1000000000'"), 8,
                     tree("- name: a\n  properties:\n    priority.offset: '999999999'"))],
    "PRIO202": [case(tree("- name: a\n  properties:\n    priority.offset: '-2147483648'"), 8,
                     tree("- name: a\n  properties:\n    priority.offset: '-2147483647'"))],
    "PRIO203": [case(tree("- name: a\n  properties:\n    priority.offset: '0x10'"), 8,
                     tree("- name: a\n  properties:\n    priority.offset: 010"))],
    "PRIO204": [case(tree("- name: a\n  properties:\n    application.sort.policy: Fair"), 8,
                     tree("- name: a\n  properties:\n    application.sort.policy: fair"))],
    "PRIO205": [case(tree("- name: a\n  properties:\n    application.sort.policy: stateaware"), 8,
                     tree("- name: a\n  properties:\n    application.sort.policy: fifo"))],
    "PRIO206": [case(tree("- name: a\n  properties:\n    priority.policy: fenced"), 8,
                     tree("- name: a\n  properties:\n    priority.policy: FENCE"))],
    "PRIO207": [case(tree("- name: a\n  properties:\n    application.sort.priority: off"), 8,
                     tree("- name: a\n  properties:\n    application.sort.priority: Disabled"))],
    "PRIO208": [case("partitions:\n  - name: default\n    queues:\n      - name: root\n        properties: {priority.offset: '100'}\n", 5,
                     "partitions:\n  - name: default\n    queues:\n      - name: root\n        properties: {application.sort.priority: disabled}\n")],
    "PRIO209": [case(tree("- name: a\n  childtemplate:\n    maxapplications: 5"), 7,
                     tree("- name: a\n  parent: true\n  childtemplate:\n    maxapplications: 5"))],
    "PRIO212": [case(tree("""
        - name: a
          resources: {max: {vcore: 8}}
          queues:
            - name: b
              limits: [{users: ["*"], maxresources: {vcore: 16}}]
        """), 10, tree("""
        - name: a
          resources: {max: {vcore: 8}}
          queues:
            - name: b
              limits: [{users: ["*"], maxresources: {vcore: 8}}]
        """))],
    "PRIO213": [case(tree("""
        - name: a
          limits:
            - {users: [alice], maxresources: {vcore: 8}}
            - {users: ["*"], maxresources: {vcore: 4}}
        """), 8, tree("""
        - name: a
          limits:
            - {users: [alice], maxresources: {vcore: 4}}
            - {users: ["*"], maxresources: {vcore: 4}}
        """))],
    "PRIO214": [case(tree("""
        - name: team-a
          submitacl: " team-a"
          limits:
            - {groups: [team-b], maxapplications: 2}
        """), 9, tree("""
        - name: team-a
          submitacl: " team-a,team-b"
          limits:
            - {groups: [team-b], maxapplications: 2}
        """))],
    "PRIO215": [case(cfg("""
        partitions:
          - name: default
            placementrules:
              - {name: provided, filter: {type: deny, groups: [contractors]}}
            queues:
              - name: root
                queues:
                  - name: batch
                    limits:
                      - {groups: [contractors], maxapplications: 2}
        """), 10, cfg("""
        partitions:
          - name: default
            placementrules:
              - {name: provided, filter: {type: deny, groups: [interns]}}
            queues:
              - name: root
                queues:
                  - name: batch
                    limits:
                      - {groups: [contractors], maxapplications: 2}
        """))],
    "PRIO210": [case(tree("- name: a\n  properties:\n    priority.offest: '5'"), 8, tree("- name: a\n  properties:\n    priority.offset: '5'"))],
    "PRIO211": [case(tree("- name: a\n  properties:\n    preemption.delay: '30'"), 8, tree("- name: a\n  properties:\n    preemption.delay: 1m30s"))],
    # ---- PriorityClass manifests -------------------------------------------------------------
    "PRIO301": [case(pc("metadata:\n  name: Tier_1\nvalue: 1\n"), 4, pc("metadata:\n  name: tier-1.example.com\nvalue: 1\n"))],
    "PRIO302": [case(pc("metadata:\n  name: tier1\n  namespace: team-a\nvalue: 1\n"), 5,
                     pc("metadata:\n  name: tier1\n  namespace: \"\"\nvalue: 1\n"))],
    "PRIO303": [case(pc("metadata:\n  name: system-batch\nvalue: 5000\n"), 4, pc("metadata:\n  name: systembatch\nvalue: 5000\n"))],
    "PRIO304": [case(pc("metadata:\n  name: urgent\nvalue: 1000000001\n"), 5, pc("metadata:\n  name: urgent\nvalue: 1000000000\n"))],
    "PRIO305": [case(pc("metadata:\n  name: a\nvalue: \"1000\"\n"), 5, pc("metadata:\n  name: a\nvalue: 1000\n"))],
    "PRIO306": [case(pc("metadata:\n  name: a\nvalue: 1\npreemptionPolicy: never\n"), 6,
                     pc("metadata:\n  name: a\nvalue: 1\npreemptionPolicy: Never\n"))],
    # several globalDefault classes across files: reported in each file
    "PRIO307": [case({"a.yaml": pc("metadata:\n  name: standard\nvalue: 1000\nglobalDefault: true\n"),
                      "b.yaml": pc("metadata:\n  name: best-effort\nvalue: 10\nglobalDefault: true\n")}, 6,
                     {"a.yaml": pc("metadata:\n  name: standard\nvalue: 1000\nglobalDefault: true\n"),
                      "b.yaml": pc("metadata:\n  name: best-effort\nvalue: 10\nglobalDefault: false\n")}, file="b.yaml")],
    "PRIO308": [case(pc("metadata:\n  name: system-node-critical\nvalue: 2000001000\n"), 4,
                     pc("metadata:\n  name: node-critical\nvalue: 1000000000\n"))],
    "PRIO309": [case(pc("metadata:\n  name: tier2\ndescription: second tier\n"), 4, pc("metadata:\n  name: tier2\nvalue: 0\n"))],
    # a user class that queue offsets lift to a system class; with the classes as paths, and given
    # with --priority-classes
    "PRIO310": [
        case({"queues.yaml": two_queues("kube", "batch", "1999999000"), "classes.yaml": pc("metadata: {name: tier1}\nvalue: 4000\n")}, 9,
             {"queues.yaml": two_queues("kube", "batch", "1000"), "classes.yaml": pc("metadata: {name: tier1}\nvalue: 4000\n")}),
        case({"queues.yaml": two_queues("kube", "batch", "1999999000"), "classes.yaml": pc("metadata: {name: tier1}\nvalue: 4000\n")}, 9,
             {"queues.yaml": two_queues("kube", "batch", "1000"), "classes.yaml": pc("metadata: {name: tier1}\nvalue: 4000\n")},
             classes=("classes.yaml",)),
    ],
    # offsets larger than the gaps between classes swap their order
    "PRIO311": [
        case({"queues.yaml": two_queues("web", "batch", "5000"), "tiers.yaml": TIERS}, 9,
             {"queues.yaml": two_queues("web", "batch", "50"), "tiers.yaml": TIERS}, classes=("tiers.yaml",)),
        case({"queues.yaml": two_queues("web", "batch", "5000"), "tiers.yaml": TIERS}, 9,
             {"queues.yaml": two_queues("web", "batch", "50"), "tiers.yaml": TIERS}),
    ],
    # one class defined twice, differently: reported at the second definition
    "PRIO312": [case({"a.yaml": pc("metadata:\n  name: standard\nvalue: 1000\n"), "b.yaml": pc("metadata:\n  name: standard\nvalue: 1500\n")}, 5,
                     {"a.yaml": pc("metadata:\n  name: standard\nvalue: 1000\n"), "b.yaml": pc("metadata:\n  name: standard\nvalue: 1000\n")},
                     file="b.yaml")],
    # gang applications of a snapshot against the config (yunikorn/lint/gangs.py), reported in the snapshot
    "PRIO801": [case({"snap.yaml": _gang_snap("queue: root.fair"), "queues.yaml": GANG_QUEUES}, 4,
                     {"snap.yaml": _gang_snap("queue: root.fifo"), "queues.yaml": GANG_QUEUES}, file="snap.yaml")],
    "PRIO802": [case({"snap.yaml": _gang_snap("queue: root.small", members=3), "queues.yaml": GANG_QUEUES}, 5,
                     {"snap.yaml": _gang_snap("queue: root.small", members=2), "queues.yaml": GANG_QUEUES}, file="snap.yaml")],
    "PRIO803": [case({"snap.yaml": _gang_snap("queue: root.fifo", members=5), "queues.yaml": GANG_QUEUES}, 5,
                     {"snap.yaml": _gang_snap("queue: root.fifo", members=4), "queues.yaml": GANG_QUEUES}, file="snap.yaml"),
                case({"snap.yaml": _gang_snap("queue: root.fifo", vcore=5), "queues.yaml": GANG_QUEUES}, 5,
                     {"snap.yaml": _gang_snap("queue: root.fifo", vcore=4), "queues.yaml": GANG_QUEUES}, file="snap.yaml")],
    # a pod's task-groups annotation the shim cannot decode (a pod list with one is checked for it)
    "PRIO804": [case({"pods.yaml": _gang_pod(0)}, 10, {"pods.yaml": _gang_pod(2)}, file="pods.yaml")],
    "PRIO313": [case(pc("metadata:\n  name: a\nvalue: 1\nglobaldefault: true\n"), 6, pc("metadata:\n  name: a\nvalue: 1\nglobalDefault: true\n"))],
    "PRIO314": [
        case(pc("metadata:\n  name: tier1\nvalue: 4000\n", "scheduling.k8s.io/v1beta1"), 1, pc("metadata:\n  name: tier1\nvalue: 4000\n")),
        case(pc("metadata:\n  name: tier1\nvalue: 4000\n", "scheduling.k8s.io/v2"), 1, pc("metadata:\n  name: tier1\nvalue: 4000\n"),
             severity="error"),  # an API version Kubernetes never served
    ],
    # ---- Armada queue manifests --------------------------------------------------------------
    "PRIO401": [case(ARMADA_QUEUE + "name: a\npriorityFactor: 0.5\n", 4, ARMADA_QUEUE + "name: a\npriorityFactor: 1.0\n")],
    "PRIO402": [case(ARMADA_QUEUE + "name: a\npriorityFactor: 1\nresourceLimits:\n  cpu: 0.2\n  memory: 0.1\n", 5,
                     ARMADA_QUEUE + "name: a\npriorityFactor: 1\n"
                     "ResourceLimitsByPriorityClassName: {armada-default: {maximumResourceFraction: {cpu: 0.2}}}\n")],
    "PRIO403": [case(ARMADA_QUEUE + "name: a\npriorityFactor: 1\npriorityFactr: 2\n", 5, ARMADA_QUEUE + "name: a\nPriorityFactor: 2\n")],
    "PRIO404": [case("apiVersion: armadaproject.io/v1\nkind: Queue\nname: a\npriorityFactor: 1\n", 1, ARMADA_QUEUE + "name: a\npriorityFactor: 1\n")],
    "PRIO405": [case(ARMADA_QUEUE + "name: \"\"\npriorityFactor: 1\n", 3, ARMADA_QUEUE + "name: a\npriorityFactor: 1\n")],
    "PRIO406": [case(ARMADA_QUEUE + "name: a\npriorityFactor: 1\ncordoned: \"no\"\n", 5, ARMADA_QUEUE + "name: a\npriorityFactor: 1\ncordoned: false\n")],
    "PRIO407": [case(ARMADA_QUEUE + "name: a\npriorityFactor: 1\npermissions:\n  - subjects: [{kind: group, name: g}]\n    verbs: [submit]\n", 6,
                     ARMADA_QUEUE + "name: a\npriorityFactor: 1\npermissions:\n  - subjects: [{kind: Group, name: g}]\n    verbs: [submit]\n")],
    "PRIO408": [case(ARMADA_QUEUE + "name: a\npriorityFactor: 1\npermissions:\n  - subjects: [{kind: User, name: u}]\n    verbs: [submit, cancle]\n", 7,
                     ARMADA_QUEUE + "name: a\npriorityFactor: 1\npermissions:\n  - subjects: [{kind: User, name: u}]\n    verbs: [submit, cancel]\n")],
    "PRIO409": [case(ARMADA_QUEUE + "name: a\npriorityFactor: 1\nlabels: {team: \"\"}\n", 5, ARMADA_QUEUE + "name: a\npriorityFactor: 1\nlabels: {team: data}\n")],
    # (a QueueList: `prio validate` splits a Kubernetes `kind: List` into its items, so there the
    # duplicate is not seen; test_armada_lint.py checks that shape on the rule's check directly)
    "PRIO410": [case("apiVersion: armadaproject.io/v1beta1\nkind: QueueList\nqueues:\n"
                     "  - {name: a, priorityFactor: 1}\n  - {name: a, priorityFactor: 2}\n", 5,
                     "apiVersion: armadaproject.io/v1beta1\nkind: QueueList\nqueues:\n"
                     "  - {name: a, priorityFactor: 1}\n  - {name: b, priorityFactor: 2}\n")],
    # ---- Armada scenarios for the current scheduler ------------------------------------------
    "PRIO411": [case(scenario(RESOURCES="resourcesToConsiderWithMultipliers: [{name: cpu}, {name: nvidia.com/gpu, multiplier: -0.5}]"), 3,
                     scenario(RESOURCES="resourcesToConsiderWithMultipliers: [{name: cpu, multiplier: 0}, {name: nvidia.com/gpu, multiplier: 0.5}]"))],
    "PRIO412": [case(scenario(RESOURCES="resourcesToConsider: [cpu, gpu]"), 3, scenario())],
    "PRIO413": [case(scenario(CLASS="armada-preemtible"), 10, scenario(CLASS="armada-preemptible"))],
    "PRIO414": [case(scenario(PF="0"), 8, scenario(PF="1"))],
    # ---- Kueue: what the API server refuses (one object), then what cannot work (the set) ------
    **{rule: [case(bad, line_of(bad, marker), good)] for rule, bad, marker, good in KUEUE_CASES},
    # ---- Volcano: its scheduler config as it reads it, its objects together -------------------
    **{rule: [case(bad, line_of(bad, marker), good)] for rule, bad, marker, good in VOLCANO_CASES},
    # ---- preemption --------------------------------------------------------------------------
    "PRIO501": [case(DISABLED_WITH_POLICY, 9, DISABLED_WITH_POLICY.replace("enabled: false", "enabled: true"))],
    "PRIO502": [case(QUOTA_DELAY_NO_SWITCH, 9, QUOTA_BOTH)],
    "PRIO503": [case(QUOTA_BOTH.replace("max: {vcore: 8}, ", ""), 11, QUOTA_BOTH),
                case(QUOTA_PARENT_DELAY_NO_MAX, 8, QUOTA_PARENT_DELAY)],
    "PRIO504": [case(LEAF_NO_GUARANTEE, 9, LEAF_GUARANTEE_ON_PARENT)],
    "PRIO506": [case(QUOTA_MAX_UNDER_PARENT_GUARANTEE, 12, QUOTA_PARENT_DELAY)],
    "PRIO505": [case(FENCE_OUT_OF_REACH, 8, FENCE_OUT_OF_REACH.replace('priority.offset: "10"', 'priority.offset: "1000"'))],
    # ---- suppressions: a directive on a line with no finding; the fix puts it where PRIO201 is ---
    # the quota-preemption delay key of 1.8.0, which 1.9 ignores (the message names the key 1.9 reads)
    # (first at line 3: with the key 1.9 ignores, no queue of 1.9 sets the delay the switch waits for)
    "PRIO216": [case(UPGRADE_QUOTA.format(key="preemption.quota.delay"), 3, UPGRADE_QUOTA.format(key="preemption.delay"),
                     args=("--yunikorn-version", "1.8", "--upgrade-to", "1.9"))],
    "PRIO901": [case(with_comment(SUPPRESS_QUEUES, 2, "  # prio: ignore[PRIO201]"), 2,
                     with_comment(SUPPRESS_QUEUES, 8, "  # prio: ignore[PRIO201]"))],
}

CASES = [(rule, i, c) for rule, cases in CATALOGUE.items() for i, c in enumerate(cases)]


@pytest.fixture
def validate(tmp_path, monkeypatch):
    """Run `prio validate -o json` on `files` written to tmp_path (the working directory, so the
    report names them as written); returns (exit code, findings)."""
    for var in ("PRIO_CONFIG", "PRIO_STRICT", "PRIO_OUTPUT_FILE", "PRIO_COLOR", "CI_PROJECT_DIR", "GITHUB_WORKSPACE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    runs = iter(range(1000))

    def go(files: Files, classes: tuple = (), more: tuple = ()):
        files = {"input.yaml": files} if isinstance(files, str) else files
        sub = tmp_path / f"run{next(runs)}"
        sub.mkdir()
        for name, text in files.items():
            (sub / name).write_text(text, encoding="utf-8")
        monkeypatch.chdir(sub)
        args = [name for name in files if name not in classes]
        for name in classes:
            args += ["--priority-classes", name]
        r = run_cli("validate", "--no-config", "-o", "json", *more, *args)
        assert r.exit_code in (0, 1), (r.exit_code, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr, r.stderr
        return r.exit_code, json.loads(r.stdout)["findings"]

    return go


@pytest.mark.parametrize("rule,i,c", CASES, ids=[f"{rule}-{i}" for rule, i, _ in CASES])
def test_rule_fails_then_passes(rule, i, c, validate, monkeypatch):
    from prio.lint.rules import all_rules

    meta = all_rules()[rule]
    if c.setup:
        c.setup(monkeypatch)
    bad = {"input.yaml": c.bad} if isinstance(c.bad, str) else c.bad
    where = c.file or next(iter(bad))

    _, found = validate(c.bad, c.classes, c.args)
    mine = [f for f in found if f["rule"] == rule]
    assert mine, f"{rule} not reported; got {[(f['rule'], f['file'], f['line'], f['message']) for f in found]}"
    f = next((f for f in mine if f["file"] == where), None)
    assert f is not None, (where, [(x["file"], x["line"]) for x in mine])
    if c.line is not None:
        assert f["line"] == c.line, (f["line"], f["message"])
        assert f["column"] is None or f["column"] >= 1, f
    assert f["name"] == meta.name
    assert f["severity"] == (c.severity or meta.severity)
    assert f["message"]

    _, found = validate(c.good, c.classes, c.args)
    assert not [f for f in found if f["rule"] == rule], [(f["file"], f["line"], f["message"]) for f in found if f["rule"] == rule]


def test_every_rule_has_a_case():
    from prio.lint.rules import all_rules

    # PRIO000 (unreadable-input) is exit 2, not a finding of a run: tests/render/test_unreadable_entries.py
    missing = sorted(set(all_rules()) - set(CATALOGUE) - {"PRIO000"})
    assert not missing, f"rules without a failing and a passing case in CATALOGUE: {', '.join(missing)}"
    unknown = sorted(set(CATALOGUE) - set(all_rules()))
    assert not unknown, f"CATALOGUE names rules the registry does not know: {', '.join(unknown)}"
    assert all(CATALOGUE[r] for r in CATALOGUE), "a rule with an empty list of cases"


def _ids():
    from prio.lint.rules import all_rules

    return list(all_rules())


@pytest.mark.parametrize("rule", _ids())
def test_rule_is_documented(rule):
    from prio.lint.registry import RULES, TARGETS
    from prio.lint.rules import all_rules

    r = all_rules()[rule]
    assert re.fullmatch(r"PRIO\d{3}", r.id)
    assert r.summary and r.summary.endswith("."), f"{rule}: the doc's first paragraph is not a summary sentence"
    assert r.doc.strip() != r.summary, f"{rule}: the doc is only a summary"
    assert "Example" in r.doc, f"{rule}: the doc shows no Example"
    assert "Fix" in r.doc, f"{rule}: the doc says no Fix"
    assert r.severity in ("error", "warning", "info")
    assert r.target in TARGETS
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name), r.name
    assert [x.id for x in RULES.values() if x.name == r.name] == [rule], f"slug {r.name} is not unique"

    shown = run_cli("rule", rule)
    assert shown.exit_code == 0, shown.stderr
    assert r.doc in shown.stdout and r.name in shown.stdout and r.severity in shown.stdout
    by_slug = run_cli("rule", r.name)
    assert by_slug.exit_code == 0 and by_slug.stdout == shown.stdout
