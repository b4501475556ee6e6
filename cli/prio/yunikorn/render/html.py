"""What the HTML page shows beside the command's -o json document, from the same result objects
(the queue tree is the core's record: prio.yunikorn.records.queue_tree) and, for
preempt, each ask's checks and candidates as the plain format lists them (a backend's page context
is its own, in its package). Pure data: dicts and lists that json.dumps takes as they are."""
from __future__ import annotations

from prio.yunikorn.quantity import show_resources


def reason_codes() -> dict:
    """Each reason code of `unscheduled` with its headline (prio.yunikorn.reasons)."""
    from prio.yunikorn.reasons import CODES

    return {code: words for code, (words, _) in CODES.items()}


def _created(t) -> str | None:
    """An allocation's create time (unix ns first) as the page shows it, None when unknown."""
    import datetime as _dt

    ns = t[0] if t else 0
    if not ns or ns < 0:
        return None
    try:
        return _dt.datetime.fromtimestamp(ns / 1e9, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return None


# YuniKorn's order of a node's victims (preemption.go sortVictimsForPreemption, prio's
# yunikorn.preemption.ordering.victim_key): what the "why" column says a victim was taken for.
VICTIM_ORDER = ("YuniKorn takes a node's candidates in this order: those that allow preemption first, "
                "non-originators first, the newest first; priority only decides who is a candidate")


def _order_why(r, c, rank, alloc, by_id) -> str:
    """Why a candidate was or was not taken, in YuniKorn's victim order (VICTIM_ORDER; empty
    when the task is no candidate)."""
    if not c.eligible:
        return ""
    created = alloc.get("created")
    facts = ", ".join(x for x in (
        "allowPreemption: false" if alloc.get("allowPreemption") is False else "allows preemption",
        "the originator" if alloc.get("originator") else "not the originator",
        f"created {created}" if created else "") if x)
    if c.id in rank:
        lower = [o.id for o in r.candidates if o.eligible and o.id not in rank and o.node == c.node and o.priority < c.priority]
        return (f"taken #{rank[c.id]} on {c.node}: {facts}"
                + (f"; taken before {', '.join(lower[:3])} of lower priority: the order does not look at priority" if lower else ""))
    if r.outcome != "preempted":
        return f"a candidate ({facts}); the ask preempts nothing"
    if c.node != r.node:
        return f"not taken: on {c.node}; YuniKorn places the ask on {r.node}"
    return f"not taken ({facts}): the victims before it in the order free enough"


def preempt_asks(asks, snapshot=None) -> list:
    """Per ask (in the JSON's order): the headline, the lines the plain format prints above its
    table (checks, fence root, log), the checks as data, and every running task inside the fence
    root with its verdict, victims first in YuniKorn's order. With the `snapshot`, each task's
    allowPreemption, originator and create time, and why the victim order took it or not."""
    from prio.yunikorn.render.preempt import _details, _in_scope, _mark, _victim_rank, headline

    allocs: dict = {}
    for app in (snapshot.apps if snapshot is not None else ()):
        for a in app.allocations or ():
            allocs[(app.id, a.id)] = {"allowPreemption": a.allow_preemption, "originator": a.originator, "created": _created(a.create_time)}
    out = []
    for r in asks:
        rank = _victim_rank(r)
        cands = sorted((c for c in r.candidates if _in_scope(r, c)), key=lambda c: (rank.get(c.id, 1 << 30), c.queue, c.id))
        by_id = {c.id: allocs.get((c.application, c.id), {}) for c in cands}
        rows = []
        for c in cands:
            row = {"task": c.id, "application": c.application, "queue": c.queue, "node": c.node, "priority": c.priority,
                   "askPriorityThere": c.compared_with, "verdict": _mark(r, c, rank), "why": c.why}
            a = allocs.get((c.application, c.id))
            if a is not None:
                row.update(a)
                row["order"] = _order_why(r, c, rank, a, by_id)
            rows.append(row)
        out.append({
            "ask": r.ask, "application": r.application, "queue": r.queue, "priority": r.priority, "outcome": r.outcome,
            "headline": headline(r), "details": _details(r), "fenceWhy": r.fence_why,
            "checks": [{"check": name, "passed": ok, "detail": detail} for name, ok, detail in r.preconditions],
            "candidates": rows,
            "outside": sum(1 for c in r.candidates if not _in_scope(r, c)),
        })
    return out


def gangs(snapshot) -> list:
    """The gang applications as the snapshot defines them (the page's gang view): each one's task
    groups (minMember members of minResource), style, placeholder timeout, and which task group
    each of its real asks belongs to. Empty without gangs."""
    out = []
    for app in snapshot.apps:
        if not app.task_groups:
            continue
        out.append({"application": app.id, "queue": app.queue, "style": app.gang_style, "timeout": app.placeholder_timeout,
                    "taskGroups": [{"name": g.name, "minMember": g.min_member, "minResource": show_resources(g.min_resource)}
                                   for g in app.task_groups],
                    "members": {a.id: a.task_group for a in app.asks if a.task_group and not a.placeholder}})
    return out
