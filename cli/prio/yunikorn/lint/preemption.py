"""Preemption settings (the PRIO5xx family): settings that cannot take effect, leaves that can
never trigger preemption, and priority fences no ask outside them can reach.

Values YuniKorn silently replaces (an unknown preemption.policy, a preemption.delay or
quota.preemption.delay that is not a positive Go duration) are PRIO211, invalid-property-value.
The rules here follow yunikorn-core: objects/queue.go (FindEligiblePreemptionVictims,
findPreemptionFenceRoot, setPreemptionTime, GetPreemptableResource), objects/preemption.go
(checkPreemptionQueueGuarantees), objects/quota_preemptor.go
and partition.go (preemption.enabled defaults to true, quotapreemptionenabled to false).
"""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.lint.registry import check
from prio.yunikorn import properties as P
from prio.yunikorn import quantity, resources
from prio.yunikorn.config import queue_path

FAMILY = "preemption"
_BEST_ASK = P.INT32_MAX  # the highest priority an ask can carry


class _Q:
    """A configured queue with what preemption reads from it."""

    __slots__ = ("conf", "path", "parent", "children", "leaf", "own", "eff", "fenced", "offset", "guaranteed", "max")

    def __init__(self, conf, path, parent, eff):
        self.conf, self.path, self.parent = conf, path, parent
        self.children: list = []
        self.leaf = not conf.is_parent and parent is not None
        self.own = conf.properties
        self.eff = eff
        self.fenced = P.priority_policy(self.own.get(P.PRIORITY_POLICY))[0] == "fence"
        self.offset = P.offset(self.own.get(P.PRIORITY_OFFSET))[0]
        root_named = conf.name == "root"  # applyConf skips resources for any queue named root
        self.guaranteed = None if root_named else _positive(conf.guaranteed)
        self.max = None if root_named else _positive(conf.max)

    @property
    def preemption_policy(self) -> str:
        return P.preemption_policy(self.eff.get(P.PREEMPTION_POLICY))[0]

    def walk(self):
        """This queue and every queue below it, depth first in config order (a stack, not
        nested generators: the rules walk 10,000-queue trees several times)."""
        stack = [self]
        while stack:
            q = stack.pop()
            yield q
            stack.extend(reversed(q.children))

    def ancestors(self):
        q = self
        while q is not None:
            yield q
            q = q.parent


def _positive(res):
    if res is None:
        return None
    parsed = quantity.parse_lenient(res)
    return parsed if resources.strictly_positive(parsed) else None


def _trees(ctx) -> list:
    """(partition, root _Q) with effective (inherited) properties: built once for the rules of
    this family (they only read them)."""
    return ctx.derived(FAMILY, lambda: list(_build_trees(ctx)))


def _build_trees(ctx):
    for p, root in ctx.trees:
        def build(cq, parent, anc):
            eff = P.inherit(parent.eff) if parent is not None else {}
            eff.update(cq.properties)
            q = _Q(cq, f"{parent.path}.{cq.name.lower()}" if parent is not None else queue_path(cq, anc), parent, eff)
            for c in cq.children:
                q.children.append(build(c, q, anc + (cq,)))
            return q
        yield p, build(root, None, ())


def _uses_preemption(p, root) -> bool:
    """The partition configures preemption: a preemption block or a preemption property."""
    return p.preemption_block or any(P.PREEMPTION_POLICY in q.own or P.PREEMPTION_DELAY in q.own for q in root.walk())


@check("PRIO501", "preemption-settings-disabled", "warning", FAMILY)
def preemption_settings_disabled(ctx):
    """preemption.policy or preemption.delay on a queue of a partition that disables preemption.

    With `preemption: {enabled: false}` on the partition YuniKorn never tries preemption for any
    ask, so queue preemption settings do nothing (quota preemption has its own switch,
    quotapreemptionenabled).

    Example (warns): `preemption: {enabled: false}` and a queue with `preemption.policy: fence`
    Fix: remove the queue settings, or enable preemption in the partition.
    """
    for p, root in _trees(ctx):
        if p.preemption_enabled:
            continue
        for q in root.walk():
            for key in (P.PREEMPTION_POLICY, P.PREEMPTION_DELAY):
                if key in q.own:
                    yield Issue("PRIO501", q.conf.path + ("properties", key),
                                f"{key} on {q.path} has no effect: partition {p.display_name} sets preemption: {{enabled: false}}", at="key")


@check("PRIO502", "quota-preemption-switch", "warning", FAMILY)
def quota_preemption_switch(ctx):
    """Quota preemption configured on one side only: the partition switch or the queue delay.

    Quota preemption (preempting a queue down to a lowered max) needs both
    `preemption: {quotapreemptionenabled: true}` on the partition (default false) and a
    `quota.preemption.delay` on the queue (default 0: never). One without the other does nothing.

    Example (warns): `quota.preemption.delay: 5m` on a queue, no quotapreemptionenabled
    Fix: `preemption: {quotapreemptionenabled: true}` on the partition, or drop the delay.
    """
    key = ctx.release.quota_delay
    for p, root in _trees(ctx) if key else ():
        delays = [q for q in root.walk() if key in q.own and P.duration(q.own[key], "0")[1] is None]
        if not p.quota_preemption_enabled:
            for q in delays:
                yield Issue("PRIO502", q.conf.path + ("properties", key),
                            f"{key} on {q.path} has no effect: partition {p.display_name} does not set "
                            "preemption: {quotapreemptionenabled: true}", at="key")
        elif not delays:
            yield Issue("PRIO502", p.path + ("preemption", "quotapreemptionenabled"),
                        f"quotapreemptionenabled is true in partition {p.display_name} but no queue sets {key}: "
                        "quota preemption never runs")


@check("PRIO503", "quota-preemption-needs-max", "warning", FAMILY)
def quota_preemption_needs_max(ctx):
    """quota.preemption.delay that reaches no queue with a max: quota preemption never runs.

    The delay is inherited by the queues below (unless they set their own), and YuniKorn arms a
    queue only when it has a max (setPreemptionTime clears the trigger otherwise). A delay on a
    queue where neither it nor any queue that inherits the delay has a max does nothing. (A max
    equal to the guaranteed resources is fine: YuniKorn then frees the overshoot, best effort.)

    Example (warns): `quota.preemption.delay: 1m` on a leaf with no `max`
    Fix: a max on the queue (or on the queues below that inherit the delay), or no delay.
    """
    key = ctx.release.quota_delay
    for _p, root in _trees(ctx) if key else ():
        for q in root.walk():
            if key not in q.own or P.duration(q.own[key], "0")[1] is not None:
                continue
            if any(x.max for x in _inheriting(q, key)):
                continue
            below = " nor any queue that inherits the delay" if q.children else ""
            yield Issue("PRIO503", q.conf.path + ("properties", key),
                        f"{key} on {q.path} has no effect: neither {q.path}{below} has max resources", at="key")


def _inheriting(q: _Q, key: str):
    """q and the queues below it that take q's value of `key` (those that do not set their own)."""
    yield q
    for c in q.children:
        if key not in c.own:
            yield from _inheriting(c, key)


@check("PRIO506", "quota-max-under-parent-guarantee", "warning", FAMILY)
def quota_max_under_parent_guarantee(ctx):
    """A queue under quota preemption whose max is below a parent's guaranteed resources.

    YuniKorn caps what quota preemption frees by the usage above the guarantees on the queue's
    path (GetPreemptableResource): once a parent runs above its guarantee, the queue loses at most
    the parent's usage above it. With the queue's max under the parent's guarantee, quota
    preemption can leave the queue above its max (with one busy child, at the parent's guarantee).

    Example (warns): parent `p` with `guaranteed: {vcore: 20}`, its child `a` with
    `max: {vcore: 8}` and a `quota.preemption.delay`
    Fix: a max at or above the parent's guarantee, or a lower guarantee on the parent.
    """
    key = ctx.release.quota_delay
    for _p, root in _trees(ctx) if key else ():
        for q in root.walk():
            if not q.max or q.parent is None or P.duration(q.eff.get(key), "0")[1] is not None or q.eff.get(key) is None:
                continue
            for a in list(q.ancestors())[1:]:
                low = sorted(k for k, v in q.max.items() if a.guaranteed and k in a.guaranteed and v < a.guaranteed[k])
                if low:
                    k = low[0]
                    yield Issue("PRIO506", q.conf.path + ("resources", "max"),
                                f"quota preemption cannot always bring {q.path} down to its max: {a.path} guarantees "
                                f"{k} {quantity.show_quantity(k, a.guaranteed[k])}, more than {q.path}'s max "
                                f"{k} {quantity.show_quantity(k, q.max[k])}, and YuniKorn frees from {q.path} at most "
                                f"{a.path}'s usage above that guarantee", at="key")
                    break


@check("PRIO504", "leaf-never-preempts", "warning", FAMILY)
def leaf_never_preempts(ctx):
    """A leaf queue whose asks can never trigger preemption: no guaranteed resources on its path.

    YuniKorn preempts for an ask only to bring its queue up to a guarantee: with no guaranteed
    resources on the leaf or any parent, the guarantee check fails every time ("Preemption queue
    guarantees check failed"), whatever the ask's priority. Reported only in partitions that
    configure preemption (a preemption block or preemption.* properties) and do not disable it.

    Example (warns): a leaf `batch` under root, neither with `resources.guaranteed`
    Fix: give the leaf (or a parent) guaranteed resources, if its asks should preempt.
    """
    for p, root in _trees(ctx):
        if not p.preemption_enabled or not _uses_preemption(p, root):
            continue
        for q in root.walk():
            if q.leaf and not any(a.guaranteed for a in q.ancestors()):
                yield Issue("PRIO504", q.conf.path + ("name",),
                            f"asks in {q.path} can never trigger preemption: no guaranteed resources on {q.path} or any parent")


def _lca(a: _Q, b: _Q) -> _Q:
    mine = {id(x) for x in a.ancestors()}
    return next(x for x in b.ancestors() if id(x) in mine)


def _reaches(leaf: _Q, fence: _Q) -> bool | None:
    """Can an ask in `leaf` reach the tasks under `fence`? None when its preemption fence root
    (preemption.policy: fence) stops below their common parent."""
    top = _lca(leaf, fence)
    v = _BEST_ASK
    q = leaf
    while True:
        v = q.offset if q.fenced else v + q.offset
        if q is top:
            break
        if q.parent is None or q.preemption_policy == "fence":
            return None
        q = q.parent
    down = [x for x in fence.ancestors()]
    down = down[: down.index(top)][::-1]  # from top's child to the fence
    for c in down:
        if c.fenced:
            if c.offset > v:
                return False
            return True  # a fenced subtree within reach: everything below is eligible
        v -= c.offset
    return True


@check("PRIO505", "priority-fence-unreachable", "warning", FAMILY)
def priority_fence_unreachable(ctx):
    """A priority fence whose offset puts its whole subtree beyond reach of every ask outside it.

    When YuniKorn looks for victims outside an ask's queue, it skips a priority-fenced queue
    (`priority.policy: fence`) whose offset is greater than the ask's priority as translated at
    their common parent. Asks elsewhere that are themselves behind fences with lower offsets can
    then never preempt anything in this subtree, whatever the priorities of its tasks.

    Example (warns): `research` fenced at offset 1000, and the only other queue `batch` fenced
    at offset 10: research's tasks are never victims of batch's asks.
    Fix: lower the offset, or accept that the subtree is protected (prio preempt shows it).
    """
    for _p, root in _trees(ctx):
        leaves = [q for q in root.walk() if q.leaf]
        for f in root.walk():
            if f.parent is None or not f.fenced:
                continue
            inside = {id(x) for x in f.walk()}
            verdicts = []
            for leaf in leaves:
                if id(leaf) in inside:
                    continue
                v = _reaches(leaf, f)
                if v:  # one ask that reaches the fence settles it: no need to look at the rest
                    break
                if v is not None:
                    verdicts.append((leaf, v))
            else:
                if not verdicts:
                    continue
                yield Issue("PRIO505", f.conf.path + ("properties", P.PRIORITY_POLICY),
                            f"priority fence {f.path} (offset {f.offset}) is beyond reach of every ask outside it: "
                            f"asks in {', '.join(leaf.path for leaf, _ in verdicts[:3])}{', ...' if len(verdicts) > 3 else ''} "
                            "reach it with a lower priority, so its tasks are never their victims", at="key")
