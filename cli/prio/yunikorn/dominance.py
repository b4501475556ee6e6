"""Pending dominance between queues, over vectors of their pending resources by type, and
the insertion sort YuniKorn's sort of a tie group comes to (Go's sort.SliceStable on small
groups: the comparator is not transitive, so the algorithm matters): neighbour by neighbour,
or, for vectors all different, by bisection over the negated suffix maxima of the entries
placed so far, which also tell a tie note's scan where to stop. Pure: no I/O."""
from __future__ import annotations

import operator
from bisect import bisect_left, bisect_right


def dominates_vec(l: tuple, r: tuple) -> bool:
    """Pending dominance (YuniKorn's StrictlyGreaterThan(l - r, 0)) over vectors of the same
    types: l >= r in every place and l != r."""
    return l != r and all(map(operator.ge, l, r))


def tied_vec(l: tuple, r: tuple) -> bool:
    """Neither vector dominates the other: equal, or each greater somewhere."""
    if l == r:
        return True
    if len(l) == 2:  # the common case, vcore and memory: one greater, the other less
        return (l[0] - r[0]) * (l[1] - r[1]) < 0
    ge = operator.ge
    return not all(map(ge, l, r)) and not all(map(ge, r, l))


def insertion_sort(out: list, keys: list, dominates) -> list:
    """Go's insertionSort with less = dominates, on `out` and its `keys` together, in place."""
    for i in range(1, len(out)):
        j = i
        while j > 0 and dominates(keys[j], keys[j - 1]):
            out[j], out[j - 1] = out[j - 1], out[j]
            keys[j], keys[j - 1] = keys[j - 1], keys[j]
            j -= 1
    return out


def first_tied(cv: tuple, entries, vi: int, oi: int, keep=None) -> tuple[list, bool]:
    """The objects (entry[oi]) of the first four entries whose pending vector (entry[vi]) ties
    with cv (tied_vec), and whether a fifth does: the scan a tie note makes, stopping there.
    `keep(obj)`: which tied ones count (the engine skips the one taken and queues with nothing
    live). Two types (vcore and memory, the big tie groups) compare inline."""
    tied: list = []
    if len(cv) == 2:
        c0, c1 = cv
        for e in entries:
            v0, v1 = e[vi]
            if v0 < c0:  # tied: equal, or each greater once
                if v1 <= c1:
                    continue
            elif v0 > c0:
                if v1 >= c1:
                    continue
            elif v1 != c1:
                continue
            x = e[oi]
            if keep is None or keep(x):
                if len(tied) == 4:
                    return tied, True
                tied.append(x)
        return tied, False
    for e in entries:
        if tied_vec(cv, e[vi]):
            x = e[oi]
            if keep is None or keep(x):
                if len(tied) == 4:
                    return tied, True
                tied.append(x)
    return tied, False


def scan_end(bounds: list | None, cv: tuple, lo: int, hi: int) -> int:
    """Where a scan of vectors[lo:hi] for the ones tied with cv may stop: from there on every
    vector is <= cv in every place, and none equals it, so cv dominates them all. bounds: per
    type, the negated maxima of vectors[k:] for each k (non-decreasing, so bisect finds where
    they fall under cv), as insertion_sort_bounded gives them for vectors all different; None
    otherwise (an equal vector is tied however far down it is): then hi. Most tie notes of a
    big group find nothing: then this is lo and no vector is read."""
    if bounds is None:
        return hi
    end = lo
    for b, c in zip(bounds, cv):
        k = bisect_left(b, -c, lo, hi)
        if k > end:
            end = k
    return end


def insertion_sort_bounded(entries: list, vi: int) -> tuple[list, list]:
    """insertion_sort by dominates_vec of the entries' vectors (entry[vi], all different), and
    scan_end's bounds for the result, together. Each entry moves left past the run at the end of
    those before it that it dominates; with the negated suffix maxima of those at hand, the run
    starts where they fall under the entry's vector in every place (a bisection per type), and
    updating them is a slice assignment per type: the same order as comparing neighbours one by
    one, for a few C-level operations where a big group's entry passes ~n/4 of them."""
    negs: list[list] = [[] for _ in entries[0][vi]] if entries else []
    out: list = []
    if len(negs) == 2:  # vcore and memory, the big tie groups: the same, unrolled
        n0, n1 = negs
        for e in entries:
            m0, m1 = e[vi]
            m0, m1 = -m0, -m1
            p = bisect_left(n0, m0)
            k = bisect_left(n1, m1)
            if k > p:
                p = k
            # no maximum before it rises (most entries: the one just before is no less): the
            # entry's own goes in; else those it exceeds, found by bisection, rise to it
            if p == 0 or n0[p - 1] <= m0:
                n0.insert(p, m0)
            else:
                k = bisect_right(n0, m0, 0, p)
                n0[k:p] = [m0] * (p - k + 1)
            if p == 0 or n1[p - 1] <= m1:
                n1.insert(p, m1)
            else:
                k = bisect_right(n1, m1, 0, p)
                n1[k:p] = [m1] * (p - k + 1)
            out.insert(p, e)
        return out, negs
    for e in entries:
        ms = [-c for c in e[vi]]
        p = 0
        for neg, m in zip(negs, ms):
            k = bisect_left(neg, m)
            if k > p:
                p = k
        for neg, m in zip(negs, ms):
            k = bisect_right(neg, m, 0, p)
            neg[k:p] = [m] * (p - k + 1)
        out.insert(p, e)
    return out, negs
