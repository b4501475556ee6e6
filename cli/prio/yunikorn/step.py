"""One allocation of the scheduling run, as the engine and its specialised run (simplerun)
produce it: the Step, and the bookkeeping of the ask it takes. Pure: no I/O."""
from __future__ import annotations

from typing import NamedTuple

from prio.values import INT32_MIN


class Step(NamedTuple):
    """One allocation (a tuple: a million of them are cheap to make)."""

    step: int
    queue: str
    application: str
    ask: str
    priority: int
    changes: list  # (queue path, from, to), None meaning no priority
    tie: tuple = ()  # the choices left to Go's map order: ("root.a, root.b", ...), one per tied level
    note: str = ""  # where YuniKorn's queue sort defect made a choice the documented order would not


NO_CHANGES: list = []  # shared by the steps that change no priority (never mutated)


def take_ask(st, i: int, path: list, n: int):
    """The bookkeeping of step n taking ask i of application st (engine.AppState) in the leaf
    path[0] (path: the leaf up to root): the ask is allocated, the application's first live
    (neither allocated nor set aside) and first unallocated asks move on, the application and
    every queue of the path count it running from its first allocation, the leaf counts the
    placement and its first and last step. Returns the ask and the application's priority
    now: its first unallocated ask's, INT32_MIN when none is left."""
    asks, alloc = st.asks, st.alloc
    n_asks = len(asks)
    ask = asks[i]
    alloc[i] = True
    live, dead = st.live, st.dead
    while live < n_asks and (alloc[live] or live in dead):
        live += 1
    st.live = live
    first = st.first
    while first < n_asks and alloc[first]:
        first += 1
    st.first = first
    if not st.running:
        st.running = True
        for q in path:
            q.running += 1
    leaf = path[0]
    leaf.placed += 1
    if leaf.first_step is None:
        leaf.first_step = n
    leaf.last_step = n
    return ask, asks[first].priority if first < n_asks else INT32_MIN
