"""Kueue's quota tree (pkg/cache/scheduler: resource_node.go, fair_sharing.go): ClusterQueues
and Cohorts as resource nodes with their quotas, subtree quota and usage, and the arithmetic
Kueue's scheduler reads them with. A flavor-resource `fr` is the pair (flavor, resource)."""
from __future__ import annotations

import math

from prio.kueue.model import Setup

INF = math.inf


class Node:
    """`resourceNode` plus its place in the hierarchy (`hierarchy.ClusterQueue`/`Cohort`)."""

    def __init__(self, name: str, is_cq: bool, weight: float = 1.0):
        self.name = name
        self.is_cq = is_cq
        self.parent: Node | None = None
        self.child_cqs: list = []
        self.child_cohorts: list = []
        self.quotas: dict = {}  # fr -> Quota
        self.subtree: dict = {}  # fr -> int
        self.usage: dict = {}  # fr -> int
        self.weight = weight

    def __repr__(self) -> str:
        return f"Node({self.name})"

    def root(self) -> Node:
        n = self
        while n.parent is not None:
            n = n.parent
        return n

    def ancestors(self):
        """`PathParentToRoot`."""
        n = self.parent
        while n is not None:
            yield n
            n = n.parent

    def subtree_cqs(self) -> list:
        """`SubtreeClusterQueues`: every ClusterQueue below this cohort."""
        out = list(self.child_cqs)
        for c in self.child_cohorts:
            out += c.subtree_cqs()
        return out

    def path(self) -> str:
        """`buildCQPath`: /root/.../name."""
        parts = [self.name] + [a.name for a in self.ancestors()]
        return "/" + "/".join(reversed(parts))


def local_quota(n: Node, fr) -> int:
    """`resourceNode.localQuota`: what a node keeps for itself (its lendingLimit withheld)."""
    q = n.quotas.get(fr)
    if q is not None and q.lending_limit is not None:
        return max(0, n.subtree.get(fr, 0) - q.lending_limit)
    return 0


def local_available(n: Node, fr) -> int:
    """`LocalAvailable`."""
    return max(0, local_quota(n, fr) - n.usage.get(fr, 0))


def available(n: Node, fr):
    """`available`: what a node may still use, its parents' lendable quota included."""
    if n.parent is None:
        return n.subtree.get(fr, 0) - n.usage.get(fr, 0)
    parent_available = available(n.parent, fr)
    q = n.quotas.get(fr)
    if q is not None and q.borrowing_limit is not None:
        lq = local_quota(n, fr)
        stored_in_parent = n.subtree.get(fr, 0) - lq
        used_in_parent = max(0, n.usage.get(fr, 0) - lq)
        parent_available = min(stored_in_parent - used_in_parent + q.borrowing_limit, parent_available)
    return local_available(n, fr) + parent_available


def cq_available(n: Node, fr) -> int:
    """`ClusterQueueSnapshot.Available`."""
    return max(0, available(n, fr))


def potential_available(n: Node, fr):
    """`potentialAvailable`: what a node could use with nothing else running."""
    if n.parent is None:
        return n.subtree.get(fr, 0)
    avail = local_quota(n, fr) + potential_available(n.parent, fr)
    q = n.quotas.get(fr)
    if q is not None and q.borrowing_limit is not None:
        avail = min(n.subtree.get(fr, 0) + q.borrowing_limit, avail)
    return avail


def add_usage(n: Node, fr, val: int) -> None:
    """`addUsage`: usage beyond what the node keeps locally is stored in its parent (a loop up
    the tree, as Go's recursion walks it)."""
    while True:
        used = n.usage.get(fr, 0)
        la = max(0, local_quota(n, fr) - used)
        n.usage[fr] = used + val
        if n.parent is None or val <= la:
            return
        n, val = n.parent, val - la


def remove_usage(n: Node, fr, val: int) -> None:
    """`removeUsage`."""
    while True:
        used = n.usage.get(fr, 0)
        stored_in_parent = used - local_quota(n, fr)
        n.usage[fr] = used - val
        if stored_in_parent <= 0 or n.parent is None:
            return
        n, val = n.parent, min(val, stored_in_parent)


def borrowing_with(n: Node, fr, val: int) -> bool:
    """`BorrowingWith`: a ClusterQueue against its nominal quota, a Cohort against its subtree."""
    if n.is_cq:
        q = n.quotas.get(fr)
        return (q.nominal if q else 0) < n.usage.get(fr, 0) + val
    return n.subtree.get(fr, 0) < n.usage.get(fr, 0) + val


def within_nominal(n: Node, frs) -> bool:
    """`IsWithinNominalInResources`."""
    return all(n.subtree.get(fr, 0) >= n.usage.get(fr, 0) for fr in frs)


def fits_in_quota(n: Node, requests: dict):
    """`QuantitiesFitInQuota`: (fits, what is left to place above this node)."""
    fits, remaining = True, {}
    for fr, v in requests.items():
        if n.subtree.get(fr, 0) < n.usage.get(fr, 0) + v:
            fits = False
        remaining[fr] = max(0, v - local_available(n, fr))
    return fits, remaining


def node_height(n: Node) -> int:
    """`getNodeHeight`."""
    h = min(len(n.child_cqs) + len(n.child_cohorts), 1)
    for c in n.child_cohorts:
        h = max(h, node_height(c) + 1)
    return h


def lowest_subtree_that_fits(cq: Node, fr, val: int):
    """`FindHeightOfLowestSubtreeThatFits`: (the borrowing level, whether quota could still be
    reclaimed higher up)."""
    if not borrowing_with(cq, fr, val) or cq.parent is None:
        return 0, cq.parent is not None
    remaining = val - local_available(cq, fr)
    for node in cq.ancestors():
        if not borrowing_with(node, fr, remaining):
            return node_height(node), node.parent is not None
        remaining -= local_available(node, fr)
    return node_height(cq.root()), False


class DRS:
    """`DRS`: a node's dominant resource share, weighted."""

    __slots__ = ("weight", "ratio", "resource", "borrowing", "borrowed")

    def __init__(self, weight=1.0, ratio=0.0, resource="", borrowing=False, borrowed=()):
        self.weight, self.ratio, self.resource, self.borrowing, self.borrowed = weight, ratio, resource, borrowing, borrowed

    def is_zero(self) -> bool:
        return self.ratio == 0

    def weighted(self) -> float:
        """`PreciseWeightedShare`."""
        if self.is_zero():
            return 0.0
        if self.weight == 0:
            return INF
        return self.ratio / self.weight

    def zero_weight_borrows(self) -> bool:
        return self.weight == 0 and not self.is_zero()

    def borrowing_on(self, requested: dict) -> bool:
        """`IsBorrowingOn`."""
        return any(requested.get(fr, 0) > 0 for fr in self.borrowed)

    def __repr__(self) -> str:
        return f"DRS({self.weighted()})"


def negative_drs() -> DRS:
    return DRS(1.0, -1, "")


def compare_drs(a: DRS, b: DRS) -> int:
    """`CompareDRS`."""
    def cmp(x, y):
        return (x > y) - (x < y)
    if a.zero_weight_borrows() and b.zero_weight_borrows():
        return cmp(a.ratio, b.ratio)
    if a.zero_weight_borrows():
        return 1
    if b.zero_weight_borrows():
        return -1
    return cmp(a.weighted(), b.weighted())


def dominant_resource_share(n: Node, wl_req: dict | None = None) -> DRS:
    """`dominantResourceShare`: borrowed amount over what the parent could lend, per resource
    (x1000), the largest one."""
    drs = DRS(n.weight)
    if n.parent is None:
        return drs
    wl_req = wl_req or {}
    borrowed_frs: list = []
    borrowing: dict = {}
    for fr, quota in n.subtree.items():
        amount = wl_req.get(fr, 0) + n.usage.get(fr, 0) - quota
        if amount > 0:
            borrowing[fr[1]] = borrowing.get(fr[1], 0) + amount
            borrowed_frs.append(fr)
    if not borrowing:
        return drs
    drs.borrowing, drs.borrowed = True, tuple(borrowed_frs)
    lendable = calculate_lendable(n.parent)
    for r in sorted(borrowing):
        lr = lendable.get(r, 0)
        if lr > 0:
            ratio = borrowing[r] * 1000.0 / lr
            if ratio > drs.ratio or (ratio == drs.ratio and r < drs.resource):
                drs.ratio, drs.resource = ratio, r
    return drs


def calculate_lendable(n: Node) -> dict:
    """`calculateLendable`."""
    root = n.root()
    out: dict = {}
    for fr in root.subtree:
        out[fr[1]] = out.get(fr[1], 0) + potential_available(n, fr)
    return out


def cohort_cycles(parent: dict) -> list:
    """Each cycle of Cohort parents (name -> parentName or None), as the list of its names from
    the first one met in `parent`'s order; a Cohort its own parent is a cycle of one."""
    cycles, done = [], set()
    for start in parent:
        path, n = [], start
        while n is not None and n not in done and n not in path:
            path.append(n)
            n = parent.get(n)
        if n is not None and n in path:
            cycles.append(path[path.index(n):])
        done.update(path)
    return cycles


class Tree:
    """Kueue's cache: every ClusterQueue and Cohort as a node, usage of the admitted workloads.
    The Cohorts' parents form no cycle (the loader refuses one: `cohort_cycles`)."""

    def __init__(self, setup: Setup):
        self.cqs: dict = {}
        self.cohorts: dict = {}
        for name, c in setup.cohorts.items():
            node = Node(name, False, c.fair_weight)
            for rg in c.resource_groups:
                for fq in rg.flavors:
                    for res, q in fq.resources.items():
                        node.quotas[(fq.name, res)] = q
            self.cohorts[name] = node
        for name, c in setup.cohorts.items():
            if c.parent and c.parent in self.cohorts:
                self.cohorts[name].parent = self.cohorts[c.parent]
                self.cohorts[c.parent].child_cohorts.append(self.cohorts[name])
        for name, cq in setup.cluster_queues.items():
            node = Node(name, True, cq.fair_weight)
            for rg in cq.resource_groups:
                for fq in rg.flavors:
                    for res, q in fq.resources.items():
                        node.quotas[(fq.name, res)] = q
            if cq.cohort and cq.cohort in self.cohorts:
                node.parent = self.cohorts[cq.cohort]
                node.parent.child_cqs.append(node)
            self.cqs[name] = node
        for n in self.cohorts.values():
            n.child_cqs.sort(key=lambda x: x.name)
            n.child_cohorts.sort(key=lambda x: x.name)
        for n in self._roots():
            _update_subtree(n)

    def _roots(self) -> list:
        return [n for n in list(self.cohorts.values()) + list(self.cqs.values()) if n.parent is None]

    def set_usage(self, usage_by_cq: dict) -> None:
        """Usage of every node from the admitted workloads' usage per ClusterQueue (what Kueue's
        cache accumulates as workloads are added)."""
        for n in list(self.cqs.values()) + list(self.cohorts.values()):
            n.usage = {}
        for cq, usage in sorted(usage_by_cq.items()):
            for fr, v in sorted(usage.items()):
                add_usage(self.cqs[cq], fr, v)


def _update_subtree(n: Node) -> None:
    """`updateCohortResourceNode`/`accumulateFromChild`."""
    n.subtree = {fr: q.nominal for fr, q in n.quotas.items()}
    for child in n.child_cohorts + n.child_cqs:
        _update_subtree(child)
        for fr, cq_quota in child.subtree.items():
            n.subtree[fr] = n.subtree.get(fr, 0) + cq_quota - local_quota(child, fr)
