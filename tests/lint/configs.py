"""Config texts the lint tests share: builders for a queue tree or placement rules, and the
preemption settings each PRIO5xx rule is tested on (tests/lint/test_preemption_rules.py and the
rule catalogue both use them)."""
import textwrap


def cfg(body: str) -> str:
    return textwrap.dedent(body).lstrip("\n")


ROOT_WITH = """
partitions:
  - name: default
    queues:
      - name: root
        queues:
{children}
"""


def tree(children: str) -> str:
    """A queue config with `children` (YAML list items) under root: the first child is on line 6."""
    return cfg(ROOT_WITH).format(children=textwrap.indent(textwrap.dedent(children).strip("\n"), " " * 10))


PLACEMENT = """
partitions:
  - name: default
    placementrules:
{rules}
    queues:
      - name: root
        queues:
          - name: tenants
            parent: true
          - name: batch
          - name: Upper
"""


def placement(rules: str) -> str:
    """A queue config with placement `rules` (YAML list items): the first rule is on line 4."""
    return PLACEMENT.lstrip("\n").format(rules=textwrap.indent(textwrap.dedent(rules).strip("\n"), " " * 6))


DISABLED_WITH_POLICY = cfg("""
    partitions:
      - name: default
        preemption: {enabled: false}
        queues:
          - name: root
            queues:
              - name: a
                properties:
                  preemption.policy: fence
    """)

QUOTA_DELAY_NO_SWITCH = cfg("""
    partitions:
      - name: default
        queues:
          - name: root
            queues:
              - name: a
                resources: {max: {vcore: 8}}
                properties:
                  quota.preemption.delay: 5m
    """)

QUOTA_SWITCH_NO_DELAY = cfg("""
    partitions:
      - name: default
        preemption:
          quotapreemptionenabled: true
        queues:
          - name: root
            queues:
              - name: a
                resources: {max: {vcore: 8}}
    """)

QUOTA_BOTH = cfg("""
    partitions:
      - name: default
        preemption:
          quotapreemptionenabled: true
        queues:
          - name: root
            queues:
              - name: a
                resources: {max: {vcore: 8}, guaranteed: {vcore: 4}}
                properties:
                  quota.preemption.delay: 5m
    """)

QUOTA_MAX_AT_GUARANTEE = QUOTA_BOTH.replace("max: {vcore: 8}", "max: {vcore: 4}")

# The delay on a parent (line 8), inherited by its leaf, which has the max (line 11).
QUOTA_PARENT_DELAY = cfg("""
    partitions:
      - name: default
        preemption: {quotapreemptionenabled: true}
        queues:
          - name: root
            queues:
              - name: p
                properties: {quota.preemption.delay: 5m}
                queues:
                  - name: a
                    resources: {max: {vcore: 8}}
    """)
QUOTA_PARENT_DELAY_NO_MAX = QUOTA_PARENT_DELAY.replace("resources: {max: {vcore: 8}}", "resources: {guaranteed: {vcore: 2}}")
QUOTA_MAX_UNDER_PARENT_GUARANTEE = QUOTA_PARENT_DELAY.replace(
    "properties: {quota.preemption.delay: 5m}", "properties: {quota.preemption.delay: 5m}\n            resources: {guaranteed: {vcore: 20}}")
QUOTA_NO_MAX = QUOTA_BOTH.replace("max: {vcore: 8}, ", "")

LEAF_NO_GUARANTEE = cfg("""
    partitions:
      - name: default
        preemption: {enabled: true}
        queues:
          - name: root
            queues:
              - name: prod
                resources: {guaranteed: {vcore: 8}}
              - name: batch
    """)

LEAF_GUARANTEE_ON_PARENT = cfg("""
    partitions:
      - name: default
        preemption: {enabled: true}
        queues:
          - name: root
            queues:
              - name: prod
                resources: {guaranteed: {vcore: 8}}
              - name: shared
                resources: {guaranteed: {vcore: 2}}
                queues:
                  - name: batch
    """)

FENCE_OUT_OF_REACH = cfg("""
    partitions:
      - name: default
        queues:
          - name: root
            queues:
              - name: research
                properties:
                  priority.policy: fence
                  priority.offset: "1000"
                queues:
                  - name: a
              - name: batch
                properties:
                  priority.policy: fence
                  priority.offset: "10"
    """)

FENCE_IN_REACH = FENCE_OUT_OF_REACH.replace('priority.offset: "10"', 'priority.offset: "1000"')

# (rule, failing config, line of the finding, passing config)


# ---- Kueue: a setup that validates clean, and variations of it (prio.kueue.lint) ---------
KUEUE = """apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  cohortName: org
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 8, borrowingLimit: 4, lendingLimit: 2}
      - {name: memory, nominalQuota: 32Gi}
  preemption:
    reclaimWithinCohort: Any
    withinClusterQueue: LowerPriority
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-b}
spec:
  namespaceSelector: {}
  cohortName: org
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 4}
      - {name: memory, nominalQuota: 16Gi}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {namespace: team-a, name: queue}
spec: {clusterQueue: team-a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  namespace: team-a
  name: train
  creationTimestamp: "2026-01-01T00:00:00Z"
  labels: {kueue.x-k8s.io/priority-class: high}
spec:
  queueName: queue
  podSets:
  - name: main
    count: 1
    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1, memory: 1Gi}}}]}}
"""


def kueue(*changes, base: str = KUEUE) -> str:
    """KUEUE with each (old, new) replaced once (each old must be there)."""
    text = base
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def line_of(text: str, marker: str, nth: int = 1) -> int:
    """The line (1-based) of the nth line holding `marker`."""
    hits = [i for i, ln in enumerate(text.splitlines(), 1) if marker in ln]
    return hits[nth - 1]


# A Volcano setup that validates clean (tests/volcano/test_volcano_lint.py checks that): its
# scheduler config in a ConfigMap, a hierarchy of capacity queues, a PodGroup and a class.
VOLCANO = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: volcano-scheduler-configmap, namespace: volcano-system}
data:
  volcano-scheduler.conf: |
    actions: "enqueue, allocate, preempt, reclaim, backfill"
    tiers:
    - plugins:
      - name: priority
      - name: gang
      - name: conformance
    - plugins:
      - name: drf
      - name: predicates
      - name: capacity
        enableHierarchy: true
      - name: nodeorder
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: org}
spec:
  capability: {cpu: "8"}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: team-a}
spec:
  parent: org
  capability: {cpu: "4"}
  deserved: {cpu: "4"}
  guarantee: {resource: {cpu: "2"}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: job, namespace: default}
spec:
  queue: team-a
  minMember: 2
  priorityClassName: high
"""


def volcano(*changes) -> str:
    """configs.VOLCANO with each (old, new) replaced once."""
    text = VOLCANO
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text
