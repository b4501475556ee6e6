"""Gang scheduling: task groups, the placeholders YuniKorn's Kubernetes shim creates for them, real
pods taking their placeholders' place, releases and the placeholder timeout (the shim played as
../shared/testdata/yunikorn-gangs/README.md states it). Pure: no I/O.

The model side (`with_placeholders`, `refusal`, `Gang`): a gang application (one with task
groups) gets, for each task group in order, minMember placeholder asks minus the group's running
placeholders (PlaceholderManager.createAppPlaceholders), each with the group's minResource and
the originator's priority, created with the application; its real asks are held back (the shim
hands YuniKorn only the placeholders while the gang reserves) unless it already runs a real pod
(skipReservationStage). It is refused at submission in a `fair` leaf, or when its whole request
(GetTGResource) exceeds the max set on its queues (PartitionContext.AddApplication).

The run side (`GangRun`, the reference engine's hooks): placeholder replacement before the walk
in each cycle (Application.tryPlaceholderAllocate), the walk's skip of real asks that wait to
replace (Application.canReplace), and after each cycle the shim's reactions: releases confirmed,
the real pods handed over once every group has its placeholders, and, when nothing changes any
more, virtual time up to the snapshot's horizon with the placeholder timers firing
(Application.timeoutPlaceholderProcessing, Soft and Hard).
"""
from __future__ import annotations

import dataclasses
from bisect import insort
from itertools import islice
from typing import NamedTuple

from prio.values import INT32_MIN
from prio.yunikorn.reference import current_priority, groups_of, path_to_root, sort_queues, user_of
from prio.yunikorn.resources import strictly_positive
from prio.yunikorn.step import HAND_OVER, TieNote

DEFAULT_TIMEOUT = 900  # seconds: the shim's placeholder timeout when none (or none positive) is given
_APP_ID_CHARS, _GROUP_CHARS = 28, 20  # the shim's placeholder name cuts the two parts to these lengths


def skips_reservation(app) -> bool:
    """skipReservationStage: a real pod of the application already runs (a bound pod that is not
    a placeholder): no placeholders are created, its real asks are handed over at once."""
    return any(not a.placeholder for a in app.allocations or ())


def placeholder_ask(app) -> dict:
    """The shim's GetTGResource: minMember x minResource summed over the task groups."""
    out: dict = {}
    for g in app.task_groups:
        for k, v in g.min_resource.items():
            out[k] = out.get(k, 0) + v * g.min_member
    return out


def originator_priority(app, classes) -> int:
    """The priority the shim gives every placeholder: its originator's (an ask or a running
    allocation marked originator, else the first ask), else the global default class's, else 0."""
    from prio.kube.priorityclass import global_default

    for a in app.asks:
        if a.originator:
            return a.priority
    for a in app.allocations or ():
        if a.originator:
            return a.priority
    if app.asks:
        return app.asks[0].priority
    c = global_default(classes)
    return c.value if c is not None else 0


def placeholder_id(app_id: str, group: str, n: int) -> str:
    return f"tg-{app_id[:_APP_ID_CHARS]}-{group[:_GROUP_CHARS]}-{n}"


def with_placeholders(app, classes):
    """The application as the model schedules it: its placeholder asks first (task-group order,
    then n; the hand-over order), then its own asks. A group's pending placeholders the input
    lists keep their ids and come first in it; the ones the shim still makes are named
    placeholder_id. A copy: the snapshot is not changed."""
    if skips_reservation(app):
        return app
    from prio.yunikorn.snapshot import Ask

    running = [a for a in app.allocations or () if a.placeholder]
    # pending placeholders the input lists (the shim's placeholder pods by name, YuniKorn's asks
    # by allocation key) are among those the shim made: they keep their ids, in file order
    listed: dict = {}
    for a in app.asks:
        if a.placeholder:
            listed.setdefault(a.task_group, []).append(a.id)
    used = {a.id for a in app.allocations or ()} | {pid for ids in listed.values() for pid in ids}
    prio = originator_priority(app, classes)
    made = []
    for g in app.task_groups:
        n = 0
        names = listed.get(g.name, [])
        for k in range(max(g.min_member - sum(1 for a in running if a.task_group == g.name), len(names))):
            if k < len(names):
                made.append((names[k], g))
                continue
            n += 1
            while placeholder_id(app.id, g.name, n) in used:
                n += 1
            pid = placeholder_id(app.id, g.name, n)
            used.add(pid)
            made.append((pid, g))
    # the placeholders come before the real asks (negative insertion order): the shim hands them over first
    asks = [Ask(pid, prio, g.min_resource, app.submit_time, k - len(made), "", False, g.name, True)
            for k, (pid, g) in enumerate(made)]
    # the listed pending placeholders are among `made` (with their ids): the input's copies go
    return dataclasses.replace(app, asks=asks + [a for a in app.asks if not a.placeholder])


def preemption_view(snapshot, classes=()):
    """The snapshot as `prio preempt` analyses it with gangs (what YuniKorn knows of each gang,
    as yunikorn-core's code has it; no recording has preemption with gangs): a gang that
    reserves is its pending placeholders (the asks YuniKorn has, tried like any ask, preemption
    included), its real pods held back by the shim are left out; a gang that skipped the
    reservation keeps its real asks but those of a group with a placeholder left, which wait to
    replace it (canReplace: the walk skips them, so they never preempt). Running placeholders
    stay candidate victims like any task (YuniKorn's victim search skips only released ones).
    Returns (snapshot, {"held": [(app, ask)], "waiting": [(app, ask)], "placeholders": [(app, ask)]})."""
    apps, seen = [], {"held": [], "waiting": [], "placeholders": []}
    for app in snapshot.apps:
        if not app.task_groups:
            apps.append(app)
            continue
        g = with_placeholders(app, classes)
        if not skips_reservation(app):
            real = [a for a in g.asks if not a.placeholder]
            seen["held"] += [(app.id, a.id) for a in real]
            phs = [a for a in g.asks if a.placeholder]
            seen["placeholders"] += [(app.id, a.id) for a in phs]
            apps.append(dataclasses.replace(g, asks=phs))
            continue
        left = {a.task_group for a in app.allocations or () if a.placeholder} | {a.task_group for a in app.asks if a.placeholder}
        wait = [a for a in g.asks if not a.placeholder and a.task_group and a.task_group in left]
        seen["waiting"] += [(app.id, a.id) for a in wait]
        apps.append(dataclasses.replace(g, asks=[a for a in g.asks if a not in wait]))
    return dataclasses.replace(snapshot, apps=apps), seen


def preemption_notes(seen: dict) -> list:
    """What preemption_view changed, in words (one note per kind, the first few named)."""
    def some(pairs):
        return ", ".join(f"{a}/{k}" for a, k in pairs[:4]) + (f" and {len(pairs) - 4} more" if len(pairs) > 4 else "")

    out = []
    if seen["held"] or seen["placeholders"]:
        out.append("gangs (modelled from yunikorn-core's code, not recorded): a gang that reserves is analysed as its "
                   f"pending placeholders ({some(seen['placeholders']) or 'none pending'}), which YuniKorn tries like any ask, "
                   "preemption included; its real pods are held back by the shim and not analysed"
                   + (f" ({some(seen['held'])})" if seen["held"] else ""))
    if seen["waiting"]:
        out.append(f"gangs: {some(seen['waiting'])} wait to take a running placeholder's place (placeholder replacement, "
                   "before the normal walk): YuniKorn skips them in the walk, so they never preempt")
    if out:
        out.append("gangs: running placeholders are candidate victims like any task (YuniKorn skips only placeholders already "
                   "released); a preempted placeholder counts as timed out and the shim makes no new one, so its gang cannot "
                   "complete before its placeholder timeout")
    return out


def _go_map(res: dict) -> str:
    """A Resource as Go's %v prints it in YuniKorn's messages: map[k:v ...], keys sorted."""
    return "map[" + " ".join(f"{k}:{v}" for k, v in sorted(res.items())) + "]"


def refusal(leaf, app) -> str | None:
    """PartitionContext.AddApplication's gang checks: None when the application may be
    submitted, else YuniKorn's reason. A leaf must sort applications fifo (SupportTaskGroup);
    the whole request must fit the max set on the leaf and its parents below root
    (GetMaxQueueSet: the smallest per type, FitInMaxUndef)."""
    ask = placeholder_ask(app)
    if not any(ask.values()):  # resources.IsZero: no task group request to check
        return None
    if leaf.sort_policy != "fifo":
        return f"queue {leaf.path} cannot run application {app.id} with task group request: unsupported sort type"
    limit: dict = {}
    q = leaf
    while q is not None and q.parent is not None:
        for k, v in (q.max or {}).items():
            if k not in limit or v < limit[k]:
                limit[k] = v
        q = q.parent
    if any(k in limit and v > limit[k] for k, v in ask.items()):
        return (f"queue {leaf.path} cannot fit application {app.id}: task group request {_go_map(ask)} "
                f"larger than max queue allocation {_go_map(limit)}")
    return None


class Held(NamedTuple):
    """An allocated placeholder: its id, group, node name and resources (index: its ask in the
    application state, None for a running placeholder of the snapshot)."""

    id: str
    group: str
    node: str
    resources: dict
    index: int | None  # type: ignore[assignment]  # shadows tuple.index on purpose: the field is what an instance gives


class Gang:
    """One gang application's state: which of its asks are placeholders and which real asks wait
    in the shim, the placeholders allocated, released or cancelled, the counts canReplace reads,
    YuniKorn's application state and its placeholder timer."""

    def __init__(self, st):
        app = st.app
        self.st = st
        self.groups = {g.name: g for g in app.task_groups}
        self.style = app.gang_style
        self.timeout = app.placeholder_timeout or DEFAULT_TIMEOUT
        self.request = placeholder_ask(app)
        self.placeholders = [i for i, a in enumerate(st.asks) if a.placeholder]
        self.real = [i for i, a in enumerate(st.asks) if not a.placeholder]
        self.held: list[Held] = []  # allocated placeholders still held, by id (hold, drop)
        self.have: dict = {}  # group -> how many of held are of it
        self.released: set = set()  # ids of held placeholders released, until the shim confirms
        self.cancelled: set = set()  # indices of placeholder asks removed by a timeout
        self.replaced: dict = {}  # group -> placeholders replaced (placeholderData.Replaced)
        self.timed_out: dict = {}  # group -> placeholders released by a timeout or a larger ask (TimedOut)
        self.count: dict = {}  # group -> placeholders YuniKorn knows of (placeholderData.Count)
        for i in self.placeholders:
            g = st.asks[i].task_group
            self.count[g] = self.count.get(g, 0) + 1
        self.allocated: dict = {}  # the allocated placeholders' resources (allocatedPlaceholder)
        for a in app.allocations or ():
            if a.placeholder:
                self.hold(Held(a.id, a.task_group, a.node, a.resources, None))
                self.count[a.task_group] = self.count.get(a.task_group, 0) + 1
                _add(self.allocated, a.resources)
        self.skip = skips_reservation(app)
        self.sent = self.skip  # whether the real asks were handed over
        self.hidden = set() if self.skip else set(self.real)
        self.state = "Running" if self.skip or (self.held and _same(self.allocated, self.request)) else "Accepted"
        self.timer_start: float | None = None
        self.timer_order = 0
        self.sent_after: tuple | None = None  # (steps done, time) when the shim handed the real asks over
        self.cursor = 0  # replacement's start in the application's sorted requests (GangRun._replace_in)
        self.order_pos: dict | None = None  # ask index -> its place in those (GangRun.hand_over_tie), when first asked

    def waits(self, i: int) -> bool:
        """Application.canReplace for a real ask: its group still has placeholders neither
        replaced nor timed out, so the normal walk skips it (it waits for replacement)."""
        g = self.st.asks[i].task_group
        if not g or g not in self.count or self.st.asks[i].placeholder:
            return False
        return self.count[g] > self.replaced.get(g, 0) + self.timed_out.get(g, 0)

    def complete(self) -> bool:
        """Every task group has at least minMember placeholders allocated."""
        have = self.have
        return all(have.get(name, 0) >= g.min_member for name, g in self.groups.items())

    def hold(self, h: Held) -> None:
        """An allocated placeholder held: kept in id order (getPlaceholderAllocations' stand-in)."""
        insort(self.held, h)
        self.have[h.group] = self.have.get(h.group, 0) + 1

    def drop(self, h: Held) -> None:
        self.held.remove(h)
        self.have[h.group] -= 1

    def pending_placeholders(self) -> list:
        st = self.st
        return [i for i in self.placeholders if not st.alloc[i] and i not in self.cancelled]


def _larger(ask: dict, held: dict) -> bool:
    """The real ask is larger than the placeholder in some type (resources.Sub has a negative)."""
    return any(v > held.get(k, 0) for k, v in ask.items())


def _admitted(ok, node) -> bool:
    """The shim's predicates let the ask on `node` (ok: Cluster.admits' answer, None: every node)."""
    return ok is None or ok[node.index]


def _same(a: dict, b: dict) -> bool:
    """resources.Equals: every type equal, a missing type counting 0."""
    return all(a.get(k, 0) == b.get(k, 0) for k in a.keys() | b.keys())


def _add(acc: dict, res: dict, sign: int = 1) -> None:
    for k, v in res.items():
        acc[k] = acc.get(k, 0) + sign * v


def withhold(st) -> Gang:
    """The application state as YuniKorn first knows it: the real asks the shim keeps back are
    not pending (marked taken, out of its pending resources and priority). Before the model adds
    the application to its queues."""
    g = Gang(st)
    for i in g.hidden:
        st.alloc[i] = True
        _add(st.pending, st.asks[i].resources, -1)
    _reset_pointers(st)
    return g


def _reset_pointers(st) -> None:
    n = len(st.asks)
    st.first = next((i for i in range(n) if not st.alloc[i]), n)
    st.live = next((i for i in range(n) if not st.alloc[i] and i not in st.dead), n)
    st.prio = st.asks[st.first].priority if st.first < n else INT32_MIN


class Event(NamedTuple):
    """A non-allocation entry of the run: before allocation `step`, `kind` placeholdersReleased
    or timeout, with its body (the corpus's format)."""

    step: int
    kind: str
    body: dict


class GangRun:
    """The reference engine's gang hooks (reference.ReferenceRun calls them): replacement, the
    walk's skip, what the shim does after each cycle, virtual time and the timers."""

    def __init__(self, run):
        self.run = run
        self.eng = run.eng
        self.gangs: dict = self.eng.gangs  # id(st) -> Gang
        self.now = 0.0
        self.horizon = self.eng.snapshot.horizon or 0.0
        self.started = 0  # timers started so far (their firing order)
        self.unconfirmed: list = []  # (Gang, Held) released, freed when the shim confirms
        self.freed = False  # a replacement gave room back (the asks set aside are tried again)
        self.events = self.eng.gang_events
        self.active: dict = {}  # id(Gang) -> Gang: real pods handed over and placeholders held (replacement's)
        self.dirty: dict = {id(g): g for g in self.gangs.values()}  # gangs whose held grew: complete now?
        for g in self.gangs.values():  # a snapshot's running placeholders start their timers at 0, in file order
            if g.held:
                self._start_timer(g)
            self._touch(g)

    # -- the normal walk
    def waits(self, st, i: int) -> bool:
        g = self.gangs.get(id(st))
        return g is not None and g.waits(i)

    def hand_over_tie(self, st, i: int):
        """The tie of the walk taking ask i of st when it is a placeholder: the application's
        other pending placeholders of the same priority and create time (every placeholder of a
        gang shares both), which YuniKorn tries in the order the shim handed them over, a Go
        map's (the README's variesWithMapOrder): another order could have taken one of them, of
        the same group (another id) or of another (another group first). Those before i in the
        application's order were tried and failed: a first try would fail them too. Up to four
        named with i, and whether there were more; None: no tie."""
        g = self.gangs.get(id(st))
        asks = st.asks
        if g is None or not asks[i].placeholder:
            return None
        order = self.run.order[id(st)]
        if g.order_pos is None:
            g.order_pos = {k: j for j, k in enumerate(order)}
        key = (asks[i].priority, asks[i].create_time)
        alloc, dead = st.alloc, st.dead
        others: list = []
        for j in range(g.order_pos[i] + 1, len(order)):
            k = order[j]
            a = asks[k]
            if not a.placeholder or (a.priority, a.create_time) != key:
                break  # (the order is by priority and create time: the same key sits together)
            if alloc[k] or k in dead:
                continue
            others.append(a.id)
            if len(others) > 4:
                break
        if not others:
            return None
        return TieNote(HAND_OVER, [asks[i].id, *others[:4]], len(others) > 4)

    # -- (2) placeholder replacement (Queue.TryPlaceholderAllocate)
    def replace(self):
        """The first real ask, walking the sorted queues and applications, that takes one of its
        group's allocated placeholders; placeholders smaller than a real ask in some type are
        released on the way. Returns (st, ask index, Held, node, tie) or None (_replace_in)."""
        active = self.active
        if not active:
            return None
        gangs, order = self.gangs, self.run.app_order
        leaves = {id(g.st.leaf): g.st.leaf for g in active.values()}
        if len(leaves) == 1:  # one leaf can replace: no queue order to decide (the common case: one gang at a time)
            (leaf,) = leaves.values()
            if any(q.stopped for q in path_to_root(leaf)):
                return None
            for e in order[id(leaf)]:
                g = gangs.get(id(e[3]))
                if g is not None and id(g) in active:
                    got = self._replace_in(g)
                    if got is not None:
                        return got
            return None
        on_path = {id(q) for leaf in leaves.values() for q in path_to_root(leaf)}  # the only queues that can replace

        def walk(q):
            if q.stopped:
                return None
            if q.leaf:
                for e in order[id(q)]:  # sort_applications' order (the run keeps it): pending applications only
                    g = gangs.get(id(e[3]))
                    if g is not None and id(g) in active:
                        got = self._replace_in(g)
                        if got is not None:
                            return got
                return None
            for c in sort_queues(q, release=self.run.release):
                if id(c) in on_path:
                    got = walk(c)
                    if got is not None:
                        return got
            return None

        return walk(self.eng.root)

    def _replace_in(self, g: Gang):
        """Application.tryPlaceholderAllocate: for each pending real ask of a task group (in the
        application's order), the group's allocated placeholders in id order; one smaller than
        the ask in some type is released, the first the ask fits whose node the shim's predicates
        admit it on (preReserveConditions) is taken. When none passes, the first fitting pair
        (phFit, reqFit) is placed on the first node in order with room that admits the ask (the
        placeholder is released all the same). Returns (st, ask index, Held, node, tie) or None;
        `tie` names the other placeholders the ask could have taken (a Go map in YuniKorn)."""
        st = g.st
        cluster = self.run.cluster
        released: dict = {}
        got = None
        first = None  # phFit, reqFit
        order = self.run.order[id(st)]
        asks, alloc = st.asks, st.alloc
        c = g.cursor  # the asks before it are taken, placeholders or without task group: never tried again
        while c < len(order) and (alloc[order[c]] or asks[order[c]].placeholder or not asks[order[c]].task_group):
            c += 1
        g.cursor = c
        for j in range(c, len(order)):
            i = order[j]
            a = asks[i]
            if a.placeholder or not a.task_group or alloc[i]:
                continue
            ok = cluster.admits(a) if cluster is not None else None
            held = g.held  # getPlaceholderAllocations: a map, by id here (Gang.hold keeps them so)
            for k, h in enumerate(held):
                if h.id in g.released or h.group != a.task_group:
                    continue
                if _larger(a.resources, h.resources):
                    g.released.add(h.id)  # "cancel placeholder: resource incompatible"
                    self.unconfirmed.append((g, h))
                    released.setdefault(h.group, []).append(h.id)
                    continue
                if first is None:
                    first = (i, h)
                node = cluster.by_name.get(h.node) if cluster is not None else None
                if cluster is not None and (node is None or not _admitted(ok, node)):
                    continue  # the predicates refuse the ask on the placeholder's node
                others = []  # the other placeholders it could take (up to five: the tie names four and says more)
                for x in islice(held, k + 1, None):  # (a group's placeholders share its minResource: `is` answers _larger for most)
                    if x.id not in g.released and x.group == a.task_group \
                            and (x.resources is h.resources or not _larger(a.resources, x.resources)) \
                            and (cluster is None or (x.node in cluster.by_name and _admitted(ok, cluster.by_name[x.node]))):
                        others.append(x.id)
                        if len(others) > 4:
                            break
                got = (st, i, h, node, others)
                break
            if got is not None:
                break
        if got is None and first is not None and cluster is not None:
            i, h = first
            a = st.asks[i]
            if strictly_positive(a.resources):
                node = cluster.first_with_room(a.resources, cluster.admits(a))
                if node is not None:
                    got = (st, i, h, node, [])
        for group, ids in released.items():
            self.events.append(Event(self.run.steps_done + 1, "placeholdersReleased",
                                     {"application": st.app_id, "queue": st.leaf.path, "taskGroup": group,
                                      "placeholders": sorted(ids)}))
        if got is None:
            return None
        st, i, h, node, others = got
        tie = (TieNote("placeholders", [h.id, *others[:4]], len(others) > 4),) if others else ()
        return st, i, h, node, tie

    def same_place(self, st, i: int, h: Held, node) -> bool:
        """Whether real ask i takes placeholder h's place exactly: the very same resources (type
        for type) on h's node. Then the run allocates it in place (ReferenceRun._allocate's
        in_place) and replaced() frees nothing: the usage it would add and take off again is
        left as it is (the commonest replacement: a pod of its group's minResource). Whole
        numbers only: adding and taking off a float may not give the value back."""
        res = st.asks[i].resources
        return (res == h.resources and (node.name == h.node if node is not None else self.run.cluster is None)
                and all(type(v) is int for v in res.values()))

    def replaced(self, st, i: int, h: Held, in_place: bool = False) -> None:
        """The shim deleted the placeholder and confirmed: YuniKorn swaps it for the real
        allocation on its node (Application.ReplaceAllocation); what the placeholder held beyond
        the real ask goes back to the node and the queues. `in_place` (same_place): the real
        allocation took over the placeholder's usage, nothing goes back."""
        g = self.gangs[id(st)]
        g.drop(h)
        self._touch(g)
        g.replaced[h.group] = g.replaced.get(h.group, 0) + 1
        self._free(g, h, in_place)
        _add(g.allocated, h.resources, -1)
        real = st.asks[i].resources
        node = self.eng.step_nodes.get(self.run.steps_done)
        if node is not None and node != h.node:
            # the predicates refused the placeholder's node: the real pod runs elsewhere, and the
            # placeholder's node gets its room back (PartitionContext.removeAllocation)
            self.eng.gang_moved[self.run.steps_done] = h.node
            self.freed = True
        elif _larger(h.resources, real):
            self.freed = True  # the placeholder held more than the real pod: room for others from the next cycle
        self.eng.gang_steps[self.run.steps_done] = (False, st.asks[i].task_group, h.id)
        g.state = "Running"
        self._maybe_stop_timer(g)

    # -- preemption
    def preempted(self, st, alloc_id: str) -> None:
        """A victim of preemption left (its resources are already freed): when it is one of the
        gang's held placeholders, the gang no longer holds it and it counts as timed out
        (removeAllocationInternal: every placeholder removal but a replacement is), so a real pod
        of its group can no longer wait for it; the shim makes no placeholder again."""
        g = self.gangs.get(id(st))
        if g is None:
            return
        h = next((x for x in g.held if x.id == alloc_id), None)
        if h is None:
            return
        g.drop(h)
        self._touch(g)
        g.released.discard(h.id)
        g.timed_out[h.group] = g.timed_out.get(h.group, 0) + 1
        _add(g.allocated, h.resources, -1)
        self._maybe_stop_timer(g)

    def _forget_run(self, st, alloc_id: str) -> None:
        """A placeholder replaced or released is no victim any more (with preemption in the run)."""
        runs = self.run.runs
        for k, r in enumerate(runs):
            if r.app == st.app_id and r.id == alloc_id:
                del runs[k]
                self.run._kept_world = None
                return

    # -- allocations
    def allocated(self, st, i: int, node) -> None:
        """A normal allocation of step steps_done: a placeholder is held (its timer starts with
        the first), a real allocation makes the application Running."""
        g = self.gangs.get(id(st))
        if g is None:
            return
        a = st.asks[i]
        self.eng.gang_steps[self.run.steps_done] = (a.placeholder, a.task_group, "")
        if not a.placeholder:
            g.state = "Running"
            return
        g.hold(Held(a.id, a.task_group, node.name if node is not None else "", a.resources, i))
        self._touch(g)
        if not g.sent:
            self.dirty[id(g)] = g
        _add(g.allocated, a.resources)
        if len(g.held) == 1 and g.timer_start is None:
            self._start_timer(g)
        if self._complete(g):  # every placeholder allocated (allocatedPlaceholder = PlaceholderAsk)
            g.state = "Running"

    def _complete(self, g) -> bool:
        """Every placeholder of the gang allocated: its allocated placeholders equal its request."""
        return _same(g.allocated, g.request)

    def reserved(self, st) -> None:
        """A node was reserved for an ask of an Accepted gang application: the queue counts it as
        running from now on (Queue.setAllocatingAccepted, which every result of an Accepted
        application sets, reservations included: canRunApp then lets it through)."""
        if id(st) in self.gangs and not st.running:
            st.running = True
            for q in path_to_root(st.leaf):
                q.running += 1

    # -- the shim after each cycle
    def react(self) -> bool:
        """The shim's reactions to the cycle that just ended: releases confirmed (their room is
        free from now on), the real pods of every gang now complete handed over. True when
        something changed."""
        changed = self._confirm() or self.freed
        self.freed = False
        if self.dirty:
            dirty, self.dirty = self.dirty, {}
            for g in dirty.values():  # (only a placeholder allocated can complete a gang)
                if not g.sent and g.state != "Failed" and g.complete():
                    self._hand_over(g)
                    changed = True
        if changed:
            self._revive()
        return changed

    def idle(self) -> bool:
        """Nothing changes any more: time jumps to the earliest timer due within the horizon and
        every timer due then fires, in the order they started; then the shim confirms. False
        when no timer is due: the run is over."""
        due = [g for g in self.gangs.values() if g.timer_start is not None]
        if not due:
            return False
        at = min(g.timer_start + g.timeout for g in due)
        if at > self.horizon:
            return False
        self.now = at
        for g in sorted((g for g in due if g.timer_start + g.timeout <= at), key=lambda g: g.timer_order):
            self._fire(g)
        self.react()
        self._revive()
        return True

    def _fire(self, g: Gang) -> None:
        """Application.timeoutPlaceholderProcessing."""
        st = g.st
        running = g.state == "Running"
        released = [h.id for h in g.held if h.id not in g.released]
        for h in g.held:
            if h.id not in g.released:
                g.released.add(h.id)
                self.unconfirmed.append((g, h))
        cancelled = []
        if not running:
            for i in g.pending_placeholders():
                cancelled.append(st.asks[i].id)
                self._cancel(g, i)
            if g.style == "Hard":
                g.state = "Failed"
            else:
                g.state = "Accepted"
        g.timer_start = None
        self.events.append(Event(self.run.steps_done + 1, "timeout",
                                 {"application": st.app_id, "queue": st.leaf.path, "style": g.style,
                                  "phase": "running" if running else "reserving", "at": _seconds(self.now),
                                  "released": sorted(released), "cancelled": sorted(cancelled)}))
        if not running:
            self._confirm()
            if g.style == "Hard":
                self._fail(g)
            else:
                self._hand_over(g)

    def _confirm(self) -> bool:
        if not self.unconfirmed:
            return False
        done, self.unconfirmed = self.unconfirmed, []
        for g, h in done:
            if h not in g.held:
                continue
            g.drop(h)
            self._touch(g)
            g.released.discard(h.id)
            g.timed_out[h.group] = g.timed_out.get(h.group, 0) + 1
            self._free(g, h)
            _add(g.allocated, h.resources, -1)
            self._maybe_stop_timer(g)
        return True

    def _free(self, g: Gang, h: Held, in_place: bool = False) -> None:
        """A placeholder's resources leave its node, its queues, its application and its user
        (`in_place`: a real allocation of the same resources on its node took them over, only
        the user's change hands, as before)."""
        run, st, res = self.run, g.st, h.resources
        if run.preempting:
            self._forget_run(st, h.id)
        if not in_place:
            if run.cluster is not None:
                node = run.cluster.by_name.get(h.node)
                if node is not None:
                    run.cluster.change(node, res, -1)
            for q in path_to_root(st.leaf):
                _add(q.allocated, res, -1)
            _add(st.usage, res, -1)
        if run.ugm is not None:  # with nothing allocated any more the application stops counting (hasZeroAllocations)
            run.ugm.remove(st.app_id, st.leaf.path, user_of(st), groups_of(st), res, not any(st.usage.values()))
        if not in_place:  # (in place: its usage, hence its key, is what _allocate placed it by)
            run._place_app(st, st.prio)

    def _cancel(self, g: Gang, i: int) -> None:
        """A pending placeholder ask removed (a timeout): out of the pending resources, set aside."""
        st = g.st
        g.cancelled.add(i)
        g.timed_out[st.asks[i].task_group] = g.timed_out.get(st.asks[i].task_group, 0) + 1
        self._take_out(st, i, f"placeholder cancelled by the placeholder timeout of gang {st.app_id}")

    def _take_out(self, st, i: int, reason: str) -> None:
        old = st.prio
        self.run._unreserve(st, i)  # a node it reserved is free again
        if not st.alloc[i]:
            st.alloc[i] = True
            for q in path_to_root(st.leaf):
                _add(q.pending, st.asks[i].resources, -1)
            _add(st.pending, st.asks[i].resources, -1)
            if i not in st.dead:
                for q in path_to_root(st.leaf):
                    q.live -= 1
        if not st.dead:
            st.dead = {}
        st.dead[i] = reason
        _reset_pointers(st)
        self._priorities(st, old)

    def _hand_over(self, g: Gang) -> None:
        """The shim hands the real asks over, all at once, in file order."""
        st = g.st
        old = st.prio
        g.sent = True
        g.sent_after = (self.run.steps_done, self.now)
        for i in sorted(g.hidden):
            st.alloc[i] = False
            for q in path_to_root(st.leaf):
                _add(q.pending, st.asks[i].resources)
                q.live += 1
            _add(st.pending, st.asks[i].resources)
        g.hidden = set()
        g.cursor = 0  # the asks handed over are pending again
        self._touch(g)
        _reset_pointers(st)
        self._priorities(st, old)

    def _fail(self, g: Gang) -> None:
        """Hard: the shim fails the application; it stops counting as running."""
        st = g.st
        if st.running and not any(st.usage.values()):
            st.running = False
            for q in path_to_root(st.leaf):
                q.running -= 1

    def _priorities(self, st, old: int) -> None:
        """st's pending asks changed outside a step: its place in the leaf and the priorities on
        its path, silently (no step's changes carry them)."""
        self.run._place_app(st, old)
        for q in path_to_root(st.leaf):
            q.reported = self.run._leaf_priority(q) if q.leaf else current_priority(q)

    def _revive(self) -> None:
        """Room was freed or asks came in: the asks the run set aside for want of room or headroom
        are tried again (without gangs nothing is ever released, so it never does this)."""
        for st in self.eng.apps:
            st.blocked = None
            if not st.dead:
                continue
            g = self.gangs.get(id(st))
            keep = {i: why for i, why in st.dead.items()
                    if st.alloc[i] or why.startswith("larger than every node") or (g is not None and i in g.cancelled)}
            if len(keep) == len(st.dead):
                continue
            for i in st.dead:
                if i not in keep:
                    for q in path_to_root(st.leaf):
                        q.live += 1
            st.dead = keep
            _reset_pointers(st)

    def _touch(self, g: Gang) -> None:
        """g's held placeholders or its hand-over changed: whether replacement looks at it."""
        if g.held and not g.hidden:
            self.active[id(g)] = g
        else:
            self.active.pop(id(g), None)

    # -- timers
    def _start_timer(self, g: Gang) -> None:
        g.timer_start = self.now
        self.started += 1
        g.timer_order = self.started

    def _maybe_stop_timer(self, g: Gang) -> None:
        if not g.held:
            g.timer_start = None

    # -- the end
    def finish(self) -> None:
        """The asks left: real asks the shim never handed over, pending placeholders, with why."""
        for g in self.gangs.values():
            st = g.st
            stopped = any(q.stopped for q in path_to_root(st.leaf))  # (leftovers: QueueStopped)
            for i in g.pending_placeholders():  # first: the held real pods' reason reads theirs
                if i not in st.dead and not stopped:
                    st.dead = st.dead or {}
                    st.dead[i] = never_tried_reason(g, i)
            for i in sorted(g.hidden):
                why = (f"gang {st.app_id} failed (Hard placeholder timeout): the shim never hands its pods over"
                       if g.state == "Failed" else waiting_reason(g))
                st.dead = st.dead or {}
                st.dead[i] = why
            if g.sent and g.held and self.run.cluster is not None:
                # handed over, waiting to replace, and never did: the predicates admit it on none
                # of its placeholders' nodes and on no node with room (tryPlaceholderAllocate)
                from prio.yunikorn.reference import no_room_reason

                for i in g.real:
                    if not st.alloc[i] and (not st.dead or i not in st.dead) and g.waits(i):
                        st.dead = st.dead or {}
                        st.dead[i] = no_room_reason(self.run.cluster, st, st.asks[i], None)
            _reset_pointers(st)



def summary(eng) -> list:
    """The corpus's `gangs`: one entry per accepted gang application, by id: YuniKorn's state,
    whether the real pods were handed over, the placeholders never allocated and those held at
    the end, and when the placeholder timer would fire (None: none runs)."""
    out = []
    for g in sorted(eng.gangs.values(), key=lambda g: g.st.app_id):
        st = g.st
        out.append({"application": st.app_id, "state": g.state, "realAsksSent": g.sent,
                    "placeholdersPending": sorted(st.asks[i].id for i in g.pending_placeholders()),
                    "placeholdersHeld": sorted(h.id for h in g.held),
                    "timeoutAt": None if g.timer_start is None else _seconds(g.timer_start + g.timeout)})
    return out


def placeholder_ids(eng) -> set:
    """(application, ask) of every placeholder ask of the run."""
    return {(g.st.app_id, g.st.asks[i].id) for g in eng.gangs.values() for i in g.placeholders}


def _seconds(t: float):
    return int(t) if t == int(t) else t


def never_tried_reason(g: Gang, i: int) -> str:
    """Why placeholder ask i of a gang was never allocated when the run never tried it (nothing
    set it aside): the gang waits for it; YuniKorn tries no ask of an application with nothing
    pending (sortApplications' filterOnPendingResources), so placeholders whose minResource is
    zero in every type are never allocated and the gang never completes. The words open as
    waiting_reason's, so that reasons.py reads GangIncomplete."""
    st = g.st
    a = st.asks[i]
    tg = g.groups[a.task_group]  # (with_placeholders makes placeholders of its groups only)
    return (f"gang {st.app_id} waits: {g.have.get(a.task_group, 0)} of {tg.min_member} {a.task_group} placeholders "
            f"allocated; {a.id} {_never_tried(a)}")


def _never_tried(a) -> str:
    from prio.yunikorn.quantity import show_quantity

    if not strictly_positive(a.resources):
        res = ", ".join(f"{k} {show_quantity(k, v)}" for k, v in a.resources.items()) or "nothing"
        return (f"asks for {res}: YuniKorn allocates no such ask (an application with nothing pending is not tried: "
                "filterOnPendingResources), so the gang never completes")
    return "was never tried: nothing more was placed"


def waiting_reason(g: Gang) -> str:
    """Why a gang's real pods were not handed over: the first task group short of placeholders,
    and why its next placeholder waits (the reason the run gave it)."""
    from prio.yunikorn.quantity import show_quantity

    st = g.st
    for name, tg in g.groups.items():
        have = g.have.get(name, 0)
        if have >= tg.min_member:
            continue
        out = f"gang {st.app_id} waits: {have} of {tg.min_member} {name} placeholders allocated"
        nxt = next((i for i in g.pending_placeholders() if st.asks[i].task_group == name), None)
        if nxt is not None:
            need = ", ".join(f"{k} {show_quantity(k, v)}" for k, v in st.asks[nxt].resources.items())
            why = st.dead.get(nxt) if st.dead else None
            if why is not None and why == never_tried_reason(g, nxt):
                why = _never_tried(st.asks[nxt])  # (its reason says what this one does: the cause alone)
            out += f"; the next ({st.asks[nxt].id}) needs {need}" + (f": {why}" if why else "")
        return out
    return f"gang {st.app_id} waits for its placeholders"


def explain_lines(eng, app_id: str, ask_id: str, step: int) -> tuple[list, bool]:
    """What explain --why-ask adds for a placed ask of a gang application: the placeholder it took
    the place of (then the answer is complete: replacement runs before the normal walk, so no
    queue or application order decided it), or when the shim handed its pods over. Returns
    (lines, whether the answer is complete). Call after the run."""
    g = next((x for x in eng.gangs.values() if x.st.app_id == app_id), None)
    if g is None:
        return [], False
    fields = eng.gang_steps.get(step)
    if fields is None:
        return [], False
    placeholder, group, replaces = fields
    if placeholder:
        return [f"It is a placeholder of gang {app_id} (task group {group}): the shim creates minMember of them, "
                "and hands the real pods over once every task group has its placeholders."], False
    out = []
    if g.sent_after is not None:
        n, t = g.sent_after
        out.append(f"Gang {app_id}'s real pods were handed over after step {n}" + (f" (at {_seconds(t)} s, after its placeholder timeout)" if t else "")
                   + (": every task group had its placeholders." if not t else "."))
    if replaces:
        node = eng.step_nodes.get(step, "")
        moved = eng.gang_moved.get(step)
        where = (f"; the shim's predicates refuse it on {moved}, the placeholder's node, so it runs on {node}, the first node "
                 "in order with room that admits it" if moved else f" on {node}")
        out.append(f"It takes the place of placeholder {replaces} (task group {group}){where}: YuniKorn tries placeholder "
                   "replacement before the normal walk in every cycle, so no queue or application order decided this step.")
        return out, True
    return out, False
