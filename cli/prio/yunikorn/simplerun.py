"""The whole scheduling run for the commonest inputs without limits, in a loop of its own: no
capacity, no max, guaranteed or maxapplications anywhere, no Stopped queue, every ask asking for
something and naming every resource type the asks use (a snapshot without node data asks for
`{pods: 1}`; vcore+memory asks name both). Pure: no I/O.

Such a run never sets an ask aside, so the general engine's machinery for it (resources as
dicts of any types, versioned heap entries, limits, the general walk) only costs time. Here
every count is an int (one type, _run_one) or a tuple of ints over the types (_run_vectors),
every parent's heap holds exactly the current entries (with two or more types, a parent's
children are held by key, each key's children together: see _run_vectors), a leaf's holds its
plan (_plan_leaf's sequence) and every fair max is positive, so a step takes
the first child at each level and its leaf's next allocation, then updates and re-keys the
path. The order is Engine.step's, to the letter:

- siblings by (priority, fair share) as the parent sorts them; with one resource type also by
  more pending (the general engine keys them so: a tie is then between equals, in name order);
  with more, a tie group (all current children equal on the key) is ordered as YuniKorn's sort
  orders it, by an insertion sort over pending dominance of the children in name order
  (dominance.insertion_sort, or insertion_sort_bounded when their pending vectors all differ),
  and kept between steps as the general engine keeps it (the rest of the group stays in order,
  out of the heap, until a child joins it: see tieorder.py). Keys only grow here (a queue's
  priority only falls, as an application's asks go highest first, and its share only grows),
  so nothing in the heap ever comes before a parked group: a child re-keyed to the group's
  key joins it, and the general engine's other cases do not arise;
- a leaf's applications by its sort policy's key, then id. Which application a leaf takes
  from next depends on nothing outside the leaf, so each leaf's allocations are worked out
  before the run, a leaf at a time (_plan_leaf): one walk over a leaf's own applications and
  asks while they are in the cache, where interleaving it with a million steps over 10,000
  leaves missed the cache at every turn. Both runs plan the queues above the leaves the same
  way (_plan_parent, _plan_parent_one), children before parents, and read the steps off the
  plans (_read_steps);
- the tie notes, the fair share, the usage key and the priority changes as Engine.step has them
  (a tie group's notes all at once when it is formed: _queue_tie_notes).

At the end the state the rest of prio reads is as the general run leaves it (per-queue and
per-application resources as dicts, priorities, trackers, placed and first/last steps), and the
heaps are left to be built again should anyone step further. tests/yunikorn/test_simplerun.py
checks steps, tie notes, leftovers and that state against the general engine.
"""
from __future__ import annotations

import heapq
from bisect import bisect_left, insort
from itertools import islice
from operator import add, sub, truediv
from typing import cast

from prio.values import INT32_MIN
from prio.yunikorn import features as F
from prio.yunikorn import reference
from prio.yunikorn.dominance import dominates_vec, first_tied, insertion_sort, insertion_sort_bounded, scan_end, tied_vec
from prio.yunikorn.gosort import BLOCK, dominating, first_of_group
from prio.yunikorn.keptsort import KeptSort
from prio.yunikorn.priorities import change, report_level
from prio.yunikorn.step import NO_CHANGES, Step, TieNote

MIN = INT32_MIN
# A tie group of at most FEW children has its first worked out from its own positions
# (gosort.first_of_group), a larger one by the KeptSort, which keeps what did not change.
# Counted with benchmarks/instructions.py (0, 5, 8, 12): 8 the fewest on fenced vcore+memory
# (200,000 asks) and equal priorities (100,000), 1.3% and 0.3% of the whole process below 0
FEW = 8
PLANNED = 0.75  # _run_vectors' share of the progress bar for planning (about its share of the time)


# What this run supports (features.py): no limit of any kind, no REST queue state, one fair max
# for every type; offsets, fences, both sort policies, many siblings and running work are fine.
SUPPORTS = frozenset({F.OFFSET, F.FENCE, F.FAIR_SORT, F.PRIORITY_SORT_OFF, F.SIBLINGS_OVER_20, F.RUNNING, F.TYPES})


def ready(eng) -> bool:
    """Whether the engine is as this run needs it: some ask, and no step taken yet (no ask is
    allocated or set aside, which the runs' bookkeeping counts on)."""
    return bool(eng._ask_types) and not eng.steps_done and not eng._heaps_ready


def fits(eng) -> bool:
    """Whether this run can take the whole of the engine's input (before any step)."""
    return ready(eng) and F.used(eng) <= SUPPORTS


# The keys below are inline copies of reference.app_key (with usage_shares: _usage_one,
# _usage_vector and _plan_leaf's two-type copy) and queue_key /
# queue_key_pending (with fair_share), over this run's ints and tuples instead of dicts. With
# reference.CHECK_CACHES each key the run makes is compared with the statement's (_check_app,
# _check_queue), and each tie note with reference.queue_tie_note and app_tie_note (_check_tie,
# _check_app_tie); the flag is read once per run or plan into a local, so the runs pay nothing
# for it when it is off.

def _usage_one(st) -> tuple:
    """reference.usage_shares of st's usage, the one-type run's int (no guaranteed: fits)."""
    return (float(st.usage),)


def _usage_vector(st) -> tuple:
    """reference.usage_shares of st's usage, a tuple over the run's types (no guaranteed, every
    type counted: no padding)."""
    return tuple(sorted(map(float, st.usage), reverse=True))


def _app_entry(st, usage_key) -> tuple:
    """st's entry in its leaf's heap (Engine._akey; without guaranteed the usage key is the
    usage as floats, largest first: usage_key(st), asked only of a fair leaf)."""
    leaf = st.leaf
    if leaf.sort_policy == "fair":
        uk = usage_key(st)
        k1, k2 = (-st.prio, uk) if leaf.sort_priority else (uk, -st.prio)
    elif leaf.sort_priority:
        k1, k2 = -st.prio, st.key_submit
    else:
        k1, k2 = st.key_submit, -st.prio
    if reference.CHECK_CACHES:
        _check_app(st, (k1, k2))
    return (k1, k2, st.app_id, st)


def _queue_key(x, divisors) -> tuple:
    """x's key in its parent (Engine._push: (priority, share) as the parent sorts them, shares
    against the fair max), as _run_vectors builds it inline."""
    sh = 0.0
    for a, d in zip(x.allocated, divisors):
        if a > 0 and d is not None:
            v = 1.0 if d <= 0 else a / d
            if v > sh:
                sh = v
    key = (-x.reported, sh) if x.parent.sort_priority else (sh, -x.reported)
    if reference.CHECK_CACHES:
        _check_queue(x, key, divisors)
    return key


class _Counts:
    """A queue or application of this run as the statement reads it: its counts (an int, or a
    tuple over the run's types) as a dict by position, no guaranteed (fits: none)."""

    __slots__ = ("allocated", "guaranteed")

    def __init__(self, counts):
        self.allocated = dict(enumerate(counts if type(counts) is tuple else (counts,)))
        self.guaranteed = None


def _check_app(st, key: tuple) -> None:
    """CHECK_CACHES: an application's key in its leaf's heap, (k1, k2), against reference.app_key
    over its priority (the highest of its asks not yet taken: asks[live:], highest first) and
    the policy's value (reference.usage_shares of its usage, or its submission time)."""
    leaf = st.leaf
    assert not leaf.guaranteed, leaf.path  # (fits: no guaranteed)
    live = max((a.priority for a in st.asks[st.live:]), default=MIN)
    reference.key_drift("application priority", st.app_id, st.prio, live)
    if leaf.sort_policy == "fair":
        usage = _Counts(st.usage).allocated
        other = reference.usage_shares(usage, None, len(usage))
    else:
        other = st.key_submit
    reference.key_drift("application key", st.app_id, key, reference.app_key(leaf.sort_priority, live, other))


def _check_queue(x, key: tuple, divisors, pending=None) -> None:
    """CHECK_CACHES: a queue's key in its parent's heap against reference.queue_key (with
    `pending`, the one-type run's: queue_key_pending) over reference.fair_share of its counts,
    `divisors` its fair max per position (None: none)."""
    assert not x.guaranteed, x.path  # (fits: no guaranteed)
    fm = {j: d for j, d in enumerate(divisors) if d is not None}
    share = reference.fair_share(_Counts(x.allocated), fm)
    prio_first = x.parent.sort_priority
    if pending is None:
        want = reference.queue_key(prio_first, x.reported, share)
    else:
        want = reference.queue_key_pending(prio_first, x.reported, share, pending)
    reference.key_drift("queue key", x.path, key, want)


class _Child:
    """A child of a parent this run plans, as reference.sort_queues and queue_tie_note read it:
    its counts by position (_Counts), its fair max by position (its record's share divisors),
    what it reports, what it has live, its parent; named as the queue is (a TieNote's text)."""

    __slots__ = ("name", "path", "parent", "reported", "allocated", "pending", "guaranteed", "fairmax", "live")

    def __init__(self, x):
        d = x.heap[2]  # its record's share divisors: one, or a tuple over the run's types
        self.name, self.path, self.parent, self.reported, self.live = x.name, x.path, x.parent, x.reported, x.live
        self.allocated = _Counts(x.allocated).allocated
        self.pending = _Counts(x.pending).allocated
        self.fairmax = {j: v for j, v in enumerate(d if type(d) is tuple else (d,)) if v is not None}
        self.guaranteed = None


def _check_tie(P, c, note) -> None:
    """CHECK_CACHES: the tie note of P's choice c as this run made it (None: no tie) against
    reference.queue_tie_note over P's children with something live, in YuniKorn's order
    (reference.sort_queues) at that moment. Holds _heap_tie_note's queue notes, _queue_tie_notes'
    and _choose_tied's, at every choice, a note or none."""
    assert not c.guaranteed, c.path  # (fits: no guaranteed)
    views = {id(x): _Child(x) for x in sorted(P.children, key=lambda x: x.name) if x.live > 0}
    order = reference.sort_queues(P, list(views.values()))
    reference.key_drift("tie note", c.path, note, reference.queue_tie_note(views[id(c)], order))


class _App:
    """An application of a leaf this run plans, as reference.sort_applications and app_tie_note
    read it: its asks, those taken (asks[:live], in order), its usage by position, its pending
    (what asks[live:] ask, by position),
    its leaf, id and submission time. t, vectors: as _plan_leaf's (the one type, or each
    shape's tuple)."""

    __slots__ = ("app_id", "leaf", "asks", "alloc", "dead", "usage", "pending", "key_submit", "blocked", "live")

    def __init__(self, st, t, vectors):
        self.app_id, self.leaf, self.asks, self.key_submit, self.live = st.app_id, st.leaf, st.asks, st.key_submit, st.live
        self.alloc = [i < st.live for i in range(len(st.asks))]
        self.dead: set = set()
        self.blocked = None
        self.usage = _Counts(st.usage).allocated
        left: dict = {}
        for a in st.asks[st.live:]:
            for j, v in _Counts(a.resources[t] if t is not None else vectors[id(a.resources)]).allocated.items():
                left[j] = left.get(j, 0) + v
        self.pending = left


def _check_app_tie(leaf, st, note, t, vectors) -> None:
    """CHECK_CACHES: the tie note of the leaf's allocation to st as _plan_leaf made it (None:
    no tie) against reference.app_tie_note over the leaf's applications at that moment."""
    views = {id(x): _App(x, t, vectors) for x in leaf.apps}
    n = len(views[id(st)].usage)
    order = reference.sort_applications(leaf, n, list(views.values()))
    reference.key_drift("tie note", st.app_id, note, reference.app_tie_note(views[id(st)], order, n))


def _heap_tie_note(heap: list, top: tuple, kind: str) -> TieNote:
    """Engine._say_tie's note when entries still in `heap` tie with `top` on the key and so
    neither comes first by anything but name (applications; queues of one resource type, whose
    key holds their pending): top and the first four of them (heap order, which is name order),
    and whether there are more."""
    group = []
    pop = heapq.heappop
    while heap and heap[0][0] == top[0] and heap[0][1] == top[1]:
        group.append(pop(heap))
    for e in group:
        heapq.heappush(heap, e)
    return TieNote(kind, [e[3] for e in group[:4]] + [top[3]], len(group) > 4)


def _first_app_tie_note(heap: list) -> TieNote:
    """_heap_tie_note for the application first in its leaf's heap, which stays there."""
    top = heapq.heappop(heap)
    note = _heap_tie_note(heap, top, "applications")
    heapq.heappush(heap, top)  # first again: names differ
    return note


def _queue_tie_notes(order: list, bounds: list | None) -> list:
    """Engine._queue_tie's note for each child of a tie group as it is taken in turn, order
    being YuniKorn's order of the group's entries (name, queue, pending vector): for order[s],
    the first four of order[s+1:] whose pending it does not dominate nor they its, ', ...' for a
    fifth; None where there is none (always for the last). All at once when the group is
    formed (its order and pending vectors do not change while it is walked), in one loop where
    a call per step would cost more than the scan. bounds: the group's negated suffix maxima
    (dominance.insertion_sort_bounded), which end a scan where the rest is all dominated by the
    child taken."""
    m = len(order)
    notes: list = [None] * m
    new_note = tuple.__new__  # TieNote's own, without the call through its __new__
    two = bounds is not None and len(bounds) == 2
    if two:
        assert bounds is not None  # (once per group)
        n0, n1 = bounds
    for s in range(m - 1):
        cv = order[s][2]
        # order[s] greatest of order[s:] in every type (its own suffix maximum) dominates the
        # rest (all different): so for most children of a big group, before any bisection
        if two:
            if n0[s] == -cv[0] and n1[s] == -cv[1]:
                continue
        elif bounds is not None and all(b[s] == -c for b, c in zip(bounds, cv)):
            continue
        lo = s + 1
        if two:  # scan_end and first_tied, inline: each costs a call per child otherwise
            c0, c1 = cv
            end = bisect_left(n0, -c0, lo, m)
            k = bisect_left(n1, -c1, lo, m)
            if k > end:
                end = k
            tied: list = []
            more = False
            for j in range(lo, end):
                e = order[j]
                v0, v1 = e[2]
                if (v0 - c0) * (v1 - c1) < 0:  # tied: each greater once (all different)
                    if len(tied) == 4:
                        more = True
                        break
                    tied.append(e[1])
        else:
            end = scan_end(bounds, cv, lo, m)
            if end <= lo:
                continue
            tied, more = first_tied(cv, islice(order, lo, end), 2, 1)
        if tied:
            tied.append(order[s][1])
            notes[s] = new_note(TieNote, ("queues", tied, more))
    return notes


def _plan_leaf(leaf, heap: list, t, vectors: dict | None, two: bool = False) -> list:
    """Every allocation the leaf will make, in its order, worked out before the run: which of
    its applications comes first (by the leaf's sort policy, then id) depends only on the
    leaf's own applications, never on when the run comes to the leaf.

    heap: the leaf's applications' entries (_app_entry), heapified; consumed. t: the one
    resource type of _run_one (usage an int); else None, and vectors: id(resources) -> its
    tuple over the types (usage a tuple; two: of two types). Returns, per allocation, the
    application's id, or where the step has more to say (its id, its tie note or None, its
    priority before, after), then the ask it takes: the note is _heap_tie_note's, when
    another application ties with it on the key. What a step needs is then in the sequence,
    and the run does not go back to the application (_plan_parent, _plan_parent_one and
    _read_steps read it). Each application's live, usage, priority and running flags, and the
    leaf's placement count, end as the run leaves them (nothing is set aside: it takes every
    ask)."""
    seq: list = []
    out = seq.append
    fair = leaf.sort_policy == "fair"
    fair_prio = fair and leaf.sort_priority
    usage_key = _usage_one if t is not None else _usage_vector
    # (for the type checker only: vectors is None only with t, and then never read)
    vectors = cast(dict, vectors)
    pop, replace = heapq.heappop, heapq.heapreplace
    check = reference.CHECK_CACHES
    last = note = None  # a non-fair leaf's first application holds while its priority does
    while heap:
        top = heap[0]
        if top is not last:
            note = None
            # a heap holding an entry equal to its first on the key holds one among its children
            h = len(heap)
            if h > 1:
                k1, k2 = top[0], top[1]
                e = heap[1]
                if e[0] == k1 and e[1] == k2 or h > 2 and heap[2][0] == k1 and heap[2][1] == k2:
                    note = _first_app_tie_note(heap)
        st = top[3]
        if check:
            _check_app_tie(leaf, st, note, t, vectors)
        asks = st.asks
        i = st.live
        ask = asks[i]
        i += 1
        st.live = i
        if not st.running:
            st.running = True
            for x in leaf.chain:
                x.running += 1
        if t is not None:
            st.usage += ask.resources[t]
        elif two:
            u0, u1 = st.usage
            v0, v1 = vectors[id(ask.resources)]
            st.usage = (u0 + v0, u1 + v1)
        else:
            st.usage = tuple(map(add, st.usage, vectors[id(ask.resources)]))
        old = st.prio
        new = asks[i].priority if i < len(asks) else MIN
        if new == old and note is None:
            out(st.app_id)
        else:
            st.prio = new
            out((st.app_id, note, old, new))
        out(ask)
        if i >= len(asks):
            pop(heap)
            last = None
        elif fair or new != old:
            if two and fair_prio:  # _app_entry with _usage_vector, inline: the usage as floats, largest first
                u0, u1 = float(u0 + v0), float(u1 + v1)
                e = (-new, (u0, u1) if u0 >= u1 else (u1, u0), top[2], st)
                if check:
                    _check_app(st, e[:2])
                replace(heap, e)
            else:
                replace(heap, _app_entry(st, usage_key))
            last = None
        else:  # its entry, still first, holds
            last = top
    leaf.placed += len(seq) // 2  # the run takes every allocation planned
    return seq


def run(eng, progress=None) -> list:
    """Every step until nothing is pending, as Engine.run() gives them (fits(eng) must hold)."""
    return (_run_one if len(eng._ask_types) == 1 else _run_vectors)(eng, progress)


def _run_one(eng, progress) -> list:
    """The run over one resource type: counts as ints; the key holds the pending, so a tie is
    between equals and the heap's name order is YuniKorn's order of it. Planned bottom up as
    _run_vectors plans it (each parent's choices in a loop over its own heap of children,
    _plan_parent_one), and the steps read off the plans the same way (_read_steps): at 200,000
    fenced asks the step-by-step walk touched 10,000 leaves' state in turn."""
    t = eng._ask_types[0]
    root = eng.root
    queues = list(root.walk())
    apps = eng.apps
    # ints in the pending/allocated/usage slots for the run: dicts again at the end, with the
    # keys the general run leaves (it adds the allocated ones)
    before = [(q.pending, q.allocated) for q in queues]
    app_before = [(st.pending, st.usage) for st in apps]
    for q in queues:
        q.pending = q.pending.get(t, 0)
        q.allocated = q.allocated.get(t, 0)
        q.heap = []
    push = heapq.heappush
    leaves: dict = {}  # the leaves with applications (in order)
    for st in apps:
        st.usage = st.usage.get(t, 0)
        leaf = st.leaf
        if leaf not in leaves:
            leaves[leaf] = eng.path_of(leaf)  # (its chain, which _plan_leaf counts running on)
        if st.live < len(st.asks):
            push(leaf.heap, _app_entry(st, _usage_one))
    for leaf in leaves:  # its heap of applications becomes its plan
        leaf.heap = _plan_leaf(leaf, leaf.heap, t, None)
    amounts = {i: r[t] for i, r in eng.ask_shapes.items()}  # id(resources) -> the amount (loaders share one dict per shape)

    def entry(x):  # Engine._push for one type: more pending first among equal (priority, share)
        a, d = x.allocated, x.fairmax.get(t)
        sh = 0.0 if a <= 0 or d is None else 1.0 if d <= 0 else a / d
        if x.parent.sort_priority:
            e = (-x.reported, (sh, -x.pending), x.name, x)
        else:
            e = (sh, (-x.reported, -x.pending), x.name, x)
        if reference.CHECK_CACHES:
            _check_queue(x, e[:2], (d,), x.pending)
        return e

    for q in queues:
        if q.parent is not None and q.live > 0:
            push(q.parent.heap, entry(q))
    # each queue's record for the run, as _run_vectors': its share divisor the one fair max
    for q in queues:
        q.heap = [0, 0, None if q.parent is None else q.fairmax.get(t), q.heap]
    total = root.live
    planned, to_plan = 0, sum(q.live for q in queues if not q.leaf) or 1
    for q in reversed(queues):  # children before their parents
        if not q.leaf:
            planned += q.live
            _plan_parent_one(q, root, amounts)
            if progress is not None:
                progress(int(total * PLANNED * planned / to_plan))
    for q in queues:
        if not q.leaf:
            q.heap[5] = None
    steps = _read_steps(eng, progress)
    for q in queues:
        q.pending, q.allocated = [q.pending], [q.allocated]
    for st in apps:
        st.usage = [st.usage]
    _write_back(eng, (t,), queues, before, app_before, eng.steps_done + len(steps))
    return steps


def _take(c, k: int, P, root, pchg: dict, amounts: dict):
    """What child c allocates at P's choice k, for P's plan (both runs): its leaf's next ask's
    amount (`amounts`: id(resources) -> the int or tuple over the run's types) or the next of
    its own plan's; and the priority change under c reaches c's tracker (report_level), then,
    when what c reports changed, pchg[k] (and root's tracker when P is root)."""
    rec = c.heap
    j = rec[0]
    rec[0] = j + 1
    if c.leaf:
        plan = rec[3]
        item = plan[2 * j]
        got = amounts[id(plan[2 * j + 1].resources)]
        ch = None
        if type(item) is tuple:  # the steps need only its id and note from here on: the rest goes
            if item[2] != item[3]:
                ch = (item[2], item[3])
            plan[2 * j] = item[0] if item[1] is None else (item[0], item[1])
    else:
        got = rec[5][j]
        ch = rec[6].get(j) if rec[6] else None
    if ch is not None:
        ch = report_level(c, ch[0], ch[1])
        if ch is not None:
            pchg[k] = ch
            if P is root:
                report_level(root, ch[0], ch[1])
    return got


def _plan_parent_one(P, root, amounts: dict) -> None:
    """_plan_parent for the one-type run: P's choices for every allocation under it, from its
    heap of children (Engine._push's entries: (priority, (share, -pending)) as P sorts them,
    then name), each choice re-keying the child taken. A tie on the key is between equals, and
    its note is the heap's (_heap_tie_note). P.heap becomes its record."""
    heap = P.heap[3]
    picks: list = []
    pnotes: list = []
    pvals: list | None = [] if P is not root else None
    pchg: dict = {}
    prio_first = P.sort_priority
    push, pop = heapq.heappush, heapq.heappop
    check = reference.CHECK_CACHES
    for k in range(P.live):
        if not heap:  # nothing placeable (cannot happen without limits)
            break
        top = pop(heap)
        note = None
        if heap and heap[0][0] == top[0] and heap[0][1] == top[1]:
            note = _heap_tie_note(heap, top, "queues")
        c = top[3]
        if check:
            _check_tie(P, c, note)
        v = _take(c, k, P, root, pchg, amounts)
        rec = c.heap
        c.pending = pend = c.pending - v
        c.allocated = a = c.allocated + v
        picks.append(c)
        pnotes.append(note)
        if pvals is not None:
            pvals.append(v)
        c.live = live = c.live - 1
        if live > 0:  # re-key c (entry(), inline: its fair max is positive, fits)
            if prio_first:
                e = (-c.reported, (a / rec[2], -pend), c.name, c)
            else:
                e = (a / rec[2], (-c.reported, -pend), c.name, c)
            if check:
                _check_queue(c, e[:2], (rec[2],), pend)
            push(heap, e)
    P.heap = [0, 0, P.heap[2], picks, pnotes, pvals, pchg]


def _run_vectors(eng, progress) -> list:
    """The run over two or more resource types: counts as tuples of ints over the types, tie
    groups ordered by pending dominance and kept between steps.

    Planned bottom up: which child a queue takes next depends only on its own subtree (keys,
    pending and priorities change only along the allocated path, and without limits nothing
    else comes in), so each leaf's allocations (_plan_leaf) and then each parent's choices
    among its children (_plan_parent), children before parents, are worked out in a loop over
    that queue's own children, and the steps are read off the plans at the end, top down. The
    work is the step-by-step run's; done a queue at a time it stays in the cache, where the
    step-by-step run touched 10,000 leaves' state in turn (at a million asks, equal
    priorities: 11.8 s -> 8.4 s).

    A parent's children are held by key, (priority, share) as the parent sorts them: the pair
    (a heap of the distinct keys, key -> the entry (name, queue, pending vector) of the one
    child with that key, or a list of the entries of two or more). Taking the least key takes
    its tie group whole, which sorting by name puts in the heap's order: no pop per child, and
    no name compared on a push. A lone child is its entry, not a list of one: most keys are one
    child's where priorities differ."""

    def order_of(group: list) -> tuple[list, list]:
        """group in name order -> YuniKorn's order of it, and the tie note of each child as it
        is taken in turn."""
        vectors = [e[2] for e in group]
        if len(set(vectors)) == len(vectors):
            order, bounds = insertion_sort_bounded(group, 2)
        else:  # two equal pending vectors: neighbour by neighbour, and notes scan to the end
            order, bounds = insertion_sort(list(group), vectors, dominates_vec), None
        return order, _queue_tie_notes(order, bounds)

    types = eng._ask_types
    n_types = len(types)
    root = eng.root
    queues = list(root.walk())
    apps = eng.apps
    # tuples of ints over the types in the pending/allocated/usage slots for the run: dicts again
    # at the end, with the keys the general run leaves (it adds the allocated ones)
    before = [(q.pending, q.allocated) for q in queues]
    for q in queues:
        q.pending = tuple([q.pending.get(t, 0) for t in types])
        q.allocated = tuple([q.allocated.get(t, 0) for t in types])
        q.heap = [] if q.leaf else ([], {})
    app_before = [(st.pending, st.usage) for st in apps]
    # id(resources) -> its tuple over the types (loaders share one dict per shape)
    vectors = {i: tuple([r[t] for t in types]) for i, r in eng.ask_shapes.items()}
    two = n_types == 2
    leaves: dict = {}  # the leaves with applications (in order)
    for st in apps:
        st.usage = tuple([st.usage.get(t, 0) for t in types])
        leaf = st.leaf
        if leaf not in leaves:
            leaves[leaf] = eng.path_of(leaf)  # (its chain, which _plan_leaf counts running on)
        if st.live < len(st.asks):
            heapq.heappush(leaf.heap, _app_entry(st, _usage_vector))
    for leaf in leaves:  # its heap of applications becomes its plan
        leaf.heap = _plan_leaf(leaf, leaf.heap, None, vectors, two)
    for q in queues:
        if q.parent is not None and q.live > 0:
            q.parent.heap[1].setdefault(_queue_key(q, [q.fairmax.get(t) for t in types]), []).append((q.name, q, q.pending))
    for q in queues:
        if not q.leaf:
            keys, groups = q.heap
            for key, g in groups.items():
                if len(g) == 1:  # a lone child is its entry
                    groups[key] = g[0]
            keys.extend(groups)
            heapq.heapify(keys)
    # Each queue's record for the run: [the next allocation its parent's plan takes, the next the
    # steps take, its share divisors, then a leaf's plan, or a parent's: the child it takes at
    # each allocation, the tie note of that choice or None, the resources it allocates (for its
    # own parent's plan), and {allocation: that child's priority change}]
    for q in queues:
        q.heap = [0, 0, None if q.parent is None else tuple([q.fairmax.get(t) for t in types]), q.heap]
    # progress, in steps: planning is most of the work, so the bar moves while the parents are
    # planned (up to PLANNED of the steps), then while the steps are read off the plans
    total = root.live
    planned, to_plan = 0, sum(q.live for q in queues if not q.leaf) or 1
    for q in reversed(queues):  # children before their parents
        if not q.leaf:
            planned += q.live
            _plan_parent(q, root, order_of, vectors, two)
            if progress is not None:
                progress(int(total * PLANNED * planned / to_plan))
    for q in queues:  # what a parent allocates was for its own parent's plan, now made
        if not q.leaf:
            q.heap[5] = None

    steps = _read_steps(eng, progress)
    _write_back(eng, types, queues, before, app_before, eng.steps_done + len(steps))
    return steps

def _read_steps(eng, progress) -> list:
    """The steps, read off the plans top down (both runs): at each parent its next choice, that
    choice's tie note and its child's priority change (leaf up), then the leaf's next
    allocation. Root's live count ends as the run leaves it."""
    root = eng.root
    steps = []
    n = eng.steps_done
    new_step = tuple.__new__
    total = root.live
    done = int(total * PLANNED)
    for _ in range(len(root.heap[3])):
        notes: tuple = ()  # the step's tie notes, top down
        changes = NO_CHANGES  # the step's priority changes, leaf up
        q = root
        while not q.leaf:
            rec = q.heap
            k = rec[1]
            rec[1] = k + 1
            note = rec[4][k]
            if note is not None:
                notes += (note,)
            c = rec[3][k]
            ch = rec[6].pop(k, None) if rec[6] else None  # (freed as read: the steps reuse it)
            if ch is not None:
                ch = change(c, ch[0], ch[1])
                changes = [ch] if changes is NO_CHANGES else [ch] + changes
            q = c
        leaf = q
        rec = leaf.heap
        j = rec[1]
        rec[1] = j + 1
        plan = rec[3]
        app = plan[2 * j]
        ask = plan[2 * j + 1]
        if type(app) is tuple:
            app, note = app[0], app[1]
            if note is not None:
                notes += (note,)
        n += 1
        if leaf.first_step is None:
            leaf.first_step = n
        leaf.last_step = n
        steps.append(new_step(Step, (n, leaf.path, app, ask.id, ask.priority, changes,
                                      notes, "")))
        if progress is not None and not (len(steps) & 1023):
            progress(done + int((total - done) * len(steps) / total))
    root.live -= len(steps)
    return steps


def _plan_parent(P, root, order_of, vectors: dict, two: bool) -> None:
    """P's choices among its children, for every allocation under it, worked out before the run
    once its children's are (their records, _run_vectors): which child P takes next depends only
    on its children's keys, pending and priorities, which change only by what P itself takes,
    so P's sequence is walked here once, in a loop over its own children. The choice, the tie
    notes and parked groups as the run's step had them; each allocation re-keys the child
    taken, and the child's priority moves as report_up moves it (report_level: the change
    under the child, from its record, reaches the child's tracker here, in the child's own
    order). Root's own priority moves here too: no plan above it. P.heap becomes its record."""
    keys, groups = P.heap[3]
    # More than 20 children: YuniKorn's SliceStable merges can order a tie group otherwise
    # than its insertion sort, and by the queues around it: each choice is made as
    # gosort.stable_order makes it (_choose_tied where the least key is shared), nothing parked.
    exact = len(P.children) > BLOCK
    if exact:
        sibs = _Siblings(groups)
    picks: list = []
    pnotes: list = []
    pvecs: list | None = [] if P is not root else None
    pchg: dict = {}
    prio_first = P.sort_priority
    push, pop = heapq.heappush, heapq.heappop
    check = reference.CHECK_CACHES
    parked = None  # [the key of the tie group, its entries not yet taken and their notes, last first]
    for k in range(P.live):
        if exact:
            if not groups:
                break
            while keys[0] not in groups:  # (stale keys: a group taken whole, or gone to another key)
                pop(keys)
            g = groups[keys[0]]
            if type(g) is list:
                c, note = _choose_tied(keys[0], g, groups, sibs)
            else:  # the least key's lone child (most choices: inline)
                del groups[pop(keys)]
                c, note = g[1], None
        elif parked is not None:  # no key comes before it (keys only grow)
            key, rest, rnotes = parked
            if keys and keys[0] == key:  # children joined: sorted again
                pop(keys)
                g = groups.pop(key)
                group = rest + g if type(g) is list else rest + [g]
                group.sort()  # by name: names differ between siblings
                order, tnotes = order_of(group)
                parked[1] = rest = order[::-1]
                parked[2] = rnotes = tnotes[::-1]
            note = rnotes.pop()
            c = rest.pop()[1]
            if not rest:
                parked = None
        else:
            if not keys:  # nothing placeable (cannot happen without limits)
                break
            key = pop(keys)
            group = groups.pop(key)
            if type(group) is list:
                group.sort()  # by name, as the heap ordered equal keys
                order, tnotes = order_of(group)
                note = tnotes[0]
                parked = [key, order[:0:-1], tnotes[:0:-1]]
                c = order[0][1]
            else:
                note = None
                c = group[1]
        if check:
            _check_tie(P, c, note)
        vec = _take(c, k, P, root, pchg, vectors)
        rec = c.heap
        # re-key c: its counts, and its entry in P's groups. Shares: every fair max is positive
        # and nothing allocated negative here (fits), so the share is the greatest allocated/fair max
        if two:
            v0, v1 = vec
            p0, p1 = c.pending
            c.pending = pend = (p0 - v0, p1 - v1)
            a0, a1 = c.allocated
            a0 += v0
            a1 += v1
            c.allocated = (a0, a1)
        else:
            c.pending = pend = tuple(map(sub, c.pending, vec))
            c.allocated = alloc = tuple(map(add, c.allocated, vec))
        picks.append(c)
        pnotes.append(note)
        if pvecs is not None:
            pvecs.append(vec)
        c.live = live = c.live - 1
        if live <= 0:
            if exact:
                sibs.later[c.name] = None
            continue
        if two:
            d0, d1 = rec[2]
            sh = a0 / d0
            s1 = a1 / d1
            if s1 > sh:
                sh = s1
        else:
            sh = max(map(truediv, alloc, rec[2]))
        key = (-c.reported, sh) if prio_first else (sh, -c.reported)
        if check:
            _check_queue(c, key, rec[2])
        e = (c.name, c, pend)
        if exact:
            sibs.later[c.name] = (e, key)
        g = groups.setdefault(key, e)
        if g is e:
            push(keys, key)
        elif type(g) is list:
            g.append(e)
        else:
            groups[key] = [g, e]
    P.heap = [0, 0, P.heap[2], picks, pnotes, pvecs, pchg]


class _Siblings:
    """A parent's children with something live, in name order (a child's position in the
    sort): their names, entries (name, queue, pending vector) and keys, and the KeptSort over
    those keys and vectors. A choice's change is noted by name in `later` (the new entry and
    key, or None: nothing left) and made only when a sort is asked for (`synced`): most choices
    need none (a lone least key, or one child dominating its group)."""

    __slots__ = ("names", "entries", "keys", "vecs", "kept", "later", "least")

    def __init__(self, groups: dict):
        by_name = sorted([(e, k) for k, g in groups.items() for e in (g if type(g) is list else (g,))])
        self.names = [e[0] for e, _ in by_name]
        self.entries = [e for e, _ in by_name]
        self.keys = [k for _, k in by_name]
        self.vecs = [e[2] for e, _ in by_name]
        self.kept = KeptSort(self.keys, self.vecs)
        self.later: dict = {}
        # the least key's group (two types), kept from one choice to the next for its dominating
        # child (_least_dominating): [its list in groups, its (vector, entry) ascending, its
        # vectors' second places ascending], or None
        self.least: list | None = None

    def synced(self) -> KeptSort:
        """The sort, once the changes noted are made (one child's entry in turn: a removal
        moves the positions after it)."""
        names, entries, keys, vecs, kept = self.names, self.entries, self.keys, self.vecs, self.kept
        for name, got in self.later.items():
            j = bisect_left(names, name)
            if got is None:
                del names[j], entries[j], keys[j], vecs[j]
                kept.removed(j)
            else:
                e = entries[j] = got[0]
                keys[j] = got[1]
                vecs[j] = e[2]
                kept.changed(j)
        self.later.clear()
        return kept


def _choose_tied(key: tuple, g: list, groups: dict, sibs: _Siblings):
    """The child a parent with more than 20 children takes when two or more share the least
    key, and the step's tie note there: g, their entries (name, queue, pending vector) in its
    `groups` (key -> entry, or list of entries), `sibs` all its children by name. The child
    of the key that dominates all the others (gosort.least: first whatever the rest), or
    SliceStable's first (sibs' KeptSort.first: gosort.first_of_group's rules over the runs
    that changed since the last choice). The note names the others of the key tied with it
    when at most four are (in any order); when five or more are, the first four in
    SliceStable's order (KeptSort.prefix). The child's entry is taken out of g.

    Two children (most tied choices where priorities differ): the one dominating the other,
    else the first by name, whatever the children around them: an insertion sort moves the
    later of a block's pair before the earlier only when it dominates it, and a merge puts
    the right run's first before the left run's only when it dominates it
    (gosort.first_of_group's block rule and rule A)."""
    if len(g) == 2:
        e, o = g
        u, v = e[2], o[2]
        if dominates_vec(u, v):
            note = None
        elif dominates_vec(v, u):
            e, o = o, e
            note = None
        else:
            if o[0] < e[0]:
                e, o = o, e
            note = TieNote("queues", [o[1], e[1]], False)
        groups[key] = o
        sibs.least = None  # (not kept by this way: made again should the group be asked of again)
        return e[1], note
    if len(g[0][2]) == 2:
        least, top = _least_dominating(g, sibs)
        i = g.index(top) if top is not None else None
    else:
        least = None
        i = dominating([e[2] for e in g])  # the least key's group: gosort.least
    note = None
    if i is None:
        kept = sibs.synced()
        ep, vp = sibs.entries, sibs.vecs
        f = None
        if len(g) <= FEW or kept.gkey != key:  # the group's positions, found by name
            names = sibs.names
            pos = sorted([bisect_left(names, e[0]) for e in g])
            if len(g) <= FEW:  # its rules from scratch: a few runs, none of the other children read
                f = first_of_group(len(names), pos, [vp[p] for p in pos])
                if f is not None:
                    f = pos[f]
            if f is None:
                f = kept.first(key, pos if kept.gkey != key else None)
        else:
            f = kept.first(key)
        first = ep[f]
        i = g.index(first)
        tied, more = first_tied(first[2], g[:i] + g[i + 1:], 2, 1)
        if more:  # which four are named: the sort's order
            cv = first[2]
            # the order is in key order: its first len(g) positions are the key's group, and
            # only as many are made as hold four tied with the first (a merge's first k cost
            # about k of its steps: the whole group's order cost a merge of it at every note)
            k = 8
            while True:
                tied = [ep[j][1] for j in kept.prefix(min(k, len(g))) if ep[j] is not first and tied_vec(cv, vp[j])]
                if len(tied) >= 4 or k >= len(g):
                    break
                k *= 2
            note = TieNote("queues", tied[:4] + [first[1]], True)
        elif tied:
            note = TieNote("queues", tied + [first[1]], False)
    e = g.pop(i)
    if least is not None:
        _least_taken(least, e)
    if len(g) == 1:
        groups[key] = g[0]
    return e[1], note


def _least_dominating(g: list, sibs: _Siblings) -> tuple:
    """gosort.dominating over the least key's group g (vectors of two types), from what is kept
    between its choices instead of four passes over it at each: its (vector, entry) pairs and
    its vectors' second places, each sorted. The greatest vector dominates every other one when
    it is there once and no second place is greater (dominating's own test). Returns
    (sibs.least, the dominating entry or None); the caller takes the entry it chooses out of
    both lists.

    The least group only loses the entry taken at each choice and, where that child's key did
    not change (a zero in its largest type's share), gets it back appended at g's end; nothing
    else joins it (every other key is greater, and keys only grow). So kept lists one shorter
    than g lack g[-1]."""
    least = sibs.least
    if least is None or least[0] is not g:
        least = sibs.least = [g, sorted([(e[2], e) for e in g]), sorted([e[2][1] for e in g])]
    elif len(least[1]) < len(g):
        e = g[-1]
        insort(least[1], (e[2], e))
        insort(least[2], e[2][1])
    asc = least[1]
    bv, top = asc[-1]
    if asc[-2][0] == bv or least[2][-1] > bv[1]:
        top = None
    return least, top


def _least_taken(least: list, e: tuple) -> None:
    """Entry e, taken out of the least group, leaves its kept lists (_least_dominating)."""
    asc, seconds = least[1], least[2]
    del asc[bisect_left(asc, (e[2], e))]
    del seconds[bisect_left(seconds, e[2][1])]


def _write_back(eng, types: tuple, queues: list, before: list, app_before: list, steps_done: int) -> None:
    """The state as the general run leaves it, from the run's lists over `types` and the dicts
    before it (and the allocated flags of the asks each application's live now passed); the
    heaps are built again by a further step. Keys: pending keeps its own, and
    allocated and usage gain every type once something was allocated (every ask names them all).
    Root's counts, which no key reads, were left as they were: they change by what the
    applications took."""
    root = eng.root
    took = [sum([st.usage[j] for st in eng.apps]) - sum([u.get(t, 0) for _, u in app_before]) for j, t in enumerate(types)]
    root.pending = [c - k for c, k in zip(root.pending, took)]
    root.allocated = [c + k for c, k in zip(root.allocated, took)]
    for q, (pending, allocated) in zip(queues, before):
        pv, av = q.pending, q.allocated
        q.pending = {t: pv[j] for j, t in enumerate(types) if t in pending}
        placed = any(av[j] != allocated.get(t, 0) for j, t in enumerate(types))
        q.allocated = {t: av[j] for j, t in enumerate(types) if placed or t in allocated}
        q.heap = []
    for st, (pending, usage) in zip(eng.apps, app_before):
        taken = st.live  # the run took asks[:live], in order (nothing was allocated before it)
        st.alloc[:taken] = [True] * taken
        st.first = taken
        uv = st.usage
        used = [uv[j] - usage.get(t, 0) for j, t in enumerate(types)]
        st.pending = {t: pending[t] - used[j] for j, t in enumerate(types) if t in pending}
        st.usage = {t: uv[j] for j, t in enumerate(types) if any(used) or t in usage}
    eng.steps_done = steps_done

