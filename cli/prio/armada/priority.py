"""Armada's legacy queue priority: usage normalisation, half-life decay, per-cluster storage,
aggregation over the active clusters and the effective priority with its 0.5 floor.

This follows `internal/armada/scheduling/priority.go` and `resources.go` as they were in 2021-2022
(the model was removed from Armada in 2022-2024), not `docs/priority.md`, where they differ; the
`decay` and `weighting` options switch back to the document's formula and the pre-2021 weighting.
Pure functions and one small state class; no I/O.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from prio.armada.model import DECAY_CODE, WEIGHTING_LEGACY, Queue, Report, Resources, add

MIN_PRIORITY = 0.5  # minPriority: the floor of every effective priority
FIRST_REPORT_DT = 60.0  # a cluster's first report decays as if one minute had passed
ACTIVE_CLUSTER_EXPIRY = 600.0  # a cluster whose last report is 10 minutes old no longer counts
MIN_CAPACITY = 0.00001  # resources with less total capacity get no scarcity weight


def scarcity_from_capacity(capacity: Resources) -> Resources:
    """calculateResourceScarcity: cpu weighs 1, every other resource total_cpu / total_r.

    A resource with (near) zero capacity is left out rather than dividing by zero; with no cpu
    capacity every other weight is 0 (callers refuse that case before getting here)."""
    out = {"cpu": 1.0}
    cpu = capacity.get("cpu", 0.0)
    for name in sorted(capacity):
        if name == "cpu":
            continue
        q = capacity[name]
        if q >= MIN_CAPACITY:
            out[name] = cpu / q
    return out


def resources_as_usage(scarcity: Resources, resources: Resources | None, weighting: str = "current") -> float:
    """ResourcesAsUsage: sum of quantity x weight. A resource without a weight counts 0 (code
    since 2021-02-24) or 1 (`weighting="legacy"`, the document's time)."""
    missing = 1.0 if weighting == WEIGHTING_LEGACY else 0.0
    return sum(v * scarcity.get(k, missing) for k, v in sorted((resources or {}).items()))


def decay_factor(dt: float, half_time: float) -> float:
    """f = 0.5 ^ (dt / halfTime): the weight the old priority keeps in the code's formula."""
    if half_time <= 0:
        raise ValueError("half-time must be positive")
    if dt < 0:
        raise ValueError("time step must not be negative")
    return 0.5 ** (dt / half_time)


def update_priority(old: float | None, usage: float, dt: float, half_time: float, decay: str = DECAY_CODE) -> float:
    """One priority update for one queue on one cluster.

    code:     new = f*old + (1-f)*usage           (a true half-life: each half-time halves the gap)
    document: new = old*(1-beta) + usage*beta      (beta = f; the document's formula)
    A queue with no previous priority starts from 0."""
    f = decay_factor(dt, half_time)
    keep = f if decay == DECAY_CODE else 1.0 - f
    return keep * (old or 0.0) + (1.0 - keep) * usage


def effective_priority(priority: float | None, factor: float) -> float:
    """max(p, 0.5) * priorityFactor; exactly 0.5, without the factor, for a queue with no history."""
    if priority is None:
        return MIN_PRIORITY
    return max(priority, MIN_PRIORITY) * factor


@dataclass
class ClusterState:
    priorities: dict = field(default_factory=dict)  # queue -> stored priority
    last_time: float | None = None
    last_usage: dict = field(default_factory=dict)  # queue -> Resources, from the latest report


@dataclass(frozen=True)
class Step:
    """What applying one report did: the time step, the decay factor and every queue's change."""

    report: Report
    dt: float
    first: bool  # the cluster's first report: dt is Armada's fixed one minute
    factor: float  # f = 0.5^(dt/halfTime)
    changes: tuple  # ((queue, before or None, usage, after), ...) in queue order
    dropped: tuple  # queues the report names that the scenario does not define


class PriorityState:
    """Per-cluster stored priorities, updated by usage reports the way Armada's server did."""

    def __init__(self, queues: list[Queue], half_time: float, scarcity: Resources, *,
                 decay: str = DECAY_CODE, weighting: str = "current", home: str = "default"):
        if half_time <= 0 or not math.isfinite(half_time):
            raise ValueError("half-time must be a positive duration")
        self.queue_names = [q.name for q in queues]
        self.half_time = half_time
        self.scarcity = scarcity
        self.decay = decay
        self.weighting = weighting
        self.home = home
        self.clusters: dict[str, ClusterState] = {}
        home_state = ClusterState()
        for q in queues:
            if q.priority is not None:
                home_state.priorities[q.name] = q.priority
        if home_state.priorities:
            self.clusters[home] = home_state

    def cluster(self, name: str) -> ClusterState:
        return self.clusters.setdefault(name, ClusterState())

    def apply(self, report: Report) -> Step:
        """CalculatePriorityUpdate for one report; returns what changed."""
        c = self.cluster(report.cluster)
        last = c.last_time
        first = last is None
        dt = FIRST_REPORT_DT if last is None else report.time - last
        if dt < 0:
            raise ValueError(f"report at {report.label or report.time} is older than the previous report of cluster {report.cluster}")
        f = decay_factor(dt, self.half_time)
        known = set(self.queue_names)
        usage = {name: resources_as_usage(self.scarcity, res, self.weighting)
                 for name, res in report.queues.items() if name in known}
        changes = []
        new = {}
        for name in self.queue_names:
            old = c.priorities.get(name)
            if old is None and name not in usage:
                continue
            u = usage.get(name, 0.0)
            new[name] = update_priority(old, u, dt, self.half_time, self.decay)
            changes.append((name, old, u, new[name]))
        c.priorities = new  # filterPriority: only queues that exist are kept
        c.last_time = report.time
        c.last_usage = {k: dict(v) for k, v in report.queues.items() if k in known}
        dropped = tuple(sorted(k for k in report.queues if k not in known))
        return Step(report, dt, first, f, tuple(changes), dropped)

    def active_clusters(self, now: float) -> list[str]:
        """Clusters whose last report is less than 10 minutes older than `now`; a cluster that
        never reported (the home cluster holding the scenario's initial state) always counts."""
        out = []
        for name in sorted(self.clusters):
            c = self.clusters[name]
            if c.last_time is None or now - c.last_time < ACTIVE_CLUSTER_EXPIRY:
                out.append(name)
        return out

    def aggregate(self, now: float) -> dict:
        """Per queue, the sum of its stored priorities over the active clusters. A queue with no
        entry on any active cluster is absent (no history: effective priority 0.5)."""
        out: dict = {}
        for name in self.active_clusters(now):
            for q, p in self.clusters[name].priorities.items():
                out[q] = out.get(q, 0.0) + p
        return out

    def reported_usage(self, now: float) -> dict:
        """Per queue, its resources summed over the latest reports of the active clusters."""
        out: dict = {}
        for name in self.active_clusters(now):
            for q, res in self.clusters[name].last_usage.items():
                out[q] = add(out.get(q, {}), res)
        return out


def current_usage(queues: list[Queue], state: PriorityState, now: float) -> dict:
    """Per queue, the resources it runs now: its explicit `usage`, else what the reports say."""
    reported = state.reported_usage(now)
    return {q.name: dict(q.usage) if q.usage is not None else reported.get(q.name, {}) for q in queues}
