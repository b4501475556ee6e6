"""The snapshot of pending work: applications with their asks, plus optional cluster capacity
and PriorityClasses (prio.kube.priorityclass.PriorityClass). Loaders (native, REST, kubectl)
produce this; the engine consumes it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from prio.yunikorn.ugm import Served


class Ask(NamedTuple):
    """One pending ask; never changed once loaded. A tuple, so the loader of a million-ask
    snapshot makes each with tuple.__new__(Ask, (...)) and no Python-level __init__."""

    id: str
    priority: int
    resources: dict  # YuniKorn units (vcore in millicores)
    create_time: tuple  # sort key: (unix ns, 0), or its application's submit_time when not given
    seq: int = 0  # insertion order: the last tie-break inside an application
    preemption_policy: str = ""  # "" or PreemptLowerPriority: may preempt; Never: may not
    originator: bool = False  # the task that created the application (the shim's originator)
    task_group: str = ""  # gang scheduling: the task group the pod names (task-group-name)
    placeholder: bool = False  # one of the shim's placeholder pods
    required_node: str = ""  # a DaemonSet pod's node (the allocation tag yunikorn.apache.org/requiredNode)
    # kube.predicates.Constraints (nodeSelector, node affinity, tolerations, nodeName, required
    # node), or None: the pod says nothing about its node (nodes' taints still apply)
    node: object = None


@dataclass
class App:
    id: str
    queue: str  # full path, lowercased as YuniKorn does
    submit_time: tuple  # (unix ns, 0); not given: (a default time, order in the file) (loaders.native), (0, order) (REST)
    asks: list = field(default_factory=list)
    allocated: dict = field(default_factory=dict)  # what the app already runs
    state: str = ""  # "", New, Accepted, Running...: Running when allocated is non-empty
    line: int | None = None  # where the app is defined, for messages
    allocations: list | None = None  # Allocation: the running tasks one by one (preemption victims)
    user: str = ""  # the submitting user, when known (placement rules, user limits)
    groups: tuple = ()  # the user's groups, in the order the resource manager gives them
    placed: bool = False  # already placed by YuniKorn (REST dumps): placement rules are not applied again
    rejected: str | None = None  # YuniKorn's reason when it already rejected the application (live, state: Rejected)
    # The application's tags as the resource manager submits them (the shim: namespace,
    # application.create.force, namespace.parentqueue, ...): placement's tag rules read them, and
    # application.create.force: true makes the recovery rule take what no other rule places.
    tags: dict = field(default_factory=dict)
    # The queue exactly as submitted (None: `queue` is it): the provided rule tells a fully
    # qualified name by its case-sensitive "root." prefix before anything is lowercased.
    queue_raw: str | None = None
    # Gang scheduling (the originator pod's annotations): the task groups (TaskGroup), in order;
    # a non-empty list makes it a gang application. The style ("Soft" or "Hard") and the
    # placeholder timeout in seconds (0: YuniKorn's default) of schedulingPolicyParameters.
    task_groups: list = field(default_factory=list)
    gang_style: str = "Soft"
    placeholder_timeout: int = 0


class TaskGroup(NamedTuple):
    """One task group of a gang application: minMember members of minResource each."""

    name: str
    min_member: int
    min_resource: dict  # YuniKorn units, one member's


@dataclass
class Allocation:
    """A running task: what preemption may take away."""

    id: str
    priority: int
    resources: dict  # YuniKorn units
    node: str
    create_time: tuple  # as Ask.create_time
    originator: bool = False
    allow_preemption: bool = True
    seq: int = 0  # order in the file
    task_group: str = ""  # gang scheduling: the task group the pod names
    placeholder: bool = False  # one of the shim's placeholder pods


@dataclass
class Node:
    name: str
    capacity: dict  # YuniKorn units
    # False: cordoned or draining (the node DAO's `schedulable`, the native `schedulable: false`):
    # YuniKorn places and reserves nothing on it, what runs there keeps running and counting
    schedulable: bool = True
    # room taken by pods YuniKorn does not schedule (other schedulers' pods bound to the node:
    # the shim reports them as foreign allocations, the core's node.occupiedResource)
    occupied: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)  # metadata.labels (node affinity, nodeSelector)
    taints: tuple = ()  # kube.predicates.Taint, in the node's order


@dataclass
class QueueInfo:
    """A queue as a REST dump describes it (when no queues.yaml is given)."""

    path: str
    is_leaf: bool
    properties: dict = field(default_factory=dict)
    guaranteed: dict | None = None
    max: dict | None = None
    maxapps: int = 0
    allocated: dict = field(default_factory=dict)
    current_priority: int | None = None  # what YuniKorn reported: explain compares it with its own
    status: str = "Active"  # Active, Draining or Stopped
    # Newer DAO fields, None when the dump does not carry them (older YuniKorn).
    priority_sorting: bool | None = None
    preemption_enabled: bool | None = None
    preemption_fence: bool | None = None
    preemption_delay: str | None = None


@dataclass
class Snapshot:
    partition: str = "default"
    capacity: dict | None = None
    apps: list = field(default_factory=list)
    priority_classes: list = field(default_factory=list)  # prio.kube.priorityclass.PriorityClass
    queues: list = field(default_factory=list)  # QueueInfo, from a REST queues dump
    source: str = ""
    notes: list = field(default_factory=list)  # what the loader assumed, for explanations
    nodes: list | None = None  # Node, when the snapshot lists them (preemption is per node)
    tracked: Served | None = None  # ugm.Served: the users' and groups' usage a live YuniKorn tracks
    horizon: float = 0.0  # seconds the replay lets pass once idle, for placeholder timeouts (0: none)
    # the YuniKorn release the snapshot was taken from (yunikornVersion: prio snapshot records the
    # one the server or cluster shows, or --yunikorn-version's), as a minor ("1.6"); None: not known
    yunikorn_version: str | None = None

    def ask_count(self) -> int:
        return sum(len(a.asks) for a in self.apps)



# The times a native snapshot leaves out, as the recorded corpora replay them (their READMEs): an
# application without a submitTime was submitted at 2024-01-01T00:00:00Z plus one second per
# position in the snapshot (loaders.native), an ask without a createTime was created at its
# application's submit time plus one millisecond per position among the application's
# count-expanded asks (created_ns). Sorting asks needs no such value (file order decides among
# them); YuniKorn's preemption does: it takes the newest victims first, comparing running
# allocations' createTime with the create time of asks placed during the run.
DEFAULT_SUBMIT_NS = 1_704_067_200 * 1_000_000_000  # 2024-01-01T00:00:00Z
SECOND_NS, _MILLISECOND_NS = 1_000_000_000, 1_000_000


def created_ns(app: App) -> dict:
    """id(ask) -> the create time (unix ns) of each of the application's asks: its own, or its
    application's submit time plus one millisecond per position among its asks (from 1, as the
    ask ids count them)."""
    submit = app.submit_time[0]
    return {id(a): submit + n * _MILLISECOND_NS if a.create_time == app.submit_time else a.create_time[0]
            for n, a in enumerate(app.asks, 1)}
