"""Kueue's preemption (pkg/scheduler/preemption): which admitted workloads a pending one evicts,
classically (within the ClusterQueue, reclaiming lent quota, borrowing within the cohort) or by
fair sharing, and the oracle the flavor assigner asks."""
from __future__ import annotations

import math

from prio.kueue import tree as t
from prio.kueue.assign import P_NO_CANDIDATES, P_PREEMPT, P_RECLAIM
from prio.kueue.model import ANY, LOWER_OR_NEWER_EQUAL, LOWER_PRIORITY, NEVER

IN_CLUSTER_QUEUE, IN_COHORT_RECLAMATION = "InClusterQueue", "InCohortReclamation"
IN_COHORT_FAIR_SHARING, IN_COHORT_RECLAIM_WHILE_BORROWING = "InCohortFairSharing", "InCohortReclaimWhileBorrowing"
HUMAN = {IN_CLUSTER_QUEUE: "prioritization in the ClusterQueue", IN_COHORT_RECLAMATION: "reclamation within the cohort",
         IN_COHORT_FAIR_SHARING: "Fair Sharing within the cohort",
         IN_COHORT_RECLAIM_WHILE_BORROWING: "reclamation within the cohort while borrowing"}
# preemptionVariant
V_NEVER, V_WITHIN_CQ, V_HIERARCHICAL, V_RECLAIM_NO_BORROW, V_RECLAIM_WHILE_BORROW = range(5)
VARIANT_REASON = {V_WITHIN_CQ: IN_CLUSTER_QUEUE, V_HIERARCHICAL: IN_COHORT_RECLAMATION,
                  V_RECLAIM_NO_BORROW: IN_COHORT_RECLAMATION, V_RECLAIM_WHILE_BORROW: IN_COHORT_RECLAIM_WHILE_BORROWING}


def preemption_message(preemptor_uid: str, job_uid: str | None, reason: str, preemptor_path: str, preemptee_path: str) -> str:
    """`preemptionMessage`."""
    return (f"Preempted to accommodate a workload (UID: {preemptor_uid or 'UNKNOWN'}, JobUID: {job_uid or 'UNKNOWN'}) "
            f"due to {HUMAN.get(reason, 'UNKNOWN')}; preemptor path: {preemptor_path or 'UNKNOWN'}; "
            f"preemptee path: {preemptee_path or 'UNKNOWN'}")


def satisfies_policy(preemptor, candidate, policy: str) -> bool:
    """`SatisfiesPreemptionPolicy`."""
    lower = preemptor.priority > candidate.priority
    if policy == LOWER_PRIORITY:
        return lower
    if policy == LOWER_OR_NEWER_EQUAL:
        return lower or (preemptor.priority == candidate.priority and preemptor.created < candidate.created)
    return policy == ANY


def uses_resources(adm, frs: set) -> bool:
    """`WorkloadUsesResources`."""
    return not adm.admission.flavor_resources.isdisjoint(frs)


def candidates_key(cq_name: str, now: float):
    """`CandidatesOrdering` as a sort key: other ClusterQueues' workloads first, then lower
    priority, then the most recently admitted, then UID."""
    def key(c):
        reserved = c.reserved_at if c.reserved_at is not None else now
        return (c.admission.cluster_queue == cq_name, c.wl.priority, -reserved, c.wl.uid)
    return key


class Target:
    __slots__ = ("adm", "reason", "cq")

    def __init__(self, adm, reason: str, cq: str):
        self.adm, self.reason, self.cq = adm, reason, cq


class Preemptor:
    """`Preemptor.getTargets` for one preemptor over a snapshot (which it leaves as it found)."""

    def __init__(self, engine, snap, cq_name: str, wl, frs: set, usage: dict, tas_fits=None):
        self.engine, self.snap, self.wl, self.frs, self.usage = engine, snap, wl, frs, usage
        self.tas_fits = tas_fits  # workloadFits' TAS part: the topology assignments fit the snapshot as it is now
        self.cq = engine.setup.cluster_queues[cq_name]
        self.node = snap.tree.cqs[cq_name]
        self.now = engine.now

    def targets(self) -> list:
        if self.engine.setup.fair_sharing:
            return self.fair_preemptions()
        return self.classical_preemptions()

    # -- classical ---------------------------------------------------------------------------

    def borrow_within_cohort_forbidden(self) -> bool:
        """`IsBorrowingWithinCohortForbidden`."""
        return self.cq.preemption.borrow_within_cohort == NEVER

    def classify(self, adm, hierarchical_advantage: bool) -> int:
        """`classifyPreemptionVariant`."""
        if not uses_resources(adm, self.frs):
            return V_NEVER
        same = adm.admission.cluster_queue == self.cq.name
        policy = self.cq.preemption.within_cluster_queue if same else self.cq.preemption.reclaim_within_cohort
        if not satisfies_policy(self.wl, adm.wl, policy):
            return V_NEVER
        if same:
            return V_WITHIN_CQ
        if hierarchical_advantage:
            return V_HIERARCHICAL
        if self.borrow_within_cohort_forbidden():
            return V_RECLAIM_NO_BORROW
        threshold = self.cq.preemption.max_priority_threshold
        if adm.wl.priority >= self.wl.priority or (threshold is not None and adm.wl.priority > threshold):
            return V_RECLAIM_NO_BORROW
        return V_RECLAIM_WHILE_BORROW

    def _from_cq(self, cq_name: str, lca, advantage: bool) -> list:
        out = []
        for adm in self.snap.workloads_in(cq_name):
            v = self.classify(adm, advantage)
            if v != V_NEVER:
                out.append((adm, lca, v))
        return out

    def _in_subtree(self, cohort, skip, advantage: bool, lca, out: list) -> None:
        """`collectCandidatesInSubtree`."""
        for child in cohort.child_cohorts:
            if child is skip or t.within_nominal(child, self.frs):
                continue
            self._in_subtree(child, skip, advantage, lca, out)
        for child in cohort.child_cqs:
            if child is self.node:
                continue
            if not t.within_nominal(child, self.frs):
                out += self._from_cq(child.name, lca, advantage)

    def classical_preemptions(self) -> list:
        """`classicalPreemptions` with `NewCandidateIterator`."""
        key = candidates_key(self.cq.name, self.now)
        same = [] if self.cq.preemption.within_cluster_queue == NEVER else self._from_cq(self.cq.name, None, False)
        hierarchy: list = []
        priority: list = []
        if self.node.parent is not None and self.cq.preemption.reclaim_within_cohort != NEVER:
            advantage, remaining = t.fits_in_quota(self.node, self.usage)
            previous = None
            for root in self.node.ancestors():
                self._in_subtree(root, previous, advantage, root, hierarchy if advantage else priority)
                fits, remaining = t.fits_in_quota(root, remaining)
                advantage = advantage or fits
                previous = root
        for lst in (same, hierarchy, priority):
            lst.sort(key=lambda c: key(c[0]))
        candidates = hierarchy + priority + same  # nothing is evicted at a snapshot here
        no_other = not hierarchy and not priority
        forbidden = self.borrow_within_cohort_forbidden()
        if no_other or (forbidden and not self._under_nominal()):
            attempts = [True]
        elif forbidden and not hierarchy:
            attempts = [False, True]
        else:
            attempts = [True, False]
        for borrowing in attempts:
            targets = []
            for adm, lca, variant in candidates:
                if not self._valid(adm, lca, variant, borrowing):
                    continue
                self.snap.remove_workload(adm)
                targets.append(Target(adm, VARIANT_REASON[variant], adm.admission.cluster_queue))
                if self.fits(borrowing):
                    targets = self.fill_back(targets, borrowing)
                    self.restore(targets)
                    return targets
            self.restore(targets)
        return []

    def _valid(self, adm, lca, variant: int, borrowing: bool) -> bool:
        """`candidateIsValid`."""
        if adm.admission.cluster_queue == self.cq.name:
            return True
        if borrowing and variant == V_RECLAIM_NO_BORROW:
            return False
        node = self.snap.tree.cqs[adm.admission.cluster_queue]
        if t.within_nominal(node, self.frs):
            return False
        for a in node.ancestors():
            if a is lca:
                break
            if t.within_nominal(a, self.frs):
                return False
        return True

    def _under_nominal(self) -> bool:
        """`queueUnderNominalInResourcesNeedingPreemption`."""
        for fr in self.frs:
            q = self.node.quotas.get(fr)
            if (q.nominal if q else 0) <= self.node.usage.get(fr, 0):
                return False
        return True

    def fits(self, allow_borrowing: bool) -> bool:
        """`workloadFits`."""
        for fr, v in self.usage.items():
            if not allow_borrowing and t.borrowing_with(self.node, fr, v):
                return False
            if v > t.cq_available(self.node, fr):
                return False
        return self.tas_fits is None or self.tas_fits()

    def fill_back(self, targets: list, allow_borrowing: bool) -> list:
        """`fillBackWorkloads`: put back every victim that is not needed, newest choice kept."""
        i = len(targets) - 2
        while i >= 0:
            self.snap.add_workload(targets[i].adm)
            if self.fits(allow_borrowing):
                targets[i] = targets[-1]
                targets.pop()
            else:
                self.snap.remove_workload(targets[i].adm)
            i -= 1
        return targets

    def restore(self, targets: list) -> None:
        for tg in targets:
            self.snap.add_workload(tg.adm)

    # -- fair sharing ------------------------------------------------------------------------

    def find_candidates(self) -> list:
        """`findCandidates`."""
        out = []
        p = self.cq.preemption
        if p.within_cluster_queue != NEVER:
            out += [a for a in self.snap.workloads_in(self.cq.name)
                    if satisfies_policy(self.wl, a.wl, p.within_cluster_queue) and uses_resources(a, self.frs)]
        if self.node.parent is not None and p.reclaim_within_cohort != NEVER:
            for other in self.node.root().subtree_cqs():
                if other is self.node or not any(t.borrowing_with(other, fr, 0) for fr in self.frs):
                    continue
                out += [a for a in self.snap.workloads_in(other.name)
                        if satisfies_policy(self.wl, a.wl, p.reclaim_within_cohort) and uses_resources(a, self.frs)]
        return out

    def fair_preemptions(self) -> list:
        """`fairPreemptions`."""
        candidates = self.find_candidates()
        if not candidates:
            return []
        candidates.sort(key=candidates_key(self.cq.name, self.now))
        strategies = self.engine.setup.strategies
        for fr, v in self.usage.items():
            t.add_usage(self.node, fr, v)
        fits, targets, retry = self.first_strategy(candidates, strategies[0])
        if not fits and len(strategies) > 1:
            fits, targets = self.second_strategy(retry, targets)
        for fr, v in self.usage.items():
            t.remove_usage(self.node, fr, v)
        if not fits:
            self.restore(targets)
            return []
        targets = self.fill_back(targets, True)
        self.restore(targets)
        return targets

    def fits_fair(self) -> bool:
        """`workloadFitsForFairSharing`."""
        for fr, v in self.usage.items():
            t.remove_usage(self.node, fr, v)
        ok = self.fits(True)
        for fr, v in self.usage.items():
            t.add_usage(self.node, fr, v)
        return ok

    def _within_nominal_needing(self) -> bool:
        """`queueWithinNominalInResourcesNeedingPreemption`."""
        return not any(t.borrowing_with(self.node, fr, 0) for fr in self.frs)

    def first_strategy(self, candidates: list, strategy: str):
        """`runFirstFsStrategy`."""
        ordering = Ordering(self, candidates)
        targets, retry = [], []
        within_nominal = self._within_nominal_needing()
        for cand_cq in ordering.iter():
            if cand_cq is self.node:
                adm = ordering.pop(cand_cq)
                self.snap.remove_workload(adm)
                targets.append(Target(adm, IN_CLUSTER_QUEUE, cand_cq.name))
                if self.fits_fair():
                    return True, targets, []
                continue
            if within_nominal:
                adm = ordering.pop(cand_cq)
                self.snap.remove_workload(adm)
                targets.append(Target(adm, IN_COHORT_RECLAMATION, cand_cq.name))
                if self.fits_fair():
                    return True, targets, []
                continue
            new_share, old_share = ordering.shares(cand_cq)
            if math.isinf(new_share.weighted()) and not math.isinf(old_share.weighted()):
                while ordering.has(cand_cq):
                    retry.append(ordering.pop(cand_cq))
                continue
            while ordering.has(cand_cq):
                adm = ordering.pop(cand_cq)
                target_new = ordering.share_after_removal(cand_cq, adm)
                if strategy == "LessThanInitialShare":
                    passed = t.compare_drs(new_share, old_share) < 0
                else:
                    passed = t.compare_drs(new_share, target_new) <= 0
                if passed:
                    self.snap.remove_workload(adm)
                    targets.append(Target(adm, IN_COHORT_FAIR_SHARING, cand_cq.name))
                    if self.fits_fair():
                        return True, targets, []
                    break
                retry.append(adm)
        return False, targets, retry

    def second_strategy(self, retry: list, targets: list):
        """`runSecondFsStrategy` (LessThanInitialShare)."""
        ordering = Ordering(self, retry)
        for cand_cq in ordering.iter():
            new_share, old_share = ordering.shares(cand_cq)
            passed = t.compare_drs(new_share, old_share) < 0
            adm = ordering.pop(cand_cq)
            if passed:
                self.snap.remove_workload(adm)
                targets.append(Target(adm, IN_COHORT_FAIR_SHARING, cand_cq.name))
                if self.fits_fair():
                    return True, targets
            ordering.pruned_cqs.add(cand_cq.name)
        return False, targets


class Ordering:
    """`TargetClusterQueueOrdering`: the ClusterQueues to take victims from, the highest
    dominant resource share first, walking down the cohort tree."""

    def __init__(self, p: Preemptor, candidates: list):
        self.p = p
        self.preemptor = p.node
        self.ancestors = set(id(a) for a in p.node.ancestors())
        self.by_cq: dict = {}
        for c in candidates:
            self.by_cq.setdefault(c.admission.cluster_queue, []).append(c)
        self.pruned_cqs: set = set()
        self.pruned_cohorts: set = set()

    def has(self, node) -> bool:
        return bool(self.by_cq.get(node.name))

    def pop(self, node):
        return self.by_cq[node.name].pop(0)

    def iter(self):
        if self.preemptor.parent is None:
            while self.preemptor.name not in self.pruned_cqs and self.has(self.preemptor):
                yield self.preemptor
            return
        root = self.preemptor.root()
        while root.name not in self.pruned_cohorts:
            target = self.next_target(root)
            if target is not None:
                yield target

    def next_target(self, cohort):
        """`nextTarget`."""
        best_cq, best_cq_drs = None, t.negative_drs()
        key = candidates_key(self.preemptor.name, self.p.now)
        for cq in cohort.child_cqs:
            if cq.name in self.pruned_cqs:
                continue
            drs = t.dominant_resource_share(cq)
            if (not drs.borrowing and cq is not self.preemptor) or not self.has(cq):
                self.pruned_cqs.add(cq.name)
            elif t.compare_drs(drs, best_cq_drs) == 0:
                if key(self.by_cq[cq.name][0]) < key(self.by_cq[best_cq.name][0]):
                    best_cq = cq
            elif t.compare_drs(drs, best_cq_drs) == 1:
                best_cq, best_cq_drs = cq, drs
        best_cohort, best_cohort_drs = None, t.negative_drs()
        for child in cohort.child_cohorts:
            if child.name in self.pruned_cohorts:
                continue
            drs = t.dominant_resource_share(child)
            if not drs.borrowing and id(child) not in self.ancestors:
                self.pruned_cohorts.add(child.name)
            elif t.compare_drs(drs, best_cohort_drs) >= 0:
                best_cohort, best_cohort_drs = child, drs
        if best_cohort is None and best_cq is None:
            self.pruned_cohorts.add(cohort.name)
            return None
        if t.compare_drs(best_cohort_drs, best_cq_drs) >= 0:
            return self.next_target(best_cohort)
        return best_cq

    def _lca(self, node):
        for a in node.ancestors():
            if id(a) in self.ancestors:
                return a
        raise AssertionError("no common ancestor")

    @staticmethod
    def _almost(node, lca):
        prev = node
        for a in node.ancestors():
            if a is lca:
                return prev
            prev = a
        raise AssertionError("no almost-LCA")

    def shares(self, target):
        """`ComputeShares`: the preemptor's side and the target's side, just below their common
        ancestor."""
        lca = self._lca(target)
        return (t.dominant_resource_share(self._almost(self.preemptor, lca)),
                t.dominant_resource_share(self._almost(target, lca)))

    def share_after_removal(self, target, adm):
        """`ComputeTargetShareAfterRemoval`."""
        usage = adm.admission.usage()
        for fr, v in usage.items():
            t.remove_usage(target, fr, v)
        lca = self._lca(target)
        out = t.dominant_resource_share(self._almost(target, lca))
        for fr, v in usage.items():
            t.add_usage(target, fr, v)
        return out


def simulate_preemption(engine, snap, cq_name: str, wl, fr, quantity: int):
    """`PreemptionOracle.SimulatePreemption`: (possibility, borrowing level after it)."""
    node = snap.tree.cqs[cq_name]
    targets = Preemptor(engine, snap, cq_name, wl, {fr}, {fr: quantity}).targets()
    if not targets:
        borrow, _ = t.lowest_subtree_that_fits(node, fr, quantity)
        return P_NO_CANDIDATES, borrow
    for tg in targets:
        snap.remove_usage_of(tg.adm)
    borrow, _ = t.lowest_subtree_that_fits(node, fr, quantity)
    for tg in targets:
        snap.add_usage_of(tg.adm)
    if any(tg.cq == cq_name for tg in targets):
        return P_PREEMPT, borrow
    return P_RECLAIM, borrow
