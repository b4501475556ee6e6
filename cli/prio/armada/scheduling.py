"""Armada's legacy scheduling round: slices of an offer, the deterministic slice round and the
probabilistic remainder (`internal/armada/scheduling/lease.go` and `resources.go`, 2019-2022).

Where Armada iterated Go maps (random order), prio iterates queue names in ascending order, so a
run is reproducible; the only randomness is the seeded draw of the probabilistic round. prio does
not model nodes, lease payload sizes, job-count limits or the gRPC deadline. Pure code; no I/O.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from prio.armada.model import (
    Job,
    Queue,
    Resources,
    Settings,
    is_less_than,
    is_valid,
    limit_to_zero,
    limit_with,
    merge_with,
    mul,
    scale_by_resource,
    sub,
    total,
)
from prio.armada.priority import resources_as_usage
from prio.armada.units import format_amount, format_number

SLICE = "slice"
PROBABILISTIC = "probabilistic"


# ---- slices --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SliceResult:
    slices: dict  # queue -> Resources (the same fraction of every offered resource)
    fair: dict  # queue -> (fair total, current usage, share) in cpu-equivalents
    degenerate: bool  # the shares summed to 0: Armada's 0/0 gave NaN slices


def slice_resource(scarcity: Resources, queues: dict, offer: Resources, weighting: str = "current") -> SliceResult:
    """sliceResource. `queues` maps name -> (effective priority, current usage resources).

    fair total = (usage(offer) + all current usage) * (1/p) / sum(1/p); share = max(0, fair total -
    own usage); slice = offer * share / sum(shares). When the shares sum to 0 (the offer weighs
    nothing and no queue is below its fair total) Armada divided 0 by 0; prio returns zero slices
    and flags the result as degenerate."""
    if not queues:
        return SliceResult({}, {}, False)
    names = sorted(queues)
    inverse = {q: 1.0 / queues[q][0] for q in names}
    inverse_sum = sum(inverse.values())
    usage = {q: resources_as_usage(scarcity, queues[q][1], weighting) for q in names}
    everything = resources_as_usage(scarcity, offer, weighting) + sum(usage.values())
    fair = {}
    shares = {}
    for q in names:
        target = everything * inverse[q] / inverse_sum
        shares[q] = max(0.0, target - usage[q])
        fair[q] = (target, usage[q], shares[q])
    share_sum = sum(shares.values())
    if share_sum <= 0:
        return SliceResult({q: {r: 0.0 for r in offer} for q in names}, fair, True)
    return SliceResult({q: mul(offer, shares[q] / share_sum) for q in names}, fair, False)


@dataclass
class SchedulingInfo:
    """QueueSchedulingInfo: what a queue may still take (None = no limit), its slice of the
    offer (schedulingShare) and that slice capped by the limit (adjustedShare)."""

    remaining_limit: Resources | None
    scheduling_share: Resources = field(default_factory=dict)
    adjusted_share: Resources = field(default_factory=dict)

    def copy(self) -> SchedulingInfo:
        return SchedulingInfo(None if self.remaining_limit is None else dict(self.remaining_limit),
                              dict(self.scheduling_share), dict(self.adjusted_share))

    def update_limits(self, used: Resources) -> None:
        """UpdateLimits: the slice shrinks by `used` scaled by slice/adjusted, the limit and the
        adjusted slice by `used`; everything stays >= 0."""
        scaled = dict(self.scheduling_share)
        for k, share in self.scheduling_share.items():
            if k in used:
                adjusted = self.adjusted_share.get(k, 0.0)
                ratio = share / adjusted if adjusted > 0 else 0.0
                scaled[k] = max(scaled[k] - used[k] * ratio, 0.0)
        if self.remaining_limit is not None:
            self.remaining_limit = limit_to_zero(sub(self.remaining_limit, used))
        self.scheduling_share = limit_to_zero(scaled)
        self.adjusted_share = limit_to_zero(sub(self.adjusted_share, used))


def has_capacity(info: SchedulingInfo) -> bool:
    return info.remaining_limit is None or any(v > 0 for v in info.remaining_limit.values())


def slice_with_limits(scarcity: Resources, infos: dict, priorities: dict, amount: Resources,
                      weighting: str = "current") -> tuple[dict, SliceResult]:
    """SliceResourceWithLimits: queues without remaining limit drop out, the rest share `amount`
    by sliceResource, and each slice is capped by the queue's remaining limit."""
    with_capacity = {q: priorities[q] for q in sorted(infos) if has_capacity(infos[q])}
    result = slice_resource(scarcity, with_capacity, amount, weighting)
    out = {}
    for q, piece in result.slices.items():
        limit = infos[q].remaining_limit
        out[q] = SchedulingInfo(None if limit is None else dict(limit), dict(piece), limit_with(piece, limit))
    return out, result


def queue_limit(queue: Queue, capacity: Resources | None, settings: Settings, allocated: Resources) -> Resources | None:
    """calculateQueueSchedulingLimits for one queue: how much it may take in this round.

    capacity x maximalResourceFractionPerQueue (a queue's own legacy resourceLimits replace it,
    and then every resource they do not name is limited by the whole capacity) minus what the
    queue runs, capped by capacity x maximalResourceFractionToSchedulePerQueue. Fractions a
    setting does not name count 1. No capacity in the scenario: no limit."""
    if capacity is None:
        return None
    per_round = scale_by_resource(capacity, settings.max_fraction_to_schedule_per_queue)
    overall = scale_by_resource(capacity, settings.max_fraction_per_queue)
    if queue.limits:
        overall = merge_with(overall, scale_by_resource(capacity, queue.limits))
    remaining = limit_to_zero(sub(overall, allocated))
    return limit_with(per_round, remaining)


def cap_offer(offer: Resources, capacity: Resources | None, settings: Settings) -> Resources:
    """The offer capped by capacity x maximalClusterFractionToSchedule (only when that is set)."""
    if settings.max_cluster_fraction is None or capacity is None:
        return dict(offer)
    return limit_with(offer, scale_by_resource(capacity, settings.max_cluster_fraction))


# ---- leasing -------------------------------------------------------------------------------------

def lease_from_queue(pending: list, slice_: Resources, max_jobs: int | None, batch_size: int) -> tuple[list, Resources]:
    """leaseJobs: walk the queue's jobs in order (lower job priority first, then submission),
    leasing each job whose requests fit in what is left of `slice_` (a job requesting a resource
    the slice does not contain never fits); a job that does not fit is skipped and later ones are
    still tried. Jobs are looked at `batch_size` at a time; a batch that does not lease fully
    ends the walk. `pending` loses the leased jobs. Returns (leased, what is left)."""
    left = dict(slice_)
    leased: list = []
    while is_valid(left) and pending:
        size = min(batch_size, len(pending))
        taken: list = []  # indexes into pending
        for i in range(size):
            if max_jobs is not None and len(leased) + len(taken) >= max_jobs:
                break
            rest = sub(left, pending[i].requests)
            if is_valid(rest):
                left = rest
                taken.append(i)
        leased += [pending[i] for i in taken]
        if len(taken) <= 4:
            for i in reversed(taken):
                del pending[i]
        else:
            drop = set(taken)
            pending[:size] = [j for i, j in enumerate(pending[:size]) if i not in drop]
        if len(taken) < batch_size or (max_jobs is not None and len(leased) >= max_jobs):
            break
    return leased, left


def pick_queue(shares: dict, rng: random.Random) -> tuple[str, float]:
    """pickQueueRandomly: draw r in [0,1); the first queue (by name) whose cumulative share
    reaches r x total wins. With a total of 0 the first queue wins."""
    names = sorted(shares)
    draw = rng.random()
    target = sum(shares[q] for q in names) * draw
    current = 0.0
    for q in names:
        current += shares[q]
        if current >= target:
            return q, draw
    return names[-1], draw


@dataclass(frozen=True)
class Lease:
    job: Job
    queue: str
    stage: str  # "slice" or "probabilistic"
    why: str


@dataclass
class RoundResult:
    leases: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    remainder: Resources = field(default_factory=dict)


def show_resources(res: Resources) -> str:
    """A resource map for people: `cpu 2.5, memory 4Gi`."""
    if not res:
        return "nothing"
    return ", ".join(f"{k} {format_amount(k, v)}" for k, v in sorted(res.items()))


def run_round(infos: dict, priorities: dict, pending: dict, scarcity: Resources, settings: Settings,
              rng: random.Random, weighting: str = "current", degenerate: bool = False) -> RoundResult:
    """One lease request: the slice round (unless useProbabilisticSchedulingForAllResources),
    then distributeRemainder. `infos` comes from slice_with_limits and is consumed; `pending`
    maps queue -> its queued jobs in lease order and loses what is leased."""
    out = RoundResult()
    infos = {q: infos[q].copy() for q in sorted(infos)}
    priorities = dict(priorities)
    if degenerate:
        out.notes.append("the queues' shares of the offer sum to 0 (the offer weighs nothing and no queue is "
                         "below its fair total): Armada's sliceResource divided 0 by 0, the NaN slices stopped "
                         "both rounds and nothing was leased")
        out.remainder = {}
        return out

    if not settings.probabilistic_only:
        for q in sorted(infos):
            info = infos[q]
            before = dict(info.adjusted_share)
            leased, left = lease_from_queue(pending.setdefault(q, []), info.adjusted_share, None, settings.batch_size)
            info.update_limits(sub(info.adjusted_share, left))
            for job in leased:
                out.leases.append(Lease(job, q, SLICE, f"slice round: fits in what is left of queue {q}'s slice "
                                        f"({show_resources(before)})"))
                before = sub(before, job.requests)
    else:
        out.notes.append("useProbabilisticSchedulingForAllResources: the slice round is skipped")

    remainder = total(info.adjusted_share for info in infos.values())
    shares = {q: resources_as_usage(scarcity, infos[q].scheduling_share, weighting) for q in infos}
    queue_count = len(infos)
    empty_steps = 0
    minimum = settings.minimum_to_schedule
    while True:
        if is_less_than(remainder, minimum):
            if infos:
                out.notes.append(f"probabilistic round stops: the remainder ({show_resources(remainder)}) is below "
                                 f"minimumResourceToSchedule ({show_resources(minimum)})")
            break
        if not shares:
            break
        if empty_steps >= queue_count:
            out.notes.append(f"probabilistic round stops after {empty_steps} picks in a row leased nothing")
            break
        weights = dict(shares)
        q, draw = pick_queue(shares, rng)
        empty_steps += 1
        amount = limit_with(remainder, infos[q].remaining_limit)
        leased, left = lease_from_queue(pending.setdefault(q, []), amount, 1, settings.batch_size)
        whole = sum(weights.values())
        chance = weights[q] / whole if whole > 0 else 1.0
        if leased:
            empty_steps = 0
            used = sub(amount, left)
            infos[q].update_limits(used)
            remainder = sub(remainder, used)
            shares[q] = max(0.0, resources_as_usage(scarcity, infos[q].scheduling_share, weighting))
            odds = ", ".join(f"{n} {format_number(weights[n] / whole if whole > 0 else 0)}" for n in sorted(weights))
            out.leases.append(Lease(leased[0], q, PROBABILISTIC,
                                    f"probabilistic round: queue {q} drawn with probability {format_number(chance)} "
                                    f"(draw {draw:.4f}; odds {odds}); the job fits in the remainder "
                                    f"({show_resources(amount)})"))
        else:
            del infos[q]
            priorities.pop(q, None)
            del shares[q]
            infos, result = slice_with_limits(scarcity, infos, priorities, remainder, weighting)
            shares = {n: resources_as_usage(scarcity, infos[n].scheduling_share, weighting) for n in infos}
            rest = ", ".join(sorted(infos)) or "no queue"
            when = f"after lease {len(out.leases)}" if out.leases else "before any lease"
            out.notes.append(f"{when}: probabilistic round drew queue {q} (draw {draw:.4f}), but no job of it fits in "
                             f"{show_resources(amount)}; it leaves the round and the remainder is re-sliced among {rest}")
            if result.degenerate and infos:
                out.notes.append("the re-sliced shares sum to 0 (Armada: NaN); prio gives every queue a zero "
                                 "share, so the draw falls to the first queue by name")
    out.remainder = remainder
    return out


def lease_order(jobs: list) -> dict:
    """Queue -> its jobs in Armada's lease order: job priority ascending, then submission."""
    out: dict = {}
    for job in sorted(jobs, key=lambda j: (j.priority, j.order)):
        out.setdefault(job.queue, []).append(job)
    return out
