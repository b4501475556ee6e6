"""Queue property values YuniKorn silently replaces by defaults, and properties that do nothing."""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.lint.registry import check
from prio.yunikorn import properties as P
from prio.yunikorn import releases
from prio.yunikorn.config import queue_path
from prio.yunikorn.lint.resources import dropped_properties


class _Where:
    """The queue path for messages, computed only when a message needs it."""

    __slots__ = ("q", "anc", "suffix")

    def __init__(self, q, anc, suffix=""):
        self.q, self.anc, self.suffix = q, anc, suffix

    def __str__(self) -> str:
        return queue_path(self.q, self.anc) + self.suffix

    __format__ = lambda self, spec: format(str(self), spec)


def _props(ctx):
    """(queue, ancestors, properties map, path of the map, where) for queues and child templates,
    but the maps the release drops with a child template that fails (dropped_properties)."""
    dropped = dropped_properties(ctx)
    for _p, q, anc in ctx.queues:
        if q.properties and id(q.properties) not in dropped:
            yield q, anc, q.properties, q.path + ("properties",), _Where(q, anc)
        if q.childtemplate is not None and q.childtemplate.properties and id(q.childtemplate.properties) not in dropped:
            yield q, anc, q.childtemplate.properties, q.childtemplate.path + ("properties",), _Where(q, anc, " (child template)")


# Where inheritance changes what a wrong value does, the message says so.
_INHERITANCE = {
    P.PRIORITY_POLICY: " (priority.policy is never inherited: each queue to fence needs its own)",
    P.PRIORITY_OFFSET: " (priority.offset is never inherited: offsets add up along the path instead)",
    P.SORT_PRIORITY: " (application.sort.priority is inherited: child queues that do not set it get this value)",
    P.SORT_POLICY: " (application.sort.policy is inherited by child queues that do not set it)",
}


def _value_issues(ctx, rule, keys):
    keys = [k for k in keys if k in ctx.release.properties]  # a key the release ignores is PRIO210's
    for q, _anc, props, path, where in _props(ctx):
        for key in keys:
            if key in props:
                why = P.problem(key, props[key])
                if why:
                    yield Issue(rule, path + (key,), f"{key} on {where}: {why}{_INHERITANCE.get(key, '') if q.children else ''}",
                                fix=_fix(key, props[key]))


def _quoted(value) -> str:
    """A property value as YAML writes a string map's value: numbers and booleans in quotes."""
    v = str(value)
    return f'"{v}"' if v.lower() in _ON + _OFF or P.is_decimal(v) or not v else v


_ON, _OFF = ("on", "yes", "true", "y", "1"), ("off", "no", "false", "n", "0")


def _closest(value: str, choices) -> str | None:
    import difflib  # lazy: kept off the start-up of validate
    near = difflib.get_close_matches(str(value).lower(), choices, n=1, cutoff=0.6)
    return near[0] if near else None


def _fix(key: str, value) -> str:
    """The help: line for a property value YuniKorn replaces, in the finding's own terms: the value
    the message suggests (`did you mean 'fifo'`), or the values YuniKorn takes; never an example's."""
    v = str(value).strip()
    if key == P.SORT_POLICY:
        near = _closest(v, ("fifo", "fair"))
        return f"`{key}: {near}`" if near else f"`{key}: fifo` or `{key}: fair`"
    if key == P.SORT_PRIORITY:
        want = "disabled" if v.lower() in _OFF else "enabled" if v.lower() in _ON else _closest(v, ("enabled", "disabled"))
        return f"`{key}: {want}`" if want else f"`{key}: enabled` or `{key}: disabled`"
    if key == P.PRIORITY_POLICY:
        near = _closest(v, ("default", "fence"))
        return f"`{key}: {near}`" if near else f"`{key}: fence` or `{key}: default`"
    if key == P.PREEMPTION_POLICY:
        near = _closest(v, ("default", "fence", "disabled"))
        return f"`{key}: {near}`" if near else f"`{key}:` default, fence or disabled"
    if key in (P.PREEMPTION_DELAY, P.QUOTA_PREEMPTION_DELAY, P.QUOTA_PREEMPTION_DELAY_18, P.BACKOFF_DELAY):
        if P.is_decimal(v) and v.lstrip("+").strip("0"):  # a count without a unit: seconds, presumably
            return f"`{key}: {v.lstrip('+')}s` (a Go duration needs a unit)"
        return f"a positive Go duration with a unit, like `{key}: 30s` or `1m30s`"
    if key == P.BACKOFF:
        return f"`{key}:` an unsigned integer (the number of retries), in quotes"
    return ""


@check("PRIO203", "invalid-priority-offset", "warning", "properties")
def invalid_priority_offset(ctx):
    """A priority.offset that YuniKorn cannot parse, so it silently uses 0.

    YuniKorn reads the offset with strconv.ParseInt(s, 10, 32): an optional sign and decimal
    digits, nothing else. A space, a hex or float form, or a value outside the int32 range makes
    the offset 0 (not clamped), without an error. Leading zeros are fine (`010` is 10).

    Example (warns): `priority.offset: "3000000000"` or `priority.offset: " 5"`
    Fix: a plain integer between -2147483648 and 2147483647.
    """
    yield from _value_issues(ctx, "PRIO203", (P.PRIORITY_OFFSET,))


@check("PRIO204", "invalid-sort-policy", "warning", "properties")
def invalid_sort_policy(ctx):
    """An application.sort.policy YuniKorn does not know, so it silently uses fifo.

    The values are fifo and fair, and they are case-sensitive: `Fair` or `FIFO` become fifo.

    Example (warns): `application.sort.policy: Fair`
    Fix: `application.sort.policy: fair`
    """
    for issue in _value_issues(ctx, "PRIO204", (P.SORT_POLICY,)):
        if "stateaware" not in issue.message.split(":", 1)[1]:
            yield issue


@check("PRIO205", "stateaware-deprecated", "warning", "properties")
def stateaware_deprecated(ctx):
    """application.sort.policy: stateaware, which YuniKorn 1.6 removed; it now means fifo.

    Example (warns): `application.sort.policy: stateaware`
    Fix: `application.sort.policy: fifo` (or fair).
    """
    for _q, _anc, props, path, where in _props(ctx):
        if props.get(P.SORT_POLICY) == "stateaware":
            yield Issue("PRIO205", path + (P.SORT_POLICY,), f"{P.SORT_POLICY} on {where}: stateaware was removed in YuniKorn 1.6 and now means fifo")


@check("PRIO206", "invalid-priority-policy", "warning", "properties")
def invalid_priority_policy(ctx):
    """A priority.policy other than default or fence, so YuniKorn uses default (no fence).

    Example (warns): `priority.policy: fenced`
    Fix: `priority.policy: fence`
    """
    yield from _value_issues(ctx, "PRIO206", (P.PRIORITY_POLICY,))


@check("PRIO207", "invalid-sort-priority", "warning", "properties")
def invalid_sort_priority(ctx):
    """An application.sort.priority other than enabled or disabled, so priority sorting stays on.

    YAML's `off`, `no` and `false` are not `disabled`. Note the property is inherited by child
    queues (unlike priority.offset and priority.policy).

    Example (warns): `application.sort.priority: off`
    Fix: `application.sort.priority: disabled`
    """
    yield from _value_issues(ctx, "PRIO207", (P.SORT_PRIORITY,))


@check("PRIO211", "invalid-property-value", "warning", "properties")
def invalid_property_value(ctx):
    """A preemption or backoff property value YuniKorn replaces by its default.

    preemption.policy is default, fence or disabled; preemption.delay, quota.preemption.delay and
    application.unschedasks.backoff.delay are positive Go durations (30s, 1m30s);
    application.unschedasks.backoff is an unsigned integer.

    Example (warns): `preemption.delay: 30` (no unit)
    Fix: `preemption.delay: 30s`
    """
    yield from _value_issues(ctx, "PRIO211", (P.PREEMPTION_POLICY, P.PREEMPTION_DELAY, P.QUOTA_PREEMPTION_DELAY, P.QUOTA_PREEMPTION_DELAY_18,
                                              P.BACKOFF, P.BACKOFF_DELAY))


@check("PRIO208", "root-priority-no-effect", "warning", "properties")
def root_priority_no_effect(ctx):
    """priority.policy or priority.offset on the root queue, where they have no effect.

    Nothing compares root with another queue, so its offset and fence never change the
    scheduling order (YuniKorn applies them to the value it reports and says nothing).

    Example (warns): root with `priority.offset: "100"`
    Fix: remove it, or set it on root's children.
    """
    for _p, r in ctx.trees:
        if r.inserted:
            continue
        for key in (P.PRIORITY_POLICY, P.PRIORITY_OFFSET):
            if key in r.properties:
                yield Issue("PRIO208", r.path + ("properties", key), f"{key} on the root queue has no effect on scheduling: root is never compared with another queue", at="key")


@check("PRIO209", "childtemplate-on-leaf", "warning", "properties")
def childtemplate_on_leaf(ctx):
    """A child template on a leaf queue, which YuniKorn ignores.

    Child templates apply to dynamic children of parent queues; on a leaf YuniKorn never reads it.

    Example (warns): a queue without children or `parent: true` that has `childtemplate:`.
    Fix: move it to the parent, or add `parent: true`.
    """
    for _p, q, anc in ctx.queues:
        if q.childtemplate is not None and not q.is_parent:
            yield Issue("PRIO209", q.childtemplate.path, f"child template on leaf queue {queue_path(q, anc)} is ignored: only parent queues create dynamic children", at="key")


@check("PRIO210", "unknown-property", "warning", "properties")
def unknown_property(ctx):
    """A queue property YuniKorn does not know: it is kept (and inherited) but does nothing.

    Keys are case-sensitive. There is no `max.waittime` property.

    Example (warns): `priority.offest: "10"`
    Fix: `priority.offset: "10"`
    """
    release = ctx.release
    known = release.properties
    for _q, _anc, props, path, where in _props(ctx):
        for key in props:
            if key not in known:
                elsewhere = releases.reads_elsewhere(key, release)
                if elsewhere:  # a key of another release: say which, and what this one reads instead
                    instead = release.quota_delay if key in (P.QUOTA_PREEMPTION_DELAY_18, P.QUOTA_PREEMPTION_DELAY) else None
                    also = f"; YuniKorn {release.name} reads {instead!r} instead" if instead else ""
                    yield Issue("PRIO210", path + (key,), f"property {key!r} on {where} is ignored by YuniKorn {release.name}: "
                                f"only YuniKorn {releases.span(elsewhere)} read{'s' if len(elsewhere) == 1 else ''} it{also}",
                                at="key", fix=f"`{instead}: {_quoted(props[key])}`" if instead else
                                f"remove `{key}`, or run YuniKorn {releases.span(elsewhere)}")
                    continue
                import difflib  # lazy: kept off the start-up of validate
                near = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.75)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                fix = f"`{near[0]}: {_quoted(props[key])}`" if near else f"remove `{key}`, or name a property YuniKorn knows"
                yield Issue("PRIO210", path + (key,), f"unknown property {key!r} on {where} is ignored by YuniKorn{hint}",
                            at="key", fix=fix)
