"""One allocation of the scheduling run, as the engine and its specialised run (simplerun)
produce it: the Step, and the bookkeeping of the ask it takes. Pure: no I/O."""
from __future__ import annotations

from typing import NamedTuple

from prio.values import INT32_MIN

HAND_OVER = "hand-over order"  # a TieNote kind (below)
_BY_ID = ("placeholders", HAND_OVER)  # the kinds whose members are ask ids


class TieNote(tuple):
    """A choice a step left to Go's map order at one level: the queues (QNode) or applications
    (AppState) that tied, the one taken among them, and whether more tied than the five named.
    Its text (str(): "queues root.a, root.b, ...", names sorted) is made when it is read: a big
    run makes a million of them and its JSON output only asks whether a step has one. It
    compares and hashes as its text. Made as tuple.__new__(TieNote, (kind, members, more)),
    kind "queues" or "applications", where a step is hot; "placeholders" (their ids): the
    identical placeholders a real ask could take (Application.getPlaceholderAllocations, a map);
    HAND_OVER (their ids): an application's pending placeholders YuniKorn could have tried first,
    which share priority and create time, so that the shim's hand-over order decides (it walks a
    Go map)."""

    __slots__ = ()

    def __new__(cls, kind: str, members, more: bool = False):
        return tuple.__new__(cls, (kind, members, more))

    def __str__(self) -> str:
        kind, members, more = self
        names = sorted([x.path for x in members] if kind == "queues" else
                       list(members) if kind in _BY_ID else [x.app_id for x in members])
        return kind + " " + ", ".join(names) + (", ..." if more else "")

    def __repr__(self) -> str:
        return repr(str(self))

    def __eq__(self, other) -> bool:
        if isinstance(other, (TieNote, str)):
            return str(self) == str(other)
        return NotImplemented

    def __ne__(self, other) -> bool:
        if isinstance(other, (TieNote, str)):
            return str(self) != str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


class Step(NamedTuple):
    """One allocation (a tuple: a million of them are cheap to make)."""

    step: int
    queue: str
    application: str
    ask: str
    priority: int
    changes: list  # (queue path, from, to), None meaning no priority
    tie: tuple = ()  # the choices left to Go's map order (TieNote), one per tied level, top down
    note: str = ""  # where YuniKorn's queue sort defect made a choice the documented order would not


NO_CHANGES: list = []  # shared by the steps that change no priority (never mutated)


def run_steps(step, limit: int | None = None, progress=None) -> list:
    """step() until it returns None (nothing more can be placed) or `limit` steps were taken;
    progress(steps so far) every 1,024 steps. The step-by-step run of both engines."""
    steps: list = []
    while limit is None or len(steps) < limit:
        s = step()
        if s is None:
            break
        steps.append(s)
        if progress is not None and not (len(steps) & 1023):
            progress(len(steps))
    return steps


def take_ask(st, i: int, path: list, n: int):
    """The bookkeeping of step n taking ask i of application st (appstate.AppState) in the leaf
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
