"""How a priority change travels up the queue tree, the same for the engine's steps and for
its specialised run (simplerun). Pure: no I/O."""
from __future__ import annotations

import heapq

from prio.values import INT32_MAX, INT32_MIN

MIN = INT32_MIN


def report_level(x, old: int, new: int):
    """One level of report_up: something under x (an application of leaf x, or a child queue)
    went from priority old to new, so x's tracker (a counted max-heap, maxtracker.MaxTracker) loses
    old and gains new, and what x reports to its parent (reference.priority_value_by_policy: its offset, only the
    offset when fenced, saturating at int32) is set again. Returns (what x reported before,
    what it reports now) when that changed, else None."""
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
                    heapq.heappop(h)
                tr.max = -h[0] if h else MIN
    if new != MIN:
        c = counts.get(new, 0)
        counts[new] = c + 1
        if c == 0:
            heapq.heappush(tr.heap, -new)
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
    old_rep = x.reported
    if rep == old_rep:
        return None
    x.reported = rep
    return old_rep, rep


def change(x, old: int, new: int) -> tuple:
    """A step's record of queue x's priority going from old to new: (its path, from, to), None
    meaning no priority."""
    return x.path, None if old == MIN else old, None if new == MIN else new


def report_up(leaf, old: int, new: int):
    """An application in `leaf` went from priority old to new: each queue's tracker loses old
    and gains new, and what the queue reports to its parent is the next level's change, while
    it changes (report_level, leaf up). The changes (change()) leaf up; None when no queue below
    root changed. Every step of a run that changes a
    priority comes here."""
    changes = None
    x = leaf
    while True:
        got = report_level(x, old, new)
        if got is None or x.parent is None:
            return changes
        old, new = got
        if changes is None:
            changes = []
        changes.append(change(x, old, new))
        x = x.parent
