"""The fast engine: Engine, the model (model.Model) scheduled by a walk of heaps, one allocation
per step, and the choice of who runs (run: the reference engine, simplerun or this walk). Pure:
no I/O, no printing.

Selection follows YuniKorn's cycle: descend from root taking the first child in sorted order
(priority, fair share, pending dominance, or fair share first where the parent disables
priority sorting), then the first application by its leaf's sort policy, then the first ask by
priority and create time that fits the headroom. Ties YuniKorn leaves to Go's map order are
broken by name (queue name, application id, ask id).

reference.py states each of those rules as one obviously correct function and sorts everything
again at every step (ReferenceRun). The walk here is an optimisation of those functions, not a
second reading of YuniKorn: it keeps each parent's children and each leaf's applications in a
heap keyed as the reference sorts them, re-keys only the path a step allocated on, and calls the
reference's functions where the heaps cannot answer (parents sorted every step, tie notes).
tests/yunikorn/test_differential.py proves it against the reference, step by step.
"""
from __future__ import annotations

import heapq
from typing import Any

from prio.values import INT32_MIN
from prio.yunikorn import features, gangwalk, reference, simplerun
from prio.yunikorn.appstate import NO_DEAD as _NO_DEAD
from prio.yunikorn.appstate import AppState
from prio.yunikorn.dominance import dominates_vec as _dominates_vec
from prio.yunikorn.dominance import insertion_sort as _insertion_sort
from prio.yunikorn.model import Model
from prio.yunikorn.priorities import report_up
from prio.yunikorn.reference import (
    ReferenceRun,
    find_node,
    headroom_misfit,
    headroom_reason,
    maxapplications_reason,
    no_room_reason,
    too_big_reason,
    user_cannot_run,
    user_misfit,
)
from prio.yunikorn.resources import strictly_positive
from prio.yunikorn.snapshot import Snapshot
from prio.yunikorn.step import NO_CHANGES as _NO_CHANGES
from prio.yunikorn.step import Step, run_steps, take_ask
from prio.yunikorn.tieorder import ParkedGroups
from prio.yunikorn.tree import QNode
from prio.yunikorn.walkcluster import ClusterWalk
from prio.yunikorn.walkties import GENERAL, TieWalk, check_queue_ties, keys_and_vectors, parked_start

MIN = INT32_MIN  # what a queue reports with nothing pending (QNode.reported)
_NO_USAGE: dict = {}  # a user's or group's usage where nothing is tracked yet (read only)

_new_step = tuple.__new__  # Step(...) without NamedTuple's Python-level __new__: a million steps

# The hot path's headroom checks are inline copies of reference.headroom_misfit (_fast_pick,
# _try_app) and user_misfit (_try_app). With this on, each verdict one of them reaches is
# compared with the statement's at that moment (check_headroom, check_user_headroom:
# AssertionError on a difference). The tests turn it on (tests/conftest.py); off, it costs a
# test of this flag where a verdict is reached.
CHECK_HEADROOM = False


def check_headroom(path: list, ask, miss, where: str) -> None:
    """CHECK_HEADROOM: the inline check at `where` found that `ask` fits the queues of `path`
    (`miss` None) or that it does not fit queue q's max for type k (`miss` (q, k)):
    headroom_misfit must say the same."""
    got = headroom_misfit(path, ask)
    same = got is None if miss is None else got is not None and got[0] is miss[0] and got[1] == miss[1]
    assert same, (where, path[0].path, ask.id, miss, got)


def check_user_headroom(ugm, st: AppState, ask, fits: bool, where: str) -> None:
    """CHECK_HEADROOM: the inline check at `where` found that `ask` of `st` fits its user's and
    group's headroom (`fits`) or not: user_misfit must say the same."""
    got = user_misfit(ugm, st, ask)
    assert (got is None) == fits, (where, st.app_id, ask.id, fits, got)


# The heaps' keys are inline copies of reference.queue_key / queue_key_pending (_push,
# _rekey_path) and app_key over usage_shares (_rekey_path; _akey calls them, through
# Model.usage_key). With reference.CHECK_CACHES (read once per
# engine: Engine._check_keys) each key they make is compared with the statement's for that
# queue or application at that moment (check_queue_key, check_app_key).

def check_queue_key(c: QNode, key: tuple, one) -> None:
    """CHECK_CACHES: the heap key `key` of child c (with one resource type `one`, its pending
    folded in) against reference.queue_key over reference.fair_share."""
    assert c.parent is not None  # (a child in its parent's heap)
    share = reference.fair_share(c)
    prio_first = c.parent.sort_priority
    if one is None:
        want = reference.queue_key(prio_first, c.reported, share)
    else:
        want = reference.queue_key_pending(prio_first, c.reported, share, c.pending.get(one, 0))
    reference.key_drift("queue key", c.path, key, want)


def check_app_key(st: AppState, key: tuple, n_types: int) -> None:
    """CHECK_CACHES: the heap key `key` of application st against reference.app_sort_key (its
    priority as kept: st.prio)."""
    reference.key_drift("application key", st.app_id, key, reference.app_sort_key(st, n_types, st.prio))


def _dominates_vec2(l: tuple, r: tuple) -> bool:
    """_dominates_vec for two types (vcore and memory), without map."""
    return l[0] >= r[0] and l[1] >= r[1] and l != r


def _insertion_first_vec(items):
    """_insertion_first over queue heap entries, by the pending vector each entry carries (e[5])."""
    out = list(items)
    keys = [e[5] for e in out]
    return _insertion_sort(out, keys, _dominates_vec2 if keys and len(keys[0]) == 2 else _dominates_vec)


def _in_play(a: AppState, b: AppState) -> bool:
    """Whether application b, tied with a on its leaf's key, could still be taken: a tie."""
    return not b.blocked and b.live < len(b.asks) and strictly_positive(b.pending)


def _pop_alone(heap: list):
    """The common step at one level, shared by queues and leaves: drop stale entries (their
    version is behind their node's) and pop the top entry when it is alone on its (priority,
    share) key. None when the heap is empty or the top ties with the next entry, which is then
    left in place for the general walk (the tie group and its order)."""
    pop = heapq.heappop
    while heap:
        top = pop(heap)
        if top[3] != top[4].version:
            continue
        while heap and heap[0][3] != heap[0][4].version:
            pop(heap)
        if heap and heap[0][0] == top[0] and heap[0][1] == top[1]:
            heapq.heappush(heap, top)
            return None
        return top
    return None


ENGINES = ("auto", "fast", "reference")  # PRIO_ENGINE / --engine: who schedules a run
SIMPLE, WALK = "simplerun", "walk"  # the fast runs: simplerun's loop, this engine's step by step
GANG_WALK = "gangwalk"  # this engine's walk with gang applications (gangwalk.py)
# What this engine's step-by-step walk supports (features.py): everything the model holds today.
# A feature added to the model is left out here until the walk is taught it and proven against
# the reference engine; auto runs then go to the reference engine.
WALK_SUPPORTS = frozenset({
    features.OFFSET, features.FENCE, features.FAIR_SORT, features.PRIORITY_SORT_OFF, features.CAPACITY,
    features.QUEUE_MAX, features.MAXAPPS, features.GUARANTEED, features.STOPPED, features.REST_USAGE,
    features.FAIR_MAX_MISALIGNED, features.SIBLINGS_OVER_20, features.RUNNING, features.TYPES, features.OTHER_TYPES,
    features.PARTIAL_ASKS, features.NOT_POSITIVE_ASKS, features.ZERO_FAIR_MAX,
    features.NODES, features.UNSCHEDULABLE_NODES, features.PREDICATES, features.USER_LIMITS})


class Engine(TieWalk, ClusterWalk, Model):
    """The model (model.Model: the placed applications, queue state, priorities, leftovers and
    the static view explain shows) and how it is scheduled. run() picks the scheduler (ENGINES):
    the reference engine (reference.ReferenceRun), simplerun's loop for the commonest input, or
    this class's walk, which step() takes one allocation at a time.

    The walk: each parent's children and each leaf's applications sit in a heap keyed as
    reference.sort_queues and sort_applications order them (_push, _push_app; an entry whose
    version is behind its node's is stale and dropped when met). _fast_pick takes the common
    step in one loop; otherwise _descend walks the tree as reference's _try_queue does: a child
    alone on its key from the heap, a tie group in its kept order (tieorder.ParkedGroups),
    parents the heaps cannot order sorted by the reference's functions (sorted_children). The
    first application with an ask that fits is allocated (_allocate: take_ask, report_up, and
    the path re-keyed); what can never fit is set aside with its reason (_set_aside). Each step
    notes the ties YuniKorn leaves to Go's map order (TieNote) as the reference does.

    Two concepts live in mixins, reading this class's state: the walk at parents whose children
    tie (walkties.TieWalk: kept tie groups, SliceStable beyond 20 siblings, parents sorted every
    step, the tie notes) and the step with nodes or user/group limits (walkcluster.ClusterWalk).

    The hot path (_fast_pick, _allocate, _descend, _try_app) inlines what it calls per step;
    tests/yunikorn/test_differential.py holds every step, tie note and leftover to the
    reference's."""

    gang_walk_left = ""  # why the gang walk left the run to the reference engine (_from_scratch sets it)

    def __init__(self, root: QNode, snapshot: Snapshot, rules=None, choice: str = "auto", partition=None, release=None):
        """`rules`: the partition's placement rules (a list, possibly empty), or None when the
        queues the snapshot names are taken as given (no config). `choice`: one of ENGINES.
        `release`: the YuniKorn release whose scheduling rules apply (releases.Release; None:
        the newest)."""
        if choice not in ENGINES:
            raise ValueError(f"engine {choice!r}: one of {', '.join(ENGINES)}")
        self.choice = choice
        # A gang input the gang walk may take (gangwalk.py) is run again from scratch by the
        # reference engine when the walk cannot follow it: what building the model changes in
        # the tree (dynamic queues, their state) must not be in the tree that run starts from.
        self._pristine = None
        self._gang_run = None  # gangwalk.WalkGangs while the gang walk runs
        if choice != "reference" and any(a.task_groups for a in snapshot.apps):
            import copy

            self._pristine = (copy.deepcopy(root), rules, partition)
        super().__init__(root, snapshot, rules, partition, release)
        self._heaps_ready = False  # built on the first step: explain never needs them
        self._check_keys = reference.CHECK_CACHES  # the heaps' keys held to their statement
        self._tie_orders = ParkedGroups()  # each parent's tie group order, kept between steps
        self._misaligned: set = set()  # ids of parents sorted every step, no heap (see sorted_children)
        self._by_key: set = set()  # ids of parents with a heap whose tie groups SliceStable orders (_descend_by_key)
        self._sort_memo: dict = {}  # id(parent) -> gosort.stable_order's memo of its blocks
        # id(heap) of a by-key parent with a child pending but nothing live (_set_aside) -> the
        # (priority, share) keys of those children, fixed from then on (see _descend_by_key)
        self._hidden: dict = {}
        self._by_name: dict = {}
        self._rekey: dict = {}  # id(leaf) -> _rekey_plan(its path), for the hot path
        self._limits: dict = {}  # id(leaf) -> [(queue, its max)] along the leaf's path
        self._appcap: dict = {}  # id(leaf) -> whether a queue on its path has maxapplications
        self._placing = self._reserving = None  # with nodes: where _try_app's ask goes, or the node it reserves
        self._user_checks: dict = {}  # id(app) -> _user_checks(app): its user's and group's limits on its path
        self._user_usage: dict = {}  # id(app) -> the usage dicts its allocations add to (_track_usage)
        self._tie: list = []  # the current step's tied choices, leaf first (_descend; step() reverses them)
        self._note = ""

    def run(self, limit: int | None = None, progress=None):
        """The steps until nothing more can be placed (or `limit` of them), by the engine
        `self.choice` names (ENGINES): the reference engine, or the fast ones."""
        if self.choice == "reference":
            return ReferenceRun(self).run(limit, progress)
        if self._gang_run is not None:  # the gang walk ran: it goes on
            return self._walk_gangs(limit, progress)
        if not self._heaps_ready and not self.steps_done:
            runs = ((SIMPLE, simplerun.SUPPORTS), (WALK, WALK_SUPPORTS)) if limit is None else ((WALK, WALK_SUPPORTS),)
            if self.gangs:  # the gang walk alone, or the reference engine (the walk without gangs never runs a gang input)
                runs = ((GANG_WALK, gangwalk.SUPPORTS),)
            got = features.choose(self, runs)
            if got == GANG_WALK and gangwalk.ready(self):
                return self._walk_gangs(limit, progress)
            if self.gangs or got == "reference" and (self.choice == "auto" or features.used(self) & features.REFERENCE_ONLY):
                # a feature no fast run knows (fast asked for: taken where a fast run exists at
                # all; the walk without gangs never runs a gang input)
                return ReferenceRun(self).run(limit, progress)
            if got == SIMPLE and simplerun.ready(self):  # the commonest input without limits
                return simplerun.run(self, progress)
        elif self.gangs:  # (stepped before by another run: the reference engine goes on)
            return ReferenceRun(self).run(limit, progress)
        return self._walk(limit, progress)

    def _walk_gangs(self, limit: int | None, progress) -> list:
        """run() by the gang walk (gangwalk.py); where it cannot follow the input, the
        reference engine runs it again from the input (_from_scratch)."""
        try:
            if self._gang_run is not None:
                return gangwalk.steps(self, self._gang_run, limit, progress)
            return gangwalk.run(self, limit, progress)
        except gangwalk.Bail as e:
            return self._from_scratch(limit, progress, str(e))

    def _from_scratch(self, limit: int | None, progress, why: str) -> list:
        """The reference engine's run of this engine's input, as if it had been asked for from
        the start: a new engine on the tree as it was given, whose state becomes this one's
        (`gang_walk_left`: why the gang walk left it to the reference engine)."""
        pristine = self._pristine
        assert pristine is not None  # (gangwalk.ready)
        root, rules, partition = pristine
        fresh = Engine(root, self.snapshot, rules, "reference", partition, self.release)
        fresh.loop_preemption = self.loop_preemption
        steps = fresh.run(limit, progress)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        self.gang_walk_left = why
        return steps

    def _walk(self, limit: int | None, progress) -> list:
        """run() by the walk: step() until nothing more can be placed (or `limit` steps)."""
        return run_steps(self.step, limit, progress)

    def step(self):
        """One allocation. Returns a Step, or None when nothing more can be placed."""
        if not self._heaps_ready:
            self._build_heaps()
        if self.cluster is not None or self.ugm is not None:
            return self._step_cluster()
        if self.root.live <= 0:
            return None
        if self._tie or self._note:
            self._tie, self._note = [], ""
        got = self._fast_pick() if not self._misaligned else None  # a sorted parent is the general walk's
        if got is None:
            got = self._descend(self.root)
            if got is None:
                return None
        st, i = got
        if self._check_keys:
            check_queue_ties(self, st, self._tie)
        s = self._allocate(st, i)
        if self._tie or self._note:
            s = s._replace(tie=tuple(reversed(self._tie)), note=self._note)
        return s

    # ---- the heaps ------------------------------------------------------------------------
    def _build_heaps(self) -> None:
        self._misaligned = {id(q) for q in self.root.walk() if self.misaligned(q)}
        self._by_key = {id(q) for q in self.root.walk() if id(q) not in self._misaligned and self.beyond_insertion(q)}
        for q in self.root.walk():
            for c in q.children:
                self._push(c)
            for st in q.apps:
                self._push_app(st)
        self._heaps_ready = True

    @staticmethod
    def _share_divisors(q: QNode) -> dict:
        """What share(q) divides each resource type by: guaranteed, else the fair max (a type in
        neither does not count). Fixed for a run: the hot path caches it per queue."""
        g = q.guaranteed
        assert q.fairmax is not None  # every queue's engine state is made (Model._init_state)
        out = dict(q.fairmax)
        if g is not None:
            out.update(g)
        return out

    def _push(self, c: QNode) -> None:
        """(Re)insert a child into its parent's heap with its current key."""
        c.version += 1
        p = c.parent
        if p is None or c.live <= 0 or c.stopped or not strictly_positive(c.pending) or id(p) in self._misaligned:
            return
        k1: Any  # (annotations only: the keys are ints, floats or tuples, by the sort)
        k2: Any
        if p.sort_priority:  # _qkey, inline: this runs for every queue on every allocated path
            k1, k2 = -c.reported, self.share(c)
        else:
            k1, k2 = self.share(c), -c.reported
        if self._one_type is not None:
            k2 = (k2, -c.pending.get(self._one_type, 0))
        if self._check_keys:
            check_queue_key(c, (k1, k2), self._one_type)
        heapq.heappush(p.heap, (k1, k2, c.name, c.version, c, self._vec(c.pending)))

    def _akey(self, st: AppState):
        """st's key in its leaf's heap: reference.app_key over its priority as kept (st.prio)
        and the policy's value (usage_key, or the submission time). _rekey_path has it inline."""
        leaf = st.leaf
        key = reference.app_key(leaf.sort_priority, st.prio, self.usage_key(st) if leaf.sort_policy == "fair" else st.key_submit)
        if self._check_keys:
            check_app_key(st, key, self.n_types)
        return key

    def _push_app(self, st: AppState) -> None:
        st.version += 1
        if st.blocked or st.live >= len(st.asks) or not strictly_positive(st.pending):
            return
        k1, k2 = self._akey(st)
        heapq.heappush(st.leaf.heap, (k1, k2, st.app_id, st.version, st))

    def _pop_group(self, heap):
        """Pop the current entries tied on the first two key parts (stale ones dropped)."""
        group: list = []
        while heap:
            top = heap[0]
            obj = top[4]
            if top[3] != obj.version:
                heapq.heappop(heap)
                continue
            if group and (top[0], top[1]) != (group[0][0], group[0][1]):
                break
            group.append(heapq.heappop(heap))
        return group

    def _ordered(self, heap, groups=None):
        """The live entries of a heap in order, lazily (entries tied on the two key parts in
        the order of their third). Whatever was popped and is still current goes back when the
        caller stops iterating."""
        taken = []
        try:
            while True:
                group = self._pop_group(heap)
                if not group:
                    return
                taken.extend(group)
                if groups is not None:
                    groups[0] = group
                for e in group:
                    if e[3] == e[4].version:
                        yield e[4]
        finally:
            for e in taken:
                if e[3] == e[4].version:
                    heapq.heappush(heap, e)

    def _ordered_children(self, p: QNode, groups=None):
        """Children of p in YuniKorn's order: ties on (priority, share) by pending dominance."""
        return self._tie_orders.ordered(p.heap, _insertion_first_vec, groups)

    def _ordered_apps(self, leaf: QNode, groups=None):
        """Applications of a leaf in its sort policy's order (ties: application id)."""
        return self._ordered(leaf.heap, groups=groups)

    # ---- one scheduling cycle -------------------------------------------------------------
    def _set_aside(self, st: AppState, i: int, reason: str) -> None:
        if st.dead is _NO_DEAD:
            st.dead = {}
        st.dead[i] = reason
        q: QNode | None = st.leaf
        while q is not None:
            q.live -= 1
            if q.live <= 0 and q.parent is not None and id(q.parent) in self._by_key:
                # still pending (what is set aside stays pending in YuniKorn), so still sorted
                # among its siblings, but out of the heap: a shortcut over the heap must know
                # its key, which nothing changes any more (nothing is placed below it: its
                # allocated and its reported priority stay as they are)
                keys = self._hidden.setdefault(id(q.parent.heap), set())
                keys.add(keys_and_vectors(q.parent, [q], self._vec)[0][0])
            q = q.parent

    def _try_leaf(self, leaf: QNode):
        path = self.path_of(leaf)
        # The common case, without the generator: an application alone on its key is taken (or
        # dropped) straight from the heap; a tie group goes the general way below.
        heap = leaf.heap
        while (top := _pop_alone(heap)) is not None:
            got = self._try_app(top[4], path, None)
            if got is not None:
                return got
        groups = [None]
        for st in self._ordered_apps(leaf, groups):
            got = self._try_app(st, path, groups[0])
            if got is not None:
                return got
        return None

    def _try_app(self, st: AppState, path, group):
        """The first ask of `st` that fits, as (st, index), or None (st then has nothing
        placeable now: its entry is stale either way). `group`: st's tie group, if any. With
        user/group limits and nodes (reference.py's rules): the user's and group's headroom
        first, the node after the queues' headroom; an ask that finds no node is returned to
        be reserved for (self._reserving), or set aside."""
        if not st.running:
            q = self.blocked_by_maxapps(st)
            why: str | None = None
            if q is not None:
                why = maxapplications_reason(q)
            elif self.ugm is not None:
                why = user_cannot_run(self.ugm, st)
            if why is not None:
                st.blocked = q or why
                for i in range(st.live, len(st.asks)):
                    if not st.alloc[i] and i not in st.dead:
                        self._set_aside(st, i, why)
                st.live = len(st.asks)
                st.version += 1
                return None
        ugm, cluster = self.ugm, self.cluster
        alloc, dead, asks = st.alloc, st.dead, st.asks
        limits = self._limits.get(id(path[0]))
        if limits is None:  # the queues of the path with a max (fixed for a run)
            limits = self._limits[id(path[0])] = [(q, q.max) for q in path if q.max]
        checks = None
        if ugm is not None:
            checks = self._user_checks.get(id(st))
            if checks is None:
                checks = self._user_checks[id(st)] = self._user_limits(st)
        for i in range(st.live, len(asks)):
            if alloc[i] or i in dead:
                continue
            ask = asks[i]
            if checks:  # user_misfit, inline: the common case fits
                res = ask.resources
                for trackers, who, p, m in checks:
                    t = trackers.get(who)
                    used = (t.usage.get(p) if t is not None else None) or _NO_USAGE
                    for k, v in res.items():
                        if k in m:
                            left = m[k] - used.get(k, 0)
                            if v > (left if left > 0 else 0):
                                break
                    else:
                        continue
                    if CHECK_HEADROOM:
                        check_user_headroom(ugm, st, ask, False, "_try_app")
                    short = user_misfit(ugm, st, ask)  # its reason
                    if short is not None:
                        break
                else:
                    short = None
                    if CHECK_HEADROOM:
                        check_user_headroom(ugm, st, ask, True, "_try_app")
                if short is not None:
                    self._set_aside(st, i, short)
                    continue
            miss = None
            for q, m in limits:  # misfit(path, ask), inline: the common case fits
                alloc_q = q.allocated
                for k, v in ask.resources.items():
                    if k in m and alloc_q.get(k, 0) + v > m[k]:
                        if CHECK_HEADROOM:
                            check_headroom(path, ask, (q, k), "_try_app")
                        miss = self.misfit(path, ask)
                        break
                if miss is not None:
                    break
            if miss is None:
                if CHECK_HEADROOM:
                    check_headroom(path, ask, None, "_try_app")
                if cluster is not None:
                    res = ask.resources
                    node = best = None
                    ok = cluster.admits(ask)
                    for v in res.values():
                        if v <= 0:
                            break
                    else:
                        if res:  # an ask for nothing is never placed (preAllocateCheck)
                            node = cluster.first_with_room(res, ok)
                    if node is None:
                        node, best = find_node(cluster, (st.app_id, ask.id), res, True, ok)
                    if node is None and best is None:
                        self._set_aside(st, i, too_big_reason(cluster, ask.resources) if not any(
                            n.fits_node(ask.resources) for n in cluster.nodes) else no_room_reason(cluster, st, ask, None))
                        continue
                    self._placing, self._reserving = node, best
                if group is not None and len(group) > 1:
                    self._ties_with(st, group, _in_play)
                st.version += 1  # re-keyed by _allocate
                return st, i
            self._set_aside(st, i, headroom_reason(miss, ask))
        self._advance(st)
        st.version += 1
        return None

    def _descend(self, q: QNode):
        if q.leaf:
            return self._try_leaf(q)
        if id(q) in self._misaligned:
            return self._descend_sorted(q)
        if id(q) in self._by_key:
            return self._descend_by_key(q)
        # The common case, without the generator: a child alone on its (priority, share) key is
        # taken (or dropped) straight from the heap; a tie group goes the general way below.
        heap = q.heap
        parked = self._tie_orders.parked
        if parked:
            pk = parked.get(id(heap))
            if pk is not None:
                got = self._descend_parked(q, heap, pk)
                if got is not GENERAL:
                    return got
        while id(heap) not in parked and (top := _pop_alone(heap)) is not None:
            c = top[4]
            got = self._descend(c)
            c.version += 1  # stale either way, as below
            if got is not None:
                return got
        groups: list = [None]
        for c in self._ordered_children(q, groups):
            got = self._descend(c)
            # Either way c's heap entry is stale now: nothing placeable below it (dropped), or an
            # allocation below it (_allocate re-keys it), so the walk need not push it back.
            c.version += 1
            if got is not None:
                if len(groups[0]) > 1:  # ties are recorded leaf first, reversed by step()
                    self._queue_tie(q, c, groups[0])
                return got
        return None

    def _advance(self, st: AppState) -> None:
        n = len(st.asks)
        while st.live < n and (st.alloc[st.live] or st.live in st.dead):
            st.live += 1
        while st.first < n and st.alloc[st.first]:
            st.first += 1

    def _fast_pick(self):
        """_descend(root) in one loop for the common step: at every level the first child is
        alone on its key, or first in a parked tie group that comes before the heap (as
        _descend_parked takes it); at the leaf the first application (by key, then id: a tie
        note names the others tied with it) has a next ask that fits, and is running or starts
        (unless a queue on the path has a maxapplications). Anything else puts back what it took
        (the heaps are then as before, less stale entries; parked groups are only read) and
        returns None: the general walk decides."""
        q = self.root
        parked = self._tie_orders.parked
        pop = heapq.heappop
        hidden = self._hidden
        taken = []
        walked = None  # (parent, its parked group, the index taken) where a parked group decided
        while True:
            heap = q.heap
            if parked:
                pk = parked.get(id(heap))
                if pk is not None:
                    j = parked_start(heap, pk)
                    if j is None:
                        break
                    if walked is None:
                        walked = []
                    walked.append((q, pk, j))
                    q = pk[2][j][4]
                    continue
            while heap:  # the first current entry (stale ones are dropped)
                top = pop(heap)
                if top[3] == top[4].version:
                    break
            else:
                break
            taken.append((heap, top))
            if hidden and id(heap) in hidden:  # a by-key parent's shortcut is blind there
                break
            group = None
            # A stale entry next can only look like a tie (nothing current behind it ties when
            # it does not): the general walk, or the group below, settles that.
            if heap and heap[0][0] == top[0] and heap[0][1] == top[1]:
                if not q.leaf:
                    break
                # applications tied on their key: the first by id (top) is tried, as _try_leaf's
                # walk of the group does; the others go back to the heap
                heapq.heappush(heap, top)
                group = self._pop_group(heap)
                taken[-1:] = [(heap, e) for e in group]
            elif not q.leaf:
                q = top[4]
                continue
            st = top[4]
            i = st.live
            if i >= len(st.asks) or st.alloc[i] or i in st.dead:
                break
            if not st.running:  # starting it: only maxapplications could stop that (_try_app)
                capped = self._appcap.get(id(q))
                if capped is None:
                    capped = self._appcap[id(q)] = any(x.maxapps for x in self.path_of(q))
                if capped:
                    break
            res = st.asks[i].resources
            limits = self._limits.get(id(q))
            if limits is None:
                limits = self._limits[id(q)] = [(x, x.max) for x in self.path_of(q) if x.max]
            for x, m in limits:
                alloc_x = x.allocated
                for k, v in res.items():
                    if k in m and alloc_x.get(k, 0) + v > m[k]:
                        break
                else:
                    continue
                if CHECK_HEADROOM:
                    check_headroom(self.path_of(q), st.asks[i], (x, k), "_fast_pick")
                break
            else:
                if CHECK_HEADROOM:
                    check_headroom(self.path_of(q), st.asks[i], None, "_fast_pick")
                if group is not None:
                    self._ties_with(st, group, _in_play)
                    push = heapq.heappush
                    for e in group[1:]:
                        push(heap, e)
                if walked is not None:  # as _descend_parked after its walk: ties leaf first
                    for p, pk, j in reversed(walked):
                        self._parked_taken(p, pk, j, j)
                return st, i  # what it took goes stale in _allocate, which re-keys the path and st
            break
        push = heapq.heappush
        for heap, e in taken:
            push(heap, e)
        return None

    def _rekey_plan(self, path: list) -> list:
        """What _allocate re-keys after a step on this path (leaf first), fixed for a run: each
        queue that sits in its parent's heap (not root, not Stopped, the parent not sorted by
        the Go emulation) with that heap, what its share divides by, and its parent's sort."""
        return [(c, c.parent.heap, self._share_divisors(c), c.parent.sort_priority)
                for c in path if c.parent is not None and not c.stopped and id(c.parent) not in self._misaligned]

    def _rekey_path(self, st: AppState, leaf: QNode, path: list) -> None:
        """After a step (or a reservation) on this path: push the application back into its
        leaf's heap and every queue of the path back into its parent's, with their keys now."""
        # what changed: this app (_push_app), and every queue on the path in its parent's
        # heap (_push)
        usage = st.usage
        push = heapq.heappush
        k1: Any  # (annotations only: the keys are ints, floats or tuples, by the sort)
        k2: Any
        st.version += 1
        positive = self._positive
        check = self._check_keys
        if not st.blocked and st.live < len(st.asks):
            pos = positive  # else strictly_positive(st.pending), inline
            if not pos:
                for v in st.pending.values():
                    if v < 0:
                        pos = False
                        break
                    if v > 0:
                        pos = True
            if pos:
                if leaf.sort_policy == "fair":  # _akey and usage_key (reference.usage_shares), inline
                    total = leaf.guaranteed
                    if total:
                        shares = [v / total[k] if total.get(k) else float(v) for k, v in usage.items()]
                    else:
                        shares = [float(v) for v in usage.values()]
                    shares.sort(reverse=True)
                    u = tuple(shares)
                    if len(u) < self.n_types:
                        u += (0.0,) * (self.n_types - len(u))
                    if leaf.sort_priority:
                        k1, k2 = -st.prio, u
                    else:
                        k1, k2 = u, -st.prio
                elif leaf.sort_priority:  # _akey's fifo keys, inline
                    k1, k2 = -st.prio, st.key_submit
                else:
                    k1, k2 = st.key_submit, -st.prio
                if check:
                    check_app_key(st, (k1, k2), self.n_types)
                push(leaf.heap, (k1, k2, st.app_id, st.version, st))
        one = self._one_type
        vec = self._vec
        plan = self._rekey.get(id(leaf))
        if plan is None:
            plan = self._rekey[id(leaf)] = self._rekey_plan(path)
        for c, heap_p, dv, prio_first in plan:
            if c.live <= 0:
                continue
            pend = c.pending
            if not positive:  # strictly_positive(c.pending), inline
                pos = False
                for v in pend.values():
                    if v < 0:
                        pos = False
                        break
                    if v > 0:
                        pos = True
                if not pos:
                    continue
            # share(c), inline: the divisor of each type (guaranteed, else fair max) is fixed
            sh = 0.0
            for k, a in c.allocated.items():
                if a > 0:
                    d = dv.get(k)
                    if d is not None:
                        v = 1.0 if d <= 0 else a / d
                        if v > sh:
                            sh = v
            if prio_first:
                k1, k2 = -c.reported, sh
            else:
                k1, k2 = sh, -c.reported
            if one is not None:  # vec(pend) inline
                p1 = pend.get(one, 0)
                if check:
                    check_queue_key(c, (k1, (k2, -p1)), one)
                push(heap_p, (k1, (k2, -p1), c.name, c.version, c, (p1,)))
            else:
                if check:
                    check_queue_key(c, (k1, k2), None)
                push(heap_p, (k1, k2, c.name, c.version, c, vec(pend)))

    def _allocate(self, st: AppState, i: int) -> Step:
        # The hot path of every step: the ask taken (take_ask) and the priority change walked up
        # (report_up) as simplerun has them; _push_app and _push inlined.
        self.steps_done = n = self.steps_done + 1
        leaf = st.leaf
        path = leaf.chain  # set by _try_leaf (path_of)
        ask, new = take_ask(st, i, path, n)
        res = ask.resources
        pend, usage = st.pending, st.usage
        if len(res) == 1:  # the common ask, {pods: 1}: no loop over its types
            [(k, v)] = res.items()
            pend[k] -= v
            usage[k] = usage.get(k, 0) + v
            for q in path:
                qp = q.pending
                qp[k] -= v
                qa = q.allocated
                qa[k] = qa.get(k, 0) + v
                q.live -= 1
                q.version += 1  # re-keyed below (or dropped): its heap entry is stale either way
        else:
            items = res.items()
            for k, v in items:
                pend[k] -= v
                usage[k] = usage.get(k, 0) + v
            for q in path:
                qp, qa = q.pending, q.allocated
                for k, v in items:
                    qp[k] -= v
                    qa[k] = qa.get(k, 0) + v
                q.live -= 1
                q.version += 1  # as above
        # priorities: app, then up the path
        changes = _NO_CHANGES
        if new != st.prio:
            old = st.prio
            st.prio = new
            changes = report_up(leaf, old, new) or _NO_CHANGES
        self._rekey_path(st, leaf, path)
        return _new_step(Step, (n, leaf.path, st.app_id, ask.id, ask.priority, changes, (), ""))


    def _replace_step(self, st: AppState, i: int, node, tie: tuple) -> Step:
        """The step of real ask i taking the place of its placeholder on `node` in place
        (gangwalk.py: the very resources of the placeholder, whose usage passes to it): as
        _allocate, but the queues', the application's and the node's usage stay as they are;
        only the pending resources and the priorities change (ReferenceRun._allocate's
        in_place). The user's and group's usage gain it here and lose the placeholder in
        GangRun.replaced, as the reference's. The heaps are re-keyed along the path before the
        walk runs again (gangwalk.WalkGangs.flush): replacement does not read them."""
        self.steps_done = n = self.steps_done + 1
        leaf = st.leaf
        path = self.path_of(leaf)
        ask, new = take_ask(st, i, path, n)
        items = ask.resources.items()
        pend = st.pending
        for k, v in items:
            pend[k] -= v
        for q in path:
            qp = q.pending
            for k, v in items:
                qp[k] -= v
            q.live -= 1
        if node is not None:
            self.step_nodes[n] = node.name
        if self.ugm is not None:
            self._track_usage(st, ask.resources)
        changes = _NO_CHANGES
        if new != st.prio:
            old = st.prio
            st.prio = new
            changes = report_up(leaf, old, new) or _NO_CHANGES
        return Step(n, leaf.path, st.app_id, ask.id, ask.priority, changes, tie, "")
