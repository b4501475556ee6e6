"""The snapshot of pending work: applications with their asks, plus optional cluster capacity
and PriorityClasses. Loaders (native, REST, kubectl) produce this; the engine consumes it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Ask:
    id: str
    priority: int
    resources: dict  # YuniKorn units (vcore in millicores)
    create_time: tuple  # sort key: (unix ns, 0), or (0, order in the file) when not given
    seq: int = 0  # insertion order: the last tie-break inside an application


@dataclass
class App:
    id: str
    queue: str  # full path, lowercased as YuniKorn does
    submit_time: tuple  # as create_time
    asks: list = field(default_factory=list)
    allocated: dict = field(default_factory=dict)  # what the app already runs
    state: str = ""  # "", New, Accepted, Running...: Running when allocated is non-empty
    line: int | None = None  # where the app is defined, for messages
    user: str = ""  # the submitting user, when known (placement rules)
    placed: bool = False  # already placed by YuniKorn (REST dumps): placement rules are not applied again


@dataclass
class PriorityClass:
    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = "PreemptLowerPriority"


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


@dataclass
class Snapshot:
    partition: str = "default"
    capacity: dict | None = None
    apps: list = field(default_factory=list)
    priority_classes: list = field(default_factory=list)
    queues: list = field(default_factory=list)  # QueueInfo, from a REST queues dump
    source: str = ""
    notes: list = field(default_factory=list)  # what the loader assumed, for explanations

    def ask_count(self) -> int:
        return sum(len(a.asks) for a in self.apps)
