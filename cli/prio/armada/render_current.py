"""Render the current scheduler's explain and simulate results: `table` (rich), `plain` and
`markdown` (tabulate) and `json` (full-precision floats; "+Inf"/"NaN" as strings, as in
`../shared/testdata/armada-current/`)."""
from __future__ import annotations

import json
import math

from prio.armada.current.fairness import Shares, dominant
from prio.armada.current.model import SCALE, Scenario
from prio.armada.current.round import Round
from prio.armada.units import BYTE_RESOURCES, format_number
from prio.render.jsontext import num
from prio.render.printable import for_terminal
from prio.render.sections import Sections

MODEL = "armada"
SCHEDULER = "current"
LABEL = "Armada (current scheduler: DRF fair share)"
ORDER_NOTE = ("weights are summed in the scenario's queue order (Armada sums them in Go's random map order, "
              "so its last floating-point bits can differ from run to run)")


def show(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "+Inf" if x > 0 else "-Inf"
    return format_number(x)


def show_amount(name: str, v) -> str:
    if name in BYTE_RESOURCES and v:
        return f"{format_number(v / 2**30)}Gi"
    return format_number(v / SCALE.get(name, 1))


def show_resources(sc: Scenario, vec: tuple, zeros: bool = False) -> str:
    """`zeros`: every resource, those at 0 too (what is left: a 0 is what stops a job)."""
    parts = [f"{name} {show_amount(name, v)}" for name, v in zip(sc.resources, vec) if v or zeros]
    return ", ".join(parts) or "nothing"


HOLDERS_SHOWN = 5


def why_refused(sc: Scenario, x) -> str:
    """The reason, and for a job that does not fit: each resource short (needed, left: 0 said
    too) and the jobs that hold it."""
    if not x.short:
        return x.reason
    short = "; ".join(f"needs {sc.resources[i]} {show_amount(sc.resources[i], need)}, "
                      f"{show_amount(sc.resources[i], left)} left" for i, need, left in x.short)
    held = ", ".join(x.holders[:HOLDERS_SHOWN]) + (f" and {len(x.holders) - HOLDERS_SHOWN} more" if len(x.holders) > HOLDERS_SHOWN else "")
    return f"{x.reason}: {short}" + (f" (held by {held})" if held else "")


# ---- explain -------------------------------------------------------------------------------------

def queue_json(s) -> dict:
    if not s.active:
        return {"queue": s.name, "active": False}
    return {"queue": s.name, "active": True, "weight": num(s.weight), "fairShare": num(s.fair_share),
            "demandShare": num(s.demand_share), "constrainedDemandShare": num(s.constrained_demand_share),
            "demandCappedAdjustedFairShare": num(s.adjusted_fair_share),
            "uncappedAdjustedFairShare": num(s.uncapped_adjusted_fair_share),
            "actualShare": num(s.actual_share), "weightedCost": num(s.weighted_cost), "queueBudget": num(s.budget),
            "fractionOfFairShare": num(s.fraction_of_fair_share), "runningPreemptibleJobsEvictable": s.evictable}


def explain_json(sc: Scenario, sh: Shares) -> dict:
    out = {"model": MODEL, "scheduler": SCHEDULER, "weightSum": num(sh.weight_sum),
           "queues": [queue_json(s) for s in sh.queues]}
    if sc.notes:
        out["notes"] = list(sc.notes)
    return out


def settings_lines(sc: Scenario, sh: Shares) -> list:
    considered = ", ".join(n if m == 1.0 else f"{n} x{format_number(m)}" for n, m in sc.considered)
    lines = [f"pool: {show_resources(sc, sc.total)}",
             f"cost = max over {considered} of multiplier x allocated / total (other resources count 0)",
             f"weight = 1/priorityFactor (1 when unset or <= 0); fair share = weight / weightSum = weight / "
             f"{format_number(sh.weight_sum)}; {ORDER_NOTE}",
             "adjusted fair share: water filling on the constrained demand shares, at most 10 passes, "
             "until less than 1% is left to share",
             f"protectedFractionOfFairShare {format_number(sc.protected_fraction)}: a queue's preemptible running "
             "jobs are evicted when actual share / max(adjusted fair share, fair share) is above it",
             f"preferLargeJobOrdering {'on' if sc.prefer_large else 'off'}"]
    return lines


def redistribution_lines(sh: Shares) -> list:
    out = []
    active = sorted(s.name for s in sh.queues if s.active)
    done: set = set()
    for i, p in enumerate(sh.passes, 1):
        if not p.filled:
            continue
        done.update(n for n, _ in p.filled)
        rest = [n for n in active if n not in done]
        to = ", ".join(rest) if rest else "nobody (every queue has its demand)"
        given = "; ".join(f"{n} {show(spare)}" for n, spare in p.filled)
        out.append(f"pass {i}: {', '.join(n for n, _ in p.filled)} demand{'s' if len(p.filled) == 1 else ''} less "
                   f"than the pass gave; the unused share ({given}) goes to {to} by weight")
    return out


def explain_table(sc: Scenario, sh: Shares) -> tuple:
    head = ["queue", "pf", "weight", "fair", "demand", "constr", "adjusted", "uncapped", "actual", "cost",
            "budget", "fraction", "evict"]
    rows = []
    for s in sh.queues:
        pf = "unset" if s.priority_factor is None else format_number(s.priority_factor)
        if not s.active:
            rows.append([s.name, pf] + ["-"] * 11)
            continue
        rows.append([s.name, pf, show(s.weight), show(s.fair_share), show(s.demand_share),
                     show(s.constrained_demand_share), show(s.adjusted_fair_share),
                     show(s.uncapped_adjusted_fair_share), show(s.actual_share), show(s.weighted_cost),
                     show(s.budget), show(s.fraction_of_fair_share), "yes" if s.evictable else "no"])
    return head, rows


def dominant_lines(sc: Scenario, sh: Shares) -> list:
    out = []
    inactive = [s.name for s in sh.queues if not s.active]
    if inactive:
        out.append(f"inactive (no running or queued job, no share): {', '.join(inactive)}")
    parts = []
    for s in sh.queues:
        if not s.active:
            continue
        da, dd = dominant(sc, s.allocation), dominant(sc, s.demand)
        now = da if da else "runs nothing"
        parts.append(f"{s.name} {now}" + (f" (demand: {dd})" if dd and dd != da else ""))
    out.append("cost set by: " + "; ".join(parts))
    return out


CAPTION = ("fair = weight/weightSum; demand, constr, actual: DRF costs of the demand, of the demand capped per "
           "priority class, of the allocation; adjusted: the fair share after re-sharing what undemanding queues do "
           "not need (what Armada schedules towards); uncapped: the same with this queue's demand unlimited; "
           "cost = actual/weight; budget = adjusted/weight; fraction = actual / max(adjusted, fair); evict: its "
           "preemptible running jobs are evicted")


@for_terminal
def render_explain(sc: Scenario, sh: Shares, fmt: str, width: int | None = None) -> str:
    if fmt == "json":
        return json.dumps(explain_json(sc, sh), indent=2) + "\n"
    o = Sections(fmt, width)
    o.title(f"{LABEL}: fair shares")
    head, rows = explain_table(sc, sh)
    o.table(None, head, rows, CAPTION)
    o.lines(dominant_lines(sc, sh) + settings_lines(sc, sh))
    o.lines(redistribution_lines(sh), "Re-shared")
    o.lines(sc.notes, "Notes")
    return o.render()


def why_lines(sc: Scenario, sh: Shares, queue: str) -> list:
    s = sh.get(queue)
    if s is None:
        raise KeyError(queue)
    if not s.active:
        return [f"{queue} has no running and no queued job in the pool: it is not active, takes no part in the "
                "fair share and its weight is not in weightSum"]
    pf = s.priority_factor
    if pf is None:
        w = f"{queue} has no priorityFactor: weight 1"
    elif pf <= 0:
        w = f"{queue} has priorityFactor {format_number(pf)}, which counts as unset: weight 1"
    else:
        w = f"{queue} has priorityFactor {format_number(pf)}: weight 1/{format_number(pf)} = {show(s.weight)}"
    others = [x for x in sh.queues if x.active]
    lines = [w,
             f"fair share = weight / weightSum = {show(s.weight)} / {show(sh.weight_sum)} = {show(s.fair_share)} "
             f"(active queues: {', '.join(f'{x.name} {show(x.weight)}' for x in others)})"]
    dd = dominant(sc, s.demand)
    lines.append(f"demand (running + queued): {show_resources(sc, s.demand)}; demand share {show(s.demand_share)}"
                 + (f", set by {dd}" if dd else ""))
    if s.capped_classes:
        lines.append(f"capped by maximumResourceFractionPerQueue of {', '.join(s.capped_classes)}: "
                     f"{show_resources(sc, s.constrained_demand)}; constrained demand share {show(s.constrained_demand_share)}")
    else:
        lines.append(f"no priority-class cap applies: constrained demand share {show(s.constrained_demand_share)}")
    filled_at = next((i for i, p in enumerate(sh.passes, 1) for n, _ in p.filled if n == queue), None)
    if filled_at is not None:
        lines.append(f"adjusted fair share {show(s.adjusted_fair_share)}: water filling reached its demand in pass "
                     f"{filled_at}, so it gets no more and its unused share goes to the others")
    else:
        gave = [n for p in sh.passes for n, _ in p.filled]
        extra = f" plus what {', '.join(gave)} did not need" if gave else ""
        lines.append(f"adjusted fair share {show(s.adjusted_fair_share)}: its fair share{extra} (it demands "
                     f"{show(s.constrained_demand_share)}, more than it gets)")
    lines.append(f"uncapped adjusted fair share {show(s.uncapped_adjusted_fair_share)} (what it would get with "
                 "unlimited demand; used only with protectUncappedAdjustedFairShare)")
    da = dominant(sc, s.allocation)
    lines.append(f"running now: {show_resources(sc, s.allocation)}; actual share {show(s.actual_share)}"
                 + (f", set by {da}" if da else "") + f"; weighted cost {show(s.actual_share)} / {show(s.weight)} = "
                 f"{show(s.weighted_cost)}; budget {show(s.budget)}")
    verdict = ("above" if s.evictable else "not above")
    lines.append(f"fraction of fair share = {show(s.actual_share)} / max({show(s.adjusted_fair_share)}, "
                 f"{show(s.fair_share)}) = {show(s.fraction_of_fair_share)}, {verdict} protectedFractionOfFairShare "
                 f"{format_number(sc.protected_fraction)}: "
                 + ("its preemptible running jobs are evicted at the start of the round"
                    if s.evictable else "its running jobs are protected"))
    return lines


# ---- simulate ------------------------------------------------------------------------------------

def simulate_json(sc: Scenario, sh: Shares, rd: Round) -> dict:
    leases = []
    for ls in rd.leases:
        e = {"job": ls.job.id, "queue": ls.queue}
        if ls.rescheduled:
            e["rescheduled"] = True
        e["queueCostAfter"] = num(ls.cost_after)
        leases.append(e)
    out = {"model": MODEL, "scheduler": SCHEDULER, "evicted": [j.id for j in rd.evicted], "leaseOrder": leases,
           "preempted": [x.job.id for x in rd.preempted], "unschedulable": [x.job.id for x in rd.unschedulable],
           "finalActualShare": {s.name: num(rd.final_share[s.name]) for s in sh.queues if s.active}}
    if sc.notes:
        out["notes"] = list(sc.notes)
    return out


def _runs(ids: list) -> str:
    """j1-0, j1-1, j1-2, j1-5 -> j1-0..j1-2, j1-5 (runs of one entry's consecutive copies)."""
    out, start, prev = [], None, None

    def split(i):
        base, _, k = i.rpartition("-")
        return base, int(k) if k.isdigit() else None

    for i in ids + [None]:
        if i is not None and prev is not None:
            (b1, k1), (b2, k2) = split(prev), split(i)
            if b1 == b2 and k1 is not None and k2 == k1 + 1:
                prev = i
                continue
        if start is not None:
            out.append(start if start == prev else f"{start}..{prev}")
        start = prev = i
    return ", ".join(out)


@for_terminal
def render_simulate(sc: Scenario, sh: Shares, rd: Round, fmt: str, width: int | None = None) -> str:
    if fmt == "json":
        return json.dumps(simulate_json(sc, sh, rd), indent=2) + "\n"
    o = Sections(fmt, width)
    o.title(f"{LABEL}: one scheduling round")
    lines = []
    if rd.evicted:
        lines.append(f"evicted at the start ({len(rd.evicted)}): {_runs([j.id for j in rd.evicted])}")
    else:
        lines.append("evicted at the start: none (no queue holds preemptible jobs above its protected fraction "
                     "of fair share)")
    o.lines(lines)
    rows = []
    for i, ls in enumerate(rd.leases, 1):
        rows.append([str(i), ls.job.id, ls.queue, ls.job.priority_class, show_resources(sc, ls.job.requests),
                     show(ls.cost_before), show(ls.cost_after), "rescheduled" if ls.rescheduled else "new"])
    if rows:
        o.table("Lease order", ["#", "job", "queue", "class", "requests", "cost before", "cost after", "kind"], rows,
                "cost: the queue's weighted cost (DRF cost / weight) before and with the job; the queue whose next "
                "job has the higher class priority, then the lower cost after, then the name that sorts first, goes next")
    else:
        o.lines(["no job leased"])
    refused = [[x.job.id, x.job.queue, "preempted", why_refused(sc, x)] for x in rd.preempted] + \
              [[x.job.id, x.job.queue, "unschedulable", why_refused(sc, x)] for x in rd.unschedulable]
    if refused:
        o.table("Not placed", ["job", "queue", "outcome", "why"], refused)
    head = ["queue", "actual at start", "adjusted fair share", "final actual", "leased", "rescheduled", "preempted"]
    srows = []
    for s in sh.queues:
        if not s.active:
            continue
        n_new = sum(1 for ls in rd.leases if ls.queue == s.name and not ls.rescheduled)
        n_back = sum(1 for ls in rd.leases if ls.queue == s.name and ls.rescheduled)
        n_pre = sum(1 for x in rd.preempted if x.job.queue == s.name)
        srows.append([s.name, show(s.actual_share), show(s.adjusted_fair_share), show(rd.final_share[s.name]),
                      str(n_new), str(n_back), str(n_pre)])
    o.table("Per queue", head, srows)
    o.lines([f"left in the pool: {show_resources(sc, rd.left, zeros=True)}",
             "one pool modelled as one node; fair shares are not recomputed during the round", ORDER_NOTE])
    o.lines(sc.notes, "Notes")
    return o.render()


