"""The objects Volcano's scheduler reads (Queue, PodGroup, Pod, Node, PriorityClass), after the
defaults a cluster applies on create, and Volcano's resource arithmetic (api.Resource: cpu in
millicores, memory in bytes, other resources in milli-units, compared with a 0.1 tolerance)."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

MIN_RESOURCE = 0.1  # api.minResource: differences below it are equal
ZERO, INFINITY = "zero", "infinity"  # api.DimensionDefaultValue: a missing scalar on the right
# Every task's request carries `pods: 1` and a node's allocatable its pod limit
# (api.GetPodResourceRequest, api.NewResource); the operations Volcano marks
# IsIgnoredScalarResource (IsEmpty, the WithDimension comparisons) pass over it, the rest count it.
PODS = "pods"


def res_add(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) + v
    return out


def res_sub(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) - v
    return out


def res_le(left: dict, right: dict, default: str = ZERO) -> bool:
    """api.Resource.LessEqual: every dimension of `left` at most `right`'s (cpu and memory always;
    a scalar missing on the right counts as 0, or as unbounded with INFINITY)."""
    for k in set(left) | {"cpu", "memory"}:
        lv = left.get(k, 0.0)
        if k not in right and k not in ("cpu", "memory"):
            if default == INFINITY:
                continue
        rv = right.get(k, 0.0)
        if not (lv < rv or abs(lv - rv) < MIN_RESOURCE):
            return False
    return True


def res_le_dims(left: dict, right: dict, req: dict) -> bool:
    """LessEqualWithDimensionAndResourcesName: only the dimensions `req` asks for (a positive
    value), `pods` not among them."""
    for k, v in req.items():
        if v <= 0 or k == PODS:
            continue
        lv, rv = left.get(k, 0.0), right.get(k, 0.0)
        if not (lv < rv or abs(lv - rv) < MIN_RESOURCE):
            return False
    return True


def res_empty(r: dict) -> bool:
    """Resource.IsEmpty: nothing at or above the tolerance, `pods` not counted."""
    return all(v < MIN_RESOURCE for k, v in r.items() if k != PODS)


def res_min(a: dict, b: dict, default: str) -> dict:
    """MinDimensionResource: each dimension of `a` lowered to `b`'s (a dimension `b` lacks: 0,
    or left as it is with INFINITY)."""
    out = dict(a)
    for k, v in a.items():
        if k in b:
            out[k] = min(v, b[k])
        elif k in ("cpu", "memory"):
            out[k] = min(v, 0.0)
        elif default == ZERO:
            out[k] = 0.0
    return out


def res_max(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = max(out.get(k, 0.0), v)
    return out


def exceeded(a: dict, b: dict) -> dict:
    """api.ExceededPart: what of `a` is above `b`, per dimension."""
    return {k: max(v - b.get(k, 0.0), 0.0) for k, v in a.items()}


def share(allocated: float, total: float) -> float:
    if total == 0:
        return 0.0 if allocated == 0 else 1.0
    return allocated / total


@dataclass
class PriorityClass:
    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = "PreemptLowerPriority"


@dataclass
class Queue:
    name: str
    weight: int = 1
    capability: dict | None = None
    deserved: dict | None = None
    guarantee: dict | None = None
    priority: int = 0
    reclaimable: bool = True
    parent: str | None = "root"
    state: str = "Open"
    created: str = "2026-01-01T00:00:00Z"


@dataclass
class PodGroup:
    namespace: str
    name: str
    queue: str = "default"
    min_member: int = 0
    min_resources: dict | None = None
    priority_class: str | None = None
    phase: str = "Pending"
    created: str = "2026-01-01T00:00:00Z"
    conditions: dict = field(default_factory=dict)  # type -> (status, reason, message)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass
class Pod:
    namespace: str
    name: str
    group: str  # the PodGroup's NAMESPACE/NAME
    uid: str = ""
    created: str = "2026-01-01T00:00:00Z"
    request: dict = field(default_factory=dict)
    priority: int = 0
    priority_class: str | None = None
    preemption_policy: str = "PreemptLowerPriority"
    preemptable: bool = True
    node_selector: dict = field(default_factory=dict)
    affinity: dict | None = None
    tolerations: list = field(default_factory=list)
    node: str | None = None
    phase: str = "Pending"
    deleting: bool = False  # metadata.deletionTimestamp set: Volcano's Releasing, gone after the first cycle
    nominated: str | None = None
    reason: str | None = None  # the PodScheduled=False condition Volcano wrote
    message: str | None = None

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass
class Node:
    name: str
    labels: dict = field(default_factory=dict)
    taints: list = field(default_factory=list)
    allocatable: dict = field(default_factory=dict)
    max_pods: int = 110
    ready: bool = True
    unschedulable: bool = False


@dataclass
class Cluster:
    """Every object of one input, defaults applied; `added` the objects the defaults added."""

    queues: dict = field(default_factory=dict)  # name -> Queue
    groups: dict = field(default_factory=dict)  # NAMESPACE/NAME -> PodGroup
    pods: dict = field(default_factory=dict)  # NAMESPACE/NAME -> Pod
    nodes: dict = field(default_factory=dict)  # name -> Node
    classes: dict = field(default_factory=dict)  # name -> PriorityClass
    added: list = field(default_factory=list)

    def replica(self) -> Cluster:
        """A copy a replay may change: its own pods and PodGroups (the fields a replay writes are
        their own: phase, node, conditions, ...) in its own maps; the queues, nodes and classes,
        which a replay only reads, shared. A deep copy of 100,000 pods took seconds."""
        return Cluster(queues=dict(self.queues), groups={k: copy.copy(g) for k, g in self.groups.items()},
                       pods={k: copy.copy(p) for k, p in self.pods.items()}, nodes=dict(self.nodes),
                       classes=dict(self.classes), added=list(self.added))

    def group_priority(self, g: PodGroup) -> tuple:
        """(priority, class name) as Volcano's cache gives a job: its class, else the
        globalDefault class, else 0; a missing class silently gives that default."""
        pc = self.classes.get(g.priority_class) if g.priority_class else None
        if pc is not None:
            return pc.value, pc.name
        default = global_default(self.classes)
        if default is not None:
            return default.value, None
        return 0, None


def global_default(classes: dict) -> PriorityClass | None:
    found = [c for c in classes.values() if c.global_default]
    return min(found, key=lambda c: c.value) if found else None
