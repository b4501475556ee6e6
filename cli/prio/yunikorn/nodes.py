"""The cluster's nodes as YuniKorn's scheduler keeps them: each node's capacity, what runs on it,
the reservation it holds, and the order the partition offers the nodes in (yunikorn-core
objects/node.go, node_collection.go, nodesorting.go; resources.FitIn and FitInScore). Pure: no
I/O.

Nodes never change here except by what is placed on them: a replay adds allocations, it never
releases one (preemption is prio preempt's), so a node's free room only shrinks.
"""
from __future__ import annotations

from bisect import bisect_left

from prio.yunikorn.resources import fit_in, strictly_positive

FAIR = "fair"
BINPACKING = "binpacking"
# NewNodeSortingPolicy without resource weights: vcore and memory count, equally; other types not
DEFAULT_WEIGHTS = {"vcore": 1.0, "memory": 1.0}


def sort_policy(name: str | None) -> str:
    """The partition's nodesortpolicy type as YuniKorn takes it: binpacking, else fair (an
    absent or unknown type is fair, the NodeCollection's default)."""
    return BINPACKING if (name or "").lower() == BINPACKING else FAIR


def weights_of(configured: dict | None) -> dict:
    """The resource weights YuniKorn scores nodes with: the configured ones, else the defaults."""
    return dict(configured) if configured else dict(DEFAULT_WEIGHTS)


def usage_share(capacity: dict, available: dict, weights: dict) -> float:
    """absResourceUsage: the node's usage share (1 - free/capacity) averaged over the resource
    types of its capacity, each by its weight; types without a weight (or weight 0) and shares
    that are not a number (0/0) do not count; 0 when nothing counts. Free room is pruned in
    YuniKorn, so a type with nothing free counts as fully used."""
    usage = total = 0.0
    for k, cap in capacity.items():
        w = weights.get(k)
        if not w:
            continue
        free = available.get(k, 0)
        if cap == 0:
            if free == 0:
                continue  # NaN: skipped
            share = float("-inf") if free > 0 else float("inf")
        else:
            share = 1.0 - free / cap
        usage += share * w
        total += w
    return usage / total if total else 0.0


def score(policy: str, capacity: dict, available: dict, weights: dict) -> float:
    """NodeSortingPolicy.ScoreNode: fair scores the usage (least used first), binpacking one
    minus it (most used first)."""
    u = usage_share(capacity, available, weights)
    return 1.0 - u if policy == BINPACKING else u


def fit_in_score(ask: dict, available: dict) -> float:
    """Resource.FitInScore of the ask against the node's free room (what tryNodes reserves by,
    lowest first): over the types with room free, 1 for a type the ask does not ask for, and
    (free - ask) / free where more is free than asked; a type with less free than asked adds 0."""
    s = 0.0
    for k, free in available.items():
        if free <= 0:
            continue
        want = ask.get(k, 0)
        if want <= 0:
            s += 1.0
        elif free > want:
            s += (free - want) / free
    return s


def unschedulable_note(nodes) -> str | None:
    """What the run makes of the unschedulable nodes among `nodes` (snapshot.Node), for a note;
    None when every node is schedulable."""
    off = [n.name for n in nodes or () if not n.schedulable]
    if not off:
        return None
    names = ", ".join(off[:5]) + (f" and {len(off) - 5} more" if len(off) > 5 else "")
    return (f"{'node' if len(off) == 1 else 'nodes'} {names} {'is' if len(off) == 1 else 'are'} unschedulable (cordoned or "
            "draining): nothing new is placed, reserved or preempted there; what runs there keeps running and counts")


class NodeState:
    """One node: its capacity, what is allocated on it, its free room, the ask (application id,
    ask id) its reservation is for, if any (a node holds at most one), and whether it is
    schedulable. `occupied` is what pods YuniKorn does not schedule take (the core's
    occupiedResource): less free room, the node's score included, but no application's usage.
    An unschedulable node (cordoned or draining: Node.IsSchedulable false) stays in the
    partition as YuniKorn keeps it: its capacity counts in the partition's total (root's max),
    what runs on it keeps its room and counts for its queues and users, it sorts in the node
    order as any node; but tryNodes and tryNodesNoReserve pass over it (nothing is placed or
    reserved on it) and the preemptor takes no victim on it (initWorkingState). A reservation
    on it could only predate the cordon, which a snapshot does not hold."""

    __slots__ = ("name", "capacity", "allocated", "available", "reserved", "schedulable", "occupied", "index")

    def __init__(self, name: str, capacity: dict, schedulable: bool = True, occupied: dict | None = None, index: int = 0):
        self.name = name
        self.index = index  # its place in Cluster.nodes: where its verdict sits in Judge.passing's tuples
        self.capacity = dict(capacity)
        self.allocated: dict = {}
        self.available = dict(capacity)
        self.reserved: tuple | None = None
        self.schedulable = schedulable
        self.occupied = dict(occupied or {})
        for k, v in self.occupied.items():
            self.available[k] = self.available.get(k, 0) - v

    def fits_node(self, res: dict) -> bool:
        """FitInNode: the ask fits the node's capacity (every type the ask names present)."""
        return fit_in(self.capacity, res)

    def can_allocate(self, res: dict, key: tuple) -> bool:
        """preAllocateCheck: something asked for, the node not reserved for another ask, and
        the free room fits."""
        if not strictly_positive(res):
            return False
        if self.reserved is not None and self.reserved != key:
            return False
        return fit_in(self.available, res)

    def add(self, res: dict) -> None:
        for k, v in res.items():
            self.allocated[k] = self.allocated.get(k, 0) + v
            self.available[k] = self.available.get(k, 0) - v


class Cluster:
    """The partition's nodes, with the sorting policy, kept in the order the partition offers
    them (the node collection's B-tree: score, then name; re-scored whenever something is placed
    on or released from a node). order() is the full iterator's order, unreserved() the one the
    normal allocation walk uses."""

    def __init__(self, nodes, policy: str | None = None, weights: dict | None = None):
        nodes = list(nodes)
        self.nodes = [NodeState(n.name, n.capacity, getattr(n, "schedulable", True), getattr(n, "occupied", None), i)
                      for i, n in enumerate(nodes)]
        # the shim's node predicates (kube.predicates) over the nodes' labels, taints and cordon
        from prio.kube.predicates import Judge  # (imported by a run with nodes only)

        self.judge = Judge(nodes)
        self.by_name = {n.name: n for n in self.nodes}
        self.policy = sort_policy(policy)
        self.weights = weights_of(weights)
        self._keys = {}  # name -> its (score, name) in _sorted
        self._sorted: list = []  # (score, name, node), ascending
        for n in self.nodes:
            # scored as the partition added it, before other schedulers' pods: a foreign
            # allocation changes the node's room but notifies no listener (Node.addAllocationInternal,
            # UpdateForeignAllocation), so the node keeps its place in the order until something
            # of YuniKorn's is placed on or released from it (change)
            self._keys[n.name] = k = (score(self.policy, n.capacity, n.capacity, self.weights), n.name)
            self._sorted.append(k + (n,))
        self._sorted.sort(key=lambda e: (e[0], e[1]))

    def _score(self, n: NodeState) -> float:
        return score(self.policy, n.capacity, n.available, self.weights)

    def change(self, n: NodeState, res: dict, sign: int = 1) -> None:
        """Place (sign 1) or release (-1) resources on node n, and move it to its new place in
        the order (NodeCollection.NodeUpdated)."""
        n.add(res if sign > 0 else {k: -v for k, v in res.items()})
        old = self._keys[n.name]
        new = (self._score(n), n.name)
        if new == old:
            return
        s = self._sorted
        # (score, name) sorts before (score, name, node) and names are unique: bisecting on the
        # pair finds the entry itself, or the new one's place, without comparing nodes
        del s[bisect_left(s, old)]
        s.insert(bisect_left(s, new), new + (n,))
        self._keys[n.name] = new

    def admits(self, ask):
        """The nodes the shim's predicates let `ask` (snapshot.Ask) on: a tuple of booleans by
        NodeState.index, or None when every node does (the common case, answered at once)."""
        c, only = ask.node, ask.required_node
        if c is None and not only and not self.judge.closing:
            return None
        return self.judge.passing(c, only)

    def first_with_room(self, res: dict, ok=None):
        """reference.find_node's answer where some node has room, faster: the first unreserved
        schedulable node in order that the predicates admit (`ok`: admits' answer) whose
        capacity and free room fit `res`, or None (find_node then decides what to reserve). For
        an ask of positive values only, at least one (callers check): then fitting max(0, room)
        is fitting room, and the ask asks for something, as preAllocateCheck requires."""
        for e in self._sorted:
            n = e[2]
            if n.reserved is not None or not n.schedulable or (ok is not None and not ok[n.index]):
                continue
            cap, free = n.capacity, n.available
            for k, v in res.items():
                if v > cap.get(k, 0) or v > free.get(k, 0):
                    break
            else:
                return n
        return None

    def order(self) -> list:
        """The nodes by score, then name."""
        return [e[2] for e in self._sorted]

    def unreserved(self):
        """GetNodeIterator: the nodes in order, those holding a reservation left out."""
        return (e[2] for e in self._sorted if e[2].reserved is None)
