"""The walk's tie groups (engine.Engine, through the TieWalk mixin): how a parent whose
children tie on (priority, share) is walked when the heap alone cannot say who is first.

Three kinds of parent, fixed for a run (model.Model decides which is which):
- a parent whose tie groups insertion sort orders (20 children or fewer, or one resource type,
  where pending dominance is a strict weak order): its group's order is kept between steps
  (tieorder.ParkedGroups) and walked from its first current entry (_descend_parked);
- a parent beyond insertion sort (model.beyond_insertion: more than 20 children and two or more
  resource types, where SliceStable's merges may order a group): the least key's lone or
  dominating child from the heap, else the group's first by gosort.first_of_group from its
  positions (_descend_by_key);
- a parent whose children's fair max differ (misaligned): sorted every step by the reference's
  functions (sorted_children, _descend_sorted).
Each records the tie note the reference engine would (_ties_with, _queue_tie, _say_tie).
Pure: no I/O, no printing."""
from __future__ import annotations

import heapq
from itertools import islice
from typing import TYPE_CHECKING

from prio.yunikorn import reference
from prio.yunikorn.dominance import first_tied
from prio.yunikorn.gosort import dominating, first_of_group, stable_order
from prio.yunikorn.reference import fair_share, map_order_alternatives, misaligned_note, queue_key, queue_tie_note, sort_queues
from prio.yunikorn.resources import strictly_positive
from prio.yunikorn.step import TieNote
from prio.yunikorn.tree import QNode

if TYPE_CHECKING:
    from prio.yunikorn.tieorder import ParkedGroups

GENERAL = object()  # _descend_parked: the general walk decides


def parked_start(heap: list, pk: list):
    """Where the walk of a parked tie group ([k1, k2, order, start], see tieorder.ParkedGroups)
    begins: the index of its first current entry, when the group comes before everything in
    the heap (stale heap tops are dropped). None when the general walk must decide: a heap entry
    comes first or ties with the group (it joins, and the group is sorted again), or nothing in
    the group is current."""
    k1, k2, order, i = pk
    while heap and heap[0][3] != heap[0][4].version:
        heapq.heappop(heap)
    if heap and (heap[0][0] < k1 or (heap[0][0] == k1 and heap[0][1] <= k2)):
        return None
    n = len(order)
    while i < n and order[i][3] != order[i][4].version:
        i += 1
    return i if i < n else None


def keys_and_vectors(p, candidates: list, vector) -> tuple[list, list]:
    """Each candidate's comparator inputs: (priority, share) as one key in the parent's order,
    and its pending as a vector (`vector`: resources dict -> tuple over the asks' types)."""
    prio_first = p.sort_priority
    keys = [queue_key(prio_first, c.reported, fair_share(c)) for c in candidates]
    return keys, [vector(c.pending) for c in candidates]


def sort_queues_by_key(p, candidates: list, vector, memo: dict | None = None) -> list:
    """reference.sort_queues for a parent whose children share one fair max, faster: each
    candidate's comparator inputs worked out once, (priority, share) as one key and its pending
    as a vector (`vector`: resources dict -> tuple over the asks' types); `memo`: the parent's
    gosort.stable_order memo, kept between its sorts. When every group of
    candidates equal on the key is a chain under pending dominance (any two are equal or one
    dominates), the comparator is a strict weak order and every stable sort gives the same
    order: Python's sort by (key, the vector negated). Otherwise Go's SliceStable itself."""
    keys, vecs = keys_and_vectors(p, candidates, vector)
    negs = [tuple(-v for v in vec) for vec in vecs]
    idx = sorted(range(len(candidates)), key=lambda i: (keys[i], negs[i]))
    if all(keys[a] != keys[b] or all(x <= y for x, y in zip(negs[a], negs[b])) for a, b in zip(idx, idx[1:])):
        return [candidates[i] for i in idx]
    return [candidates[i] for i in stable_order(keys, vecs, memo)]


def check_queue_ties(eng, st, ties: list) -> None:
    """CHECK_CACHES: the queue tie notes of a descent to st's leaf as the walk made them
    (`ties`, leaf first: walkties' _queue_tie, _ties_with and _first_of_group's, the parked
    groups' and the sorted parents'), against reference.queue_tie_note at each parent of the
    path, over its candidates in YuniKorn's order (reference.sort_queues) at that moment, a
    note or none. Parents whose children differ in fair max are left out on both sides: their
    notes are map_order_alternatives'."""
    skip = eng._misaligned
    got = [n for n in ties if n[0] == "queues" and id(n[1][0].parent) not in skip]
    want = []
    c = st.leaf
    while c.parent is not None:
        p = c.parent
        if id(p) not in skip:
            order = reference.sort_queues(p, release=eng.release)
            note = reference.queue_tie_note(c, order, eng.release)
            if note is not None:
                want.append(note)
        c = p
    reference.key_drift("tie notes", st.app_id, got, want)


class TieWalk:
    """Engine's walk at parents whose children tie (see the module's docstring). A mixin: the
    state it reads (the heaps, _tie_orders, _by_key, _misaligned, _hidden, _sort_memo,
    _by_name, _tie, _note) is the Engine's, made in Engine.__init__."""

    if TYPE_CHECKING:  # what it reads of the Engine, declared for the type checker only
        _tie_orders: ParkedGroups
        _by_key: set
        _hidden: dict
        _sort_memo: dict
        _by_name: dict
        _tie: list
        _note: str

        def _vec(self, resources: dict) -> tuple: ...

        def _descend(self, q: QNode): ...

        def _pop_group(self, heap): ...

    def _candidates(self, p: QNode) -> list:
        """reference.queue_candidates, the name order cached per parent."""
        names = self._by_name.get(id(p))
        if names is None:
            names = self._by_name[id(p)] = sorted(p.children, key=lambda c: c.name)
        return [c for c in names if not c.stopped and strictly_positive(c.pending)]

    def sorted_children(self, p: QNode, aligned: bool = False, cands: list | None = None) -> list:
        """reference.sort_queues (the candidates in name order, cached per parent)."""
        if cands is None:
            cands = self._candidates(p)
        if not aligned and id(p) in self._by_key:
            return sort_queues_by_key(p, cands, self._vec, self._sort_memo.setdefault(id(p), {}))
        return sort_queues(p, cands, aligned)

    def _ties_with(self, chosen, group, equal) -> None:
        """Record a tie when another candidate still in play compares equal to the chosen one.
        `group`: the heap entries of the chosen one's group, equal on the heap key already and
        in name order; up to five names are listed (the scan stops there: a step stays cheap
        when a thousand applications tie)."""
        tied: list = []
        more = False
        for e in group:
            x = e[4]
            if x is not chosen and equal(chosen, x):
                if len(tied) == 4:
                    more = True
                    break
                tied.append(x)
        if tied:
            self._say_tie(chosen, tied, more)

    def _say_tie(self, chosen, tied: list, more: bool) -> None:
        """The step's tie note at this level: the chosen one and up to four tied with it."""
        self._tie.append(TieNote("queues" if isinstance(chosen, QNode) else "applications", tied + [chosen], more))

    def _queue_tie(self, p: QNode, c: QNode, others, start: int = 0) -> None:
        """`others[start:]`: c's heap group in order (equal priority and fair share, each entry
        with its pending vector): another queue still pending ties with c unless pending
        dominance decides. As _ties_with: up to four are listed, the scan stops at a fifth."""
        tied, more = first_tied(self._vec(c.pending), islice(others, start, None), 5, 4,
                                lambda x: x is not c and x.live > 0)
        if tied:
            self._say_tie(c, tied, more)

    def _descend_parked(self, q: QNode, heap: list, pk: list):
        """_descend's common step at a parent with a parked tie group (tieorder.ParkedGroups)
        that comes before everything in the heap: walk the group in its kept order from its
        first current entry, without taking it out and parking it again. GENERAL when the
        general walk must decide: a heap entry comes first or ties with the group (it joins and
        the group is sorted again).

        What goes stale in a parked group is always a prefix of it: a child's version changes
        only when it is walked or on the allocated path (_descend, _allocate, _fast_pick), and
        at a parent with a parked group the children are walked from the group's front (the
        fast pick stops at such a parent, and a heap group that comes first sends the parked
        group back to the heap). So the group's start moves past them and the rest is current."""
        start = parked_start(heap, pk)
        if start is None:
            return GENERAL
        order = pk[2]
        for i in range(start, len(order)):
            c = order[i][4]
            got = self._descend(c)
            c.version += 1  # stale either way (see _descend)
            if got is not None:
                self._parked_taken(q, pk, start, i)
                return got
        del self._tie_orders.parked[id(heap)]  # nothing placeable below any of them
        return GENERAL

    def _parked_taken(self, p: QNode, pk: list, start: int, i: int) -> None:
        """After a step took the child at order[i] of p's parked group (its entries from `start`
        current when the walk began): the tie note over them, and the group's new start (the
        group is gone when that was its last entry)."""
        order = pk[2]
        n = len(order)
        if n - start > 1:
            self._queue_tie(p, order[i][4], order, start)
        if i + 1 < n:
            pk[3] = i + 1
        else:
            del self._tie_orders.parked[id(p.heap)]

    def _descend_by_key(self, q: QNode):
        """_descend at a parent whose tie groups SliceStable's merges order (beyond_insertion).
        Its heap holds every candidate with something live; the others (hidden, _set_aside)
        are pending still, so YuniKorn sorts them too, and their keys are known (_hidden).
        A child alone on the heap's least key, or the one of that key dominating all the others
        of the heap with it (gosort.least), when no hidden child has that key, is first of the
        children with something live in SliceStable's order, with no tie: every candidate is
        then either less than it on the key (hidden ones only) or greater than it, and every
        one of the first kind less than every one of the second: SliceStable keeps such layers
        in order (gosort's docstring, "Layers"; test_gosort checks it). Otherwise, or when
        nothing below it is placeable, the children sorted (sorted_children)."""
        heap = q.heap
        hidden = self._hidden.get(id(heap))
        while True:
            group = self._pop_group(heap)
            i = tied = None
            if group and (hidden is None or (group[0][0], group[0][1]) not in hidden):
                i = 0 if len(group) == 1 else dominating([e[5] for e in group])  # gosort.least
                if i is None and hidden is None:
                    i, tied = self._first_of_group(q, group)
            for j, e in enumerate(group):
                if j != i:
                    heapq.heappush(heap, e)
            if i is None:
                return self._descend_sorted(q)
            c = group[i][4]
            got = self._descend(c)
            c.version += 1  # stale either way, as in _descend
            if got is not None:
                if tied:
                    self._say_tie(c, tied, False)
                return got
            if c.live > 0:  # not hidden now: the sort decides, c already walked
                return self._descend_sorted(q, c)
            hidden = self._hidden[id(heap)]  # c is one of them now: the next of the heap

    def _first_of_group(self, q: QNode, group: list) -> tuple:
        """The child of `group` (the heap's least key's entries, in name order, two or more, none
        dominating the others; no child of q hidden) SliceStable puts first, by
        gosort.first_of_group from their positions among q's candidates (sorting only the runs
        where its rules do not decide), and the others tied with it (queue_tie_note's: at most
        four, named in any order, as a note's text sorts them): (index into group, tied), or
        (None, None) where only the whole sort tells (first_of_group could not decide, or five
        or more tie: which four are named is the sort's order)."""
        cands = self._candidates(q)
        where = {id(c): k for k, c in enumerate(cands)}
        memo = self._sort_memo.setdefault(id(q), {})
        inputs: list = []

        def sort_range(a: int, b: int) -> list:
            if not inputs:
                inputs.extend(keys_and_vectors(q, cands, self._vec))
            return stable_order(inputs[0], inputs[1], memo, a, b)

        i = first_of_group(len(cands), [where[id(e[4])] for e in group], [e[5] for e in group], sort_range)
        if i is None:
            return None, None
        c = group[i][4]
        tied, more = first_tied(group[i][5], group, 5, 4, lambda x: x is not c and x.live > 0)
        if more:
            return None, None
        return i, tied

    def _descend_sorted(self, q: QNode, tried=None):
        """_descend at a parent sorted every step (sorted_children), with its tie note;
        `tried`: a child already walked with nothing placeable."""
        order = self.sorted_children(q)
        for c in order:
            if c.live <= 0 or c is tried:
                continue
            got = self._descend(c)
            c.version += 1  # its heap entry, where it has one, is stale either way
            if got is not None:
                if id(q) in self._by_key:
                    note = queue_tie_note(c, order)
                    if note is not None:
                        self._tie.append(note)
                    return got
                others = map_order_alternatives(q, c, order, self.sorted_children)
                if others:
                    self._tie.append(TieNote("queues", [c, *others]))
                doc = next((d for d in self.sorted_children(q, aligned=True) if d is c or d.live > 0), c)
                if doc is not c and not self._note:
                    self._note = misaligned_note(q, c, doc)
                return got
        return None
