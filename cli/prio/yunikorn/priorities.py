"""How a priority change travels up the queue tree, the same for the engine's steps and for
its specialised run (simplerun). Pure: no I/O."""
from __future__ import annotations

import heapq

from prio.values import INT32_MAX, INT32_MIN

MIN = INT32_MIN


def report_up(leaf, old: int, new: int):
    """An application in `leaf` went from priority old to new: each queue's tracker (a counted
    max-heap, engine.MaxTracker) loses old and gains new, and what the queue reports to its
    parent (engine.report: its offset, only the offset when fenced, saturating at int32) is the
    next level's change, while it changes. The changes as (queue path, from, to), None meaning
    no priority; None when no queue below root changed. Every step of a run that changes a
    priority comes here: the tracker updates are inline."""
    changes = None
    pop, push = heapq.heappop, heapq.heappush
    x = leaf
    while True:
        tr = x.tracker
        counts = tr.counts
        if old != MIN:
            c = counts[old] - 1
            if c:
                counts[old] = c
            else:
                del counts[old]
                if old == tr.max:
                    h = tr.heap
                    while h and -h[0] not in counts:
                        pop(h)
                    tr.max = -h[0] if h else MIN
        if new != MIN:
            c = counts.get(new, 0)
            counts[new] = c + 1
            if c == 0:
                push(tr.heap, -new)
            if new > tr.max:
                tr.max = new
        raw = tr.max
        if raw == MIN:
            rep = MIN
        elif x.fenced:
            rep = x.offset
        else:
            rep = raw + x.offset
            if rep < MIN:
                rep = MIN
            elif rep > INT32_MAX:
                rep = INT32_MAX
        if rep == x.reported:
            return changes
        old_rep = x.reported
        x.reported = rep
        if x.parent is None:
            return changes
        if changes is None:
            changes = []
        changes.append((x.path, None if old_rep == MIN else old_rep, None if rep == MIN else rep))
        old, new = old_rep, rep
        x = x.parent
