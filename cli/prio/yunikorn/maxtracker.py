"""The counted max-heap behind every priority tracker (QNode.tracker): the model keeps each
queue's pending priorities in one, and priorities.report_up moves values in and out of it as
asks are taken."""
from __future__ import annotations

import heapq

from prio.values import INT32_MIN as MIN


class MaxTracker:
    """A multiset of ints with its max: a heap of negated values plus counts."""

    __slots__ = ("heap", "counts", "max")

    def __init__(self):
        self.heap: list[int] = []
        self.counts: dict[int, int] = {}
        self.max = MIN

    def add(self, v: int) -> None:
        c = self.counts.get(v, 0)
        self.counts[v] = c + 1
        if c == 0:
            heapq.heappush(self.heap, -v)
        if v > self.max:
            self.max = v

    def remove(self, v: int) -> None:
        c = self.counts[v] - 1
        if c:
            self.counts[v] = c
            return
        del self.counts[v]
        if v == self.max:
            heap, counts = self.heap, self.counts
            while heap and -heap[0] not in counts:
                heapq.heappop(heap)
            self.max = -heap[0] if heap else MIN

