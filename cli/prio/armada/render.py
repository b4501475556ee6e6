"""Render explain and simulate results: rich tables (`table`), tabulate (`plain`, `markdown`) and
`json`. rich and tabulate are imported inside the functions that use them."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from prio.armada.analysis import Explanation, QueueView, Simulation, Snapshot
from prio.armada.model import DECAY_CODE, MODEL_ID, MODEL_LABEL, WEIGHTING_LEGACY
from prio.armada.scheduling import show_resources
from prio.armada.units import BYTE_RESOURCES, format_duration, format_number
from prio.render.formats import ANALYSIS
from prio.render.printable import for_terminal
from prio.render.sections import Sections

FORMATS = tuple(ANALYSIS)  # no page: its renderers write the formats every analysis renderer writes


# ---- numbers -------------------------------------------------------------------------------------

def _round(x: float | None, places: int = 6):
    if x is None:
        return None
    y = round(x, places)
    return 0.0 if y == 0 else y


def _res_json(res: dict | None):
    if res is None:
        return None
    return {k: _round(v) for k, v in sorted(res.items())}


def format_time(t: float, kind: str) -> str:
    if kind == "timestamp":
        return datetime.fromtimestamp(t, timezone.utc).isoformat().replace("+00:00", "Z")
    return format_duration(t)


def _weights(scarcity: dict) -> str:
    parts = []
    for k, w in sorted(scarcity.items(), key=lambda kv: (kv[0] != "cpu", kv[0])):
        if k in BYTE_RESOURCES or k.startswith("hugepages-"):
            parts.append(f"{k} {format_number(w * 2**30)} per Gi")
        else:
            parts.append(f"{k} {format_number(w)}")
    return ", ".join(parts)


def _decay_text(options, half_time: float) -> str:
    h = format_duration(half_time)
    if options.decay == DECAY_CODE:
        return f"half-time {h}; decay as Armada's code: new = f*old + (1-f)*usage, f = 0.5^(dt/{h})"
    return (f"half-time {h}; decay as docs/priority.md (the document's formula, chosen explicitly): new = old*(1-b) + usage*b, "
            f"b = 0.5^(dt/{h})")


def _weighting_text(expl_or_sim) -> str:
    source = ("resourceScarcity from the scenario" if expl_or_sim.scarcity_source == "explicit"
              else "computed from capacity: cpu 1, others total_cpu/total")
    missing = "1 (legacy weighting)" if expl_or_sim.options.weighting == WEIGHTING_LEGACY else "0"
    return f"weights ({source}): {_weights(expl_or_sim.scarcity)}; other resources weigh {missing}"


def _settings_lines(x) -> list[str]:
    sc = x.scenario
    lines = [_decay_text(x.options, sc.settings.half_time), _weighting_text(x)]
    lines.append("effective priority = max(priority, 0.5) * priorityFactor; 0.5 for a queue with no history")
    if sc.settings.probabilistic_only:
        lines.append("useProbabilisticSchedulingForAllResources: the slice round is skipped")
    return lines


# ---- queue rows ----------------------------------------------------------------------------------

def _queue_json(v: QueueView, with_slice: bool) -> dict:
    out = {"queue": v.queue, "usage": _round(v.usage), "priority": _round(v.priority),
           "effectivePriority": _round(v.effective), "share": _round(v.share, 4)}
    if with_slice:
        out["slice"] = _res_json(v.slice)
    return out


def _limited_matters(snap: Snapshot) -> bool:
    for v in snap.queues:
        if v.slice is not None and v.limited is not None:
            if any(abs(v.slice.get(k, 0.0) - v.limited.get(k, 0.0)) > 1e-9 for k in v.slice):
                return True
    return False


def _queue_table(snap: Snapshot, extra: str | None = None) -> tuple[list[str], list[list[str]]]:
    has_offer = snap.offer is not None
    limited = _limited_matters(snap)
    head = ["queue", "factor", "usage", "priority", "effective", "share"]
    if extra == "simulate":
        head.append("queued")
    if has_offer:
        head.append("slice")
        if limited:
            head.append("capped")
    if extra == "simulate":
        head.append("leased")
    rows = []
    for v in snap.queues:
        row = [v.queue, format_number(v.factor), format_number(v.usage), format_number(v.priority),
               format_number(v.effective), format_number(v.share) if v.active else "-"]
        if extra == "simulate":
            row.append(str(v.pending))
        if has_offer:
            row.append(_slice_text(v.slice, snap.offer))
            if limited:
                row.append(_slice_text(v.limited, snap.offer))
        if extra == "simulate":
            row.append(str(v.leased))
        rows.append(row)
    return head, rows


def _slice_text(res: dict | None, offer: dict) -> str:
    res = res or {}
    if all(abs(res.get(k, 0.0)) < 1e-9 for k in offer):
        return "0"
    return show_resources({k: res.get(k, 0.0) for k in offer})


def _steps_table(steps: list, queues: list[str], kind: str) -> tuple[list[str], list[list[str]]]:
    head = ["time", "cluster", "dt", "f"] + queues
    rows = []
    for s in steps:
        after = {name: new for name, _, _, new in s.changes}
        dt = format_duration(s.dt) + (" (first)" if s.first else "")
        rows.append([s.report.label or format_time(s.report.time, kind), s.report.cluster, dt,
                     format_number(s.factor)] + [format_number(after.get(q)) for q in queues])
    return head, rows


def _step_json(s, kind: str) -> dict:
    return {"time": s.report.label or format_time(s.report.time, kind), "cluster": s.report.cluster,
            "dt": format_duration(s.dt), "factor": _round(s.factor),
            "priorities": {name: _round(new) for name, _, _, new in s.changes}}


# ---- explain -------------------------------------------------------------------------------------

SHARE_CAPTION = ("share: 1/effective priority over the queues with queued jobs ('-': none queued); "
                 "slice: sliceResource's part of the offer (fair total minus current usage, never below 0)")


def explain_json(expl: Explanation) -> dict:
    snap = expl.snapshot
    out = {"model": MODEL_ID, "queues": [_queue_json(v, snap.offer is not None) for v in snap.queues]}
    if expl.steps:
        out["reports"] = [_step_json(s, expl.scenario.time_kind) for s in expl.steps]
    if expl.notes:
        out["notes"] = list(expl.notes)
    return out


@for_terminal
def render_explain(expl: Explanation, fmt: str, width: int | None = None) -> str:
    if fmt == "json":
        return json.dumps(explain_json(expl), indent=2) + "\n"
    o = Sections(fmt, width)
    snap = expl.snapshot
    o.title(f"{MODEL_LABEL}: queue priorities")
    head, rows = _queue_table(snap)
    caption = SHARE_CAPTION
    if _limited_matters(snap):
        caption += "; capped: the slice within the queue's remaining limit"
    o.table(None, head, rows, caption)
    lines = _settings_lines(expl)
    if snap.offer is not None:
        lines.append(f"offer: {show_resources(snap.offer)}")
    if expl.steps:
        lines.append(f"now: {format_time(snap.time, expl.scenario.time_kind)} (the latest report); "
                     f"active clusters: {', '.join(snap.active_clusters) or 'none'}")
    o.lines(lines)
    if expl.steps:
        names = [q.name for q in expl.scenario.queues]
        h, r = _steps_table(expl.steps, names, expl.scenario.time_kind)
        o.table("Usage reports applied (priority per queue after each report, on that cluster)", h, r)
    o.lines(expl.notes, "Notes")
    return o.render()


# ---- simulate ------------------------------------------------------------------------------------

def _lease_json(n: int, lease) -> dict:
    return {"lease": n, "job": lease.job.id, "queue": lease.queue, "stage": lease.stage,
            "requests": _res_json(lease.job.requests), "why": lease.why}


def simulate_json(sim: Simulation) -> dict:
    kind = sim.scenario.time_kind
    rounds = []
    for rnd in sim.rounds:
        snap = rnd.snapshot
        queues = []
        for v in snap.queues:
            q = _queue_json(v, snap.offer is not None)
            q["queued"] = v.pending
            q["leased"] = v.leased
            queues.append(q)
        rounds.append({
            "round": rnd.number,
            "time": format_time(snap.time, kind),
            "reports": [_step_json(s, kind) for s in rnd.steps],
            "finished": [j.id for j in rnd.finished],
            "offer": _res_json(snap.offer),
            "queues": queues,
            "leases": [_lease_json(i, ls) for i, ls in enumerate(rnd.leases, 1)],
            "notes": list(rnd.notes),
        })
    return {"model": MODEL_ID, "decay": sim.options.decay, "weighting": sim.options.weighting, "seed": sim.seed,
            "resourceScarcity": {k: float(f"{v:.12g}") for k, v in sorted(sim.scarcity.items())},
            "reports": [_step_json(s, kind) for s in sim.initial_steps],
            "rounds": rounds,
            "pending": {q: len(js) for q, js in sorted(sim.pending.items())},
            "notes": list(sim.notes)}


@for_terminal
def render_simulate(sim: Simulation, fmt: str, width: int | None = None) -> str:
    if fmt == "json":
        return json.dumps(simulate_json(sim), indent=2) + "\n"
    o = Sections(fmt, width)
    kind = sim.scenario.time_kind
    o.title(f"{MODEL_LABEL}: scheduling rounds")
    lines = _settings_lines(sim)
    lines.append(f"seed {sim.seed}; ties and Go's random map order resolved by queue name")
    o.lines(lines)
    names = [q.name for q in sim.scenario.queues]
    if sim.initial_steps:
        h, r = _steps_table(sim.initial_steps, names, kind)
        o.table("Usage reports in the scenario", h, r)
    o.lines(sim.notes, "Notes")
    for rnd in sim.rounds:
        snap = rnd.snapshot
        when = format_time(snap.time, kind)
        if rnd.steps:
            h, r = _steps_table(rnd.steps, names, kind)
            o.table(f"Round {rnd.number} at {when}: reports since the last round (leased jobs now count as usage)", h, r)
        head, rows = _queue_table(snap, "simulate")
        offer = f"offer {show_resources(snap.offer)}" if snap.offer is not None else "no offer"
        o.table(f"Round {rnd.number} at {when}: {offer}", head, rows, SHARE_CAPTION)
        if rnd.finished:
            o.lines([f"finished before this round: {', '.join(j.id for j in rnd.finished)}"])
        if rnd.leases:
            lrows = [[str(i), ls.job.id, ls.queue, ls.stage, show_resources(ls.job.requests), ls.why]
                     for i, ls in enumerate(rnd.leases, 1)]
            o.table(f"Round {rnd.number}: jobs leased", ["#", "job", "queue", "stage", "requests", "why"], lrows)
        else:
            o.lines([f"Round {rnd.number}: no job leased"])
        o.lines(rnd.notes)
    left = ", ".join(f"{q} {len(js)}" for q, js in sorted(sim.pending.items()))
    o.lines([f"still queued after {len(sim.rounds)} round(s): {left or 'nothing'}"])
    return o.render()
