"""The order of a parent's children tied on (priority, fair share), kept from one step to the
next instead of sorted again every step.

Within a tie group YuniKorn's comparator falls back to "pending strictly dominates", which is not
a total order over several resource types, so the engine orders a group by insertion sort over
the children in name order (dominance.insertion_sort) and that exact result must be kept. An
insertion sort has two properties that make it cheap to keep:

- the element first in the result was never passed by a later one, and every later one that
  reached it stopped there: without it the others end in the same relative order. So removing
  the first element (the child just scheduled, or one with nothing left to place) leaves the rest
  of the result as it was, and so does removing a prefix of it;
- the entries of a group are the heap entries of its children, re-made whenever a child's key or
  pending resources change (a new version), so an entry still present means an unchanged child.

So a parent's last sorted group is cached; when the next group there holds exactly the entries
of that order minus a prefix of it, the rest is the answer; anything else (a child that joined
or changed) sorts the group again. Pure: no I/O.
"""
from __future__ import annotations

import heapq


class TieOrders:
    """The last sorted tie group of each parent (keyed by the parent's heap)."""

    __slots__ = ("orders",)

    def __init__(self):
        self.orders: dict = {}

    def order(self, heap: list, group: list, sort) -> list:
        """`group`: the current entries tied at the top of `heap`, in name order; `sort(group)`
        gives their order from scratch. Returns the order, reusing the cached one when it still
        holds. The cache keeps its entries alive, so an id() seen in it is never a new entry's."""
        hid = id(heap)
        old = self.orders.get(hid)
        if old is not None:
            k = len(old) - len(group)
            if k >= 0:
                ids = {id(e) for e in group}
                rest = old[k:] if k else old
                for e in rest:
                    if id(e) not in ids:
                        break
                else:
                    self.orders[hid] = rest
                    return rest
        out = sort(group)
        self.orders[hid] = out
        return out


def _pop_group(heap: list) -> list:
    """Pop the current entries tied at the top of a heap on the first two key parts."""
    pop = heapq.heappop
    group: list = []
    while heap:
        top = heap[0]
        if top[3] != top[4].version:
            pop(heap)
            continue
        if group and (top[0] != group[0][0] or top[1] != group[0][1]):
            break
        group.append(pop(heap))
    return group


class ParkedGroups(TieOrders):
    """TieOrders that also keeps the rest of the group a walk stopped in out of the heap,
    already in order (parked), instead of pushing it back and popping it again next step: a
    tie group of a hundred siblings then costs nothing per step while its order holds.

    Every current entry of a parent's child is in the heap or in that parent's parked group,
    never both. A parked group is taken when its key comes first; entries pushed meanwhile with
    the same key (a child that joined, or came back changed) are taken with it and the group is
    sorted again, as it is when anything but a prefix of its order has gone."""

    __slots__ = ("parked",)

    def __init__(self):
        super().__init__()
        # id(heap) -> [k1, k2, entries in order, start]: the group is entries[start:] (the
        # engine's walk advances start in place, see walkties.TieWalk._descend_parked)
        self.parked: dict = {}

    def ordered(self, heap: list, sort, groups=None):
        """The objects of `heap`'s current entries in order, lazily, as the engine's _ordered
        with a tie sort; `groups[0]` is set to the order of the group being yielded."""
        hid = id(heap)
        pop = heapq.heappop
        parked_all = self.parked
        current = None
        try:
            while True:
                while heap and heap[0][3] != heap[0][4].version:
                    pop(heap)
                parked = parked_all.get(hid)
                if parked is not None and (not heap or (heap[0][0], heap[0][1]) >= (parked[0], parked[1])):
                    del parked_all[hid]
                    k1, k2, old, start = parked
                    if start:
                        old = old[start:]
                    joins = []
                    while heap and heap[0][0] == k1 and heap[0][1] == k2:
                        e = pop(heap)
                        if e[3] == e[4].version:
                            joins.append(e)
                    live = [e for e in old if e[3] == e[4].version]
                    k = len(old) - len(live)
                    # live is old less its stale entries: the same as old less its first k
                    # when the lists are equal (C-level; two entries are equal only when they
                    # are the same one: each push makes a new version)
                    if not joins and old[k:] == live:
                        order = live
                    else:
                        group = sorted(live + joins, key=lambda e: e[2])
                        order = sort(group) if len(group) > 1 else group
                    self.orders[hid] = order
                else:
                    group = _pop_group(heap)
                    if not group:
                        return
                    k1, k2 = group[0][0], group[0][1]
                    order = self.order(heap, group, sort) if len(group) > 1 else group
                current = (k1, k2, order)
                if groups is not None:
                    groups[0] = order
                for e in order:
                    if e[3] == e[4].version:
                        yield e[4]
                current = None
                for e in order:  # none in the engine's walk: whatever it yields goes stale
                    if e[3] == e[4].version:
                        heapq.heappush(heap, e)
        finally:
            if current is not None:
                k1, k2, order = current
                rest = [e for e in order if e[3] == e[4].version]
                if rest:
                    old = parked_all.get(hid)
                    if old is not None:  # another group is parked: it goes back to the heap
                        for e in old[2][old[3]:]:
                            if e[3] == e[4].version:
                                heapq.heappush(heap, e)
                    parked_all[hid] = [k1, k2, rest, 0]
