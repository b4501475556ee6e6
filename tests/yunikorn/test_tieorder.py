"""Tie groups keep their order between steps (yunikorn/tieorder.py) and, with one resource type,
the heap orders them by pending: the scheduling order is exactly what sorting every group again
every step gives."""
import json
import random

import pytest

from builders import build_engine, step_rows
from prio.yunikorn import engine
from prio.yunikorn.dominance import insertion_sort
from prio.yunikorn.resources import strictly_greater
from prio.yunikorn.tieorder import TieOrders


def _insertion_first(items, key):
    """Go's insertion sort of a tie group by pending strictly greater (the order the engine keeps)."""
    out = list(items)
    return insertion_sort(out, [key(x) for x in out], strictly_greater)


class Obj:
    def __init__(self, name, pending):
        self.name, self.pending, self.version = name, pending, 0


def _entry(o):
    return (0, 0.0, o.name, o.version, o)


def test_removing_a_prefix_of_the_order_keeps_the_rest_and_anything_else_sorts_again():
    rnd = random.Random(3)
    for _ in range(300):
        objs = [Obj(f"q{i:02}", {"vcore": rnd.randint(0, 4), "memory": rnd.randint(0, 4)}) for i in range(rnd.randint(2, 30))]
        entries = {o.name: _entry(o) for o in objs}
        heap = []
        cache = TieOrders()
        calls = []

        def sort(g):
            calls.append(len(g))
            return _insertion_first(g, lambda e: e[4].pending)

        while entries:
            group = [entries[n] for n in sorted(entries)]
            got = cache.order(heap, group, sort)
            assert got == _insertion_first(group, lambda e: e[4].pending)
            first = got[0][4]
            if rnd.random() < 0.2:  # the first one changes and stays in the group: a new entry
                first.pending = {"vcore": rnd.randint(0, 4), "memory": rnd.randint(0, 4)}
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
    sort = lambda g: sorts.append(1) or _insertion_first(g, lambda e: e[4].pending)  # noqa: E731
    assert [e[2] for e in cache.order(heap, [ea, eb, ec], sort)] == ["c", "b", "a"]
    assert [e[2] for e in cache.order(heap, [ea, eb], sort)] == ["b", "a"] and len(sorts) == 1
    assert [e[2] for e in cache.order(heap, [ea, eb], sort)] == ["b", "a"] and len(sorts) == 1
    d = _entry(Obj("d", {"x": 9}))  # a new member: sorted again
    assert [e[2] for e in cache.order(heap, [ea, eb, d], sort)] == ["d", "b", "a"] and len(sorts) == 2


def _scenario(rnd, types):
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []
    for t in range(rnd.randint(2, 5)):
        lines += [f"          - name: p{t}", "            queues:"]
        for l in range(rnd.randint(2, 8)):
            lines += [f"              - name: l{l}"]
            leaves.append(f"root.p{t}.l{l}")
    apps = []
    for i in range(rnd.randint(5, 40)):
        asks = []
        for _ in range(rnd.randint(1, 6)):
            a = {"priority": rnd.choice([0, 0, 0, 1])}
            if types:
                a["resources"] = {k: rnd.choice([1, 2, 3]) for k in types if rnd.random() < 0.8} or {types[0]: 1}
            asks.append(a)
        apps.append({"id": f"app-{i}", "queue": rnd.choice(leaves), "asks": asks})
    return "\n".join(lines) + "\n", json.dumps({"applications": apps})


def _run(queues, asks, reference_engine=False, fast=True, checked=False):
    e = build_engine(queues, asks, "reference" if reference_engine else "auto", placement=False)
    if not fast:  # every step by the general walk
        e._fast_pick = lambda: None
    if checked:  # every re-key checks pending resources, as if some ask asked for nothing
        e._positive = False
    return step_rows(e.run()), [tuple(u) for u in e.leftovers()]


@pytest.mark.parametrize("types", [(), ("pods",), ("vcore",), ("vcore", "memory"), ("vcore", "memory", "gpu")])
def test_the_kept_tie_orders_give_the_reference_engines_order(types):
    rnd = random.Random(len(types))
    for _ in range(25):
        queues, asks = _scenario(rnd, list(types))
        assert _run(queues, asks) == _run(queues, asks, reference_engine=True)


def _big_scenario(rnd, types):
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []
    for t in range(3):
        lines += [f"          - name: p{t}", "            queues:"]
        for l in range(rnd.randint(10, 30)):
            lines += [f"              - name: l{l:02}"]
            if rnd.random() < 0.2:
                lines += ["                resources:", f"                  max: {{{types[0]}: {rnd.randint(2, 8)}}}"]
            leaves.append(f"root.p{t}.l{l:02}")
    apps = []
    for i in range(rnd.randint(60, 140)):
        asks = [{"priority": 0, "resources": {k: rnd.choice([1, 2, 4]) for k in types}} for _ in range(rnd.randint(1, 4))]
        apps.append({"id": f"app-{i}", "queue": rnd.choice(leaves), "asks": asks})
    snap = {"applications": apps}
    if rnd.random() < 0.5:  # a capacity that runs out: queues are dropped on the way
        snap["capacity"] = {k: rnd.randint(100, 600) for k in types}
    return "\n".join(lines) + "\n", json.dumps(snap)


@pytest.mark.parametrize("types", [("vcore",), ("vcore", "memory"), ("vcore", "memory", "gpu")])
def test_big_tie_groups_give_the_reference_engines_order(types):
    rnd = random.Random(7 + len(types))
    for _ in range(4):
        queues, asks = _big_scenario(rnd, list(types))
        assert _run(queues, asks) == _run(queues, asks, reference_engine=True)


@pytest.mark.parametrize("types", [("pods",), ("memory", "vcore"), ("gpu", "memory", "vcore")])
def test_pending_vectors_compare_as_the_dicts_do(types):
    """Ties are ordered and checked on tuples over the ask types (missing = 0): the same answers
    as YuniKorn's dominance over the dicts, negative quantities included."""
    from prio.yunikorn.dominance import dominates_vec as _dominates_vec
    from prio.yunikorn.dominance import first_tied
    from prio.yunikorn.dominance import tied_vec as _tied_vec
    from prio.yunikorn.engine import _insertion_first_vec
    from prio.yunikorn.model import vector_of
    from prio.yunikorn.resources import strictly_greater as _dominates

    vec = vector_of(types)
    rnd = random.Random(len(types))
    for _ in range(3000):
        l = {k: rnd.randint(-2, 3) for k in types if rnd.random() < 0.8}
        r = {k: rnd.randint(-2, 3) for k in types if rnd.random() < 0.8}
        lv, rv = vec(l), vec(r)
        assert _dominates_vec(lv, rv) == _dominates(l, r)
        if len(types) == 2:
            assert engine._dominates_vec2(lv, rv) == _dominates(l, r)
        assert _tied_vec(lv, rv) == (not _dominates(l, r) and not _dominates(r, l))
    # the tie note's scan: the first four tied (inline for two types), a fifth as "more"
    for _ in range(300):
        cv = vec({k: rnd.randint(0, 3) for k in types})
        entries = [(vec({k: rnd.randint(0, 3) for k in types}), i) for i in range(rnd.randint(0, 12))]
        want = [i for v, i in entries if _tied_vec(cv, v)]
        assert first_tied(cv, iter(entries), 0, 1) == (want[:4], len(want) > 4)
        assert first_tied(cv, iter(entries), 0, 1, lambda i: i % 2) == ([i for i in want if i % 2][:4], len([i for i in want if i % 2]) > 4)
    for _ in range(200):
        objs = [Obj(f"q{i:02}", {k: rnd.randint(0, 3) for k in types if rnd.random() < 0.8}) for i in range(rnd.randint(1, 25))]
        entries = [_entry(o) + (vec(o.pending),) for o in objs]
        assert _insertion_first_vec(entries) == _insertion_first(entries, lambda e: e[4].pending)


def _negated_suffix_maxima(vectors):
    """The definition of scan_end's bounds: per type, -max(v[t] for v in vectors[k:]) for each k."""
    return [[-max(v[t] for v in vectors[k:]) for k in range(len(vectors))] for t in range(len(vectors[0]))]


@pytest.mark.parametrize("types", [("pods",), ("memory", "vcore"), ("gpu", "memory", "vcore")])
def test_the_bounded_insertion_sort_is_the_insertion_sort(types):
    """insertion_sort_bounded (bisection over the negated suffix maxima of the entries placed so
    far) orders as comparing neighbours one by one does, and gives those maxima of the result."""
    from prio.yunikorn.dominance import dominates_vec, insertion_sort, insertion_sort_bounded

    rnd = random.Random(11 * len(types))
    moved = 0
    for _ in range(3000):
        vectors = list({tuple(rnd.randint(0, 9) for _ in types) for _ in range(rnd.randint(0, 30))})
        rnd.shuffle(vectors)
        entries = [(f"q{i:02}", v) for i, v in enumerate(vectors)]
        want = insertion_sort(list(entries), list(vectors), dominates_vec)
        got, bounds = insertion_sort_bounded(entries, 1)
        assert got == want
        moved += got != entries
        assert bounds == (_negated_suffix_maxima([v for _, v in got]) if got else [])
    assert moved > 1000


@pytest.mark.parametrize("types", [("pods",), ("memory", "vcore"), ("gpu", "memory", "vcore")])
def test_scan_end_skips_only_what_is_dominated(types):
    """A tie note's scan stops where the rest of the group is all dominated by the vector it is
    for; without bounds (two equal vectors in the group) it scans to the end."""
    from prio.yunikorn.dominance import dominates_vec, scan_end

    rnd = random.Random(7 * len(types))
    stopped_early = 0
    for _ in range(2000):
        n = rnd.randint(1, 15)
        vectors = [tuple(rnd.randint(0, 40 if len(types) == 1 else 6) for _ in types) for _ in range(n)]
        bounds = _negated_suffix_maxima(vectors) if len(set(vectors)) == n else None
        start = rnd.randrange(n)
        end = scan_end(bounds, vectors[start], start + 1, n)
        assert start + 1 <= end <= n
        assert all(dominates_vec(vectors[start], v) for v in vectors[end:])
        if bounds is None:
            assert end == n
        elif end < n:
            stopped_early += 1
            # the first place it may stop: the one before is not dominated (else it stops there)
            assert end == start + 1 or not all(dominates_vec(vectors[start], v) for v in vectors[end - 1:])
    assert stopped_early > 100


def _rich_scenario(rnd):
    """Everything the fast pick must step aside for: maxapplications, maxes, a capacity, running
    applications, fences and offsets, fair and fifo leaves, priority sorting off, equal keys."""
    types = rnd.choice([("pods",), ("vcore", "memory")])
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    leaves = []

    def props(indent, leaf):
        out = []
        if rnd.random() < 0.3:
            out.append(f"priority.offset: \"{rnd.randint(-3, 3)}\"")
        if rnd.random() < 0.15:
            out.append("priority.policy: fence")
        if leaf and rnd.random() < 0.5:
            out.append("application.sort.policy: fair")
        if rnd.random() < 0.15:
            out.append("application.sort.priority: disabled")
        lines.extend([" " * indent + "properties:"] + [" " * (indent + 2) + p for p in out] if out else [])
        if rnd.random() < 0.15:
            lines.append(" " * indent + f"maxapplications: {rnd.randint(1, 3)}")
        if leaf and rnd.random() < 0.15:
            lines.extend([" " * indent + "resources:", " " * (indent + 2) + f"max: {{{types[0]}: {rnd.randint(2, 6)}}}"])

    for t in range(rnd.randint(1, 4)):
        lines.append(f"          - name: p{t}")
        props(12, False)
        lines.append("            queues:")
        for l in range(rnd.randint(1, 5)):
            lines.append(f"              - name: l{l}")
            props(16, True)
            leaves.append(f"root.p{t}.l{l}")
    apps = []
    empty = rnd.random() < 0.3
    for i in range(rnd.randint(3, 30)):
        asks = []
        for _ in range(rnd.randint(1, 5)):
            a = {"priority": rnd.choice([0, 0, 1, 2, -1])}
            if types != ("pods",):
                a["resources"] = {k: rnd.choice([1, 2]) for k in types}
            if empty and rnd.random() < 0.1:  # an ask for nothing: pending resources can run out first
                a["resources"] = rnd.choice([{}, {types[0]: 0}])
            asks.append(a)
        app = {"id": f"app-{i}", "queue": rnd.choice(leaves), "asks": asks}
        if rnd.random() < 0.3:
            app["submitTime"] = rnd.randint(1, 3)
        if rnd.random() < 0.15:
            app["state"] = "Running"
        apps.append(app)
    snap = {"applications": apps}
    if rnd.random() < 0.4:
        snap["capacity"] = {k: rnd.randint(5, 40) for k in types}
    return "\n".join(lines) + "\n", json.dumps(snap)


def test_the_fast_pick_takes_what_the_general_walk_takes():
    """The fast pick is only a shortcut: without it (every step by the general walk) every
    scenario gives the same steps, tie notes and leftovers."""
    rnd = random.Random(13)
    for _ in range(300):
        queues, asks = _rich_scenario(rnd)
        want = _run(queues, asks, fast=False)
        assert _run(queues, asks) == want, (queues, asks)


def test_pending_is_checked_only_where_an_ask_could_leave_it_empty():
    """The engine skips the strictly-positive check of pending resources when every ask asks
    for something: the same steps as checking every time, and scenarios with asks for nothing
    (where the check decides) are told apart."""
    rnd = random.Random(17)
    trusted = 0
    for _ in range(300):
        queues, asks = _rich_scenario(rnd)
        got = _run(queues, asks)
        assert got == _run(queues, asks, checked=True), (queues, asks)
        trusted += all(any(a.get("resources", {"pods": 1}).values()) for app in json.loads(asks)["applications"] for a in app["asks"])
    assert 150 < trusted < 280


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
