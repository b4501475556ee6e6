"""Pending dominance between queues, over vectors of their pending resources by type, and
the insertion sort YuniKorn's sort of a tie group comes to (Go's sort.SliceStable on small
groups: the comparator is not transitive, so the algorithm matters). Pure: no I/O."""
from __future__ import annotations

import operator
from bisect import bisect_left
from itertools import accumulate


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


def suffix_bounds(vectors: list) -> list | None:
    """What lets a tie note skip the part of a tie group it cannot find anything in (see
    scan_end): per type, the negated maxima of vectors[k:] for each k (non-decreasing, so
    bisect finds where they fall under a value); None when two vectors are equal (a vector
    equal to the one scanned for is tied with it however far down it is)."""
    if len(set(vectors)) < len(vectors):
        return None
    return [list(accumulate(reversed([-v[t] for v in vectors]), min))[::-1] for t in range(len(vectors[0]))]


def scan_end(bounds: list | None, cv: tuple, lo: int, hi: int) -> int:
    """Where a scan of vectors[lo:hi] for the ones tied with cv may stop: from there on every
    vector is <= cv in every place, and (bounds not None) none equals it, so cv dominates them
    all. Most tie notes of a big group find nothing: then this is lo and no vector is read."""
    if bounds is None:
        return hi
    end = lo
    for b, c in zip(bounds, cv):
        k = bisect_left(b, -c, lo, hi)
        if k > end:
            end = k
    return end
