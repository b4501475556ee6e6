"""YuniKorn's preemption for pending asks, as apache/yunikorn-core does it (objects/preemption.go,
queue.go FindEligiblePreemptionVictims, application.go tryAllocate/tryPreemption), on a model:
the queue tree (tree.QNode), the running allocations and the nodes of a snapshot.

Pure: no I/O. `analyse` runs YuniKorn's scheduling cycles on the snapshot (asks in YuniKorn's
order, each placed, preempted for, or failed, until nothing changes) and returns per ask the
outcome, the victims in the order YuniKorn picks them, the node, YuniKorn's reason string, plus
the why computed in the initial state: the fence root and why it stops there, the ask's priority
as translated at each queue up to the fence root, and every running task with why it is or is
not a candidate.

Resources follow Go's *Resource: None is nil, {} is an empty (non-nil) resource; functions named
after YuniKorn's keep their nil semantics, which decide outcomes in corner cases.

Assumptions, as the recordings in ../shared/testdata/yunikorn-preemption make them: every
preemption.delay has passed, the resource manager accepts every victim set (the mock callback of
yunikorn-core: success at the start index) and releases victims at once, then the ask is placed
on the node YuniKorn reserved for it. Where Go leaves an order to map iteration, ties go by
queue path, then application, then the allocation's order in the snapshot.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.yunikorn import properties as P
from prio.yunikorn.engine import Engine
from prio.yunikorn.snapshot import Allocation, App, Ask, Snapshot

_STOP = object()  # a victim loop ends here

# YuniKorn's own failure messages (pkg/common/errors.go, objects/application.go)
NOT_ENOUGH_QUEUE_QUOTA = "Not enough queue quota"
DOES_NOT_HELP = "Preemption does not help"
GUARANTEE_FAILED = "Preemption queue guarantees check failed"
SHORTFALL = "Preemption helped but short of resources"
PRECONDITIONS_FAILED = "Preemption preconditions failed"
NOT_ATTEMPTED_NEVER = "not attempted: preemptionPolicy Never"
NOT_ATTEMPTED_PARTITION = "not attempted: preemption disabled in partition"

_SCORE_ORIGINATOR = 1 << 33
_SCORE_NO_PREEMPT = 1 << 34
_SCORE_UNFIT = 1 << 35
_SCORE_FIT_MAX = 1 << 32
_BATCH = 10  # preemptCheckConcurrency


# ---- results ---------------------------------------------------------------------------------

@dataclass
class Candidate:
    """A running task and why the victim search does or does not take it."""

    id: str
    application: str
    queue: str
    node: str
    priority: int
    eligible: bool
    why: str
    compared_with: int | None = None  # the ask's priority as seen from the task's queue


@dataclass
class AskResult:
    ask: str
    application: str
    queue: str
    priority: int
    outcome: str = "not placed"  # allocated | preempted | not placed
    node: str | None = None
    victims: list = field(default_factory=list)
    reason: str = ""
    fence_root: str = ""
    fence_why: str = ""
    eligible: list = field(default_factory=list)  # candidate ids, sorted
    priority_by_queue: list = field(default_factory=list)  # (queue, priority), fence root first
    log: list = field(default_factory=list)
    candidates: list = field(default_factory=list)  # Candidate, every running task
    preconditions: list = field(default_factory=list)  # (check, passed, detail)
    fits_now: bool = False  # fits (queue headroom and a node) as things stand


@dataclass
class Result:
    asks: list  # AskResult, in snapshot order
    nodes: list  # node names
    notes: list = field(default_factory=list)


# ---- Go's resource arithmetic (nil-aware) ----------------------------------------------------

def _empty(r) -> bool:
    return r is None or len(r) == 0


def _clone(r):
    return None if r is None else dict(r)


def _add(left, right) -> dict:
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = out.get(k, 0) + v
    return out


def _sub(left, right) -> dict:
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = out.get(k, 0) - v
    return out


def _add_to(r: dict, add) -> None:
    for k, v in (add or {}).items():
        r[k] = r.get(k, 0) + v


def _sub_from(r: dict, sub) -> None:
    for k, v in (sub or {}).items():
        r[k] = r.get(k, 0) - v


def _sub_only_existing(base, delta):
    if base is None or delta is None:
        return _clone(base)
    return {k: v - delta.get(k, 0) for k, v in base.items()}


def _cw_min(left, right):
    if left is None and right is None:
        return None
    if left is None:
        return dict(right)
    if right is None:
        return dict(left)
    out = dict(left)
    for k, v in right.items():
        out[k] = min(v, left[k]) if k in left else v
    return out


def _cw_min_only_existing(left, right):
    if left is None:
        return None
    if right is None:
        return dict(left)
    return {k: (min(v, right[k]) if k in right else v) for k, v in left.items()}


def _merge_if_not_present(left, right):
    if left is None and right is None:
        return None
    if left is None:
        return dict(right)
    out = dict(left)
    for k, v in (right or {}).items():
        out.setdefault(k, v)
    return out


def _sge(larger, smaller) -> bool:
    """StrictlyGreaterThanOrEquals: every type of either, missing = 0."""
    larger, smaller = larger or {}, smaller or {}
    return all(smaller.get(k, 0) <= v for k, v in larger.items()) and all(larger.get(k, 0) >= v for k, v in smaller.items())


def _fit_in(r, smaller, skip_undef: bool = False, actual: bool = False) -> bool:
    r = r or {}
    if smaller is None:
        return True
    for k, v in smaller.items():
        if k not in r:
            if skip_undef:
                continue
            larger = 0
        else:
            larger = r[k]
        if not actual:
            larger = max(0, larger)
        if v > larger:
            return False
    return True


def _strictly_only_existing(r, smaller, equals: bool) -> bool:
    """internalStrictlyOnlyExisting."""
    r, smaller = r or {}, smaller or {}
    not_equal = equal = common = False
    all_positive = True
    for k, v in r.items():
        if not smaller and v <= 0:
            all_positive = False
        if k in smaller:
            common = True
            val = smaller[k]
            if val > v:
                return False
            if val <= v:
                equal = True
            if val != v:
                not_equal = True
    if not smaller and r:
        return all_positive
    if common:
        return equal if equals else not_equal
    return bool(r) and bool(smaller)


def _equals_or_empty(left, right) -> bool:
    if all(v == 0 for v in (left or {}).values()) and all(v == 0 for v in (right or {}).values()):
        return True
    left, right = left or {}, right or {}
    return all(right.get(k, 0) == v for k, v in left.items()) and all(left.get(k, 0) == v for k, v in right.items())


def _sub_eliminate_negative(left, right) -> dict:
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = max(0, out.get(k, 0) - v)
    return out


def _match_any(r, other) -> bool:
    if r is None or other is None:
        return False
    return any(k in other for k in r)


def _ask_queue_under_guaranteed(ask, remaining) -> bool:
    return not any(k in remaining and remaining[k] < 0 for k in ask)


def _victim_queue_over_guaranteed(ask, remaining) -> bool:
    return any(k in remaining and remaining[k] < 0 for k in ask)


# ---- the running state -----------------------------------------------------------------------

class _Run:
    """A running allocation with its place in the tree."""

    __slots__ = ("alloc", "app", "leaf", "order")

    def __init__(self, alloc: Allocation, app: str, leaf, order: int):
        self.alloc, self.app, self.leaf, self.order = alloc, app, leaf, order

    @property
    def id(self) -> str:
        return self.alloc.id

    @property
    def res(self) -> dict:
        return self.alloc.resources


class _World:
    def __init__(self, root, leaves: dict, nodes: list, runs: list, preemption_enabled: bool,
                 node_sort: str, weights: dict):
        self.root = root
        self.leaves = leaves  # app id -> leaf QNode
        self.nodes = {n.name: dict(n.capacity) for n in nodes}
        self.node_order = [n.name for n in nodes]
        self.root_max = {}
        for n in nodes:
            _add_to(self.root_max, n.capacity)
        self.runs = list(runs)
        self.preemption_enabled = preemption_enabled
        self.node_sort = node_sort
        self.weights = weights or {"vcore": 1.0, "memory": 1.0}
        self.qalloc: dict = {}
        self.nused = {n: {} for n in self.nodes}
        for q in root.walk():
            self.qalloc[q.path] = {}
        for run in self.runs:
            self._account(run, +1)

    def _account(self, run: _Run, sign: int) -> None:
        q = run.leaf
        while q is not None:
            (_add_to if sign > 0 else _sub_from)(self.qalloc[q.path], run.res)
            q = q.parent
        used = self.nused.setdefault(run.alloc.node, {})
        (_add_to if sign > 0 else _sub_from)(used, run.res)

    def add(self, run: _Run) -> None:
        self.runs.append(run)
        self._account(run, +1)

    def remove(self, run: _Run) -> None:
        self.runs.remove(run)
        self._account(run, -1)

    # queue facts
    def own_max(self, q):
        return (self.root_max or None) if q.parent is None else q.max

    def max_of(self, q):
        """GetMaxResource: the queue's max within its parents' (root's is the cluster's size)."""
        parent = self.max_of(q.parent) if q.parent is not None else None
        own = self.own_max(q)
        if parent is None:
            return _clone(own)
        if own is None:
            return parent
        return _cw_min(parent, own)

    def headroom(self, q):
        parent = self.headroom(q.parent) if q.parent is not None else None
        own = self.own_max(q)
        if own is None:
            return parent
        room = _sub_only_existing(own, self.qalloc[q.path])
        return room if parent is None else _cw_min(room, parent)

    @staticmethod
    def preemption_policy(q) -> str:
        return P.preemption_policy(q.props.get(P.PREEMPTION_POLICY))[0]

    def available(self, node: str) -> dict:
        return _sub(self.nodes[node], self.nused.get(node))

    def sorted_nodes(self) -> list:
        def usage(n):
            total, avail = self.nodes[n], self.available(n)
            u = w = 0.0
            for k, v in total.items():
                weight = self.weights.get(k, 0.0)
                if not weight or v == 0:
                    continue
                u += (1.0 - avail.get(k, 0) / v) * weight
                w += weight
            share = u / w if w else 0.0
            return 1.0 - share if self.node_sort == "binpacking" else share
        return sorted(self.node_order, key=lambda n: (usage(n), n))


# ---- preemption snapshots (QueuePreemptionSnapshot) ------------------------------------------

class _QS:
    __slots__ = ("parent", "path", "leaf", "alloc", "preempting", "guaranteed", "victims", "ask_queue")

    def __init__(self, parent, path, leaf, alloc, guaranteed, ask_queue):
        self.parent, self.path, self.leaf = parent, path, leaf
        self.alloc = alloc
        self.preempting: dict = {}
        self.guaranteed = guaranteed
        self.victims: list = []
        self.ask_queue = ask_queue

    def duplicate(self, cache: dict) -> "_QS":
        if self.path in cache:
            return cache[self.path]
        parent = self.parent.duplicate(cache) if self.parent is not None else None
        s = _QS(parent, self.path, self.leaf, dict(self.alloc), _clone(self.guaranteed), self.ask_queue)
        s.preempting = dict(self.preempting)
        s.victims = self.victims
        cache[self.path] = s
        return s

    def preemptable(self):
        if _empty(self.alloc):
            return None
        parent = self.parent.preemptable() if self.parent is not None else None
        actual = _sub_only_existing(_sub_only_existing(self.alloc, self.preempting), self.guaranteed)
        p = {k: v for k, v in actual.items() if v > 0}
        if not p:
            return p
        return _cw_min_only_existing(p, parent)

    def remaining_guaranteed(self):
        parent = self.parent.remaining_guaranteed() if self.parent is not None else None
        rg = self.guaranteed
        if _empty(parent) and _empty(rg):
            return None
        used = _sub_only_existing(self.alloc, self.preempting)
        rg = _sub_only_existing(rg, used)
        aq = self.ask_queue
        if aq is not None:
            if aq.path == self.path and not _empty(rg):
                return _merge_if_not_present(rg, parent)
            ask_rg = _sub_only_existing(_clone(aq.guaranteed), _sub_only_existing(dict(aq.alloc), aq.preempting))
            if not _empty(rg) and aq.path.startswith(self.path) and not _empty(ask_rg):
                return None
        return _cw_min(rg, parent)

    def add(self, res) -> None:
        if self.parent is not None:
            self.parent.add(res)
        _add_to(self.alloc, res)

    def remove(self, res) -> None:
        if self.parent is not None:
            self.parent.remove(res)
        _sub_from(self.alloc, res)


def _dup(snaps: dict) -> dict:
    cache: dict = {}
    for path in sorted(snaps):
        snaps[path].duplicate(cache)
    return cache


# ---- the victim search (queue.go) ------------------------------------------------------------

class _Search:
    """FindEligiblePreemptionVictims for one ask, with the why of every decision."""

    def __init__(self, world: _World, leaf, ask: Ask):
        self.w, self.leaf, self.ask = world, leaf, ask
        self.pmap: dict = {}
        self.chain: list = []  # (queue path, priority) leaf first
        self.fence = None
        self.fence_why = ""
        self.snaps: dict = {}
        self.why: dict = {}  # _Run -> (eligible, why, compared_with)
        self.by_leaf: dict = {}
        for r in world.runs:
            self.by_leaf.setdefault(id(r.leaf), []).append(r)

    def fence_root(self):
        cur = self.ask.priority
        q = self.leaf
        while True:
            if q.fenced:
                cur = q.offset
            else:
                cur += q.offset
            self.pmap[q.path] = cur
            self.chain.append((q.path, cur))
            mx = self.w.max_of(q)
            by_max = False
            if not _empty(mx):
                projected = _add(self.w.qalloc[q.path], self.ask.resources)
                by_max = not _strictly_only_existing(mx, projected, True)
            if q.parent is None:
                self.fence_why = "root: the walk up ends here"
            elif self.w.preemption_policy(q) == "fence":
                self.fence_why = f"{q.path} has preemption.policy: fence"
            elif by_max:
                used = self.w.qalloc[q.path]
                what = ("root's max (the sum of the nodes)" if q.parent is None else
                        "its max (within its parents')" if q.max else "the max it inherits")
                self.fence_why = (f"{q.path}: usage {_show(used)} plus the ask {_show(self.ask.resources)} would pass "
                                  f"{what}, {_show(mx)}")
            if q.parent is None or self.w.preemption_policy(q) == "fence" or by_max:
                self.fence = q
                return q
            q = q.parent

    def _snapshot(self, q) -> _QS:
        s = self.snaps.get(q.path)
        if s is not None:
            return s
        parent = self._snapshot(q.parent) if q.parent is not None else None
        s = _QS(parent, q.path, q.leaf, dict(self.w.qalloc[q.path]), _clone(q.guaranteed), self.snaps.get(self.leaf.path))
        self.snaps[q.path] = s
        return s

    def run(self):
        fence = self.fence_root()
        self._snapshot(self.leaf)
        ask_snap = self.snaps[self.leaf.path]
        q = self.leaf
        while q.parent is not None:
            self.snaps[q.path].ask_queue = ask_snap
            q = q.parent
        self._walk(fence, self.pmap[fence.path], False, "")
        self._prune()
        return self.snaps

    def _mark(self, runs, eligible, why, cmp=None):
        for r in runs:
            self.why[r] = (eligible, why, cmp)

    def _runs_in(self, q):
        return self.by_leaf.get(id(q), [])

    def _walk(self, q, ask_prio: int, fenced: bool, fence_note: str):
        if q is self.leaf:
            self._mark(self._runs_in(q), False, "in the ask's own queue: YuniKorn never preempts there for it")
            return
        if q.leaf:
            runs = self._runs_in(q)
            if self.w.preemption_policy(q) == "disabled":
                self._mark(runs, False, f"{q.path} has preemption.policy: disabled (set or inherited)")
                return
            victims = self._snapshot(q)
            remaining = victims.remaining_guaranteed()
            if remaining is not None and _sge(remaining, {}):
                del self.snaps[q.path]
                self._mark(runs, False, f"{q.path} is within its guaranteed resources (remaining {_show(remaining)})")
                return
            for r in runs:
                if not _match_any(self.ask.resources, r.res):
                    self.why[r] = (False, "shares no resource type with the ask", ask_prio)
                    continue
                if fenced or r.alloc.priority <= ask_prio:
                    victims.victims.append(r)
                    why = (f"inside {fence_note}: every task there is a candidate" if fenced else
                           f"priority {r.alloc.priority} <= {ask_prio}, the ask's priority as seen from {q.path}")
                    self.why[r] = (True, why, ask_prio)
                else:
                    self.why[r] = (False, f"priority {r.alloc.priority} > {ask_prio}, the ask's priority as seen from {q.path}", ask_prio)
            if not victims.victims:
                del self.snaps[q.path]
            return
        for child in q.children:
            child_fenced = False
            note = fence_note
            cp = self.pmap.get(child.path)
            if cp is None:
                if child.fenced:
                    if child.offset > ask_prio:
                        for r in self.w.runs:
                            if _under(r.leaf, child):
                                self.why[r] = (False, f"{child.path} is priority-fenced with offset {child.offset} > {ask_prio}, the ask's priority at {q.path}", ask_prio)
                        continue
                    child_fenced = True
                    note = f"{child.path} (priority fence, offset {child.offset} <= {ask_prio})"
                    cp = ask_prio
                else:
                    cp = ask_prio - child.offset
            self._walk(child, cp, fenced or child_fenced, note)

    def _prune(self):
        keep = set()
        ask_snap = self.snaps.get(self.leaf.path)
        cur = ask_snap
        while cur is not None:
            keep.add(cur.path)
            cur = cur.parent
        for s in list(self.snaps.values()):
            if s.leaf and s.victims:
                cur = s
                while cur is not None:
                    keep.add(cur.path)
                    cur = cur.parent
        for path in list(self.snaps):
            if path not in keep:
                del self.snaps[path]


def _under(q, top) -> bool:
    while q is not None:
        if q is top:
            return True
        q = q.parent
    return False


def _show(res) -> str:
    from prio.yunikorn.quantity import show_quantity

    if not res:
        return "{}"
    return "{" + ", ".join(f"{k}: {show_quantity(k, v)}" for k, v in sorted(res.items())) + "}"


# ---- the preemptor (preemption.go) -----------------------------------------------------------

def _score(run: _Run) -> int:
    s = 0
    if run.alloc.originator:
        s |= _SCORE_ORIGINATOR
    if not run.alloc.allow_preemption:
        s |= _SCORE_NO_PREEMPT
    return s


def _victim_order_key(run: _Run):
    """sortVictimsForPreemption / compareAllocationLess: opted-in first, non-originators first,
    newest first (priority plays no part)."""
    ct = run.alloc.create_time
    return (not run.alloc.allow_preemption, run.alloc.originator, (-ct[0], -ct[1]), run.leaf.path, run.app, run.order)


class _Preemptor:
    def __init__(self, world: _World, leaf, ask: Ask, nodes_tried: bool):
        self.w, self.leaf, self.ask, self.nodes_tried = world, leaf, ask, nodes_tried
        self.res = ask.resources
        self.path = leaf.path
        self.log: list = []
        self.search = _Search(world, leaf, ask)
        self.snaps = self.search.run()
        self.by_alloc: dict = {}
        for path in sorted(self.snaps):
            for v in self.snaps[path].victims:
                self.by_alloc[v] = path

    def all_victims(self) -> list:
        return [v for path in sorted(self.snaps) for v in self.snaps[path].victims]

    def check_guarantees(self) -> bool:
        queues = _dup(self.snaps)
        current = queues.get(self.path)
        if current is None:
            return False
        old = current.remaining_guaranteed()
        if old is not None and _fit_in(old, self.res, True, True):
            return True
        current.add(self.res)
        for path in sorted(queues):
            snap = queues[path]
            for v in snap.victims:
                snap.remove(v.res)
                remaining = current.remaining_guaranteed()
                if remaining is not None and _ask_queue_under_guaranteed(self.res, remaining):
                    return True
        return False

    def init_working_state(self):
        by_node: dict = {}
        for v in self.all_victims():
            by_node.setdefault(v.alloc.node, []).append(v)
        avail: dict = {}
        for n in self.w.sorted_nodes():
            if not _fit_in(self.w.nodes[n], self.res):
                by_node.pop(n, None)
            else:
                avail[n] = self.w.available(n)
        for n in by_node:
            by_node[n].sort(key=_victim_order_key)
        self.by_node, self.avail = by_node, avail

    def _keeps_over_guarantee(self, snap: _QS, victim: _Run) -> bool:
        """Remove the victim from its queue's snapshot; True when that is allowed (the queue was
        over its guarantee before this task), else the task is put back."""
        remaining = snap.remaining_guaranteed()
        snap.remove(victim.res)
        pre = snap.preemptable()
        if _sge(pre, {}) and (remaining is None or _victim_queue_over_guaranteed(self.res, remaining)):
            return True
        snap.add(victim.res)
        return False

    def _take(self, snaps: dict, ask_q: _QS, v: _Run):
        """One step of YuniKorn's victim loops (calculateVictimsByNode, calculateAdditionalVictims):
        None to skip `v` (its queue is unknown or would drop under its guarantee), _STOP when it
        no longer fits what is left of the ask queue's guarantee (the loop ends there), else
        (v's queue snapshot, the ask queue's remaining guarantee before v) with v moved over."""
        qv = self.by_alloc.get(v)
        snap = snaps.get(qv) if qv is not None else None
        if snap is None or not self._keeps_over_guarantee(snap, v):
            return None
        ask_rem = ask_q.remaining_guaranteed()
        if ask_rem is not None and _fit_in(ask_rem, v.res, True, True):
            ask_q.add(v.res)
            return snap, ask_rem
        snap.add(v.res)
        return _STOP

    def victims_by_node(self, available: dict, potential: list):
        current = dict(available)
        if _fit_in(current, self.res):
            return -1, []
        snaps = _dup(self.snaps)
        ask_q = snaps.get(self.path)
        if ask_q is None:
            return -1, None
        head, tail = [], []
        for v in potential:
            taken = self._take(snaps, ask_q, v)
            if taken is None:
                continue
            if taken is _STOP:
                break
            snap, ask_rem = taken
            shortfall = _sub_eliminate_negative(self.res, current)
            new_short = _sub_eliminate_negative(self.res, _add(current, v.res))
            if _equals_or_empty(shortfall, new_short):
                ask_q.remove(v.res)
                snap.add(v.res)
                tail.append(v)
            else:
                _add_to(current, v.res)
                head.append(v)
        head += tail
        if not head:
            return -1, None
        current = dict(available)
        snaps = _dup(self.snaps)
        results, index = [], -1
        for v in head:
            qv = self.by_alloc.get(v)
            snap = snaps.get(qv) if qv is not None else None
            if snap is None:
                continue
            if not self._keeps_over_guarantee(snap, v):
                continue
            _add_to(current, v.res)
            if _fit_in(current, self.res) and index < 0:
                index = len(results)
            results.append(v)
        if index < 0:
            return -1, None
        return index, results

    def _solution_score(self, node: str, index: int) -> int:
        allocs = self.by_node.get(node)
        if allocs is None:
            return _SCORE_UNFIT
        if index < 0:
            return 0
        if index >= len(allocs):
            return _SCORE_UNFIT
        s = 0
        for a in allocs[: index + 1]:
            s |= _score(a)
        return s + index + 1

    def try_nodes(self):
        checks = []
        victims_by_node = {}
        for n, avail in self.avail.items():
            idx, victims = self.victims_by_node(avail, self.by_node.get(n, []))
            if victims is None:
                continue
            victims_by_node[n] = victims
            if victims or not self.nodes_tried:
                checks.append((idx, n))
        if not checks:
            return None, None
        checks.sort()
        best = None
        for i in range(0, len(checks), _BATCH):
            for idx, n in checks[i:i + _BATCH]:
                if best is None or self._solution_score(n, idx) < self._solution_score(best[1], best[0]):
                    best = (idx, n)
            if self._solution_score(best[1], best[0]) < _SCORE_FIT_MAX:
                break
        idx, n = best
        vl = victims_by_node[n]
        if idx >= len(vl):
            return None, None
        return n, vl[: idx + 1]

    def additional_victims(self, node_victims: list):
        snaps = _dup(self.snaps)
        ask_q = snaps.get(self.path)
        if ask_q is None:
            return None, False
        seen = set()
        for v in node_victims:
            qv = self.by_alloc.get(v)
            if qv is not None and qv in snaps:
                snaps[qv].remove(v.res)
                seen.add(v)
        potential = [v for v in self.all_victims() if v not in seen]
        potential.sort(key=lambda v: (_score(v), (-v.alloc.create_time[0], -v.alloc.create_time[1]), v.leaf.path, v.app, v.order))
        victims = []
        for v in potential:
            taken = self._take(snaps, ask_q, v)
            if taken is None:
                continue
            if taken is _STOP:
                break
            snap, ask_rem = taken
            new_rem = ask_q.remaining_guaranteed()
            if not _equals_or_empty(ask_rem, new_rem):
                victims.append(v)
            else:
                ask_q.remove(v.res)
                snap.add(v.res)
        if victims:
            final = ask_q.remaining_guaranteed()
            return victims, final is not None and _ask_queue_under_guaranteed(self.res, final)
        return None, True

    def try_preemption(self):
        """TryPreemption: (node, victims) or (None, None) with the log telling why."""
        if not self.check_guarantees():
            self.log.append(GUARANTEE_FAILED)
            return None, None
        self.init_working_state()
        node, victims = self.try_nodes()
        if node is None:
            return None, None
        extra, ok = self.additional_victims(victims)
        if not ok:
            return None, None
        victims = victims + (extra or [])
        if not victims:
            return None, None
        fit = _fit_in(self.avail[node], self.res)
        final, total = [], {}
        for v in victims:
            if not fit and v.alloc.node != node:
                continue
            if _strictly_only_existing(self.res, total, False):
                final.append(v)
            _add_to(total, v.res)
        if _strictly_only_existing(self.res, total, False):
            self.log.append(SHORTFALL)
            return None, None
        return node, final


# ---- scheduling cycles -----------------------------------------------------------------------

class _Attempt:
    __slots__ = ("kind", "node", "victims", "log", "reason")

    def __init__(self, kind, node=None, victims=(), log=(), reason=""):
        self.kind, self.node, self.victims, self.log, self.reason = kind, node, list(victims), list(log), reason


def _try_ask(w: _World, leaf, ask: Ask) -> _Attempt:
    """Application.tryAllocate for one request."""
    room = w.headroom(leaf)
    if room is not None and not _fit_in(room, ask.resources, True, False):
        return _preempt(w, leaf, ask, nodes_tried=False, quota=True)
    for n in w.sorted_nodes():
        if _fit_in(w.nodes[n], ask.resources) and _fit_in(w.available(n), ask.resources):
            return _Attempt("allocated", n)
    return _preempt(w, leaf, ask, nodes_tried=True, quota=False)


def _preempt(w: _World, leaf, ask: Ask, nodes_tried: bool, quota: bool) -> _Attempt:
    tail = [NOT_ENOUGH_QUEUE_QUOTA] if quota else []
    if not w.preemption_enabled:
        return _Attempt("failed", log=tail, reason=NOT_ATTEMPTED_PARTITION)
    if ask.preemption_policy == "Never":
        return _Attempt("failed", log=[PRECONDITIONS_FAILED, DOES_NOT_HELP] + tail, reason=NOT_ATTEMPTED_NEVER)
    p = _Preemptor(w, leaf, ask, nodes_tried)
    node, victims = p.try_preemption()
    if node is None:
        log = p.log + [DOES_NOT_HELP] + tail
        return _Attempt("failed", log=log, reason=p.log[-1] if p.log else DOES_NOT_HELP)
    return _Attempt("preempted", node, victims)


def _fits_now(w: _World, leaf, ask: Ask) -> bool:
    room = w.headroom(leaf)
    if room is not None and not _fit_in(room, ask.resources, True, False):
        return False
    return any(_fit_in(w.nodes[n], ask.resources) and _fit_in(w.available(n), ask.resources) for n in w.node_order)


def _order(w: _World, root, apps: list, pending: dict) -> list:
    """The asks in the order YuniKorn's cycle considers them now (the engine's sort)."""
    snap = Snapshot(capacity=w.root_max or None)
    usages: dict = {}
    for run in w.runs:
        _add_to(usages.setdefault(run.app, {}), run.res)
    for app in apps:
        usage = usages.get(app.id, {})
        asks = [a for a in app.asks if a.id in pending.get(app.id, ())]
        snap.apps.append(App(app.id, app.queue, app.submit_time, asks, usage, app.state or ("Running" if usage else ""), app.line))
    eng = Engine(root, snap)
    out = [(st.app.id, a) for st, a in eng.considered_order()]
    seen = {(app_id, a.id) for app_id, a in out}
    for app in apps:  # asks with nothing to sort by (no positive resources) come last
        out += [(app.id, a) for a in app.asks if a.id in pending.get(app.id, ()) and (app.id, a.id) not in seen]
    return out


def analyse(root, snapshot: Snapshot, preemption_enabled: bool = True, node_sort: str = "fair",
            weights: dict | None = None) -> Result:
    """What YuniKorn's preemption does for every pending ask of `snapshot`.

    `root` is the partition's queue tree with every application's queue in it (the engine makes
    dynamic queues); `snapshot.nodes` lists the nodes (absent: one node of the capacity)."""
    from prio.yunikorn.snapshot import Node
    from prio.yunikorn.tree import ensure_queue

    nodes = snapshot.nodes
    if nodes is None:
        nodes = [Node("node-1", dict(snapshot.capacity or {}))]
    leaves = {}
    runs = []
    order = 0
    max_time = 0
    for app in snapshot.apps:
        leaf = ensure_queue(root, app.queue, snapshot.source or "snapshot", app.line)
        leaves[app.id] = leaf
        for a in app.allocations or ():
            node = a.node if snapshot.nodes is not None else nodes[0].name
            if node != a.node:
                a = Allocation(a.id, a.priority, a.resources, node, a.create_time, a.originator, a.allow_preemption, a.seq)
            runs.append(_Run(a, app.id, leaf, order))
            order += 1
            max_time = max(max_time, a.create_time[0])
        for k in app.asks:
            max_time = max(max_time, k.create_time[0])
    w = _World(root, leaves, nodes, runs, preemption_enabled, node_sort, weights or {})

    results: dict = {}
    pending: dict = {}
    asks_in_order = []
    for app in snapshot.apps:
        leaf = leaves[app.id]
        for ask in app.asks:
            r = AskResult(ask.id, app.id, leaf.path, ask.priority)
            s = _Search(w, leaf, ask)
            s.run()
            r.fence_root, r.fence_why = s.fence.path, s.fence_why
            r.priority_by_queue = list(reversed(s.chain))
            r.eligible = sorted(v.id for snap in s.snaps.values() for v in snap.victims)
            for run in w.runs:
                eligible, why, cmp = s.why.get(run, (False, f"outside the fence root {s.fence.path}", None))
                r.candidates.append(Candidate(run.id, run.app, run.leaf.path, run.alloc.node, run.alloc.priority, eligible, why, cmp))
            r.preconditions = _preconditions(w, leaf, ask)
            r.fits_now = _fits_now(w, leaf, ask)
            results[(app.id, ask.id)] = r
            pending.setdefault(app.id, set()).add(ask.id)
            asks_in_order.append(r)

    # scheduling cycles: the first ask (in YuniKorn's order) that gets placed or preempts for
    # restarts the cycle; failed asks are retried until nothing changes.
    tick = max_time
    guard = 0
    while pending and guard < 100_000:
        guard += 1
        progressed = False
        for app_id, ask in _order(w, root, snapshot.apps, pending):
            r = results[(app_id, ask.id)]
            att = _try_ask(w, leaves[app_id], ask)
            if att.kind == "failed":
                r.outcome, r.node, r.victims, r.reason, r.log = "not placed", None, [], att.reason, sorted(set(att.log))
                continue
            for v in att.victims:
                w.remove(v)
            tick += 1
            w.add(_Run(Allocation(ask.id, ask.priority, ask.resources, att.node, (tick, 0)), app_id, leaves[app_id], order))
            order += 1
            r.outcome = att.kind
            r.node, r.victims, r.reason, r.log = att.node, [v.id for v in att.victims], "", []
            pending[app_id].discard(ask.id)
            if not pending[app_id]:
                del pending[app_id]
            progressed = True
            break
        if not progressed:
            break
    return Result(asks_in_order, [n.name for n in nodes])


def _preconditions(w: _World, leaf, ask: Ask) -> list:
    """(check, passed, detail): what decides whether YuniKorn may try preemption for the ask."""
    out = [("partition preemption", w.preemption_enabled,
            "preemption: {enabled: true} (or absent)" if w.preemption_enabled else "the partition sets preemption: {enabled: false}"),
           ("ask preemptionPolicy", ask.preemption_policy != "Never",
            f"preemptionPolicy {ask.preemption_policy or 'PreemptLowerPriority'}")]
    q, guaranteed = leaf, None
    while q is not None:
        if q.guaranteed:
            guaranteed = q
            break
        q = q.parent
    out.append(("guaranteed resources on the ask's path", guaranteed is not None,
                f"{guaranteed.path} guarantees {_show(guaranteed.guaranteed)}" if guaranteed is not None else
                "no queue from the leaf to root has guaranteed resources: YuniKorn never finds room for the ask in a guarantee"))
    return out
