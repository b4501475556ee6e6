"""One application's scheduling state (AppState): its asks in YuniKorn's order (sortedRequests),
what is allocated and set aside, its priority, pending and usage. The model builds one per
placed application; the engines read and advance them step by step (step.take_ask)."""
from __future__ import annotations

import operator

from prio.values import INT32_MIN as MIN
from prio.yunikorn.resources import strictly_positive
from prio.yunikorn.snapshot import App
from prio.yunikorn.tree import QNode

_PRIORITY = operator.attrgetter("priority")
_CREATED = operator.attrgetter("create_time")


def _sorted_asks(app: App) -> tuple[list, bool]:
    """The application's asks in sortedRequests order (reference.sorted_requests, which the
    differential tests hold this to), and True when the common case below held: every ask was
    created with its application (no create time of its own), so the oldest create time is its
    submit time."""
    asks = app.asks
    implicit = app.submit_time
    # The common case: no ask has a create time of its own and seq follows the file order. Then
    # every key differs and the order is by priority, then file order: a stable sort does it.
    prev = None
    for a in asks:
        if a.create_time != implicit or (prev is not None and a.seq <= prev):
            break
        prev = a.seq
    else:
        return sorted(asks, key=_PRIORITY, reverse=True), True
    keyed = []
    top = None
    for a in asks:
        k = (-a.priority, a.create_time, a.seq if a.create_time == implicit else 0)
        if top is None or k >= top:
            top = k
            keyed.append((k, a.seq, a))
        else:
            keyed.append((k, -a.seq, a))
    keyed.sort(key=lambda t: (t[0], t[1]))
    return [t[2] for t in keyed], False


NO_DEAD: dict = {}  # AppState.dead of every application with nothing set aside (never written)


class AppState:
    """One placed application as the engines schedule it: its asks in sortedRequests order,
    which are allocated (alloc) or set aside with their reason (dead), the first unallocated
    (first) and the first still placeable (live), its priority (that of its first unallocated
    ask), pending and allocated resources, whether it runs, and its key's submit time."""

    # what a scheduling step touches first, together (slots are laid out in this order)
    __slots__ = ("asks", "live", "prio", "usage", "running", "app_id", "leaf", "key_submit",
                 "app", "alloc", "dead", "first", "pending", "version", "blocked", "positive")

    def __init__(self, app: App, leaf: QNode, shapes_seen: dict | None = None):
        """shapes_seen: id -> resources dict of every ask shape met, added to (Engine.ask_shapes)."""
        self.app = app
        self.leaf = leaf
        self.asks, plain = _sorted_asks(app)
        n = len(self.asks)
        self.alloc = [False] * n
        self.app_id = app.id  # the hot path reads it here, not from App's __dict__
        # asks set aside, by index, with the reason: one shared empty dict until the first
        # (_set_aside), so a million-ask run does not touch 50,000 of them every step
        self.dead: dict[int, str] = NO_DEAD
        self.first = 0  # first unallocated ask (its priority is the app's priority)
        self.live = 0  # first ask neither allocated nor set aside
        self.prio = self.asks[0].priority if n else MIN
        # Loaders share one resources dict between asks of the same shape: sum per shape.
        shapes: dict = {}
        for a in self.asks:
            r = a.resources
            i = id(r)
            got = shapes.get(i)
            shapes[i] = (r, 1) if got is None else (r, got[1] + 1)
        if shapes_seen is not None:
            for i, (r, _) in shapes.items():
                shapes_seen[i] = r
        pending: dict = {}
        positive = True
        for r, times in shapes.values():
            for k, v in r.items():
                pending[k] = pending.get(k, 0) + v * times
            if positive and not strictly_positive(r):
                positive = False
        self.pending = pending
        self.positive = positive  # every ask asks for something and nothing negative
        self.usage = dict(app.allocated)
        self.running = bool(app.allocated) or app.state == "Running"
        self.version = 0
        self.blocked: QNode | str | None = None  # what blocks it: a queue at maxapplications, or why
        # submission time is lowered to the oldest ask's create time (the submit time itself when
        # every ask was created with the application), and to the oldest running allocation's
        # (AddAllocationAsk, addAllocationInternal; an allocation without a create time of its
        # own was created with its application). A time is compared by its value alone: the
        # mark of a default time (its place in the file) only orders times that have none (0)
        submit = min(app.submit_time, min(map(_CREATED, app.asks))) if n and not plain else app.submit_time
        if app.allocations:
            submit = min(submit, min((a.create_time for a in app.allocations if a.create_time[1] == 0), default=submit))
        self.key_submit = (submit[0], 0) if submit[0] else submit

