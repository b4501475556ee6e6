"""Kueue's flavor assignment (pkg/scheduler/flavorassigner/flavorassigner.go): which flavor each
resource of a workload gets in its ClusterQueue, and in which mode (fit, preempt, no fit), with
Kueue's messages and pending reasons."""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.kube import predicates
from prio.kueue import quantity, tas
from prio.kueue import tree as t
from prio.kueue.model import NEVER, TRY_NEXT_FLAVOR, ClusterQueue, ResourceFlavor

# FlavorAssignmentMode
NO_FIT, PREEMPT, DEFERRED_FIT, FIT = 0, 1, 2, 3
# preemptionMode (granular)
P_NO_FIT, P_NO_CANDIDATES, P_PREEMPT, P_RECLAIM, P_FIT = 0, 1, 2, 3, 4
BIG = 1 << 62

NO_MATCHING_FLAVOR, EXCEEDS_MAX_QUOTA, WAITING_FOR_QUOTA = "NoMatchingFlavor", "ExceedsMaxQuota", "WaitingForQuota"
TOPOLOGY_PLACEMENT_FAILED = "TopologyPlacementFailed"
_SEVERITY = {NO_MATCHING_FLAVOR: 4, EXCEEDS_MAX_QUOTA: 3, WAITING_FOR_QUOTA: 2, TOPOLOGY_PLACEMENT_FAILED: 1}


def severity(reason: str) -> int:
    return _SEVERITY.get(reason or "", 0)


def most_severe(a: str, b: str) -> str:
    """`mostSevereReason`."""
    return a if severity(a) >= severity(b) else b


def flavor_assignment_mode(pmode: int) -> int:
    """`preemptionMode.flavorAssignmentMode`."""
    return {P_NO_FIT: NO_FIT, P_NO_CANDIDATES: PREEMPT, P_PREEMPT: PREEMPT, P_RECLAIM: PREEMPT, P_FIT: FIT}[pmode]


def is_preferred(a: tuple, b: tuple, preference: str | None) -> bool:
    """`isPreferred`: a granular mode (preemption mode, borrowing level) better than b."""
    if a[0] == P_NO_FIT:
        return False
    if b[0] == P_NO_FIT:
        return True
    if (a[0] == P_NO_CANDIDATES) != (b[0] == P_NO_CANDIDATES):
        return a[0] != P_NO_CANDIDATES
    if preference == "PreemptionOverBorrowing":
        if a[1] != b[1]:
            return a[1] < b[1]
        return a[0] > b[0]
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1]


def should_try_next_flavor(mode: tuple, cq: ClusterQueue) -> bool:
    """`shouldTryNextFlavor`."""
    if mode[0] in (P_NO_FIT, P_NO_CANDIDATES):
        return True
    if mode[0] in (P_PREEMPT, P_RECLAIM) and cq.fungibility.when_can_preempt == TRY_NEXT_FLAVOR:
        return True
    return mode[1] != 0 and cq.fungibility.when_can_borrow == TRY_NEXT_FLAVOR


@dataclass
class FlavorChoice:
    flavor: str
    mode: int
    borrow: int = 0
    tried_idx: int = 0


@dataclass
class PodSetAssignment:
    name: str
    count: int
    requests: dict  # resource -> total amount (count x per pod)
    flavors: dict = field(default_factory=dict)  # resource -> FlavorChoice
    reasons: list = field(default_factory=list)
    attempts: dict = field(default_factory=dict)  # flavor -> (mode, noFitReason)
    topology: tuple | None = None  # the TAS assignment: (levels, [(values, count)])

    def is_fit(self) -> bool:
        return not self.reasons

    def mode(self) -> int:
        """`PodSetAssignment.RepresentativeMode`."""
        if self.is_fit():
            return FIT
        if not self.flavors:
            return NO_FIT
        return min(f.mode for f in self.flavors.values())


@dataclass
class Assignment:
    pod_sets: list
    borrowing: int = 0
    usage: dict = field(default_factory=dict)  # (flavor, resource) -> amount
    last_tried: list = field(default_factory=list)  # per pod set {resource: tried flavor index}
    no_fit_reason: str = ""
    forced_mode: int | None = None

    def mode(self) -> int:
        """`Assignment.RepresentativeMode`."""
        if not self.pod_sets:
            return NO_FIT
        if self.forced_mode is not None:
            return self.forced_mode
        return min(ps.mode() for ps in self.pod_sets)

    def message(self) -> str:
        """`Assignment.Message`."""
        parts = []
        for ps in self.pod_sets:
            if ps.is_fit():
                continue
            parts.append(f"couldn't assign flavors to pod set {ps.name}: {', '.join(sorted(ps.reasons))}")
        return "; ".join(parts)

    def frs_need_preemption(self) -> set:
        """`flavorResourcesNeedPreemption`."""
        return {(f.flavor, res) for ps in self.pod_sets for res, f in ps.flavors.items() if f.mode == PREEMPT}

    def flavors_by_pod_set(self) -> dict:
        return {ps.name: {r: f.flavor for r, f in ps.flavors.items()} for ps in self.pod_sets}


def pending_flavors(last_tried) -> bool:
    """`AssignmentClusterQueueState.PendingFlavors`."""
    return bool(last_tried) and any(idx != -1 for ps in last_tried for idx in ps.values())


def next_flavor_to_try(last_tried, ps: int, res: str) -> int:
    """`NextFlavorToTryForPodSetResource`."""
    if not last_tried or ps >= len(last_tried) or res not in last_tried[ps]:
        return 0
    return last_tried[ps][res] + 1


def _tolerates(tol, taint) -> bool:
    """corev1 `Toleration.ToleratesTaint`."""
    if tol.effect and tol.effect != taint.effect:
        return False
    if tol.key and tol.key != taint.key:
        return False
    if tol.operator == "Exists":
        return True
    if tol.operator in ("Equal", ""):
        return tol.value == taint.value
    return False


def _matches_requirement(labels: dict, key: str, op: str, values) -> bool:
    have = key in labels
    if op == "In":
        return have and labels[key] in values
    if op == "NotIn":
        return not have or labels[key] not in values
    if op == "Exists":
        return have
    if op == "DoesNotExist":
        return not have
    if op in ("Gt", "Lt"):
        try:
            v, w = int(labels[key]), int(values[0])
        except (KeyError, ValueError, IndexError):
            return False
        return v > w if op == "Gt" else v < w
    return False


def check_flavor(flavor: ResourceFlavor | None, name: str, pod_sets) -> str | None:
    """`checkFlavorForPodSets`: why a flavor cannot take these pod sets (taints, node selection)."""
    if flavor is None:
        return f"flavor {name} not found"
    keys = set(flavor.node_labels)
    for ps in pod_sets:
        tols = list(ps.tolerations) + list(flavor.tolerations)
        for taint in flavor.node_taints:
            if taint.effect not in ("NoSchedule", "NoExecute"):
                continue
            if not any(_tolerates(tol, taint) for tol in tols):
                return f"untolerated taint {taint} in flavor {name}"
        # flavorSelector: only the keys the flavor's nodeLabels know take part
        for k, v in ps.node_selector.items():
            if k in keys and flavor.node_labels.get(k) != v:
                return f"flavor {name} doesn't match node affinity"
        terms: list = []
        for term in ps.affinity_terms:
            kept = [e for e in term if e[0] in keys]
            if not kept:
                terms = []
                break
            terms.append(kept)
        if terms and not any(all(_matches_requirement(flavor.node_labels, *e) for e in term) for term in terms):
            return f"flavor {name} doesn't match node affinity"
    return None


def explicit_tas(ps) -> bool:
    """`IsExplicitlyRequestingTAS` (of what prio reads)."""
    tr = ps.topology
    return tr is not None and (tr.required is not None or tr.preferred is not None or tr.unconstrained)


def _node_mismatch(node, tols, ps):
    """`FindFeasibleNodes` for one node: an untolerated NoSchedule/NoExecute taint, then the
    nodeSelector, then the required node affinity; None when the pod may go there."""
    taint = predicates.first_untolerated(node.taints, tols)  # the node model YuniKorn's predicates judge
    if taint is not None:
        return ("taint", taint)
    if any(node.labels.get(k) != v for k, v in ps.node_selector.items()):
        return ("selector",)
    if ps.affinity_terms and not any(all(_matches_requirement(node.labels, *e) for e in term) for term in ps.affinity_terms):
        return ("affinity",)
    return None


class Assigner:
    """`FlavorAssigner` for one workload in one ClusterQueue of a snapshot."""

    def __init__(self, engine, snap, cq_name: str, wl, last_tried, nomination=None):
        self.engine, self.snap, self.wl, self.last_tried = engine, snap, wl, last_tried
        self.cq: ClusterQueue = engine.setup.cluster_queues[cq_name]
        self.node = snap.tree.cqs[cq_name]
        self.nomination = nomination  # {pod set: {resource: flavor}} when recomputing after overlap

    def rg_by_resource(self, res: str):
        for i, rg in enumerate(self.cq.resource_groups):
            if res in rg.covered:
                return i, rg
        return None, None

    def assign(self, counts: list | None = None) -> Assignment:
        """`assignFlavors` (every pod set its own group; no TAS). counts: each pod set's count
        (partial admission tries reduced ones), else the pod sets' own."""
        a = Assignment(pod_sets=[])
        for i, ps in enumerate(self.wl.pod_sets):
            count = ps.count if counts is None else counts[i]
            requests = {r: v * count for r, v in ps.requests.items()}
            if self.rg_by_resource("pods")[1] is not None:
                requests["pods"] = count
            psa = PodSetAssignment(ps.name, count, requests)
            group_flavors: dict = {}
            failed = False
            for res in sorted(requests):
                if self.rg_by_resource(res)[1] is None and requests[res] == 0:
                    continue
                if res in group_flavors:
                    continue
                flavors, reasons, ok = self.find_flavor(i, requests, res, a.usage, psa)
                if not flavors and requests:
                    group_flavors, psa.reasons, failed = {}, list(reasons), True
                    break
                group_flavors.update(flavors)
                if not ok:
                    psa.reasons += reasons
            psa.flavors = {r: f for r, f in group_flavors.items() if r in requests}
            self._append(a, psa)
            if failed or (requests and not psa.flavors):
                self.resolve_no_fit_reason(a)
                return a
        if a.mode() == NO_FIT:
            self.resolve_no_fit_reason(a)
            return a
        if self.engine.tas_trees:
            self.apply_tas(a)
        return a

    # -- topology-aware scheduling (flavorassigner.go's TAS step, tas_flavorassigner.go) -------

    def tas_only(self) -> bool:
        """`isTASOnly`: every flavor of the ClusterQueue is a TAS flavor."""
        flavors = self.engine.setup.flavors
        return all(flavors.get(f) is not None and flavors[f].topology_name for f in self.cq.flavor_names())

    def tas_requested(self, ps) -> tuple:
        """(`isTASRequested`, `isTASImplied`)."""
        implied = not explicit_tas(ps) and self.tas_only()
        return explicit_tas(ps) or implied, implied

    def tas_mismatch(self, flavor, ps, rg) -> str | None:
        """`checkPodSetAndFlavorMatchForTAS`."""
        requested, implied = self.tas_requested(ps)
        if requested:
            if implied:
                return None
            if not flavor.topology_name:
                if not any(r in rg.covered for r in ps.requests):
                    return None
                return f"Flavor {tas.go_quote(flavor.name)} does not support TopologyAwareScheduling"
            tree = self.engine.tas_trees.get(flavor.name)
            if tree is None or not tree.has_level(ps.topology, False):
                return f"Flavor {tas.go_quote(flavor.name)} does not contain the requested level"
            return None
        if flavor.topology_name:
            return f"Flavor {tas.go_quote(flavor.name)} supports only TopologyAwareScheduling"
        return None

    def tas_requests(self, a: Assignment) -> list:
        """`WorkloadsTopologyRequests`: (flavor, pod set index, its assignment, implied), in
        Kueue's order (flavors by name, then pod sets)."""
        out = []
        for i, (ps, psa) in enumerate(zip(self.wl.pod_sets, a.pod_sets)):
            requested, implied = self.tas_requested(ps)
            if not requested or not psa.flavors or psa.count == 0:
                continue
            names = sorted({f.flavor for f in psa.flavors.values() if f.flavor in self.engine.tas_trees})
            if len(names) != 1:
                continue  # no TAS flavor, or several: Kueue's errors (checkPodSetAndFlavorMatchForTAS keeps them out)
            out.append((names[0], i, psa, implied))
        return sorted(out, key=lambda x: (x[0], x[1]))

    def find_tas(self, reqs: list, simulate_empty: bool):
        """`FindTopologyAssignmentsForWorkload`: {pod set index: assignment}, or the first failure
        (pod set assignment, reason, flavor)."""
        found: dict = {}
        assumed_shared: dict = {}
        assumed: dict = {}
        for flavor, i, psa, implied in reqs:
            tree = self.engine.tas_trees[flavor]
            ps = self.wl.pod_sets[i]
            fl = self.engine.setup.flavors[flavor]
            tols = list(ps.tolerations) + list(fl.tolerations)
            used = {} if simulate_empty else self.snap.tas_used_for(tree, flavor)
            mine = assumed_shared if tree.hostname_lowest else assumed.setdefault(flavor, {})
            got, reason = tas.find_assignment(tree, ps, psa.count, ps.topology, implied, used, mine,
                                              lambda node, tols=tols, ps=ps: _node_mismatch(node, tols, ps))
            if reason:
                return found, (psa, reason, flavor)
            found[i] = got
            for lid, u in tas.assignment_usage(tree, got, ps.requests).items():
                m = mine.setdefault(lid, {})
                for r, v in u.items():
                    m[r] = m.get(r, 0) + v
        return found, None

    def apply_tas(self, a: Assignment) -> None:
        """The TAS step of `assignFlavors`: with the current usage when the quota fits (a miss
        makes the assignment Preempt, the message says why), then, for Preempt, on empty nodes
        (a miss there is NoFit, TopologyPlacementFailed)."""
        reqs = self.tas_requests(a)
        if not reqs:
            return
        if a.mode() == FIT:
            found, failure = self.find_tas(reqs, False)
            if failure is not None:
                psa, reason, _ = failure
                psa.reasons.append(reason)
                for f in psa.flavors.values():
                    f.mode = PREEMPT
                a.forced_mode = PREEMPT
            else:
                for i, got in found.items():
                    a.pod_sets[i].topology = got
        if a.mode() == PREEMPT:
            _, failure = self.find_tas(reqs, True)
            if failure is not None:
                psa, _, flavor = failure
                self._attempt(psa, flavor, NO_FIT, TOPOLOGY_PLACEMENT_FAILED)
                for f in psa.flavors.values():
                    f.mode = NO_FIT
                a.forced_mode = NO_FIT
            else:
                for _, _i, psa, _ in reqs:
                    for f in psa.flavors.values():
                        f.mode = PREEMPT
                a.forced_mode = PREEMPT
        self.resolve_no_fit_reason(a)

    def _append(self, a: Assignment, psa: PodSetAssignment) -> None:
        """`Assignment.append`."""
        a.pod_sets.append(psa)
        tried = {}
        for res, f in psa.flavors.items():
            a.borrowing = max(a.borrowing, f.borrow)
            fr = (f.flavor, res)
            a.usage[fr] = a.usage.get(fr, 0) + psa.requests.get(res, 0)
            tried[res] = f.tried_idx
        a.last_tried.append(tried)

    def resolve_no_fit_reason(self, a: Assignment) -> None:
        """`resolveNoFitReason`."""
        if a.mode() != NO_FIT:
            return
        overall = ""
        for ps in a.pod_sets:
            if ps.mode() != NO_FIT:
                continue
            if not ps.attempts:
                overall = most_severe(overall, NO_MATCHING_FLAVOR)
                continue
            rg_min: dict = {}
            for i, (flavor, (mode, reason)) in enumerate(sorted(ps.attempts.items())):
                if mode != NO_FIT:
                    continue
                idxs = [j for j, rg in enumerate(self.cq.resource_groups) if flavor in [f.name for f in rg.flavors]] or [-1 - i]
                for j in idxs:
                    if j not in rg_min or severity(reason) < severity(rg_min[j]):
                        rg_min[j] = reason
            ps_reason = ""
            for r in rg_min.values():
                ps_reason = most_severe(ps_reason, r)
            overall = most_severe(overall, ps_reason)
        a.no_fit_reason = overall

    def _attempt(self, psa: PodSetAssignment, flavor: str, mode: int, reason: str) -> None:
        """`mergeFlavorAttempts`: the worst mode and the most severe reason per flavor."""
        if flavor in psa.attempts:
            m, r = psa.attempts[flavor]
            psa.attempts[flavor] = (min(m, mode), most_severe(r, reason))
        else:
            psa.attempts[flavor] = (mode, reason)

    def find_flavor(self, ps_idx: int, requests: dict, res: str, assigned: dict, psa: PodSetAssignment):
        """`findFlavorForPodSets`: (flavors per covered resource, reasons, fit)."""
        _, rg = self.rg_by_resource(res)
        if rg is None:
            return {}, [f"resource {res} unavailable in ClusterQueue"], False
        reasons: list = []
        covered = {r: v for r, v in requests.items() if r in rg.covered}
        best, best_mode = None, (P_NO_FIT, BIG)
        attempted = -1
        idx = next_flavor_to_try(self.last_tried, ps_idx, res)
        while idx < len(rg.flavors):
            attempted = idx
            fq = rg.flavors[idx]
            fname = fq.name
            if self.nomination and fname != self.nomination.get(psa.name, {}).get(res):
                reasons.append(f"skipping flavor {fname} as it is not found in the nomination mapping for resource {res}")
                idx += 1
                continue
            fobj = self.engine.setup.flavors.get(fname)
            why = self.tas_mismatch(fobj, self.wl.pod_sets[ps_idx], rg) if fobj is not None and self.engine.tas_trees else None
            if why is None:
                why = check_flavor(fobj, fname, [self.wl.pod_sets[ps_idx]])
            if why is not None:
                reasons.append(why)
                self._attempt(psa, fname, NO_FIT, NO_MATCHING_FLAVOR)
                idx += 1
                continue
            choices: dict = {}
            rep = (P_FIT, 0)
            flavor_reason = ""
            for rname in sorted(covered):
                fr = (fname, rname)
                pmode, borrow, status, nofit = self.fits_resource_quota(fr, assigned.get(fr, 0), covered[rname])
                if status:
                    reasons.append(status)
                    flavor_reason = most_severe(flavor_reason, nofit)
                mode = (pmode, borrow)
                if is_preferred(rep, mode, self.cq.fungibility.preference):
                    rep = mode
                if rep[0] == P_NO_FIT:
                    continue
                choices[rname] = FlavorChoice(fname, flavor_assignment_mode(pmode), borrow)
            self._attempt(psa, fname, flavor_assignment_mode(rep[0]), flavor_reason)
            if not should_try_next_flavor(rep, self.cq):
                best, best_mode = choices, rep
                break
            if is_preferred(rep, best_mode, self.cq.fungibility.preference):
                best, best_mode = choices, rep
            idx += 1
        for f in (best or {}).values():
            f.tried_idx = -1 if attempted == len(rg.flavors) - 1 else attempted
        if best_mode[0] == P_FIT:
            return best or {}, [], True
        return best or {}, reasons, False

    def fits_resource_quota(self, fr, assumed: int, request: int):
        """`fitsResourceQuota`: (preemption mode, borrowing level, reason or "", pending reason)."""
        node, res = self.node, fr[1]
        avail = t.cq_available(node, fr)
        max_capacity = t.potential_available(node, fr)
        val = assumed + request
        if val > max_capacity:
            msg = (f"insufficient quota for {res} in flavor {fr[0]}, previously considered podsets requests "
                   f"({quantity.text(res, assumed)}) + current podset request ({quantity.text(res, request)}) > "
                   f"maximum capacity ({quantity.text(res, max_capacity)})")
            return P_NO_FIT, 0, msg, EXCEEDS_MAX_QUOTA
        borrow, may_reclaim = t.lowest_subtree_that_fits(node, fr, val)
        if val <= avail:
            return P_FIT, borrow, "", ""
        msg = f"insufficient unused quota for {res} in flavor {fr[0]}, {quantity.text(res, val - avail)} more needed"
        quota = node.quotas.get(fr)
        nominal = quota.nominal if quota else 0
        if nominal >= val or may_reclaim or self.can_preempt_while_borrowing():
            possibility, borrow_after = self.engine.simulate_preemption(self.snap, self.cq.name, self.wl, fr, val)
            return possibility, borrow_after, msg, ""
        return P_NO_FIT, borrow, msg, WAITING_FOR_QUOTA

    def can_preempt_while_borrowing(self) -> bool:
        """`canPreemptWhileBorrowing`."""
        p = self.cq.preemption
        return p.borrow_within_cohort != NEVER or (self.engine.setup.fair_sharing and p.reclaim_within_cohort != NEVER)
