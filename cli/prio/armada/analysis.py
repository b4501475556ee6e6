"""The two analyses, explain and simulate, put together from the priority and scheduling core.
Pure: takes a Scenario, returns plain result objects; renderers turn them into text."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from prio.armada.model import Options, Report, Resources, Scenario, add
from prio.armada.priority import PriorityState, current_usage, effective_priority, resources_as_usage, scarcity_from_capacity
from prio.armada.scheduling import SchedulingInfo, cap_offer, lease_order, queue_limit, run_round, slice_with_limits


@dataclass
class QueueView:
    queue: str
    factor: float
    resources: Resources  # what it runs now
    usage: float  # normalised (cpu-equivalents)
    priority: float | None  # aggregated stored priority; None = no history
    effective: float
    active: bool  # has queued jobs (or the scenario lists no jobs)
    share: float  # inverse effective priority over the active queues
    slice: Resources | None = None  # sliceResource's slice of the offer (None: no offer)
    limited: Resources | None = None  # that slice capped by the queue's remaining limit
    fair: tuple | None = None  # (fair total, usage, share) in cpu-equivalents
    leased: int = 0
    pending: int = 0


@dataclass
class Snapshot:
    """Queue priorities and slices at one moment."""

    time: float
    queues: list  # [QueueView]
    offer: Resources | None
    degenerate: bool
    active_clusters: list
    inactive_clusters: list
    infos: dict = field(default_factory=dict)  # queue -> SchedulingInfo, for a round
    priorities: dict = field(default_factory=dict)  # active queue -> (effective, resources)


@dataclass
class Explanation:
    scenario: Scenario
    options: Options
    scarcity: Resources
    scarcity_source: str  # "explicit" or "capacity"
    steps: list  # [Step], the reports applied
    snapshot: Snapshot
    notes: list


@dataclass
class Round:
    number: int
    steps: list  # [Step] applied just before this round
    snapshot: Snapshot
    leases: list  # [Lease]
    notes: list
    finished: list = field(default_factory=list)  # jobs that finished before this round


@dataclass
class Simulation:
    scenario: Scenario
    options: Options
    scarcity: Resources
    scarcity_source: str
    seed: int
    initial_steps: list
    rounds: list  # [Round]
    pending: dict  # queue -> jobs still queued at the end
    notes: list


def scarcity_of(scenario: Scenario) -> tuple[Resources, str]:
    if scenario.settings.scarcity is not None:
        return dict(scenario.settings.scarcity), "explicit"
    return scarcity_from_capacity(scenario.settings.capacity or {}), "capacity"


def _state(scenario: Scenario, options: Options, scarcity: Resources) -> tuple[PriorityState, list, float]:
    state = PriorityState(scenario.queues, scenario.settings.half_time, scarcity, decay=options.decay,
                          weighting=options.weighting, home=scenario.home)
    steps = [state.apply(r) for r in scenario.reports]
    now = scenario.reports[-1].time if scenario.reports else 0.0
    return state, steps, now


def snapshot(scenario: Scenario, options: Options, state: PriorityState, now: float, usage: dict,
             pending: dict | None, scarcity: Resources) -> Snapshot:
    """Every queue's usage, priority, effective priority, share and slice at `now`."""
    agg = state.aggregate(now)
    active_clusters = state.active_clusters(now)
    inactive = sorted(set(state.clusters) - set(active_clusters))
    views = []
    for q in scenario.queues:
        res = usage.get(q.name, {})
        p = agg.get(q.name)
        eff = effective_priority(p, q.factor)
        active = True if pending is None else bool(pending.get(q.name))
        views.append(QueueView(q.name, q.factor, res, resources_as_usage(scarcity, res, options.weighting), p, eff,
                               active, 0.0, pending=0 if pending is None else len(pending.get(q.name, []))))
    inv_sum = sum(1.0 / v.effective for v in views if v.active)
    for v in views:
        v.share = (1.0 / v.effective) / inv_sum if v.active and inv_sum > 0 else 0.0
    snap = Snapshot(now, views, None, False, active_clusters, inactive)
    if scenario.offer is None:
        return snap
    offer = cap_offer(scenario.offer, scenario.settings.capacity, scenario.settings)
    snap.offer = offer
    by_name = {q.name: q for q in scenario.queues}
    infos = {}
    priorities = {}
    for v in views:
        if v.active:
            infos[v.queue] = SchedulingInfo(queue_limit(by_name[v.queue], scenario.settings.capacity,
                                                        scenario.settings, v.resources))
            priorities[v.queue] = (v.effective, v.resources)
    sliced, result = slice_with_limits(scarcity, infos, priorities, offer, options.weighting)
    snap.degenerate = result.degenerate
    snap.infos = sliced
    snap.priorities = priorities
    for v in views:
        if v.queue in sliced:
            v.slice = dict(sliced[v.queue].scheduling_share)
            v.limited = dict(sliced[v.queue].adjusted_share)
            v.fair = result.fair.get(v.queue)
        else:
            v.slice = {r: 0.0 for r in offer}
            v.limited = {r: 0.0 for r in offer}
    return snap


def _common_notes(scenario: Scenario, steps: list, inactive: list) -> list:
    notes = list(scenario.notes)
    for s in steps:
        if s.dropped:
            notes.append(f"the report of cluster {s.report.cluster} at {s.report.label} names queue(s) "
                         f"{', '.join(s.dropped)} that the scenario does not define; Armada drops them")
    if inactive:
        notes.append(f"cluster(s) {', '.join(inactive)} last reported 10 minutes or more before the "
                     f"latest report: inactive, so their priorities and usage do not count")
    return notes


def explain(scenario: Scenario, options: Options | None = None) -> Explanation:
    options = options or Options()
    scarcity, source = scarcity_of(scenario)
    state, steps, now = _state(scenario, options, scarcity)
    usage = current_usage(scenario.queues, state, now)
    pending = None if scenario.jobs is None else lease_order(scenario.jobs)
    snap = snapshot(scenario, options, state, now, usage, pending, scarcity)
    notes = _common_notes(scenario, steps, snap.inactive_clusters)
    if snap.degenerate:
        notes.append("the queues' shares of the offer sum to 0 (the offer weighs nothing and no queue is below its "
                     "fair total): Armada's sliceResource divided 0 by 0 and leased nothing; prio shows zero slices")
    return Explanation(scenario, options, scarcity, source, steps, snap, notes)


def simulate(scenario: Scenario, options: Options | None = None, rounds: int | None = None,
             seed: int | None = None) -> Simulation:
    """Scheduling rounds on the home cluster. Between rounds every cluster active at the start
    reports again `roundInterval` later: the other clusters what they last reported, the home
    cluster its usage plus the jobs leased so far (minus those whose runtime has passed)."""
    options = options or Options()
    scarcity, source = scarcity_of(scenario)
    n_rounds = rounds if rounds is not None else (scenario.rounds or 1)
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    rng = random.Random(seed)
    state, steps, now = _state(scenario, options, scarcity)
    pending_all = lease_order(scenario.jobs or [])
    pending = None if scenario.jobs is None else pending_all

    # What each cluster runs, per queue; a queue's explicit usage is its total and lives on home.
    active = state.active_clusters(now)
    base: dict = {c: {q: dict(r) for q, r in state.clusters[c].last_usage.items()} for c in active}
    base.setdefault(scenario.home, {})
    for q in scenario.queues:
        if q.usage is not None:
            for c in base:
                base[c].pop(q.name, None)
            base[scenario.home][q.name] = dict(q.usage)
    running: list = []  # (job, end time or None) on the home cluster
    for c in base:  # the scenario's stated state is "now": the next report comes one interval later
        if state.cluster(c).last_time is None:
            state.cluster(c).last_time = now

    result_rounds = []
    notes = _common_notes(scenario, steps, sorted(set(state.clusters) - set(active)))
    for k in range(1, n_rounds + 1):
        round_steps = []
        finished: list = []
        if k > 1:
            now += scenario.round_interval
            still: list = []
            for job, end in running:
                (finished if end is not None and end <= now else still).append((job, end))
            running = still
            finished = [j for j, _ in finished]
            for c in sorted(base):
                queues = {q: dict(r) for q, r in base[c].items()}
                if c == scenario.home:
                    for job, _ in running:
                        queues[job.queue] = add(queues.get(job.queue, {}), job.requests)
                round_steps.append(state.apply(Report(now, c, queues, "")))
            usage = state.reported_usage(now)
            usage = {q.name: usage.get(q.name, {}) for q in scenario.queues}
        else:
            usage = current_usage(scenario.queues, state, now)
        snap = snapshot(scenario, options, state, now, usage, pending, scarcity)
        res = run_round(snap.infos, snap.priorities, pending_all, scarcity, scenario.settings, rng,
                        options.weighting, snap.degenerate)
        for lease in res.leases:
            end = None if lease.job.runtime is None else now + lease.job.runtime
            running.append((lease.job, end))
        for v in snap.queues:
            mine = [ls.job for ls in res.leases if ls.queue == v.queue]
            v.leased = len(mine)
        result_rounds.append(Round(k, round_steps, snap, res.leases, res.notes, finished))
    left = {q: list(js) for q, js in pending_all.items() if js}
    return Simulation(scenario, options, scarcity, source, seed, steps, result_rounds, left, notes)
