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

from bisect import bisect_left
from operator import ge

from prio.yunikorn.gosort import BLOCK, _insertion2, _insertion_data, _less, _sym_merge2, _sym_merge_data, merged_prefix


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
    p's key or vector changed (a list's append: the runs holding it are dropped when next
    asked), `removed(p)` after position p was deleted from both."""

    __slots__ = ("keys", "vecs", "gkey", "firsts", "orders", "ctx", "rank", "dirty", "changed")

    def __init__(self, keys: list, vecs: list):
        self.keys, self.vecs = keys, vecs
        self.gkey = None  # the least key the firsts are for
        self.firsts: dict = {}  # (s, e) -> the group's first in that run and its members (or None: none)
        self.orders: dict = {}  # (s, e) -> SliceStable's order of positions s..e-1, that run alone
        self.ctx: tuple | None = None  # the comparator's inputs over the current lists (ranks, vectors apart)
        self.rank: dict = {}  # key -> its rank, when ctx was made (a key since gone keeps its rank)
        self.dirty: list = []  # positions changed since the runs were last asked for
        self.changed = self.dirty.append

    def _flush(self, n: int, firsts_too: bool = True, shifted: bool = False) -> None:
        """Drop the runs (of the tree over n positions) holding a changed position, and take the
        changed positions into the comparator's inputs (`shifted`: a removal has moved the lists
        since the changes: the inputs are made again when next asked)."""
        firsts, orders = self.firsts, self.orders
        dirty = set(self.dirty)
        for p in dirty:
            s, e = 0, n
            while True:
                if firsts_too:
                    firsts.pop((s, e), None)
                orders.pop((s, e), None)
                if e - s <= BLOCK:
                    break
                m = split(s, e)
                if p < m:
                    e = m
                else:
                    s = m
        self.dirty.clear()
        if shifted:
            self.ctx = None
        else:
            self._retake(dirty)

    def _retake(self, positions) -> None:
        """The comparator's inputs at `positions` as the lists hold them now (their rank, their
        vector), instead of all of them made again: only a key that has no rank yet (a new key
        may fall between two) drops them, to be made when next asked."""
        ctx = self.ctx
        if ctx is None:
            return
        rank, rk = self.rank, ctx[0]
        keys, vecs = self.keys, self.vecs
        two = len(ctx) == 3
        for p in positions:
            r = rank.get(keys[p])
            if r is None:
                self.ctx = None
                return
            rk[p] = r
            if two:
                ctx[1][p], ctx[2][p] = vecs[p]

    def removed(self, p: int) -> None:
        """Position p was deleted (the ones after it moved down by one)."""
        if self.dirty:
            self._flush(len(self.keys) + 1, shifted=True)
        self.firsts = {r: f for r, f in self.firsts.items() if r[1] <= p}
        self.orders = {r: o for r, o in self.orders.items() if r[1] <= p}
        ctx = self.ctx
        if ctx is not None:  # its lists lose p as the caller's did (one type or more: vecs is the caller's)
            del ctx[0][p]
            if len(ctx) == 3:
                del ctx[1][p], ctx[2][p]

    # ---- the first of the least key's group ------------------------------------------------

    def first(self, gkey, members: list | None = None) -> int:
        """The position SliceStable puts first, gkey being the least key of all (its group two
        or more: a lone least candidate is first anyway, gosort.least). members: the group's
        positions, ascending, where the caller knows them (read only for a new gkey; else
        found by a scan of every key)."""
        n = len(self.keys)
        if gkey != self.gkey:
            self.gkey = gkey
            self.firsts = {}
            if self.dirty:
                if self.orders:
                    self._flush(n, False)
                else:
                    dirty = set(self.dirty)
                    self.dirty.clear()
                    self._retake(dirty)
            if members is None:
                keys = self.keys
                members = [p for p in range(n) if keys[p] == gkey]
            return self._build(0, n, members, 0, len(members))[0]
        if self.dirty:
            self._flush(n)
        return self._first(0, n)[0]

    def _build(self, s: int, e: int, members: list, lo: int, hi: int):
        """_first of the run s..e-1 from scratch, members[lo:hi] being the group's positions in
        it; runs holding none are None (and so are the runs under them)."""
        if lo == hi:
            self._none(s, e)
            return None
        if e - s <= BLOCK:
            info = self._block(members[lo:hi])
        else:
            m = split(s, e)
            k = bisect_left(members, m, lo, hi)
            info = self._join(s, e, self._build(s, m, members, lo, k), self._build(m, e, members, k, hi))
        self.firsts[(s, e)] = info
        return info

    def _join(self, s: int, e: int, left, right):
        """The run s..e-1 from its two runs' _first: one side's where the other holds no member
        of the group, else their merge."""
        if left is None:
            return right
        if right is None:
            return left
        return self._merge(s, e, left, right)

    def _none(self, s: int, e: int) -> None:
        self.firsts[(s, e)] = None
        if e - s > BLOCK:
            m = split(s, e)
            self._none(s, m)
            self._none(m, e)

    def _first(self, s: int, e: int):
        """The group's first in the run s..e-1 and its members: [first position, then for two
        types the members' greatest value in each place, their vectors], or None where the run
        holds no member (gosort.first_of_group's runs)."""
        got = self.firsts.get((s, e), self)
        if got is not self:
            return got
        if e - s <= BLOCK:
            keys, gkey = self.keys, self.gkey
            info = self._block([p for p in range(s, e) if keys[p] == gkey])
        else:
            m = split(s, e)
            info = self._join(s, e, self._first(s, m), self._first(m, e))
        self.firsts[(s, e)] = info
        return info

    def _block(self, members: list):
        """A block's first from its members' positions, ascending: the last member dominating
        every member before it in the block, or its first member (first_of_group's block rule;
        for two types, dominating every one of a set is being >= its greatest in each place and
        equal to none of them)."""
        if not members:
            return None
        vecs = self.vecs
        p = members[0]
        v = vecs[p]
        if len(v) != 2:
            info = [p, [v]]
            for p in members[1:]:
                v = vecs[p]
                if all([_dom(v, u) for u in info[1]]):
                    info[0] = p
                info[1].append(v)
            return info
        info = [p, v[0], v[1], [v]]
        for p in members[1:]:
            v = vecs[p]
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

    def _merge(self, s: int, e: int, left: list, right: list) -> list:
        """A merge's first (first_of_group's rules): the left run's first l0 where nothing of
        the right run dominates it (A); else the right run's first where it dominates every
        member of the left run (B); else the first of the run's own order."""
        if len(left) == 2:
            l0, lv = left
            r0, rv = right
            vl = self.vecs[l0]
            if not any([_dom(r, vl) for r in rv]):
                f = l0
            elif all([_dom(self.vecs[r0], x) for x in lv]):
                f = r0
            else:
                f = self._merge_first(s, e)
            return [f, lv + rv]
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
                        f = self._merge_first(s, e)
                    break
        return [f, lm0 if lm0 > rm0 else rm0, lm1 if lm1 > rm1 else rm1, lv + rv]

    def _merge_first(self, s: int, e: int) -> int:
        """The first of the merged run s..e-1's order, where the rules do not decide it
        (_run_prefix: its order is not kept; the next change inside the run drops it, and it is
        needed whole only where a wider merge needs it, which then makes it)."""
        return self._run_prefix(s, e, 1)[0]

    # ---- the order ---------------------------------------------------------------------------

    def order(self, s: int = 0, e: int | None = None) -> list:
        """SliceStable's order of positions s..e-1 (a run of the tree: by default all of them).
        The list is kept: read it, do not change it."""
        if e is None:
            e = len(self.keys)
        if self.dirty:
            self._flush(len(self.keys))
        got = self.orders.get((s, e))
        if got is not None:
            return got
        return self._order(s, e, self._context())

    def prefix(self, k: int) -> list:
        """The first k of SliceStable's order of all the positions (order()[:k]), the top merge
        made only as far as those need (_run_prefix)."""
        n = len(self.keys)
        if self.dirty:
            self._flush(n)
        if n <= BLOCK:
            return self.order()[:k]
        return self._run_prefix(0, n, k)

    def _run_prefix(self, s: int, e: int, k: int) -> list:
        """The first k of the merged run s..e-1's order: the kept order's, else from its two
        runs' orders (kept, or made whole) by gosort.merged_prefix, without the rest of the
        merge."""
        got = self.orders.get((s, e))
        if got is not None:
            return got[:k]
        ctx = self._context()
        m = split(s, e)
        return merged_prefix(self._order(s, m, ctx), self._order(m, e, ctx), k, self._less(ctx))

    def _less(self, ctx: tuple):
        """less(x, y) over positions: gosort.stable_order's comparator (key rank, then pending
        dominance), for the few comparisons a merge's first positions take."""
        rk, vecs = ctx[0], self.vecs
        return lambda x, y: _less(rk, vecs, x, y)

    def _context(self) -> tuple:
        """The comparator's inputs over the current lists: the keys' ranks, and the vectors (two
        types: each place's values apart)."""
        ctx = self.ctx
        if ctx is None:
            keys, vecs = self.keys, self.vecs
            rank = self.rank = {k: r for r, k in enumerate(sorted(set(keys)))}
            rk = [rank[k] for k in keys]
            if len(vecs[0]) == 2:
                ctx = (rk, [v[0] for v in vecs], [v[1] for v in vecs])
            else:
                ctx = (rk, vecs)
            self.ctx = ctx
        return ctx

    def _order(self, s: int, e: int, ctx: tuple) -> list:
        got = self.orders.get((s, e))
        if got is not None:
            return got
        if e - s <= BLOCK:
            data = list(range(s, e))
            if len(ctx) == 3:
                _insertion2(data, *ctx, 0, e - s)
            else:
                rk, vecs = ctx
                _insertion_data(data, rk, vecs, 0, e - s)
        else:
            m = split(s, e)
            data = self._order(s, m, ctx) + self._order(m, e, ctx)
            if len(ctx) == 3:
                _sym_merge2(data, *ctx, 0, m - s, e - s)
            else:
                rk, vecs = ctx
                _sym_merge_data(data, rk, vecs, 0, m - s, e - s)
        self.orders[(s, e)] = data
        return data
