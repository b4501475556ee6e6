"""The result records of YuniKorn's runs (issue 47): what a renderer reads, taken from the engine
once the run is over, so that no renderer reaches into an engine. Data only."""
from __future__ import annotations

from typing import NamedTuple

from prio.yunikorn.explain import queue_rows, why_at
from prio.yunikorn.quantity import show_quantity


class GangView(NamedTuple):
    """What a run with gang applications adds to its output."""

    steps: dict  # step number -> (placeholder, task group, the placeholder it replaces)
    events: list  # gangs.Event: releases and timeouts, each before its step
    placeholders: set  # (application, ask) of every placeholder
    summary: list  # one dict per gang application (the corpus's `gangs`)


class Simulation(NamedTuple):
    """`prio simulate`'s result: the steps and what could never be placed, with what the run saw."""

    steps: list  # step.Step, in order
    unscheduled: list  # the leftovers (engine.leftovers())
    rejected: tuple  # the applications placement refused (model.Rejected)
    step_nodes: dict | None  # step -> node, with nodes
    tied_leftovers: object  # leftovers whose order is a tie (None without)
    preemptions: list  # preemptions inside the run (none without nodes)
    gangs: GangView | None  # None without gang applications
    placed: list  # (leaf path, asks placed, first step, last step) per leaf that placed any


def simulation(eng, steps: list, unscheduled: list) -> Simulation:
    """The record of a finished run of `eng`."""
    gangs = None
    if getattr(eng, "gangs", None):
        from prio.yunikorn import gangs as gang_rules

        gangs = GangView(eng.gang_steps, list(eng.gang_events), gang_rules.placeholder_ids(eng), gang_rules.summary(eng))
    return Simulation(steps, unscheduled, tuple(getattr(eng, "rejected", ())), getattr(eng, "step_nodes", None),
                      getattr(eng, "tied_leftovers", None), list(getattr(eng, "preemptions", None) or ()), gangs,
                      [(q.path, q.placed, q.first_step, q.last_step) for q in eng.root.walk() if q.leaf and q.placed])


# --why text for every queue up to this many queues; past it the page says which command gives it
# (10,000 queues of why text would add megabytes few people read).
WHY_QUEUES = 2000


def _resources(q) -> dict:
    """Per resource type: usage, guaranteed and max, raw (for the bars) and as people write them."""
    out: dict = {}
    for field, res in (("usage", q.allocated), ("guaranteed", q.guaranteed), ("max", q.max)):
        for k, v in (res or {}).items():
            if v is None:
                continue
            out.setdefault(k, {})[field] = v
            out[k][field + "Shown"] = show_quantity(k, v)
    return out


def queue_tree(eng, subtree: str | None = None) -> dict:
    """The queues as explain lists them (tree order), each with depth, leaf, notes, resources and,
    up to WHY_QUEUES queues, the lines of `prio explain --why`. Taken before a run schedules
    anything: the tree as the snapshot has it."""
    rows = queue_rows(eng, subtree)
    by_path = {q.path: q for q in eng.root.walk()}
    with_why = len(rows) <= WHY_QUEUES
    out = []
    for r in rows:
        q = by_path[r.queue]
        d = r.to_json()
        d.update(depth=r.depth, leaf=r.leaf)
        if r.dynamic:
            d["dynamic"] = True
        if r.notes:
            d["notes"] = r.notes
        res = _resources(q)
        if res:
            d["resources"] = res
        if with_why:
            d["why"] = why_at(q, q.path, eng.release)  # rooted at the queue itself: found at once
        out.append(d)
    return {"queues": out, **({} if with_why else {"whyNote": f"{len(rows)} queues: run prio explain --why QUEUE for one queue's derivation"})}
