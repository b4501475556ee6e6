"""YuniKorn's scheduling cycles over the pending asks of a snapshot (application.go tryAllocate
and tryPreemption): each ask in YuniKorn's order is placed, preempted for, or fails, until
nothing changes; plus, per ask in the initial state, its candidates and preconditions."""
from __future__ import annotations

from prio.yunikorn import resources
from prio.yunikorn.engine import Engine
from prio.yunikorn.preemption.candidates import CandidateSearch
from prio.yunikorn.preemption.preemptor import Preemptor
from prio.yunikorn.preemption.result import (
    DOES_NOT_HELP,
    NOT_ATTEMPTED_NEVER,
    NOT_ATTEMPTED_PARTITION,
    NOT_ENOUGH_QUEUE_QUOTA,
    NOT_ENOUGH_USER_QUOTA,
    PRECONDITIONS_FAILED,
    USER_CANNOT_RUN,
    AskResult,
    Candidate,
    Result,
)
from prio.yunikorn.preemption.world import Run, World
from prio.yunikorn.quantity import show_resources
from prio.yunikorn.snapshot import Allocation, App, Ask, Node, Snapshot
from prio.yunikorn.tree import ensure_queue
from prio.yunikorn.ugm import DEFAULT_USER, Usage, user_groups


class _Attempt:
    __slots__ = ("kind", "node", "victims", "log", "reason")

    def __init__(self, kind, node=None, victims=(), log=(), reason=""):
        self.kind, self.node, self.victims, self.log, self.reason = kind, node, list(victims), list(log), reason


def _who(app: App) -> tuple:
    user = app.user or DEFAULT_USER
    return user, user_groups(user, app.groups)


def _user_check(w: World, app: App, leaf, ask: Ask):
    """The user/group manager's checks, before anything else: an application that does not run
    yet within the user's and group's maxapplications (else YuniKorn skips it), then the ask
    within their headroom (else it is skipped: preemption is never tried for it)."""
    if w.ugm is None:
        return None
    user, groups = _who(app)
    if not any(r.app == app.id for r in w.runs) and w.ugm.cannot_run(app.id, leaf.path, user, groups) is not None:
        return _Attempt("failed", log=[USER_CANNOT_RUN], reason=USER_CANNOT_RUN)
    if w.ugm.short_of(app.id, leaf.path, user, groups, ask.resources) is not None:
        return _Attempt("failed", log=[NOT_ENOUGH_USER_QUOTA], reason=NOT_ENOUGH_USER_QUOTA)
    return None


def _try_ask(w: World, leaf, ask: Ask, app: App | None = None) -> _Attempt:
    """Application.tryAllocate for one request."""
    held = _user_check(w, app, leaf, ask) if app is not None else None
    if held is not None:
        return held
    room = w.headroom(leaf)
    if room is not None and not resources.fit_in(room, ask.resources, True, False):
        return _preempt(w, leaf, ask, nodes_tried=False, quota=True)
    for n in w.sorted_nodes():
        if w.has_room(n, ask.resources):
            return _Attempt("allocated", n)
    return _preempt(w, leaf, ask, nodes_tried=True, quota=False)


def _preempt(w: World, leaf, ask: Ask, nodes_tried: bool, quota: bool) -> _Attempt:
    tail = [NOT_ENOUGH_QUEUE_QUOTA] if quota else []
    if not w.preemption_enabled:
        return _Attempt("failed", log=tail, reason=NOT_ATTEMPTED_PARTITION)
    if ask.preemption_policy == "Never":
        return _Attempt("failed", log=[PRECONDITIONS_FAILED, DOES_NOT_HELP] + tail, reason=NOT_ATTEMPTED_NEVER)
    p = Preemptor(w, leaf, ask, nodes_tried)
    node, victims = p.try_preemption()
    if node is None:
        log = p.log + [DOES_NOT_HELP] + tail
        return _Attempt("failed", log=log, reason=p.log[-1] if p.log else DOES_NOT_HELP)
    return _Attempt("preempted", node, victims)


def _fits_now(w: World, leaf, ask: Ask) -> bool:
    room = w.headroom(leaf)
    if room is not None and not resources.fit_in(room, ask.resources, True, False):
        return False
    return any(w.has_room(n, ask.resources) for n in w.node_order)


def _order(w: World, root, apps: list, pending: dict) -> list:
    """The asks in the order YuniKorn's cycle considers them now (the engine's sort)."""
    snap = Snapshot(capacity=w.root_max or None)
    usages: dict = {}
    for run in w.runs:
        resources.add_to(usages.setdefault(run.app, {}), run.res)
    for app in apps:
        usage = usages.get(app.id, {})
        asks = [a for a in app.asks if a.id in pending.get(app.id, ())]
        snap.apps.append(App(app.id, app.queue, app.submit_time, asks, usage, app.state or ("Running" if usage else ""), app.line))
    eng = Engine(root, snap, release=w.release)
    out = [(st.app.id, a) for st, a in eng.considered_order()]
    seen = {(app_id, a.id) for app_id, a in out}
    for app in apps:  # asks with nothing to sort by (no positive resources) come last
        out += [(app.id, a) for a in app.asks if a.id in pending.get(app.id, ()) and (app.id, a.id) not in seen]
    return out


def analyse(root, snapshot: Snapshot, preemption_enabled: bool = True, node_sort: str = "fair",
            weights: dict | None = None, limits=None, release=None) -> Result:
    """What YuniKorn's preemption does for every pending ask of `snapshot`, by the rules of
    YuniKorn `release` (releases.Release; None: the newest).

    `root` is the partition's queue tree with every application's queue in it (the engine makes
    dynamic queues); `snapshot.nodes` lists the nodes (absent: one node of the capacity)."""
    nodes = snapshot.nodes
    if nodes is None:
        nodes = [Node("node-1", dict(snapshot.capacity or {}))]
    w, latest = _world(root, snapshot, nodes, preemption_enabled, node_sort, weights)
    if release is not None:
        w.release = release
    if limits:  # the user/group manager's usage (ugm.Limits from the config)
        w.ugm = Usage(limits, snapshot.tracked)
        apps = {a.id: a for a in snapshot.apps}
        for run in w.runs:
            user, groups = _who(apps[run.app])
            w.ugm.add(run.app, run.leaf.path, user, groups, run.res)
        w.ugm.include(snapshot.tracked)  # a live YuniKorn's, where the running allocations do not hold it
    asks = [_initially(w, w.leaves[app.id], app.id, ask) for app in snapshot.apps for ask in app.asks]
    _schedule(w, root, snapshot.apps, asks, latest)
    return Result(asks, [n.name for n in nodes])


def _world(root, snapshot: Snapshot, nodes: list, preemption_enabled: bool, node_sort: str, weights: dict | None):
    """The world as the snapshot has it (every allocation on its node, or on the one node), and
    the latest creation time in the snapshot."""
    leaves = {}
    runs: list = []
    max_time = 0
    for app in snapshot.apps:
        leaf = ensure_queue(root, app.queue, snapshot.source or "snapshot", app.line)
        leaves[app.id] = leaf
        for a in app.allocations or ():
            node = a.node if snapshot.nodes is not None else nodes[0].name
            if node != a.node:
                a = Allocation(a.id, a.priority, a.resources, node, a.create_time, a.originator, a.allow_preemption, a.seq)
            runs.append(Run(a, app.id, leaf, len(runs)))
            max_time = max(max_time, a.create_time[0])
        for k in app.asks:
            max_time = max(max_time, k.create_time[0])
    return World(root, leaves, nodes, runs, preemption_enabled, node_sort, weights or {}), max_time


def _initially(w: World, leaf, app_id: str, ask: Ask) -> AskResult:
    """An ask's result before the cycles run: the why of the initial state (its fence root, its
    priority by queue, every running task as a candidate or not, its preconditions)."""
    r = AskResult(ask.id, app_id, leaf.path, ask.priority)
    s = CandidateSearch(w, leaf, ask)
    s.run()
    assert s.fence is not None  # run() walks up to the fence root (root at the latest)
    r.fence_root, r.fence_why = s.fence.path, s.fence_why
    r.priority_by_queue = list(reversed(s.chain))
    r.eligible = sorted(v.id for snap in s.snaps.values() for v in snap.victims)
    for run in w.runs:
        eligible, why, cmp = s.why.get(run, (False, f"outside the fence root {s.fence.path}", None))
        r.candidates.append(Candidate(run.id, run.app, run.leaf.path, run.alloc.node, run.alloc.priority, eligible, why, cmp))
    r.preconditions = _preconditions(w, leaf, ask)
    r.fits_now = _fits_now(w, leaf, ask)
    return r


def _schedule(w: World, root, apps: list, asks: list, tick: int) -> None:
    """The scheduling cycles, filling in each ask's outcome: the first ask (in YuniKorn's order)
    that gets placed or preempts for restarts the cycle; failed asks are retried until nothing
    changes. `tick`: the latest creation time so far (a placed ask is created after it)."""
    results = {(r.application, r.ask): r for r in asks}
    by_id = {a.id: a for a in apps}
    pending: dict = {}
    for r in asks:
        pending.setdefault(r.application, set()).add(r.ask)
    order = len(w.runs)  # the next allocation's place in the snapshot's order
    guard = 0
    while pending and guard < 100_000:
        guard += 1
        progressed = False
        for app_id, ask in _order(w, root, apps, pending):
            r = results[(app_id, ask.id)]
            att = _try_ask(w, w.leaves[app_id], ask, by_id[app_id])
            if att.kind == "failed":
                r.outcome, r.node, r.victims, r.reason, r.log = "not placed", None, [], att.reason, sorted(set(att.log))
                continue
            for v in att.victims:
                w.remove(v)
                if w.ugm is not None:
                    user, groups = _who(by_id[v.app])
                    w.ugm.remove(v.app, v.leaf.path, user, groups, v.res, not any(x.app == v.app for x in w.runs))
            tick += 1
            w.add(Run(Allocation(ask.id, ask.priority, ask.resources, att.node, (tick, 0)), app_id, w.leaves[app_id], order))
            if w.ugm is not None:
                user, groups = _who(by_id[app_id])
                w.ugm.add(app_id, w.leaves[app_id].path, user, groups, ask.resources)
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


def _preconditions(w: World, leaf, ask: Ask) -> list:
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
                f"{guaranteed.path} guarantees {show_resources(guaranteed.guaranteed)}" if guaranteed is not None else
                "no queue from the leaf to root has guaranteed resources: YuniKorn never finds room for the ask in a guarantee"))
    return out
