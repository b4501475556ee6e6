"""A reference replay of Volcano's scheduler, cycle by cycle: each cycle one session (`runOnce`)
over the cluster's objects, the configured actions (enqueue, allocate, preempt, reclaim,
backfill) in order with the configured plugins (priority, gang, conformance, drf, proportion,
capacity, overcommit, predicates, nodeorder, binpack), then what the cluster does before the next
cycle (a bound pod runs, an evicted pod is gone). Volcano's random choices are pinned as the
shared corpus's pinned mode fixes them: equal nodes in name order, victims in pod-UID order.

Follows volcano-sh/volcano at ed72c7c (pkg/scheduler/actions, pkg/scheduler/plugins,
pkg/scheduler/framework); written from reading it, not translated."""
from __future__ import annotations

import functools
import heapq
import math
from dataclasses import dataclass, field

from prio.volcano import conf as vconf
from prio.volcano.model import (
    INFINITY,
    MIN_RESOURCE,
    PODS,
    ZERO,
    Cluster,
    Node,
    Pod,
    PodGroup,
    exceeded,
    res_add,
    res_empty,
    res_le,
    res_le_dims,
    res_max,
    res_min,
    res_sub,
    share,
)
from prio.volcano.placement import FitErrors, Placement

CYCLE_LIMIT = 100
# The scheduler's options for util.CalculateNumOfFeasibleNodesToFind (cmd/scheduler/app/options):
# --minimum-feasible-nodes, --minimum-percentage-nodes-to-find, --percentage-nodes-to-find
MIN_NODES_TO_FIND, MIN_PERCENTAGE_OF_NODES_TO_FIND, PERCENTAGE_OF_NODES_TO_FIND = 100, 5, 0
ALLOCATED = ("Bound", "Binding", "Running", "Allocated")  # api.AllocatedStatus
READY = ALLOCATED + ("Succeeded",)
SCHEDULED = ("Bound", "Running", "Failed", "Succeeded")  # api.ScheduledStatus: not Binding
TERMINATED = ("Succeeded", "Failed")  # the cache's isTerminated: on no node, in no allocation
SHARE_DELTA = 0.000001
# the fit reasons of the filters whose status is UnschedulableAndUnresolvable
UNRESOLVABLE = ("node(s) didn't match", "node(s) had untolerated taint", "node(s) were unschedulable")
GPU = "nvidia.com/gpu"


@dataclass
class Task:
    key: str
    job: str
    uid: str
    created: str
    req: dict
    priority: int
    preemptable: bool
    policy: str
    pod: Pod
    status: str = "Pending"
    node: str | None = None
    tie: bool = False  # its node was the lowest-named of several with the best score (Volcano picks at random)
    last: tuple | None = None  # (status, node) of a discarded statement's operation (LastTransaction)
    shape: tuple | None = None  # placement.shape_key, worked out once

    @functools.cached_property
    def best_effort(self) -> bool:  # a task's requests never change in a session
        return res_empty(self.req)


@dataclass
class Job:
    key: str
    group: PodGroup
    queue: str
    priority: int
    min_available: int
    tasks: dict = field(default_factory=dict)  # pod key -> Task
    fit_errors: dict = field(default_factory=dict)  # pod key -> {node: [reason]} (NodesFitErrors)

    def count(self, statuses) -> int:
        return sum(1 for t in self.tasks.values() if t.status in statuses)

    def ready_num(self) -> int:
        return self.count(READY)

    def waiting(self) -> int:
        return self.count(("Pipelined",))

    def pending_best_effort(self) -> int:
        return sum(1 for t in self.tasks.values() if t.status == "Pending" and t.best_effort)

    def is_ready(self) -> bool:
        return self.ready_num() + self.pending_best_effort() >= self.min_available

    def is_pipelined(self) -> bool:
        return self.waiting() + self.ready_num() + self.pending_best_effort() >= self.min_available

    def allocated(self) -> dict:
        out: dict = {}
        for t in self.tasks.values():
            if t.status in ALLOCATED:
                out = res_add(out, t.req)
        return out


@dataclass
class NodeState:
    node: Node
    used: dict = field(default_factory=dict)
    releasing: dict = field(default_factory=dict)
    pipelined: dict = field(default_factory=dict)
    tasks: dict = field(default_factory=dict)  # pod key -> Task
    # What the kube-scheduler plugins nodeorder wraps see of the node: the pods of its k8s
    # NodeInfo (ssn.NodeMap, kept by the predicates plugin's event handlers: a pod allocated or
    # pipelined is added, an evicted one removed), so pipelined tasks count and releasing ones do
    # not. `requested` sums their requests (NodeInfo.Requested), `nonzero` their cpu and memory
    # with kube-scheduler's defaults for a container that requests none (NonZeroRequested).
    requested: dict = field(default_factory=dict)
    nonzero: list = field(default_factory=lambda: [0.0, 0.0])
    alloc: dict = field(default_factory=dict)  # Volcano's node.Allocatable: with `pods`

    def __post_init__(self) -> None:
        self.alloc = {**self.node.allocatable, PODS: float(self.node.max_pods)}

    @property
    def name(self) -> str:
        return self.node.name

    def idle(self) -> dict:
        return res_sub(self.alloc, self.used)

    def future_idle(self) -> dict:
        return res_sub(res_add(self.idle(), self.releasing), self.pipelined)


@dataclass
class Op:
    kind: str  # allocate, pipeline, evict
    task: Task
    node: str | None  # an evicted task's node as it was
    reason: str = ""


@dataclass
class CycleRecord:
    cycle: int
    phase_changes: list = field(default_factory=list)
    binds: list = field(default_factory=list)
    evictions: list = field(default_factory=list)
    pipelined: list = field(default_factory=list)

    def eventful(self) -> bool:
        return bool(self.phase_changes or self.binds or self.evictions or self.pipelined)


class Session:
    """One scheduling cycle over a snapshot of the cluster (framework.OpenSession .. CloseSession)."""

    scan = False  # True: allocate asks every node for every task and scans the queues (the reference the heaps are held to)

    def __init__(self, cluster: Cluster, config: vconf.Config):
        self.cluster, self.config = cluster, config
        self.placement: Placement | None = None
        self.binds: list = []
        self.evictions: list = []
        self.names = {p.name for p in config.plugins()}
        self._flags: dict = {}
        self.nodes = {n: NodeState(cluster.nodes[n]) for n in sorted(cluster.nodes)}
        self.total: dict = {}
        for ns in self.nodes.values():
            self.total = res_add(self.total, ns.alloc)
        self.queues = {q: cluster.queues[q] for q in cluster.queues}
        self.jobs: dict = {}
        for key in sorted(cluster.groups):
            g = cluster.groups[key]
            if g.queue not in self.queues:
                continue  # left out of the snapshot: the queue does not exist
            prio, _ = cluster.group_priority(g)
            self.jobs[key] = Job(key, g, g.queue, prio, g.min_member)
        for key in sorted(cluster.pods):
            p = cluster.pods[key]
            job = self.jobs.get(p.group)
            if job is None:
                continue
            t = Task(key, p.group, p.uid or p.name, p.created, {**p.request, PODS: 1.0}, p.priority, p.preemptable, p.preemption_policy, p)
            job.tasks[key] = t
            status = task_status(p.phase, p.node, p.deleting)
            if status in TERMINATED or status in ("Unknown", "Releasing") and p.node is None:
                t.status = status  # never scheduled again; a terminated pod takes nothing of its node (addTask)
            elif p.node is not None and p.node in self.nodes:
                t.status, t.node = status, p.node
                self._node_add(t)
            elif p.node is not None:
                # on a node not among the inputs: the cache's placeholder node (NewNodeInfo(nil)) is
                # never in a snapshot, so the task is on no node of the session, yet keeps its status
                # (in its job's and queue's allocation) and is never scheduled again
                t.status = status
        self._open_plugins()
        self._score_args = self._scoring()
        if not self.scan:
            self.placement = Placement(self, num_nodes_to_find(len(self.nodes)))

    # ---- node bookkeeping ---------------------------------------------------------------------
    def _node_add(self, t: Task) -> None:
        ns = self.nodes[t.node]
        if self.placement is not None:
            self.placement.touched(ns.name)
        ns.tasks[t.key] = t
        if t.status != "Releasing":
            _k8s_node_add(ns, t.req, 1.0)
        if t.status == "Pipelined":
            ns.pipelined = res_add(ns.pipelined, t.req)
            return
        if t.status == "Releasing":
            ns.releasing = res_add(ns.releasing, t.req)
        ns.used = res_add(ns.used, t.req)

    def _node_remove(self, t: Task) -> None:
        ns = self.nodes[t.node]
        if self.placement is not None:
            self.placement.touched(ns.name)
        ns.tasks.pop(t.key, None)
        if t.status != "Releasing":
            _k8s_node_add(ns, t.req, -1.0)
        if t.status == "Pipelined":
            ns.pipelined = res_sub(ns.pipelined, t.req)
            return
        if t.status == "Releasing":
            ns.releasing = res_sub(ns.releasing, t.req)
        ns.used = res_sub(ns.used, t.req)

    def _set(self, t: Task, status: str, node: str | None) -> None:
        if t.node is not None and t.node in self.nodes and t.key in self.nodes[t.node].tasks:
            self._node_remove(t)
        t.status, t.node = status, node
        if node is not None and status != "Pending":
            self._node_add(t)

    # ---- plugins at session open --------------------------------------------------------------
    def _open_plugins(self) -> None:
        self.drf_alloc = {k: j.allocated() for k, j in self.jobs.items()}
        self.qattr: dict = {}
        if "proportion" in self.names:
            self._open_proportion()
        elif "capacity" in self.names:
            self._open_capacity()
        self.over_inqueue: dict = {}
        self.over_idle: dict = {}
        if "overcommit" in self.names:
            used: dict = {}
            for ns in self.nodes.values():
                used = res_add(used, ns.used)
            factor = 1.2
            plugin = self.config.plugin("overcommit")
            assert plugin is not None  # self.names are the config's plugins
            args = plugin.arguments or {}
            try:
                factor = float(args.get("overcommit-factor", 1.2))
            except (TypeError, ValueError):
                factor = 1.2
            if factor < 1.0:
                factor = 1.2
            self.over_idle = res_sub({k: v * factor for k, v in self.total.items()}, used)
            for j in self.jobs.values():
                if j.group.min_resources is not None and j.group.phase == "Inqueue":
                    self.over_inqueue = res_add(self.over_inqueue, j.group.min_resources)
                elif j.group.min_resources is not None and j.group.phase == "Running" and j.count(ALLOCATED + ("Succeeded",)) >= j.group.min_member:
                    self.over_inqueue = res_add(self.over_inqueue, exceeded(j.group.min_resources, j.allocated()))

    @staticmethod
    def _queue_attr() -> dict:
        return {"deserved": {}, "allocated": {}, "request": {}, "inqueue": {}, "elastic": {}, "guarantee": {}, "share": 0.0,
                "capability": None, "real": None}

    def _fill_usage(self, attr: dict, job: Job) -> None:
        for t in job.tasks.values():
            if t.status in ALLOCATED:
                attr["allocated"] = res_add(attr["allocated"], t.req)
                attr["request"] = res_add(attr["request"], t.req)
            elif t.status == "Pending":
                attr["request"] = res_add(attr["request"], t.req)
        g = job.group
        if g.min_resources is not None and (g.phase == "Inqueue" or (g.phase == "Running" and job.count(ALLOCATED) >= g.min_member)):
            attr["inqueue"] = res_add(attr["inqueue"], exceeded(g.min_resources, job.allocated()))

    def _flat_queues(self) -> None:
        """The queues of the session's jobs as proportion and flat capacity open them: weight,
        guarantee, realCapability (the cluster less the other queues' guarantees, within the
        queue's capability, a cpu or memory of 0 unbounded) and what their jobs use and ask."""
        total_guarantee: dict = {}
        for q in self.queues.values():
            if q.guarantee:
                total_guarantee = res_add(total_guarantee, q.guarantee)
        for j in self.jobs.values():
            if j.queue not in self.qattr:
                q = self.queues[j.queue]
                attr = self._queue_attr()
                attr["weight"] = q.weight
                if q.guarantee:
                    attr["guarantee"] = dict(q.guarantee)
                real = res_add(exceeded(self.total, total_guarantee), attr["guarantee"])
                if q.capability:
                    attr["capability"] = _unbounded_cpu_memory(q.capability)
                    real = res_min(real, attr["capability"], INFINITY)
                attr["real"] = real
                self.qattr[j.queue] = attr
            self._fill_usage(self.qattr[j.queue], j)

    def _open_proportion(self) -> None:
        self._flat_queues()
        remaining = dict(self.total)
        meet: set = set()
        while True:
            total_weight = sum(a["weight"] for q, a in self.qattr.items() if q not in meet)
            if total_weight == 0:
                break
            old_remaining = dict(remaining)
            inc: dict = {}
            dec: dict = {}
            for qn in sorted(self.qattr):
                attr = self.qattr[qn]
                if qn in meet:
                    continue
                old = dict(attr["deserved"])
                d = res_add(attr["deserved"], {k: v * attr["weight"] / total_weight for k, v in remaining.items()})
                d = res_min(d, attr["real"], INFINITY)
                d = res_min(d, attr["request"], ZERO)
                d = res_max(d, attr["guarantee"])
                attr["deserved"] = d
                self._update_share(attr)
                if res_le(attr["request"], d, ZERO) or _same(d, old):
                    meet.add(qn)
                for k in set(d) | set(old):
                    diff = d.get(k, 0.0) - old.get(k, 0.0)
                    if diff > 0:
                        inc[k] = inc.get(k, 0.0) + diff
                    elif diff < 0:
                        dec[k] = dec.get(k, 0.0) - diff
            remaining = exceeded(res_add(remaining, dec), inc)
            if res_empty(remaining) or _same(remaining, old_remaining):
                break

    def _open_capacity(self) -> None:
        plugin = self.config.plugin("capacity")
        assert plugin is not None  # opened only when "capacity" is in self.names, the config's plugins
        self.hierarchy = plugin.flags.get("enableHierarchy") is True
        if self.hierarchy:
            self._open_capacity_tree()
            return
        self._open_capacity_flat()

    def _open_capacity_tree(self) -> None:
        """capacity with enableHierarchy: every queue under root, a parent's usage the sum of
        its children's, each queue bounded by its own and its ancestors' capability. A job on a
        queue that has children fails the plugin's check for the whole session (ready False):
        nothing is enqueued, allocated or reclaimed anywhere."""
        children: dict = {}
        for name, q in self.queues.items():
            if name != "root":
                children.setdefault(q.parent or "root", []).append(name)
        self.children = children
        self.ready = not any(j.queue in children for j in self.jobs.values())
        total_guarantee: dict = {}
        for q in self.queues.values():
            if q.guarantee and q.name != "root":
                total_guarantee = res_add(total_guarantee, q.guarantee)

        def build(name: str, parent_real: dict, ancestors: list) -> None:
            q = self.queues[name]
            attr = self._queue_attr()
            attr["weight"] = q.weight
            attr["ancestors"] = ancestors
            if q.guarantee:
                attr["guarantee"] = dict(q.guarantee)
            real = dict(parent_real)
            if q.capability:
                real = res_min(real, _unbounded_cpu_memory(q.capability), INFINITY)
            attr["real"] = real
            attr["capability"] = q.capability
            attr["deserved"] = res_max(res_min(dict(q.deserved or {}), real, INFINITY), attr["guarantee"]) if name != "root" else dict(self.total)
            self.qattr[name] = attr
            for c in sorted(children.get(name, [])):
                build(c, real, ancestors + [name])
        build("root", dict(self.total), [])
        for name in self.queues:
            if name not in self.qattr:  # a parent cycle or an unknown parent: a queue of its own under root
                build(name, dict(self.total), ["root"])
        for j in self.jobs.values():
            if j.queue in self.qattr:
                for q in [j.queue] + self.qattr[j.queue]["ancestors"]:
                    self._fill_usage(self.qattr[q], j)
        for attr in self.qattr.values():
            self._update_share(attr)

    def _path(self, q: str) -> list:
        """The queue and its ancestors whose usage an allocation changes."""
        attr = self.qattr.get(q)
        if attr is None:
            return []
        return [q] + list(attr.get("ancestors", ())) if getattr(self, "hierarchy", False) else [q]

    def _open_capacity_flat(self) -> None:
        """capacity without hierarchy: each queue's deserved is its spec.deserved, bounded by its
        realCapability (the cluster less the others' guarantees, within its capability) and
        raised to its guarantee."""
        self._flat_queues()
        for name, attr in self.qattr.items():
            attr["deserved"] = res_max(res_min(dict(self.queues[name].deserved or {}), attr["real"], INFINITY), attr["guarantee"])
            self._update_share(attr)

    def _update_share(self, attr: dict) -> None:
        res = 0.0
        for k in set(attr["deserved"]) | {"cpu", "memory"}:
            s = share(attr["allocated"].get(k, 0.0), attr["deserved"].get(k, 0.0))
            res = max(res, s)
        attr["share"] = res

    # ---- events ---------------------------------------------------------------------------------
    def _on_allocate(self, t: Task) -> None:
        self.drf_alloc[t.job] = res_add(self.drf_alloc.get(t.job, {}), t.req)
        for i, q in enumerate(self._path(self.jobs[t.job].queue)):
            attr = self.qattr[q]
            attr["allocated"] = res_add(attr["allocated"], t.req)
            if i == 0:  # capacity moves its ancestors' usage but leaves their shares as the session opened
                self._update_share(attr)

    def _on_deallocate(self, t: Task) -> None:
        self.drf_alloc[t.job] = res_sub(self.drf_alloc.get(t.job, {}), t.req)
        for i, q in enumerate(self._path(self.jobs[t.job].queue)):
            attr = self.qattr[q]
            attr["allocated"] = res_sub(attr["allocated"], t.req)
            if i == 0:  # capacity moves its ancestors' usage but leaves their shares as the session opened
                self._update_share(attr)

    # ---- plugin functions -----------------------------------------------------------------------
    def _enabled(self, flag: str):
        """The names of the plugins with `flag` on, tier by tier (the config does not change
        within a session: worked out once per flag)."""
        got = self._flags.get(flag)
        if got is None:
            got = self._flags[flag] = [[p.name for p in tier if p.on(flag)] for tier in self.config.tiers]
        return got

    def drf_share(self, alloc: dict) -> float:
        res = 0.0
        for k in self.total:
            res = max(res, share(alloc.get(k, 0.0), self.total[k]))
        return res

    def job_order(self, a: Job, b: Job) -> bool:
        """Session.JobOrderFn: True when `a` goes first."""
        for tier in self._enabled("enableJobOrder"):
            for name in tier:
                r = 0
                if name == "priority":
                    r = -1 if a.priority > b.priority else 1 if a.priority < b.priority else 0
                elif name == "gang":
                    ra, rb = a.is_ready(), b.is_ready()
                    r = 0 if ra == rb else (1 if ra else -1)
                elif name == "drf":
                    sa, sb = self.drf_share(self.drf_alloc.get(a.key, {})), self.drf_share(self.drf_alloc.get(b.key, {}))
                    r = 0 if sa == sb else (-1 if sa < sb else 1)
                if r != 0:
                    return r < 0
        if a.group.created == b.group.created:
            return a.key < b.key
        return a.group.created < b.group.created

    def task_order(self, a: Task, b: Task) -> bool:
        for tier in self._enabled("enableTaskOrder"):
            for name in tier:
                if name == "priority" and a.priority != b.priority:
                    return a.priority > b.priority
        if a.created == b.created:
            return a.uid < b.uid
        return a.created < b.created

    def queue_order(self, a: str, b: str) -> bool:
        for tier in self._enabled("enableQueueOrder"):
            for name in tier:
                if name in ("proportion", "capacity") and name in self.names:
                    qa, qb = self.queues[a], self.queues[b]
                    if qa.priority != qb.priority:
                        return qa.priority > qb.priority
                    la, lb = self._compared(a, b)
                    sa, sb = self.qattr[la]["share"], self.qattr[lb]["share"]
                    if sa != sb:
                        return sa < sb
                    if name == "capacity":  # compareShareWithDeserved: a queue with a deserved share first
                        da, db = bool(self.qattr[la]["deserved"]), bool(self.qattr[lb]["deserved"])
                        if da != db:
                            return da
        qa, qb = self.queues[a], self.queues[b]
        if qa.created == qb.created:
            return a < b
        return qa.created < qb.created

    def _compared(self, a: str, b: str) -> tuple:
        """The queues whose shares order `a` and `b`: themselves, or under hierarchical capacity
        their ancestors just below the level they share."""
        if not getattr(self, "hierarchy", False):
            return a, b
        pa = self.qattr[a]["ancestors"] + [a]
        pb = self.qattr[b]["ancestors"] + [b]
        i = 0
        while i < min(len(pa), len(pb)) and pa[i] == pb[i]:
            i += 1
        return (pa[i] if i < len(pa) else a), (pb[i] if i < len(pb) else b)

    def overused(self, q: str) -> bool:
        for tier in self._enabled("enabledOverused"):
            for name in tier:
                if name == "proportion" and q in self.qattr:
                    attr = self.qattr[q]
                    if res_le(attr["deserved"], attr["allocated"], ZERO):
                        return True
        return False  # capacity registers no Overused: its queues are bounded by Allocatable alone

    def allocatable(self, q: str, reqs: list) -> bool:
        total: dict = {}
        for r in reqs:
            total = res_add(total, r)
        for tier in self._enabled("enabledAllocatable"):
            for name in tier:
                if name in ("proportion", "capacity") and q in self.qattr:
                    if self.queues[q].state != "Open":
                        return False
                    if name == "capacity" and getattr(self, "hierarchy", False):
                        if not self.ready or self.children.get(q):
                            return False
                        for anc in [q] + [x for x in self.qattr[q]["ancestors"] if x != "root"]:
                            attr = self.qattr[anc]
                            if not res_le_dims(res_add(attr["allocated"], total), attr["real"], total):
                                return False
                        continue
                    attr = self.qattr[q]
                    bound = attr["deserved"] if name == "proportion" else attr["real"]
                    if not res_le_dims(res_add(attr["allocated"], total), bound, total):
                        return False
        return True

    def preemptive(self, q: str, t: Task) -> bool:
        for tier in self._enabled("enablePreemptive"):
            for name in tier:
                if name == "proportion" and q in self.qattr:
                    if not self.allocatable(q, [t.req]):
                        return False
                elif name == "capacity" and q in self.qattr:
                    # capacity's PreemptiveFn: an Open queue within its real capability that is at
                    # or below its deserved on some dimension the task asks for
                    # (LessEqualPartlyWithDimensionZeroFiltered; ancestorReclaimLevel is 0)
                    attr = self.qattr[q]
                    if getattr(self, "hierarchy", False) and not self.ready:
                        return False
                    if self.queues[q].state != "Open":
                        return False
                    future = res_add(attr["allocated"], t.req)
                    if not res_le_dims(future, attr["real"], t.req):
                        return False
                    if not _le_partly(future, attr["deserved"], t.req):
                        return False
        return True

    def job_enqueueable(self, job: Job) -> bool:
        found = False
        for tier in self._enabled("enableJobEnqueued"):
            for name in tier:
                r = None
                if name == "overcommit":
                    r = self._overcommit_enqueueable(job)
                elif name in ("proportion", "capacity"):
                    r = self._queue_enqueueable(job)
                if r is False:
                    return False
                if r is True:
                    found = True
            if found:
                return True
        return True

    def _overcommit_enqueueable(self, job: Job) -> bool:
        mr = job.group.min_resources
        if mr is None:
            return True
        return res_le_dims(res_add(self.over_inqueue, mr), self.over_idle, mr)

    def _queue_enqueueable(self, job: Job) -> bool:
        if self.queues[job.queue].state != "Open":
            return False
        if getattr(self, "hierarchy", False) and (not self.ready or self.children.get(job.queue)):
            return False
        attr = self.qattr.get(job.queue)
        mr = job.group.min_resources
        if attr is None or mr is None:
            return True
        r = res_sub(res_add(res_add(mr, attr["allocated"]), attr["inqueue"]), attr["elastic"])
        return res_le_dims(r, attr["real"], mr)

    def job_enqueued(self, job: Job) -> None:
        mr = job.group.min_resources
        if mr is None:
            return
        if "overcommit" in self.names:
            self.over_inqueue = res_add(self.over_inqueue, mr)
        attr = self.qattr.get(job.queue)
        if attr is not None:
            attr["inqueue"] = res_add(attr["inqueue"], mr)

    def job_valid(self, job: Job) -> bool:
        if "gang" not in self.names:
            return True
        valid = job.count(ALLOCATED + ("Succeeded", "Pipelined", "Pending"))
        return valid >= job.min_available

    def job_ready(self, job: Job) -> bool:
        for tier in self._enabled("enableJobReady"):
            for name in tier:
                if name == "gang" and not job.is_ready():
                    return False
        return True

    def job_pipelined(self, job: Job) -> bool:
        found = False
        for tier in self._enabled("enableJobPipelined"):
            for name in tier:
                if name == "gang":
                    if not job.is_pipelined():
                        return False
                    found = True
            if found:
                return True
        return True

    def job_starving(self, job: Job) -> bool:
        found = False
        for tier in self._enabled("enableJobStarving"):
            for name in tier:
                if name == "priority":
                    found = True
                    if not job.ready_num() + job.waiting() < len(job.tasks):
                        return False
                elif name == "gang":
                    found = True
                    if not job.waiting() + job.ready_num() < job.min_available:
                        return False
            if found:
                return True
        return False

    def _victims(self, kind: str, preemptor: Task, candidates: list) -> list:
        """Session.Preemptable / Reclaimable: the first tier whose plugins all return victims
        decides (their intersection); a plugin returning none hands over to the next tier."""
        flag = "enablePreemptable" if kind == "preempt" else "enableReclaimable"
        victims: list | None = None
        for tier in self._enabled(flag):
            victims = None  # None until a plugin of the tier returns victims
            for name in tier:
                got = self._plugin_victims(name, kind, preemptor, candidates)
                if got is None:
                    continue
                if not got:
                    victims = None
                    break
                if victims is None:
                    victims = got
                else:
                    keys = {t.key for t in got}
                    victims = [t for t in victims if t.key in keys]
            if victims is not None:
                return victims
        return victims or []

    def _plugin_victims(self, name: str, kind: str, preemptor: Task, candidates: list) -> list | None:
        if name == "priority" and kind == "preempt":
            pj = self.jobs[preemptor.job]
            out = []
            for t in candidates:
                vj = self.jobs[t.job]
                if vj.key != pj.key:
                    if vj.priority >= pj.priority:
                        continue
                elif t.priority >= preemptor.priority:
                    continue
                out.append(t)
            return out
        if name == "gang":
            occupied: dict = {}
            out = []
            for t in candidates:
                j = self.jobs[t.job]
                occupied.setdefault(j.key, j.ready_num())
                if occupied[j.key] > j.min_available:
                    occupied[j.key] -= 1
                    out.append(t)
            return out
        if name == "conformance":
            return [t for t in candidates if t.pod.namespace != "kube-system"
                    and t.pod.priority_class not in ("system-cluster-critical", "system-node-critical")]
        if name == "drf" and kind == "preempt":
            ls = self.drf_share(res_add(self.drf_alloc.get(preemptor.job, {}), preemptor.req))
            allocs: dict = {}
            out = []
            for t in candidates:
                if t.job not in allocs:
                    allocs[t.job] = dict(self.drf_alloc.get(t.job, {}))
                allocs[t.job] = res_sub(allocs[t.job], t.req)
                rs = self.drf_share(allocs[t.job])
                if ls < rs or abs(ls - rs) <= SHARE_DELTA:
                    out.append(t)
            return out
        if name == "proportion" and kind == "reclaim":
            allocs = {}
            out = []
            for t in candidates:
                q = self.jobs[t.job].queue
                attr = self.qattr.get(q)
                if attr is None:
                    continue
                allocs.setdefault(q, dict(attr["allocated"]))
                if not res_le(allocs[q], attr["deserved"], ZERO):
                    allocs[q] = res_sub(allocs[q], t.req)
                    out.append(t)
            return out
        if name == "capacity" and kind == "reclaim":
            if getattr(self, "hierarchy", False) and not self.ready:
                return []
            allocs = {}
            out = []
            for t in self._victim_order(candidates, preemptor):
                q = self.jobs[t.job].queue
                attr = self.qattr.get(q)
                if attr is None or not any(v > 0 and preemptor.req.get(k, 0) > 0 for k, v in t.req.items() if k != PODS):
                    continue  # no resource in common with the reclaimer (IntersectionWithIgnoredScalarResources)
                allocs.setdefault(q, dict(attr["allocated"]))
                if not res_le(attr["guarantee"], res_sub(allocs[q], t.req), ZERO):
                    continue  # would take the queue below its guarantee
                relevant = [k for k, v in t.req.items() if v > 0 and k in attr["deserved"]]
                if relevant and not any(allocs[q].get(k, 0.0) - attr["deserved"][k] >= MIN_RESOURCE for k in relevant if k != PODS):
                    continue  # the queue is not above its deserved share on anything the victim holds (pods not compared)
                allocs[q] = res_sub(allocs[q], t.req)
                out.append(t)
            return out
        return None

    # ---- predicates and scores ------------------------------------------------------------------
    def predicate(self, t: Task, ns: NodeState, check_resources: bool = True, preempt: bool = False) -> bool:
        """allocate's predicate (the task's resources on the node's future idle, then the
        predicates plugin's filters), without the resources with `check_resources` False; with
        `preempt`, only the filters whose failure PredicateForPreemptAction keeps
        (UnschedulableAndUnresolvable): not the pod count, which evicting a victim frees."""
        node = ns.node
        if check_resources and not res_le(t.req, ns.future_idle(), ZERO):
            return False
        if "predicates" not in self.names:
            return True
        if not node.ready or node.unschedulable:
            return False
        if not preempt and ns.requested.get(PODS, 0.0) >= node.max_pods:
            return False  # MaxTaskNum <= the pods of the node's k8s NodeInfo
        for k, v in t.pod.node_selector.items():
            if node.labels.get(k) != str(v):
                return False
        if not _affinity_ok(t.pod.affinity, node.labels):
            return False
        for taint in node.taints:
            if taint.get("effect") in ("NoSchedule", "NoExecute") and not _tolerated(taint, t.pod.tolerations):
                return False
        return True

    def fit_reasons(self, t: Task, ns: NodeState) -> list:
        """Why `t` fails `ns` in allocate, as Volcano words it: its own resource check first
        (the first resource short, on the node's future idle), then the predicates plugin's."""
        fi = ns.future_idle()
        for k in ["cpu", "memory"] + sorted(x for x in t.req if x not in ("cpu", "memory")):
            if not res_le({k: t.req.get(k, 0.0)}, {k: fi.get(k, 0.0)}, ZERO):
                return [f"Insufficient {k}"]
        if "predicates" not in self.names:
            return []
        node = ns.node
        if ns.requested.get(PODS, 0.0) >= node.max_pods:
            return ["node(s) pod number exceeded"]  # not reached: `pods` short is said first
        if node.unschedulable:
            return ["node(s) were unschedulable"]
        if not node.ready:
            return ["node(s) were not ready"]
        if any(node.labels.get(k) != str(v) for k, v in t.pod.node_selector.items()) or not _affinity_ok(t.pod.affinity, node.labels):
            return ["node(s) didn't match Pod's node affinity/selector"]
        for taint in node.taints:
            if taint.get("effect") in ("NoSchedule", "NoExecute") and not _tolerated(taint, t.pod.tolerations):
                return [f"node(s) had untolerated taint {{{taint.get('key', '')}: {taint.get('value', '')}}}"]
        return []

    def _scoring(self) -> tuple:
        """The score plugins' weights, read from the config once per session: (leastrequested,
        mostrequested, balancedresource) of nodeorder, (weight, per-resource weights) of binpack;
        None for a plugin not configured."""
        nodeorder = binpack = None
        if "nodeorder" in self.names:
            plugin = self.config.plugin("nodeorder")
            assert plugin is not None  # self.names are the config's plugins
            args = plugin.arguments or {}
            nodeorder = (_number(args.get("leastrequested.weight"), 1), _number(args.get("mostrequested.weight"), 0),
                         _number(args.get("balancedresource.weight"), 1))
        if "binpack" in self.names:
            plugin = self.config.plugin("binpack")
            assert plugin is not None  # self.names are the config's plugins
            args = plugin.arguments or {}
            binpack = (_number(args.get("binpack.weight"), 1),
                       {"cpu": _number(args.get("binpack.cpu"), 1), "memory": _number(args.get("binpack.memory"), 1)})
        return nodeorder, binpack

    def score(self, t: Task, ns: NodeState) -> float:
        total = 0.0
        alloc = ns.node.allocatable
        nodeorder, binpack = self._score_args
        if nodeorder is not None:
            # The kube-scheduler (v1.36) score plugins nodeorder configures, each an integer 0..100
            # times its weight: NodeResourcesFit's LeastAllocated and MostAllocated over cpu and
            # memory (weights 50/50 and 1/1) on the node's NonZeroRequested plus the pod's non-zero
            # request, and NodeResourcesBalancedAllocation over cpu, memory and nvidia.com/gpu on
            # Requested (noderesources/resource_allocation.go, balanced_allocation.go).
            least_w, most_w, bal_w = nodeorder
            if least_w or most_w:
                nonzero = _nonzero(t.req)
                least = most = 0
                for i, k in enumerate(("cpu", "memory")):
                    cap = alloc.get(k, 0.0)
                    req = ns.nonzero[i] + nonzero[k]
                    if cap <= 0 or req > cap:
                        continue  # leastRequestedScore / mostRequestedScore: 0
                    least += int((cap - req) * 100 // cap)
                    most += int(req * 100 // cap)
                total += least_w * (least // 2) + most_w * (most // 2)
            if bal_w:
                total += bal_w * _balanced_allocation(t.req, ns.requested, alloc)
        if binpack is not None:
            # binpack.BinPackingScore: over the task's requested resources that have a weight,
            # on Volcano's own node.Used; a resource that would not fit makes the score 0
            weight, weights = binpack
            score, wsum = 0.0, 0.0
            for k, w in weights.items():
                req_k = t.req.get(k, 0.0)
                if req_k <= 0:
                    continue
                cap = alloc.get(k, 0.0)
                wsum += w
                if cap == 0 or w == 0:
                    continue
                used_k = ns.used.get(k, 0.0) + req_k
                if used_k > cap:
                    score, wsum = 0.0, 0.0
                    break
                score += used_k * w / cap
            if wsum > 0:
                total += score / wsum * 100 * weight
        return total

    def best_node(self, t: Task, nodes: list) -> NodeState | None:
        t.tie = False
        if not nodes:
            return None
        if len(nodes) == 1:
            return nodes[0]
        scored = [(self.score(t, n), n) for n in nodes]
        best = max(s for s, _ in scored)
        t.tie = sum(1 for s, _ in scored if s == best) > 1
        return next(n for s, n in scored if s == best)  # pinned: the lowest name among equals

    # ---- statements -----------------------------------------------------------------------------
    def allocate_op(self, ops: list, t: Task, node: str) -> None:
        self._set(t, "Allocated", node)
        self._on_allocate(t)
        ops.append(Op("allocate", t, node))

    def pipeline_op(self, ops: list, t: Task, node: str) -> None:
        self._set(t, "Pipelined", node)
        self._on_allocate(t)
        ops.append(Op("pipeline", t, node))

    def evict_op(self, ops: list, t: Task, reason: str) -> None:
        node = t.node
        self._set(t, "Releasing", node)
        self._on_deallocate(t)
        ops.append(Op("evict", t, node, reason))

    def discard(self, ops: list) -> None:
        for op in reversed(ops):
            if op.kind == "evict":
                self._set(op.task, "Running", op.node)
                self._on_allocate(op.task)
            else:
                op.task.last = (op.task.status, op.node)  # GenerateLastTxContext
                self._on_deallocate(op.task)
                self._set(op.task, "Pending", None)
        ops.clear()

    def commit(self, ops: list, preemptor: dict | None = None) -> None:
        for op in ops:
            if op.kind == "evict":
                self.evictions.append((op.task, op.node, op.reason, None))
            elif op.kind == "allocate":
                self._bind(op.task)
        ops.clear()

    def _bind(self, t: Task) -> None:
        t.last = None  # ClearLastTxContext
        self._set(t, "Binding", t.node)
        self.binds.append(t)

    # ---- actions --------------------------------------------------------------------------------
    def _pq(self, items: list, before) -> list:
        return sorted(items, key=functools.cmp_to_key(lambda a, b: -1 if before(a, b) else (1 if before(b, a) else 0)))

    def _pop(self, items: list, before):
        best = items[0]
        for x in items[1:]:
            if before(x, best):
                best = x
        items.remove(best)
        return best

    def enqueue(self) -> None:
        queues: list = []
        jobs: dict = {}
        for key in sorted(self.jobs):
            j = self.jobs[key]
            if j.queue not in queues:
                queues.append(j.queue)
            if j.group.phase == "Pending":
                jobs.setdefault(j.queue, []).append(j)
        served = self._queue_heap(queues)
        while served:
            q = served.pop()
            if not jobs.get(q):
                continue
            j = self._pop(jobs[q], self.job_order)
            if j.group.min_resources is None or self.job_enqueueable(j):
                self.job_enqueued(j)
                j.group.phase = "Inqueue"
            served.push(q)

    def allocate(self) -> None:
        queues: list = []
        jobs: dict = {}
        tasks: dict = {}
        for key in sorted(self.jobs):
            j = self.jobs[key]
            if j.group.phase == "Pending":
                if "enqueue" in self.config.actions:
                    continue
                j.group.phase = "Inqueue"
            if not self.job_valid(j):
                continue
            pend = [t for t in j.tasks.values() if t.status == "Pending" and not t.best_effort]
            if not pend:
                continue
            if j.queue not in jobs:
                jobs[j.queue] = []
                queues.append(j.queue)
            jobs[j.queue].append(j)
            tasks[j.key] = self._pq(pend, self.task_order)  # task order is fixed within a session: sorted once
        served = self._queue_heap(queues)
        while served:
            q = served.pop()
            if self.overused(q):
                continue
            if not jobs.get(q):
                continue
            j = self._pop(jobs[q], self.job_order)
            ops: list = []
            pend = tasks[j.key]
            while pend:
                t = pend.pop(0)
                if not self.allocatable(q, [t.req]):
                    continue
                node = None
                if t.pod.nominated and t.pod.nominated in self.nodes:
                    ns = self.nodes[t.pod.nominated]
                    if res_le(t.req, ns.future_idle(), ZERO) and self.predicate(t, ns):
                        node, t.tie = ns, False
                if node is None:
                    node = self._place_scan(t) if self.placement is None else self.placement.place(t)
                if node is None:
                    j.fit_errors[t.key] = self._fit_errors(t)
                    break
                if res_le(t.req, node.idle(), ZERO):
                    self.allocate_op(ops, t, node.name)
                elif res_le(t.req, node.future_idle(), ZERO):
                    self.pipeline_op(ops, t, node.name)
                if self.job_ready(j):
                    break
            if self.job_ready(j):
                self.commit(ops)
                if pend:
                    jobs[q].append(j)
            elif not self.job_pipelined(j):
                self.discard(ops)
            served.push(q)

    def _place_scan(self, t: Task) -> NodeState | None:
        """allocate's node for `t` by asking the nodes in name order (placement.Placement gives
        the same answer from its per-shape heaps): the predicates, the search stopping at the
        first num_nodes_to_find feasible nodes, then idle nodes before nodes whose room is still
        being released, the best-scored of them; None when no node passes."""
        cands = self._first_feasible(self.nodes.values(), lambda ns: self.predicate(t, ns))
        if not cands:
            t.tie = False
            return None
        idle = [n for n in cands if res_le(t.req, n.idle(), ZERO)]
        idle_ids = {id(n) for n in idle}
        future = [n for n in cands if id(n) not in idle_ids and res_le(t.req, n.future_idle(), ZERO)]
        return self.best_node(t, idle) or self.best_node(t, future)

    def _first_feasible(self, nodes, ok, total: int | None = None) -> list:
        """PredicateNodes over `nodes` in name order: those `ok` passes, up to
        num_nodes_to_find of their number (`total`, else all the session's nodes)."""
        k = num_nodes_to_find(len(self.nodes) if total is None else total)
        out = []
        for ns in nodes:
            if ok(ns):
                out.append(ns)
                if len(out) == k:
                    break
        return out

    def _unresolvable_left(self, t: Task) -> list:
        """FilterOutUnschedulableAndUnresolvableNodesForTask: the nodes preempt and reclaim
        search for `t`, without those its allocate fit errors of this session found
        UnschedulableAndUnresolvable (selector or affinity, an untolerated taint, unschedulable)."""
        errors = self.jobs[t.job].fit_errors.get(t.key)
        if not errors:
            return list(self.nodes.values())
        return [ns for ns in self.nodes.values() if not any(r.startswith(UNRESOLVABLE) for r in errors.get(ns.name, ()))]

    def _fit_errors(self, t: Task) -> FitErrors:
        if self.placement is not None:
            return self.placement.fit_errors(t)
        return FitErrors((ns.name, self.fit_reasons(t, ns)) for ns in self.nodes.values())

    def _queue_key(self, q: str) -> tuple:
        """queue_order as a sort key, for queues compared as themselves (not under hierarchical
        capacity, where two queues compare their ancestors where their paths part)."""
        key: list = []
        for tier in self._enabled("enableQueueOrder"):
            for name in tier:
                if name in ("proportion", "capacity") and name in self.names:
                    key += [-self.queues[q].priority, self.qattr[q]["share"]]
                    if name == "capacity":
                        key.append(not self.qattr[q]["deserved"])
        return (*key, self.queues[q].created, q)

    def _queue_heap(self, queues: list) -> _Served:
        return _Served(self, queues, keyed=not self.scan and not getattr(self, "hierarchy", False))

    def backfill(self) -> None:
        for key in sorted(self.jobs, key=functools.cmp_to_key(lambda a, b: -1 if self.job_order(self.jobs[a], self.jobs[b]) else 1)):
            j = self.jobs[key]
            if j.group.phase == "Pending" or not self.job_valid(j):
                continue
            for t in self._pq([t for t in j.tasks.values() if t.status == "Pending" and t.best_effort], self.task_order):
                cands = self._first_feasible(self.nodes.values(), lambda ns, t=t: self.predicate(t, ns))
                node = self.best_node(t, cands)
                if node is None:
                    continue
                self._set(t, "Allocated", node.name)
                self._on_allocate(t)
                if self.job_ready(j):
                    for x in j.tasks.values():
                        if x.status == "Allocated":
                            self._bind(x)

    def _preempt_one(self, ops: list, preemptor: Task, filt) -> bool:
        """preempt.normalPreempt: nodes by score; on each, the victims the plugins allow are
        evicted lowest first until the preemptor fits, which is then pipelined there; a node
        where it cannot fit gives nothing back (its statement is discarded)."""
        if preemptor.policy == "Never":
            return False  # taskEligibleToPreempt
        job = self.jobs[preemptor.job]
        q = job.queue
        left = self._unresolvable_left(preemptor)
        nodes = self._first_feasible(left, lambda ns: self.predicate(preemptor, ns, check_resources=False, preempt=True), len(left))
        scored = sorted(nodes, key=lambda n: (-self.score(preemptor, n), n.name))
        for ns in scored:
            cands = [t for t in sorted(ns.tasks.values(), key=lambda x: x.uid) if filt(t)]
            victims = self._victims("preempt", preemptor, cands)
            if not victims:
                continue
            fi = ns.future_idle()
            for v in victims:
                fi = res_add(fi, v.req)
            if not res_le(preemptor.req, fi, ZERO):
                continue
            local: list = []
            fits = self._fits(q, preemptor, ns)
            for v in self._victim_order(victims, preemptor):
                if fits:
                    break
                self.evict_op(local, v, "preempt")
                fits = self._fits(q, preemptor, ns)
            if fits:
                self.pipeline_op(local, preemptor, ns.name)
                for op in local:
                    op.preemptor = preemptor if op.kind == "evict" else None
                ops.extend(local)
                return True
            self.discard(local)
        return False

    def _fits(self, q: str, t: Task, ns: NodeState) -> bool:
        return self.allocatable(q, [t.req]) and res_le(t.req, ns.future_idle(), ZERO) and self.predicate(t, ns, check_resources=False)

    def _job_cmp(self, a: Job, b: Job) -> int:
        """JobOrderCompareFn: the plugins' verdict alone, 0 when they tie."""
        if self.job_order(a, b) and not self._job_tie(a, b):
            return -1
        if self._job_tie(a, b):
            return 0
        return 1

    def _job_tie(self, a: Job, b: Job) -> bool:
        for tier in self._enabled("enableJobOrder"):
            for name in tier:
                if name == "priority" and a.priority != b.priority:
                    return False
                if name == "gang" and a.is_ready() != b.is_ready():
                    return False
                if name == "drf" and self.drf_share(self.drf_alloc.get(a.key, {})) != self.drf_share(self.drf_alloc.get(b.key, {})):
                    return False
        return True

    def _victim_order(self, victims: list, preemptor: Task) -> list:
        """BuildVictimsPriorityQueue: the last in job order first, within a job the last in task
        order first; across queues the preemptor's own queue's victims last."""
        def before(a: Task, b: Task) -> bool:
            if a.job == b.job:
                return not self.task_order(a, b)
            ja, jb = self.jobs[a.job], self.jobs[b.job]
            if ja.queue != jb.queue:
                return not self.queue_order(ja.queue, jb.queue)
            c = self._job_cmp(ja, jb)
            if c != 0:
                return c > 0
            return not self.task_order(a, b)
        items = list(victims)
        out = []
        while items:
            out.append(self._pop(items, before))
        return out

    def preempt(self) -> None:
        preemptors: dict = {}
        ptasks: dict = {}
        under: dict = {}
        for key in sorted(self.jobs):
            j = self.jobs[key]
            if j.group.phase == "Pending" or not self.job_valid(j) or not self.job_starving(j):
                continue
            preemptors.setdefault(j.queue, []).append(j)
            under.setdefault(j.queue, []).append(j)
            ptasks[j.key] = [t for t in j.tasks.values() if t.status == "Pending"]
        queues = list(preemptors)
        while queues:
            q = self._pop(queues, self.queue_order)
            while preemptors.get(q):
                pj = self._pop(preemptors[q], self.job_order)
                ops: list = []
                while self.job_starving(pj) and ptasks[pj.key]:
                    t = self._pop(ptasks[pj.key], self.task_order)

                    def filt(v: Task, t=t, pj=pj) -> bool:
                        if v.status not in ("Running", "Bound") or (t.best_effort and not v.best_effort) or not v.preemptable:
                            return False
                        vj = self.jobs.get(v.job)
                        return vj is not None and vj.queue == pj.queue and t.job != v.job
                    self._preempt_one(ops, t, filt)
                if self.job_pipelined(pj):
                    self._commit_preempt(ops)
                else:
                    self.discard(ops)
            for j in under.get(q, []):
                pend = [t for t in j.tasks.values() if t.status == "Pending"]
                while pend:
                    t = self._pop(pend, self.task_order)
                    ops = []

                    def filt2(v: Task, t=t) -> bool:
                        if v.status not in ("Running", "Bound") or (t.best_effort and not v.best_effort) or not v.preemptable:
                            return False
                        return v.job == t.job
                    if not self._preempt_one(ops, t, filt2):
                        self.discard(ops)
                        break
                    self._commit_preempt(ops)

    def _commit_preempt(self, ops: list) -> None:
        for op in ops:
            if op.kind == "evict":
                self.evictions.append((op.task, op.node, op.reason, getattr(op, "preemptor", None)))
            elif op.kind == "allocate":
                self._bind(op.task)
        ops.clear()

    def reclaim(self) -> None:
        queues: list = []
        preemptors: dict = {}
        ptasks: dict = {}
        for key in sorted(self.jobs):
            j = self.jobs[key]
            if j.group.phase == "Pending" or not self.job_valid(j):
                continue
            if j.queue not in queues:
                queues.append(j.queue)
            if self.job_starving(j):
                preemptors.setdefault(j.queue, []).append(j)
                ptasks[j.key] = [t for t in j.tasks.values() if t.status == "Pending"]
        while queues:
            q = self._pop(queues, self.queue_order)
            if self.overused(q):
                continue
            if not preemptors.get(q):
                continue
            j = self._pop(preemptors[q], self.job_order)
            if not ptasks.get(j.key) or not self.job_starving(j):
                continue
            t = self._pop(ptasks[j.key], self.task_order)
            if not self.preemptive(q, t):
                continue
            assigned = False
            left = self._unresolvable_left(t)
            for ns in self._first_feasible(left, lambda ns, t=t: self.predicate(t, ns, check_resources=False, preempt=True), len(left)):
                cands = []
                for v in sorted(ns.tasks.values(), key=lambda x: x.uid):
                    if v.status != "Running" or v.best_effort or not v.preemptable:
                        continue
                    vj = self.jobs.get(v.job)
                    if vj is None or vj.queue == j.queue or not self.queues[vj.queue].reclaimable:
                        continue
                    cands.append(v)
                if not cands:
                    continue
                victims = self._victims("reclaim", t, cands)
                if not victims:
                    continue
                fi = ns.future_idle()
                for v in victims:
                    fi = res_add(fi, v.req)
                if not res_le(t.req, fi, ZERO):
                    continue
                reclaimed: dict = {}
                for v in self._victim_order(victims, t):
                    node = v.node
                    self._set(v, "Releasing", node)
                    self._on_deallocate(v)
                    self.evictions.append((v, node, "reclaim", None))
                    reclaimed = res_add(reclaimed, v.req)
                    if res_le(t.req, reclaimed, ZERO):
                        break
                if res_le(t.req, reclaimed, ZERO):
                    self._set(t, "Pipelined", ns.name)
                    self._on_allocate(t)
                    # the evictions of this statement made room for t
                    for i in range(len(self.evictions) - 1, -1, -1):
                        e = self.evictions[i]
                        if e[2] == "reclaim" and e[3] is None and e[1] == ns.name:
                            self.evictions[i] = (e[0], e[1], e[2], t)
                        else:
                            break
                    assigned = True
                    break
            if assigned:
                preemptors[q].append(j)
            queues.append(q)

    def run(self) -> None:
        known = {"enqueue": self.enqueue, "allocate": self.allocate, "backfill": self.backfill, "preempt": self.preempt,
                 "reclaim": self.reclaim}
        for a in self.config.actions:
            if a in known:  # gangpreempt, gangreclaim and shuffle are not modelled (docs/volcano.md)
                known[a]()

    # ---- session close --------------------------------------------------------------------------
    def close(self) -> dict:
        """The PodGroup statuses Volcano writes: key -> (phase, conditions); the pods'
        PodScheduled=False conditions it writes are left in `self.pod_conditions` (pod key ->
        (reason, message)), as the job updater's RecordJobStatusEvent writes them."""
        out = {}
        self.pod_conditions: dict = {}
        for key, j in self.jobs.items():
            g = j.group
            conds = dict(g.conditions)
            unschedulable = False
            fit = job_fit_error(j)
            if j.tasks and "gang" in self.names:
                if not j.is_ready() and self._skip_releasing(j):
                    pass
                elif not j.is_ready():
                    schedulable = sum(1 for t in j.tasks.values() if t.status == "Pending" and t.last and t.last[0] in ALLOCATED)
                    unready = j.min_available - schedulable - j.ready_num()
                    conds["Unschedulable"] = ("True", "NotEnoughResources", f"{unready}/{len(j.tasks)} tasks in gang unschedulable: {fit}")
                    unschedulable = True
                else:
                    conds["Scheduled"] = ("True", "tasks in gang are ready to be scheduled", "")
            running = j.count(("Running",))
            if running and unschedulable:
                phase = "Unknown"
            else:
                scheduled = j.count(SCHEDULED) + j.count(("Releasing",))
                completed = j.count(("Succeeded", "Failed"))
                if scheduled >= g.min_member:
                    phase = "Completed" if scheduled == completed else "Running"
                elif g.phase != "Inqueue":
                    phase = "Pending"
                else:
                    phase = g.phase
            out[key] = (phase, conds)
            for t in j.tasks.values():
                if t.status in ("Allocated", "Pending", "Pipelined"):
                    reason, msg = task_scheduling_reason(j, t)
                    self.pod_conditions[t.key] = (reason, msg or fit or "all nodes are unavailable")
        return out


    @staticmethod
    def _skip_releasing(j: Job) -> bool:
        releasing = j.count(("Releasing",))
        if releasing == 0 or j.count(("Pending", "Pipelined")):
            return False
        return j.count(SCHEDULED) + releasing >= j.min_available


def task_status(phase: str, node: str | None, deleting: bool = False) -> str:
    """api.getTaskStatus of a pod as read: Running; Pending on no node, Bound on one; either
    Releasing when it is being deleted (`deleting`: its deletionTimestamp); Succeeded, Failed;
    any other phase Unknown."""
    if phase in ("Running", "Pending") and deleting:
        return "Releasing"
    if phase == "Running":
        return "Running"
    if phase == "Pending":
        return "Bound" if node else "Pending"
    return phase if phase in TERMINATED else "Unknown"


def pod_state(p, deleted: bool = False) -> str:
    """A pod's state at the end of a replay: Deleted (gone, being deleted at the start: `deleted`),
    Evicted (gone otherwise: None), a phase Volcano never schedules from (Succeeded, Failed,
    Unknown: as the pod was written, task_status), Running on a node, else Pending."""
    if deleted:
        return "Deleted"
    if p is None:
        return "Evicted"
    status = task_status(p.phase, p.node)
    if status in TERMINATED or status == "Unknown":
        return status
    return "Running" if p.node else "Pending"


def fit_errors_text(errors: dict) -> str:
    """api.FitErrors.Error: the nodes that failed and a sorted histogram of their reasons (kept
    on a FitErrors, which never changes)."""
    text = getattr(errors, "text", None)
    if text is None:
        text = _fit_errors_text(errors)
        if isinstance(errors, FitErrors):
            errors.text = text
    return text


def _fit_errors_text(errors: dict) -> str:
    hist: dict = {}
    for reasons in errors.values():
        for r in reasons:
            hist[r] = hist.get(r, 0) + 1
    head = f"0/{len(errors)} nodes are unavailable"
    if not errors:
        return head
    return head + ": " + ", ".join(sorted(f"{v} {k}" for k, v in hist.items())) + "."


def job_fit_error(j: Job) -> str:
    """api.JobInfo.FitError: the job's readiness, a sorted histogram of its tasks by status and
    its minAvailable, its pending tasks by scheduling reason, and the first fit error of its
    tasks in UID order (Volcano walks a map there; pinned: the lowest UID)."""
    hist: dict = {}
    for t in j.tasks.values():
        hist[t.status] = hist.get(t.status, 0) + 1
    hist["minAvailable"] = j.min_available
    msg = ("pod group is ready" if j.is_ready() else "pod group is not ready") + ", " + \
        ", ".join(sorted(f"{v} {k}" for k, v in hist.items()))
    pending: dict = {}
    for t in j.tasks.values():
        if t.status == "Pending":
            r = task_scheduling_reason(j, t)[0]
            pending[r] = pending.get(r, 0) + 1
    if pending:
        msg += "; Pending: " + ", ".join(sorted(f"{v} {k}" for k, v in pending.items()))
    for t in sorted(j.tasks.values(), key=lambda x: x.uid):
        if t.key in j.fit_errors:
            msg += f". Origin reason is {t.pod.name}: {fit_errors_text(j.fit_errors[t.key])}"
            break
    return msg


def task_scheduling_reason(j: Job, t: Task) -> tuple:
    """api.JobInfo.TaskSchedulingReason: (reason, message) by the task's last transaction (a
    discarded statement's operation, else its status); message "" means the job's fit error."""
    status, node = t.last if t.last else (t.status, t.node)
    if status == "Allocated":
        return "Schedulable", f"Pod {t.pod.namespace}/{t.pod.name} can possibly be assigned to {node}, once minAvailable is satisfied"
    if status == "Pipelined":
        return "Unschedulable", (f"Pod {t.pod.namespace}/{t.pod.name} can possibly be assigned to {node}, "
                                 "once resource is released and minAvailable is satisfied")
    if status == "Pending":
        return "Unschedulable", fit_errors_text(j.fit_errors[t.key]) if t.key in j.fit_errors else ""
    return status, ""


def _same(a: dict, b: dict) -> bool:
    return all(abs(a.get(k, 0.0) - b.get(k, 0.0)) < 1e-9 for k in set(a) | set(b))


def _unbounded_cpu_memory(capability: dict) -> dict:
    """A capability's cpu or memory of 0 or absent means unbounded (proportion and capacity)."""
    cap = dict(capability)
    for k in ("cpu", "memory"):
        if cap.get(k, 0) <= 0:
            cap[k] = float("inf")
    return cap


def _le_partly(left: dict, right: dict, req: dict) -> bool:
    """LessEqualPartlyWithDimensionZeroFiltered: some dimension `req` asks for (not `pods`, not
    one both sides lack) on which `left` is at most `right`."""
    for k, v in req.items():
        if v <= 0 or k == PODS:
            continue
        lv, rv = left.get(k, 0.0), right.get(k, 0.0)
        if lv < MIN_RESOURCE and rv < MIN_RESOURCE:
            continue
        if lv < rv or abs(lv - rv) < MIN_RESOURCE:
            return True
    return False


def num_nodes_to_find(n: int) -> int:
    """util.CalculateNumOfFeasibleNodesToFind: how many feasible nodes a predicate search
    (PredicateNodes) collects before it stops: every node up to MIN_NODES_TO_FIND, above it a
    percentage falling with the cluster's size (50 - n/125, at least the minimum percentage),
    never fewer than MIN_NODES_TO_FIND (420 of 1,000 nodes). The recording's pinned mode starts
    every search at the first node, so the nodes are the first feasible ones in name order."""
    if n <= MIN_NODES_TO_FIND or PERCENTAGE_OF_NODES_TO_FIND >= 100:
        return n
    pct = PERCENTAGE_OF_NODES_TO_FIND
    if pct <= 0:
        pct = max(50 - n // 125, MIN_PERCENTAGE_OF_NODES_TO_FIND)
    return max(n * pct // 100, MIN_NODES_TO_FIND)


def _number(value, default: float) -> float:
    try:
        return float(value) if value is not None else default
    except (TypeError, ValueError):
        return default


BALANCED = ("cpu", "memory", GPU)  # nodeorder's NodeResourcesBalancedAllocationArgs.Resources


def _k8s_node_add(ns: NodeState, req: dict, sign: float) -> None:
    """A pod added to (sign 1) or removed from (-1) the node's k8s NodeInfo."""
    requested = ns.requested
    for k, v in req.items():
        requested[k] = requested.get(k, 0.0) + sign * v
    nz = ns.nonzero
    nz[0] += sign * (req.get("cpu", 0.0) or 100.0)
    nz[1] += sign * (req.get("memory", 0.0) or 200 * 1024 * 1024.0)


def _balanced_fractions_score(requested: list, allocatable: list) -> int:
    """balancedResourceScore: (1 - the standard deviation of requested/allocatable, each capped
    at 1) * 100, truncated; two resources take |f1 - f2| / 2, fewer than two score 100."""
    fractions = [min(r / a, 1.0) for r, a in zip(requested, allocatable)]
    std = 0.0
    if len(fractions) == 2:
        std = abs((fractions[0] - fractions[1]) / 2)
    elif len(fractions) > 2:
        mean = sum(fractions) / len(fractions)
        std = math.sqrt(sum((f - mean) * (f - mean) for f in fractions) / len(fractions))
    return int((1 - std) * 100)


def _balanced_allocation(req: dict, node_requested: dict, alloc: dict) -> int:
    """_balanced_allocation_ref, the common case (no gpu asked, a node with cpu and memory:
    two fractions) worked out without the lists."""
    if req.get(GPU, 0.0):
        return _balanced_allocation_ref(req, node_requested, alloc)
    ca, ma = alloc.get("cpu", 0.0), alloc.get("memory", 0.0)
    if ca <= 0 or ma <= 0:
        return _balanced_allocation_ref(req, node_requested, alloc)
    cpu, mem = req.get("cpu", 0.0), req.get("memory", 0.0)
    if not (cpu or mem):
        return 0
    hc, hm = node_requested.get("cpu", 0.0), node_requested.get("memory", 0.0)
    with_pod = int((1 - abs((min((hc + cpu) / ca, 1.0) - min((hm + mem) / ma, 1.0)) / 2)) * 100)
    without = int((1 - abs((min(hc / ca, 1.0) - min(hm / ma, 1.0)) / 2)) * 100)
    return 50 + (50 + with_pod - without) // 2


def _balanced_allocation_ref(req: dict, node_requested: dict, alloc: dict) -> int:
    """NodeResourcesBalancedAllocation as Kubernetes v1.36 scores (kubernetes#135573): the
    balance with the pod against the balance without it, 50 + (50 + with - without) / 2, so a
    node whose balance the pod keeps scores about 75, one it evens out up to 100, one it unbalances
    down to 50. A resource the node has none of is left out, and so is an extended resource
    (nvidia.com/gpu) the pod does not request; a pod requesting no cpu, memory or gpu is not
    scored (PreScore: Skip), which leaves every node 0."""
    with_pod: list = []
    without: list = []
    caps: list = []
    for k in BALANCED:
        pod_k = req.get(k, 0.0)
        if pod_k == 0 and k == GPU:
            continue
        cap = alloc.get(k, 0.0)
        if cap <= 0:
            continue
        have = node_requested.get(k, 0.0)
        with_pod.append(have + pod_k)
        without.append(have)
        caps.append(cap)
    if not any(req.get(k, 0.0) for k in BALANCED):
        return 0
    return 50 + (50 + _balanced_fractions_score(with_pod, caps) - _balanced_fractions_score(without, caps)) // 2


def _nonzero(req: dict) -> dict:
    out = dict(req)
    if out.get("cpu", 0) == 0:
        out["cpu"] = 100.0
    if out.get("memory", 0) == 0:
        out["memory"] = 200 * 1024 * 1024.0
    return out


def _tolerated(taint: dict, tolerations: list) -> bool:
    for tol in tolerations or []:
        if not isinstance(tol, dict):
            continue
        if tol.get("effect") and tol.get("effect") != taint.get("effect"):
            continue
        op = tol.get("operator", "Equal")
        if not tol.get("key") and op == "Exists":
            return True
        if tol.get("key") != taint.get("key"):
            continue
        if op == "Exists" or str(tol.get("value", "")) == str(taint.get("value", "")):
            return True
    return False


def _affinity_ok(affinity, labels: dict) -> bool:
    req = (((affinity or {}).get("nodeAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or {})
    terms = req.get("nodeSelectorTerms") or []
    if not terms:
        return True
    for term in terms:
        if all(_expr_ok(e, labels) for e in term.get("matchExpressions") or []):
            return True
    return False


def _expr_ok(e: dict, labels: dict) -> bool:
    key, op, values = e.get("key"), e.get("operator"), [str(v) for v in e.get("values") or []]
    if op == "In":
        return key in labels and labels[key] in values
    if op == "NotIn":
        return key not in labels or labels[key] not in values
    if op == "Exists":
        return key in labels
    if op == "DoesNotExist":
        return key not in labels
    if op in ("Gt", "Lt"):
        try:
            a, b = int(labels[key]), int(values[0])
        except (KeyError, ValueError, IndexError):
            return False
        return a > b if op == "Gt" else a < b
    return False


class _Served:
    """The queues an action serves, popped in queue order and pushed back after their job. A
    heap on Session._queue_key where queues compare as themselves: between a pop and its push
    only the popped queue's share moves (its own jobs' allocations), so the keys of the queues
    waiting stay right. Under hierarchical capacity, a scan with queue_order (Session._pop)."""

    def __init__(self, ssn: Session, queues: list, keyed: bool) -> None:
        self.ssn, self.keyed = ssn, keyed
        self.items: list = [(ssn._queue_key(q), q) for q in queues] if keyed else list(queues)
        if keyed:
            heapq.heapify(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def pop(self) -> str:
        if self.keyed:
            return heapq.heappop(self.items)[1]
        return self.ssn._pop(self.items, self.ssn.queue_order)

    def push(self, q: str) -> None:
        if self.keyed:
            heapq.heappush(self.items, (self.ssn._queue_key(q), q))
        else:
            self.items.append(q)


@dataclass
class Replay:
    cycles_run: int = 0
    stop: str = "quiet"
    cycles: list = field(default_factory=list)  # CycleRecord, the eventful ones
    bound_in: dict = field(default_factory=dict)  # pod -> cycle
    evicted_in: dict = field(default_factory=dict)
    evicted_node: dict = field(default_factory=dict)
    deleted_node: dict = field(default_factory=dict)  # pod being deleted at the start -> its node (gone after cycle 1)
    in_session: set = field(default_factory=set)


def replay(cluster: Cluster, config: vconf.Config, limit: int = CYCLE_LIMIT) -> Replay:
    """Run cycles until one changes nothing (or `limit`); `cluster` is changed in place to the end
    state (pods bound or gone, PodGroup phases and conditions as Volcano last wrote them)."""
    out = Replay()
    for n in range(1, limit + 1):
        out.cycles_run = n
        ssn = Session(cluster, config)
        out.in_session |= set(ssn.jobs)
        before_phase = {k: g.phase for k, g in cluster.groups.items()}
        before_status = _status(cluster)
        ssn.run()
        statuses = ssn.close()
        rec = CycleRecord(n)
        for t in ssn.binds:
            rec.binds.append((t.key, t.node, t.job, t.tie))
        for t, node, reason, pre in ssn.evictions:
            rec.evictions.append((t.key, t.job, node, reason, pre.key if pre is not None else None))
        for j in ssn.jobs.values():
            for t in j.tasks.values():
                if t.status == "Pipelined":
                    rec.pipelined.append((t.key, t.node))
        rec.pipelined.sort()
        # what the cluster does before the next cycle
        for key, (phase, conds) in statuses.items():
            g = cluster.groups[key]
            g.phase, g.conditions = phase, conds
            if phase != before_phase[key]:
                rec.phase_changes.append((key, before_phase[key], phase))
        rec.phase_changes.sort()
        bound_now = {t.key for t in ssn.binds}
        evicted_now = {t.key for t, _, _, _ in ssn.evictions}
        for t in ssn.binds:
            p = cluster.pods[t.key]
            p.node, p.phase, p.nominated = t.node, "Running", None
            p.reason = p.message = None
            out.bound_in[t.key] = n
        for t, node, _, _ in ssn.evictions:
            del cluster.pods[t.key]
            out.evicted_in[t.key] = n
            out.evicted_node[t.key] = node
        for key in [k for k, p in cluster.pods.items() if p.deleting]:
            # being deleted: gone after the first cycle, as an evicted pod is (it terminates at once)
            out.deleted_node[key] = cluster.pods.pop(key).node
        for key, node in rec.pipelined:
            cluster.pods[key].nominated = node
        for key, (reason, message) in ssn.pod_conditions.items():
            p = cluster.pods.get(key)
            if p is not None and key not in evicted_now and key not in bound_now:
                p.reason, p.message = reason, message
        if rec.eventful():
            out.cycles.append(rec)
        if not rec.eventful() and _status(cluster) == before_status:
            out.stop = "quiet"
            return out
    out.stop = "cycleLimit"
    return out


def _status(cluster: Cluster):
    return ({k: (g.phase, tuple(sorted(g.conditions.items()))) for k, g in cluster.groups.items()},
            {k: (p.node, p.nominated, p.reason, p.message) for k, p in cluster.pods.items()})
