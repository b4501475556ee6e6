"""What each PriorityClass becomes in each queue: the range of priorities a queue reports when a
pod of the class is pending somewhere below it (`prio explain --priority-classes`, and the
PRIO310/PRIO311 cross-check)."""
from __future__ import annotations

from prio.kube.priorityclass import catalogue
from prio.yunikorn.reference import MIN
from prio.yunikorn.reference import priority_value_by_policy as report
from prio.yunikorn.tree import QNode


def sorted_classes(classes) -> list:
    """User classes plus the built-ins, highest value first (ties by name)."""
    return sorted(catalogue(classes).values(), key=lambda c: (-c.value, c.name))


def _dynamic_leaf(q: QNode) -> QNode:
    """The leaf a placement rule would create below a parent that has no configured children:
    it takes the nearest child template's properties, nothing inherited (as tree.ensure_queue)."""
    v = QNode("*", q)
    props = dict(q.template.properties) if q.template is not None else {}
    v.apply_properties(props, props)
    return v


def ranges(root: QNode, value: int) -> dict:
    """id(queue) -> (low, high, low leaf path, high leaf path): what the queue reports when one
    pod of priority `value` is pending somewhere below it, over all the leaves it could be in.
    report() never decreases as its input grows, so the ends come from the ends below."""
    out: dict = {}
    order = list(root.walk())
    for q in reversed(order):  # children before parents
        if q.children:
            lo = min((out[id(c)] for c in q.children), key=lambda t: t[0])
            hi = max((out[id(c)] for c in q.children), key=lambda t: t[1])
            out[id(q)] = (report(q, lo[0]), report(q, hi[1]), lo[2], hi[3])
        elif q.leaf:
            v = report(q, value)
            out[id(q)] = (v, v, q.path, q.path)
        else:  # a parent without children: its leaves will be dynamic
            d = _dynamic_leaf(q)
            v = report(q, report(d, value))
            p = f"{q.path}.<dynamic>"
            out[id(q)] = (v, v, p, p)
    return out


def class_ranges(root: QNode, classes) -> list[dict]:
    """For `prio explain --priority-classes`: one row per queue (depth first, config order) and
    class (highest value first, the built-in system classes included): the range of priorities
    that queue reports for a pod of the class pending anywhere below it. A leaf has one value."""
    cls = sorted_classes(classes)
    per = [ranges(root, c.value) for c in cls]
    rows = []
    for q in root.walk():
        for c, r in zip(cls, per):
            lo, hi = r[id(q)][0], r[id(q)][1]
            rows.append({"queue": q.path, "class": c.name, "value": c.value,
                         "min": None if lo == MIN else lo, "max": None if hi == MIN else hi})
    return rows
