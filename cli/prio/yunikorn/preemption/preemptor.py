"""The Preemptor (preemption.go) for one ask: the queue guarantee check, the victims node by
node (calculateVictimsByNode), the best node, the victims on other nodes the ask's queue still
needs (calculateAdditionalVictims), and the final set."""
from __future__ import annotations

from prio.yunikorn import resources
from prio.yunikorn.preemption.candidates import CandidateSearch
from prio.yunikorn.preemption.guarantee import QueueSnapshot, ask_queue_under_guaranteed, duplicate_all, victim_queue_over_guaranteed
from prio.yunikorn.preemption.ordering import (
    SCORE_FIT_MAX,
    SCORE_UNFIT,
    additional_key,
    additional_order_key,
    score,
    victim_key,
    victim_order_key,
)
from prio.yunikorn.preemption.result import GUARANTEE_FAILED, SHORTFALL
from prio.yunikorn.preemption.world import Run, World
from prio.yunikorn.snapshot import Ask

_BATCH = 10  # preemptCheckConcurrency


class Preemptor:
    def __init__(self, world: World, leaf, ask: Ask, nodes_tried: bool):
        self.w, self.leaf, self.ask, self.nodes_tried = world, leaf, ask, nodes_tried
        self.res = ask.resources
        self.path = leaf.path
        self.log: list = []
        self.cancelled: list = []
        self.tied = False  # whether Go's map order chose among the victims (try_preemption)
        self.search = CandidateSearch(world, leaf, ask)
        self.snaps = self.search.run()
        self.by_alloc: dict = {}
        for path in sorted(self.snaps):
            for v in self.snaps[path].victims:
                self.by_alloc[v] = path

    def all_victims(self) -> list:
        return [v for path in sorted(self.snaps) for v in self.snaps[path].victims]

    def check_guarantees(self) -> bool:
        queues = duplicate_all(self.snaps)
        current = queues.get(self.path)
        if current is None:
            return False
        wise = self.w.release.resource_wise_preemption  # before 1.8 (YUNIKORN-3113): every type counts
        old = current.remaining_guaranteed()
        if wise and old is not None and resources.fit_in(old, self.res, True, True):
            return True
        current.add(self.res)
        for path in sorted(queues):
            snap = queues[path]
            for v in snap.victims:
                snap.remove(v.res)
                remaining = current.remaining_guaranteed()
                if remaining is not None and (ask_queue_under_guaranteed(self.res, remaining) if wise
                                              else resources.strictly_greater_or_equal(remaining, {})):
                    return True
        return False

    def init_working_state(self):
        by_node: dict = {}
        for v in self.all_victims():
            by_node.setdefault(v.alloc.node, []).append(v)
        avail: dict = {}
        self.cancelled = []  # nodes whose lower-priority reservation YuniKorn cancels here
        for n in self.w.sorted_nodes():
            held = self.w.reservations.get(n)
            if held is not None:
                priority, triggered = held
                if not triggered and priority < self.ask.priority and self.w.release.cancels_reservations:
                    self.cancelled.append(n)  # waited past reservationWaitTimeout: cancelled
                    held = None
            # a node reserved for another ask, an unschedulable one (cordoned: its reservations
            # above are still cancelled, as initWorkingState does before it looks at the state)
            # or one too small, or one the pod's node predicates refuse: no victim there
            if held is not None or not self.w.schedulable(n) or not resources.fit_in(self.w.nodes[n], self.res) \
                    or not self.w.admits(self.ask, n):
                by_node.pop(n, None)
            else:
                avail[n] = self.w.available(n)
        for n in by_node:
            by_node[n].sort(key=lambda r: victim_order_key(r, self.w.tie_by_application))
        self.by_node, self.avail = by_node, avail

    def _keeps_over_guarantee(self, snap: QueueSnapshot, victim: Run) -> bool:
        """Remove the victim from its queue's snapshot; True when that is allowed (the queue was
        over its guarantee before this task), else the task is put back."""
        remaining = snap.remaining_guaranteed()
        snap.remove(victim.res)
        pre = snap.preemptable()
        if resources.strictly_greater_or_equal(pre, {}) and (remaining is None or self._over_guarantee(remaining)):
            return True
        snap.add(victim.res)
        return False

    def _over_guarantee(self, remaining: dict) -> bool:
        """A victim's queue over its guarantee: in a type the ask asks for (isVictimQueueOver
        Guaranteed), or before 1.8 in every type (StrictlyGreaterThan(Zero, remaining))."""
        if self.w.release.resource_wise_preemption:
            return victim_queue_over_guaranteed(self.res, remaining)
        return resources.strictly_greater({}, remaining)

    def _taken(self, snaps: dict, ask_q: QueueSnapshot, potential: list):
        """YuniKorn's victim loops (calculateVictimsByNode, calculateAdditionalVictims), the part
        they share: for each task of `potential` in turn, skip it when its queue is unknown or would
        drop under its guarantee; stop when it no longer fits what is left of the ask queue's
        guarantee; else move it over to the ask's queue and yield (the task, its queue snapshot,
        the ask queue's remaining guarantee before it). Lazy: the caller's loop body runs between
        two tasks, and may move one back."""
        for v in potential:
            qv = self.by_alloc.get(v)
            snap = snaps.get(qv) if qv is not None else None
            if snap is None or not self._keeps_over_guarantee(snap, v):
                continue
            ask_rem = ask_q.remaining_guaranteed()
            if self.w.release.resource_wise_preemption:
                if ask_rem is None or not resources.fit_in(ask_rem, v.res, True, True):
                    snap.add(v.res)
                    return
                ask_q.add(v.res)
            else:  # before 1.8: taken, then given back when the ask queue is over its guarantee in every type
                ask_q.add(v.res)
                new_rem = ask_q.remaining_guaranteed()
                if new_rem is not None and resources.strictly_greater({}, new_rem):
                    ask_q.remove(v.res)
                    snap.add(v.res)
                    return
            yield v, snap, ask_rem

    def victims_by_node(self, available: dict, potential: list):
        current = dict(available)
        if resources.fit_in(current, self.res):
            return -1, []
        snaps = duplicate_all(self.snaps)
        ask_q = snaps.get(self.path)
        if ask_q is None:
            return -1, None
        head, tail = [], []
        for v, snap, _ in self._taken(snaps, ask_q, potential):
            shortfall = resources.sub_eliminate_negative(self.res, current)
            new_short = resources.sub_eliminate_negative(self.res, resources.add(current, v.res))
            if resources.equals_or_empty(shortfall, new_short):
                ask_q.remove(v.res)
                snap.add(v.res)
                tail.append(v)
            else:
                resources.add_to(current, v.res)
                head.append(v)
        head += tail
        if not head:
            return -1, None
        current = dict(available)
        snaps = duplicate_all(self.snaps)
        results: list = []
        index = -1
        for v in head:
            qv = self.by_alloc.get(v)
            snap = snaps.get(qv) if qv is not None else None
            if snap is None:
                continue
            if not self._keeps_over_guarantee(snap, v):
                continue
            resources.add_to(current, v.res)
            if resources.fit_in(current, self.res) and index < 0:
                index = len(results)
            results.append(v)
        if index < 0:
            return -1, None
        return index, results

    def _solution_score(self, node: str, index: int) -> int:
        allocs = self.by_node.get(node)
        if allocs is None:
            return SCORE_UNFIT
        if index < 0:
            return 0
        if index >= len(allocs):
            return SCORE_UNFIT
        s = 0
        for a in allocs[: index + 1]:
            s |= score(a)
        return s + index + 1

    def try_nodes(self):
        checks = []
        victims_by_node = {}
        for n, avail in self.avail.items():
            idx, victims = self.victims_by_node(avail, self.by_node.get(n, []))
            if victims is None:
                continue
            victims_by_node[n] = victims
            if victims or not self.nodes_tried:
                checks.append((idx, n))
        if not checks:
            return None, None
        checks.sort()
        if not self.w.predicate_plugin:
            # checkPreemptionPredicates without a resource manager plugin: "assume checks will
            # succeed", the first check by start index, then node name
            idx, n = checks[0]
            vl = victims_by_node[n]
            return (None, None) if idx >= len(vl) else (n, vl[: idx + 1])
        best = None
        for i in range(0, len(checks), _BATCH):
            for idx, n in checks[i:i + _BATCH]:
                if best is None or self._solution_score(n, idx) < self._solution_score(best[1], best[0]):
                    best = (idx, n)
            assert best is not None  # (checks is not empty: the batch set it)
            if self._solution_score(best[1], best[0]) < SCORE_FIT_MAX:
                break
        assert best is not None  # (as above)
        idx, n = best
        vl = victims_by_node[n]
        if idx >= len(vl):
            return None, None
        return n, vl[: idx + 1]

    def additional_victims(self, node_victims: list):
        snaps = duplicate_all(self.snaps)
        ask_q = snaps.get(self.path)
        if ask_q is None:
            return None, False
        seen = set()
        for v in node_victims:
            qv = self.by_alloc.get(v)
            if qv is not None and qv in snaps:
                snaps[qv].remove(v.res)
                seen.add(v)
        potential = [v for v in self.all_victims() if v not in seen]
        potential.sort(key=lambda r: additional_order_key(r, self.w.tie_by_application))
        victims = []
        for v, snap, ask_rem in self._taken(snaps, ask_q, potential):
            new_rem = ask_q.remaining_guaranteed()
            if not resources.equals_or_empty(ask_rem, new_rem):
                victims.append(v)
            else:
                ask_q.remove(v.res)
                snap.add(v.res)
        final = ask_q.remaining_guaranteed()
        if not self.w.release.resource_wise_preemption:  # before 1.8: the ask queue within its guarantee in every type
            return (victims, True) if final is not None and resources.strictly_greater_or_equal(final, {}) else (None, False)
        if victims:
            return victims, final is not None and ask_queue_under_guaranteed(self.res, final)
        return None, True

    def try_preemption(self):
        """TryPreemption: (node, victims) or (None, None) with the log telling why."""
        if not self.check_guarantees():
            self.log.append(GUARANTEE_FAILED)
            return None, None
        self.init_working_state()
        node, victims = self.try_nodes()
        if node is None:
            return None, None
        extra, ok = self.additional_victims(victims)
        if not ok:
            return None, None
        victims = victims + (extra or [])
        if not victims:
            return None, None
        fit = resources.fit_in(self.avail[node], self.res)
        final: list = []
        total: dict = {}
        for v in victims:
            if not fit and v.alloc.node != node:
                continue
            if resources.strictly_only_existing(self.res, total, False):
                final.append(v)
            resources.add_to(total, v.res)
        if resources.strictly_only_existing(self.res, total, False):
            self.log.append(SHORTFALL)
            return None, None
        self.tied = self._tied(final)
        return node, final

    def _tied(self, final: list) -> bool:
        """Whether Go's map order chose among the victims: a task taken ties on YuniKorn's keys
        with another candidate (of any application)."""
        for v in final:
            for u in self.all_victims():
                if u is not v and (victim_key(u) == victim_key(v) or additional_key(u) == additional_key(v)):
                    return True  # left in its place, or taken in an order the map decided
        return False

