"""The current-scheduler scenario as plain data. Pure: no I/O, no printing.

Resource amounts are integers at the resolution Armada's default `supportedResourceTypes` give
them (cpu in millicores, memory and ephemeral-storage in bytes, nvidia.com/gpu and any other
resource in whole units), as Armada's `internaltypes.ResourceList` stores them. A resource vector
is a tuple aligned with `Scenario.resources`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

INT64_MAX = 2**63 - 1

# Armada's default config (config/scheduler/config.yaml): what a scenario leaves out.
DEFAULT_RESOURCES_TO_CONSIDER = ("cpu", "memory", "nvidia.com/gpu", "ephemeral-storage")
DEFAULT_PRIORITY_CLASS = "armada-default"
DEFAULT_PROTECTED_FRACTION = 1.0
# millicores for cpu; every other supported resource type has resolution 1
SCALE = {"cpu": 1000}


@dataclass(frozen=True)
class PriorityClass:
    name: str
    priority: int  # int32
    preemptible: bool  # preemptible to fair share
    max_fraction: dict | None = None  # maximumResourceFractionPerQueue: resource -> fraction of the pool


@dataclass(frozen=True)
class Queue:
    name: str
    priority_factor: float | None = None  # None: not given (unset)

    @property
    def weight(self) -> float:
        """scheduling_algo.go: 1/priorityFactor when priorityFactor > 0, else 1."""
        pf = self.priority_factor
        return 1 / pf if pf is not None and pf > 0 else 1.0


@dataclass(frozen=True)
class Job:
    id: str  # r<i>-<k> (running) or j<i>-<k> (queued)
    queue: str
    requests: tuple  # resource vector
    priority_class: str
    running: bool
    order: int  # position among the running (or the queued) jobs: start / submission order


@dataclass
class Scenario:
    resources: tuple  # resource names, the vector order
    total: tuple  # the pool's total resources
    multipliers: tuple  # per resource: its DRF multiplier, 0 for a resource not considered
    considered: tuple  # (name, multiplier) as configured, in the scenario's order
    protected_fraction: float
    prefer_large: bool
    classes: dict  # name -> PriorityClass
    queues: list  # [Queue], in file order
    running: list  # [Job]
    jobs: list  # [Job], in submission order
    notes: list = field(default_factory=list)

    def queue(self, name: str) -> Queue | None:
        return next((q for q in self.queues if q.name == name), None)


def vadd(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def vsub(a: tuple, b: tuple) -> tuple:
    return tuple(x - y for x, y in zip(a, b))


def vcap(a: tuple, cap: tuple) -> tuple:
    """ResourceList.Cap: the component-wise minimum."""
    return tuple(min(x, c) for x, c in zip(a, cap))


def exceeds(a: tuple, limit: tuple) -> bool:
    """ResourceList.Exceeds: some component of a is greater than the limit's."""
    return any(x > c for x, c in zip(a, limit))


def multiply_resource(amount: int, fraction: float) -> int:
    """internaltypes.multiplyResource: exact at 1, int64 max for an infinite multiplier,
    otherwise truncated toward zero as Go's int64(float64) conversion does."""
    if fraction == 1.0:
        return amount
    if fraction == float("inf"):
        return INT64_MAX if amount >= 0 else -INT64_MAX - 1
    return int(float(amount) * fraction)
