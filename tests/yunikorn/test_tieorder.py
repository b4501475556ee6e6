"""Tie groups keep their order between steps (yunikorn/tieorder.py) and, with one resource type,
the heap orders them by pending: the scheduling order is exactly what sorting every group again
every step gives."""
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from builders import build_engine, step_rows
from prio.yunikorn import engine
from prio.yunikorn.dominance import insertion_sort
from prio.yunikorn.resources import strictly_greater
from prio.yunikorn.tieorder import TieOrders
from strategies import an_example, pendings, scenarios, tie_groups, vectors

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _insertion_first(items, key):
    """Go's insertion sort of a tie group by pending strictly greater (the order the engine keeps)."""
    out = list(items)
    return insertion_sort(out, [key(x) for x in out], strictly_greater)


class Obj:
    def __init__(self, name, pending):
        self.name, self.pending, self.version = name, pending, 0


def _entry(o):
    return (0, 0.0, o.name, o.version, o)


@settings(SETTINGS, max_examples=100)
@given(st.lists(pendings(("vcore", "memory")), min_size=2, max_size=30), st.lists(st.none() | pendings(("vcore", "memory"))))
def test_removing_a_prefix_of_the_order_keeps_the_rest_and_anything_else_sorts_again(pending, changes):
    """The group loses its first (scheduled or dropped: None in `changes`, and every step
    once `changes` runs out) or its first changes and stays (a new entry)."""
    objs = [Obj(f"q{i:02}", p) for i, p in enumerate(pending)]
    entries = {o.name: _entry(o) for o in objs}
    heap = []
    cache = TieOrders()
    calls = []
    changes = iter(changes)

    def sort(g):
        calls.append(len(g))
        return _insertion_first(g, lambda e: e[4].pending)

    while entries:
        group = [entries[n] for n in sorted(entries)]
        got = cache.order(heap, group, sort)
        assert got == _insertion_first(group, lambda e: e[4].pending)
        first = got[0][4]
        change = next(changes, None)
        if change is not None:  # the first one changes and stays in the group: a new entry
            first.pending = change
            first.version += 1
            entries[first.name] = _entry(first)
        else:  # scheduled or dropped: it leaves the group
            del entries[first.name]
    assert calls[0] > 1


def test_a_cached_order_is_reused_only_for_the_same_entries():
    a, b, c = Obj("a", {"x": 1}), Obj("b", {"x": 2}), Obj("c", {"x": 3})
    ea, eb, ec = _entry(a), _entry(b), _entry(c)
    heap, cache = [], TieOrders()
    sorts = []
    sort = lambda g: sorts.append(1) or _insertion_first(g, lambda e: e[4].pending)
    assert [e[2] for e in cache.order(heap, [ea, eb, ec], sort)] == ["c", "b", "a"]
    assert [e[2] for e in cache.order(heap, [ea, eb], sort)] == ["b", "a"] and len(sorts) == 1
    assert [e[2] for e in cache.order(heap, [ea, eb], sort)] == ["b", "a"] and len(sorts) == 1
    d = _entry(Obj("d", {"x": 9}))  # a new member: sorted again
    assert [e[2] for e in cache.order(heap, [ea, eb, d], sort)] == ["d", "b", "a"] and len(sorts) == 2


def _run(queues, asks, reference_engine=False, fast=True, checked=False):
    e = build_engine(queues, asks, "reference" if reference_engine else "auto", placement=False)
    if not fast:  # every step by the general walk
        e._fast_pick = lambda: None
    if checked:  # every re-key checks pending resources, as if some ask asked for nothing
        e._positive = False
    return step_rows(e.run()), [tuple(u) for u in e.leftovers()]


@pytest.mark.parametrize("types", [(), ("pods",), ("vcore",), ("vcore", "memory"), ("vcore", "memory", "gpu")])
@settings(SETTINGS, max_examples=12)
@given(data=st.data())
def test_the_kept_tie_orders_give_the_reference_engines_order(types, data):
    queues, asks = data.draw(tie_groups(types, partial=True))
    assert _run(queues, asks) == _run(queues, asks, reference_engine=True)


@pytest.mark.parametrize("types", [("vcore",), ("vcore", "memory"), ("vcore", "memory", "gpu")])
@settings(SETTINGS, max_examples=3)
@given(data=st.data())
def test_big_tie_groups_give_the_reference_engines_order(types, data):
    """Tens of siblings tied, maxes on some leaves and a capacity that runs out."""
    queues, asks = data.draw(tie_groups(types, big=True, limits=True))
    assert _run(queues, asks) == _run(queues, asks, reference_engine=True)


TYPES = pytest.mark.parametrize("types", [("pods",), ("memory", "vcore"), ("gpu", "memory", "vcore")])


@TYPES
@settings(SETTINGS, max_examples=60)
@given(data=st.data())
def test_pending_vectors_compare_as_the_dicts_do(types, data):
    """Ties are ordered and checked on tuples over the ask types (missing = 0): the same answers
    as YuniKorn's dominance over the dicts, negative quantities included."""
    from prio.yunikorn.dominance import dominates_vec, tied_vec
    from prio.yunikorn.model import vector_of

    vec = vector_of(types)
    l, r = data.draw(pendings(types, -2, 3, partial=True)), data.draw(pendings(types, -2, 3, partial=True))
    lv, rv = vec(l), vec(r)
    assert dominates_vec(lv, rv) == strictly_greater(l, r)
    if len(types) == 2:
        assert engine._dominates_vec2(lv, rv) == strictly_greater(l, r)
    assert tied_vec(lv, rv) == (not strictly_greater(l, r) and not strictly_greater(r, l))


@TYPES
@settings(SETTINGS, max_examples=40)
@given(data=st.data())
def test_a_tie_notes_scan_names_the_first_four_tied_and_more(types, data):
    """The tie note's scan: the first four tied (inline for two types), a fifth as "more"."""
    from prio.yunikorn.dominance import first_tied, tied_vec
    from prio.yunikorn.model import vector_of

    vec = vector_of(types)
    cv = vec(data.draw(pendings(types, 0, 3)))
    entries = [(vec(p), i) for i, p in enumerate(data.draw(st.lists(pendings(types, 0, 3), max_size=12)))]
    want = [i for v, i in entries if tied_vec(cv, v)]
    assert first_tied(cv, iter(entries), 0, 1) == (want[:4], len(want) > 4)
    odd = [i for i in want if i % 2]
    assert first_tied(cv, iter(entries), 0, 1, lambda i: i % 2) == (odd[:4], len(odd) > 4)


@TYPES
@settings(SETTINGS, max_examples=40)
@given(data=st.data())
def test_the_insertion_sort_over_vectors_is_the_one_over_dicts(types, data):
    """The engine's insertion sort of a tie group by the pending vectors its entries carry."""
    from prio.yunikorn.engine import _insertion_first_vec
    from prio.yunikorn.model import vector_of

    vec = vector_of(types)
    objs = [Obj(f"q{i:02}", p) for i, p in enumerate(data.draw(st.lists(pendings(types, 0, 3, partial=True), min_size=1, max_size=25)))]
    entries = [_entry(o) + (vec(o.pending),) for o in objs]
    assert _insertion_first_vec(entries) == _insertion_first(entries, lambda e: e[4].pending)


def _negated_suffix_maxima(vectors):
    """The definition of scan_end's bounds: per type, -max(v[t] for v in vectors[k:]) for each k."""
    return [[-max(v[t] for v in vectors[k:]) for k in range(len(vectors))] for t in range(len(vectors[0]))]


def _bounded_and_plain(vectors):
    from prio.yunikorn.dominance import dominates_vec, insertion_sort, insertion_sort_bounded

    entries = [(f"q{i:02}", v) for i, v in enumerate(vectors)]
    return entries, insertion_sort_bounded(entries, 1), insertion_sort(list(entries), list(vectors), dominates_vec)


@TYPES
@settings(SETTINGS, max_examples=100)
@given(data=st.data())
def test_the_bounded_insertion_sort_is_the_insertion_sort(types, data):
    """insertion_sort_bounded (bisection over the negated suffix maxima of the entries placed so
    far) orders as comparing neighbours one by one does, and gives those maxima of the result."""
    entries, (got, bounds), want = _bounded_and_plain(data.draw(vectors(len(types), 9, unique=True)))
    assert got == want
    assert bounds == (_negated_suffix_maxima([v for _, v in got]) if got else [])
    event("reordered" if got != entries else "kept in order")


@TYPES
def test_the_bounded_insertion_sort_is_checked_on_inputs_it_reorders(types):
    """The property above is not only about inputs already in order."""
    def reordered(vs):
        entries, (got, _), _ = _bounded_and_plain(vs)
        return got != entries

    an_example(vectors(len(types), 9, unique=True), reordered)


def _scan(types, data):
    """Vectors (all different, mostly), the bounds scan_end takes (none where two are equal), a
    start, and where it stops."""
    from prio.yunikorn.dominance import scan_end

    distinct = data.draw(st.integers(0, 3)) < 3  # (only then are there bounds)
    vs = data.draw(vectors(len(types), 40 if len(types) == 1 else 6, min_size=1, max_size=15, unique=distinct))
    n = len(vs)
    bounds = _negated_suffix_maxima(vs) if len(set(vs)) == n else None
    start = data.draw(st.integers(0, n - 1))
    return vs, bounds, start, scan_end(bounds, vs[start], start + 1, n)


@TYPES
@settings(SETTINGS, max_examples=100)
@given(data=st.data())
def test_scan_end_skips_only_what_is_dominated(types, data):
    """A tie note's scan stops where the rest of the group is all dominated by the vector it is
    for; without bounds (two equal vectors in the group) it scans to the end."""
    from prio.yunikorn.dominance import dominates_vec

    vs, bounds, start, end = _scan(types, data)
    n = len(vs)
    assert start + 1 <= end <= n
    assert all(dominates_vec(vs[start], v) for v in vs[end:])
    if bounds is None:
        assert end == n
    elif end < n:
        event("stopped early")
        # the first place it may stop: the one before is not dominated (else it stops there)
        assert end == start + 1 or not all(dominates_vec(vs[start], v) for v in vs[end - 1:])


@TYPES
def test_scan_end_is_checked_where_it_stops_early(types):
    """The property above reaches a scan that stops before the end."""
    def early(data):
        vs, bounds, _, end = _scan(types, data)
        return bounds is not None and end < len(vs)

    an_example(st.data(), early)


@settings(SETTINGS, max_examples=70)
@given(scenarios(limits=True))
def test_the_fast_pick_takes_what_the_general_walk_takes(scenario):
    """The fast pick is only a shortcut: without it (every step by the general walk) every
    scenario (maxapplications, maxes, a capacity, running applications, fences and offsets, fair
    and fifo leaves, priority sorting off, equal keys: everything it must step aside for) gives
    the same steps, tie notes and leftovers."""
    queues, asks = scenario
    assert _run(queues, asks) == _run(queues, asks, fast=False)


def _trusted(scenario) -> bool:
    """Whether every ask of the scenario asks for something."""
    return all(any(a.get("resources", {"pods": 1}).values()) for app in scenario[1]["applications"] for a in app["asks"])


@settings(SETTINGS, max_examples=70)
@given(scenarios(limits=True))
def test_pending_is_checked_only_where_an_ask_could_leave_it_empty(scenario):
    """The engine skips the strictly-positive check of pending resources when every ask asks
    for something: the same steps as checking every time."""
    queues, asks = scenario
    assert _run(queues, asks) == _run(queues, asks, checked=True)
    event("every ask asks for something" if _trusted(scenario) else "an ask for nothing")


@pytest.mark.parametrize("trusted", [True, False])
def test_scenarios_with_asks_for_nothing_and_without_are_told_apart(trusted):
    """The property above sees both: scenarios where the check decides, and where it is skipped."""
    an_example(scenarios(limits=True), lambda sc: _trusted(sc) == trusted)


def test_a_tie_note_reads_as_its_text_and_compares_as_it():
    """TieNote: who tied, its text made when read (names sorted, ', ...' when more tied); equal
    to, and hashed as, that text, so the notes of both engines and plain strings compare."""
    from types import SimpleNamespace as NS

    from prio.yunikorn.step import TieNote

    queues = TieNote("queues", [NS(path="root.b"), NS(path="root.a")])
    apps = tuple.__new__(TieNote, ("applications", [NS(app_id="y"), NS(app_id="x")], True))
    assert str(queues) == "queues root.a, root.b" and str(apps) == "applications x, y, ..."
    assert queues == "queues root.a, root.b" and "queues root.a, root.b" == queues
    assert queues != "queues root.a" and not (queues != "queues root.a, root.b")
    assert queues == TieNote("queues", [NS(path="root.a"), NS(path="root.b")]) and queues != apps
    assert (queues,) == ("queues root.a, root.b",) and hash(queues) == hash("queues root.a, root.b")
    assert repr(apps) == repr("applications x, y, ...") and queues != ("queues", [], False)
    assert "; ".join(map(str, (queues, apps))) == "queues root.a, root.b; applications x, y, ..."
