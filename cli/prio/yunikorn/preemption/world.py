"""The running state preemption works on: the nodes with what runs on them, every running
allocation with its leaf queue, the queues' usage, max and headroom, the nodes in YuniKorn's
order. Changes as asks are placed and victims released."""
from __future__ import annotations

from prio.kube.predicates import Judge
from prio.yunikorn import properties as P
from prio.yunikorn import resources
from prio.yunikorn.nodes import score, sort_policy, weights_of
from prio.yunikorn.releases import NEWEST
from prio.yunikorn.snapshot import Allocation


class Run:
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


class World:
    def __init__(self, root, leaves: dict, nodes: list, runs: list, preemption_enabled: bool,
                 node_sort: str, weights: dict):
        self.root = root
        self.leaves = leaves  # app id -> leaf QNode
        self.nodes = {n.name: dict(n.capacity) for n in nodes}
        self.node_order = [n.name for n in nodes]
        # cordoned or draining nodes: their capacity counts in the partition (root_max), what
        # runs there stays, but nothing is placed on them and no victim is taken there
        self.unschedulable = {n.name for n in nodes if not getattr(n, "schedulable", True)}
        # the shim's node predicates over the nodes' labels and taints (kube.predicates)
        self.judge = Judge(nodes)
        self._node_index = {n.name: i for i, n in enumerate(nodes)}
        self.root_max = resources.total(n.capacity for n in nodes)
        self.runs = list(runs)
        self.preemption_enabled = preemption_enabled
        self.node_sort = node_sort
        self.weights = weights_of(weights)
        self.qalloc: dict = {}
        self.ugm = None  # ugm.Usage when the config has user or group limits (cycles.analyse)
        # node -> (priority, has triggered preemption) of the ask holding its reservation, when
        # a scheduling run has reservations (reference.ReferenceRun): initWorkingState closes
        # such a node to the preemptor, or cancels a lower-priority reservation
        self.reservations: dict = {}
        # whether the resource manager answers the preemption predicate checks (prio preempt: as
        # the recorded preemption corpus, a mock that accepts at the start index, best solution
        # of each batch); False: no plugin, YuniKorn takes the first check (simulate's run)
        self.predicate_plugin = True
        # how victims that tie on YuniKorn's keys are ordered (Go's map order): by queue path,
        # application and snapshot order (prio preempt), or application id and allocation key
        self.tie_by_application = False
        # the YuniKorn release whose preemption rules apply (releases.Release: before 1.8 no
        # reservation is cancelled, and the guarantee checks look at every resource type)
        self.release = NEWEST
        # what other schedulers' pods take counts as used
        self.nused = {n.name: dict(getattr(n, "occupied", None) or {}) for n in nodes}
        for q in root.walk():
            self.qalloc[q.path] = {}
        for run in self.runs:
            self._account(run, +1)

    def _account(self, run: Run, sign: int) -> None:
        q = run.leaf
        while q is not None:
            (resources.add_to if sign > 0 else resources.sub_from)(self.qalloc[q.path], run.res)
            q = q.parent
        used = self.nused.setdefault(run.alloc.node, {})
        (resources.add_to if sign > 0 else resources.sub_from)(used, run.res)

    def add(self, run: Run) -> None:
        self.runs.append(run)
        self._account(run, +1)

    def remove(self, run: Run) -> None:
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
            return resources.clone(own)
        if own is None:
            return parent
        return resources.component_min(parent, own)

    def headroom(self, q):
        parent = self.headroom(q.parent) if q.parent is not None else None
        own = self.own_max(q)
        if own is None:
            return parent
        room = resources.sub_only_existing(own, self.qalloc[q.path])
        return room if parent is None else resources.component_min(room, parent)

    @staticmethod
    def preemption_policy(q) -> str:
        return P.preemption_policy(q.props.get(P.PREEMPTION_POLICY))[0]

    def available(self, node: str) -> dict:
        return resources.sub(self.nodes[node], self.nused.get(node))

    def admits(self, ask, node: str) -> bool:
        """Whether the shim's predicates let `ask` on `node` (a victim's node must pass for the
        preemptor: the shim's PreemptionPredicates runs them first)."""
        ok = self.judge.passing(ask.node, ask.required_node)
        return ok is None or ok[self._node_index[node]]

    def schedulable(self, node: str) -> bool:
        return node not in self.unschedulable

    def has_room(self, node: str, res: dict) -> bool:
        """tryNode's checks: the node is schedulable, big enough and has the room free."""
        return self.schedulable(node) and resources.fit_in(self.nodes[node], res) and \
            resources.fit_in(self.available(node), res)

    def sorted_nodes(self) -> list:
        """The node names in the partition's order (nodes.score, then name): the same rule the
        scheduling run uses. Unschedulable nodes are in it, as in YuniKorn's node iterator: the
        callers pass over them (tryNodes, initWorkingState)."""
        policy = sort_policy(self.node_sort)
        return sorted(self.node_order, key=lambda n: (score(policy, self.nodes[n], self.available(n), self.weights), n))
