"""The Armada scenario model: queues, usage reports, jobs, scheduling settings, and the resource
arithmetic Armada's `common.ComputeResourcesFloat` did. Pure data; no I/O, no printing.

Resource maps are plain `dict[str, float]` in the resource's own unit (cpu in cores, memory in
bytes). The helpers below keep Armada's semantics exactly, including the surprising ones:
`sub` adds keys the left side lacks (as negatives), `limit_with` caps every key of the left side
by the limit and treats a key the limit lacks as 0, and `is_valid` means "nothing negative".
"""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.armada.choices import DECAY_CODE, DECAY_DOCUMENT, DECAYS, MODELS, WEIGHTING_CURRENT, WEIGHTING_LEGACY, WEIGHTINGS  # noqa: F401 - the model's vocabulary

Resources = dict  # resource name -> float

MODEL_LABEL = "Armada (legacy, up to 2022)"
MODEL_ID = "armada-legacy"


@dataclass(frozen=True)
class Options:
    """The two compatibility switches.

    decay: "code" (Armada's code: new = f*old + (1-f)*usage, f = 0.5^(dt/halfTime)) or
           "document" (docs/priority.md: new = old*(1-beta) + usage*beta, beta = 0.5^(dt/halfTime)).
    weighting: "current" (a resource without a scarcity weight counts 0, Armada since 2021-02-24)
               or "legacy" (it counts 1, as in the document's time).
    """

    decay: str = DECAY_CODE
    weighting: str = WEIGHTING_CURRENT

    def __post_init__(self):
        if self.decay not in DECAYS:
            raise ValueError(f"decay must be one of {', '.join(DECAYS)}, not {self.decay!r}")
        if self.weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {', '.join(WEIGHTINGS)}, not {self.weighting!r}")


@dataclass(frozen=True)
class Queue:
    name: str
    factor: float = 1.0
    priority: float | None = None  # stored priority before the first report (on the home cluster)
    usage: Resources | None = None  # explicit current usage (overrides what the reports say)
    limits: Resources | None = None  # legacy per-queue resourceLimits: fractions of capacity


@dataclass(frozen=True)
class Report:
    """One ClusterUsageReport: at `time` (seconds), `cluster` runs these resources per queue."""

    time: float
    cluster: str
    queues: dict  # queue name -> Resources (reports naming a queue twice are summed)
    label: str = ""


@dataclass(frozen=True)
class Job:
    id: str
    queue: str
    requests: Resources
    priority: float = 0.0  # Armada job priority: lower is leased first
    runtime: float | None = None  # seconds; None = runs past the end of the simulation
    order: int = 0  # position in the scenario (submission order), the final tie-break


@dataclass(frozen=True)
class Settings:
    half_time: float  # seconds, > 0
    scarcity: Resources | None = None  # explicit resourceScarcity; None = computed from capacity
    capacity: Resources | None = None
    probabilistic_only: bool = False  # useProbabilisticSchedulingForAllResources
    minimum_to_schedule: Resources = field(default_factory=dict)  # minimumResourceToSchedule
    max_cluster_fraction: Resources | None = None  # maximalClusterFractionToSchedule
    max_fraction_per_queue: Resources = field(default_factory=dict)  # maximalResourceFractionPerQueue
    max_fraction_to_schedule_per_queue: Resources = field(default_factory=dict)
    batch_size: int = 200  # queueLeaseBatchSize


@dataclass
class Scenario:
    settings: Settings
    queues: list  # [Queue], in declaration order
    reports: list = field(default_factory=list)  # [Report], in time order
    offer: Resources | None = None
    jobs: list | None = None  # [Job]; None = the scenario lists no jobs (every queue counts as active)
    seed: int | None = None
    rounds: int | None = None
    round_interval: float = 60.0
    home: str = "default"  # the cluster the initial state lives on and simulate schedules for
    time_kind: str = "offset"  # "offset" (Go durations from the start) or "timestamp" (RFC 3339)
    notes: list = field(default_factory=list)  # things the loader noticed (dropped queues, ...)

    def queue(self, name: str) -> Queue | None:
        for q in self.queues:
            if q.name == name:
                return q
        return None


# ---- ComputeResourcesFloat arithmetic, with Armada's semantics ----------------------------------

def add(a: Resources, b: Resources | None) -> Resources:
    out = dict(a)
    for k, v in (b or {}).items():
        out[k] = out.get(k, 0.0) + v
    return out


def sub(a: Resources, b: Resources | None) -> Resources:
    """a - b over the union of keys (a key only in b becomes negative)."""
    out = dict(a)
    for k, v in (b or {}).items():
        out[k] = out.get(k, 0.0) - v
    return out


def mul(a: Resources, factor: float) -> Resources:
    return {k: v * factor for k, v in a.items()}


def limit_with(a: Resources, limit: Resources | None) -> Resources:
    """Cap every key of `a` by `limit` (a key the limit lacks is capped at 0). None = no limit."""
    if limit is None:
        return dict(a)
    return {k: min(v, limit.get(k, 0.0)) for k, v in a.items()}


def limit_to_zero(a: Resources) -> Resources:
    return {k: max(v, 0.0) for k, v in a.items()}


EPSILON = 1e-9  # float noise: amounts this close to 0 count as 0


def is_valid(a: Resources) -> bool:
    """No component is negative (beyond float noise: -1e-9 still counts as 0)."""
    return all(v >= -EPSILON for v in a.values())


def is_less_than(a: Resources, b: Resources) -> bool:
    """Armada's IsLessThan: some component of a - b is negative (a key missing from a counts 0)."""
    return not is_valid(sub(a, b))


def scale_by_resource(capacity: Resources, fractions: Resources | None) -> Resources:
    """MulByResource: every key of capacity times its fraction (a missing fraction counts 1)."""
    fractions = fractions or {}
    return {k: v * fractions.get(k, 1.0) for k, v in capacity.items()}


def merge_with(a: Resources, b: Resources) -> Resources:
    """b's values win."""
    out = dict(a)
    out.update(b)
    return out


def total(items) -> Resources:
    out: Resources = {}
    for r in items:
        out = add(out, r)
    return out
