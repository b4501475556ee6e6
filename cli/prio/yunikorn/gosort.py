"""Go's sort.SliceStable, step for step (src/sort/zsortfunc.go: stable_func, insertionSort_func,
symMerge_func, rotate_func, swapRange_func).

It matters where the comparator is not a strict weak order: YuniKorn's queue sort breaks ties by
"pending strictly dominates" (not transitive) and compares each position with the fair max
recorded for that position, not for the queue that sits there after a swap. The result then
depends on exactly which comparisons and swaps Go makes, so this does the same ones: insertion
sort on blocks of 20, then in-place symmetric merges of doubling width.

Layers. Where the elements fall into layers such that every element of a lower layer is less
than every element of a higher one (and never the other way), SliceStable's result lists the
layers in order, whatever `less` says inside a layer: the insertion sort moves an element left
past a higher layer's elements and stops at a lower layer's; each symMerge's split probes pairs
whose layers rise with the probe, so the binary search stops where the left run's tail is of no
lower layer than the right run's head and its head of no higher layer than the right run's
tail, and both recursive merges keep that (induction). So the result is sorted by YuniKorn's
(priority, share) key, and an element less than every element of higher key and than every
other of its own key is at the index of the number of elements of lower key (the walk's
shortcut past queues with nothing left to place, walkties.TieWalk._descend_by_key).
tests/yunikorn/test_gosort.py checks both.

`less(i, j)` and `swap(i, j)` work on positions, as in Go; `slice_stable_list` is the usual case
of a Python list whose positions may carry data that does not move (pass `less(items, i, j)`).
"""
from __future__ import annotations

from bisect import bisect_left
from operator import ge, itemgetter, lt

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


# ---- the comparator of YuniKorn's queue sort, over keys and pending vectors --------------------
# sortQueuesByPriorityAndFairness (and ...FairnessAndPriority) compare two queues by a key,
# (priority, fair share) in the parent's order, and only where the keys are equal by "pending
# strictly greater in every resource type". Over precomputed keys and vectors:
#     less(i, j) = keys[i] < keys[j] or (keys[i] == keys[j] and vecs[i] dominates vecs[j])
# where u dominates v: u >= v in every place and u != v. The functions below work on positions
# 0..n-1 of such lists (the candidates in their input order).


def least(keys: list, vecs: list) -> int | None:
    """The position of the one candidate less than every other, or None when there is none
    (two or more share the least key and none of them dominates all the others). Where it
    exists it is first in sort.SliceStable's result, whatever the rest:

    - an insertion sort moves it to the front of its block (it is less than all it meets);
    - symMerge keeps the order within each run and puts first the first of one of the two runs.
      If the least element leads the left run, every binary search probing it finds nothing less
      than it, so the split point stays past it and it stays first (by induction over the
      recursive merges). If it leads the right run, the search for the split point probes it
      last, at c = mid-1 (p - c = m), and finds it less: the split stays before mid, so it is
      rotated into the merged range's left half, first, or leads the right run of the left
      recursive merge (induction again); with one element on either side the binary search
      that places it ends at the front for the same reasons.

    tests/yunikorn/test_gosort.py checks this against stable() on generated inputs."""
    n = len(keys)
    if not n:
        return None
    k0 = min(keys)
    group = [i for i in range(n) if keys[i] == k0]
    if len(group) == 1:
        return group[0]
    j = dominating([vecs[i] for i in group])
    return None if j is None else group[j]


def dominating(vecs: list) -> int | None:
    """The position of the vector that dominates every other one of `vecs` (>= in every place,
    and not equal), or None. Only the greatest in lexicographic order can; for two types it does
    when it is there once and no vector is greater in the second place."""
    if len(vecs[0]) == 2:
        bv = max(vecs)
        if vecs.count(bv) > 1 or max(map(itemgetter(1), vecs)) > bv[1]:
            return None
        return vecs.index(bv)
    best = max(range(len(vecs)), key=vecs.__getitem__)
    bv = vecs[best]
    for i, v in enumerate(vecs):
        if i != best and (v == bv or any(map(lt, bv, v))):
            return None
    return best


def first_of_group(n: int, pos: list, vecs: list, sort_range=None) -> int | None:
    """Which of the least key's group comes first in sort.SliceStable's result, without sorting:
    `pos`, the group's positions among the n candidates, ascending (the rest all have greater
    keys); `vecs`, their pending vectors. The index into pos of the first, or None where the
    merges' probes of the other candidates decide it (then only a sort tells).

    Call G the group, N the rest: every G element is less than every N element, no N element is
    less than a G element, and within G, less is pending dominance. SliceStable insertion-sorts
    the blocks of 20 positions, then merges runs (blocks, then merged pairs of doubling width).
    For every run holding part of G this tracks its first element and which G elements it holds:

    - Block: the insertion sort moves each element left past every element before it that it
      is less than, comparing with each it passes, so the element at the front at the end is
      the last one that was less than every element before it in the block. The block's first
      G element is less than every one before it (all N); a later G element qualifies when it
      dominates every G element before it in the block; no N element after a G element does.
      So the first is the last G element dominating all the G elements before it in the block,
      or the block's first G element.
    - Merge of a left run L and a right run R: every comparison symMerge makes is less(r, l) of
      an element r of R and l of L (the binary searches probe data[p - c] >= m against
      data[c] < m, or the single element against the other run; rotations put elements of L in
      the left runs and of R in the right runs of both recursive merges).
      (A) If no element of R is less than L's first l0 (no G element of R dominates it), l0
      stays first: every search that probes l0 at a finds nothing less and moves the split past
      it, so the split is after a, the rotation leaves a alone, and l0 leads the left run of the
      left recursive merge (induction; the one-element merges place or keep it first for the
      same reason).
      (B) If R's first r0 is less than every element of L (it dominates every G element of L),
      r0 comes first: a split at mid would need the probe at c = mid - 1, which reads r0
      (p - c = m), to find it not less; so the split is before mid, the rotation puts r0 at
      the split, first or leading the right run of the left recursive merge, whose left run
      holds only elements of L (induction; where the left run is shorter than mid - a, every
      split is at most m and the same holds). The one-element merges end with r0 at a.
      (A) and (B) exclude each other (r0 would be less than l0 and not). A run with no G element
      loses to one with (its elements are all N). When neither holds, None, or with
      `sort_range`, the run itself: sort_range(a, b) gives the positions a..b-1 as SliceStable
      orders them (stable_order(keys, vecs, memo, a, b): a run depends on its positions
      alone), and its first is that order's.

    tests/yunikorn/test_gosort.py checks this against slice_stable on generated inputs."""
    if not pos:
        return None
    if len(vecs[0]) == 2:
        return _first_of_group2(n, pos, vecs, sort_range)

    def dom(u, v):
        return u != v and all(map(ge, u, v))

    runs: dict = {}  # start position of a run -> [its first (index into pos), its G elements]
    start = -1
    for i, p in enumerate(pos):
        s = p - p % BLOCK
        if s != start:
            start = s
            run = runs[s] = [i, [i]]
        else:
            members = run[1]
            v = vecs[i]
            if all([dom(v, vecs[j]) for j in members]):
                run[0] = i
            members.append(i)
    width = BLOCK
    while width < n:
        merged: dict = {}
        for s, run in runs.items():  # ascending: a left run comes before its right partner
            a = s - s % (2 * width)
            left = merged.get(a)
            if left is None:
                merged[a] = run
                continue
            l0, lg = left
            r0, rg = run
            vl = vecs[l0]
            if not any([dom(vecs[r], vl) for r in rg]):
                merged[a] = [l0, lg + rg]
            elif all([dom(vecs[r0], vecs[x]) for x in lg]):
                merged[a] = [r0, lg + rg]
            else:
                f = _sorted_first(pos, sort_range, a, min(a + 2 * width, n))
                if f is None:
                    return None
                merged[a] = [f, lg + rg]
        runs = merged
        width *= 2
    return runs[0][0]  # every run is merged into the one at 0


def _sorted_first(pos: list, sort_range, a: int, b: int) -> int | None:
    """The first of the run a..b-1 (an index into pos), by sort_range, or None without one."""
    if sort_range is None:
        return None
    f = sort_range(a, b)[0]
    i = bisect_left(pos, f)
    return i if i < len(pos) and pos[i] == f else None  # (a run holding G leads with G)


def _first_of_group2(n: int, pos: list, vecs: list, sort_range=None) -> int | None:
    """first_of_group for two types, the same rules with the comparisons inline: a vector
    dominates every one of a set when it is >= the set's greatest in each place and equal to
    none of them, so each run keeps those maxima and its vectors."""
    runs: dict = {}  # start position -> [first (index into pos), max of place 0, of place 1, vectors]
    start = -1
    for i, p in enumerate(pos):
        v = vecs[i]
        s = p - p % BLOCK
        if s != start:
            start = s
            run = runs[s] = [i, v[0], v[1], [v]]
        else:
            x0, x1 = v
            m0, m1 = run[1], run[2]
            if x0 >= m0 and x1 >= m1:
                if v not in run[3]:
                    run[0] = i
                run[1], run[2] = x0, x1
            else:
                if x0 > m0:
                    run[1] = x0
                if x1 > m1:
                    run[2] = x1
            run[3].append(v)
    width = BLOCK
    while width < n:
        merged: dict = {}
        for s, run in runs.items():  # ascending: a left run comes before its right partner
            a = s - s % (2 * width)
            left = merged.get(a)
            if left is None:
                merged[a] = run
                continue
            l0, lm0, lm1, lv = left
            r0, rm0, rm1, rv = run
            vl = vecs[l0]
            c0, c1 = vl
            if rm0 >= c0 and rm1 >= c1:  # else nothing of the right run dominates l0
                for r in rv:
                    if r[0] >= c0 and r[1] >= c1 and r != vl:
                        break
                else:
                    r = None
                if r is not None:  # (A) fails: (B)?
                    x0, x1 = vr = vecs[r0]
                    if x0 >= lm0 and x1 >= lm1 and vr not in lv:
                        l0 = r0
                    else:
                        l0 = _sorted_first(pos, sort_range, a, min(a + 2 * width, n))
                        if l0 is None:
                            return None
            merged[a] = [l0, lm0 if lm0 > rm0 else rm0, lm1 if lm1 > rm1 else rm1, lv + rv]
        runs = merged
        width *= 2
    return runs[0][0]  # every run is merged into the one at 0


def stable_order(keys: list, vecs: list, memo: dict | None = None, lo: int = 0, hi: int | None = None) -> list:
    """sort.SliceStable over positions 0..n-1 with the comparator above: the permutation
    (positions in sorted order); with lo and hi, over positions lo..hi-1 alone, as the run
    SliceStable has made of them when lo and hi bound one of its runs (lo a multiple of twice
    the run's width). The same comparisons and moves as stable() with less(i, j), inline: the
    insertion sort shifts instead of swapping, and a rotation is one slice assignment; vectors
    of two types (vcore and memory) compare without a loop or a call.

    `memo`, kept by the caller from one sort of the same parent to the next: the insertion sort
    of each block of 20, by the block's keys and vectors (its result depends on nothing else).
    Between two sorts of a parent few children change, so the other blocks are taken from it."""
    if hi is None:
        hi = len(keys)
    if lo or hi != len(keys):
        keys, vecs = keys[lo:hi], vecs[lo:hi]
    n = len(keys)
    data = list(range(n))
    # the keys as their ranks (ints compare faster than tuples), and for two types the vectors'
    # components apart: the comparator is then a few list reads and int comparisons
    rank = {k: r for r, k in enumerate(sorted(set(keys)))}
    rk = [rank[k] for k in keys]
    two = bool(vecs) and len(vecs[0]) == 2
    if two:
        v0 = [v[0] for v in vecs]
        v1 = [v[1] for v in vecs]
    a = 0
    while a < n:
        b = a + BLOCK if a + BLOCK < n else n
        if memo is not None:
            sig = (keys[a:b], vecs[a:b])
            got = memo.get(lo + a)
            if got is not None and got[0] == sig:  # (the memo holds positions, data offsets from lo)
                data[a:b] = [x - lo for x in got[1]] if lo else got[1]
                a = b
                continue
        if two:
            _insertion2(data, rk, v0, v1, a, b)
        else:
            _insertion_data(data, rk, vecs, a, b)
        if memo is not None:
            memo[lo + a] = (sig, [x + lo for x in data[a:b]] if lo else data[a:b])
        a = b

    block = BLOCK
    while block < n:
        a, b = 0, 2 * block
        while b <= n:
            if two:
                _sym_merge2(data, rk, v0, v1, a, a + block, b)
            else:
                _sym_merge_data(data, rk, vecs, a, a + block, b)
            a, b = b, b + 2 * block
        m = a + block
        if m < n:
            if two:
                _sym_merge2(data, rk, v0, v1, a, m, n)
            else:
                _sym_merge_data(data, rk, vecs, a, m, n)
        block *= 2
    return [lo + x for x in data] if lo else data


def _insertion2(data: list, rk: list, v0: list, v1: list, a: int, b: int) -> None:
    """insertionSort over data[a:b] (positions) for two types, the comparator inline: an
    element shifts left while it is less than the one before it."""
    for i in range(a + 1, b):
        x = data[i]
        rx, x0, x1 = rk[x], v0[x], v1[x]
        j = i
        while j > a:
            y = data[j - 1]
            ry = rk[y]
            if rx != ry:
                if rx > ry:
                    break
            else:
                y0 = v0[y]
                if x0 < y0:
                    break
                y1 = v1[y]
                if x1 < y1 or (x0 == y0 and x1 == y1):
                    break
            data[j] = y
            j -= 1
        data[j] = x


def _insertion_data(data: list, rk: list, vecs: list, a: int, b: int) -> None:
    """_insertion2 for vectors of any number of types."""
    for i in range(a + 1, b):
        x = data[i]
        j = i
        while j > a and _less(rk, vecs, x, data[j - 1]):
            data[j] = data[j - 1]
            j -= 1
        data[j] = x


def _less(rk: list, vecs: list, x: int, y: int) -> bool:
    """stable_order's comparator, on ranks and vectors of any number of types."""
    rx, ry = rk[x], rk[y]
    if rx != ry:
        return rx < ry
    vx, vy = vecs[x], vecs[y]
    return vx != vy and all(map(ge, vx, vy))


def _sym_merge2(data: list, rk: list, v0: list, v1: list, a: int, m: int, b: int) -> None:
    """_sym_merge_data for two types, the comparator inline. Every comparison symMerge makes is
    less(r, l) of an element r of the right run and l of the left one (see first_of_group), so
    where the keys alone decide them all nothing is compared: the left run's greatest key below
    the right run's least (each run is in key order), nothing moves; the right run's greatest
    below the left run's least, the runs change places, as the merge of a strict weak order
    does.

    Each run is in key order: a block's insertion sort never moves an element past a smaller
    key, and a merge of runs in key order ends in key order. Its binary search ends at a split
    whose last probe to the left found "not less" (so the right run's element after the moved
    part has a key >= the left run's element before the split) and whose probe at the split
    found "less" (so the moved part's last key <= the key at the split), or at an end of the
    range where the part concerned is empty; then every key of the left half is <= every key of
    the right half, and each half's recursive merge orders its own (induction; the one-element
    merges are the same search)."""
    if rk[data[m - 1]] < rk[data[m]]:
        return
    if rk[data[b - 1]] < rk[data[a]]:
        data[a:b] = data[m:b] + data[a:m]
        return
    if m - a == 1:
        x = data[a]
        rx, x0, x1 = rk[x], v0[x], v1[x]
        lo, hi = m, b
        while lo < hi:
            h = (lo + hi) >> 1
            y = data[h]
            ry = rk[y]
            if ry != rx:
                lt = ry < rx
            else:
                y0, y1 = v0[y], v1[y]
                lt = y0 >= x0 and y1 >= x1 and (y0 != x0 or y1 != x1)
            if lt:
                lo = h + 1
            else:
                hi = h
        data[a:lo - 1] = data[a + 1:lo]
        data[lo - 1] = x
        return
    if b - m == 1:
        x = data[m]
        rx, x0, x1 = rk[x], v0[x], v1[x]
        lo, hi = a, m
        while lo < hi:
            h = (lo + hi) >> 1
            y = data[h]
            ry = rk[y]
            if ry != rx:
                lt = rx < ry
            else:
                y0, y1 = v0[y], v1[y]
                lt = x0 >= y0 and x1 >= y1 and (y0 != x0 or y1 != x1)
            if lt:
                hi = h
            else:
                lo = h + 1
        data[lo + 1:m + 1] = data[lo:m]
        data[lo] = x
        return
    mid = (a + b) >> 1
    nn = mid + m
    if m > mid:
        start, r = nn - b, mid
    else:
        start, r = a, m
    p = nn - 1
    while start < r:
        c = (start + r) >> 1
        x = data[p - c]
        y = data[c]
        rx, ry = rk[x], rk[y]
        if rx != ry:
            lt = rx < ry
        else:
            x0, y0, x1, y1 = v0[x], v0[y], v1[x], v1[y]
            lt = x0 >= y0 and x1 >= y1 and (y0 != x0 or y1 != x1)
        if lt:
            r = c
        else:
            start = c + 1
    end = nn - start
    if start < m < end:
        data[start:end] = data[m:end] + data[start:m]
    if a < start < mid and rk[data[start - 1]] >= rk[data[start]]:  # (else nothing to merge: above)
        _sym_merge2(data, rk, v0, v1, a, start, mid)
    if mid < end < b and rk[data[end - 1]] >= rk[data[end]]:
        _sym_merge2(data, rk, v0, v1, mid, end, b)


def _sym_merge_data(data: list, rk: list, vecs: list, a: int, m: int, b: int) -> None:
    """symMerge over `data` (positions) with less(x, y) on its elements, for stable_order: the
    same comparisons and moves as _sym_merge, a rotation as one slice assignment. At module
    level, not nested: a nested recursive function is a reference cycle, which a run with the
    garbage collector off (the CLI's) would keep, with its sort's lists, at every sort."""
    if m - a == 1:
        x = data[a]
        lo, hi = m, b
        while lo < hi:
            h = (lo + hi) >> 1
            if _less(rk, vecs, data[h], x):
                lo = h + 1
            else:
                hi = h
        data[a:lo - 1] = data[a + 1:lo]
        data[lo - 1] = x
        return
    if b - m == 1:
        x = data[m]
        lo, hi = a, m
        while lo < hi:
            h = (lo + hi) >> 1
            if not _less(rk, vecs, x, data[h]):
                lo = h + 1
            else:
                hi = h
        data[lo + 1:m + 1] = data[lo:m]
        data[lo] = x
        return
    mid = (a + b) >> 1
    nn = mid + m
    if m > mid:
        start, r = nn - b, mid
    else:
        start, r = a, m
    p = nn - 1
    while start < r:
        c = (start + r) >> 1
        if not _less(rk, vecs, data[p - c], data[c]):
            start = c + 1
        else:
            r = c
    end = nn - start
    if start < m < end:
        data[start:end] = data[m:end] + data[start:m]
    if a < start < mid:
        _sym_merge_data(data, rk, vecs, a, start, mid)
    if mid < end < b:
        _sym_merge_data(data, rk, vecs, mid, end, b)


def merged_prefix(left: list, right: list, k: int, less) -> list:
    """The first k of what symMerge makes of the runs `left` and `right` (each already in its
    SliceStable order; `less` the sort's comparator), without merging the rest: symMerge's own
    searches, followed into the parts that end up holding those positions. After its search
    and rotation, symMerge(a, m, b) holds the left run's first `start` elements and the right
    run's first `mid - start` in [a, mid), and the rest of both in [mid, b), and merges each
    part on its own (or leaves it, where one run of it is empty); a one-element merge puts its
    element at its search's end. For a short prefix that is O(log^2 n) comparisons, the ones
    the merge makes on that path."""
    out: list = []
    lo_l, xl, lo_r, yl = 0, len(left), 0, len(right)  # merging left[lo_l:lo_l+xl], right[lo_r:lo_r+yl]
    while k > 0:
        if xl == 0 or yl == 0:
            out += left[lo_l:lo_l + min(k, xl)] if yl == 0 else right[lo_r:lo_r + min(k, yl)]
            return out
        if xl == 1 or yl == 1:
            if xl == 1:  # symMerge's m - a == 1: x goes before the first of right not less than it
                x, run, at, n = left[lo_l], right, lo_r, yl
                lo, hi = 0, yl
                while lo < hi:
                    h = (lo + hi) >> 1
                    if less(right[lo_r + h], x):
                        lo = h + 1
                    else:
                        hi = h
            else:  # b - m == 1: y goes before the first of left it is less than
                x, run, at, n = right[lo_r], left, lo_l, xl
                lo, hi = 0, xl
                while lo < hi:
                    h = (lo + hi) >> 1
                    if not less(x, left[lo_l + h]):
                        lo = h + 1
                    else:
                        hi = h
            merged = run[at:at + lo] + [x] + run[at + lo:at + n]
            out += merged[:k]
            return out
        mid = (xl + yl) >> 1
        if xl > mid:
            start, r = mid - yl, mid
        else:
            start, r = 0, xl
        while start < r:  # symMerge's search: data[p - c] is right's (mid - 1 - c)th, data[c] left's c-th
            c = (start + r) >> 1
            if not less(right[lo_r + mid - 1 - c], left[lo_l + c]):
                start = c + 1
            else:
                r = c
        if k <= mid:  # within [a, mid): left's first start, right's first mid - start
            xl, yl = start, mid - start
            continue
        out += merged_prefix(left[lo_l:lo_l + start], right[lo_r:lo_r + mid - start], mid, less)
        k -= mid
        lo_l, xl, lo_r, yl = lo_l + start, xl - start, lo_r + mid - start, yl - (mid - start)
    return out

