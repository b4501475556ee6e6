"""The model the engines schedule: applications placed in the queue tree (placement rules,
dynamic queues), each queue's pending and allocated resources and its counted priority tracker,
and the priorities YuniKorn keeps eventually consistent, computed once from scratch. Pure: no
I/O, no printing.

Priorities are maintained incrementally as YuniKorn maintains them: an application's priority is
the highest priority of its unallocated asks, a leaf's the highest of its applications, a
parent's the highest its children report; a queue reports that plus its offset (saturating at
int32), only its offset when fenced, and -2147483648 ("nothing pending") when it has no pending
asks. Every tracker is a counted max-heap (maxtracker.MaxTracker): adding is O(log n) with an
O(1) max update, removing is amortised O(log n).

Nodes (with reservations) and user/group limits are the reference engine's (reference.py): the
model holds the nodes with what already runs on them (nodes.Cluster) and the limits with the
users' and groups' usage (ugm.Usage). Without nodes the capacity is one pool. A gang
application's placeholders and held-back real asks are gangs.py's (the gang walk or the reference engine runs them).
No preemption. Headroom only shrinks and running applications only grow in
this model, so an ask that does not fit, or an application over maxapplications, never will: it
is set aside at once with its reason and never scanned again.

Model is the base of engine.Engine: what it answers (the static view explain shows, the
leftovers, the facts features.py reads) needs no scheduling step.
"""
from __future__ import annotations

import operator
from typing import NamedTuple

from prio.errors import InputError
from prio.values import INT32_MIN as MIN
from prio.yunikorn import acl, gangs, reference
from prio.yunikorn.appstate import AppState
from prio.yunikorn.gosort import BLOCK
from prio.yunikorn.maxtracker import MaxTracker
from prio.yunikorn.nodes import Cluster
from prio.yunikorn.placement import RECOVERY_QUEUE, Rejected, place
from prio.yunikorn.reference import (
    considered_groups,
    fair_max_misaligned,
    fair_share,
    headroom_misfit,
    maxapplications_reached,
    path_to_root,
    priority_value_by_policy,
)
from prio.yunikorn.releases import NEWEST
from prio.yunikorn.snapshot import Allocation, Snapshot
from prio.yunikorn.tree import QNode, ensure_queue, fair_max, set_fairmax
from prio.yunikorn.ugm import DEFAULT_USER, Usage, limits_of, user_groups

_RESOURCES = operator.attrgetter("resources")


class Unscheduled(NamedTuple):
    ask: str
    application: str
    queue: str
    priority: int
    reason: str


def vector_of(types: tuple):
    """A function from a resources dict to a tuple over `types` (missing = 0): pending
    dominance between two queues is then a comparison of tuples (dominance.dominates_vec)."""
    if len(types) == 1:
        (t,) = types
        return lambda r: (r.get(t, 0),)
    if len(types) == 2:
        t0, t1 = types
        return lambda r: (r.get(t0, 0), r.get(t1, 0))
    return lambda r: tuple([r.get(t, 0) for t in types])


def namespace_limits(leaf: QNode, tags: dict) -> None:
    """PartitionContext.AddApplication: an application whose tags carry its namespace's quota,
    guaranteed resources or maxApps sets them on the unmanaged (dynamic) queue it is placed in,
    each application again (the last one's stay); a quota or guarantee given replaces both."""
    from prio.kube import shim

    get = {str(k).lower(): v for k, v in tags.items()}.get
    quota, guaranteed = shim.tag_resource(get(shim.QUOTA_TAG)), shim.tag_resource(get(shim.GUARANTEED_TAG))
    apps = get(shim.MAX_APPS_TAG)
    max_apps = int(apps) if apps and apps.isdigit() else 0
    if quota is None and guaranteed is None and not max_apps:
        return
    if max_apps:
        leaf.maxapps = max_apps
    if quota is not None or guaranteed is not None:
        leaf.max, leaf.guaranteed = quota, guaranteed
        if getattr(leaf, "tracker", None) is not None and leaf.parent is not None:  # its engine state is made already
            parent_fm = leaf.parent.fairmax
            assert parent_fm is not None  # (so is its parent's: made top-down)
            leaf.fairmax = fair_max(parent_fm, leaf.max)


class Model:
    """The queue tree with the applications placed in it and every queue's engine state
    (pending, allocated, live asks, running applications, priority tracker and reported
    priority), built from a snapshot; the rules' answers that need no scheduling step (fair
    share, usage ratio, headroom misfit, maxapplications, which parents the heaps cannot order);
    and the asks set aside so far (leftovers)."""

    def __init__(self, root: QNode, snapshot: Snapshot, rules=None, partition=None, release=None):
        """`rules`: the partition's placement rules (a list, possibly empty), or None when the
        queues the snapshot names are taken as given (no config). `partition`: the partition's
        config (config.Partition: node sort policy, user and group limits), when there is one.
        `release`: the YuniKorn release whose scheduling rules apply (releases.Release; None:
        the newest)."""
        self.release = release or NEWEST
        self.root = root
        self.snapshot = snapshot
        self.rejected: list[Rejected] = []
        self.apps: list[AppState] = []
        types = set(snapshot.capacity or ())
        ask_types: set = set()
        for app in snapshot.apps:
            types.update(app.allocated)
            if app.asks:
                ask_types.update(*map(_RESOURCES, app.asks))
        types |= ask_types
        self.n_types = len(types)
        # With one resource type among the asks, "pending strictly dominates" is a plain "more
        # pending": the walk's _push then keys ties by it (the same order as the insertion sort,
        # in the heap).
        self._one_type = next(iter(ask_types)) if len(ask_types) == 1 else None
        # Every queue's heap entry carries its pending resources as a tuple over these types:
        # ties are ordered and checked by comparing tuples, not dicts.
        self._ask_types = tuple(sorted(ask_types))
        self._vec = vector_of(self._ask_types)
        set_fairmax(root, snapshot.capacity, sorted(types))
        self.steps_done = 0
        for q in root.walk():
            self._init_state(q)
        where = snapshot.source or "snapshot"
        # id -> the resources dict of each ask shape among the applications' asks (loaders share
        # one dict per shape: a handful for a million asks), for the runs that key by shape
        self.ask_shapes: dict = {}
        # Where place() put the applications so far, by what it reads of one (the queue asked
        # for, user, groups, and whether YuniKorn placed it already): the same answer while the
        # tree stays as it is. A queue created for an application can change the answers (a rule
        # that creates nothing now finds it), so they are forgotten then.
        placed: dict = {}
        closed = rules is not None and acl.nobody_may_submit(root)  # said with each rejection
        # gang applications: id(AppState) -> gangs.Gang; the gang fields of each step (step ->
        # (placeholder, task group, the placeholder it replaces)); releases and timeouts (gangs.Event)
        self.gangs: dict = {}
        self.gang_steps: dict = {}
        self.gang_events: list = []
        self.gang_moved: dict = {}  # step -> the node of the placeholder it replaced, when it ran elsewhere
        self.gang_hooks = gangs.GangRun  # what the reference engine runs them with
        for app in snapshot.apps:
            if app.rejected is not None:  # YuniKorn already refused it (a live server, state: Rejected)
                self.rejected.append(Rejected(app.id, app.queue, app.rejected))
                continue
            # (a loader's list of groups too; tags for tag rules and the recovery rule)
            if not app.queue and rules is None and not app.placed:
                raise InputError(where, f"application {app.id} names no queue, and without a queue config no placement rule "
                                        "can give it one: give its queue (a full path like root.tenants.a) or the queue config", app.line)
            seen = (app.queue, app.queue_raw, app.user, tuple(app.groups), app.placed,
                    tuple(app.tags.items()) if app.tags else ())
            path = placed.get(seen)
            if path is None:
                path, rejected = place(root, app, None if app.placed else rules, closed)
                if rejected is not None:  # (not kept: its words name the application)
                    self.rejected.append(rejected)
                    continue
                assert path is not None  # place gives a path when it rejects nothing
            leaf = ensure_queue(root, path, where, app.line)
            if path == RECOVERY_QUEUE and getattr(leaf, "tracker", None) is None:
                # NewRecoveryQueue: fifo, nothing of a child template, no ACL (it admits no one else)
                leaf.apply_properties({}, {})
                leaf.maxapps, leaf.guaranteed, leaf.max = 0, None, None
                leaf.notes[:] = ["the recovery queue: forced applications (pods already bound) no rule placed"]
            elif leaf.dynamic and app.tags:
                namespace_limits(leaf, app.tags)
            if getattr(leaf, "tracker", None) is None:  # created just now (given its state below)
                placed.clear()
            else:
                placed[seen] = path
            if app.task_groups:  # a gang application (features.GANGS: gangwalk.py, else the reference engine)
                refused = gangs.refusal(leaf, app)
                if refused is not None:
                    self.rejected.append(Rejected(app.id, leaf.path, refused))
                    self._attach_new_queues(leaf)
                    continue
                app = gangs.with_placeholders(app, snapshot.priority_classes)
            st = AppState(app, leaf, self.ask_shapes)
            if app.task_groups:
                self.gangs[id(st)] = gangs.withhold(st)
            self._attach_new_queues(leaf)
            self.apps.append(st)
            leaf.apps.append(st)
        for st in self.apps:
            self._add_app(st)
        # The cluster's nodes, with what runs on them, and the user/group limits (reference
        # engine only: features.NODES, features.USER_LIMITS).
        self.cluster = None
        self.step_nodes: dict = {}  # step number -> the node it placed on (with nodes)
        self.tied_leftovers: set = set()  # (application, ask) reserved after the last step by a tied choice
        self.preemptions: list = []  # reference.Preemption: YuniKorn's preemption inside the run
        self.preemption_enabled = partition.preemption_enabled if partition is not None else True
        self.loop_preemption = True  # simulate --no-preemption turns it off
        if snapshot.nodes:
            self.cluster = Cluster(snapshot.nodes, partition.nodesort_type if partition is not None else None,
                                   partition.resourceweights if partition is not None else None)
        limits = limits_of(partition)
        self.ugm = Usage(limits, snapshot.tracked) if limits else None
        self.running: list = []  # (AppState, snapshot.Allocation): what runs when the run starts
        if self.cluster is not None or self.ugm is not None:
            self._place_running()
        if self.ugm is not None:  # a live YuniKorn's tracked usage, where the applications do not hold it
            self.ugm.include(snapshot.tracked)
        # When every ask asks for something and nothing negative, whatever has an ask neither
        # allocated nor set aside (live) has strictly positive pending resources: the hot path
        # then need not check.
        self._positive = all(st.positive for st in self.apps)
        for q in root.walk():
            # A REST dump's queue usage includes applications the dump of applications may not
            # hold: take the larger of the two per resource.
            for k, v in (q.base_allocated or {}).items():
                if v > q.allocated.get(k, 0):
                    q.allocated[k] = v
        # priorities bottom-up from scratch (the eventually consistent values)
        for q in sorted(root.walk(), key=lambda q: -q.depth):
            q.reported = priority_value_by_policy(q, q.tracker.max)
            if q.parent is not None and q.reported != MIN:
                q.parent.tracker.add(q.reported)

    def _place_running(self) -> None:
        """What already runs (self.running: (application state, Allocation) in snapshot order):
        each application's `allocations`, or its `allocated` as one allocation on the first node,
        placed on its node and counted in its user's and group's usage."""
        first = self.cluster.nodes[0].name if self.cluster is not None else ""
        for st in self.apps:
            app = st.app
            if app.allocations is not None:
                allocs = app.allocations
            elif app.allocated:
                allocs = [Allocation(f"{app.id}-allocated", 0, app.allocated, first, app.submit_time)]
            else:
                continue
            for a in allocs:
                self.running.append((st, a))
                if self.cluster is not None:
                    self.cluster.change(self.cluster.by_name.get(a.node) or self.cluster.nodes[0], a.resources)
                if self.ugm is not None:
                    user = app.user or DEFAULT_USER
                    self.ugm.add(st.app_id, st.leaf.path, user, user_groups(user, app.groups), a.resources)

    @staticmethod
    def _init_state(q: QNode) -> None:
        q.tracker = MaxTracker()
        q.reported = MIN
        q.pending, q.allocated = {}, {}
        q.running = q.live = q.version = q.placed = 0
        q.heap, q.apps = [], []  # heap and version: the fast walk's (engine)
        q.first_step = q.last_step = None
        if q.fairmax is None:  # a dynamic queue: its parent's fair max overlaid by its own max
            parent_fm = q.parent.fairmax if q.parent is not None else {}
            assert parent_fm is not None  # the parent's state is made first (top-down)
            q.fairmax = fair_max(parent_fm, q.max)

    def _attach_new_queues(self, leaf: QNode) -> None:
        """Give dynamic queues created for this snapshot their engine state, top-down."""
        new = []
        q: QNode | None = leaf
        while q is not None and getattr(q, "tracker", None) is None:
            new.append(q)
            q = q.parent
        for q in reversed(new):
            self._init_state(q)

    def _add_app(self, st: AppState) -> None:
        leaf = st.leaf
        n = len(st.asks)
        if self.gangs and id(st) in self.gangs:  # the real asks the shim holds back are not live
            n -= len(self.gangs[id(st)].hidden)
        q: QNode | None = leaf
        while q is not None:
            for k, v in st.pending.items():
                q.pending[k] = q.pending.get(k, 0) + v
            for k, v in st.usage.items():
                q.allocated[k] = q.allocated.get(k, 0) + v
            q.live += n
            if st.running:
                q.running += 1
            q = q.parent
        if st.prio != MIN:
            leaf.tracker.add(st.prio)

    # ---- the rules' answers ---------------------------------------------------------------
    share = staticmethod(fair_share)  # the hot path inlines it (engine: _allocate, _push)

    def usage_key(self, st: AppState):
        """CompUsageRatio as a plain tuple (reference.usage_shares, the statement: shares
        descending, padded with zeros to the number of resource types, so tuples compare exactly
        as Go compares the padded lists). The walk's hot path has its copy inline
        (Engine._rekey_path), held to the statement under reference.CHECK_CACHES. Read through
        the module, so that a statement changed there (test_stated_once) reaches this key and
        only the inline copy is left to disagree."""
        return reference.usage_shares(st.usage, st.leaf.guaranteed, self.n_types)

    # ---- parents sorted as YuniKorn sorts them, every step (engine.sorted_children) ---------
    # The heaps order a parent's children by (priority, fair share), then a tie group by an
    # insertion sort over pending dominance in name order. That is YuniKorn's sort.SliceStable
    # exactly when the comparator is a strict weak order (one resource type: dominance is "more
    # pending"), or when there are at most 20 candidates (SliceStable is then one insertion
    # sort, which keeps the keys in order and insertion-sorts each key group). Elsewhere the
    # order of a tie group also depends on the queues around it (Go's blocks of 20 and merges),
    # and where siblings differ in fair max YuniKorn compares a queue with another position's:
    # such parents are sorted again at every step (reference.sort_queues, walkties.sort_queues_by_key).

    def misaligned(self, p: QNode) -> bool:
        return fair_max_misaligned(p, self.release)

    def beyond_insertion(self, p: QNode) -> bool:
        """Whether p's order can depend on SliceStable's merges: more than 20 children (an upper
        bound on the candidates) and pending compared over two or more resource types."""
        return not p.leaf and len(p.children) > BLOCK and len(self._ask_types) > 1

    @staticmethod
    def path_of(q: QNode):
        """The queue and its ancestors, leaf first (cached: the tree is fixed once built)."""
        chain = getattr(q, "chain", None)
        if chain is None:
            chain = q.chain = path_to_root(q)
        return chain

    blocked_by_maxapps = staticmethod(maxapplications_reached)
    misfit = staticmethod(headroom_misfit)  # engine's _try_app inlines the common case that fits

    def leftovers(self) -> list[Unscheduled]:
        """Asks set aside (they can never be placed), with their reasons."""
        out = []
        for st in self.apps:
            stopped = next((q for q in self.path_of(st.leaf) if q.stopped), None)
            if stopped is None and not st.dead:  # nothing set aside: no reason to look for
                continue
            for i, a in enumerate(st.asks):
                reason = st.dead.get(i)
                if reason is None and stopped is not None and not st.alloc[i]:
                    reason = f"queue {stopped.path} is Stopped: YuniKorn schedules nothing from it"
                if reason is not None:
                    out.append(Unscheduled(a.id, st.app_id, st.leaf.path, a.priority, reason))
        return out

    # ---- the static view explain shows ------------------------------------------------------
    def considered_order(self):
        """Pending asks in the order the scheduler would consider them now (no allocation in
        between): a depth-first walk of the sorted tree. Yields (AppState, Ask)."""
        for st, asks in self.considered_groups():
            for a in asks:
                yield st, a

    def considered_groups(self):
        """considered_order by application: (AppState, its pending asks in order)."""
        return considered_groups(self)
