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


class Lines(NamedTuple):
    """An answer in lines (--why, --why-ask): the json document and the lines the text formats print."""

    doc: dict
    lines: list


class Pending(NamedTuple):
    """`prio explain --pending`: each reason with its asks, after a whole run."""

    groups: list  # reasons.summary's
    placed: int  # the steps of the run
    total: int  # the asks left pending


def pending(eng, first: int) -> Pending:
    """Run `eng` to the end and say why every ask it leaves waits (`first` of each reason named)."""
    from prio.yunikorn import reasons

    steps = eng.run()
    asks = reasons.pending(eng)
    return Pending(reasons.summary(asks, first=first), len(steps), len(asks))


class Explained(NamedTuple):
    """`prio explain`'s default answer: every queue's effective priority, the pending asks in the
    order they are considered, and the PriorityClasses' ranges."""

    rows: list  # explain.QueueRow, tree order
    asks: object  # streamed: explain.iter_ask_groups' groups; else the first `limit` ask rows
    total: int | None  # the ask rows there are (None when streamed)
    ranges: list | None  # classranges.class_ranges' rows (None without PriorityClasses)
    rejected: tuple  # the applications placement refused


def explained(eng, subtree: str | None, classes: list, streamed: bool, limit: int | None) -> Explained:
    """The tree (`subtree`: one queue's) of `eng` before any run; `classes`: the PriorityClasses
    the inputs define beside the snapshot's."""
    from prio.yunikorn.explain import iter_ask_groups, iter_ask_rows

    rows = queue_rows(eng, subtree)
    total = None
    if streamed:
        asks: object = iter_ask_groups(eng, subtree)  # every one, as the renderer writes them
    else:
        from itertools import islice

        rows_iter = iter_ask_rows(eng, subtree)
        asks = list(islice(rows_iter, limit))
        total = len(asks) + sum(1 for _ in rows_iter)  # what the table leaves out, counted alike
    ranges = None
    defined = classes + list(eng.snapshot.priority_classes)
    if defined:
        from prio.yunikorn.classranges import class_ranges

        ranges = class_ranges(eng.root, defined)
        if subtree:  # --queue narrows every table, this one too
            from prio.yunikorn.explain import find

            top = find(eng.root, subtree).path
            ranges = [x for x in ranges if x["queue"] == top or x["queue"].startswith(top + ".")]
    return Explained(rows, asks, total, ranges, eng.rejected)


class Preempted(NamedTuple):
    """`prio preempt`'s answer: per pending ask what preemption would do, then quota preemption."""

    result: object  # preemption.analyse's
    asks: list  # its asks, --ask's alone where given
    quota: object  # preemption.quota.analyse's
