"""The queue config against the PriorityClasses actually defined: what each class becomes in
each queue, and where offsets and fences make classes trade places.

A pod's ask keeps its class value inside its application and leaf; above the leaf, each queue
reports its highest pending priority plus its own `priority.offset` (saturating at the int32
bounds), or only its offset when fenced (`prio.yunikorn.reference.priority_value_by_policy`). Two pods in different queues are
compared at their lowest common ancestor, on what the two children of that ancestor report. So
for every queue and class prio computes the range a pod of the class can make that queue report
(from the lowest to the highest leaf below it), and then compares siblings:

- PRIO310: a user class in one child can reach or pass a system class in a sibling;
- PRIO311: a lower class in one child outranks a higher class in a sibling (tier3 in root.batch
  before tier1 in root.web).

One warning per ordered pair of siblings and rule, naming the most telling pair of classes and
how many pairs swap in all; it is attached to whichever of the two siblings moves its class
further from the class value (the queue whose offset or fence to look at).
"""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.kube.priorityclass import BUILTIN
from prio.lint.registry import check, run
from prio.values import INT32_MIN as MIN  # the engine's MIN; validate does not load the engine
from prio.yunikorn.properties import PRIORITY_OFFSET, PRIORITY_POLICY

# classranges (and the engine behind it) and the tree load only when the cross-check runs (with
# PriorityClasses): validate does not pay for them otherwise.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (validate's start-up)

if TYPE_CHECKING:
    from prio.yunikorn.tree import QNode

FAMILY = "priorityclass-crosscheck"


def _show(v: int) -> str:
    return "nothing (-2147483648, read as no pending work)" if v == MIN else str(v)


def _cause(q: QNode) -> str:
    if q.fenced:
        return f"{q.path} is fenced: it reports only its offset, {q.offset}"
    if q.offset:
        return f"{q.path} has priority.offset {q.offset:+d}"
    return f"offsets below {q.path}"


@check("PRIO310", "user-class-reaches-system-class", "warning", FAMILY, target="queues-vs-classes")
def user_reaches_system(root: QNode, classes) -> list:
    """A user PriorityClass that, through queue offsets or fences, can reach or pass a system class.

    Kubernetes keeps user classes at or below 1,000,000,000 so that system-cluster-critical
    (2000000000) and system-node-critical (2000001000) pods always come first. In YuniKorn two
    pods in different queues are compared at their common parent on what the two child queues
    report: the class value plus the offsets on the way up, or just the offset of a fenced queue.
    A large offset on one side, or a fence on the other (a fenced queue reports only its offset,
    so a critical pod inside it counts as that offset), lets ordinary work go first.

    Example (warns), with classes tier1 4000 and the built-ins:
        - name: system
          queues:
            - name: system-high
              properties: {priority.offset: "1000"}
        - name: tenants
          properties: {priority.policy: fence}
    A tier1 pod in root.system.system-high reports 5000 at root; a system-node-critical pod in
    root.tenants reports 0 there.
    Fix: keep critical pods out of fenced or negatively offset queues (a placement rule for
    kube-system), or lower the offsets that lift user work.

    This stays a warning when a fence causes it (a system-critical pod inside a fenced subtree
    counts as the fence's offset). Parents with application.sort.priority disabled are not
    checked: there priority only breaks fair-share ties.
    """
    return _compare(root, classes, "PRIO310")


@check("PRIO311", "class-order-swapped-by-offsets", "warning", FAMILY, target="queues-vs-classes")
def class_order_swapped(root: QNode, classes) -> list:
    """Queue offsets or fences that make a lower PriorityClass go before a higher one elsewhere.

    PriorityClass values say which pods matter more cluster-wide. YuniKorn adds each queue's
    `priority.offset` as priorities move up the tree, and a fenced queue reports only its offset,
    so the same class ranks differently in different queues. Where a lower class in one queue
    reports more than a higher class in a sibling, their order is swapped for every scheduling
    cycle. That can be the intent (a fence is meant to flatten a tenant), but it is rarely what a
    cluster's class ladder says.

    Example (warns), with tier1 4000 and tier3 1000:
        - name: batch
          properties: {priority.offset: "5000"}
        - name: web
    tier3 in root.batch reports 6000 at root, tier1 in root.web 4000.
    Fix: keep offsets smaller than the gaps between the classes, or accept the swap knowingly.

    Where a fence rather than an offset causes it, the finding is info; parents with
    application.sort.priority disabled are not checked.
    """
    return _compare(root, classes, "PRIO311")


def _compare(root: QNode, classes, rule: str) -> list:
    from prio.yunikorn.classranges import ranges, sorted_classes

    cls = sorted_classes(classes)
    per = {c.name: ranges(root, c.value) for c in cls}
    user = [c for c in cls if c.name not in BUILTIN]
    system = [c for c in cls if c.name in BUILTIN]
    if rule == "PRIO310":
        pairs = [(u, s) for u in user for s in system]
    else:  # same kind only: a user class against a system class is PRIO310's
        pairs = [(lo, hi) for group in (user, system) for lo in group for hi in group if lo.value < hi.value]
    out = []
    for p in root.walk():
        kids = p.children
        if len(kids) < 2 or not p.sort_priority:
            continue  # with application.sort.priority disabled, priority only breaks fair-share ties here
        for a in kids:
            for b in kids:
                if a is b:
                    continue
                hits = []
                for low, high in pairs:
                    ha = per[low.name][id(a)]
                    lb = per[high.name][id(b)]
                    reached, other = ha[1], lb[0]
                    if reached == MIN:
                        continue
                    if reached > other or (rule == "PRIO310" and reached == other):
                        hits.append((low, high, ha, lb))
                if not hits:
                    continue
                if rule == "PRIO310":  # the weakest user class against the strongest system class
                    low, high, ha, lb = min(hits, key=lambda h: (h[0].value, -h[1].value, h[0].name))
                else:  # the widest gap between the two classes
                    low, high, ha, lb = max(hits, key=lambda h: (h[1].value - h[0].value, h[1].name, h[0].name))
                lift = ha[1] - low.value
                drop = high.value - lb[0]
                at = a if lift >= drop else b
                more = f"; {len(hits) - 1} more class pair{'s' if len(hits) > 2 else ''} swap between these queues" if len(hits) > 1 else ""
                if rule == "PRIO310":
                    verb = "reaches" if ha[1] == lb[0] else "passes"
                    msg = (f"user class {low.name} ({low.value}) {verb} system class {high.name} ({high.value}) at {p.path}: "
                           f"a {low.name} pod in {ha[3]} makes {a.path} report {_show(ha[1])}, a {high.name} pod in "
                           f"{lb[2]} makes {b.path} report {_show(lb[0])} ({_cause(at)}){more}")
                else:
                    msg = (f"{low.name} ({low.value}) in {ha[3]} outranks {high.name} ({high.value}) in {lb[2]} at {p.path}: "
                           f"{a.path} reports {_show(ha[1])} for the first, {b.path} reports {_show(lb[0])} for the second "
                           f"({_cause(at)}){more}")
                out.append((at, rule, msg))
    return out


def cross_check(root: QNode, classes) -> list[tuple[QNode, str, str]]:
    """(queue, rule id, message) for every PRIO310 and PRIO311 warning of this queue tree."""
    return run("queues-vs-classes", root, classes)


def issue_path(q: QNode) -> tuple:
    """Where in the config a cross-check warning about `q` points: its priority.offset (its
    priority.policy for a fence with no offset), else its priority.policy, else its name; () for
    a queue that is not in the config."""
    if q.conf_path is None:
        return ()
    base = tuple(q.conf_path) + ("properties",)
    if q.fenced and PRIORITY_POLICY in q.own and not q.offset:
        return base + (PRIORITY_POLICY,)  # a fence reporting 0: the fence is the point
    if PRIORITY_OFFSET in q.own:
        return base + (PRIORITY_OFFSET,)
    if PRIORITY_POLICY in q.own:
        return base + (PRIORITY_POLICY,)
    return tuple(q.conf_path) + ("name",)


def cross_check_issues(conf, classes) -> list[Issue]:
    """The cross-check of one decoded queues.yaml (every partition) against `classes`, as Issues
    with config paths."""
    if not classes:
        return []
    from prio.yunikorn.tree import from_config

    out = []
    for part in conf.partitions:
        if part.root() is None:
            continue
        root = from_config(part)
        for q, rule, msg in cross_check(root, classes):
            # A fence flattens its subtree by design: a class swap it causes is info. A user class
            # passing a system class stays a warning whatever causes it.
            out.append(Issue(rule, issue_path(q), msg, severity="info" if q.fenced and rule == "PRIO311" else None))
    return out
