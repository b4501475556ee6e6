"""YuniKorn's quota-change preemption (1.8+, YUNIKORN-3133/3203): after a queue's `max` is lowered
below what it already runs, and its `quota.preemption.delay` has passed, YuniKorn preempts running
allocations of that queue (of its leaves, for a parent) to bring the usage down.

Mirrors apache/yunikorn-core: objects/queue.go (setPreemptionTime, tryAcquirePreemption,
TryQuotaPreemption, GetPreemptableResource), objects/quota_preemptor.go (setPreemptableResources,
getChildQueuesPreemptableResource, filterAllocations, sortAllocations, preemptVictims) and
objects/preemption_utilities.go (SortAllocationsBasedOnAsk, scoreAllocationBasedOnAsk). Each
function below names the one it mirrors. Pure: no I/O.

What YuniKorn does here, not what one might expect (../shared/testdata/yunikorn-quota-preemption
records it from the real core):
- arming ignores the partition switch `quotapreemptionenabled`; only the loop checks it;
- the victims' order puts tasks that opted out of preemption first, then originators (the score
  is sorted higher first: the opposite of the preemption for asks);
- never more than the amount to free is taken, so a queue usually stays above its new max;
- it runs once per change: the queue is not armed again until another change (or a new
  allocation over the max);
- a parent's amount is split over its children by their usage above their guarantees, rounded
  down, so the leaves may free less than the parent's overshoot.

Go map order (the applications of a queue, the allocations of an application) is taken as
application id, then allocation id: the order the recorded reference run uses.

That is the newest release's preemptor (1.9; the recordings are of it). v1.8.0's differs, and
`release` (prio.yunikorn.releases.Release: quota_in_own_loop, quota_guarantee_capped,
quota_sort_by_ask) runs it as v1.8.0's code does, with no recording to check it against:
- it is triggered from the scheduling cycle (Queue.TryAllocate, YUNIKORN-3150): only a queue
  the cycle descends into, one with pending requests below it, runs; a parent's start time is
  never cleared (setQuotaPreemptionState runs on its leaves), so it runs again while it is over
  its max (prio: until a run takes nothing);
- the amount is not capped by the guarantees on the path, a parent's is split rounded half to
  even, and the victims are taken while those before them total less than the amount, one given
  back when it takes the leaf under its own guarantee (preemptVictims before YUNIKORN-3240);
- the victims are sorted by SortAllocations (before YUNIKORN-3233).
Before 1.8 there is no quota preemption.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from prio.yunikorn import properties as P
from prio.yunikorn import resources
from prio.yunikorn.gosort import slice_stable
from prio.yunikorn.preemption.ordering import SCORE_NO_PREEMPT, SCORE_ORIGINATOR
from prio.yunikorn.preemption.world import Run
from prio.yunikorn.releases import NEWEST

HOUR_NS = 3600 * 10**9


@dataclass(frozen=True)
class Before:
    """A queue as the config had it before the change (prio diff's OLD): its max and whether it
    had a quota.preemption.delay."""

    max: dict | None
    delay: bool


@dataclass
class Arming:
    """A queue with a max and usage over it: armed (a quota preemption scheduled) or not, and why."""

    queue: str
    armed: bool
    why: str
    max: dict | None
    usage: dict
    over: dict  # usage - max, the types over it
    delay: str | None = None  # the effective quota.preemption.delay as written
    delay_from: str | None = None  # the queue the delay is set on (the queue itself, or where it is inherited from)
    changed: bool = True  # the change touched the queue (its max, or a new delay); always, without a before


@dataclass
class Victim:
    """A candidate of a leaf's quota preemption, with the parts of YuniKorn's sort key."""

    id: str
    application: str
    node: str
    priority: int
    resources: dict
    opted_out: bool  # allowPreemption: false (+2^34)
    originator: bool  # (+2^33)
    type_match: int  # percentage of the allocation's types in the amount to free
    hour: int  # create time truncated to the hour (ns since the epoch; 0 when not given)
    share: float  # the largest share of the leaf's max over the freed types (sorted ascending in YuniKorn)
    taken: bool = False
    verdict: str = ""

    @property
    def score(self) -> int:
        """scoreAllocationBasedOnAsk: higher is tried first."""
        return (SCORE_NO_PREEMPT if self.opted_out else 0) + (SCORE_ORIGINATOR if self.originator else 0) + self.type_match


@dataclass
class LeafRun:
    """One leaf's quota preemption: the amount to free, the candidates in YuniKorn's order with
    its verdict on each, the victims in the order taken."""

    leaf: str
    armed: str  # the armed queue this run is for (the leaf, or a lowered parent)
    amount: dict | None  # the preemptable resource (None: nothing to free)
    how: str  # how the amount was reached
    candidates: list = field(default_factory=list)  # Victim, in YuniKorn's order
    excluded: list = field(default_factory=list)  # (allocation id, why not a candidate)
    victims: list = field(default_factory=list)  # allocation ids, in the order taken
    freed: dict = field(default_factory=dict)
    leaf_max: dict | None = None  # the leaf's own max: the sort's shares are of it (raw sizes without one)
    by_ask: bool = True  # the candidates sorted by SortAllocationsBasedOnAsk (else v1.8.0's SortAllocations)
    cycle: int = 0  # v1.8.0: the scheduling cycle it ran in (a parent runs again each cycle it is over its max)


@dataclass
class Above:
    """An armed queue still above its max after the run, and why."""

    queue: str
    max: dict
    usage: dict
    why: str


@dataclass
class QuotaResult:
    enabled: bool  # the partition's quotapreemptionenabled
    considered: list  # Arming: every configured queue with a max that its usage exceeds
    runs: list  # LeafRun, in the loop's order
    usage_before: dict  # queue path -> resources
    usage_after: dict
    above: list  # Above

    @property
    def armed(self) -> list:
        return sorted(a.queue for a in self.considered if a.armed)

    @property
    def preempted(self) -> dict:
        out: dict = {}
        for r in sorted(self.runs, key=lambda r: r.leaf):  # (stable: v1.8.0's runs of a leaf in their cycles' order)
            if r.victims:
                out.setdefault(r.leaf, []).extend(r.victims)
        return out


# ---- the queue's state -------------------------------------------------------------------------

def delay_of(q) -> tuple:
    """(delay as written, the queue it is set on) of the effective quota.preemption.delay, or
    (None, None) when it is absent or not a positive Go duration (convertDelay: then 0, never)."""
    text = q.props.get(P.QUOTA_PREEMPTION_DELAY)
    if text is None or P.duration(text, "0")[1] is not None:
        return None, None
    src = q
    while src is not None and P.QUOTA_PREEMPTION_DELAY not in src.own:
        src = src.parent
    return text, (src.path if src is not None else q.path)


def usage_of(root, runs) -> dict:
    """Every queue's allocated resources: the sum of the running allocations below it."""
    usage: dict[str, dict] = {q.path: {} for q in root.walk()}
    for run in runs:
        q = run.leaf
        while q is not None:
            resources.add_to(usage[q.path], run.res)
            q = q.parent
    return usage


def _within(q, usage: dict) -> bool:
    """maxResource.StrictlyGreaterThanOrEqualsOnlyExisting(allocatedResource)."""
    return resources.strictly_only_existing(q.max, usage[q.path], True)


def set_preemption_time(q, usage: dict, before: Before | None) -> Arming | None:
    """Queue.setPreemptionTime at a config change: is a quota preemption scheduled for `q`?
    `before`: the queue in the old config; None when the running work is taken as placed under
    higher maxes (prio preempt: every queue over its max was lowered). None when the queue has
    no max its usage exceeds (nothing to tell)."""
    if q.max is None or resources.is_zero(q.max) or _within(q, usage):
        return None
    use = usage[q.path]
    over = {k: use.get(k, 0) - v for k, v in sorted(q.max.items()) if use.get(k, 0) > v}
    delay, src = delay_of(q)
    a = Arming(q.path, False, "", dict(q.max), dict(use), over, delay, src)
    a.changed = before is None or not resources.equals(before.max, q.max) or (delay is not None and not before.delay)
    if q.dynamic:
        a.why = "a dynamic queue (not in the config): YuniKorn runs quota preemption only for configured queues"
    elif delay is None:
        a.why = "no quota.preemption.delay on the queue or a parent (default 0: quota preemption never runs)"
    elif before is None:
        a.armed, a.why = True, "usage over the max"
    elif resources.equals(before.max, q.max):
        if before.delay:
            a.why = "the max did not change (YuniKorn arms a queue when its max is lowered)"
        else:
            a.armed, a.why = True, "the max did not change but the delay is new: YuniKorn arms the queue anyway"
    elif resources.strictly_greater(before.max or {}, q.max) and before.max is not None:
        a.armed, a.why = True, "max lowered under the usage"
    elif before.max is None:
        a.why = "the queue had no max before: a new max is not a lowered one, YuniKorn does not arm it"
    else:
        a.why = "the max is not lower in every type (raised, or a type added): YuniKorn arms only a max lowered as a whole"
    return a


def try_acquire_preemption(q, usage: dict, armed: set) -> bool:
    """Queue.tryAcquirePreemption: armed, a configured queue, and still over its max."""
    return q.path in armed and not q.dynamic and q.max is not None and not _within(q, usage)


# ---- the amount to free ------------------------------------------------------------------------

def get_preemptable_resource(q, usage: dict):
    """Queue.GetPreemptableResource: from root down, the component-wise minimum of each queue's
    guaranteed - allocated (its guaranteed types) or allocated (no guarantee)."""
    parent = get_preemptable_resource(q.parent, usage) if q.parent is not None else {}
    own = dict(usage[q.path]) if q.guaranteed is None else resources.sub_only_existing(q.guaranteed, usage[q.path])
    return resources.component_min(own, parent)


def _negatives(r) -> dict:
    return {k: -v for k, v in (r or {}).items() if v < 0}


def set_preemptable_resources(q, usage: dict, release=NEWEST) -> tuple:
    """QuotaPreemptionContext.setPreemptableResources: (amount, how). The amount is the usage over
    the max (positive parts), capped per type by the guarantees on the path where they are
    exceeded (not in v1.8.0: Release.quota_guarantee_capped); None when there is nothing to free."""
    used = dict(usage[q.path])
    if resources.is_empty(q.max) or resources.is_empty(used):
        return None, "nothing to free: no max or no usage"
    net = _negatives(resources.sub_only_existing(q.max, used))
    if not release.quota_guarantee_capped:
        return (net or None), "usage over the max"
    cap = _negatives(get_preemptable_resource(q, usage))
    amount = resources.component_min_only_existing(net, cap)
    how = "usage over the max"
    capped = sorted(k for k in net if k in cap and cap[k] < net[k])
    if capped:
        how += f", capped at the usage above the guarantees on its path for {', '.join(capped)}"
    return (amount or None), how


def get_child_queues_preemptable_resource(q, amount: dict, usage: dict, out: list, release=NEWEST) -> None:
    """getChildQueuesPreemptableResource: split a parent's amount over its children in proportion
    to their usage above their guarantees (the whole usage without one; children at or under
    their guarantee get nothing), rounded down (v1.8.0: half to even, math.RoundToEven, as
    Python's round), down to the leaves. Appends (leaf, amount, how)."""
    floor = release.quota_guarantee_capped
    rounded = "rounded down" if floor else "rounded half to even"
    shares: dict[str, dict] = {}
    total: dict = {}
    mine: dict | None
    for c in q.children:
        alloc = usage[c.path]
        if resources.is_empty(alloc) or resources.strictly_only_existing(c.guaranteed, alloc, True):
            continue
        used = alloc if resources.is_empty(c.guaranteed) else resources.sub_only_existing(c.guaranteed, alloc)
        mine = {k: abs(v) for k, v in used.items()}
        shares[c.path] = mine
        resources.add_to(total, mine)
    for c in q.children:
        mine = shares.get(c.path)
        if mine is None:
            continue
        per = resources.shares_type_wise(mine, total)
        part = {k: (math.floor if floor else round)(per.get(k, 0.0) * float(amount[k])) for k in mine if k in amount}
        if c.leaf:
            out.append((c, part, f"its share of {q.path}'s amount (usage above guarantee {_fmt(mine)} of {_fmt(total)}, {rounded})"))
        else:
            get_child_queues_preemptable_resource(c, part, usage, out, release)


def _fmt(r: dict) -> str:
    from prio.yunikorn.quantity import show_resources

    return show_resources(r)


# ---- the victims -------------------------------------------------------------------------------

def type_matching(res: dict, amount: dict) -> int:
    """Resource.TypeMatching: the percentage of the allocation's types that are in the amount."""
    if not res:
        return 0
    return sum(1 for k in amount if k in res) * 100 // len(res)


def filter_allocations(leaf, runs, amount) -> tuple:
    """filterAllocations: the leaf's running allocations with a type of the amount to free, in
    Go's map order as application id, allocation id. (candidates, excluded)."""
    if resources.is_zero(amount):
        return [], [(r.id, "nothing to free in this leaf") for r in runs]
    mine = sorted(runs, key=lambda r: (r.app, r.id))
    cands, excluded = [], []
    for r in mine:
        if resources.match_any(amount, r.res):
            cands.append(r)
        else:
            excluded.append((r.id, "has none of the types to free"))
    return cands, excluded


def _victim(run: Run, amount: dict, leaf_max) -> Victim:
    mine = resources.shares_type_wise(run.res, leaf_max)
    shares = sorted(mine[k] for k in amount if k in mine)
    return Victim(run.id, run.app, run.alloc.node, run.alloc.priority, dict(run.res), not run.alloc.allow_preemption,
                  run.alloc.originator, type_matching(run.res, amount), run.alloc.create_time[0] // HOUR_NS,
                  shares[-1] if shares else 0.0)


def comp_usage_ratio_specific_types(left: dict, right: dict, total, types: dict) -> int:
    """CompUsageRatioSpecificTypes: compare the shares of `total` over `types` only, largest first."""
    ls, rs = resources.shares_type_wise(left, total), resources.shares_type_wise(right, total)
    lv = sorted(ls[k] for k in types if k in ls)
    rv = sorted(rs[k] for k in types if k in rs)
    if not lv and not rv:
        return 0
    return resources.compare_shares(lv, rv)


def sort_allocations(cands: list, leaf_max, amount: dict) -> list:
    """SortAllocationsBasedOnAsk: score higher first, priority lower first, the creation hour newer
    first, then the share of the leaf's max smaller first; a full tie answers `true`, as Go's
    comparator does (so ties do not keep their order: Go's sort.SliceStable decides)."""
    keyed = [(_victim(r, amount, leaf_max), r) for r in cands]

    def less(items, i, j):
        (lv, lr), (rv, rr) = items[i], items[j]
        if lv.score != rv.score:
            return lv.score > rv.score
        if lv.priority != rv.priority:
            return lv.priority < rv.priority
        if lv.hour != rv.hour:
            return lv.hour > rv.hour
        return comp_usage_ratio_specific_types(lr.res, rr.res, leaf_max, amount) != 1

    return slice_stable(keyed, less)


def _ask_type(run: Run) -> int:
    """SortAllocations' type: a regular pod 1, one that opted out of preemption 2, an originator 3."""
    return 3 if run.alloc.originator else 2 if not run.alloc.allow_preemption else 1


def sort_allocations_18(cands: list, leaf_max, amount: dict) -> list:
    """v1.8.0's SortAllocations (before YUNIKORN-3233): regular pods first, then those that opted
    out, then originators; priority lower first; created later first; then smaller first (the
    left one first unless left - right is above zero: StrictlyGreaterThanZero); a full tie
    answers `true`, left to Go's sort.SliceStable as above."""
    keyed = [(_victim(r, amount, leaf_max), r) for r in cands]

    def less(items, i, j):
        lr, rr = items[i][1], items[j][1]
        lt, rt = _ask_type(lr), _ask_type(rr)
        if lt != rt:
            return lt < rt
        if lr.alloc.priority != rr.alloc.priority:
            return lr.alloc.priority < rr.alloc.priority
        if lr.alloc.create_time[0] != rr.alloc.create_time[0]:
            return lr.alloc.create_time[0] > rr.alloc.create_time[0]
        if not resources.equals(lr.res, rr.res):
            return not resources.strictly_positive(resources.sub(lr.res, rr.res))
        return True

    return slice_stable(keyed, less)


def preempt_victims_18(amount: dict, ordered: list, used: dict, guaranteed) -> tuple:
    """v1.8.0's preemptVictims (before YUNIKORN-3240): a candidate that alone exceeds the amount
    is skipped; one is taken while the victims before it total less than the amount in every
    type (StrictlyGreaterThanOnlyExisting), and the leaf's usage `used` drops by it; when the
    leaf is then under its own guarantee, its application's last victim is given back. The
    running total counts every candidate looked at but those given back, taken or not (as the
    code does). A give-back with no victim of that application panics in Go (a slice [:-1]): the
    scheduler dies there, and so the walk stops. (victims, freed)."""
    taken: list = []
    by_app: dict = {}
    total: dict = {}
    used = dict(used)
    for v, run in ordered:
        if not resources.fit_in(amount, run.res, True, False):
            over = sorted(k for k, x in run.res.items() if k in amount and x > max(0, amount[k]))
            v.verdict = f"skipped: alone over the amount ({', '.join(over)})"
            continue
        took = resources.strictly_only_existing(amount, total, False)
        if took:
            by_app.setdefault(run.app, []).append((v, run))
            resources.sub_from(used, run.res)
            v.taken = True
            v.verdict = "victim"
        if not resources.is_empty(guaranteed) and resources.strictly_only_existing(guaranteed, used, False):
            mine = by_app.get(run.app)
            if not mine:
                v.verdict = ("YuniKorn 1.8.0 panics here: the leaf is under its guarantee and it gives back a victim of "
                             f"{run.app}, which has none (a slice [:-1] in preemptVictims)")
                break
            back, _ = mine.pop()
            back.taken = False
            back.verdict = "given back: taking it left the leaf under its guarantee"
            resources.add_to(used, run.res)  # (this candidate's resources, as the code adds them)
            resources.sub_from(total, run.res)
        else:
            resources.add_to(total, run.res)
            if not took:
                v.verdict = "skipped: the victims before it already reach the amount"
    for v, run in ordered:
        if v.taken:
            taken.append(run)
    freed = resources.total(r.res for r in taken)
    n = 0
    for v, _ in ordered:
        if v.taken:
            n += 1
            v.verdict = f"victim #{n}"
    return taken, freed


def preempt_victims(amount: dict, ordered: list) -> tuple:
    """preemptVictims: walk the sorted candidates; skip one that alone exceeds the amount in some
    type; take it when the running total still fits the amount in every type. (victims, freed)."""
    taken: list = []
    total: dict = {}
    for v, run in ordered:
        if not resources.fit_in(amount, run.res, True, False):
            over = sorted(k for k, x in run.res.items() if k in amount and x > max(0, amount[k]))
            v.verdict = f"skipped: alone over the amount ({', '.join(over)})"
            continue
        resources.add_to(total, run.res)
        if resources.strictly_only_existing(amount, total, True):
            v.taken = True
            v.verdict = f"victim #{len(taken) + 1}"
            taken.append(run)
        else:
            resources.sub_from(total, run.res)
            over = sorted(k for k in amount if resources.add(total, run.res).get(k, 0) > amount[k])
            v.verdict = f"skipped: with the victims before it, over the amount ({', '.join(over)})"
    return taken, total


def try_preemption_internal(leaf, armed: str, amount, how: str, runs: list, usage: dict, release=NEWEST) -> LeafRun:
    """tryPreemptionInternal for one leaf: filter, sort, select (as `release` does them)."""
    lr = LeafRun(leaf.path, armed, amount, how, leaf_max=leaf.max, by_ask=release.quota_sort_by_ask)
    cands, lr.excluded = filter_allocations(leaf, runs, amount)
    if not cands:
        return lr
    ordered = (sort_allocations if release.quota_sort_by_ask else sort_allocations_18)(cands, leaf.max, amount)
    lr.candidates = [v for v, _ in ordered]
    if release.quota_guarantee_capped:
        taken, lr.freed = preempt_victims(amount, ordered)
    else:
        taken, lr.freed = preempt_victims_18(amount, ordered, usage[leaf.path], leaf.guaranteed)
    lr.victims = [r.id for r in taken]
    return lr


# ---- the loop ----------------------------------------------------------------------------------

def try_preemption(q, usage: dict, by_leaf: dict, release=NEWEST) -> tuple:
    """QuotaPreemptionContext.tryPreemption for an armed queue: (its amount to free, its leaf runs)."""
    amount, how = set_preemptable_resources(q, usage, release)
    if q.leaf:
        return amount, [try_preemption_internal(q, q.path, amount, how, by_leaf.get(q.path, []), usage, release)]
    if amount is None:
        return amount, []
    parts: list = []
    get_child_queues_preemptable_resource(q, amount, usage, parts, release)
    return amount, [try_preemption_internal(leaf, q.path, part, f"{how} of {q.path} ({_fmt(amount)}): {why}", by_leaf.get(leaf.path, []),
                                            usage, release)
                    for leaf, part, why in sorted(parts, key=lambda t: t[0].path)]


def try_quota_preemption(q, usage: dict, armed: set, by_leaf: dict, out: list, amounts: dict) -> None:
    """Queue.TryQuotaPreemption from root: an armed queue still over its max runs quota
    preemption (a parent for its whole subtree: its children are not examined); otherwise its
    children are examined. Each run's amount goes into `amounts` (queue -> amount)."""
    if try_acquire_preemption(q, usage, armed):
        amounts[q.path], mine = try_preemption(q, usage, by_leaf)
        out += mine
        return
    if not q.leaf:
        for c in sorted(q.children, key=lambda c: c.path):
            try_quota_preemption(c, usage, armed, by_leaf, out, amounts)


def try_allocate_18(q, usage: dict, armed: set, by_leaf: dict, out: list, amounts: dict, pending, release, trigger: bool = True) -> bool:
    """v1.8.0's trigger in Queue.TryAllocate (YUNIKORN-3150): the scheduling cycle descends into
    the queues with pending requests only (sortQueues; `pending`: their paths, None: every
    queue), an armed queue still over its max runs there, and below a queue that ran none does
    in this cycle. A leaf that ran is disarmed (setQuotaPreemptionState clears its start time),
    a parent is not. True when a parent ran (it runs again in the next cycle)."""
    if pending is not None and q.path not in pending:
        return False
    again = False
    if trigger and try_acquire_preemption(q, usage, armed):
        amounts[q.path], mine = try_preemption(q, usage, by_leaf, release)
        out += mine
        trigger = False
        if q.leaf:
            armed.discard(q.path)
        else:
            again = True
    if not q.leaf:
        for c in sorted(q.children, key=lambda c: c.path):
            again = try_allocate_18(c, usage, armed, by_leaf, out, amounts, pending, release, trigger) or again
    return again


def _cycles_18(root, usage: dict, armed: set, by_leaf: dict, out: list, amounts: dict, pending, release) -> None:
    """v1.8.0's quota preemption over the scheduling cycles: each cycle's trigger
    (try_allocate_18) with the victims of the cycles before gone, until a cycle takes nothing
    (the next would take nothing either: nothing changed)."""
    cur = {k: dict(v) for k, v in usage.items()}
    left = {k: list(v) for k, v in by_leaf.items()}
    cycle = 0
    while True:
        mine: list = []
        again = try_allocate_18(root, cur, armed, left, mine, amounts, pending, release)
        for lr in mine:
            lr.cycle = cycle
        cycle += 1
        out += mine
        gone = {v for lr in mine for v in lr.victims}
        if not gone or not again:
            return
        for path, rs in left.items():
            for r in rs:
                if r.id in gone:
                    q = r.leaf
                    while q is not None:
                        resources.sub_from(cur[q.path], r.res)
                        q = q.parent
            left[path] = [r for r in rs if r.id not in gone]


def pending_queues(apps) -> set:
    """The paths of the queues with pending requests below them (v1.8.0's cycle descends into
    these only): the leaves of the applications `apps` (the engine's application states) that
    have asks, and their parents."""
    out: set = set()
    for st in apps:
        if st.asks:
            q = st.leaf
            while q is not None and q.path not in out:
                out.add(q.path)
                q = q.parent
    return out


def analyse(root, runs: list, enabled: bool, before: dict | None = None, release=NEWEST, pending: set | None = None) -> QuotaResult:
    """YuniKorn's quota preemption on the running work `runs` (preemption.world.Run) under the
    config `root` (the queue tree). `enabled`: the partition's quotapreemptionenabled. `before`:
    queue path -> Before (the old config, prio diff); None: every queue over its max counts as
    lowered. The delay is taken as passed and the resource manager as releasing every victim.
    `release` (prio.yunikorn.releases.Release): whose quota preemptor runs (v1.8.0's: the module's
    docstring); `pending`: the queues with pending requests below them (pending_queues), which
    v1.8.0's runs from the scheduling cycle need (None: every queue)."""
    release = release or NEWEST
    usage = usage_of(root, runs)
    considered = []
    for q in root.walk():
        if q.parent is None:
            continue  # root's max is the cluster: never lowered by a config
        b = None if before is None else before.get(q.path, Before(None, False))
        a = set_preemption_time(q, usage, b)
        if a is not None:
            considered.append(a)
    armed = {a.queue for a in considered if a.armed}
    by_leaf: dict = {}
    for r in runs:
        by_leaf.setdefault(r.leaf.path, []).append(r)
    out: list = []
    amounts: dict = {}
    if enabled and armed and release.quota_in_own_loop:
        try_quota_preemption(root, usage, armed, by_leaf, out, amounts)
    elif enabled and armed and (pending is None or root.path in pending):  # (the cycle runs when root has pending requests)
        _cycles_18(root, usage, set(armed), by_leaf, out, amounts, pending, release)
    after = {k: dict(v) for k, v in usage.items()}
    gone = {v for lr in out for v in lr.victims}
    for r in runs:
        if r.id in gone:
            q = r.leaf
            while q is not None:
                resources.sub_from(after[q.path], r.res)
                q = q.parent
    return QuotaResult(enabled, considered, out, usage, after, _above(root, considered, out, after, enabled, amounts, release, pending))


def _above(root, considered: list, runs: list, after: dict, enabled: bool, amounts: dict, release=NEWEST, pending=None) -> list:
    """The armed queues still above their max afterwards, and why."""
    from prio.yunikorn.quantity import show_resources as show

    by_path = {q.path: q for q in root.walk()}
    out = []
    for a in considered:
        if not a.armed:
            continue
        q = by_path[a.queue]
        if _within(q, after):
            continue
        ran = [lr for lr in runs if lr.armed == a.queue]
        last = max((x.cycle for x in ran), default=0)
        mine = [lr for lr in ran if lr.cycle == last]  # (v1.8.0: the last cycle it ran in)
        old = not release.quota_guarantee_capped  # v1.8.0's preemptor (YUNIKORN-3240 not yet)
        if not enabled:
            why = ["the partition does not set quotapreemptionenabled: true, so YuniKorn never runs the quota preemption it armed"]
        elif a.queue not in amounts and not release.quota_in_own_loop and pending is not None and a.queue not in pending:
            why = [f"no pending request below it: YuniKorn {release.name} runs quota preemption from the scheduling cycle "
                   "(Queue.TryAllocate), which only descends into queues with pending requests"]
        elif a.queue not in amounts:
            why = ["an armed parent ran instead (its children are not examined in that pass); this queue stays armed "
                   "and runs in a later pass if it is still over its max"]
        elif not amounts[a.queue]:
            why = ["nothing to free: the guarantees on its path leave no usage above them"]
        else:
            amount = amounts[a.queue]
            why = []
            if not old and any(amount.get(k, 0) < v for k, v in a.over.items()):
                why.append(f"the amount to free {show(amount)} is less than the overshoot {show(a.over)}: "
                           "capped by the usage above a guarantee on its path")
            split = resources.total(lr.amount or {} for lr in mine)
            if not q.leaf and any(split.get(k, 0) < v for k, v in amount.items()):
                why.append(f"the amount was split over the children and rounded {'half to even' if old else 'down'}: "
                           f"the leaves free at most {show(split)}")
            freed = resources.total(lr.freed for lr in mine)
            if not any(lr.candidates for lr in mine):
                why.append("no running allocation has a type to free")
            elif resources.is_zero(freed):
                why.append("every candidate alone is over the amount to free in some type, and YuniKorn skips those")
            elif old and any(freed.get(k, 0) < v for k, v in (split if not q.leaf else amount).items()):
                why.append(f"YuniKorn {release.name} takes a victim while those before it total less than the amount to free "
                           f"({show(split if not q.leaf else amount)}) and gives one back that takes its leaf under its guarantee: "
                           f"the victims add up to {show(freed)}")
            elif any(freed.get(k, 0) < v for k, v in (split if not q.leaf else amount).items()):
                why.append(f"YuniKorn takes never more than the amount to free ({show(split if not q.leaf else amount)}), "
                           f"and the allocations it could take add up to {show(freed)}")
            why.append("it ran again in each scheduling cycle until one took nothing" if not release.quota_in_own_loop and not q.leaf
                       else "it does not run again for this change")
        out.append(Above(a.queue, dict(q.max), dict(after[a.queue]), "; ".join(why)))
    return out


def runs_of(root, snapshot, skip=frozenset()) -> list:
    """The snapshot's running allocations as preemption.world.Run, each in its application's leaf
    (dynamic queues made as a placement rule would); applications in `skip` are left out."""
    from prio.yunikorn.tree import ensure_queue

    out: list = []
    for app in snapshot.apps:
        if app.id in skip or not app.allocations:
            continue
        leaf = ensure_queue(root, app.queue, snapshot.source or "snapshot", app.line)
        for a in app.allocations:
            out.append(Run(a, app.id, leaf, len(out)))
    return out
