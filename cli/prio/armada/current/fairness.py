"""Costs, weights and fair shares as Armada's current scheduler computes them. Pure.

- cost (`DominantResourceFairness.UnweightedCostFromAllocation`): max over resources of
  allocated / total x multiplier (a resource whose total is 0 counts 0, a resource not
  considered has multiplier 0), never below 0. The weighted cost divides it by the weight.
- weight: 1/priorityFactor when priorityFactor > 0, else 1 (`constructSchedulingContext`).
- active queues: those with a running or queued job; only they take part.
- fair share: weight / weightSum. weightSum is summed in the scenario's queue order (Armada adds
  in Go's random map order, so its last bits can differ from run to run).
- constrained demand: each priority class's demand capped at maximumResourceFractionPerQueue x
  total (`CapResources`), summed.
- adjusted fair share (`updateFairShares`): water filling on the constrained demand shares, queues
  in name order, at most 10 passes, while more than 1% is left to share; plus the uncapped
  variant (the share a queue would get with unlimited demand).
- fraction of fair share: actual share / max(adjusted fair share, fair share); the queue's
  preemptible running jobs are evictable when it is not <= protectedFractionOfFairShare (so NaN
  counts as evictable, and exactly 1.0 with the default protected fraction of 1.0 does not).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from prio.armada.current.model import INT64_MAX, Scenario, multiply_resource, vadd, vcap

MAX_PASSES = 10
STOP_BELOW = 0.01


def cost(sc: Scenario, alloc: tuple) -> float:
    """The unweighted DRF cost of an allocation."""
    best = -math.inf
    for a, t, m in zip(alloc, sc.total, sc.multipliers):
        v = (float(a) / float(t) if t != 0 else 0.0) * m
        if v > best:  # NaN never wins, as in ResourceFractionList.Max
            best = v
    return max(0.0, best)


def dominant(sc: Scenario, alloc: tuple) -> str | None:
    """The resource that sets the cost (the first of equals), or None when the cost is 0."""
    best, name = 0.0, None
    for r, a, t, m in zip(sc.resources, alloc, sc.total, sc.multipliers):
        v = (float(a) / float(t) if t != 0 else 0.0) * m
        if v > best:
            best, name = v, r
    return name


def class_limit(sc: Scenario, pc_name: str) -> tuple | None:
    """The per-queue cap of one priority class: total x maximumResourceFractionPerQueue (a
    resource the class does not name is not capped); None when the class sets no fraction."""
    pc = sc.classes.get(pc_name)
    if pc is None or not pc.max_fraction:
        return None
    return tuple(multiply_resource(t, pc.max_fraction.get(r, math.inf)) for r, t in zip(sc.resources, sc.total))


@dataclass
class Pass:
    """One pass of the water filling, for explaining it."""

    unallocated: float  # what this pass shares out
    total_weight: float  # the weights of the queues still below their demand
    filled: list  # [(queue, spare share)] queues that reached their demand in this pass


@dataclass
class QueueShare:
    name: str
    active: bool
    priority_factor: float | None = None
    weight: float = 0.0
    fair_share: float = 0.0
    demand: tuple = ()
    constrained_demand: tuple = ()
    demand_share: float = 0.0
    constrained_demand_share: float = 0.0
    adjusted_fair_share: float = 0.0  # demand-capped
    uncapped_adjusted_fair_share: float = 0.0
    allocation: tuple = ()
    actual_share: float = 0.0
    weighted_cost: float = 0.0
    budget: float = 0.0
    fraction_of_fair_share: float = 0.0
    evictable: bool = False
    capped_classes: list = field(default_factory=list)  # priority classes whose demand the cap cut
    allocation_by_class: dict = field(default_factory=dict)


@dataclass
class Shares:
    queues: list  # [QueueShare] in the scenario's order
    weight_sum: float
    passes: list  # [Pass]

    def get(self, name: str) -> QueueShare | None:
        return next((q for q in self.queues if q.name == name), None)


def fractions_of_fair_share(actual: float, adjusted: float, fair: float) -> float:
    denom = max(adjusted, fair)
    if denom == 0:
        return math.nan if actual == 0 or math.isnan(actual) else math.inf
    return actual / denom


def water_fill(infos: list) -> tuple[dict, list]:
    """updateFairShares on [(name, weight, constrained demand share)]; returns
    ({name: (demand-capped adjusted, uncapped adjusted)}, [Pass])."""
    qs = sorted(([name, w, cds, 0.0, 0.0, False, 0.0] for name, w, cds in infos), key=lambda q: q[0])
    # fields: 0 name, 1 weight, 2 constrained demand share, 3 capped, 4 uncapped, 5 achieved, 6 spare
    passes: list[Pass] = []
    unallocated = 1.0
    i = 0
    while i < MAX_PASSES and unallocated > STOP_BELOW:
        total_weight = 0.0
        for q in qs:
            if not q[5]:
                total_weight += q[1]
        for q in qs:
            incl = total_weight + (q[1] if q[5] else 0.0)
            q[4] += (q[1] / incl) * (unallocated - q[6])
        if total_weight <= 0.0:
            passes.append(Pass(unallocated, total_weight, []))
            break
        for q in qs:
            if not q[5]:
                q[3] += (q[1] / total_weight) * unallocated
        p = Pass(unallocated, total_weight, [])
        unallocated = 0.0
        for q in qs:
            spare = q[3] - q[2]
            if spare > 0:
                if not q[5]:
                    p.filled.append((q[0], spare))
                q[3] = q[2]
                q[5] = True
                q[6] = spare
                unallocated += spare
            else:
                q[6] = 0.0
        passes.append(p)
        i += 1
    return {q[0]: (q[3], q[4]) for q in qs}, passes


def shares(sc: Scenario) -> Shares:
    """Every queue's weight, fair share, demand shares, adjusted fair shares, actual share,
    weighted cost, budget and fraction of fair share at the start of the round."""
    zero = tuple(0 for _ in sc.resources)
    demand_by_class: dict = {}
    alloc_by_class: dict = {}
    for job in sc.running + sc.jobs:
        d = demand_by_class.setdefault(job.queue, {})
        d[job.priority_class] = vadd(d.get(job.priority_class, zero), job.requests)
        if job.running:
            a = alloc_by_class.setdefault(job.queue, {})
            a[job.priority_class] = vadd(a.get(job.priority_class, zero), job.requests)
    all_zero = all(t == 0 for t in sc.total)
    out = []
    weight_sum = 0.0
    for q in sc.queues:
        if q.name not in demand_by_class:
            out.append(QueueShare(q.name, False, q.priority_factor))
            continue
        s = QueueShare(q.name, True, q.priority_factor, weight=q.weight)
        demand, constrained = zero, zero
        for pc, d in demand_by_class[q.name].items():
            demand = vadd(demand, d)
            limit = class_limit(sc, pc)
            capped = d if limit is None else vcap(d, limit)
            if capped != d:
                s.capped_classes.append(pc)
            constrained = vadd(constrained, capped)
        s.demand, s.constrained_demand = demand, constrained
        s.demand_share = cost(sc, demand)
        s.constrained_demand_share = 1.0 if all_zero else cost(sc, constrained)
        s.allocation_by_class = dict(alloc_by_class.get(q.name, {}))
        alloc = zero
        for a in s.allocation_by_class.values():
            alloc = vadd(alloc, a)
        s.allocation = alloc
        s.actual_share = cost(sc, alloc)
        weight_sum += s.weight
        out.append(s)
    active = [s for s in out if s.active]
    filled, passes = water_fill([(s.name, s.weight, s.constrained_demand_share) for s in active])
    for s in active:
        s.fair_share = s.weight / weight_sum
        s.adjusted_fair_share, s.uncapped_adjusted_fair_share = filled[s.name]
        s.weighted_cost = s.actual_share / s.weight
        s.budget = s.adjusted_fair_share / s.weight
        s.fraction_of_fair_share = fractions_of_fair_share(s.actual_share, s.adjusted_fair_share, s.fair_share)
        s.evictable = not (s.fraction_of_fair_share <= sc.protected_fraction)
    return Shares(out, weight_sum, passes)


__all__ = ["cost", "dominant", "class_limit", "shares", "water_fill", "Shares", "QueueShare", "Pass", "INT64_MAX"]
