"""`prio diff`: what changes between two configs (or two snapshots) on the same pending work (pure).

Each side is what one `prio simulate` run knows: the engine it built, the effective priorities
before the first step, the steps of its run, and (from the validate pipeline, passed in) its
findings. `compare` returns dataclasses; rendering and reading files are the edges' business.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prio.yunikorn import reasons
from prio.yunikorn.engine import MIN
from prio.yunikorn.preemption import quota

if TYPE_CHECKING:
    from prio.yunikorn.tree import QNode


def priorities(eng) -> dict:
    """queue path -> the effective priority it reports now (None: nothing pending). Call it
    before the run: these are the priorities `prio explain` shows."""
    return {q.path: (None if q.reported == MIN else q.reported) for q in eng.root.walk()}


def _res(r) -> dict | None:
    return dict(sorted(r.items())) if r else None


def queue_facts(eng) -> dict:
    """queue path -> what the config says of it, as YuniKorn built the tree."""
    out = {}
    for q in eng.root.walk():
        out[q.path] = {
            "offset": q.offset,
            "fence": q.fenced,
            "sortPriority": q.sort_priority,
            "sortPolicy": q.sort_policy if q.leaf else None,
            "max": _res(q.max),
            "guaranteed": _res(q.guaranteed),
            "maxApplications": q.maxapps or None,
            "leaf": q.leaf,
            "dynamic": q.dynamic,
        }
    return out


@dataclass
class Side:
    """One side of a diff: everything one simulate run (and one validate run) knows."""

    priorities: dict  # queue -> priority before scheduling
    steps: dict  # (application, ask) -> step
    queue_of: dict  # (application, ask) -> leaf queue path
    unscheduled: dict  # (application, ask) -> reasons.PendingAsk
    rejected: dict  # application -> (queue, reasons.Reason)
    facts: dict  # queue -> queue_facts entry
    ranges: dict = field(default_factory=dict)  # (queue, class) -> (min, max)
    findings: list = field(default_factory=list)  # Finding-like: .rule .path .message
    root: QNode | None = None  # the queue tree (quota preemption reads its maxes and delays)
    runs: list = field(default_factory=list)  # the running allocations (preemption.world.Run)
    quota_enabled: bool = False  # the partition's quotapreemptionenabled
    gangs: dict = field(default_factory=dict)  # application -> GangState of each accepted gang application
    placeholders: set = field(default_factory=set)  # (application, ask) of the run's placeholder asks
    release: object = None  # the YuniKorn release the side runs (releases.Release; None: the newest): whose quota preemptor
    pending: set | None = None  # the queues with pending requests below them (quota.pending_queues: v1.8.0's trigger)


@dataclass(frozen=True)
class GangState:
    """What a run leaves of one gang (gangs.summary): YuniKorn's application state, whether the
    shim handed the real pods over, and how many placeholders are held and never allocated."""

    state: str
    real_sent: bool
    held: int
    pending: int


def gang_states(eng) -> dict:
    if not getattr(eng, "gangs", None):
        return {}
    from prio.yunikorn.gangs import summary

    return {g["application"]: GangState(g["state"], g["realAsksSent"], len(g["placeholdersHeld"]), len(g["placeholdersPending"]))
            for g in summary(eng)}


def side(eng, before: dict, steps, findings=(), class_ranges=None, quota_enabled: bool = False) -> Side:
    """A side from an engine that has run `steps` (`before` = priorities(eng) taken before the
    run) plus the side's findings, its class ranges (classranges.class_ranges rows) and its
    partition's quotapreemptionenabled."""
    placed = {(s.application, s.ask): s.step for s in steps}
    queue_of = {(s.application, s.ask): s.queue for s in steps}
    un = {}
    for p in reasons.pending(eng):
        un[(p.application, p.ask)] = p
        queue_of.setdefault((p.application, p.ask), p.queue)
    rej = {a: (q, r) for a, q, r in reasons.rejected_apps(eng)}
    ranges = {(r["queue"], r["class"]): (r["min"], r["max"]) for r in class_ranges or ()}
    runs = quota.runs_of(eng.root, eng.snapshot, skip={r.application for r in eng.rejected})
    from prio.yunikorn.gangs import placeholder_ids

    return Side(before, placed, queue_of, un, rej, queue_facts(eng), ranges, list(findings), eng.root, runs, quota_enabled,
                gang_states(eng), placeholder_ids(eng) if getattr(eng, "gangs", None) else set(),
                getattr(eng, "release", None), quota.pending_queues(eng.apps))


@dataclass(frozen=True)
class QueueChange:
    queue: str
    before: int | None
    after: int | None


@dataclass(frozen=True)
class AskMove:
    ask: str
    application: str
    queue: str
    before: int | None  # step, None when not placed on that side
    after: int | None

    @property
    def moved(self) -> int | None:
        """Steps later (positive) or earlier (negative); None when one side does not place it."""
        return None if self.before is None or self.after is None else self.after - self.before


@dataclass(frozen=True)
class Unplaced:
    ask: str
    application: str
    queue: str
    code: str
    reason: str  # the detail sentence (simulate's reason)
    words: str


@dataclass(frozen=True)
class RejectedApp:
    application: str
    queue: str
    code: str
    reason: str


@dataclass(frozen=True)
class GangChange:
    application: str
    before: GangState | None  # None: no accepted gang of that id on that side
    after: GangState | None


@dataclass(frozen=True)
class ConfigChange:
    queue: str
    field: str  # a queue_facts key, "queue" (added/removed) or "class NAME" (a class range)
    before: object
    after: object


@dataclass
class Diff:
    queues: list  # QueueChange
    asks: list  # AskMove, grouped by queue and application, biggest moves first
    unscheduled_added: list  # Unplaced: not placed in NEW, placed (or absent) in OLD
    unscheduled_removed: list  # Unplaced (as OLD had them): placeable in NEW
    rejected_added: list  # RejectedApp
    rejected_removed: list
    findings_added: list  # findings of NEW that OLD lacks (rule, path, message; lines ignored)
    findings_removed: list
    config: list  # ConfigChange
    reasons_changed: list = field(default_factory=list)  # (old Unplaced, new Unplaced): unscheduled on both sides, another code
    quota: quota.QuotaResult | None = None  # quota.QuotaResult: what NEW's maxes do to the running work (quota-change preemption)
    gangs: list = field(default_factory=list)  # GangChange: gangs whose end state differs, by application

    def changed(self, kind: str) -> bool:
        """For --fail-on: priority, order, unscheduled (asks newly not placed, applications newly
        rejected), findings (findings added), preemption (running tasks quota preemption takes)."""
        return bool({"priority": self.queues, "order": self.asks,
                     "unscheduled": self.unscheduled_added or self.rejected_added,
                     "findings": self.findings_added,
                     "preemption": self.quota is not None and self.quota.preempted}[kind])

    @property
    def empty(self) -> bool:
        return not (self.queues or self.asks or self.unscheduled_added or self.unscheduled_removed
                    or self.rejected_added or self.rejected_removed or self.findings_added
                    or self.findings_removed or self.config or self.reasons_changed or self.gangs
                    or (self.quota is not None and self.quota.armed))


def _queue_order(old: Side, new: Side) -> list[str]:
    """NEW's queues in its tree order, then those only OLD has in its order."""
    return list(dict.fromkeys(list(new.facts) + list(old.facts)))


def _moves(old: Side, new: Side) -> list[AskMove]:
    keys = list(dict.fromkeys(list(old.steps) + list(new.steps)))
    moves = []
    for k in keys:
        b, a = old.steps.get(k), new.steps.get(k)
        if b != a:
            q = new.queue_of.get(k) or old.queue_of.get(k) or ""
            moves.append(AskMove(k[1], k[0], q, b, a))

    def size(m: AskMove) -> float:
        return float("inf") if m.moved is None else abs(m.moved)

    # Grouped by queue and application: the group with the biggest move first, and in a group
    # the biggest moves first; ties by name, then by the old step.
    best: dict = {}
    for m in moves:
        g = (m.queue, m.application)
        best[g] = max(best.get(g, 0), size(m))
    moves.sort(key=lambda m: (-best[(m.queue, m.application)], m.queue, m.application, -size(m),
                              m.before if m.before is not None else m.after or 0, m.ask))
    return moves


def _unplaced(p) -> Unplaced:
    return Unplaced(p.ask, p.application, p.queue, p.reason.code, p.reason.detail, p.reason.words)


def _findings(old: list, new: list):
    """Findings only one side has, as (rule, path, message) multisets: a finding that only moved
    to another line is the same finding."""
    key = lambda f: (f.rule, f.path, f.message)
    cold, cnew = Counter(key(f) for f in old), Counter(key(f) for f in new)
    added, removed = [], []
    seen_new: Counter = Counter()
    seen_old: Counter = Counter()
    for f in new:
        k = key(f)
        seen_new[k] += 1
        if seen_new[k] > cold.get(k, 0):
            added.append(f)
    for f in old:
        k = key(f)
        seen_old[k] += 1
        if seen_old[k] > cnew.get(k, 0):
            removed.append(f)
    return added, removed


def _config(old: Side, new: Side) -> list[ConfigChange]:
    out = []
    classes: dict = {}  # queue -> its classes, NEW's order first
    for rq, cls in dict.fromkeys(list(new.ranges) + list(old.ranges)):
        classes.setdefault(rq, []).append(cls)
    for q in _queue_order(old, new):
        b, a = old.facts.get(q), new.facts.get(q)
        if b is None or a is None:
            either = b or a
            assert either is not None  # (q is a queue of one side at least)
            if not either["dynamic"]:
                out.append(ConfigChange(q, "queue", "absent" if b is None else "configured",
                                        "absent" if a is None else "configured"))
            continue
        for k in ("offset", "fence", "sortPriority", "sortPolicy", "max", "guaranteed", "maxApplications", "leaf", "dynamic"):
            if b[k] != a[k]:
                out.append(ConfigChange(q, k, b[k], a[k]))
        for cls in classes.get(q, ()):
            rb, ra = old.ranges.get((q, cls)), new.ranges.get((q, cls))
            if rb != ra:
                out.append(ConfigChange(q, f"class {cls}", rb, ra))
    return out


def compare(old: Side, new: Side) -> Diff:
    queues = []
    for q in _queue_order(old, new):
        b, a = old.priorities.get(q), new.priorities.get(q)
        if b != a:
            queues.append(QueueChange(q, b, a))
    un_added = [_unplaced(p) for k, p in new.unscheduled.items() if k not in old.unscheduled]
    # (a placeholder NEW does not have at all, its gang rejected or made no placeholders, is not placeable)
    un_removed = [_unplaced(p) for k, p in old.unscheduled.items() if k not in new.unscheduled
                  and not (k in old.placeholders and k not in new.steps)]
    rej_added = [RejectedApp(a, q, r.code, r.detail) for a, (q, r) in new.rejected.items() if a not in old.rejected]
    rej_removed = [RejectedApp(a, q, r.code, r.detail) for a, (q, r) in old.rejected.items() if a not in new.rejected]
    changed = [(_unplaced(p), _unplaced(new.unscheduled[k])) for k, p in old.unscheduled.items()
               if k in new.unscheduled and new.unscheduled[k].reason.code != p.reason.code]
    f_added, f_removed = _findings(old.findings, new.findings)
    gangs = [GangChange(a, old.gangs.get(a), new.gangs.get(a)) for a in sorted(old.gangs.keys() | new.gangs.keys())
             if old.gangs.get(a) != new.gangs.get(a)]
    return Diff(queues, _moves(old, new), un_added, un_removed, rej_added, rej_removed, f_added, f_removed,
                _config(old, new), changed, quota_change(old, new), gangs)


def quota_change(old: Side, new: Side):
    """Quota-change preemption: NEW's config on NEW's running work, each queue armed as YuniKorn
    arms it when the config goes from OLD to NEW (a max lowered under its usage, or a delay that
    is new). None when a side has no queue tree."""
    if old.root is None or new.root is None:
        return None
    before = {q.path: quota.Before(q.max, quota.delay_of(q)[0] is not None) for q in old.root.walk() if not q.dynamic}
    return quota.analyse(new.root, new.runs, new.quota_enabled, before, new.release, new.pending)
