"""Queue preemption snapshots (QueuePreemptionSnapshot in preemption.go): per queue on the
paths of the ask and its candidates, what it uses, what it is losing to preemption, what it may
lose without dropping under its guarantee, and what is left of its guarantee, seen from the
ask's queue."""
from __future__ import annotations

from prio.yunikorn import resources


def ask_queue_under_guaranteed(ask, remaining) -> bool:
    return not any(k in remaining and remaining[k] < 0 for k in ask)


def victim_queue_over_guaranteed(ask, remaining) -> bool:
    return any(k in remaining and remaining[k] < 0 for k in ask)


class QueueSnapshot:
    __slots__ = ("parent", "path", "leaf", "alloc", "preempting", "guaranteed", "victims", "ask_queue")

    def __init__(self, parent, path, leaf, alloc, guaranteed, ask_queue):
        self.parent, self.path, self.leaf = parent, path, leaf
        self.alloc = alloc
        self.preempting: dict = {}
        self.guaranteed = guaranteed
        self.victims: list = []
        self.ask_queue = ask_queue

    def duplicate(self, cache: dict) -> QueueSnapshot:
        if self.path in cache:
            return cache[self.path]
        parent = self.parent.duplicate(cache) if self.parent is not None else None
        s = QueueSnapshot(parent, self.path, self.leaf, dict(self.alloc), resources.clone(self.guaranteed), self.ask_queue)
        s.preempting = dict(self.preempting)
        s.victims = self.victims
        cache[self.path] = s
        return s

    def preemptable(self):
        if resources.is_empty(self.alloc):
            return None
        parent = self.parent.preemptable() if self.parent is not None else None
        actual = resources.sub_only_existing(resources.sub_only_existing(self.alloc, self.preempting), self.guaranteed)
        p = {k: v for k, v in actual.items() if v > 0}
        if not p:
            return p
        return resources.component_min_only_existing(p, parent)

    def remaining_guaranteed(self):
        parent = self.parent.remaining_guaranteed() if self.parent is not None else None
        rg = self.guaranteed
        if resources.is_empty(parent) and resources.is_empty(rg):
            return None
        used = resources.sub_only_existing(self.alloc, self.preempting)
        rg = resources.sub_only_existing(rg, used)
        aq = self.ask_queue
        if aq is not None:
            if aq.path == self.path and not resources.is_empty(rg):
                return resources.merge_if_not_present(rg, parent)
            ask_rg = resources.sub_only_existing(resources.clone(aq.guaranteed), resources.sub_only_existing(dict(aq.alloc), aq.preempting))
            if not resources.is_empty(rg) and aq.path.startswith(self.path) and not resources.is_empty(ask_rg):
                return None
        return resources.component_min(rg, parent)

    def add(self, res) -> None:
        if self.parent is not None:
            self.parent.add(res)
        resources.add_to(self.alloc, res)

    def remove(self, res) -> None:
        if self.parent is not None:
            self.parent.remove(res)
        resources.sub_from(self.alloc, res)


def duplicate_all(snaps: dict) -> dict:
    cache: dict = {}
    for path in sorted(snaps):
        snaps[path].duplicate(cache)
    return cache

