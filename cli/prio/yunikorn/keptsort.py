"""Go's sort.SliceStable over a wide parent's children, kept from one of its choices to the next:
its first of the least key's group, and its order where that is needed, worked out again only
for the runs that changed.

SliceStable is a tree of runs (gosort.stable): the blocks of 20 positions are insertion-sorted,
then runs of doubling width are merged in place, each merge touching only its own positions.
So the run over positions s..e-1 is, for e - s <= 20, that block's insertion sort, and
otherwise the merge of the runs s..m-1 and m..e-1, m = s + w for the greatest w = 20 * 2^k
below e - s (`split`): Go merges [a, a+w) with [a+w, min(a+2w, n)) at width w, and a run of w
or fewer positions at the end is carried up unmerged until a wider stage has something to
merge it with. A run's order depends on its positions' keys and vectors alone (every
comparison is between two of them, and its shape on e - s alone), and so does, for a given
least key, the first of that key's group in it by gosort.first_of_group's rules (a block's
first from its group members' vectors; a merge's from its two runs' firsts and members, or,
where neither rule decides, from the run's own order).

Between two choices of a parent one child changes: the one taken is re-keyed (`changed`), or
has nothing left and leaves the candidates (`removed`). A changed position invalidates the runs
holding it, one per level; every other run keeps its order and its first. After a removal at
p the positions from p on move down by one: the runs ending at or before p hold the same
children at the same positions, and they are runs of the shorter list's tree too (every run
of a tree is full, 20 * 2^k positions from a multiple of that, or ends at n, and a full run
ending at or before n - 1 is in the tree of n - 1 as well); the others are dropped. The firsts
are kept for one least key (`first`): asked for another, they are worked out again.

tests/yunikorn/test_keptsort.py checks every first and order against gosort.slice_stable
through random changes and removals."""
from __future__ import annotations

from operator import ge

from prio.yunikorn.gosort import BLOCK, _insertion2, _insertion_data, _sym_merge2, _sym_merge_data


def split(s: int, e: int) -> int:
    """Where the run s..e-1 (more than one block) was merged from two: s + the greatest
    20 * 2^k below e - s."""
    w = BLOCK
    while 2 * w < e - s:
        w *= 2
    return s + w


def _dom(u: tuple, v: tuple) -> bool:
    return u != v and all(map(ge, u, v))


class KeptSort:
    """SliceStable over positions 0..n-1 of `keys` and `vecs` (the caller's lists, one entry a
    candidate in input order), with gosort.stable_order's comparator: key, then pending
    dominance. The caller changes the lists in place and says so: `changed(p)` after position
    p's key or vector changed, `removed(p)` after position p was deleted from both."""

    __slots__ = ("keys", "vecs", "gkey", "firsts", "orders", "ctx")

    def __init__(self, keys: list, vecs: list):
        self.keys, self.vecs = keys, vecs
        self.gkey = None  # the least key the firsts are for
        self.firsts: dict = {}  # (s, e) -> the group's first in that run and its members (or None: none)
        self.orders: dict = {}  # (s, e) -> SliceStable's order of positions s..e-1, that run alone
        self.ctx = None  # the comparator's inputs over the current lists (ranks, vectors apart)

    def changed(self, p: int) -> None:
        """Position p's key or vector changed: the runs holding it are worked out again."""
        firsts, orders = self.firsts, self.orders
        s, e = 0, len(self.keys)
        while True:
            firsts.pop((s, e), None)
            orders.pop((s, e), None)
            if e - s <= BLOCK:
                break
            m = split(s, e)
            if p < m:
                e = m
            else:
                s = m
        self.ctx = None

    def removed(self, p: int) -> None:
        """Position p was deleted (the ones after it moved down by one)."""
        self.firsts = {r: f for r, f in self.firsts.items() if r[1] <= p}
        self.orders = {r: o for r, o in self.orders.items() if r[1] <= p}
        self.ctx = None

    # ---- the first of the least key's group ------------------------------------------------

    def first(self, gkey) -> int:
        """The position SliceStable puts first, gkey being the least key of all (its group two
        or more: a lone least candidate is first anyway, gosort.least)."""
        if gkey != self.gkey:
            self.firsts = {}
            self.gkey = gkey
        return self._first(0, len(self.keys))[0]

    def _first(self, s: int, e: int):
        """The group's first in the run s..e-1 and its members: [first position, then for two
        types the members' greatest value in each place, their vectors], or None where the run
        holds no member (gosort.first_of_group's runs)."""
        got = self.firsts.get((s, e), self)
        if got is not self:
            return got
        two = len(self.vecs[s]) == 2
        if e - s <= BLOCK:
            info = self._block2(s, e) if two else self._block(s, e)
        else:
            m = split(s, e)
            left, right = self._first(s, m), self._first(m, e)
            if left is None:
                info = right
            elif right is None:
                info = left
            else:
                info = self._merge2(s, e, left, right) if two else self._merge(s, e, left, right)
        self.firsts[(s, e)] = info
        return info

    def _block2(self, s: int, e: int):
        """A block's first: the last member dominating every member before it in the block, or
        its first member (first_of_group's block rule; dominating every one of a set is being
        >= its greatest in each place and equal to none of them)."""
        keys, vecs, gkey = self.keys, self.vecs, self.gkey
        info = None
        for p in range(s, e):
            if keys[p] == gkey:
                v = vecs[p]
                if info is None:
                    info = [p, v[0], v[1], [v]]
                    continue
                x0, x1 = v
                m0, m1 = info[1], info[2]
                if x0 >= m0 and x1 >= m1:
                    if v not in info[3]:
                        info[0] = p
                    info[1], info[2] = x0, x1
                else:
                    if x0 > m0:
                        info[1] = x0
                    if x1 > m1:
                        info[2] = x1
                info[3].append(v)
        return info

    def _block(self, s: int, e: int):
        keys, vecs, gkey = self.keys, self.vecs, self.gkey
        info = None
        for p in range(s, e):
            if keys[p] == gkey:
                v = vecs[p]
                if info is None:
                    info = [p, [v]]
                    continue
                if all([_dom(v, u) for u in info[1]]):
                    info[0] = p
                info[1].append(v)
        return info

    def _merge2(self, s: int, e: int, left: list, right: list) -> list:
        """A merge's first (first_of_group's rules): the left run's first l0 where nothing of
        the right run dominates it (A); else the right run's first where it dominates every
        member of the left run (B); else the first of the run's own order."""
        l0, lm0, lm1, lv = left
        r0, rm0, rm1, rv = right
        vl = self.vecs[l0]
        c0, c1 = vl
        f = l0
        if rm0 >= c0 and rm1 >= c1:  # else nothing of the right run dominates l0
            for r in rv:
                if r[0] >= c0 and r[1] >= c1 and r != vl:
                    x0, x1 = vr = self.vecs[r0]
                    if x0 >= lm0 and x1 >= lm1 and vr not in lv:
                        f = r0
                    else:
                        f = self.order(s, e)[0]
                    break
        return [f, lm0 if lm0 > rm0 else rm0, lm1 if lm1 > rm1 else rm1, lv + rv]

    def _merge(self, s: int, e: int, left: list, right: list) -> list:
        l0, lv = left
        r0, rv = right
        vl = self.vecs[l0]
        if not any([_dom(r, vl) for r in rv]):
            f = l0
        elif all([_dom(self.vecs[r0], x) for x in lv]):
            f = r0
        else:
            f = self.order(s, e)[0]
        return [f, lv + rv]

    # ---- the order ---------------------------------------------------------------------------

    def order(self, s: int = 0, e: int | None = None) -> list:
        """SliceStable's order of positions s..e-1 (a run of the tree: by default all of them).
        The list is kept: read it, do not change it."""
        if e is None:
            e = len(self.keys)
        got = self.orders.get((s, e))
        if got is not None:
            return got
        ctx = self.ctx
        if ctx is None:
            keys, vecs = self.keys, self.vecs
            rank = {k: r for r, k in enumerate(sorted(set(keys)))}
            rk = [rank[k] for k in keys]
            if len(vecs[0]) == 2:
                ctx = (rk, [v[0] for v in vecs], [v[1] for v in vecs])
            else:
                ctx = (rk, vecs)
            self.ctx = ctx
        return self._order(s, e, ctx)

    def _order(self, s: int, e: int, ctx: tuple) -> list:
        got = self.orders.get((s, e))
        if got is not None:
            return got
        if e - s <= BLOCK:
            data = list(range(s, e))
            if len(ctx) == 3:
                _insertion2(data, *ctx, 0, e - s)
            else:
                _insertion_data(data, *ctx, 0, e - s)
        else:
            m = split(s, e)
            data = self._order(s, m, ctx) + self._order(m, e, ctx)
            if len(ctx) == 3:
                _sym_merge2(data, *ctx, 0, m - s, e - s)
            else:
                _sym_merge_data(data, *ctx, 0, m - s, e - s)
        self.orders[(s, e)] = data
        return data
