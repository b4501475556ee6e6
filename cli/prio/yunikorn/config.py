"""The queue configuration model, as YuniKorn's structs hold it (`prio.yunikorn.load.queues` decodes it).

String fields and string maps hold the scalar's raw source text (go-yaml stores `n.Value`), null
becomes "", and a missing list (None) is kept apart from an empty one ([]), because YuniKorn's
validator treats them differently. Wrongly typed values are left at their zero value here; the
schema reports them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

Path = tuple


@dataclass
class Limit:
    path: Path
    limit: str = ""
    users: list | None = None  # None = nil: DeepEqual tells nil from empty
    groups: list | None = None
    maxresources: dict | None = None
    maxapplications: int = 0


@dataclass
class ChildTemplate:
    path: Path
    maxapplications: int = 0
    properties: dict = field(default_factory=dict)
    guaranteed: dict | None = None
    max: dict | None = None


@dataclass
class Queue:
    path: Path
    name: str = ""
    parent: bool = False  # the literal `parent:` flag
    guaranteed: dict | None = None
    max: dict | None = None
    maxapplications: int = 0
    properties: dict = field(default_factory=dict)
    adminacl: str | None = None
    submitacl: str | None = None
    childtemplate: ChildTemplate | None = None
    queues: list | None = None
    limits: list | None = None
    inserted: bool = False  # a root YuniKorn inserts above the configured top-level queues
    is_root: bool = False  # the partition's root: always a parent (checkQueuesStructure sets Parent)
    parent_given: bool = False  # the `parent:` key is written (false can then be told from absent)
    own_limits: list | None = None  # root only: its limits before partition limits are copied in

    @property
    def children(self) -> list:
        return self.queues or []

    @property
    def is_parent(self) -> bool:
        """Parent at runtime: has children, says parent: true, or is root."""
        return self.parent or bool(self.queues) or self.is_root


@dataclass
class PlacementRule:
    path: Path
    name: str = ""
    create: bool = False
    filter_type: str = ""
    users: list | None = None
    groups: list | None = None
    parent: PlacementRule | None = None
    value: str = ""


@dataclass
class Partition:
    path: Path
    name: str = ""
    queues: list | None = None
    placementrules: list = field(default_factory=list)
    limits: list | None = None
    nodesort_type: str | None = None
    resourceweights: dict = field(default_factory=dict)
    preemption_enabled: bool = True
    usergroupresolver: str | None = None
    quota_preemption_enabled: bool = False  # preemption.quotapreemptionenabled (default false)
    preemption_block: bool = False  # the partition's preemption: mapping sets more than quotapreemptionenabled

    @property
    def display_name(self) -> str:
        """YuniKorn's name: empty or any case of `default` becomes `default`."""
        return "default" if self.name == "" or self.name.lower() == "default" else self.name

    def root(self) -> Queue | None:
        """The root queue as YuniKorn builds it: the single top-level queue named root (any case),
        else a root inserted above all top-level queues."""
        if self.queues is None:
            return None
        if len(self.queues) == 1 and self.queues[0].name.lower() == "root":
            self.queues[0].is_root = True
            return self.queues[0]
        return Queue(self.path + ("queues",), "root", True, queues=list(self.queues), inserted=True)


@dataclass
class SchedulerConfig:
    partitions: list = field(default_factory=list)
    checksum: str = ""
    read_for: str = ""  # the release whose reading the properties hold (releases.read_as; "": as written)


def walk(q: Queue, parents: tuple = ()):
    """Depth first, config order: yields (queue, ancestors root-first)."""
    stack = [(q, parents)]
    while stack:
        cur, anc = stack.pop()
        yield cur, anc
        stack.extend((c, anc + (cur,)) for c in reversed(cur.children))


def queue_path(q: Queue, ancestors: tuple) -> str:
    """The runtime queue path: names joined by dots, lowercased as YuniKorn does."""
    return ".".join(a.name for a in ancestors + (q,)).lower()
