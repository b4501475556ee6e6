"""gosort: Go's sort.SliceStable step for step, and the two shortcuts the fast engines take over
it for YuniKorn's queue comparator (a key, then pending strictly greater), against it."""
from hypothesis import given, settings
from hypothesis import strategies as st

from prio.yunikorn.gosort import _sym_merge, dominating, first_of_group, least, merged_prefix, slice_stable, stable_order
from strategies import sort_inputs


def _less(keys, vecs):
    def less(items, i, j):
        x, y = items[i], items[j]
        if keys[x] != keys[y]:
            return keys[x] < keys[y]
        return vecs[x] != vecs[y] and all(a >= b for a, b in zip(vecs[x], vecs[y]))
    return less


def _go(keys, vecs):
    return slice_stable(list(range(len(keys))), _less(keys, vecs))


@settings(max_examples=400, deadline=None)
@given(sort_inputs())
def test_stable_order_is_slice_stable(inp):
    keys, vecs = inp
    assert stable_order(keys, vecs) == _go(keys, vecs)


@settings(max_examples=400, deadline=None)
@given(sort_inputs())
def test_the_least_candidate_is_first_whatever_the_rest(inp):
    keys, vecs = inp
    i = least(keys, vecs)
    if i is not None:
        assert _go(keys, vecs)[0] == i
        assert all(_less(keys, vecs)([i, j], 0, 1) for j in range(len(keys)) if j != i)  # less than every other


@settings(max_examples=400, deadline=None)
@given(sort_inputs())
def test_slice_stable_keeps_the_keys_in_order(inp):
    """Layers (gosort's docstring): whatever the comparator does inside a key's group, the
    result is sorted by key."""
    keys, vecs = inp
    order = _go(keys, vecs)
    assert [keys[i] for i in order] == sorted(keys)


@settings(max_examples=600, deadline=None)
@given(sort_inputs(), st.data())
def test_past_the_hidden_the_least_of_the_rest_is_first(inp, data):
    """walkties.TieWalk._descend_by_key's shortcut: with some candidates hidden (nothing left to place,
    still sorted), the heap's least key over the others, when no hidden candidate has it, and
    the one of that key dominating the others of it, is the first candidate not hidden in
    SliceStable's order."""
    keys, vecs = inp
    n = len(keys)
    hidden = data.draw(st.sets(st.integers(0, max(n - 1, 0)), max_size=n)) if n else set()
    live = [i for i in range(n) if i not in hidden]
    if not live:
        return
    k = min(keys[i] for i in live)
    group = [i for i in live if keys[i] == k]
    if any(keys[h] == k for h in hidden):
        return
    j = 0 if len(group) == 1 else dominating([vecs[i] for i in group])
    if j is None:
        return
    assert next(i for i in _go(keys, vecs) if i not in hidden) == group[j]


def test_a_hidden_candidate_of_the_least_key_can_change_the_first():
    """Why the shortcut needs no hidden candidate on its key: here 14 dominates every other
    candidate not hidden but not 13, hidden, and SliceStable puts another first."""
    vecs = [(0, 0, 0)] * 27
    vecs[12], vecs[13], vecs[14] = (0, 1, 0), (0, 0, 1), (0, 2, 0)
    keys = [0] * 27
    assert dominating([v for i, v in enumerate(vecs) if i != 13]) == 13  # index 14 without 13
    assert next(i for i in _go(keys, vecs) if i != 13) != 14


def test_least_needs_a_candidate_less_than_all_the_others():
    assert least([], []) is None
    assert least([1, 0, 1], [(0, 0), (0, 0), (9, 9)]) == 1  # alone on the least key
    assert least([0, 0, 0], [(2, 2), (2, 1), (1, 2)]) == 0  # dominates the others of its key
    assert least([0, 0], [(2, 1), (1, 2)]) is None  # incomparable: SliceStable's merges decide
    assert least([0, 0], [(1, 1), (1, 1)]) is None  # equal: the input order decides


def test_more_than_20_incomparable_siblings_are_not_an_insertion_sort():
    """The case the engines got wrong before: blocks of 20, then symMerge, do not order a tie
    group as one insertion sort over it does."""
    from prio.yunikorn.dominance import dominates_vec, insertion_sort

    vecs = [((i * 3) % 7, (i * 2) % 5) for i in range(21)]  # 21 siblings on one key
    keys = [0] * 21
    one_insertion = insertion_sort(list(range(21)), list(vecs), dominates_vec)
    assert stable_order(keys, vecs) == _go(keys, vecs) != one_insertion
    small = vecs[:20]  # up to 20, SliceStable is one insertion sort
    assert _go([0] * 20, small) == insertion_sort(list(range(20)), list(small), dominates_vec)


@settings(max_examples=150, deadline=None)
@given(sort_inputs(max_size=90), st.lists(st.tuples(st.integers(0, 89), st.integers(0, 4), st.integers(0, 6)), max_size=12))
def test_a_memo_kept_between_sorts_gives_the_same_order(inp, changes):
    """As the fast runs keep it per parent: one child changes between two sorts, the blocks that
    did not change come from the memo, and every sort is still SliceStable's."""
    keys, vecs = list(inp[0]), list(inp[1])
    memo: dict = {}
    assert stable_order(keys, vecs, memo) == _go(keys, vecs)
    for i, k, v in changes:
        if not keys:
            break
        i %= len(keys)
        keys[i] = k
        vecs[i] = tuple(min(6, v + j) for j in range(len(vecs[i])))
        assert stable_order(keys, vecs, memo) == _go(keys, vecs)


def _group(keys, vecs):
    k0 = min(keys)
    pos = [i for i, k in enumerate(keys) if k == k0]
    return pos, [vecs[i] for i in pos]


@settings(max_examples=600, deadline=None)
@given(sort_inputs())
def test_first_of_group_is_slice_stables_first(inp):
    keys, vecs = inp
    if not keys:
        return
    pos, gvecs = _group(keys, vecs)
    i = first_of_group(len(keys), pos, gvecs)
    if i is not None:
        assert _go(keys, vecs)[0] == pos[i]


@settings(max_examples=300, deadline=None)
@given(sort_inputs(max_size=130), st.integers(0, 3))
def test_first_of_group_on_wide_groups(inp, spread):
    """Groups of many incomparable and dominating vectors over more than one block, where the
    merges decide: the first it names is SliceStable's, whatever the other keys."""
    keys, vecs = inp
    keys = [0 if k <= spread else k for k in keys]
    if not keys:
        return
    pos, gvecs = _group(keys, vecs)
    i = first_of_group(len(keys), pos, gvecs)
    if i is not None:
        assert _go(keys, vecs)[0] == pos[i]


def test_first_of_group_decides_where_least_does_not():
    # 21 candidates, one key: the first block's insertion sort puts (5, 5) first (it dominates
    # everything before it), the lone (1, 9) of the second block does not dominate it, and
    # nothing of the second block dominates (5, 5): it stays first. No candidate dominates all.
    vecs = [(1, 1)] * 10 + [(5, 5)] + [(2, 2)] * 9 + [(1, 9)]
    keys = [0] * 21
    assert least(keys, vecs) is None
    assert first_of_group(21, list(range(21)), vecs) == 10 == _go(keys, vecs)[0]
    # (6, 1) alone in the second block dominates the first block's first (5, 0) but not (0, 3):
    # neither rule holds, and only the merge's probes (here of (0, 0)s) decide
    vecs = [(5, 0), (0, 3)] + [(0, 0)] * 18 + [(6, 1)]
    assert first_of_group(21, list(range(21)), vecs) is None
    assert _go([0] * 21, vecs)[0] == 0


@settings(max_examples=400, deadline=None)
@given(sort_inputs(), st.integers(0, 3))
def test_first_of_group_with_the_runs_sorted_where_the_rules_fail_always_decides(inp, spread):
    """Where neither rule decides a merge, sort_range sorts that run (stable_order over its
    positions alone) and the first is its first: always decided, always SliceStable's."""
    keys, vecs = inp
    keys = [0 if k <= spread else k for k in keys]
    if not keys:
        return
    pos, gvecs = _group(keys, vecs)
    i = first_of_group(len(keys), pos, gvecs, lambda a, b: stable_order(keys, vecs, None, a, b))
    assert i is not None and _go(keys, vecs)[0] == pos[i]


@settings(max_examples=200, deadline=None)
@given(sort_inputs(), st.integers(0, 3))
def test_stable_order_over_positions_lo_to_hi_sorts_them_alone(inp, lo):
    keys, vecs = inp
    lo = min(lo * 40, len(keys))
    hi = min(lo + 40, len(keys))
    memo: dict = {}
    want = [lo + i for i in _go(keys[lo:hi], vecs[lo:hi])]
    assert stable_order(keys, vecs, memo, lo, hi) == want
    assert stable_order(keys, vecs, memo, lo, hi) == want  # its blocks from the memo
    assert stable_order(keys, vecs, memo) == _go(keys, vecs)  # the same memo, every position
    assert stable_order(keys, vecs, memo, lo, hi) == want


@settings(max_examples=500, deadline=None)
@given(sort_inputs(max_size=130), st.data())
def test_a_merges_prefix_is_symmerges_without_the_rest(inp, data):
    """merged_prefix follows symMerge's searches into the part holding the first k positions
    only: the same k elements as the whole merge, for any split and k."""
    keys, vecs = inp
    if len(keys) < 2:
        return
    m = data.draw(st.integers(1, len(keys) - 1))
    less = _less(keys, vecs)
    left = slice_stable(list(range(m)), less)
    right = slice_stable(list(range(m, len(keys))), less)
    merged = left + right

    def swap(i, j):
        merged[i], merged[j] = merged[j], merged[i]

    _sym_merge(lambda i, j: less(merged, i, j), swap, 0, m, len(keys))
    k = data.draw(st.integers(0, len(keys) + 2))
    pair_less = lambda x, y: less([x, y], 0, 1)
    assert merged_prefix(left, right, k, pair_less) == merged[:k]
