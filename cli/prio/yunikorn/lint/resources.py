"""Resource quantities and the guaranteed/max hierarchy (checkQueueResource), plus child
template quantities (parsed only when a parent queue is created)."""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.lint.registry import check
from prio.yunikorn import quantity, resources
from prio.yunikorn.config import queue_path


def _bad_entries(res, path):
    for k, v in (res or {}).items():
        try:
            quantity.parse(k, v)
        except quantity.QuantityError as e:
            yield path + (k,), str(e)


def template_fails(q) -> bool:
    """Whether parsing queue `q`'s child template fails (a quantity that does not parse)."""
    ct = q.childtemplate
    return ct is not None and q.is_parent and any(True for kind in ("guaranteed", "max")
                                                  for _ in _bad_entries(getattr(ct, kind), ()))


def dropped_properties(ctx) -> frozenset:
    """The ids of the property maps the release never reads because a child template failed (1.5,
    applyConf: the template, and on root the queue's own properties too, are dropped)."""
    if ctx.release.bad_template_refused:
        return frozenset()

    def make():
        out = set()
        for _p, q, anc in ctx.queues:
            if template_fails(q):
                out.add(id(q.childtemplate.properties))
                if not anc:  # other queues get theirs through mergeProperties, root does not
                    out.add(id(q.properties))
        return frozenset(out)

    return ctx.derived("dropped-properties", make)


@check("PRIO108", "invalid-quantity", "error", "resources")
def invalid_quantity(ctx):
    """A resource quantity YuniKorn cannot parse.

    Quantities are unsigned integers with an optional suffix: k M G T P E (powers of 10) or
    Ki Mi Gi Ti Pi Ei (powers of 2). `vcore` is read in cores and is the only key that may use
    `m` (millicores). No signs, no decimals, no `K`/`ki`/`mi`, and the value must fit int64.

    Example (fails):
        max: {memory: 1.5Gi, vcore: -2}
    Fix:
        max: {memory: 1536Mi, vcore: 2}
    """
    for _p, q, _anc in ctx.having("quantities"):
        for kind in ("guaranteed", "max"):
            res = getattr(q, kind)
            if not res:  # (no path made, no generator)
                continue
            for path, msg in _bad_entries(res, q.path + ("resources", kind)):
                yield Issue("PRIO108", path, msg)
        for lim in q.limits or []:
            for path, msg in _bad_entries(lim.maxresources, lim.path + ("maxresources",)):
                yield Issue("PRIO108", path, msg)


@check("PRIO109", "guaranteed-exceeds-max", "error", "resources")
def guaranteed_exceeds_max(ctx):
    """A queue's guaranteed resources are larger than its own max.

    For every resource type the max defines, guaranteed must be at most max (a type missing from
    max is unlimited).

    Example (fails):
        resources: {guaranteed: {memory: 10G}, max: {memory: 5G}}
    Fix: raise max or lower guaranteed.
    """
    for _p, q, anc in ctx.having("guaranteed"):
        g, m = ctx.resource(q.guaranteed), ctx.resource(q.max)
        if g and m:
            over = {k: v for k, v in g.items() if k in m and v > max(m[k], 0)}
            if over:
                yield Issue("PRIO109", q.path + ("resources", "guaranteed"), f"guaranteed resource {quantity.go_map(g)} is larger than maximum resource {quantity.go_map(m)} for queue {queue_path(q, anc)} ({', '.join(over)})")


def _effective_max(ctx, anc):
    eff = None
    for a in anc:
        eff = resources.component_min(eff, ctx.resource(a.max) or None)
    return eff


@check("PRIO110", "max-exceeds-parent-max", "error", "resources")
def max_exceeds_parent_max(ctx):
    """A queue's max is larger than the max of its parent or of any ancestor.

    YuniKorn compares each max with the component-wise minimum of all ancestors' max, so a limit
    two levels up counts even when the level in between sets none.

    Example (fails): root.a max memory 10G, root.a.b (no max), root.a.b.c max memory 20G.
    Fix: keep each max within every ancestor's max.
    """
    for _p, q, anc in ctx.having("max"):
        m = ctx.resource(q.max)
        if not m or not anc:
            continue
        pm = _effective_max(ctx, anc)
        if pm and not resources.fits(pm, m):
            over = [k for k in m if k in pm and m[k] > pm[k]]
            yield Issue("PRIO110", q.path + ("resources", "max"), f"max resource of parent {quantity.go_map(pm)} is smaller than maximum resource {quantity.go_map(m)} for queue {queue_path(q, anc)} ({', '.join(over)})")


def _children_guaranteed(ctx, q):
    """Effective guaranteed: own if set and non-zero, else the sum of the children's."""
    own = ctx.resource(q.guaranteed)
    if own and any(v != 0 for v in own.values()):
        return own
    return _sum_children_guaranteed(ctx, q)


def _sum_children_guaranteed(ctx, q) -> dict:
    """The sum of the effective guaranteed of `q`'s children. A child without any (no guaranteed
    and no children of its own: most leaves) adds nothing, and is not asked."""
    total: dict = {}
    for c in q.children:
        if c.guaranteed or c.queues:
            g = _children_guaranteed(ctx, c)
            if g:
                total = resources.add(total, g)
    return total


@check("PRIO111", "children-guaranteed-exceed-guaranteed", "error", "resources")
def children_guaranteed_exceed_guaranteed(ctx):
    """The children's guaranteed resources add up to more than the parent's guaranteed.

    A child without guaranteed contributes the sum of its own children's guaranteed.

    Example (fails): parent guaranteed memory 10G, two children with 6G each.
    Fix: raise the parent's guaranteed or lower the children's.
    """
    for _p, q, anc in ctx.having("guaranteed"):
        g = ctx.resource(q.guaranteed)
        if not g or not q.children:
            continue
        total = _sum_children_guaranteed(ctx, q)
        if not resources.fits(g, total):
            yield Issue("PRIO111", q.path + ("resources", "guaranteed"), f"guaranteed resource of parent {quantity.go_map(g)} is smaller than sum of guaranteed resources {quantity.go_map(total)} of the children for queue {queue_path(q, anc)}")


@check("PRIO112", "children-guaranteed-exceed-max", "error", "resources")
def children_guaranteed_exceed_max(ctx):
    """The children's guaranteed resources add up to more than the parent's effective max.

    Example (fails): parent max memory 10G, two children guaranteed 6G each.
    Fix: raise the max or lower the guarantees.
    """
    if not ctx.having("max"):
        return  # no max on any queue: no parent has an effective max
    for _p, q, anc in ctx.having("children"):
        if not q.children:
            continue
        eff = resources.component_min(_effective_max(ctx, anc), ctx.resource(q.max) or None)
        if not eff:
            continue
        total = _sum_children_guaranteed(ctx, q)
        if not resources.fits(eff, total):
            yield Issue("PRIO112", q.path + ("name",), f"max resource {quantity.go_map(eff)} is smaller than sum of guaranteed resources {quantity.go_map(total)} of the children for queue {queue_path(q, anc)}")


@check("PRIO113", "maxapplications-exceeds-parent", "error", "resources")
def maxapplications_exceeds_parent(ctx):
    """A child allows more applications than its parent.

    Example (fails): parent maxapplications 10, child maxapplications 20.
    Fix: keep each child's maxapplications at most the parent's (equal is fine).
    """
    for _p, q, anc in ctx.having("maxapplications"):
        if q.maxapplications:
            for c in q.children:
                if c.maxapplications > q.maxapplications:
                    yield Issue("PRIO113", c.path + ("maxapplications",), f"parent maxApplications must be larger than child maxApplications: {queue_path(q, anc)} allows {q.maxapplications}, child {c.name} {c.maxapplications}")


@check("PRIO114", "maxapplications-missing", "error", "resources")
def maxapplications_missing(ctx):
    """A child of a parent with maxapplications does not set its own.

    The docs say 0 means unlimited, but the validator refuses a child with 0 (or none) below a
    parent that sets maxapplications, at every level below it.

    Example (fails): parent maxapplications 10, child without maxapplications.
    Fix: give every descendant a maxapplications no larger than its parent's.
    """
    for _p, q, anc in ctx.having("maxapplications"):
        if q.maxapplications:
            for c in q.children:
                if c.maxapplications == 0:
                    yield Issue("PRIO114", c.path + ("name",), f"maxApplications is either undefined or zero, which is not allowed when parent queue's maxApplications is defined ({queue_path(q, anc)} sets {q.maxapplications})")


@check("PRIO136", "childtemplate-quantity", "error", "resources")
def childtemplate_quantity(ctx):
    """A child template with a resource quantity YuniKorn cannot parse.

    The validator never looks at child templates; YuniKorn parses them when it creates the parent
    queue, so a bad quantity passes /ws/v1/validate-conf and then fails the config reload.

    Example (fails):
        childtemplate:
          resources: {max: {memory: ten}}
    Fix: use a valid quantity.
    """
    refused = ctx.release.bad_template_refused
    for _p, q, anc in ctx.having("childtemplate"):
        ct = q.childtemplate
        if ct is None or not q.is_parent:
            continue
        for kind in ("guaranteed", "max"):
            for path, msg in _bad_entries(getattr(ct, kind), ct.path + ("resources", kind)):
                if refused:
                    yield Issue("PRIO136", path, msg + " (in a child template: YuniKorn fails the queue creation, not the validation)")
                else:  # 1.5's applyConf drops the error, and stops: nothing after the template is applied
                    yield Issue("PRIO136", path, msg + f" (in a child template: YuniKorn {ctx.release.name} accepts the config, drops the "
                                f"template and with it the rest of {queue_path(q, anc)}'s config: its max and guaranteed are never set"
                                + (", nor root's properties" if not anc else "") + ")", severity="warning")
