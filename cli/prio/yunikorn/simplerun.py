"""The whole scheduling run for the commonest input without limits, in one loop: one resource
type (a snapshot without node data asks for `{pods: 1}`), no capacity, no max, guaranteed or
maxapplications anywhere, no Stopped queue, and every ask asking for something. Pure: no I/O.

Such a run never sets an ask aside, so the general engine's machinery for it (resources as
dicts of any types, versioned heap entries, limits, the general walk, parked tie groups) only
costs time. Here every count is an int and every heap holds exactly the current entry of each
child, so a step is: at each level pop the first child, then update and re-key the path. The
order is Engine.step's, to the letter:

- siblings by (priority, fair share) as the parent sorts them, then more pending, then name: with
  one resource type "pending strictly dominates" is "more pending", so a tie group of the general
  engine (equal priority and share) is ordered by pending and then by name (its insertion sort
  keeps name order among equals), and its tie note names the others with equal pending;
- a leaf's applications by its sort policy's key, then id, with the same tie notes;
- the fair share, the usage key and the priority changes computed as Engine._allocate does.

At the end the state the rest of prio reads is as the general run leaves it (per-queue and
per-application counts as dicts, priorities, trackers, placed and first/last steps), and the
heaps are left to be built again should anyone step further. tests/yunikorn/test_simplerun.py
checks steps, tie notes, leftovers and that state against the general engine.
"""
from __future__ import annotations

import heapq

from prio.values import INT32_MAX, INT32_MIN

MIN = INT32_MIN


def fits(eng) -> bool:
    """Whether this run can take the whole of the engine's input (before any step)."""
    if eng.n_types != 1 or eng._one_type is None or not eng._positive or eng.steps_done or eng._heaps_ready:
        return False
    for q in eng.root.walk():
        if q.max or q.maxapps or q.guaranteed or q.stopped or q.base_allocated or eng.misaligned(q):
            return False
    return True


def _queue_entry(x, t) -> tuple:
    """x's entry in its parent's heap (Engine._push for one type, shares against the fair max),
    as the run's loop builds it inline."""
    a, d = x.allocated, x.fairmax.get(t)
    sh = 0.0 if a <= 0 or d is None else 1.0 if d <= 0 else a / d
    if x.parent.sort_priority:
        return (-x.reported, (sh, -x.pending), x.name, x)
    return (sh, (-x.reported, -x.pending), x.name, x)


def _app_entry(st) -> tuple:
    """st's entry in its leaf's heap (Engine._akey; for one type without guaranteed the usage
    key is the usage as a float), as the run's loop builds it inline."""
    leaf = st.leaf
    if leaf.sort_policy == "fair":
        u = (float(st.usage),)
        k1, k2 = (-st.prio, u) if leaf.sort_priority else (u, -st.prio)
    elif leaf.sort_priority:
        k1, k2 = -st.prio, st.key_submit
    else:
        k1, k2 = st.key_submit, -st.prio
    return (k1, k2, st.app_id, st)


def _tie_note(heap: list, top: tuple, kind: str, name) -> str:
    """Engine._say_tie's note when entries still in `heap` tie with `top` on the key: top and the
    first four of them (heap order, which is name order), with ', ...' when there are more."""
    group = []
    pop = heapq.heappop
    while heap and heap[0][0] == top[0] and heap[0][1] == top[1]:
        group.append(pop(heap))
    for e in group:
        heapq.heappush(heap, e)
    names = sorted([name(e[3]) for e in group[:4]] + [name(top[3])])
    return kind + ", ".join(names) + (", ..." if len(group) > 4 else "")


def _path(q) -> str:
    return q.path


def _app_id(st) -> str:
    return st.app_id


def run(eng, progress=None) -> list:
    """Every step until nothing is pending, as Engine.run() gives them (fits(eng) must hold)."""
    from prio.yunikorn.engine import _NO_CHANGES, Step

    t = eng._one_type
    root = eng.root
    queues = list(root.walk())
    apps = eng.apps
    # ints in the pending/allocated/usage slots for the run: dicts again at the end, with the
    # keys the general run leaves (it never drops one; it adds allocated/usage on allocating)
    had = [(t in q.pending, t in q.allocated) for q in queues]
    app_had = [(st.pending.get(t), t in st.usage, st.usage.get(t, 0)) for st in apps]
    for q in queues:
        q.pending = q.pending.get(t, 0)
        q.allocated = q.allocated.get(t, 0)
        q.heap = []
    push, pop = heapq.heappush, heapq.heappop
    for st in apps:
        st.usage = st.usage.get(t, 0)
        eng.path_of(st.leaf)  # leaf.chain
        if st.live < len(st.asks) and not st.blocked:
            push(st.leaf.heap, _app_entry(st))
    for q in queues:
        if q.parent is not None and q.live > 0:
            push(q.parent.heap, _queue_entry(q, t))

    steps = []
    n = eng.steps_done
    new_step = tuple.__new__
    while root.live > 0:
        notes = None
        q = root
        while not q.leaf:
            heap = q.heap
            if not heap:  # nothing placeable (cannot happen without limits): the check below ends the run
                break
            top = pop(heap)
            if heap and heap[0][0] == top[0] and heap[0][1] == top[1]:
                note = _tie_note(heap, top, "queues ", _path)
                notes = [note] if notes is None else notes + [note]
            q = top[3]
        leaf = q
        heap = leaf.heap
        if not heap:
            break
        top = pop(heap)
        if heap and heap[0][0] == top[0] and heap[0][1] == top[1]:
            note = _tie_note(heap, top, "applications ", _app_id)
            notes = [note] if notes is None else notes + [note]
        st = top[3]
        # the allocation: Engine._allocate with ints
        asks, alloc = st.asks, st.alloc
        n_asks = len(asks)
        i = st.live
        ask = asks[i]
        alloc[i] = True
        live = i + 1
        while live < n_asks and alloc[live]:
            live += 1
        st.live = live
        first = st.first
        while first < n_asks and alloc[first]:
            first += 1
        st.first = first
        n += 1
        path = leaf.chain
        if not st.running:
            st.running = True
            for x in path:
                x.running += 1
        v = ask.resources[t]
        u = st.usage = st.usage + v
        for x in path:
            x.pending -= v
            x.allocated += v
            x.live -= 1
        leaf.placed += 1
        if leaf.first_step is None:
            leaf.first_step = n
        leaf.last_step = n
        changes = _NO_CHANGES
        new = asks[first].priority if first < n_asks else MIN
        if new != st.prio:
            old = st.prio
            st.prio = new
            x = leaf
            while True:  # as Engine._allocate: the tracker loses old, gains new; report up
                tr = x.tracker
                counts = tr.counts
                if old != MIN:
                    c = counts[old] - 1
                    if c:
                        counts[old] = c
                    else:
                        del counts[old]
                        if old == tr.max:
                            h = tr.heap
                            while h and -h[0] not in counts:
                                pop(h)
                            tr.max = -h[0] if h else MIN
                if new != MIN:
                    c = counts.get(new, 0)
                    counts[new] = c + 1
                    if c == 0:
                        push(tr.heap, -new)
                    if new > tr.max:
                        tr.max = new
                raw = tr.max
                if raw == MIN:
                    rep = MIN
                elif x.fenced:
                    rep = x.offset
                else:
                    rep = raw + x.offset
                    if rep < MIN:
                        rep = MIN
                    elif rep > INT32_MAX:
                        rep = INT32_MAX
                if rep == x.reported:
                    break
                old_rep = x.reported
                x.reported = rep
                if x.parent is None:
                    break
                if changes is _NO_CHANGES:
                    changes = []
                changes.append((x.path, None if old_rep == MIN else old_rep, None if rep == MIN else rep))
                old, new = old_rep, rep
                x = x.parent
        # re-key: the application in its leaf, each queue of the path in its parent
        if live < n_asks:
            if leaf.sort_policy == "fair":
                uk = (float(u),)
                k1, k2 = (-st.prio, uk) if leaf.sort_priority else (uk, -st.prio)
            elif leaf.sort_priority:
                k1, k2 = -st.prio, st.key_submit
            else:
                k1, k2 = st.key_submit, -st.prio
            push(heap, (k1, k2, st.app_id, st))
        for x in path:
            p = x.parent
            if p is None or x.live <= 0:
                continue
            a = x.allocated
            d = x.fairmax.get(t)
            sh = 0.0 if a <= 0 or d is None else 1.0 if d <= 0 else a / d
            if p.sort_priority:
                push(p.heap, (-x.reported, (sh, -x.pending), x.name, x))
            else:
                push(p.heap, (sh, (-x.reported, -x.pending), x.name, x))
        steps.append(new_step(Step, (n, leaf.path, st.app_id, ask.id, ask.priority, changes,
                                      tuple(notes) if notes is not None else (), "")))
        if progress is not None and not (len(steps) & 1023):
            progress(len(steps))

    # the state as the general run leaves it; the heaps are built again by a further step
    for q, (hp, ha) in zip(queues, had):
        p, a = q.pending, q.allocated
        q.pending = {t: p} if hp else {}
        q.allocated = {t: a} if ha or a else {}
        q.heap = []
    for st, (pending, hu, used) in zip(apps, app_had):
        u = st.usage
        st.pending = {} if pending is None else {t: pending - (u - used)}
        st.usage = {t: u} if hu or u else {}
    eng.steps_done = n
    return steps
