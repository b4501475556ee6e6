"""The reference engine: YuniKorn's scheduling rules as YuniKorn's own code states them, one
function per rule, worked out again from scratch at every step. Obviously correct, not fast.

Every function names the YuniKorn function it mirrors (yunikorn-core, pkg/scheduler/objects and
pkg/common/resources). The fast engines (engine.Engine's heaps and hot path, simplerun's planned
runs) are optimisations of these functions: tests/yunikorn/test_differential.py generates
scenarios over every feature they claim (tests/strategies.py) and requires identical steps, tie
notes, leftovers and final state, and every recorded corpus runs through both.

The model is the one engine.Engine builds (the queue tree, placement, applications with their
asks in YuniKorn's order): `ReferenceRun(eng)` schedules on it, and leaves the same state a fast
run leaves (priorities, usage, pending, what each leaf placed, the asks set aside and why).

Where YuniKorn leaves an order to Go's map iteration (sibling queues, applications of a leaf),
the input order is by name, as the recorded corpora replay it; the step then carries a tie note
(TieNote) naming the choices an other map order could have made. Pure: no I/O.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from typing import NamedTuple

from prio.values import INT32_MAX, INT32_MIN
from prio.yunikorn.gosort import slice_stable, stable_order
from prio.yunikorn.maxtracker import MaxTracker
from prio.yunikorn.nodes import fit_in_score
from prio.yunikorn.priorities import change
from prio.yunikorn.quantity import show_quantity
from prio.yunikorn.resources import compare_shares, fit_in, strictly_greater, strictly_positive
from prio.yunikorn.step import Step, TieNote, run_steps, take_ask
from prio.yunikorn.ugm import DEFAULT_USER, user_groups

MIN = INT32_MIN

# ReferenceRun keeps a few values between steps instead of working them out again (each
# application's place in its leaf's order, each leaf's highest priority, who holds a
# reservation): with this on, every use compares them with the value worked out from scratch
# (AssertionError on a difference). The tests turn it on (tests/conftest.py). It holds the
# fast runs' inline copies of the sort keys and notes stated here too (queue_key,
# queue_key_pending, app_key, usage_shares; the tie notes queue_tie_note and app_tie_note): each
# key or note such a copy makes is compared with the statement's for the same queue or
# application at that moment (key_drift).
CHECK_CACHES = False


# ---- priorities -------------------------------------------------------------------------------
def priority_value_by_policy(q, raw: int) -> int:
    """Queue.priorityValueByPolicy: what a queue reports to its parent: nothing pending stays
    INT32_MIN, a fenced queue reports its offset only, else raw + offset saturating at int32."""
    if raw == MIN:
        return MIN
    if q.fenced:
        return q.offset
    v = raw + q.offset
    return MIN if v < MIN else INT32_MAX if v > INT32_MAX else v


def ask_max_priority(st) -> int:
    """Application.GetAskMaxPriority: the highest priority among its asks not yet allocated."""
    return max((a.priority for i, a in enumerate(st.asks) if not st.alloc[i]), default=MIN)


def current_priority(q) -> int:
    """Queue.GetCurrentPriority: a leaf's raw priority is the highest of its applications', a
    parent's the highest its children report (their `reported`, set children first);
    reported by priorityValueByPolicy."""
    if q.leaf:
        raw = max((ask_max_priority(st) for st in q.apps), default=MIN)
    else:
        raw = max([c.reported for c in q.children], default=MIN)  # (a list: max over it is quicker than over a generator)
    return priority_value_by_policy(q, raw)


# ---- fair share and the queue sort ------------------------------------------------------------
def fair_share(q, fairmax: dict | None = None) -> float:
    """getFairShare (CompUsageRatioSeparately's share of one queue): the largest of allocated
    over guaranteed per resource type, or over the fair max where the type is not guaranteed
    (the queue's own fair max unless another is given); a type in neither does not count, a
    zero or negative divisor counts 1 for anything allocated."""
    s = 0.0
    g = q.guaranteed
    fm = q.fairmax if fairmax is None else fairmax
    for k, a in q.allocated.items():
        if a < 0:
            continue
        if g is not None and k in g:
            d = g[k]
        elif k in fm:
            d = fm[k]
        else:
            continue
        v = (0.0 if a <= 0 else 1.0) if d <= 0 else a / d
        if v > s:
            s = v
    return s


# The queue sort, stated once (Queue.sortQueues: sortQueuesByPriorityAndFairness with priority
# sorting on, sortQueuesByFairnessAndPriority off). Candidates are compared, least first, by
#   1. queue_key: (priority, fair share) as the parent sorts, higher priority and lower share
#      first (priority first where the parent sorts by priority, after the share otherwise);
#   2. the tie-break: between equal keys, a queue whose pending is strictly greater than the
#      other's comes first (queue_less); with one resource type that is more pending first, a
#      strict weak order, and the fast runs fold it into the key (queue_key_pending);
#   3. then the input order (Go's map order: by name here), SliceStable keeping it.
# sort_queues_keyed, _slice_stable_queues' comparator, queue_tie_note and the fast runs' keys
# (walkties, engine, simplerun: held to these under CHECK_CACHES) all read them from here.


def queue_key(prio_first: bool, reported: int, share) -> tuple:
    """A queue's sort key in its parent (least first): (priority negated, share) where the parent
    sorts by priority (`prio_first`: its sort_priority), (share, priority negated) otherwise.
    `reported`: the priority the queue reports (its `reported`); `share`: what the release's
    sort compares (queue_share: fair_share, before 1.6 guarantee_shares)."""
    return (-reported, share) if prio_first else (share, -reported)


def queue_key_pending(prio_first: bool, reported: int, share, pending: int) -> tuple:
    """queue_key with one resource type: the tie-break (more pending first) folded into its
    second part, (k1, (k2, pending negated)), as the fast runs' heaps hold it."""
    k1, k2 = queue_key(prio_first, reported, share)
    return k1, (k2, -pending)


def queue_less(prio_first: bool, l, r, l_share, r_share) -> bool:
    """YuniKorn's queue comparator over two candidates l, r with their shares: queue_key, then
    the tie-break (pending strictly greater)."""
    a = queue_key(prio_first, l.reported, l_share)
    b = queue_key(prio_first, r.reported, r_share)
    if a != b:
        return a < b
    return strictly_greater(l.pending, r.pending)


def key_drift(what: str, where, got, want) -> None:
    """CHECK_CACHES: an inline copy of a key stated here gave `got` where the statement gives
    `want` (AssertionError when they differ)."""
    assert got == want, f"{what} at {where}: the inline key {got!r}, the statement's {want!r}"


def incomparable(l: dict, r: dict) -> bool:
    """Neither pending strictly greater than the other (equal, or each greater somewhere)."""
    return not strictly_greater(l, r) and not strictly_greater(r, l)


def queue_candidates(p) -> list:
    """Queue.sortQueues' input: the children not Stopped with pending resources (StrictlyGreater
    ThanZero), in name order (prio's stand-in for Go's map order)."""
    return [c for c in sorted(p.children, key=lambda c: c.name) if not c.stopped and strictly_positive(c.pending)]


class GuaranteeShares(tuple):
    """guarantee_shares' value: a queue's shares in ascending order (a tuple: equal exactly when
    they tie, and shown as such) that orders as compareShares orders them
    (resources.compare_shares: from the largest share down, leftovers by their sign), so that
    queue_key and queue_less over it are sortQueuesByPriorityAndFairness and
    sortQueuesByFairnessAndPriority before 1.6 (v1.5.2: CompUsageRatioSeparately where 1.6
    compares getFairShare's one number), the same comparator with another share."""

    __slots__ = ()

    def __lt__(self, other):
        return compare_shares(self, other) < 0

    def __le__(self, other):
        return compare_shares(self, other) <= 0

    def __gt__(self, other):
        return compare_shares(self, other) > 0

    def __ge__(self, other):
        return compare_shares(self, other) >= 0


def guarantee_shares(q) -> GuaranteeShares:
    """What YuniKorn before 1.6 (v1.5.2: CompUsageRatioSeparately over getShares) compares of a
    queue in the fair queue sort: its usage over its guarantee per resource type (the usage
    itself where a type is not guaranteed, or guaranteed as 0; a type with no usage a 0), in
    ascending order as getShares gives them, ordered as resources.compare_shares orders them
    (GuaranteeShares). The zeros that sort first are dropped (compareShares skips them): two
    queues tie exactly when these are equal."""
    g = q.guaranteed or {}
    out = sorted(((a / g[k]) if g.get(k) else float(a)) for k, a in q.allocated.items())
    i = 0
    while i < len(out) and out[i] == 0:
        i += 1
    return GuaranteeShares(out[i:])


def queue_share(q, release=None, fairmax: dict | None = None):
    """What the fair queue sort of `release` (None: the newest) compares of queue q: fair_share,
    or before 1.6 guarantee_shares (Release.fair_max_share). Equal values tie."""
    if release is not None and not release.fair_max_share:
        return guarantee_shares(q)
    return fair_share(q, fairmax)


def sort_queues(p, candidates: list | None = None, aligned: bool = False, release=None) -> list:
    """Queue.sortQueues with sortQueuesByPriorityAndFairness (priority sorting on) or
    sortQueuesByFairnessAndPriority (off): Go's sort.SliceStable over all the candidates at
    once (gosort.slice_stable: insertion sort on blocks of 20, then symmetric merges), with
    YuniKorn's comparator: priority, fair share, then pending strictly greater. YuniKorn keeps
    the fair max of each position fixed while the sort moves the queues, so a queue is compared
    with the fair max of the queue first at its position; `aligned` gives each queue its own
    (the documented order). `candidates`: another input order (default: queue_candidates).
    `release` (None: the newest): before 1.6 the share is guarantee_shares, no fair max
    (Release.fair_max_share)."""
    return sort_queues_keyed(p, candidates, aligned, release)[0]


def sort_queues_keyed(p, candidates: list | None = None, aligned: bool = False, release=None) -> tuple:
    """sort_queues, and whether no two candidates were equal on (priority, share): then the
    order is the one of those keys alone, and no queue ties with another (queue_tie_note finds
    none). The same result, with less work where the comparator allows it (a scheduling cycle
    sorts two or three parents; with gangs there are twice the cycles):

    - priority sorting on and no two priorities equal: the comparator is the priority's order
      (it decides on priority first), and SliceStable's result the only sorted order;
    - every candidate with one fair max (or `aligned`): a queue's share is the same at every
      position, so the comparator is (priority, share) and, between equal keys, pending strictly
      greater, computed once per queue: distinct keys sort as keys; otherwise gosort.stable_order
      does SliceStable's comparisons and moves over them.

    Else (fair maxes differ, positional) _slice_stable_queues, the statement itself. The tests
    (CHECK_CACHES) hold every shortcut to it."""
    cands = list(queue_candidates(p) if candidates is None else candidates)
    if release is not None and not release.fair_max_share:
        return _sort_queues_by_guarantee(p, cands), False
    prio_first = p.sort_priority
    got = None
    distinct = False
    if prio_first:
        reps = [queue_key(True, c.reported, 0.0)[0] for c in cands]  # the key's priority part
        if len(set(reps)) == len(reps):
            got, distinct = [cands[i] for i in sorted(range(len(cands)), key=reps.__getitem__)], True
    if got is None:
        fms = [c.fairmax for c in cands]
        if aligned or all(fm == fms[0] for fm in fms):
            keys = [queue_key(prio_first, c.reported, fair_share(c)) for c in cands]
            if len(set(keys)) == len(keys):
                got, distinct = [cands[i] for i in sorted(range(len(cands)), key=keys.__getitem__)], True
            else:
                types = sorted({k for c in cands for k in c.pending})
                vecs = [tuple(c.pending.get(k, 0) for k in types) for c in cands]
                got = [cands[i] for i in stable_order(keys, vecs)]
    if got is None:
        return _slice_stable_queues(p, cands, aligned), False
    if CHECK_CACHES:
        assert got == _slice_stable_queues(p, cands, aligned), p.path
    return got, distinct


def _slice_stable_queues(p, cands: list, aligned: bool) -> list:
    """sort_queues' statement: SliceStable with YuniKorn's comparator, positional fair max."""
    fms = [c.fairmax for c in cands]
    prio_first = p.sort_priority
    shares: dict = {}  # a queue's share against a fair max does not change during the sort

    def share(c, i):
        k = id(c) if aligned else (id(c), i)
        v = shares.get(k)
        if v is None:
            v = shares[k] = fair_share(c, None if aligned else fms[i])
        return v

    def less(items, i, j):
        l, r = items[i], items[j]
        return queue_less(prio_first, l, r, share(l, i), share(r, j))

    return slice_stable(cands, less)


def _sort_queues_by_guarantee(p, cands: list) -> list:
    """sort_queues as v1.5.2 sorts (sortQueuesByPriorityAndFairness, ...FairnessAndPriority):
    the one comparator, queue_less, over the share v1.5.2 compares, guarantee_shares (ordered
    as compareShares orders it: GuaranteeShares), no fair max, so a queue's place does not
    matter. The same key as 1.6's with another share, not a key of its own: priority (first
    where the parent sorts by it), CompUsageRatioSeparately, priority, then pending strictly
    greater (yunikorn-core v1.5.2 objects/sorters.go)."""
    prio_first = p.sort_priority
    shares = {id(c): guarantee_shares(c) for c in cands}

    def less(items, i, j):
        l, r = items[i], items[j]
        return queue_less(prio_first, l, r, shares[id(l)], shares[id(r)])

    return slice_stable(cands, less)


def fair_max_misaligned(p, release=None) -> bool:
    """Whether p's children differ in fair max: then sort_queues' positional fair max can give
    another order than the documented one (YUNIKORN's sortQueuesByPriorityAndFairness indexes
    fairMaxResources by position), and the input order (Go's map order) matters beyond ties.
    Never before 1.6 (`release`: no fair max in the sort)."""
    if release is not None and not release.fair_max_share:
        return False
    if p.leaf or len(p.children) < 2:
        return False
    first = p.children[0].fairmax
    return any(c.fairmax != first for c in p.children)


# ---- the application sort ---------------------------------------------------------------------
def usage_ratio(st, n_types: int) -> tuple:
    """CompUsageRatio's view of one application: its usage over the leaf's guaranteed per type
    (the usage itself where none), largest first, padded with zeros to the number of resource
    types, so that comparing two tuples is comparing the padded lists as Go does."""
    return usage_shares(st.usage, st.leaf.guaranteed, n_types)


def usage_shares(usage: dict, guaranteed: dict | None, n_types: int) -> tuple:
    """usage_ratio over a usage dict and the leaf's guaranteed (None or empty: none)."""
    total = guaranteed
    shares = sorted(((v / total[k]) if total and total.get(k) else float(v) for k, v in usage.items()), reverse=True)
    return tuple(shares) + (0.0,) * (n_types - len(shares))


def app_key(sort_priority: bool, priority: int, other) -> tuple:
    """sortApplications' key (least first), stated once: the ask max priority negated first
    where the leaf sorts by priority (`sort_priority`), after `other` otherwise; `other` is the
    policy's value (fair: usage_ratio, fifo: the submission time). Between equal keys the
    application id decides (sortApplications' map order is by id here)."""
    return (-priority, other) if sort_priority else (other, -priority)


def app_sort_key(st, n_types: int, priority: int | None = None) -> tuple:
    """The key of sortApplications' comparators, a strict weak order: fifo by submission time
    (the oldest ask's create time), fair by usage ratio, each after or before the ask max
    priority as the leaf's priority sorting says (`priority`: that, when already known)."""
    leaf = st.leaf
    prio = ask_max_priority(st) if priority is None else priority
    other = usage_ratio(st, n_types) if leaf.sort_policy == "fair" else st.key_submit
    return app_key(leaf.sort_priority, prio, other)


def sort_applications(leaf, n_types: int, apps: list | None = None) -> list:
    """sortApplications: filterOnPendingResources (pending strictly greater than zero), in
    application id order (the map's stand-in), then sort.SliceStable by the policy's comparator
    (a strict weak order, so any stable sort gives the same order). `apps`: the leaf's
    applications as another holds them (default: leaf.apps)."""
    apps = sorted((st for st in (leaf.apps if apps is None else apps) if strictly_positive(st.pending)), key=lambda st: st.app_id)
    return sorted(apps, key=lambda st: app_sort_key(st, n_types))


def app_tie_note(st, order: list, n_types: int):
    """The tie note of taking application st from `order` (its leaf's sort_applications): the
    others equal to st on the leaf's sort key (app_sort_key) that could still be taken (not
    held by maxapplications, something left to place), in that order (by id: sortApplications'
    map order here): up to four named, and whether there were more. None: no tie."""
    key = app_sort_key(st, n_types)
    tied = [x for x in order if x is not st and not x.blocked and has_live_ask(x) and strictly_positive(x.pending)
            and app_sort_key(x, n_types) == key]
    if not tied:
        return None
    return TieNote("applications", tied[:4] + [st], len(tied) > 4)


def sorted_requests(st) -> list[int]:
    """sortedRequests.insert, ask by ask in file order: the indices of st.asks in the order the
    application tries them. Asks compare by (higher priority, earlier create time); asks
    created with their application (no create time of their own) are created one after the
    other, so they never compare equal. An ask goes behind the last when it is not before it
    (insert's fast path), else before the first ask it is before or equal to (sort.Search over
    the list, which every insert keeps in that order: a bisection)."""
    implicit = st.app.submit_time
    keys: list = []  # the sort key of each ask in `order`, non-decreasing
    order: list = []
    for i in sorted(range(len(st.asks)), key=lambda i: st.asks[i].seq):
        a = st.asks[i]
        k = (-a.priority, a.create_time, a.seq if a.create_time == implicit else 0)
        if not keys or not k < keys[-1]:
            keys.append(k)
            order.append(i)
        else:
            j = bisect_left(keys, k)
            keys.insert(j, k)
            order.insert(j, i)
    return order


# ---- the checks an ask must pass ---------------------------------------------------------------
def path_to_root(q) -> list:
    """The queue and its ancestors, leaf first."""
    out = []
    while q is not None:
        out.append(q)
        q = q.parent
    return out


def maxapplications_reached(st):
    """Queue.canRunApp for an application that does not run yet: the first queue from the leaf
    up whose maxapplications one more running application would exceed, or None."""
    for q in path_to_root(st.leaf):
        if q.maxapps and q.running + 1 > q.maxapps:
            return q
    return None


def maxapplications_reason(q) -> str:
    """Why an application that does not run yet cannot start: q's maxapplications is reached
    (Queue.canRunApp; reasons.py reads the code MaxApplications from these words)."""
    return f"maxapplications {q.maxapps} of {q.path} reached ({q.running} running)"


def headroom_misfit(path: list, ask):
    """Queue.getHeadroom / the allocation's fit check: the first queue from the leaf up whose
    max (root: the cluster's capacity) the ask would exceed, with the resource type; only the
    types a max names are limited. None when it fits."""
    for q in path:
        if q.max:
            for k, v in ask.resources.items():
                if k in q.max and q.allocated.get(k, 0) + v > q.max[k]:
                    return q, k
    return None


# ---- one scheduling cycle ---------------------------------------------------------------------
class ReferenceRun:
    """Queue.TryAllocate from root, one allocation per step, everything sorted again each step.

    Queue headroom and user/group headroom only shrink, running applications only grow, and a
    node's capacity never changes here, so an ask that does not fit those (or whose application
    could not start) never will: its first reason is kept (prio's leftovers), and trying it
    again changes nothing. A node's free room is different: a node held by a reservation opens
    again when the reservation is used, so an ask that finds no node is tried again every cycle,
    and is given its reason only when the run ends (_finish)."""

    def __init__(self, eng):
        self.eng = eng
        self.release = eng.release  # the YuniKorn release whose rules apply (releases.Release)
        self.n_types = eng.n_types
        self.steps_done = eng.steps_done
        self.order = {id(st): sorted_requests(st) for st in eng.apps}
        self.cluster = eng.cluster  # nodes.Cluster, or None: the capacity is one pool
        self.ugm = eng.ugm  # ugm.Usage, or None: no user or group limits
        self.reservations: dict = {}  # id(st) -> {ask index: the node it holds}
        self.holders: dict = {}  # id(st) -> st, for each key of reservations
        self.finished = False
        # YuniKorn's preemption inside the run (tryAllocate -> tryPreemption): with nodes, the
        # partition's switch on, and not turned off (simulate --no-preemption)
        self.preempting = preemption_in_run(eng)
        self.runs: list = []  # the running allocations (preemption.world.Run): victims to be
        self.triggered: set = set()  # asks that preempted once (MarkTriggeredPreemption): never again
        self.checked: set = set()  # asks that tried since time last passed (preemptAttemptFrequency)
        self.states_seen: set = set()  # _state_when_time_passes each time it passed: a repeat ends the run
        self.attempts_left = MAX_PREEMPTIONS_PER_QUEUE
        # (id(st), ask index) set aside for want of a node: a cancelled reservation wakes them
        self.node_waiters: set = set()
        if self.preempting:
            self._init_runs()
        # the eventually consistent priorities, from scratch, children first
        for q in sorted(eng.root.walk(), key=lambda q: -q.depth):
            q.reported = current_priority(q)
        for st in eng.apps:
            st.prio = ask_max_priority(st)
        self._init_app_order()
        self._by_name: dict = {}  # id(parent) -> its children in name order (_candidates)
        self._misaligned_memo: dict = {}  # id(parent) -> fair_max_misaligned (_misaligned_at)
        # the stateaware leaves' application states (stateaware.py), before 1.6 only
        self.stateaware = None
        if self.release.stateaware_policy:
            from prio.yunikorn import stateaware

            leaves = stateaware.leaves_of(eng.root)
            if leaves:
                self.stateaware = stateaware.StateAware(leaves, eng.apps).bind(eng.apps)
        self.gangs = None  # gang applications' hooks (gangs.GangRun), when the input has any
        if eng.gangs:  # (the model hands the hooks over: gangs.py builds on this module)
            self.gangs = eng.gang_hooks(self)

    # -- the walk
    def step(self):
        """One allocation (a Step), or None when nothing more can be placed. With nodes, one
        call runs YuniKorn's scheduling cycles until one allocates: each first tries the asks
        holding a reservation (PartitionContext.tryReservedAllocate), then the normal walk
        (tryAllocate); a cycle that only reserves a node allocates nothing, and a node holds
        one reservation and an ask one, so such cycles are few."""
        if self.finished and self.preempting:  # the replay stopped (IDLE_CYCLES): nothing more
            return None
        earlier: list = []  # the ties of the cycles that only reserved: they shaped this step too
        tied: list = []  # the asks those cycles reserved for
        while True:
            ties: list = []  # leaf first, as the walk unwinds
            notes: list = []
            got = None
            gang = self.gangs
            if gang is not None:
                gang.react()  # the shim's reactions to the cycle before (gangs.py)
            if self.reservations:
                got = self._try_reserved_queue(self.eng.root, self._holding_queues())
            if got is None and gang is not None:  # placeholder replacement, before the walk
                swap = gang.replace()
                if swap is not None:
                    st, i, ph, node, tie = swap
                    same = gang.same_place(st, i, ph, node)
                    done = self._allocate(st, i, tuple(earlier) + tie, "", node, same)
                    gang.replaced(st, i, ph, same)
                    return done
            if got is None:
                got = self._try_queue(self.eng.root, ties, notes)
                if got is not None and gang is not None:
                    tie = gang.hand_over_tie(got[0], got[1])
                    if tie is not None:
                        ties.insert(0, tie)  # (leaf first: the ask level is below the application's)
            if got is None:
                if self.stateaware is not None and self.stateaware.times_out():
                    continue  # a Starting application held its queue's next one back: its timeout fired
                if self._idle() and self._time_passes():
                    continue  # a quiet cycle: asks that tried preemption may try again
                if gang is not None and (gang.react() or gang.idle()):
                    continue  # releases confirmed, pods handed over, or a timer fired
                self._finish(tied)  # (with preemption: every live ask's reason, a gang's placeholders among them)
                if gang is not None:
                    gang.finish()
                return None
            st, i, node, kind, victims = got
            if kind != ALLOCATE:
                if kind == RESERVE:
                    self._reserve(st, i, node)
                    if gang is not None:
                        gang.reserved(st)
                    if not self.preempting:
                        self._set_aside(st, i, no_room_reason(self.cluster, st, st.asks[i], node))
                        self.node_waiters.add((id(st), i))
                else:
                    self._preempted(st, i, node, victims)
                if ties:
                    tied.append((st.app_id, st.asks[i].id))
                earlier = [t for t in reversed(ties) if t not in earlier] + earlier
                if kind == RESERVE and not self._idle():
                    self._finish(tied)
                    return None
                continue
            ties = [t for t in reversed(ties) if t not in earlier]
            done = self._allocate(st, i, tuple(earlier + ties), notes[0] if notes else "", node)
            if gang is not None:
                gang.allocated(st, i, node)
            return done

    def _idle(self) -> bool:
        """A cycle that allocated nothing and preempted nothing: False when it is the
        IDLE_CYCLES-th in a row with preemption in the run (the run is over then: the recorded
        replays stop there, and a preemption attempt that only cancels reservations, which
        other asks then take again, would otherwise go round without end)."""
        self.idle_cycles += 1
        return not self.preempting or self.idle_cycles < IDLE_CYCLES

    idle_cycles = 0  # cycles in a row without an allocation or a preemption

    def run(self, limit: int | None = None, progress=None) -> list:
        return run_steps(self.step, limit, progress)

    def _try_queue(self, q, ties: list, notes: list):
        if q.stopped:
            return None
        if q.leaf:
            return self._try_leaf(q, ties)
        order, distinct = sort_queues_keyed(q, self._candidates(q), release=self.release)
        for c in order:
            got = self._try_queue(c, ties, notes)
            if got is not None:
                if self._misaligned_at(q):
                    self._map_order_note(q, c, order, ties, notes)
                elif not distinct:  # (distinct keys: no sibling ties with c)
                    self._queue_tie(q, c, order, ties)
                elif CHECK_CACHES:
                    assert queue_tie_note(c, order, self.release) is None, q.path
                return got
        return None

    def _misaligned_at(self, p) -> bool:
        """fair_max_misaligned(p), kept for the run (the fair maxes are fixed once the model is built)."""
        got = self._misaligned_memo.get(id(p))
        if got is None:
            got = self._misaligned_memo[id(p)] = fair_max_misaligned(p, self.release)
        elif CHECK_CACHES:
            assert got == fair_max_misaligned(p, self.release), p.path
        return got

    def _candidates(self, p) -> list:
        """queue_candidates(p), from p's children in name order kept for the run (a queue's
        children do not change during a run)."""
        names = self._by_name.get(id(p))
        if names is None:
            names = self._by_name[id(p)] = sorted(p.children, key=lambda c: c.name)
        got = [c for c in names if not c.stopped and strictly_positive(c.pending)]
        if CHECK_CACHES:
            assert got == queue_candidates(p), p.path
        return got

    def _try_leaf(self, leaf, ties: list):
        self.attempts_left = MAX_PREEMPTIONS_PER_QUEUE  # preemptAttemptsRemaining, per leaf and cycle
        order = self.app_order[id(leaf)]
        if CHECK_CACHES:
            assert [e[3] for e in order] == sort_applications(leaf, self.n_types), leaf.path
        offered = self.stateaware.candidates(leaf) if self.stateaware is not None else None
        for e in order:
            st = e[3]
            if offered is not None and id(st) not in offered:
                continue  # stateaware: not a candidate now (an Accepted one behind a Starting one)
            got = self._try_app(st)
            if got is not None:
                self._app_tie(st, order, ties)
                return got
        return None

    # -- each leaf's applications in sort_applications' order, kept between steps
    def _init_app_order(self) -> None:
        """sort_applications for every leaf, kept: (key, application id, place in leaf.apps,
        state) per application with something pending, sorted. sort_applications is a stable
        sort by the key of a list in id order (itself stable over leaf.apps), so that tuple
        orders the applications as it does. A key changes only with the application's
        priority, usage or pending, so only _allocate and _release move an application
        (_place_app); the leaf's highest priority (current_priority) is kept with it."""
        self.app_order: dict = {}  # id(leaf) -> the sorted entries
        self.app_entry: dict = {}  # id(st) -> its entry in its leaf's order, or None
        self.leaf_prio: dict = {}  # id(leaf) -> MaxTracker of its applications' priorities
        self.app_pos: dict = {}  # id(st) -> its place in leaf.apps
        for q in self.eng.root.walk():
            if not q.leaf:
                continue
            entries = []
            prios = self.leaf_prio[id(q)] = MaxTracker()
            for pos, st in enumerate(q.apps):
                self.app_pos[id(st)] = pos
                prios.add(st.prio)
                e = self._entry(st, pos)
                self.app_entry[id(st)] = e
                if e is not None:
                    entries.append(e)
            entries.sort()
            self.app_order[id(q)] = entries

    def _entry(self, st, pos: int):
        if not strictly_positive(st.pending):  # filterOnPendingResources
            return None
        return (app_sort_key(st, self.n_types, st.prio), st.app_id, pos, st)

    def _place_app(self, st, old_prio: int) -> None:
        """st's key, pending or priority may have changed: its entry again, and the leaf's
        priorities."""
        leaf = st.leaf
        if st.prio != old_prio:
            prios = self.leaf_prio[id(leaf)]
            prios.remove(old_prio)
            prios.add(st.prio)
        old = self.app_entry[id(st)]
        order = self.app_order[id(leaf)]
        if old is not None:
            j = bisect_left(order, old)
            assert order[j] is old
            del order[j]
        e = self.app_entry[id(st)] = self._entry(st, self.app_pos[id(st)])
        if e is not None:
            insort(order, e)

    def _leaf_priority(self, leaf) -> int:
        """current_priority of a leaf, from its kept priorities."""
        raw = self.leaf_prio[id(leaf)].max
        if CHECK_CACHES:
            assert raw == max((ask_max_priority(st) for st in leaf.apps), default=MIN), leaf.path
        return priority_value_by_policy(leaf, raw)

    def _start_refused(self, st):
        """Queue.canRunApp and the user/group manager's CanRunApp for an application that does
        not run yet: (what holds it, the reason) when one says no, else None."""
        if st.running:
            return None
        q = maxapplications_reached(st)
        if q is not None:
            return q, maxapplications_reason(q)
        if self.ugm is not None:
            why = user_cannot_run(self.ugm, st)
            if why is not None:
                return why, why
        return None

    def _cannot_start(self, st) -> bool:
        """Whether the application may not start now (_start_refused): it is skipped. Without
        preemption in the run that is final (running applications only grow): every ask of it is
        set aside with the reason. With it, an application that loses its last allocation with
        nothing pending completes and gives up its place (_release), so it is asked again in
        every cycle, as YuniKorn does."""
        refused = self._start_refused(st)
        if refused is None:
            st.blocked = None
            return False
        st.blocked = refused[0]
        if not self.preempting:
            self._set_aside_all(st, refused[1])
        return True

    def _try_app(self, st):
        """Application.tryAllocate: the first ask, in sortedRequests order, that fits the
        user's and group's headroom, then the headroom of every queue up to root, then a node
        (the first in the partition's order with room, nodes holding a reservation left out);
        an ask that finds no node reserves the node it fits best (tryNodes) and the cycle ends.
        An application that does not run yet starts only within maxapplications. Returns
        (st, ask index, node or None, whether it is a reservation), or None."""
        if not has_live_ask(st):
            return None
        if self._cannot_start(st):
            return None
        path = path_to_root(st.leaf)
        for i in self.order[id(st)]:
            if st.alloc[i] or i in st.dead:
                continue
            if self.gangs is not None and self.gangs.waits(st, i):
                continue  # Application.canReplace: it waits to take a placeholder's place
            ask = st.asks[i]
            if self.ugm is not None:
                short = user_misfit(self.ugm, st, ask)
                if short is not None:
                    if not self.preempting:  # final: usage only grows without preemption
                        self._set_aside(st, i, short)
                    continue
            miss = headroom_misfit(path, ask)
            if miss is not None:
                if self.preempting:  # victims elsewhere may make room under the max later
                    got = self._try_preemption(st, i, ask, False)
                    if got is not None:
                        return got
                    continue
                self._set_aside(st, i, headroom_reason(miss, ask))
                continue
            if self.cluster is None:
                return st, i, None, ALLOCATE, ()
            if ask.required_node:
                got = self._try_required_node(st, i, ask)
                if got is not None:
                    return got
                continue
            got = self._try_nodes(st, i, ask)
            if got is not None:
                return got
            if self.preempting and i not in st.dead:
                got = self._try_preemption(st, i, ask, True)
                if got is not None:
                    return got
        return None

    def _try_nodes(self, st, i: int, ask):
        """Application.tryNodes (find_node): the node to place the ask on, or the one it
        reserves. Without preemption an ask that finds no node never will (free room only
        shrinks, reserved nodes stay reserved: nothing is released), so it is set aside at once,
        once its reservation is made (step); an ask no node could ever hold, always."""
        held = self.reservations.get(id(st), {})
        node, best = find_node(self.cluster, (st.app_id, ask.id), ask.resources, i not in held, self.cluster.admits(ask))
        if node is not None:
            return st, i, node, ALLOCATE, ()
        if best is not None:
            return st, i, best, RESERVE, ()
        if not any(n.fits_node(ask.resources) for n in self.cluster.nodes):
            self._set_aside(st, i, too_big_reason(self.cluster, ask.resources))
        elif not self.preempting:
            self._set_aside(st, i, no_room_reason(self.cluster, st, ask, held.get(i)))
            self.node_waiters.add((id(st), i))
        return None

    # -- an ask with a required node (a YuniKorn DaemonSet pod's)

    def _try_required_node(self, st, i: int, ask):
        """Application.tryRequiredNode: the required node alone, schedulable or not. Reservations
        other asks hold there are cancelled first (cancelReservations: not those of asks that
        require the node too); then tryNode (room, the node not reserved for another ask, the
        predicates); failing that the node is reserved for it, whatever the predicates say
        (unless it holds that reservation already). A node the cluster lacks: set aside (the
        core waits for the node to register; prio's nodes do not change)."""
        node = self.cluster.by_name.get(ask.required_node)
        if node is None:
            self._set_aside(st, i, f"its required node {ask.required_node} is not a node of the cluster")
            return None
        key = (st.app_id, ask.id)
        if node.reserved is not None and node.reserved != key:
            owner, idx = self._holder(node.reserved)
            if owner is not None and not owner.asks[idx].required_node:
                self._unreserve(owner, idx)
                self._wake_node_waiters()
        ok = self.cluster.admits(ask)
        if node.can_allocate(ask.resources, key) and (ok is None or ok[node.index]):
            return st, i, node, ALLOCATE, ()
        if self.reservations.get(id(st), {}).get(i) is node:
            return None
        return st, i, node, RESERVE, ()

    def _holder(self, reserved: tuple):
        """The application state and ask index a node's reservation (application id, ask id) is for."""
        for st in self.holders.values():
            if st.app_id == reserved[0]:
                for j, a in enumerate(st.asks):
                    if a.id == reserved[1]:
                        return st, j
        return None, None

    def _wake_node_waiters(self) -> None:
        """A reservation was cancelled: a node may take asks it closed to them, so the asks set
        aside for want of a node are tried again (YuniKorn tries every pending ask each cycle;
        prio sets aside the ones that cannot be placed while nothing is released)."""
        by_id = {id(st): st for st in self.eng.apps}
        for sid, i in sorted(self.node_waiters, key=lambda k: (by_id[k[0]].app_id, k[1])):
            st = by_id[sid]
            if i in st.dead:
                del st.dead[i]
                for q in path_to_root(st.leaf):
                    q.live += 1
                st.live = min(st.live, i)
        self.node_waiters = set()

    # -- the asks holding a reservation
    def _holding_queues(self) -> set:
        """The ids of the queues with an application holding a reservation in them (their
        leaves and every ancestor): _try_reserved_queue finds nothing anywhere else, and
        sorting a queue has no side effect, so it does not go there."""
        out = set()
        for st in self.holders.values():
            q = st.leaf
            while q is not None and id(q) not in out:
                out.add(id(q))
                q = q.parent
        if CHECK_CACHES:
            assert {id(st) for st in self.holders.values()} == {k for k, v in self.reservations.items() if v}
        return out

    def _try_reserved_queue(self, q, holding: set):
        """Queue.TryReservedAllocate: queues sorted as usual; in a leaf, the applications holding
        reservations in application id order (prio's stand-in for the map). `holding`: the
        queues with such an application (_holding_queues); the others hold nothing to try."""
        if q.stopped or id(q) not in holding:
            return None
        if q.leaf:
            pos = self.app_pos
            holding_here = sorted((st for st in self.holders.values() if st.leaf is q), key=lambda st: (st.app_id, pos[id(st)]))
            if CHECK_CACHES:
                assert holding_here == sorted((st for st in q.apps if self.reservations.get(id(st))), key=lambda st: st.app_id)
            for st in holding_here:
                if not st.running and self._cannot_start(st):
                    continue
                got = self._try_reserved_app(st)
                if got is not None:
                    return got
            return None
        for c in sort_queues(q, release=self.release):
            got = self._try_reserved_queue(c, holding)
            if got is not None:
                return got
        return None

    def _try_reserved_app(self, st):
        """Application.tryReservedAllocate: each reservation (ask id order) that fits the user's,
        group's and queue's headroom is tried on its node; failing all, each on the other
        unreserved nodes in order."""
        held = sorted(self.reservations[id(st)].items(), key=lambda kv: st.asks[kv[0]].id)
        path = path_to_root(st.leaf)

        def headroom_ok(ask):
            if self.ugm is not None and self.ugm.short_of(st.app_id, st.leaf.path, user_of(st), groups_of(st), ask.resources):
                return False
            return headroom_misfit(path, ask) is None

        for i, node in held:
            ask = st.asks[i]
            ok = self.cluster.admits(ask)  # tryNode's predicates (a required node is reserved whatever they say)
            if headroom_ok(ask) and node.can_allocate(ask.resources, (st.app_id, ask.id)) and (ok is None or ok[node.index]):
                return st, i, node, ALLOCATE, ()
        for i, node in held:
            ask = st.asks[i]
            if not headroom_ok(ask) or ask.required_node:
                continue  # other nodes are not tried for an ask with a required node
            ok = self.cluster.admits(ask)  # tryNodesNoReserve: tryNode's preAllocateConditions
            for other in self.cluster.unreserved():
                if other is node or not other.schedulable or not other.fits_node(ask.resources) or (ok is not None and not ok[other.index]):
                    continue
                if other.can_allocate(ask.resources, (st.app_id, ask.id)):
                    return st, i, other, ALLOCATE, ()
        return None

    def _reserve(self, st, i: int, node) -> None:
        """PartitionContext.reserve: an ask holding another node gives it up first; a node that
        is reserved already takes no second reservation."""
        held = self.reservations.get(id(st), {}).get(i)
        if held is node:
            return
        if held is not None:
            self._unreserve(st, i)
        if node.reserved is not None:
            return
        node.reserved = (st.app_id, st.asks[i].id)
        self.reservations.setdefault(id(st), {})[i] = node
        self.holders[id(st)] = st

    # -- preemption inside the run
    def _init_runs(self) -> None:
        """The running allocations preemption may take: what runs when the run starts (the
        model's `running`), in snapshot order."""
        from prio.yunikorn.preemption.world import Run
        from prio.yunikorn.snapshot import created_ns

        self.app_of = {st.app_id: st for st in self.eng.apps}
        # id(ask) -> its create time as YuniKorn has it (unix ns): what an allocation placed in
        # the run is compared with as a victim (newest first)
        self.created: dict = {}
        for st in self.eng.apps:
            self.created.update(created_ns(st.app))
        # id(queue) -> whether it or an ancestor has a guarantee (resources.is_empty: none given)
        self.guaranteed_above = {id(q): any(x.guaranteed for x in path_to_root(q)) for q in self.eng.root.walk()}
        for st, a in self.eng.running:
            self.runs.append(Run(a, st.app_id, st.leaf, len(self.runs)))

    def _try_preemption(self, st, i: int, ask, nodes_tried: bool):
        """Application.tryPreemption: the preconditions (the ask may preempt, has not preempted
        before, has not tried since time last passed, the leaf has attempts left), then YuniKorn's
        Preemptor (preemption.preemptor) on the running allocations now. Returns the outcome
        (st, i, node, PREEMPT, victims) or None."""
        from prio.yunikorn.preemption.preemptor import Preemptor

        key = (st.app_id, ask.id)
        if ask.preemption_policy == "Never" or key in self.triggered or key in self.checked or self.attempts_left <= 0:
            return None
        self.checked.add(key)  # UpdatePreemptCheckTime
        self.attempts_left -= 1
        if not self.guaranteed_above[id(st.leaf)]:
            # no guarantee from the leaf up: the ask queue's remaining guarantee is nil
            # (QueueSnapshot.remaining_guaranteed), so checkPreemptionQueueGuarantees fails
            # whatever the victims, before anything is changed (the Preemptor below would say so)
            if CHECK_CACHES:
                p = Preemptor(self._world(key), st.leaf, ask, nodes_tried)
                assert p.try_preemption() == (None, None) and not p.cancelled, key
            return None
        p = Preemptor(self._world(key), st.leaf, ask, nodes_tried)
        node, victims = p.try_preemption()
        for name in p.cancelled:  # lower-priority reservations initWorkingState cancelled
            n = self.cluster.by_name[name]
            holder = n.reserved
            owner = next((x for x in self.eng.apps if x.app_id == holder[0]), None)
            idx = next((j for j, a in enumerate(owner.asks) if a.id == holder[1]), None) if owner else None
            if idx is not None:
                self._unreserve(owner, idx)
        if node is None:
            return None
        self.victims_tied = p.tied
        return st, i, self.cluster.by_name[node], PREEMPT, victims

    victims_tied = False  # whether the last preemption's victims were a choice of Go's map order

    def _world(self, key):
        """preemption.world.World over the run's state now, with the nodes other asks hold.
        The Preemptor only reads it, so one is kept between attempts (_kept_world): _allocate
        adds its run to it as to self.runs (World.add: the same additions, in the same order,
        as a World built from scratch over the longer list), a release drops it; only the
        reservations are filled in again for each attempt."""
        w = self._kept_world
        if w is None:
            w = self._kept_world = self._fresh_world()
        elif CHECK_CACHES:
            f = self._fresh_world()
            assert w.runs == f.runs and w.nodes == f.nodes and w.root_max == f.root_max
            assert all(list(w.qalloc[q].items()) == list(f.qalloc[q].items()) for q in f.qalloc) and w.qalloc.keys() == f.qalloc.keys()
            assert all(list(w.nused[n].items()) == list(f.nused[n].items()) for n in f.nused) and w.nused.keys() == f.nused.keys()
        w.reservations = {}
        for n in self.cluster.nodes:
            if n.reserved is not None and n.reserved != key:
                owner = self.app_of.get(n.reserved[0])
                ask = next((a for a in owner.asks if a.id == n.reserved[1]), None) if owner else None
                w.reservations[n.name] = (ask.priority if ask else 0, n.reserved in self.triggered)
        return w

    _kept_world = None  # the World _world keeps between attempts (None: built at the next one)

    def _fresh_world(self):
        """preemption.world.World over the running allocations now, without reservations."""
        from prio.yunikorn.preemption.world import World
        from prio.yunikorn.snapshot import Node

        eng = self.eng
        leaves = {st.app_id: st.leaf for st in eng.apps}
        nodes = [Node(n.name, n.capacity, n.schedulable, n.occupied) for n in self.cluster.nodes]
        w = World(eng.root, leaves, nodes, self.runs, True, self.cluster.policy, self.cluster.weights)
        w.judge = self.cluster.judge  # the same nodes in the same order: the predicates' verdicts shared
        w.predicate_plugin = False  # no resource manager plugin answers predicate checks here
        w.tie_by_application = True  # map-order ties by application id, then allocation key
        w.release = eng.release
        return w

    def _preempted(self, st, i: int, node, victims) -> None:
        """TryPreemption succeeded: the victims are released at once (the resource manager kills
        them), the ask never preempts again, and the node is reserved for it."""
        ask = st.asks[i]
        for v in victims:
            self._release(v)
        self.triggered.add((st.app_id, ask.id))
        self._reserve(st, i, node)
        self.idle_cycles = 0
        warning = ""
        miss = headroom_misfit(path_to_root(st.leaf), ask)
        if miss is not None:
            warning = ("the victims freed room on " + node.name + " but not under the queue's max: the ask still "
                       + headroom_reason(miss, ask) + ", and it never preempts again")
        self.eng.preemptions.append(Preemption(self.steps_done + 1, ask.id, st.app_id, st.leaf.path, node.name,
                                               [v.id for v in victims], warning, self.victims_tied))

    def _release(self, run) -> None:
        """A victim leaves: its node, its queues, its application and its user lose its resources."""
        self.runs.remove(run)
        self._kept_world = None  # built again from the runs left (a release subtracts: not a sum in order)
        res = run.res
        self.cluster.change(self.cluster.by_name[run.alloc.node], res, -1)
        st = self.app_of.get(run.app)
        if self.gangs is not None and st is not None:
            self.gangs.preempted(st, run.id)  # a gang's placeholder: gone, counted as timed out
        for q in path_to_root(run.leaf):
            for k, v in res.items():
                q.allocated[k] = q.allocated.get(k, 0) - v
        if st is not None:
            for k, v in res.items():
                st.usage[k] = st.usage.get(k, 0) - v
            self._place_app(st, st.prio)  # the fair policy's key is its usage
            # hasZeroAllocations (removeAllocationInternal): nothing left running and nothing
            # pending, the application completes: it leaves Running (decRunningApps, a place
            # under maxapplications) and its user's and group's trackers
            done = not any(r.app == run.app for r in self.runs) and not any(st.pending.values())
            if done and st.running:
                st.running = False
                for q in path_to_root(run.leaf):
                    q.running -= 1
            if self.ugm is not None:
                self.ugm.remove(run.app, run.leaf.path, user_of(st), groups_of(st), res, done)

    def _time_passes(self) -> bool:
        """After a cycle that placed, preempted and reserved nothing, YuniKorn's retry delay for
        preemption passes (the recorded harness moves every ask's last attempt into the past
        after a cycle without an allocation, a preemption or a change in the partition's count of
        reservations, which the cancellations of initWorkingState leave as it is): asks that
        tried may try again. The run is over when no ask tried (the next cycle would
        be this one again), or when it comes back to a state it was in when time passed before:
        preemption attempts that only cancel a lower-priority reservation, which the next ask
        takes again (one schedulable node left for many asks), would go round until the replay
        stops them (IDLE_CYCLES) without placing anything more."""
        if not self.preempting or not self.checked:
            return False
        state = self._state_when_time_passes()
        if state in self.states_seen:
            return False
        self.states_seen.add(state)
        self.checked.clear()
        return True

    def _state_when_time_passes(self) -> tuple:
        """What decides every later cycle, as it stands when time passes: the allocations and
        preemptions made, the reservations (ask and node), the asks that preempted, the asks
        set aside (the queues' usage, the nodes' room and the running tasks follow from these)."""
        held = frozenset((st_id, i, node.name) for st_id, asks in self.reservations.items() for i, node in asks.items())
        dead = sum(len(st.dead) for st in self.eng.apps)
        return self.steps_done, len(self.eng.preemptions), held, frozenset(self.triggered), dead

    def _unreserve(self, st, i: int) -> None:
        held = self.reservations.get(id(st))
        if held and i in held:
            held.pop(i).reserved = None
            if not held:
                del self.reservations[id(st)]
                del self.holders[id(st)]

    @staticmethod
    def _set_aside(st, i: int, reason: str) -> None:
        """Keep the first reason an ask could not be placed (the engine's leftovers)."""
        if i in st.dead:
            return
        if not st.dead:
            st.dead = {}  # the engine shares one empty dict between applications until the first
        st.dead[i] = reason
        for q in path_to_root(st.leaf):
            q.live -= 1
        while st.live < len(st.asks) and (st.alloc[st.live] or st.live in st.dead):
            st.live += 1

    def _set_aside_all(self, st, reason: str) -> None:
        for i in self.order[id(st)]:
            if not st.alloc[i]:
                self._set_aside(st, i, reason)

    def _finish(self, tied: list) -> None:
        """The run is over. With preemption in the run, an ask still live found no room (none
        of the checks is final then: victims free room): give each its reason in the final state. `tied`: the asks that reserved
        a node after the last step by a choice Go's map order could have made otherwise (no
        step is left to mark: their unscheduled entries are)."""
        if self.finished or self.cluster is None:
            return
        self.finished = True
        self.eng.tied_leftovers = set(tied)
        if not self.preempting:  # every ask that found nothing was set aside at the time
            return
        # no_room_reason reads the nodes, which setting asks aside leaves as they are, the
        # ask's resources and the node it holds: one answer per pair
        no_room: dict = {}
        for st in self.eng.apps:
            refused = self._start_refused(st) if has_live_ask(st) else None
            if refused is not None:
                self._set_aside_all(st, refused[1])
                continue
            held = self.reservations.get(id(st), {})
            path = path_to_root(st.leaf)
            for i in self.order[id(st)]:
                if st.alloc[i] or i in st.dead:
                    continue
                ask = st.asks[i]
                why = user_misfit(self.ugm, st, ask) if self.ugm is not None else None
                if why is None:
                    miss = headroom_misfit(path, ask)
                    if miss is not None:
                        why = headroom_reason(miss, ask)
                    else:
                        k = (tuple(ask.resources.items()), held.get(i), ask.node)  # node: its predicates
                        why = no_room.get(k)
                        if why is None:
                            why = no_room[k] = no_room_reason(self.cluster, st, ask, held.get(i))
                        elif CHECK_CACHES:
                            assert why == no_room_reason(self.cluster, st, ask, held.get(i)), (st.app_id, ask.id)
                self._set_aside(st, i, why)

    # -- the tie notes: choices Go's map order could have made otherwise
    def _queue_tie(self, p, c, order: list, ties: list) -> None:
        note = queue_tie_note(c, order, self.release)
        if note is not None:
            ties.append(note)

    def _app_tie(self, st, order: list, ties: list) -> None:
        """Applications equal to st on the leaf's sort key, in id order, that could still be
        taken (not held by maxapplications, something left to place): up to four named. They
        are st's neighbours in the leaf's order (_init_app_order: equal keys sit together, in
        id order), read from the first of st's key until a fifth is found."""
        key = self.app_entry[id(st)][0]
        tied: list = []
        more = False
        j = bisect_left(order, (key,))  # (key,) sorts before every entry of that key
        while j < len(order) and order[j][0] == key:
            x = order[j][3]
            j += 1
            if x is not st and not x.blocked and has_live_ask(x) and strictly_positive(x.pending):
                if len(tied) == 4:
                    more = True
                    break
                tied.append(x)
        if CHECK_CACHES:  # app_tie_note, the statement, from scratch
            full = app_tie_note(st, sort_applications(st.leaf, self.n_types), self.n_types)
            assert (full[1][:-1] if full else [], bool(full and full[2])) == (tied, more), st.app_id
        if tied:
            ties.append(TieNote("applications", tied + [st], more))

    def _map_order_note(self, p, c, order: list, ties: list, notes: list) -> None:
        """At a parent whose children differ in fair max the outcome depends on the whole input
        order (map_order_alternatives), and may differ from the documented order."""
        others = map_order_alternatives(p, c, order)
        if others:
            ties.append(TieNote("queues", [c, *others]))
        doc = next((d for d in sort_queues(p, aligned=True) if d is c or d.live > 0), c)
        if doc is not c and not notes:
            notes.append(misaligned_note(p, c, doc))

    # -- the allocation
    def _allocate(self, st, i: int, ties: tuple, note: str, node=None, in_place: bool = False) -> Step:
        """Step n+1: ask i of st allocated (on `node`). `in_place`: it takes the place of an
        allocation of st with the very same resources on the same node (a placeholder it
        replaces, gangs.GangRun.same_place), which the caller then removes without giving its
        resources back: the node's, the queues' and the application's usage are left as they
        are (adding and then taking off the same amounts, key for key, leaves them so)."""
        eng = self.eng
        leaf = st.leaf
        path = path_to_root(leaf)
        before = [q.reported for q in path]
        self.steps_done = n = self.steps_done + 1
        eng.steps_done = n
        self.idle_cycles = 0
        ask, now = take_ask(st, i, path, n)
        for k, v in ask.resources.items():
            st.pending[k] -= v
            if not in_place:
                st.usage[k] = st.usage.get(k, 0) + v
        for q in path:
            for k, v in ask.resources.items():
                q.pending[k] -= v
                if not in_place:
                    q.allocated[k] = q.allocated.get(k, 0) + v
            q.live -= 1
        if node is not None:
            if not in_place:
                self.cluster.change(node, ask.resources)
            self._unreserve(st, i)
            eng.step_nodes[n] = node.name
            if self.preempting:  # it runs now: a victim for later asks
                from prio.yunikorn.preemption.world import Run
                from prio.yunikorn.snapshot import Allocation

                run = Run(Allocation(ask.id, ask.priority, ask.resources, node.name, (self.created[id(ask)], 0)), st.app_id, leaf,
                          len(self.runs))
                self.runs.append(run)
                if self._kept_world is not None:
                    self._kept_world.add(run)
        if self.ugm is not None:
            self.ugm.add(st.app_id, leaf.path, user_of(st), groups_of(st), ask.resources)
        if self.stateaware is not None:  # (a gang's real ask allocated while its group waits: a replacement)
            self.stateaware.allocated(st, ask, self.gangs is not None and self.gangs.waits(st, i))
        if CHECK_CACHES:
            assert now == ask_max_priority(st), st.app_id  # its asks are in priority order
        old_prio, st.prio = st.prio, now
        self._place_app(st, old_prio)
        changes = []
        for q, old in zip(path, before):  # leaf up: a parent reads its children's new values
            q.reported = self._leaf_priority(q) if q.leaf else current_priority(q)
            if q.parent is not None and q.reported != old:
                changes.append(change(q, old, q.reported))
        return Step(n, leaf.path, st.app_id, ask.id, ask.priority, changes, ties, note)


ALLOCATE, RESERVE, PREEMPT = "allocate", "reserve", "preempt"  # what one cycle's walk ends in
MAX_PREEMPTIONS_PER_QUEUE = 10  # maxPreemptionsPerQueue: preemption attempts per leaf and cycle
# the recorded replays with preemption in the run stop after this many cycles in a row without an
# allocation or a preemption (../shared/testdata/yunikorn-conformance-3/README.md: YuniKorn itself
# goes on, retrying preemption every 15 s; after that many cycles the replay counts it as settled)
IDLE_CYCLES = 40


class Preemption(NamedTuple):
    """A preemption inside the run: before allocation step `step`, `ask` of `application` in
    `queue` preempted `victims` (in YuniKorn's order) on `node`, which is reserved for it.
    `warning`: why the victims were killed for nothing (the ask still does not fit)."""

    step: int
    ask: str
    application: str
    queue: str
    node: str
    victims: list
    warning: str = ""
    tie: bool = False  # the victims tie with other applications' tasks: Go's map order chose


def headroom_reason(miss, ask) -> str:
    """The reason an ask does not fit the headroom of queue q for resource k (headroom_misfit)."""
    q, k = miss
    cap = "the cluster capacity" if q.parent is None else f"max of {q.path}"
    left = q.max[k] - q.allocated.get(k, 0)
    return (f"does not fit {cap}: needs {k} {show_quantity(k, ask.resources[k])}, "
            f"{show_quantity(k, left)} of {show_quantity(k, q.max[k])} left")


def preemption_in_run(eng) -> bool:
    """Whether YuniKorn's preemption can happen inside the run: nodes, the partition's switch on
    (and not turned off: simulate --no-preemption), and a guarantee somewhere (preemption only
    ever makes room for an ask whose queue, or an ancestor, is under its guarantee:
    checkPreemptionQueueGuarantees fails everywhere else, and has no side effect)."""
    return (eng.cluster is not None and eng.preemption_enabled and eng.loop_preemption
            and any(q.guaranteed for q in eng.root.walk()))


def find_node(cluster, key: tuple, res: dict, may_reserve: bool, ok=None):
    """Application.tryNodes over the unreserved nodes in order: (the first node whose capacity
    fits the ask, whose free room fits it now and which the shim's predicates admit (`ok`:
    Cluster.admits), None), else (None, the node to reserve when `may_reserve`: the lowest
    FitInScore among those whose capacity fits, the first in order on a tie, whatever the
    predicates say of it; but a node the predicates refuse is not reserved
    (preReserveConditions), and then nothing is; None when there is none)."""
    best, best_score = None, float("inf")
    for node in cluster.unreserved():
        if not node.schedulable or not node.fits_node(res):
            continue
        if node.can_allocate(res, key) and (ok is None or ok[node.index]):
            return node, None
        if may_reserve:
            sc = fit_in_score(res, node.available)
            if sc < best_score:
                best, best_score = node, sc
    if best is not None and ok is not None and not ok[best.index]:
        return None, None
    return None, best


def user_misfit(ugm, st, ask):
    """The user/group headroom check (userHeadroom.FitInMaxUndef): None when the ask fits,
    else the reason it does not."""
    short = ugm.short_of(st.app_id, st.leaf.path, user_of(st), groups_of(st), ask.resources)
    if short is None:
        return None
    kind, who, path, k, left, limit = short
    return (f"{kind} {who} quota in {path} exceeded: needs {k} {show_quantity(k, ask.resources[k])}, "
            f"{show_quantity(k, max(left, 0))} of {show_quantity(k, limit)} left")


def user_cannot_run(ugm, st):
    """The user/group manager's CanRunApp for an application that does not run yet: None when it
    may start, else the reason it does not."""
    got = ugm.cannot_run(st.app_id, st.leaf.path, user_of(st), groups_of(st))
    if got is None:
        return None
    kind, who, path, limit, running = got
    return f"{kind} {who} maxapplications {limit} of {path} reached ({running} running)"


def user_of(st) -> str:
    """The application's user for the user/group manager (one user for all when not given)."""
    return st.app.user or DEFAULT_USER


def groups_of(st) -> tuple:
    """The groups the user/group manager resolves the application's user to."""
    return user_groups(user_of(st), st.app.groups)


def too_big_reason(cluster, res: dict) -> str:
    """An ask no node's capacity fits (FitInNode fails everywhere): the resource and the largest node."""
    for k, v in res.items():
        top = max((n.capacity.get(k, 0) for n in cluster.nodes), default=0)
        if v > top:
            return (f"larger than every node: needs {k} {show_quantity(k, v)}, the largest node has "
                    f"{show_quantity(k, top)}")
    return "larger than every node"


def no_room_reason(cluster, st, ask, held) -> str:
    """An ask that fits some node's capacity but found no node when the run ended: a node with
    room held by another ask's reservation; else, when the nodes big enough for it (or those
    with room for it) are all unschedulable (cordoned or draining: tryNodes passes over them),
    those; else the resource short on the schedulable node with the most of it free (and the
    reservation the ask holds, if any)."""
    ok = cluster.admits(ask)
    if ok is None:
        return _no_room(cluster, ask, held, None)
    usable = [n for n in cluster.nodes if n.schedulable and n.fits_node(ask.resources)]
    if usable and not any(ok[n.index] for n in usable):
        return refused_reason(cluster, ask)
    return with_refusals(cluster, ask, _no_room(cluster, ask, held, ok))


def _no_room(cluster, ask, held, ok) -> str:
    """no_room_reason's sentence over the nodes the predicates admit (`ok`: Cluster.admits)."""
    res = ask.resources
    usable = [n for n in cluster.nodes if n.schedulable and n.fits_node(res) and (ok is None or ok[n.index])]
    blocked = [n for n in usable if n.reserved is not None and n is not held and n.can_allocate(res, n.reserved)]
    if blocked:
        n = min(blocked, key=lambda n: n.name)
        return f"node {n.name} has room but is reserved for {n.reserved[1]} (application {n.reserved[0]})"
    cordoned = [n for n in cluster.nodes if not n.schedulable and n.fits_node(res)]
    if not usable and cordoned:
        return _only_unschedulable(cluster, res, cordoned)
    pool = [n for n in usable if n.reserved is None or n is held] or usable
    k = next((t for t in res if res[t] > 0 and all(res[t] > n.available.get(t, 0) for n in pool)),
             next((t for t in res if res[t] > 0), None))
    with_room = [n for n in cordoned if strictly_positive(res) and fit_in(n.available, res)]
    out = f"node {with_room[0].name} has room but is unschedulable; no schedulable node has room" if with_room else "no node has room"
    if k is not None and pool:
        top = max(pool, key=lambda n: (n.available.get(k, 0), n.name))
        out += (f": needs {k} {show_quantity(k, res[k])}, the most free on one node is "
                f"{show_quantity(k, max(top.available.get(k, 0), 0))} ({top.name})")
    if held is not None:
        out += f"; it holds the reservation of {held.name}"
    return out


class Refused(str):
    """A reason that names the nodes the shim's predicates refuse the ask on: the sentence, and
    `nodes`, (node, plugin, Kubernetes' reason, prio's code) per refusing node in the
    cluster's node list order (reasons.classify reads them); `lead`, the code of the refusal
    that decides (the required node's, for an ask that has one: the core tries no other), if
    not the commonest."""

    nodes: tuple = ()
    lead: str = ""


def _refused(sentence: str, cluster, ask, got: list) -> Refused:
    out = Refused(sentence)
    out.nodes = tuple(got)
    only = ask.required_node
    out.lead = next((r[3] for r in got if r[0] == only), "") if only else ""
    return out


def _refusals(cluster, ask) -> list:
    """(node, plugin, reason, code) of each node the predicates refuse the ask on (for an ask
    with a required node, the other nodes the predicates pass as not its required node)."""
    return list(cluster.judge.refusals(ask.node, ask.required_node))


def _histogram(refusals: list) -> str:
    """kube-scheduler's FitError summary: how many nodes gave each reason, reasons sorted."""
    counts: dict = {}
    for r in refusals:
        counts[r[2]] = counts.get(r[2], 0) + 1
    return ", ".join(f"{counts[w]} {w}" for w in sorted(counts))


def refused_reason(cluster, ask) -> Refused:
    """An ask every schedulable node big enough for it refuses by the shim's predicates, in
    kube-scheduler's words ("0/4 nodes are available: 3 node(s) didn't match ...")."""
    got = _refusals(cluster, ask)
    return _refused(f"no node admits the pod: 0/{len(cluster.nodes)} nodes are available: {_histogram(got)}", cluster, ask, got)


def with_refusals(cluster, ask, sentence: str):
    """`sentence` (no room on the nodes that admit the ask) with the nodes that refuse it, if a
    schedulable one does (a cordoned node is never offered: the sentence says so where it counts)."""
    got = _refusals(cluster, ask)
    if not any(cluster.by_name[r[0]].schedulable for r in got):
        return sentence
    return _refused(f"{sentence}; {len(got)} of {len(cluster.nodes)} nodes refuse the pod: {_histogram(got)}", cluster, ask, got)


def _only_unschedulable(cluster, res: dict, cordoned: list) -> str:
    """The reason of an ask that only unschedulable nodes are big enough for: those nodes, and
    the resource every schedulable node is too small in."""
    names = ", ".join(n.name for n in cordoned[:3]) + (f" and {len(cordoned) - 3} more" if len(cordoned) > 3 else "")
    out = f"only unschedulable nodes are big enough ({names})"
    open_nodes = [n for n in cluster.nodes if n.schedulable]
    if not open_nodes:
        return out + ": every node is unschedulable"
    for k, v in res.items():
        top = max(n.capacity.get(k, 0) for n in open_nodes)
        if v > top:
            return out + f": needs {k} {show_quantity(k, v)}, the largest schedulable node has {show_quantity(k, top)}"
    return out


def queue_tie_note(c, order: list, release=None):
    """The tie note of taking queue c from `order` (its parent's sorted candidates): siblings
    equal to c on priority and fair share that pending dominance does not order against c
    either way (their order came from the input, Go's map order), with something left to
    place, in sorted order: up to four named, and whether there were more. None: no tie.
    `release`: whose share the sort compares (queue_share)."""
    prio_first = c.parent.sort_priority
    key = queue_key(prio_first, c.reported, queue_share(c, release))
    tied = [x for x in order if x is not c and x.live > 0 and queue_key(prio_first, x.reported, queue_share(x, release)) == key
            and incomparable(c.pending, x.pending)]
    if not tied:
        return None
    return TieNote("queues", tied[:4] + [c], len(tied) > 4)


def misaligned_note(p, c, doc) -> str:
    """A step's note where YuniKorn's positional fair max took c and the documented order doc."""
    return (f"at {p.path} YuniKorn takes {c.name} where the documented fair-share order would take "
            f"{doc.name}: its queue sort divides a queue's usage by another sibling's fair max once "
            f"it has moved the queues (sortQueuesByPriorityAndFairness indexes fairMaxResources by position)")


def has_live_ask(st) -> bool:
    """Whether the application has an ask neither allocated nor set aside: st.live, the first
    such ask (take_ask and _set_aside move it on past the asks allocated or set aside, and
    nothing is ever given back), is within its asks."""
    got = st.live < len(st.asks)
    if CHECK_CACHES:
        assert got == any(not st.alloc[i] and i not in st.dead for i in range(len(st.asks))), st.app_id
    return got


def map_order_alternatives(p, c, order: list, sort=None) -> set:
    """At a parent sorted with misaligned fair max, the queues other input orders would have
    taken instead of c. For a small map (up to 8 entries, one bucket) Go iterates the slots
    from a random offset, so the children come in a rotation of the order they were added in
    (the config's): every rotation is tried, and for bigger maps, whose order is freer, every
    rotation of the reverse too (at most 16 orders, spread over them)."""
    pos = {id(x): i for i, x in enumerate(p.children)}
    base = sorted(order, key=lambda x: pos[id(x)])
    inputs = [base[i:] + base[:i] for i in range(len(base))]
    if len(p.children) > 8:
        rev = base[::-1]
        inputs += [rev[i:] + rev[:i] for i in range(len(rev))]
        if len(inputs) > 16:
            inputs = inputs[:: -(-len(inputs) // 16)]
    sort = sort or (lambda p, cands: sort_queues(p, cands))  # engine: its cached sort
    others = set()
    for inp in inputs:
        got = next((d for d in sort(p, cands=inp) if d is c or d.live > 0), c)
        if got is not c:
            others.add(got)
    return others


def considered_groups(eng):
    """The pending asks in the order the scheduler would consider them now, no allocation in
    between: a depth-first walk of the tree sorted by sort_queues and sort_applications.
    Yields (application state, its pending asks in sortedRequests order). explain lists a
    million asks this way, so it reads what the engine keeps for each application, which
    test_differential.py holds to this module: its asks already in sortedRequests order, and
    its priority (ask_max_priority)."""
    stack = [eng.root]
    n_types = eng.n_types
    offered = None  # before 1.6, stateaware leaves offer some applications only (stateaware.py)
    if eng.release.stateaware_policy:
        from prio.yunikorn import stateaware

        leaves = stateaware.leaves_of(eng.root)
        offered = stateaware.StateAware(leaves, eng.apps) if leaves else None
    while stack:
        q = stack.pop()
        if q.leaf:
            apps = sorted((st for st in q.apps if strictly_positive(st.pending)), key=lambda st: st.app_id)
            ids = offered.candidates(q) if offered is not None else None
            if ids is not None:
                apps = [st for st in apps if id(st) in ids]
            for st in sorted(apps, key=lambda st: app_sort_key(st, n_types, st.prio)):
                alloc = st.alloc
                yield st, [a for i, a in enumerate(st.asks) if not alloc[i]] if any(alloc) else st.asks[:]
        else:
            stack.extend(reversed(sort_queues(q, release=eng.release)))
