"""One scheduling round of Armada's current scheduler on one pool modelled as one node. Pure.

1. Eviction: every running job of a preemptible priority class whose queue is evictable
   (fraction of fair share above protectedFractionOfFairShare, decided once on the allocations
   at the start) is evicted and leaves its queue's allocation. Fair shares are not recomputed.
2. Each queue offers its evicted jobs first (higher priority-class priority first, then the order
   they started), then its queued jobs (higher priority-class priority first, then submission).
3. Among the queues' next jobs the one `QueueCandidateGangIteratorPQ.Less` ranks first is tried:
   higher priority-class priority; then the lower weighted cost including the job (or, with
   preferLargeJobOrdering, the budget comparison); then the queue name.
4. A new job whose queue would exceed its priority class's per-queue cap is refused (Armada checks
   the cap for new jobs only); a job that does not fit in what is left is unschedulable, an
   evicted job that does not fit is preempted. Either way its queue moves on to its next job.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.armada.current.fairness import Shares, class_limit, cost
from prio.armada.current.model import Job, Scenario, exceeds, vadd, vsub

REASON_FULL = "does not fit in what is left of the pool"
REASON_CAP = "its queue would exceed the priority class's maximumResourceFractionPerQueue"


@dataclass
class Lease:
    job: Job
    queue: str
    rescheduled: bool
    cost_after: float  # the queue's weighted cost including the job: what the ordering compared
    cost_before: float


@dataclass
class Refused:
    job: Job
    reason: str
    # REASON_FULL: each resource the job needs more of than is left, as (index in the scenario's
    # resources, needed, left); and the jobs holding that resource then (running, not evicted, or
    # leased earlier in the round), in the order they took it
    short: tuple = ()
    holders: tuple = ()


@dataclass
class Round:
    evicted: list  # [Job]
    leases: list  # [Lease], in order
    preempted: list  # [Refused] evicted jobs that did not get back in, in the order they were tried
    unschedulable: list  # [Refused] queued jobs that were tried and did not fit, in order
    final_share: dict  # queue -> actual share at the end (active queues)
    left: tuple = ()  # what is left of the pool at the end
    notes: list = field(default_factory=list)


@dataclass
class _Item:
    queue: str
    job: Job
    priority: int
    proposed: float
    current: float
    budget: float
    size: float


def less(a: _Item, b: _Item, prefer_large: bool) -> bool:
    """QueueCandidateGangIteratorPQ.Less for two queues' next jobs (home jobs only, priority-class
    priority as the scheduling priority)."""
    if a.priority != b.priority:
        return a.priority > b.priority
    if prefer_large:
        if a.proposed <= a.budget and b.proposed <= b.budget:
            if a.current == b.current and a.size != b.size:
                return a.size > b.size
            if a.current != b.current:
                return a.current < b.current
        elif a.proposed > a.budget and b.proposed > b.budget:
            if a.proposed != b.proposed:
                return a.proposed < b.proposed
        elif a.proposed <= a.budget:
            return True
        elif b.proposed <= b.budget:
            return False
    elif a.proposed != b.proposed:
        return a.proposed < b.proposed
    return a.queue < b.queue


def offer_order(sc: Scenario, evicted: list, queued: list) -> list:
    """One queue's jobs in the order it offers them."""
    prio = lambda j: sc.classes[j.priority_class].priority
    return sorted(evicted, key=lambda j: (-prio(j), j.order)) + sorted(queued, key=lambda j: (-prio(j), j.order))


def run(sc: Scenario, sh: Shares) -> Round:
    zero = tuple(0 for _ in sc.resources)
    active = {s.name: s for s in sh.queues if s.active}
    alloc = {name: s.allocation for name, s in active.items()}
    by_class = {name: dict(s.allocation_by_class) for name, s in active.items()}
    used = zero
    for j in sc.running:
        used = vadd(used, j.requests)
    evicted = [j for j in sc.running if sc.classes[j.priority_class].preemptible and active[j.queue].evictable]
    for j in evicted:
        alloc[j.queue] = vsub(alloc[j.queue], j.requests)
        by_class[j.queue][j.priority_class] = vsub(by_class[j.queue][j.priority_class], j.requests)
        used = vsub(used, j.requests)
    evicted_ids = {j.id for j in evicted}
    todo = {}
    for name in active:
        mine_evicted = [j for j in evicted if j.queue == name]
        mine_queued = [j for j in sc.jobs if j.queue == name]
        todo[name] = offer_order(sc, mine_evicted, mine_queued)
    pos = {name: 0 for name in active}
    limits = {pc: class_limit(sc, pc) for pc in sc.classes}
    free = vsub(sc.total, used)
    leases: list[Lease] = []
    preempted: list[Refused] = []
    unschedulable: list[Refused] = []

    def item(name: str) -> _Item:
        job = todo[name][pos[name]]
        s = active[name]
        return _Item(name, job, sc.classes[job.priority_class].priority,
                     cost(sc, vadd(alloc[name], job.requests)) / s.weight, cost(sc, alloc[name]) / s.weight,
                     s.budget, cost(sc, job.requests) * s.weight)

    items = {name: item(name) for name in sorted(active) if todo[name]}
    while items:
        best: _Item | None = None
        for name in sorted(items):  # Go's heap order is its own; ties here resolve by name
            it = items[name]
            if best is None or less(it, best, sc.prefer_large):
                best = it
        assert best is not None  # items is not empty
        job, name = best.job, best.queue
        rescheduled = job.id in evicted_ids
        limit = limits.get(job.priority_class)
        pc_alloc = vadd(by_class[name].get(job.priority_class, zero), job.requests)
        if not rescheduled and limit is not None and exceeds(pc_alloc, limit):
            unschedulable.append(Refused(job, REASON_CAP))
        elif any(r > f for r, f in zip(job.requests, free)):
            short = tuple((i, r, f) for i, (r, f) in enumerate(zip(job.requests, free)) if r > f)
            held = [j for j in sc.running if j.id not in evicted_ids] + [ls.job for ls in leases]
            first = short[0][0]  # the biggest holders of the first short resource first (a stable sort)
            holders = tuple(j.id for j in sorted((j for j in held if any(j.requests[i] for i, _, _ in short)),
                                                 key=lambda j: -j.requests[first]))
            (preempted if rescheduled else unschedulable).append(Refused(job, REASON_FULL, short, holders))
        else:
            free = vsub(free, job.requests)
            alloc[name] = vadd(alloc[name], job.requests)
            by_class[name][job.priority_class] = pc_alloc
            leases.append(Lease(job, name, rescheduled, best.proposed, best.current))
        pos[name] += 1
        if pos[name] < len(todo[name]):
            items[name] = item(name)
        else:
            del items[name]
    final = {name: cost(sc, a) for name, a in alloc.items()}
    return Round(evicted, leases, preempted, unschedulable, final, free)
