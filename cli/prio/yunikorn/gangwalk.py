"""Gangs on the fast engine's walk, for the part of a gang run the walk can prove; the rest is
the reference engine's, from scratch. Pure: no I/O.

The walk (engine.Engine._step_cluster) relies on two things a gang run can break: nothing placed
is ever given back, and an ask set aside never comes back. A gang run keeps both as long as:

- every replacement is in place (gangs.GangRun.same_place: the real pod has its placeholder's
  very resources and takes its node): the placeholder's usage passes to it, nothing is freed;
- no placeholder is released (a real pod larger than its group's minResource) and no timer
  fires (the replay idles with a timer due within the horizon);
- when the shim hands a gang's real pods over (the only other moment the reference tries again
  what it set aside, GangRun._revive), nothing was set aside that could come back: no ask set
  aside for want of room, headroom or a start, no application blocked, no by-key parent's
  hidden key (engine.Engine._hidden);
- at most one gang replaces at a time (then no queue or application order decides which).

Then a placeholder is an ordinary ask of the walk, each replacement a step that takes pending
off the path and changes no usage, and the shim's hand-over adds the real asks' pending to the
path and re-keys it (as a step re-keys its path). What the walk cannot do raises Bail, and the
engine runs the whole input again on the reference engine from the input (Engine._from_scratch):
the output is the reference's either way. The gang bookkeeping (which placeholders are held,
the hand-over, the counts canReplace reads, the state, the timers, the step records and the
summary) is gangs.GangRun's own, run on the walk's state (WalkGangs overrides what differs).

Statically (ready): the input uses nothing beyond SUPPORTS, it has nodes (the walk's step with
nodes), and every gang
reserves (no real pod running, no running placeholder) with exactly minMember placeholders per
group (no pending placeholder listed beyond them). tests/yunikorn/test_gang_properties.py holds
the run to the reference's on drawn gang inputs, those that bail out included.
"""
from __future__ import annotations

from itertools import islice

from prio.yunikorn import features as F
from prio.yunikorn import reference
from prio.yunikorn.gangs import GangRun, _add, _larger, _reset_pointers, _same
from prio.yunikorn.priorities import report_up
from prio.yunikorn.reference import path_to_root, sorted_requests
from prio.yunikorn.resources import strictly_positive
from prio.yunikorn.step import HAND_OVER, TieNote, run_steps

# What the gang walk supports: the walk's features (engine.WALK_SUPPORTS, named again here: the
# engine imports this module), and gangs.
SUPPORTS = frozenset({
    F.OFFSET, F.FENCE, F.FAIR_SORT, F.PRIORITY_SORT_OFF, F.CAPACITY, F.QUEUE_MAX, F.MAXAPPS, F.GUARANTEED,
    F.STOPPED, F.REST_USAGE, F.FAIR_MAX_MISALIGNED, F.SIBLINGS_OVER_20, F.RUNNING, F.TYPES, F.OTHER_TYPES,
    F.PARTIAL_ASKS, F.NOT_POSITIVE_ASKS, F.ZERO_FAIR_MAX, F.NODES, F.UNSCHEDULABLE_NODES, F.PREDICATES,
    F.USER_LIMITS, F.GANGS})

_KEPT = "larger than every node"  # a reason GangRun._revive keeps (with allocated and cancelled asks)


class Bail(Exception):
    """The run needs what the gang walk cannot do: the reference engine runs it from scratch."""


def ready(eng) -> bool:
    """Whether the gang walk may take the engine's input (before any step): nodes, a pristine
    tree to start again from, and every gang reserving with minMember placeholders per group."""
    if eng.cluster is None or eng.steps_done or eng._heaps_ready or getattr(eng, "_pristine", None) is None:
        return False
    for g in eng.gangs.values():
        if g.skip or g.held or any(g.count.get(name, 0) != tg.min_member for name, tg in g.groups.items()):
            return False
    return True


class _Hooks:
    """What gangs.GangRun reads of the run it serves (reference.ReferenceRun), from the walk."""

    preempting = False

    def __init__(self, eng):
        self.eng = eng
        self.cluster = eng.cluster
        self.ugm = eng.ugm
        self.release = eng.release
        self.runs: list = []
        # the walk tries an application's asks in st.asks order, which is sortedRequests' order
        self.order = {sid: list(range(len(g.st.asks))) for sid, g in eng.gangs.items()}
        if reference.CHECK_CACHES:
            for g in eng.gangs.values():
                assert sorted_requests(g.st) == self.order[id(g.st)], g.st.app_id

    @property
    def steps_done(self) -> int:
        return self.eng.steps_done

    def _place_app(self, st, old_prio: int) -> None:
        raise Bail("usage given back")  # (GangRun._free not in place: bailed out before)

    def _unreserve(self, st, i: int) -> None:
        raise Bail("an ask taken out")  # (a timeout's cancel: bailed out before)


class WalkGangs(GangRun):
    """gangs.GangRun on the walk's state: what the walk cannot follow raises Bail."""

    def __init__(self, eng):
        super().__init__(_Hooks(eng))
        self.aside: list = []  # (st, ask index, reason) of the asks the walk set aside since the last hand-over
        # id(st) -> st whose path the heaps have not been re-keyed for yet: a hand-over and
        # replacements change only pending and priorities, which nothing reads of the heaps
        # until the walk runs again (flush)
        self.stale: dict = {}
        # id(Gang) -> the number of its placeholders, where every group's minResource is whole
        # and positive in each type it names: its allocated placeholders then equal its request
        # exactly when all of them are allocated (allocated's shortcut of _same)
        self.whole: dict = {}
        for g in self.gangs.values():
            groups = g.groups.values()
            if all(type(v) is int and v > 0 for tg in groups for v in tg.min_resource.values()):
                self.whole[id(g)] = len(g.placeholders)

    def flush(self) -> None:
        """Re-key the heaps along the paths the hand-overs and replacements changed."""
        eng = self.eng
        for st in self.stale.values():
            leaf = st.leaf
            path = eng.path_of(leaf)
            for q in path:
                q.version += 1
            eng._rekey_path(st, leaf, path)
        self.stale.clear()

    # -- the shim's reactions
    def _revive(self) -> None:
        """The reference tries again what it set aside: a no-op only when nothing could come back."""
        eng = self.eng
        if eng._hidden:
            raise Bail("a by-key parent's hidden key")
        for st, i, why in self.aside:
            if not st.alloc[i] and not why.startswith(_KEPT):
                raise Bail("an ask set aside would come back")
        self.aside = []  # (allocated or larger than every node: so they stay)
        if any(st.blocked is not None for st in eng.apps):
            raise Bail("a blocked application would be tried again")

    def _priorities(self, st, old: int) -> None:
        """The hand-over changed st's pending asks outside a step: its priority up the path
        (the trackers, silently); the path is re-keyed in the heaps before the walk (flush)."""
        if st.prio != old:
            report_up(st.leaf, old, st.prio)
        self.stale[id(st)] = st

    def _hand_over(self, g) -> None:
        """GangRun._hand_over, the real asks' pending added to the path at once where every
        amount is whole (the same sums in any order)."""
        st = g.st
        hidden = sorted(g.hidden)
        total: dict = {}
        for i in hidden:
            for k, v in st.asks[i].resources.items():
                if type(v) is not int:
                    return super()._hand_over(g)
                total[k] = total.get(k, 0) + v
        if reference.CHECK_CACHES:  # the sums one ask at a time, as GangRun's
            each: dict = {}
            for i in hidden:
                _add(each, st.asks[i].resources)
            assert each == total and list(each) == list(total), st.app_id
        old = st.prio
        g.sent = True
        g.sent_after = (self.eng.steps_done, self.now)
        alloc = st.alloc
        for i in hidden:
            alloc[i] = False
        n = len(hidden)
        for q in path_to_root(st.leaf):
            _add(q.pending, total)
            q.live += n
        _add(st.pending, total)
        g.hidden = set()
        g.cursor = 0
        self._touch(g)
        _reset_pointers(st)
        self._priorities(st, old)

    def _confirm(self) -> bool:
        if self.unconfirmed:
            raise Bail("a placeholder released")
        return False

    def idle(self) -> bool:
        """Nothing more to place: a timer due within the horizon would fire (Bail); else over."""
        due = [g.timer_start + g.timeout for g in self.gangs.values() if g.timer_start is not None]
        if due and min(due) <= self.horizon:
            raise Bail("a placeholder timer fires")
        return False

    def _free(self, g, h, in_place: bool = False) -> None:
        if not in_place:
            raise Bail("a placeholder's room given back")
        super()._free(g, h, True)

    def preempted(self, st, alloc_id: str) -> None:  # (no preemption in the walk: never called)
        raise Bail("preemption")

    # -- the walk's steps
    def hand_over_tie(self, st, i: int):
        """GangRun.hand_over_tie, where an application's order is its asks' (_Hooks.order)."""
        g = self.gangs.get(id(st))
        if g is None:
            return None
        asks = st.asks
        a = asks[i]
        if not a.placeholder:
            return None
        prio, created = a.priority, a.create_time
        alloc, dead = st.alloc, st.dead
        others: list = []
        for k in range(i + 1, len(asks)):
            b = asks[k]
            if not b.placeholder or b.priority != prio or b.create_time != created:
                break
            if alloc[k] or k in dead:
                continue
            others.append(b.id)
            if len(others) > 4:
                break
        got = TieNote(HAND_OVER, [a.id, *others[:4]], len(others) > 4) if others else None
        if reference.CHECK_CACHES:
            assert got == GangRun.hand_over_tie(self, st, i), (st.app_id, a.id)
        return got

    def _complete(self, g) -> bool:
        """GangRun._complete, counted where it can be: where every group's minResource is whole,
        all placeholders allocated is the request allocated (`whole`)."""
        n = self.whole.get(id(g))
        full = (len(g.held) == n) if n is not None else _same(g.allocated, g.request)
        if reference.CHECK_CACHES:
            assert full == _same(g.allocated, g.request), g.st.app_id
        return full

    # -- replacement
    def replace(self):
        """GangRun.replace with one gang replacing (several: their queues' and applications'
        order decides, Bail). Releases raise Bail."""
        active = self.active
        if not active:
            return None
        if len(active) > 1:
            raise Bail("several gangs replace")
        (g,) = active.values()
        st = g.st
        if any(q.stopped for q in self.eng.path_of(st.leaf)) or not strictly_positive(st.pending):
            return None  # (no leaf order holds it: GangRun.replace would not try it)
        return self._replace_in(g)

    def _replace_in(self, g):
        """GangRun._replace_in without releases (Bail): a real ask takes the first of its
        group's placeholders, in id order, that it is not larger than and that the shim's
        predicates admit it on; where they admit it on none of them (YuniKorn would place it
        elsewhere), Bail."""
        st = g.st
        asks, alloc = st.asks, st.alloc
        n = len(asks)
        c = g.cursor
        while c < n and (alloc[c] or asks[c].placeholder or not asks[c].task_group):
            c += 1
        g.cursor = c
        held = g.held
        cluster = self.run.cluster
        by_name = cluster.by_name
        for i in range(c, n):
            a = asks[i]
            if a.placeholder or not a.task_group or alloc[i]:
                continue
            group, res = a.task_group, a.resources
            ok = cluster.admits(a)
            refused = False
            for k, h in enumerate(held):
                if h.group != group:
                    continue
                if _larger(res, h.resources):
                    raise Bail("a placeholder released")  # ("cancel placeholder: resource incompatible")
                node = by_name[h.node]
                if ok is not None and not ok[node.index]:
                    refused = True
                    continue  # (the predicates refuse the ask on the placeholder's node)
                others = []  # the other placeholders it could take (up to five: the tie names four and says more)
                for x in islice(held, k + 1, None):
                    if x.group == group and (x.resources is h.resources or not _larger(res, x.resources)) \
                            and (ok is None or ok[by_name[x.node].index]):
                        others.append(x.id)
                        if len(others) > 4:
                            break
                tie = (TieNote("placeholders", [h.id, *others[:4]], len(others) > 4),) if others else ()
                if reference.CHECK_CACHES:  # GangRun's own answer (it releases nothing where this one went on)
                    want = GangRun._replace_in(self, g)
                    assert want is not None and want[:4] == (st, i, h, node) and want[4] == tie and not self.unconfirmed, st.app_id
                return st, i, h, node, tie
            if refused:
                raise Bail("the predicates refuse a real pod on its placeholders' nodes")
        return None

    def replaced(self, st, i: int, h, in_place: bool = False) -> None:
        """GangRun.replaced for a replacement in place (step's): the placeholder is no longer
        held, counts as replaced; the user's usage changes hands (its share of _free)."""
        g = self.gangs[id(st)]
        g.drop(h)
        self._touch(g)
        g.replaced[h.group] = g.replaced.get(h.group, 0) + 1
        if self.run.ugm is not None:
            super()._free(g, h, True)
        _add(g.allocated, h.resources, -1)
        self.eng.gang_steps[self.eng.steps_done] = (False, st.asks[i].task_group, h.id)
        g.state = "Running"
        if not g.held:
            g.timer_start = None


def run(eng, limit: int | None, progress) -> list:
    """Engine.run() for a gang input ready() accepts; raises Bail (the engine's state is then
    spoilt: the caller starts again from scratch)."""
    gr = WalkGangs(eng)
    eng._gang_run = gr
    plain = eng._set_aside

    def set_aside(st, i: int, reason: str) -> None:
        gr.aside.append((st, i, reason))
        plain(st, i, reason)

    eng._set_aside = set_aside  # (an instance attribute: the walk's calls find it first)
    return steps(eng, gr, limit, progress)


def steps(eng, gr: WalkGangs, limit: int | None, progress) -> list:
    """step() until the run is over or `limit` steps; the heaps re-keyed at the end (flush)."""
    out = run_steps(lambda: step(eng, gr), limit, progress)
    gr.flush()
    return out


def step(eng, gr: WalkGangs):
    """One allocation as ReferenceRun.step with gangs has it: the shim's reactions, then
    replacement (in place), then the walk (its placeholder steps noted by GangRun's hooks in
    Engine._step_cluster); at the end the gangs' leftovers."""
    if not eng._heaps_ready:
        eng._build_heaps()
    gr.react()
    swap = gr.replace()
    if swap is not None:
        st, i, h, node, tie = swap
        if not gr.same_place(st, i, h, node):
            raise Bail("a replacement not in place")
        s = eng._replace_step(st, i, node, tie)
        gr.stale[id(st)] = st
        gr.replaced(st, i, h, True)
        return s
    if gr.stale:
        gr.flush()
    s = eng._step_cluster()
    if s is not None:
        return s
    if gr.react() or gr.idle():  # (react: nothing is left to hand over once the walk ran; idle bails)
        raise Bail("the run goes on after it stopped")
    gr.finish()
    return None
