"""The reference engine: Kueue's scheduler (pkg/scheduler/scheduler.go) and queue manager
(pkg/cache/queue) replayed cycle by cycle as `../shared/testdata/kueue/README.md` states (with the
creation-time reconcile of `../shared/testdata/kueue-2/README.md`), one function per Kueue rule,
each naming the Go function it mirrors. Obviously correct rather than fast: every cycle takes a
fresh snapshot of the quota tree.

Where Go leaves an order to map iteration (the ClusterQueues' heads, equal entries in the
cycle's sort, the children of a cohort), the run takes names in order and marks the cycle
`tie` when the choice could have gone another way."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from prio.kueue import tas
from prio.kueue import tree as t
from prio.kueue.assign import DEFERRED_FIT, FIT, NO_FIT, PREEMPT, Assigner, Assignment, pending_flavors
from prio.kueue.model import ANY, BEST_EFFORT_FIFO, STRICT_FIFO, Admission, PodSetAdmission, Setup, Workload
from prio.kueue.preemption import Preemptor, preemption_message, simulate_preemption

CYCLE_LIMIT = 200
FITS, NO_TAS, NO = "fits", "noTAS", "no"  # schdcache.FitsCheck
HOSTS = "*hosts"  # Snapshot.tas_used's key of the hostname-level flavors' shared usage
# RequeueReason
R_GENERIC, R_FAILED_AFTER_NOMINATION, R_NAMESPACE_MISMATCH = "", "FailedAfterNomination", "NamespaceMismatch"
R_PENDING_PREEMPTION, R_NO_FIT, R_NO_CANDIDATES = "PendingPreemption", "NoFit", "PreemptionNoCandidates"
# entry status
NOT_NOMINATED, NOMINATED, SKIPPED, ASSUMED = "", "nominated", "skipped", "assumed"
WAITING_FOR_QUOTA, WAITING_FOR_PREEMPTED, MISCONFIGURED = "WaitingForQuota", "WaitingForPreemptedWorkloads", "Misconfigured"
NAMESPACE_MISMATCH = "workload namespace doesn't match ClusterQueue selector"  # workload.ErrNamespaceMismatch
PENDING_EVALUATION = "PendingEvaluation"
SUSPENDED, ADMISSION_GATED = "Suspended", "AdmissionGated"
DEACTIVATED, DEACTIVATED_MESSAGE = "Deactivated", "The workload is deactivated"


@dataclass
class WlState:
    """One Workload as the replay knows it: the object's status and the queue's Info."""

    wl: Workload
    cq: str | None  # the ClusterQueue its LocalQueue names (None: no such LocalQueue)
    hash: str
    admission: Admission | None = None
    reserved_at: float | None = None
    admitted_in_cycle: int | None = None
    times_preempted: int = 0
    pending_reason: str | None = None
    pending_message: str | None = None
    last_tried: list | None = None  # LastAssignment.LastTriedFlavorIdx
    last_generation: int = 0  # LastAssignment.ClusterQueueGeneration
    last_cycle: int = 0  # LastAssignment.SchedulingCycle

    def __post_init__(self):
        self.key = self.wl.key
        self.order = (-self.wl.priority, self.wl.created, self.wl.uid)  # baseCompareFunc after the sticky preemptor


@dataclass
class CQueue:
    """`queue.ClusterQueue`: the active heap, the inadmissible set and their bookkeeping."""

    name: str
    strategy: str
    active: dict = field(default_factory=dict)  # key -> WlState
    inadmissible: dict = field(default_factory=dict)
    bulk: dict = field(default_factory=dict)  # hashToBulkMoveReason
    pop_cycle: int = 0
    queue_inadmissible_cycle: int = -1
    sticky: str | None = None  # the preemptor workload (BestEffortFIFO keeps it first)
    preemptor: str | None = None

    def order_key(self, s: WlState):
        """`baseCompareFunc`: the sticky preemptor, then priority, then creation, then UID."""
        return s.key != self.sticky, s.order

    def pop(self):
        """`ClusterQueue.Pop`."""
        self.pop_cycle += 1
        if not self.active:
            return None
        head = min(self.active.values(), key=self.order_key)
        del self.active[head.key]
        return head


@dataclass
class Entry:
    """`entry`: one head in a cycle."""

    s: WlState
    cq: str
    assignment: Assignment | None = None
    targets: list = field(default_factory=list)
    status: str = NOT_NOMINATED
    msg: str = ""
    requeue_reason: str = R_GENERIC
    reason: str = ""
    nomination: dict | None = None


@dataclass
class Cycle:
    cycle: int
    time: float
    admitted: list = field(default_factory=list)  # (WlState, Admission)
    preempted: list = field(default_factory=list)  # dicts
    tie: bool = False
    considered: list = field(default_factory=list)  # (key, cq, outcome) in the order processed


@dataclass
class Result:
    cycles_run: int
    stop_reason: str
    cycles: list
    states: list


class Snapshot:
    """`cache.Snapshot`: the quota tree and the admitted workloads of one cycle, and what their
    topology assignments hold on the TAS flavors' nodes."""

    def __init__(self, engine):
        self.engine = engine
        self.tree = t.Tree(engine.setup)
        self.by_cq: dict = {}
        # TAS usage: per flavor (or HOSTS, shared by every flavor whose lowest level is the
        # hostname: TASHandleOverlappingFlavors) leaf id -> usage
        self.tas_used: dict = {}
        usage: dict = {}
        for s in engine.admitted.values():
            cq = s.admission.cluster_queue
            if cq not in self.tree.cqs:
                continue
            self.by_cq.setdefault(cq, {})[s.key] = s
            u = usage.setdefault(cq, {})
            for fr, v in s.admission.usage().items():
                u[fr] = u.get(fr, 0) + v
            if engine.tas_trees:
                self.tas_change(s.admission, 1)
        self.tree.set_usage(usage)

    def tas_used_for(self, tree, flavor: str) -> dict:
        return self.tas_used.get(HOSTS if tree.hostname_lowest else flavor, {})

    def tas_change(self, adm, sign: int) -> None:
        """Add (sign 1) or remove (-1) an admission's topology assignments' usage."""
        for ps in adm.pod_sets:
            if ps.topology is None:
                continue
            flavor = next((f for f in ps.flavors.values() if f in self.engine.tas_trees), None)
            if flavor is None:
                continue
            tree = self.engine.tas_trees[flavor]
            held = self.tas_used.setdefault(HOSTS if tree.hostname_lowest else flavor, {})
            for lid, u in tas.assignment_usage(tree, ps.topology, ps.per_pod or {}).items():
                m = held.setdefault(lid, {})
                for r, v in u.items():
                    m[r] = m.get(r, 0) + sign * v

    def tas_fits(self, a, wl) -> bool:
        """`Fits`' TAS part: every domain of the assignment's topology assignments still takes
        its pods."""
        for i, psa in enumerate(a.pod_sets):
            if psa.topology is None:
                continue
            flavor = next((f.flavor for f in psa.flavors.values() if f.flavor in self.engine.tas_trees), None)
            assert flavor is not None  # a topology assignment is only made on a TAS flavor
            tree = self.engine.tas_trees[flavor]
            used = self.tas_used_for(tree, flavor)
            per_pod = dict(wl.pod_sets[i].requests)
            per_pod["pods"] = per_pod.get("pods", 0) + 1
            for values, n in psa.topology[1]:
                lid = tree.leaf_id(values)
                leaf = tree.leaves.get(lid)
                if leaf is None:
                    return False
                free = dict(leaf.capacity)
                for r, v in used.get(lid, {}).items():
                    free[r] = free.get(r, 0) - v
                if tas.count_in(per_pod, free)[0] < n:
                    return False
        return True

    def workloads_in(self, cq: str) -> list:
        return list(self.by_cq.get(cq, {}).values())

    def remove_usage_of(self, s) -> None:
        node = self.tree.cqs[s.admission.cluster_queue]
        for fr, v in s.admission.usage().items():
            t.remove_usage(node, fr, v)
        if self.tas_used:
            self.tas_change(s.admission, -1)

    def add_usage_of(self, s) -> None:
        node = self.tree.cqs[s.admission.cluster_queue]
        for fr, v in s.admission.usage().items():
            t.add_usage(node, fr, v)
        if self.engine.tas_trees:
            self.tas_change(s.admission, 1)

    def remove_workload(self, s) -> None:
        """`Snapshot.RemoveWorkload`."""
        self.by_cq[s.admission.cluster_queue].pop(s.key, None)
        self.remove_usage_of(s)

    def add_workload(self, s) -> None:
        """`Snapshot.AddWorkload`."""
        self.by_cq.setdefault(s.admission.cluster_queue, {})[s.key] = s
        self.add_usage_of(s)


def scheduling_hash(wl) -> str:
    """`computeSchedulingHash`: priority and each pod set's shape, count, minCount, requests and
    topologyRequest."""
    return json.dumps([wl.priority, [[ps.name, ps.count, ps.min_count, sorted(ps.requests.items()), ps.shape]
                                     + ([repr(ps.topology)] if ps.topology is not None else [])
                                     for ps in wl.pod_sets]], sort_keys=True, default=str)


def selector_matches(selector: dict | None, labels: dict) -> bool:
    """`metav1.LabelSelectorAsSelector(...).Matches`: no selector matches nothing, {} everything."""
    if selector is None:
        return False
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get("matchExpressions") or []:
        k, op, values = e.get("key"), e.get("operator"), e.get("values") or []
        if op == "In" and labels.get(k) not in values:
            return False
        if op == "NotIn" and k in labels and labels[k] in values:
            return False
        if op == "Exists" and k not in labels:
            return False
        if op == "DoesNotExist" and k in labels:
            return False
    return True


def cluster_queue_active(setup: Setup, name: str) -> bool:
    """`Cache.ClusterQueueActive`: every flavor it names exists, it is not stopped, and it names
    no admission check (prio reads no AdmissionCheck, so every one it names is missing)."""
    cq = setup.cluster_queues[name]
    return all(f in setup.flavors for f in cq.flavor_names()) and cq.stop_policy == "None" and not cq.admission_checks


def creation_blocker(setup: Setup, wl) -> tuple | None:
    """What Kueue's workload controller writes on a pending Workload when it is created
    (`WorkloadReconciler.Reconcile`: the admission gate, then `getQueueBlocker`, then the
    namespace check of `ValidateAdmissibility`): (reason, message, queued), or None when it
    writes nothing. queued: whether the queue manager holds the Workload at all."""
    if wl.admission_gated_by:
        return ADMISSION_GATED, f"Admission is gated by: {wl.admission_gated_by}", False
    lq = setup.local_queues.get((wl.namespace, wl.queue_name))
    if lq is None:
        return MISCONFIGURED, f"LocalQueue {wl.queue_name} doesn't exist", False
    if lq.stop_policy != "None":  # a stopped LocalQueue is never added to the queue manager
        return SUSPENDED, f"LocalQueue {wl.queue_name} is inactive", False
    if lq.cluster_queue not in setup.cluster_queues:
        return MISCONFIGURED, f"ClusterQueue {lq.cluster_queue} doesn't exist", False
    if not cluster_queue_active(setup, lq.cluster_queue):
        return SUSPENDED, f"ClusterQueue {lq.cluster_queue} is inactive", True
    cq = setup.cluster_queues[lq.cluster_queue]
    if not selector_matches(cq.namespace_selector, setup.namespaces.get(wl.namespace, {})):
        return MISCONFIGURED, NAMESPACE_MISMATCH, True
    return None


def can_be_partially_admitted(wl) -> bool:
    """`CanBePartiallyAdmitted`: some pod set may run with fewer pods than its count."""
    return any(ps.min_count is not None and ps.count > ps.min_count for ps in wl.pod_sets)


def reduce_pod_sets(pod_sets: list, fits):
    """`PodSetReducer.Search`: a binary search (Go's sort.Search) over the steps from every pod
    set's count down to its minCount, all pod sets reduced in proportion; the largest counts that
    `fits` accepts (its answer), or None."""
    full = [ps.count for ps in pod_sets]
    deltas = [ps.count - (ps.min_count if ps.min_count is not None else ps.count) for ps in pod_sets]
    total = sum(deltas)
    if total == 0:
        return None
    last_good, last = 0, None
    lo, hi = 0, total + 1
    while lo < hi:
        h = (lo + hi) // 2
        got = fits([c - d * h // total for c, d in zip(full, deltas)])
        if got is not None:
            last_good, last, hi = h, got, h
        else:
            lo = h + 1
    return last if lo == last_good else None


class ReferenceRun:
    """The replay: `Manager.Heads`, `Scheduler.schedule`, and the controllers' reactions."""

    def __init__(self, setup: Setup):
        self.setup = setup
        # the TAS flavors' topology trees (static: the nodes do not change during a replay)
        self.tas_trees = {name: tas.FlavorTree(setup.topologies[f.topology_name], f, setup.nodes)
                          for name, f in sorted(setup.flavors.items()) if f.topology_name in setup.topologies}
        self.now = setup.clock_start
        self.cycle = 0
        self.states: dict = {}
        self.admitted: dict = {}  # key -> WlState holding quota
        # AllocatableResourceGeneration per ClusterQueue: the cache moves it when a workload
        # leaves the ClusterQueue's usage, and on admission (the update event re-adds it)
        self.generation = {name: 1 for name in setup.cluster_queues}
        self.queues = {name: CQueue(name, cq.queueing_strategy) for name, cq in sorted(setup.cluster_queues.items())}
        for wl in setup.workloads:
            s = WlState(wl, setup.cluster_queue_of(wl), scheduling_hash(wl))
            self.states[wl.key] = s
            if wl.admission is not None and wl.active:
                s.admission, s.reserved_at, s.admitted_in_cycle = wl.admission, wl.reserved_at, 0
                self.admitted[wl.key] = s
        for s in sorted(self.states.values(), key=lambda s: s.key):
            if s.admission is not None:
                continue
            if not s.wl.active:
                # `WorkloadReconciler.Reconcile`: an inactive Workload is evicted (a running one
                # gives its quota back) and never queued; the condition's reason and message
                # are `resolveGranularUnadmittedQuotaReservedCondition`'s first case
                s.pending_reason, s.pending_message = DEACTIVATED, DEACTIVATED_MESSAGE
                continue
            blocked = creation_blocker(setup, s.wl)
            if blocked is not None:
                s.pending_reason, s.pending_message, queued = blocked
                if not queued:
                    continue
            if s.cq in self.queues:
                self.push_or_update(self.queues[s.cq], s)

    # -- the queue manager -------------------------------------------------------------------

    def active_cqs(self) -> list:
        """The ClusterQueues whose heads Kueue takes (`cluster_queue_active`)."""
        return [q for name, q in self.queues.items() if cluster_queue_active(self.setup, name)]

    def push_or_update(self, q: CQueue, s: WlState) -> None:
        """`ClusterQueue.PushOrUpdate` for a workload not yet in the queue."""
        if q.strategy == BEST_EFFORT_FIFO and s.key not in q.active and s.hash in q.bulk:
            q.inadmissible[s.key] = s
            return
        q.active[s.key] = s

    def requeue_if_not_present(self, q: CQueue, s: WlState, reason: str, qr_reason: str) -> None:
        """`ClusterQueue.RequeueIfNotPresent`/`requeueIfNotPresent`."""
        if q.strategy == STRICT_FIFO:
            immediate = reason != R_NAMESPACE_MISMATCH
        else:
            immediate = reason in (R_FAILED_AFTER_NOMINATION, R_PENDING_PREEMPTION)
        if reason == R_PENDING_PREEMPTION:
            q.preemptor = s.key
            q.sticky = s.key if q.strategy == BEST_EFFORT_FIFO else None
        if immediate or q.queue_inadmissible_cycle >= q.pop_cycle or pending_flavors(s.last_tried):
            q.inadmissible.pop(s.key, None)
            q.active[s.key] = s
            return
        if s.key in q.inadmissible or s.key in q.active:
            return
        q.inadmissible[s.key] = s
        if reason in (R_NO_FIT, R_NO_CANDIDATES):
            self.handle_inadmissible_hash(q, s.hash, qr_reason or PENDING_EVALUATION)

    @staticmethod
    def handle_inadmissible_hash(q: CQueue, h: str, reason: str) -> None:
        """`handleInadmissibleHash` (SchedulingEquivalenceHashing): an identical workload that
        just failed takes its twins out of the active heap, unevaluated."""
        if q.strategy != BEST_EFFORT_FIFO:
            return
        q.bulk[h] = reason
        for key in [k for k, s in q.active.items() if s.hash == h]:
            q.inadmissible[key] = q.active.pop(key)

    def queue_inadmissible(self, q: CQueue) -> None:
        """`queueInadmissibleWorkloads`."""
        q.queue_inadmissible_cycle = q.pop_cycle
        q.bulk = {}
        selector = self.setup.cluster_queues[q.name].namespace_selector
        for key, s in list(q.inadmissible.items()):
            if not selector_matches(selector, self.setup.namespaces.get(s.wl.namespace, {})):
                continue
            del q.inadmissible[key]
            q.active[key] = s

    def requeue_cohort_of(self, cq_name: str) -> None:
        """`NotifyRetryInadmissible`: the ClusterQueue, or every one under its root cohort."""
        tree = t.Tree(self.setup)
        node = tree.cqs.get(cq_name)
        if node is None:
            return
        names = [n.name for n in node.root().subtree_cqs()] if node.parent is not None else [cq_name]
        for name in names:
            if name in self.queues:
                self.queue_inadmissible(self.queues[name])

    # -- the scheduler -----------------------------------------------------------------------

    def heads(self) -> list:
        """`Manager.heads`: at most one workload per ClusterQueue."""
        out = []
        for q in self.active_cqs():
            s = q.pop()
            if s is not None:
                out.append(Entry(s, q.name))
        return out

    def last_assignment_outdated(self, e: Entry) -> bool:
        """`lastAssignmentOutdated` (FlavorFungibilityPreserveScanProgress): progress recorded
        in this cycle or the one before stands; older progress only while the ClusterQueue's
        generation has not moved."""
        if self.cycle - e.s.last_cycle <= 1:
            return False
        return self.generation.get(e.cq, 0) > e.s.last_generation

    def get_assignments(self, snap: Snapshot, e: Entry):
        """`getAssignments`/`getInitialAssignments`: the full counts, then (partial admission)
        reduced ones; no TAS."""
        if e.s.last_tried is not None and self.last_assignment_outdated(e):
            e.s.last_tried = None
        assigner = Assigner(self, snap, e.cq, e.s.wl, e.s.last_tried, e.nomination)

        def attempt(a):
            """The assignment with its victims when it can go ahead (fits, or has victims)."""
            if a.mode() == FIT:
                return a, []
            if a.mode() == PREEMPT:
                tas_fits = None
                if self.tas_trees and assigner.tas_requests(a):
                    def tas_fits(a=a):
                        return assigner.find_tas(assigner.tas_requests(a), False)[1] is None
                targets = Preemptor(self, snap, e.cq, e.s.wl, a.frs_need_preemption(), a.usage, tas_fits).targets()
                if targets:
                    return a, targets
            return None

        full = assigner.assign()
        found = attempt(full)
        if found is None and can_be_partially_admitted(e.s.wl):  # gate PartialAdmission, on by default
            found = reduce_pod_sets(e.s.wl.pod_sets, lambda counts: attempt(assigner.assign(counts)))
        a, targets = found if found is not None else (full, [])
        if self.tas_trees and a.mode() == PREEMPT:
            self.update_assignment_for_tas(snap, assigner, a, targets)
        return a, targets

    @staticmethod
    def update_assignment_for_tas(snap: Snapshot, assigner: Assigner, a: Assignment, targets: list) -> None:
        """`updateAssignmentForTAS`: a preemptor's topology assignment, with its victims' pods
        gone from the nodes, or (no candidates) on empty nodes, so that the nodes it waits for
        are held in this cycle."""
        reqs = assigner.tas_requests(a)
        if not reqs:
            return
        for tg in targets:
            snap.remove_usage_of(tg.adm)
        found, failure = assigner.find_tas(reqs, simulate_empty=not targets)
        for tg in targets:
            snap.add_usage_of(tg.adm)
        if failure is None:
            for i, got in found.items():
                a.pod_sets[i].topology = got

    def simulate_preemption(self, snap, cq_name, wl, fr, val):
        return simulate_preemption(self, snap, cq_name, wl, fr, val)

    def record_assignment(self, e: Entry, a: Assignment, targets: list) -> None:
        """`entry.recordAssignment`."""
        e.assignment, e.targets = a, targets
        e.msg = a.message()
        e.s.last_tried = a.last_tried
        e.s.last_generation, e.s.last_cycle = self.generation.get(e.cq, 0), self.cycle

    def nominate(self, snap: Snapshot, heads: list):
        """`Scheduler.nominate`."""
        entries, inadmissible = [], []
        for e in heads:
            selector = self.setup.cluster_queues[e.cq].namespace_selector
            if not selector_matches(selector, self.setup.namespaces.get(e.s.wl.namespace, {})):
                e.msg = NAMESPACE_MISMATCH
                e.reason, e.requeue_reason = MISCONFIGURED, R_NAMESPACE_MISMATCH
                inadmissible.append(e)
                continue
            a, targets = self.get_assignments(snap, e)
            self.record_assignment(e, a, targets)
            entries.append(e)
        return entries, inadmissible

    def order_classical(self, entries: list, cycle: Cycle) -> list:
        """`makeClassicalIterator`: non-borrowing first, then priority, then creation."""
        def key(e):
            return (e.assignment.borrowing, -e.s.wl.priority, e.s.wl.created)
        out = sorted(entries, key=lambda e: (key(e), e.cq))
        if len({key(e) for e in out}) < len(out):
            cycle.tie = True  # slices.SortFunc leaves equal entries in no defined order
        return out

    def fair_order(self, snap: Snapshot, entries: list, cycle: Cycle):
        """`fairSharingIterator`: per root cohort, a tournament on dominant resource share."""
        remaining = {e.cq: e for e in entries}
        while remaining:
            name = sorted(remaining)[0]
            node = snap.tree.cqs[name]
            if node.parent is None:
                yield remaining.pop(name)
                continue
            root = node.root()
            drs, requested = self._compute_drs(snap, root, remaining)
            best = self._tournament(root, remaining, drs, requested, cycle)
            del remaining[best.cq]
            yield best

    def _compute_drs(self, snap, root, remaining):
        """`entryComparer.computeDRS`."""
        drs, requested = {}, {}
        for cq in root.subtree_cqs():
            e = remaining.get(cq.name)
            if e is None:
                continue
            usage = self.net_usage(e)
            for fr, v in usage.items():
                t.add_usage(cq, fr, v)
            requested[e.s.key] = usage
            share = t.dominant_resource_share(cq)
            for a in cq.ancestors():
                drs[(a.name, e.s.key)] = share
                share = t.dominant_resource_share(a)
            for fr, v in usage.items():
                t.remove_usage(cq, fr, v)
        return drs, requested

    def _tournament(self, cohort, remaining, drs, requested, cycle):
        """`runTournament`."""
        candidates = []
        for child in cohort.child_cohorts:
            c = self._tournament(child, remaining, drs, requested, cycle)
            if c is not None:
                candidates.append(c)
        for cq in cohort.child_cqs:
            if cq.name in remaining:
                candidates.append(remaining[cq.name])
        if not candidates:
            return None

        def less(a, b):
            da, db = drs[(cohort.name, a.s.key)], drs[(cohort.name, b.s.key)]
            ba, bb = da.borrowing_on(requested[a.s.key]), db.borrowing_on(requested[b.s.key])
            if ba != bb:
                return not ba
            c = t.compare_drs(da, db)
            if c != 0:
                return c == -1
            if a.s.wl.priority != b.s.wl.priority:
                return a.s.wl.priority > b.s.wl.priority
            return a.s.wl.created < b.s.wl.created

        best = candidates[0]
        for cur in candidates[1:]:
            if less(cur, best):
                best = cur
            elif not less(best, cur):
                cycle.tie = True
        return best

    @staticmethod
    def net_usage(e: Entry) -> dict:
        """`netUsage` of the entry's assignment."""
        assert e.assignment is not None  # only nominated entries (record_assignment) get here
        return dict(e.assignment.usage)

    def fits(self, snap: Snapshot, node, usage: dict, preempted: dict, targets: list, e: Entry | None = None) -> str:
        """`fits`: the usage fits once every victim of this cycle is gone: FITS, NO_TAS (the
        quota fits, a topology assignment does not) or NO."""
        victims = {k: v for k, v in preempted.items()}
        for tg in targets:
            victims[tg.adm.key] = tg.adm
        for s in victims.values():
            snap.remove_usage_of(s)
        ok = FITS if all(t.cq_available(node, fr) >= v for fr, v in usage.items()) else NO
        if ok == FITS and e is not None and self.tas_trees and not snap.tas_fits(e.assignment, e.s.wl):
            ok = NO_TAS
        for s in victims.values():
            snap.add_usage_of(s)
        return ok

    def update_assignment_if_needed(self, snap: Snapshot, e: Entry, node, preempted: dict):
        """`updateAssignmentIfNeeded` (RecomputeAssignmentUponPreemptionTargetsOverlap,
        TASRecomputeAssignmentWithinSchedulingCycle)."""
        assert e.assignment is not None  # a nominated entry (record_assignment)
        usage = self.net_usage(e)
        overlap = any(tg.adm.key in preempted for tg in e.targets)
        if not overlap:
            check = self.fits(snap, node, usage, preempted, e.targets, e)
            if check != NO_TAS:
                return usage, check == FITS
            # the quota fits but the nodes no longer take the topology assignment: re-plan
            e.s.last_tried = None
            e.nomination = e.assignment.flavors_by_pod_set()
            a, targets = self.get_assignments(snap, e)
            self.record_assignment(e, a, targets)
            usage = self.net_usage(e)
            ok = self.fits(snap, node, usage, preempted, targets, e) == FITS
            e.nomination = None
            return usage, ok
        # SimulateWorkloadRemoval: the other preemptors' victims leave the snapshot whole (usage
        # and workload), so the re-plan can neither count their quota nor pick them again
        for s in preempted.values():
            snap.remove_workload(s)
        e.s.last_tried = None
        e.nomination = e.assignment.flavors_by_pod_set()
        a, targets = self.get_assignments(snap, e)
        self.record_assignment(e, a, targets)
        for s in preempted.values():
            snap.add_workload(s)
        if a.mode() == FIT:
            a.forced_mode = DEFERRED_FIT
        usage = self.net_usage(e)
        ok = self.fits(snap, node, usage, preempted, targets, e) == FITS
        e.nomination = None
        return usage, ok

    def process_entry(self, snap: Snapshot, e: Entry, preempted: dict, cycle: Cycle) -> None:
        """`Scheduler.processEntry`."""
        cq = self.setup.cluster_queues[e.cq]
        node = snap.tree.cqs[e.cq]
        usage, fits = self.update_assignment_if_needed(snap, e, node, preempted)
        assert e.assignment is not None  # a nominated entry (record_assignment)
        mode = e.assignment.mode()
        if mode == NO_FIT:
            e.requeue_reason, e.reason = R_NO_FIT, e.assignment.no_fit_reason
            cycle.considered.append((e.s.key, e.cq, "no fit"))
            return
        if mode == PREEMPT and not e.targets:
            e.requeue_reason, e.reason = R_NO_CANDIDATES, WAITING_FOR_QUOTA
            if cq.preemption.reclaim_within_cohort != ANY:  # reserveCapacityForUnreclaimablePreempt
                for fr, v in self.resources_to_reserve(e, node).items():
                    t.add_usage(node, fr, v)
                self.hold_nodes(snap, e)
            cycle.considered.append((e.s.key, e.cq, "no preemption candidates"))
            return
        if mode == DEFERRED_FIT:
            e.msg = "Workload has overlapping preemption targets with another workload, but will fit after these preemptions complete"
            e.reason, e.requeue_reason = WAITING_FOR_PREEMPTED, R_PENDING_PREEMPTION
            e.s.last_tried = None
            for fr, v in usage.items():
                t.add_usage(node, fr, v)
            self.hold_nodes(snap, e)
            cycle.considered.append((e.s.key, e.cq, "waits for preempted workloads"))
            return
        if any(tg.adm.key in preempted for tg in e.targets):
            self.mark_skipped(e, "Workload has overlapping preemption targets with another workload")
            cycle.considered.append((e.s.key, e.cq, "skipped"))
            return
        if not fits:
            self.mark_skipped(e, "Workload no longer fits after processing another workload")
            cycle.considered.append((e.s.key, e.cq, "skipped"))
            return
        for tg in e.targets:
            preempted[tg.adm.key] = tg.adm
        for fr, v in usage.items():
            t.add_usage(node, fr, v)
        if mode == PREEMPT:
            self.hold_nodes(snap, e)
            e.reason = WAITING_FOR_PREEMPTED
            self.issue_preemptions(snap, e, cycle)
            cycle.considered.append((e.s.key, e.cq, "preempts"))
            return
        e.status = NOMINATED
        self.admit(e, cycle)
        if self.tas_trees:  # netUsage's TAS part: the nodes this admission takes
            snap.tas_change(cycle.admitted[-1][1], 1)
        cycle.considered.append((e.s.key, e.cq, "admitted"))

    def hold_nodes(self, snap: Snapshot, e: Entry) -> None:
        """netUsage's TAS part for an entry that adds its usage without being admitted."""
        if self.tas_trees:
            snap.tas_change(self.admission_of(e), 1)

    def resources_to_reserve(self, e: Entry, node) -> dict:
        """`quotaResourcesToReserve`."""
        assert e.assignment is not None  # a nominated entry (record_assignment)
        out = {}
        for fr, v in e.assignment.usage.items():
            q = node.quotas.get(fr)
            nominal = q.nominal if q else 0
            used = node.usage.get(fr, 0)
            if e.assignment.borrowing > 0:
                out[fr] = v if q is None or q.borrowing_limit is None else min(v, nominal + q.borrowing_limit - used)
            else:
                out[fr] = max(0, min(v, nominal - used))
        return out

    @staticmethod
    def mark_skipped(e: Entry, msg: str) -> None:
        """`entry.markSkipped` (FlavorFungibilityPreserveScanProgress keeps the scan position)."""
        e.status, e.msg, e.reason = SKIPPED, msg, WAITING_FOR_QUOTA

    def issue_preemptions(self, snap: Snapshot, e: Entry, cycle: Cycle) -> None:
        """`Preemptor.IssuePreemptions` and `entry.markPreemptionOutcome`."""
        preemptor_path = snap.tree.cqs[e.cq].path()
        for tg in e.targets:
            victim = tg.adm
            msg = preemption_message(e.s.wl.uid, None, tg.reason, preemptor_path, snap.tree.cqs[tg.cq].path())
            cycle.preempted.append({"workload": victim.key, "clusterQueue": tg.cq, "preemptor": e.s.key,
                                    "reason": tg.reason, "evictionReason": "Preempted", "message": msg})
        if e.targets:
            e.msg += f". Pending the preemption of {len(e.targets)} workload(s)"
            e.requeue_reason = R_PENDING_PREEMPTION
        e.s.last_tried = None

    def admit(self, e: Entry, cycle: Cycle) -> None:
        """`Scheduler.admit`: QuotaReserved and Admitted in one write."""
        e.status = ASSUMED
        cycle.admitted.append((e.s, self.admission_of(e)))

    @staticmethod
    def admission_of(e: Entry) -> Admission:
        """The admission the entry's assignment makes (`Assignment.ToAPI`)."""
        assert e.assignment is not None  # a nominated entry (record_assignment)
        pod_sets = []
        for psa in e.assignment.pod_sets:
            ps = next(p for p in e.s.wl.pod_sets if p.name == psa.name)
            pod_sets.append(PodSetAdmission(psa.name, psa.count, {r: f.flavor for r, f in psa.flavors.items()},
                                            {r: psa.requests.get(r, 0) for r in psa.flavors}, topology=psa.topology,
                                            per_pod=dict(ps.requests) if psa.topology is not None else None))
        return Admission(e.cq, pod_sets)

    def requeue_and_update(self, e: Entry) -> None:
        """`Scheduler.requeueAndUpdate`."""
        if e.status != NOT_NOMINATED and e.requeue_reason == R_GENERIC:
            e.requeue_reason = R_FAILED_AFTER_NOMINATION
        self.requeue_if_not_present(self.queues[e.cq], e.s, e.requeue_reason, e.reason)
        if e.status in (NOT_NOMINATED, SKIPPED):
            e.s.pending_reason, e.s.pending_message = e.reason, e.msg

    def schedule(self, heads: list, cycle: Cycle) -> None:
        """`Scheduler.schedule`: one cycle."""
        snap = Snapshot(self)
        entries, inadmissible = self.nominate(snap, heads)
        preempted: dict = {}
        if self.setup.fair_sharing:
            for e in self.fair_order(snap, entries, cycle):
                self.process_entry(snap, e, preempted, cycle)
        else:
            for e in self.order_classical(entries, cycle):
                self.process_entry(snap, e, preempted, cycle)
        for e in entries:
            if e.status != ASSUMED:
                self.requeue_and_update(e)
        for e in inadmissible:
            cycle.considered.append((e.s.key, e.cq, "namespace not selected"))
            self.requeue_and_update(e)

    # -- between cycles: the controllers -----------------------------------------------------

    def react(self, cycle: Cycle) -> None:
        """What Kueue's controllers do with the cycle's writes before the next one starts."""
        for s, adm in cycle.admitted:
            s.admission, s.reserved_at, s.admitted_in_cycle = adm, cycle.time, cycle.cycle
            s.pending_reason = s.pending_message = None
            s.last_tried = None
            self.admitted[s.key] = s
            self.generation[adm.cluster_queue] += 1
            q = self.queues[adm.cluster_queue]
            q.active.pop(s.key, None)
            q.inadmissible.pop(s.key, None)
            if q.preemptor == s.key:
                q.preemptor = q.sticky = None
        requeue = []
        for p in cycle.preempted:
            s = self.states[p["workload"]]
            if s.key not in self.admitted:
                continue
            del self.admitted[s.key]
            self.generation[p["clusterQueue"]] = self.generation.get(p["clusterQueue"], 0) + 1
            s.admission = s.reserved_at = s.admitted_in_cycle = None
            s.times_preempted += 1
            s.pending_reason, s.pending_message = PENDING_EVALUATION, p["message"]
            s.last_tried = None
            if s.cq in self.queues:
                self.push_or_update(self.queues[s.cq], s)
            requeue.append(p["clusterQueue"])
        for cq in dict.fromkeys(requeue):
            self.requeue_cohort_of(cq)

    def contents(self) -> tuple:
        """What a cycle that admits and preempts nothing can still change: the queues and the
        conditions Kueue writes on pending workloads."""
        queues = tuple((n, tuple(sorted(q.active)), tuple(sorted(q.inadmissible))) for n, q in self.queues.items())
        return queues, tuple((s.key, s.pending_reason, s.pending_message) for s in self.states.values())

    def run(self, limit: int = CYCLE_LIMIT) -> Result:
        """The replay, until no ClusterQueue has a head, nothing moves, or the cycle limit."""
        cycles, idle, stop, previous = [], 0, "cycleLimit", None
        while self.cycle < limit:
            if not any(q.active for q in self.active_cqs()):
                stop = "noPendingHeads"
                break
            self.cycle += 1
            self.now = self.setup.clock_start + self.cycle
            cycle = Cycle(self.cycle, self.now)
            self.schedule(self.heads(), cycle)
            self.react(cycle)
            moved = bool(cycle.admitted or cycle.preempted)
            if moved:
                cycles.append(cycle)
            # noProgress: this cycle and the one before it moved nothing and left the same state
            # (a cycle that moved never equals the next one: its contents are not needed)
            now = (True, None) if moved else (False, self.contents())
            idle = idle + 1 if not moved and now == previous else 0
            previous = now
            if idle >= 2:
                stop = "noProgress"
                break
        return Result(self.cycle, stop, cycles, sorted(self.states.values(), key=lambda s: s.key))
