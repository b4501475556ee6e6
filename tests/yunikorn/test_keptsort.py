"""keptsort: SliceStable's first of the least key's group and its order, kept between a
parent's choices as one child changes or leaves, against gosort.slice_stable worked out anew."""
from hypothesis import given, settings
from hypothesis import strategies as st

from prio.yunikorn.gosort import BLOCK, slice_stable
from prio.yunikorn.keptsort import KeptSort, split
from strategies import sort_inputs


def _go(keys, vecs, s=0, e=None):
    e = len(keys) if e is None else e

    def less(items, i, j):
        x, y = items[i], items[j]
        if keys[x] != keys[y]:
            return keys[x] < keys[y]
        return vecs[x] != vecs[y] and all(a >= b for a, b in zip(vecs[x], vecs[y]))

    return slice_stable(list(range(s, e)), less)


def _runs(s, e):
    """Every run of the tree over s..e-1."""
    yield s, e
    if e - s > BLOCK:
        m = split(s, e)
        yield from _runs(s, m)
        yield from _runs(m, e)


def _edges(n):
    """The positions at a run's ends in the tree over n: where a change or a removal decides
    which kept runs still hold (a removal at p keeps the runs ending at p, not at p + 1)."""
    return sorted({x for s, e in _runs(0, n) for x in (s, e - 1)})


def _kept_runs_are_true(kept, keys, vecs):
    """Every run the KeptSort keeps (once it has taken the changes in) is a run of the current
    tree and is that run's own: a kept order is SliceStable's of the run alone, a kept first is
    that order's first where it is of the least key (the group's first there), with the vectors
    of the group's members in the run; None where it holds none. (A stale run seldom changes the
    first of the whole: checked at every run, a removal that kept one too many shows at once.)"""
    n, gkey = len(keys), kept.gkey
    tree = set(_runs(0, n))
    for (s, e), order in kept.orders.items():
        assert (s, e) in tree and order == _go(keys, vecs, s, e), (s, e, n)
    for (s, e), info in kept.firsts.items():
        assert (s, e) in tree, (s, e, n)
        members = sorted(vecs[q] for q in range(s, e) if keys[q] == gkey)
        if info is None:
            assert not members, (s, e)
            continue
        assert info[0] == _go(keys, vecs, s, e)[0] and keys[info[0]] == gkey, (s, e)
        assert sorted(info[-1]) == members, (s, e)


# one step of a parent's run: the candidate at a position changes key and vector (taken and
# re-keyed: its key only grows in the runs, but any change must do), or leaves; then the
# least key's first, the whole order, or one run's order is asked for, or nothing. The position
# is any, or one at a run's ends (a uniform draw rarely hits those among 130).
steps = st.lists(st.tuples(st.sampled_from(["change", "grow", "remove"]), st.tuples(st.booleans(), st.integers(0, 10**6)),
                           st.integers(0, 4), st.integers(0, 6), st.sampled_from(["first", "order", "prefix", "run", "none"])),
                 max_size=30)


@settings(max_examples=300, deadline=None)
@given(sort_inputs(max_size=130), steps)
def test_kept_first_and_order_are_slice_stables_after_every_change(inp, ops):
    keys, vecs = list(inp[0]), list(inp[1])
    if not keys:
        return
    kept = KeptSort(keys, vecs)
    for op, (edge, p), k, v, ask in ops:
        if len(keys) < 2:
            break
        at = _edges(len(keys)) if edge else range(len(keys))
        p = at[p % len(at)]
        if op == "remove":
            del keys[p], vecs[p]
            kept.removed(p)
        else:
            keys[p] = keys[p] + 1 + k if op == "grow" else k
            vecs[p] = tuple((x + v) % 7 for x in vecs[p])
            kept.changed(p)
        want = _go(keys, vecs)
        if ask == "first":
            least = min(keys)
            # the group's positions given (as simplerun knows them by name) or found by a scan
            members = [q for q in range(len(keys)) if keys[q] == least] if v % 2 else None
            assert kept.first(least, members) == want[0]
            _kept_runs_are_true(kept, keys, vecs)
        elif ask == "order":
            assert kept.order() == want
        elif ask == "prefix":
            assert kept.prefix(1 + v) == want[:1 + v]
        elif ask == "run":
            s, e = list(_runs(0, len(keys)))[v % len(list(_runs(0, len(keys))))]
            assert kept.order(s, e) == _go(keys, vecs, s, e)
    assert kept.first(min(keys)) == _go(keys, vecs)[0]
    assert kept.order() == _go(keys, vecs)


@settings(max_examples=300, deadline=None)
@given(sort_inputs(max_size=130), st.integers(0, 3), st.lists(st.integers(0, 10**6), max_size=40))
def test_kept_first_as_a_parent_takes_its_group_one_by_one(inp, spread, taken):
    """As simplerun's planned parents use it: the least key's group is wide (keys folded onto
    it), its first is taken and re-keyed above every key, again and again; where the group is
    used up the next key's group is least. Every first is SliceStable's."""
    keys, vecs = list(inp[0]), list(inp[1])
    keys = [0 if k <= spread else k for k in keys]
    if not keys:
        return
    kept = KeptSort(keys, vecs)
    top = max(keys) + 1
    for t in taken:
        want = _go(keys, vecs)
        first = kept.first(min(keys))
        assert first == want[0]
        _kept_runs_are_true(kept, keys, vecs)
        if t % 5 == 0 and len(keys) > 1:  # nothing left to place: it leaves the candidates
            del keys[first], vecs[first]
            kept.removed(first)
        else:
            keys[first] = top + t % 3
            vecs[first] = tuple(max(0, x - 1 - t % 2) for x in vecs[first])
            kept.changed(first)


def test_a_run_keeps_its_order_where_none_of_its_positions_changed():
    """The point of keeping it: after one change only the runs holding that position are
    sorted again (here the block 80..99 and the root; 0..79 is kept, the very same list)."""
    keys = [0] * 100
    vecs = [((i * 3) % 7, (i * 2) % 5) for i in range(100)]
    kept = KeptSort(keys, vecs)
    assert kept.order() == _go(keys, vecs)
    left = kept.order(0, 80)
    keys[90] = 1
    kept.changed(90)
    assert kept.order() == _go(keys, vecs)
    assert kept.order(0, 80) is left
    del keys[85], vecs[85]  # a removal at 85 keeps the runs ending at or before it
    kept.removed(85)
    assert kept.order(0, 80) is left
    assert kept.order() == _go(keys, vecs)
