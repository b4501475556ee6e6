"""Go's sort.SliceStable, step for step (src/sort/zsortfunc.go: stable_func, insertionSort_func,
symMerge_func, rotate_func, swapRange_func).

It matters where the comparator is not a strict weak order: YuniKorn's queue sort breaks ties by
"pending strictly dominates" (not transitive) and compares each position with the fair max
recorded for that position, not for the queue that sits there after a swap. The result then
depends on exactly which comparisons and swaps Go makes, so this does the same ones: insertion
sort on blocks of 20, then in-place symmetric merges of doubling width.

`less(i, j)` and `swap(i, j)` work on positions, as in Go; `slice_stable_list` is the usual case
of a Python list whose positions may carry data that does not move (pass `less(items, i, j)`).
"""
from __future__ import annotations

BLOCK = 20


def _insertion(less, swap, a: int, b: int) -> None:
    for i in range(a + 1, b):
        j = i
        while j > a and less(j, j - 1):
            swap(j, j - 1)
            j -= 1


def _swap_range(swap, a: int, b: int, n: int) -> None:
    for i in range(n):
        swap(a + i, b + i)


def _rotate(swap, a: int, m: int, b: int) -> None:
    """Blocks data[a:m] and data[m:b] change places, by block swaps."""
    i, j = m - a, b - m
    while i != j:
        if i > j:
            _swap_range(swap, m - i, m, j)
            i -= j
        else:
            _swap_range(swap, m - i, m + j - i, i)
            j -= i
    _swap_range(swap, m - i, m, i)


def _sym_merge(less, swap, a: int, m: int, b: int) -> None:
    """Merge the sorted runs data[a:m] and data[m:b] (SymMerge, Kim and Kutzner)."""
    if m - a == 1:
        # one element on the left: binary search its place in the right run, then bubble it there
        lo, hi = m, b
        while lo < hi:
            h = (lo + hi) >> 1
            if less(h, a):
                lo = h + 1
            else:
                hi = h
        for k in range(a, lo - 1):
            swap(k, k + 1)
        return
    if b - m == 1:
        # one element on the right: binary search its place in the left run
        lo, hi = a, m
        while lo < hi:
            h = (lo + hi) >> 1
            if not less(m, h):
                lo = h + 1
            else:
                hi = h
        for k in range(m, lo, -1):
            swap(k, k - 1)
        return
    mid = (a + b) >> 1
    n = mid + m
    if m > mid:
        start, r = n - b, mid
    else:
        start, r = a, m
    p = n - 1
    while start < r:
        c = (start + r) >> 1
        if not less(p - c, c):
            start = c + 1
        else:
            r = c
    end = n - start
    if start < m < end:
        _rotate(swap, start, m, end)
    if a < start < mid:
        _sym_merge(less, swap, a, start, mid)
    if mid < end < b:
        _sym_merge(less, swap, mid, end, b)


def stable(n: int, less, swap) -> None:
    """sort.Stable / sort.SliceStable over positions 0..n-1."""
    block = BLOCK
    a, b = 0, block
    while b <= n:
        _insertion(less, swap, a, b)
        a, b = b, b + block
    _insertion(less, swap, a, n)
    while block < n:
        a, b = 0, 2 * block
        while b <= n:
            _sym_merge(less, swap, a, a + block, b)
            a, b = b, b + 2 * block
        m = a + block
        if m < n:
            _sym_merge(less, swap, a, m, n)
        block *= 2


def slice_stable(items: list, less) -> list:
    """sort.SliceStable(items, func(i, j) bool { return less(items, i, j) }), in place; returns
    items. Only the list's elements move: anything else `less` indexes by position stays put."""

    def swap(i, j):
        items[i], items[j] = items[j], items[i]

    stable(len(items), lambda i, j: less(items, i, j), swap)
    return items
