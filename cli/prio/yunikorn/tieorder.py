"""The order of a parent's children tied on (priority, fair share), kept from one step to the
next instead of sorted again every step.

Within a tie group YuniKorn's comparator falls back to "pending strictly dominates", which is not
a total order over several resource types, so the engine orders a group by insertion sort over
the children in name order (engine._insertion_first) and that exact result must be kept. An
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
