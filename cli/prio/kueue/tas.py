"""Kueue's topology-aware scheduling (pkg/cache/scheduler: tas_topology_tree.go,
tas_flavor_snapshot.go; pkg/scheduler/flavorassigner/tas_flavorassigner.go) for what prio reads:
a `Topology`'s levels, a ResourceFlavor's `topologyName`, the nodes (labels, allocatable, taints)
and a pod set's `topologyRequest` (required, preferred or unconstrained level). Slices
(`podSetSliceRequiredTopology`, `podSetSliceSize`, multi-layer constraints) and leader/worker
groups (`podSetGroupName`) are refused by the loader, so a slice is one pod and there is no
leader: every domain's four counts of Kueue's (pods, slices, with and without a leader) are one.

Gates as at the corpora's commit: TASProfileMixed on (an unconstrained request takes the
domains with the least free capacity first, required and preferred ones BestFit),
TASBalancedPlacement and TASRespectNodeAffinityPreferred off, SchedulerLibraryIntegration off
(unschedulable or not-ready nodes are not left out). Pods that Kueue did not place (static or
DaemonSet pods) are not read: a node's free capacity is its allocatable less what admitted
topology assignments hold.

Pure: no I/O. The behaviour is derived from Kueue's code (no recorded corpus holds TAS)."""
from __future__ import annotations

from dataclasses import dataclass, field

HOSTNAME = "kubernetes.io/hostname"
BIG = 2**31 - 1


@dataclass(frozen=True)
class Topology:
    name: str
    levels: tuple  # node label keys, highest first


@dataclass
class Node:
    name: str
    labels: dict
    allocatable: dict  # resource -> amount in Kueue's units
    taints: tuple = ()  # prio.kube.predicates.Taint (key, value, effect), in the node's order


@dataclass(frozen=True)
class TopologyRequest:
    required: str | None = None
    preferred: str | None = None
    unconstrained: bool = False


@dataclass
class Domain:
    values: tuple  # the level values from the top level down to this domain's
    parent: Domain | None = None
    children: list = field(default_factory=list)
    capacity: dict = field(default_factory=dict)  # leaves only: the nodes' allocatable summed
    node: Node | None = None  # leaves of a hostname-level topology


def taint_string(taint) -> str:
    """corev1 `Taint.ToString`: key=value:effect, key:effect without a value."""
    return f"{taint.key}={taint.value}:{taint.effect}" if taint.value else f"{taint.key}:{taint.effect}"


def go_quote(s: str) -> str:
    """Go's %q of a plain string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class FlavorTree:
    """`topologyTree` of one TAS flavor: its nodes (those with the flavor's nodeLabels and every
    level's label), leaves by id (the hostname when the lowest level is the hostname, else the
    level values), domains per level."""

    def __init__(self, topology: Topology, flavor, nodes: list):
        self.topology, self.flavor = topology, flavor
        self.levels = topology.levels
        self.hostname_lowest = bool(self.levels) and self.levels[-1] == HOSTNAME
        self.leaves: dict = {}
        self.per_level: list = [{} for _ in self.levels]
        self.node_leaf: dict = {}
        for n in nodes:
            if any(n.labels.get(k) != v for k, v in flavor.node_labels.items()):
                continue
            if any(level not in n.labels for level in self.levels):
                continue
            values = tuple(n.labels[level] for level in self.levels)
            lid = values[-1] if self.hostname_lowest else values
            leaf = self.leaves.get(lid)
            if leaf is None:
                leaf = self.leaves[lid] = Domain(values, node=n if self.hostname_lowest else None)
            for r, v in n.allocatable.items():
                leaf.capacity[r] = leaf.capacity.get(r, 0) + v
            self.node_leaf[n.name] = lid
        for leaf in self.leaves.values():
            self._place(leaf)

    def _place(self, d: Domain) -> None:
        self.per_level[len(d.values) - 1][d.values] = d
        if len(d.values) == 1:
            return
        pv = d.values[:-1]
        parent = self.per_level[len(pv) - 1].get(pv)
        if parent is None:
            parent = Domain(pv)
            self._place(parent)
        d.parent = parent
        parent.children.append(d)

    def leaf_id(self, values: tuple):
        return values[-1] if self.hostname_lowest else tuple(values)

    def has_level(self, req: TopologyRequest | None, implied: bool) -> bool:
        """`HasLevel`."""
        key = level_key(self, req, implied)
        return key is not None and key in self.levels


def level_key(tree: FlavorTree, req: TopologyRequest | None, implied: bool) -> str | None:
    """`levelKeyWithImpliedFallback`."""
    if req is not None:
        if req.required is not None:
            return req.required
        if req.preferred is not None:
            return req.preferred
        if req.unconstrained:
            return tree.levels[-1]
    return tree.levels[-1] if implied else None


@dataclass
class Stats:
    """`tasExclusionStats`."""

    total: int = 0
    node_selector: int = 0
    affinity: int = 0
    taints: dict = field(default_factory=dict)
    resources: dict = field(default_factory=dict)

    def reasons(self) -> str:
        out = []
        if self.node_selector:
            out.append(f"nodeSelector: {self.node_selector}")
        if self.affinity:
            out.append(f"affinity: {self.affinity}")
        out += [f"taint {go_quote(k)}: {v}" for k, v in sorted(self.taints.items())]
        out += [f"resource {go_quote(k)}: {v}" for k, v in sorted(self.resources.items())]
        return ", ".join(sorted(out))


def count_in(requests: dict, capacity: dict) -> tuple:
    """`CountInWithLimitingResource`: how many times the requests fit (ties of the limit broken
    by resource name)."""
    best, limiting = None, ""
    for r in sorted(requests):
        v = requests[r]
        n = BIG if v == 0 else max(0, capacity.get(r, 0) // v)
        if best is None or n < best:
            best, limiting = n, r
    return (BIG if best is None else min(best, BIG)), limiting


class Placement:
    """One `findTopologyAssignment` (one pod set, no leader, slices of one pod)."""

    def __init__(self, tree: FlavorTree, unconstrained: bool):
        self.tree = tree
        self.least_free = unconstrained  # useLeastFreeCapacityAlgorithm (TASProfileMixed on)
        self.count: dict = {}  # domain values -> pods it can take

    def c(self, d: Domain) -> int:
        return self.count.get(d.values, 0)

    def sorted(self, domains) -> list:
        """`sortedDomains` (and `sortedDomainsWithLeader`, the same without leaders)."""
        sign = 1 if self.least_free else -1
        return sorted(domains, key=lambda d: (sign * self.c(d), self.c(d), d.values))

    def best_fit(self, domains: list, need: int) -> Domain:
        """`findBestFitDomainBy`: the first domain with the smallest count that is >= need."""
        best, best_count = None, BIG + 1
        for d in domains:
            n = self.c(d)
            if need <= n < best_count:
                best, best_count = d, n
        return best if best is not None else domains[0]

    def to_minimum(self, domains: list, count: int) -> list:
        """`updateCountsToMinimumGeneric` without leaders: take domains in order until the count
        is placed, BestFit choosing the last one."""
        out, remaining = [], count
        for i, d in enumerate(domains):
            if not self.least_free and self.c(d) >= remaining:
                d = self.best_fit(domains[i:], remaining)
            if self.c(d) >= remaining:
                self.count[d.values] = remaining
                out.append(d)
                return out
            remaining -= self.c(d)
            out.append(d)
        return out


def find_assignment(tree: FlavorTree, pod_set, count: int, req: TopologyRequest | None, implied: bool,
                    used: dict, assumed: dict, matches) -> tuple:
    """`findTopologyAssignment` for one pod set: ((levels, [(values, count)]), "") or (None,
    reason). used / assumed: leaf id -> usage (held by admitted workloads / taken by earlier pod
    sets in this search); matches(node): why a node is left out ("taint", taint), ("selector",),
    ("affinity",) or None."""
    requests = dict(pod_set.requests)
    requests["pods"] = requests.get("pods", 0) + 1
    required = req is not None and req.required is not None
    unconstrained = (req is not None and req.unconstrained) or implied
    key = level_key(tree, req, implied)
    if key is None:
        return None, "topology level not specified"
    if key not in tree.levels:
        return None, f"no requested topology level: {key}"
    level_idx = tree.levels.index(key)
    p = Placement(tree, unconstrained)
    stats = Stats()
    # fillInCounts: each leaf's pods, then sums up the tree
    for lid, leaf in tree.leaves.items():
        stats.total += 1
        if tree.hostname_lowest and leaf.node is not None:
            why = matches(leaf.node)
            if why is not None:
                if why[0] == "taint":
                    k = taint_string(why[1])
                    stats.taints[k] = stats.taints.get(k, 0) + 1
                elif why[0] == "selector":
                    stats.node_selector += 1
                else:
                    stats.affinity += 1
                continue
        free = dict(leaf.capacity)
        for u in (used.get(lid), assumed.get(lid)):
            for r, v in (u or {}).items():
                free[r] = free.get(r, 0) - v
        n, limiting = count_in(requests, free)
        if n == 0 and limiting:
            stats.resources[limiting] = stats.resources.get(limiting, 0) + 1
        p.count[leaf.values] = n
    for idx in range(len(tree.levels) - 2, -1, -1):
        for d in tree.per_level[idx].values():
            p.count[d.values] = sum(p.c(ch) for ch in d.children)

    def not_fit(fit: int, total: int) -> str:
        msg = (f"topology {go_quote(tree.topology.name)} doesn't allow to fit any of {total} pod(s)" if fit == 0 else
               f"topology {go_quote(tree.topology.name)} allows to fit only {fit} out of {total} pod(s)")
        if stats.node_selector or stats.affinity or stats.taints or stats.resources:
            msg += f". Total nodes: {stats.total}; excluded: {stats.reasons()}"
        return msg

    def fit_level(idx: int):
        """`findLevelWithFitDomains`."""
        domains = list(tree.per_level[idx].values())
        if not domains:
            return None, None, f"no topology domains at level: {tree.levels[idx]}"
        ordered = p.sorted(domains)
        top = ordered[0]
        if not p.least_free and p.c(top) >= count:
            top = p.best_fit(ordered, count)
        if p.least_free:
            for d in ordered:
                if p.c(d) >= count:
                    return idx, [d], ""
        if p.c(top) < count:
            if required:
                return None, None, not_fit(p.c(top), count)
            if idx > 0 and not unconstrained:
                return fit_level(idx - 1)
            out, remaining = [], count
            for i, d in enumerate(ordered):
                if remaining <= 0:
                    break
                if not p.least_free and p.c(d) >= remaining:
                    d = p.best_fit(ordered[i:], remaining)
                out.append(d)
                remaining -= p.c(d)
            if remaining > 0:
                return None, None, not_fit(count - remaining, count)
            return idx, out, ""
        return idx, [top], ""

    idx, fit, reason = fit_level(level_idx)
    if reason:
        return None, reason
    fit = p.to_minimum(fit, count)
    while idx < len(tree.levels) - 1:
        lower = p.sorted([ch for d in fit for ch in d.children])
        fit = p.to_minimum(lower, count)
        idx += 1
    # buildAssignment: by level values; only the hostname when the lowest level is the hostname
    start = len(tree.levels) - 1 if tree.hostname_lowest else 0
    domains = [(d.values[start:], p.c(d)) for d in sorted(fit, key=lambda d: d.values) if p.c(d) > 0]
    return (tree.levels[start:], domains), ""


def assignment_usage(tree: FlavorTree, assignment, per_pod: dict) -> dict:
    """Leaf id -> usage of a topology assignment (`TASUsage`: the pods' requests and `pods`)."""
    _, domains = assignment
    out: dict = {}
    for values, n in domains:
        lid = values[-1] if tree.hostname_lowest else tuple(values)
        u = out.setdefault(lid, {})
        for r, v in per_pod.items():
            u[r] = u.get(r, 0) + v * n
        u["pods"] = u.get("pods", 0) + n
    return out
