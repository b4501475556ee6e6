"""The victim search for one ask (queue.go FindEligiblePreemptionVictims), with the why of
every decision: the fence root the walk up from the ask's queue stops at, the ask's priority as
translated at each queue on the way, and each running task below the fence root: a candidate or
not, and why."""
from __future__ import annotations

from typing import TYPE_CHECKING

from prio.yunikorn import resources
from prio.yunikorn.preemption.guarantee import QueueSnapshot
from prio.yunikorn.preemption.world import World
from prio.yunikorn.quantity import show_resources
from prio.yunikorn.snapshot import Ask

if TYPE_CHECKING:
    from prio.yunikorn.tree import QNode


class CandidateSearch:
    """FindEligiblePreemptionVictims for one ask, with the why of every decision."""

    def __init__(self, world: World, leaf, ask: Ask):
        self.w, self.leaf, self.ask = world, leaf, ask
        self.pmap: dict = {}
        self.chain: list = []  # (queue path, priority) leaf first
        self.fence: QNode | None = None  # the fence root, once run() found it
        self.fence_why = ""
        self.snaps: dict = {}
        self.why: dict = {}  # Run -> (eligible, why, compared_with)
        self.by_leaf: dict = {}
        for r in world.runs:
            self.by_leaf.setdefault(id(r.leaf), []).append(r)

    def fence_root(self):
        cur = self.ask.priority
        q = self.leaf
        while True:
            if q.fenced:
                cur = q.offset
            else:
                cur += q.offset
            self.pmap[q.path] = cur
            self.chain.append((q.path, cur))
            mx = self.w.max_of(q)
            by_max = False
            at_max = not self.w.release.fence_at_projected_max  # before 1.9: usage equal to the queue's own max
            if at_max:
                by_max = resources.equals(self.w.own_max(q), self.w.qalloc[q.path])
            elif not resources.is_empty(mx):
                projected = resources.add(self.w.qalloc[q.path], self.ask.resources)
                by_max = not resources.strictly_only_existing(mx, projected, True)
            if q.parent is None:
                self.fence_why = "root: the walk up ends here"
            elif self.w.preemption_policy(q) == "fence":
                self.fence_why = f"{q.path} has preemption.policy: fence"
            elif by_max:
                used = self.w.qalloc[q.path]
                what = ("root's max (the sum of the nodes)" if q.parent is None else
                        "its max (within its parents')" if q.max else "the max it inherits")
                self.fence_why = (f"{q.path}: usage {show_resources(used)} equals its max (YuniKorn {self.w.release.name})" if at_max else
                                  f"{q.path}: usage {show_resources(used)} plus the ask {show_resources(self.ask.resources)} would pass "
                                  f"{what}, {show_resources(mx)}")
            if q.parent is None or self.w.preemption_policy(q) == "fence" or by_max:
                self.fence = q
                return q
            q = q.parent

    def _snapshot(self, q) -> QueueSnapshot:
        s = self.snaps.get(q.path)
        if s is not None:
            return s
        parent = self._snapshot(q.parent) if q.parent is not None else None
        s = QueueSnapshot(parent, q.path, q.leaf, dict(self.w.qalloc[q.path]), resources.clone(q.guaranteed), self.snaps.get(self.leaf.path))
        self.snaps[q.path] = s
        return s

    def run(self):
        fence = self.fence_root()
        self._snapshot(self.leaf)
        ask_snap = self.snaps[self.leaf.path]
        q = self.leaf
        while q.parent is not None:
            self.snaps[q.path].ask_queue = ask_snap
            q = q.parent
        self._walk(fence, self.pmap[fence.path], False, "")
        self._prune()
        return self.snaps

    def _mark(self, runs, eligible, why, cmp=None):
        for r in runs:
            self.why[r] = (eligible, why, cmp)

    def _runs_in(self, q):
        return self.by_leaf.get(id(q), [])

    def _walk(self, q, ask_prio: int, fenced: bool, fence_note: str):
        if q is self.leaf:
            self._mark(self._runs_in(q), False, "in the ask's own queue: YuniKorn never preempts there for it")
            return
        if q.leaf:
            runs = self._runs_in(q)
            if self.w.preemption_policy(q) == "disabled":
                self._mark(runs, False, f"{q.path} has preemption.policy: disabled (set or inherited)")
                return
            victims = self._snapshot(q)
            remaining = victims.remaining_guaranteed()
            if remaining is not None and resources.strictly_greater_or_equal(remaining, {}):
                del self.snaps[q.path]
                self._mark(runs, False, f"{q.path} is within its guaranteed resources (remaining {show_resources(remaining)})")
                return
            for r in runs:
                if not resources.match_any(self.ask.resources, r.res):
                    self.why[r] = (False, "shares no resource type with the ask", ask_prio)
                    continue
                if fenced or r.alloc.priority <= ask_prio:
                    victims.victims.append(r)
                    why = (f"inside {fence_note}: every task there is a candidate" if fenced else
                           f"priority {r.alloc.priority} <= {ask_prio}, the ask's priority as seen from {q.path}")
                    self.why[r] = (True, why, ask_prio)
                else:
                    self.why[r] = (False, f"priority {r.alloc.priority} > {ask_prio}, the ask's priority as seen from {q.path}", ask_prio)
            if not victims.victims:
                del self.snaps[q.path]
            return
        for child in q.children:
            child_fenced = False
            note = fence_note
            cp = self.pmap.get(child.path)
            if cp is None:
                if child.fenced:
                    if child.offset > ask_prio:
                        for r in self.w.runs:
                            if _under(r.leaf, child):
                                self.why[r] = (False, f"{child.path} is priority-fenced with offset {child.offset} > {ask_prio}, the ask's priority at {q.path}", ask_prio)
                        continue
                    child_fenced = True
                    note = f"{child.path} (priority fence, offset {child.offset} <= {ask_prio})"
                    cp = ask_prio
                else:
                    cp = ask_prio - child.offset
            self._walk(child, cp, fenced or child_fenced, note)

    def _prune(self):
        keep = set()
        ask_snap = self.snaps.get(self.leaf.path)
        cur = ask_snap
        while cur is not None:
            keep.add(cur.path)
            cur = cur.parent
        for s in list(self.snaps.values()):
            if s.leaf and s.victims:
                cur = s
                while cur is not None:
                    keep.add(cur.path)
                    cur = cur.parent
        for path in list(self.snaps):
            if path not in keep:
                del self.snaps[path]


def _under(q, top) -> bool:
    while q is not None:
        if q is top:
            return True
        q = q.parent
    return False

