"""The runtime queue tree of one partition, as YuniKorn builds it from the config: effective
properties with inheritance, parsed priority settings, resources, child templates, and dynamic
queues for paths a snapshot names but the config lacks."""
from __future__ import annotations

from typing import TYPE_CHECKING

from prio.errors import InputError
from prio.yunikorn import acl, quantity, resources
from prio.yunikorn import properties as P
from prio.yunikorn.config import Partition

if TYPE_CHECKING:
    from prio.yunikorn.maxtracker import MaxTracker


class QNode:
    """One queue. Static facts are set at build time; the engine keeps its dynamic state here
    too (slots keep the hot loop cheap)."""

    # What a scheduling step reads and writes comes first, together: a run over 10,000 queues
    # touches a few of them at random every step, and slots are laid out in this order, so the
    # hot ones share two or three cache lines instead of being spread over six.
    __slots__ = ("name", "leaf", "pending", "allocated", "live", "heap", "reported", "chain",
                 "placed", "first_step", "last_step", "running", "sort_policy", "sort_priority",
                 "path", "parent", "tracker",
                 "children", "by_name", "props", "own", "offset",
                 "offset_problem", "fenced", "guaranteed", "max",
                 "maxapps", "dynamic", "template", "fairmax", "conf_path", "notes", "depth",
                 "version", "apps", "stopped", "base_allocated", "acl")

    # The slots' types (annotations only: no class attribute, nothing at run time). The static
    # facts are set in __init__ and from the config; the engine's state (pending to last_step)
    # is set by model.Model._init_state, chain by Model.path_of when first asked.
    name: str
    parent: QNode | None
    path: str
    depth: int
    children: list[QNode]
    by_name: dict[str, QNode]
    leaf: bool
    props: dict
    own: dict
    offset: int
    offset_problem: str | None
    fenced: bool
    sort_priority: bool
    sort_policy: str
    guaranteed: dict | None
    max: dict | None
    maxapps: int
    dynamic: bool
    template: Template | None
    fairmax: dict | None  # None until set_fairmax or Model._init_state gives it (a dynamic queue)
    conf_path: str | None
    notes: list[str]
    stopped: bool
    base_allocated: dict | None
    acl: tuple | None
    tracker: MaxTracker
    reported: int
    pending: dict
    allocated: dict
    running: int
    live: int
    version: int
    placed: int
    heap: list
    apps: list
    first_step: int | None
    last_step: int | None
    chain: list

    def __init__(self, name: str, parent: QNode | None):
        self.name = name
        self.parent = parent
        self.path = name if parent is None else f"{parent.path}.{name}"
        self.depth = 0 if parent is None else parent.depth + 1
        self.children: list[QNode] = []
        self.by_name: dict[str, QNode] = {}
        self.leaf = True
        self.props: dict = {}
        self.own: dict = {}
        self.offset = 0
        self.offset_problem = None
        self.fenced = False
        self.sort_priority = True
        self.sort_policy = "fifo"
        self.guaranteed = None
        self.max = None
        self.maxapps = 0
        self.dynamic = False
        self.template = None
        self.fairmax = None
        self.conf_path = None
        self.notes: list[str] = []
        self.stopped = False  # a Stopped queue (REST dumps) is never scheduled
        self.base_allocated = None  # allocated resources a REST dump reports for the queue
        # (submit ACL, admin ACL) as acl.parse reads the config's (an ACL YuniKorn refuses is
        # None); None for a queue with no ACLs of its own (dynamic ones: the parent decides)
        self.acl = None

    def apply_properties(self, effective: dict, own: dict) -> None:
        self.props = effective
        self.own = own
        # priority.policy and priority.offset are never inherited: read them from own only.
        self.offset, self.offset_problem = P.offset(own.get(P.PRIORITY_OFFSET))
        self.fenced = P.priority_policy(own.get(P.PRIORITY_POLICY))[0] == "fence"
        self.sort_priority = P.sort_priority(effective.get(P.SORT_PRIORITY))[0]
        self.sort_policy = P.sort_policy(effective.get(P.SORT_POLICY))[0]

    def walk(self):
        stack = [self]
        while stack:
            q = stack.pop()
            yield q
            stack.extend(reversed(q.children))

    def add_child(self, child: QNode) -> None:
        self.children.append(child)
        self.by_name[child.name] = child
        self.leaf = False


def _positive(res: dict | None) -> dict | None:
    """YuniKorn keeps a max/guaranteed only when it is strictly greater than zero."""
    if res is None:
        return None
    parsed = quantity.parse_lenient(res)
    return parsed if resources.strictly_positive(parsed) else None


class Template:
    __slots__ = ("properties", "maxapps", "guaranteed", "max", "_raw")

    def __init__(self, ct):
        self.properties = {k: v for k, v in ct.properties.items() if k and v}
        self.maxapps = ct.maxapplications
        self.guaranteed = _positive(ct.guaranteed)
        self.max = _positive(ct.max)
        self._raw = (ct.properties, ct.guaranteed or {}, ct.max or {})

    def empty(self) -> bool:
        """isChildTemplateEmpty looks at the raw text: `max: {memory: "0"}` is not empty (it
        blocks the inherited template) even though the zero max itself is then dropped."""
        return not self.maxapps and not any(k and v for m in self._raw for k, v in m.items())


def empty_root() -> QNode:
    """A root queue with nothing configured (a partition without queues, or no config)."""
    root = QNode("root", None)
    root.apply_properties({}, {})
    root.leaf = False
    return root


def from_config(partition: Partition) -> QNode:
    conf_root = partition.root()
    if conf_root is None:
        return empty_root()

    def build(cq, parent):
        q = QNode(cq.name.lower(), parent)
        q.conf_path = cq.path
        own = dict(cq.properties)
        eff = P.inherit(parent.props) if parent is not None else {}
        eff.update(own)
        q.apply_properties(eff, own)
        if cq.name != "root":  # applyConf skips resources for any queue named root (root.root too)
            q.guaranteed = _positive(cq.guaranteed)
            q.max = _positive(cq.max)
        q.maxapps = cq.maxapplications
        q.acl = (acl.parse(cq.submitacl), acl.parse(cq.adminacl))
        tmpl = None
        if cq.childtemplate is not None and cq.is_parent:
            t = Template(cq.childtemplate)
            tmpl = None if t.empty() else t
        q.template = tmpl or (parent.template if parent is not None else None)
        if parent is not None:
            parent.add_child(q)
        for c in cq.children:
            build(c, q)
        if cq.is_parent or parent is None:
            q.leaf = False  # root is always a parent
        return q

    return build(conf_root, None)


def ensure_queue(root: QNode, path: str, where: str, line: int | None = None) -> QNode:
    """The queue at `path`, creating dynamic queues as a placement rule would."""
    parts = path.lower().split(".")
    if parts[0] != "root":
        parts = ["root"] + parts
    cur = root
    for i, name in enumerate(parts[1:], 1):
        nxt = cur.by_name.get(name)
        if nxt is None:
            if cur.leaf:
                raise InputError(where, f"queue {path!r} cannot exist: {cur.path} is a leaf queue and cannot have children", line)
            nxt = QNode(name, cur)
            nxt.dynamic = True
            last = i == len(parts) - 1
            tmpl = cur.template
            if last:
                # A dynamic leaf takes the nearest child template's settings, nothing inherited.
                props = dict(tmpl.properties) if tmpl else {}
                nxt.apply_properties(props, props)
                if tmpl:
                    nxt.maxapps, nxt.guaranteed, nxt.max = tmpl.maxapps, tmpl.guaranteed, tmpl.max
                nxt.notes.append("dynamic queue (not in the config): " + ("takes the child template of " + cur.path if tmpl else "no child template, so default properties"))
            else:
                nxt.apply_properties({}, {})
                nxt.leaf = False
                nxt.template = tmpl
                nxt.notes.append("dynamic parent queue (not in the config): empty properties")
            cur.add_child(nxt)
            if not last:
                nxt.leaf = False
            else:
                nxt.leaf = True
        cur = nxt
    if not cur.leaf:
        raise InputError(where, f"queue {path!r} is a parent queue: applications can only be placed in leaf queues", line)
    return cur


# Without a capacity the root's max is still the cluster's size in YuniKorn (the sum of its
# nodes): prio sees a huge cluster of this much of every resource type in use (vcore in cores,
# so 10^15 millicores), for fair shares only; headroom stays unlimited.
HUGE = 10**12


def huge_cluster(types) -> dict:
    return {k: HUGE * 1000 if k == "vcore" else HUGE for k in types}


def fair_max(parent_fm: dict, own_max: dict | None) -> dict:
    """internalGetFairMaxResource: the parent's fair max overlaid by the queue's own max, unless
    either is empty (then the parent's, unchanged)."""
    fm = dict(parent_fm)
    if own_max and fm:
        fm.update(own_max)
    return fm


def set_fairmax(root: QNode, capacity: dict | None, types=()) -> None:
    """GetFairMaxResource: root's max (the capacity, else a huge cluster of `types`) overlaid by
    each queue's own max going down."""
    root.max = capacity if capacity else None
    root.fairmax = dict(capacity) if capacity else huge_cluster(types)
    for q in root.walk():
        if q.parent is not None:
            q.fairmax = fair_max(q.parent.fairmax, q.max)
