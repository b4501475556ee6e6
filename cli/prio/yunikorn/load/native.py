"""prio's native snapshot format (see the contract): applications with asks, optional capacity
and PriorityClasses. Times are RFC 3339 or seconds; without them, the order in the file counts:
an application without a time was submitted at 2024-01-01T00:00:00Z plus one second per
position in the file (snapshot.DEFAULT_SUBMIT_NS: the recorded corpora's convention, so running
allocations' create times compare with it as YuniKorn compares them), an ask without a time counts
as created with its application. Equal times: application id, then file order."""
from __future__ import annotations

from prio.io import caps
from prio.io.recognise import is_native  # noqa: F401 - recognised by shape
from prio.kube.priorityclass import PREEMPTION_POLICIES, PriorityClass, ResolveError, resolve
from prio.values import INT32_MAX, INT32_MIN, go_duration_seconds
from prio.yunikorn import resources
from prio.yunikorn.load.reader import Reader, parse_time, to_ns
from prio.yunikorn.nodes import unschedulable_note
from prio.yunikorn.snapshot import DEFAULT_SUBMIT_NS, SECOND_NS, Allocation, App, Ask, Node, Snapshot, TaskGroup

TOP = ("partition", "capacity", "priorityClasses", "applications", "nodes", "horizon", "yunikornVersion")
APP = ("id", "queue", "submitTime", "allocated", "asks", "state", "user", "groups", "allocations", "rejectedMessage", "tags",
       "taskGroups", "gangSchedulingStyle", "placeholderTimeoutInSeconds")
ASK = ("id", "priority", "priorityClassName", "resources", "createTime", "count", "preemptionPolicy", "originator",
       "taskGroup", "placeholder", "requiredNode",
       "nodeSelector", "affinity", "tolerations")
ALLOC = ("id", "priority", "priorityClassName", "resources", "node", "createTime", "originator", "allowPreemption",
         "taskGroup", "placeholder")
MAX_COUNT = 10_000_000
ASK_KEYS = frozenset(ASK)
DEFAULT_RESOURCES = {"pods": 1}  # what the Kubernetes shim sends for a pod without requests
_DEFAULT = object()


def _priority(r: Reader, path, k: dict, classes) -> int:
    """An ask's priority when it is not a plain int32: checked, or resolved from its class."""
    prio = k.get("priority")
    if prio is not None:
        return r.int32(path + ("priority",), prio, "ask priority")
    try:
        return resolve(k.get("priorityClassName"), classes)
    except ResolveError as e:
        r.fail(path + ("priorityClassName",), str(e))


def priority_classes(r: Reader, value, path) -> list:
    out = []
    if value is None:
        return out
    if not isinstance(value, list):
        r.fail(path, "priorityClasses must be a list")
    for i, c in enumerate(value):
        p = tuple(path) + (i,)
        if not isinstance(c, dict):
            r.fail(p, "a priority class is a mapping with name and value")
        if "metadata" in c:  # a full PriorityClass object
            name = (c.get("metadata") or {}).get("name")
        else:
            name = c.get("name")
        if not isinstance(name, str) or not name:
            r.fail(p, "a priority class needs a name")
        val = r.int32(p + ("value",), c.get("value", 0), f"PriorityClass {name} value")
        out.append(PriorityClass(name, val, bool(c.get("globalDefault", False)), str(c.get("preemptionPolicy") or "PreemptLowerPriority")))
    return out


def load(name: str, doc, extra_classes=(), already: int = 0) -> Snapshot:
    """The snapshot of one native document; `already`: the asks earlier inputs of the run gave
    (the asks cap is on the run's total, prio.io.caps)."""
    r = Reader(name, doc)
    data = doc.data
    r.check_keys((), data, TOP, "the snapshot")
    snap = Snapshot(source=name)
    if data.get("partition") is not None:
        snap.partition = str(data["partition"])
    if data.get("capacity") is not None:
        snap.capacity = r.resources(("capacity",), data["capacity"])
    snap.priority_classes = priority_classes(r, data.get("priorityClasses"), ("priorityClasses",)) + list(extra_classes)
    if data.get("horizon") is not None:
        snap.horizon = _horizon(r, data["horizon"])
    if data.get("yunikornVersion") is not None:
        snap.yunikorn_version = _release(r, doc, data["yunikornVersion"])
    if data.get("nodes") is not None:
        snap.nodes = nodes(r, data["nodes"])
        said = unschedulable_note(snap.nodes)
        if said:
            snap.notes.append(f"{name}: {said}")
        if snap.capacity is None:  # no capacity given: the cluster is the sum of its nodes
            snap.capacity = resources.total(n.capacity for n in snap.nodes)
    seen_apps = set()
    seen_allocs: dict = {}  # allocation id -> application: allocation keys are unique
    deferred = getattr(doc, "deferred", False)  # a JSON document whose positions come on demand
    app_lines = doc.item_lines("applications") if deferred else None
    # A document without positions (large JSON) puts every path at its start: doc.pos, once.
    no_positions = not deferred and not doc.index
    start_line = doc.start.line if no_positions else None
    shapes: dict = {}
    order = 0
    max_asks = caps.ASKS.value()
    before = already  # asks of the run read so far: the cap is on the total, checked before expanding
    total = caps.in_total(already)
    lo, hi = INT32_MIN, INT32_MAX
    same = {}.setdefault  # one int object per priority value, shared by its asks
    interned = {}.setdefault  # one Constraints object per shape
    new_ask = tuple.__new__  # Ask(...) without NamedTuple's Python-level __new__
    for i, a in enumerate(data["applications"]):
        ap = ("applications", i)
        if not isinstance(a, dict):
            r.fail(ap, "an application is a mapping with id, queue and asks")
        r.check_keys(ap, a, APP, "an application")
        app_id = a.get("id")
        if not isinstance(app_id, (str, int)) or isinstance(app_id, bool) or str(app_id) == "":
            r.fail(ap, "an application needs an id")
        app_id = str(app_id)
        if app_id in seen_apps:
            r.fail(ap + ("id",), f"application id {app_id!r} appears twice")
        seen_apps.add(app_id)
        queue = a.get("queue")
        rejected = str(a.get("state") or "").lower() == "rejected"  # YuniKorn refused it (prio snapshot of a live server)
        if queue is None:
            queue = ""  # none named: the placement rules decide (YuniKorn does not serve a rejected one's)
        elif not isinstance(queue, str) or (queue and any(not part for part in queue.split("."))):
            r.fail(ap + ("queue",), f"application {app_id}: queue must be a queue path like root.tenants.a, found {queue!r}")
        submit = parse_time(a.get("submitTime"))
        if a.get("submitTime") is not None and submit is None:
            r.fail(ap + ("submitTime",), f"submitTime {a.get('submitTime')!r} is not an RFC 3339 time or a number of seconds (in Go's time range, years 1678 to 2262)")
        order += 1
        # A given time sorts by itself (ties go to the application id); without one, the default
        # time of its position, marked by its place in the file (a given time's mark is 0)
        app = App(app_id, queue.lower(), (to_ns(submit), 0) if submit is not None else (DEFAULT_SUBMIT_NS + i * SECOND_NS, order),
                  allocated=r.resources(ap + ("allocated",), a.get("allocated")),
                  state=str(a.get("state") or ""), line=app_lines[i] if app_lines is not None else start_line if no_positions else doc.pos(ap).line, user=str(a.get("user") or ""))
        if a.get("groups") is not None:
            app.groups = _groups(r, ap + ("groups",), a["groups"], app_id)
        if queue and not queue.startswith("root.") and queue != queue.lower():
            app.queue_raw = queue  # the provided rule reads the case of "root." as written
        if a.get("tags") is not None:
            app.tags = _tags(r, ap + ("tags",), a["tags"], app_id)
        if a.get("taskGroups") is not None or "gangSchedulingStyle" in a or "placeholderTimeoutInSeconds" in a:
            _gang_app(r, ap, a, app)
        if rejected:
            app.rejected = str(a.get("rejectedMessage") or f"application {app_id} was rejected by YuniKorn (state: Rejected)")
        if a.get("allocations") is not None:
            app.allocations = allocations(r, ap + ("allocations",), a["allocations"], snap.priority_classes, app_id, snap.nodes, seen_allocs)
            app.allocated = resources.total(x.resources for x in app.allocations)  # allocations win over allocated
        asks = a.get("asks") or []
        if not isinstance(asks, list):
            r.fail(ap + ("asks",), "asks must be a list")
        n = 0
        ids = set()
        # The hot loop of a million asks: the common case (an int priority, a known resource
        # shape, no times) costs a few dict lookups; anything else takes the careful path.
        fast_shapes = no_positions or deferred  # (a deferred document finds its positions when a message needs one)
        asks_out = app.asks
        append = asks_out.append
        submit = app.submit_time
        for j, k in enumerate(asks):
            if type(k) is not dict:
                r.fail(ap + ("asks", j), "an ask is a mapping (priority, resources, ...)")
            get = k.get
            prio = get("priority")
            rv = get("resources")
            if type(prio) is int and lo <= prio <= hi and fast_shapes and (
                    (type(rv) is dict and len(k) == 2) or (rv is None and len(k) == 1)):
                # The commonest ask, in a large JSON snapshot: exactly a plain priority, and a
                # resources mapping or none (the general branch below with count 1, no id, no
                # times, no preemption policy, and its shape known).
                if rv is None:
                    res = DEFAULT_RESOURCES
                else:
                    res = shapes.get(shape := tuple(rv.items()))
                    if res is None:
                        res = shapes[shape] = r.resources(ap + ("asks", j, "resources"), rv)
                n += 1
                order += 1
                append(new_ask(Ask, (f"{app_id}-{n}", same(prio, prio), res, submit, order, "", False, "", False, "", None)))
                continue
            if not k.keys() <= ASK_KEYS:
                r.check_keys(ap + ("asks", j), k, ASK, "an ask")
            prio = get("priority")
            if type(prio) is not int or not INT32_MIN <= prio <= INT32_MAX:
                prio = _priority(r, ap + ("asks", j), k, snap.priority_classes)
            count = get("count", 1)
            if type(count) is not int or count < 1 or count > MAX_COUNT:
                r.fail(ap + ("asks", j, "count"), f"count must be a whole number from 1 to {MAX_COUNT}, found {count!r}")
            if count > 1 and before + len(asks_out) + count > max_asks:
                r.fail(ap + ("asks", j, "count"), caps.ASKS.exceeded(before + len(asks_out) + count, f"{total}, counts expanded"))
            rv = get("resources", _DEFAULT)
            if rv is _DEFAULT:
                res = DEFAULT_RESOURCES
            else:
                # Asks repeat a few resource shapes: parse each shape once and share the dict.
                shape = tuple(rv.items()) if fast_shapes and type(rv) is dict else None
                res = shapes.get(shape) if shape is not None else None
                if res is None:
                    res = r.resources(ap + ("asks", j, "resources"), rv)
                    if shape is not None:
                        shapes[shape] = res
            ct = get("createTime")
            if ct is None:
                when = submit  # created with its application, then file order
            else:
                created = parse_time(ct)
                if created is None:
                    r.fail(ap + ("asks", j, "createTime"), f"createTime {ct!r} is not an RFC 3339 time or a number of seconds (in Go's time range, years 1678 to 2262)")
                when = (to_ns(created), 0)
            base = get("id")
            gang = _task_fields(r, ap + ("asks", j), k) if ("originator" in k or "taskGroup" in k or "placeholder" in k
                                                             or "requiredNode" in k) else ()
            pp = get("preemptionPolicy")
            if pp is not None or "priorityClassName" in k:
                pp = _preemption_policy(r, ap + ("asks", j), k, snap.priority_classes)
            nc = None
            if "nodeSelector" in k or "affinity" in k or "tolerations" in k:
                nc = r.node_constraints(ap + ("asks", j), get("nodeSelector"), get("affinity"), get("tolerations"))
                nc = interned(nc, nc)  # asks repeat a few shapes: one object each, judged once
            if base is None and count == 1:
                n += 1
                order += 1
                asks_out.append(Ask(f"{app_id}-{n}", prio, res, when, order, pp or "", *gang, node=nc))
                continue
            for c in range(count):
                n += 1
                order += 1
                if base is None:
                    ask_id = f"{app_id}-{n}"
                else:
                    ask_id = str(base) if count == 1 else f"{base}-{c + 1}"
                    if ask_id in ids:
                        r.fail(ap + ("asks", j), f"ask id {ask_id!r} appears twice in application {app_id}")
                    ids.add(ask_id)
                asks_out.append(Ask(ask_id, prio, res, when, order, pp or "", *gang, node=nc))
        before += len(asks_out)
        if before > max_asks:  # asks of count 1 only: bounded by the file's size, stopped here
            r.fail(ap + ("asks",), caps.ASKS.exceeded(before, total))
        snap.apps.append(app)
    return snap


# ---- preemption inputs: nodes, running allocations, an ask's preemptionPolicy ----------------

def _preemption_policy(r: Reader, path, k: dict, classes) -> str:
    """The ask's own preemptionPolicy, else its PriorityClass's (as admission copies it)."""
    pp = k.get("preemptionPolicy")
    if pp is None:
        name = k.get("priorityClassName")
        cls = next((c for c in classes if c.name == name), None)
        return cls.preemption_policy if cls is not None else ""
    if pp not in PREEMPTION_POLICIES:
        r.fail(path + ("preemptionPolicy",), f"preemptionPolicy must be PreemptLowerPriority or Never, found {pp!r}")
    return pp


def nodes(r: Reader, value) -> list:
    if not isinstance(value, list):
        r.fail(("nodes",), "nodes must be a list of {name, capacity}")
    out, seen = [], set()
    for i, n in enumerate(value):
        p = ("nodes", i)
        if not isinstance(n, dict):
            r.fail(p, "a node is a mapping with name and capacity")
        r.check_keys(p, n, ("name", "capacity", "schedulable", "occupied", "labels", "taints"), "a node")
        name = n.get("name")
        if not isinstance(name, (str, int)) or isinstance(name, bool) or str(name) == "":
            r.fail(p, "a node needs a name")
        if str(name) in seen:
            r.fail(p + ("name",), f"node {name!r} appears twice")
        seen.add(str(name))
        if not isinstance(n.get("capacity"), dict):
            r.fail(p + ("capacity",) if "capacity" in n else p, f"node {name}: capacity must be a mapping of resource name to quantity")
        schedulable = n.get("schedulable", True)
        if not isinstance(schedulable, bool):  # prio's addition to the contract: the node DAO's field
            r.fail(p + ("schedulable",), f"node {name}: schedulable must be true or false, found {schedulable!r}")
        node = Node(str(name), r.resources(p + ("capacity",), n["capacity"]), schedulable)
        if n.get("occupied") is not None:  # what pods of other schedulers take on the node
            node.occupied = r.resources(p + ("occupied",), n["occupied"])
        node.labels = r.node_labels(p, n.get("labels"))  # what the pods' predicates read (kube.predicates)
        node.taints = r.node_taints(p, n.get("taints"))
        out.append(node)
    return out


def _groups(r: Reader, path, value, app_id: str) -> tuple:
    """An application's `groups`: the user's group names, in the resource manager's order."""
    if not isinstance(value, list) or any(isinstance(g, bool) or not isinstance(g, (str, int)) or str(g) == "" for g in value):
        r.fail(path, f"application {app_id}: groups must be a list of group names, found {value!r}")
    return tuple(str(g) for g in value)


def _flag(r: Reader, path, value, default: bool) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        r.fail(path, f"expected true or false, found {value!r}")
    return value


def allocations(r: Reader, path, value, classes, app_id: str, node_list=None, seen_allocs=None) -> list:
    if not isinstance(value, list):
        r.fail(path, "allocations must be a list")
    out, seen = [], set()
    for i, a in enumerate(value):
        p = tuple(path) + (i,)
        if not isinstance(a, dict):
            r.fail(p, "an allocation is a mapping (id, priority, resources, node, ...)")
        r.check_keys(p, a, ALLOC, "an allocation")
        aid = a.get("id")
        if aid is None:
            aid = f"{app_id}-alloc-{i + 1}"
        if isinstance(aid, bool) or not isinstance(aid, (str, int)) or str(aid) == "":
            r.fail(p + ("id",), f"allocation id must be a string, found {aid!r}")
        aid = str(aid)
        if aid in seen:
            r.fail(p + ("id",), f"allocation id {aid!r} appears twice in application {app_id}")
        if seen_allocs is not None and aid in seen_allocs:
            r.fail(p + ("id",), f"allocation id {aid!r} appears twice (also in application {seen_allocs[aid]}): allocation keys are unique")
        seen.add(aid)
        if seen_allocs is not None:
            seen_allocs[aid] = app_id
        prio = 0 if a.get("priority") is None and a.get("priorityClassName") is None else _priority(r, p, a, classes)
        res = DEFAULT_RESOURCES if "resources" not in a else r.resources(p + ("resources",), a["resources"])
        node = a.get("node")
        if node is not None and (isinstance(node, bool) or not isinstance(node, (str, int))):
            r.fail(p + ("node",), f"node must be a node name, found {node!r}")
        if node_list is not None:  # the nodes are listed: every allocation runs on one of them
            names = [n.name for n in node_list]
            if node is None and len(names) == 1:
                node = names[0]
            elif str(node) not in names:
                r.fail(p + ("node",) if node is not None else p, f"allocation {aid}: node {node!r} is not one of the snapshot's nodes ({', '.join(names) or 'none'})")
        ct = a.get("createTime")
        created = parse_time(ct)
        if ct is not None and created is None:
            r.fail(p + ("createTime",), f"createTime {ct!r} is not an RFC 3339 time or a number of seconds (in Go's time range, years 1678 to 2262)")
        # not given: the order in the file, marked (a given time's mark is 0)
        when = (to_ns(created), 0) if created is not None else (0, i + 1)
        _, group, placeholder, _ = _task_fields(r, p, a)
        out.append(Allocation(aid, prio, res, "" if node is None else str(node), when,
                              _flag(r, p + ("originator",), a.get("originator"), False),
                              _flag(r, p + ("allowPreemption",), a.get("allowPreemption"), True), i, group, placeholder))
    return out


def _task_fields(r: Reader, path, k: dict) -> tuple:
    """A task's originator flag, task group, placeholder flag and required node (what the shim
    sends with it)."""
    out = []
    for key in ("taskGroup", "requiredNode"):
        v = k.get(key, "")
        if not isinstance(v, str):
            r.fail(path + (key,), f"{key} must be a name, found {v!r}")
        out.append(v)
    return (_flag(r, path + ("originator",), k.get("originator"), False), out[0],
            _flag(r, path + ("placeholder",), k.get("placeholder"), False), out[1])


def _release(r: Reader, doc, value) -> str:
    """The snapshot's `yunikornVersion`: a YuniKorn release prio knows (1.6, 1.6.3), as its minor."""
    from prio.yunikorn import releases

    raw = doc.raw(("yunikornVersion",)) if not isinstance(value, (dict, list)) else None  # as written: 1.10 is not 1.1
    got = releases.get(raw) if raw else None
    if got is None:
        r.fail(("yunikornVersion",), f"yunikornVersion: expected one of {', '.join(releases.NAMES)}, found {raw or value!r}")
    return got.name


def _horizon(r: Reader, value) -> float:
    """The snapshot's `horizon`: seconds (a number) or a Go duration, not negative."""
    if isinstance(value, bool):
        secs = None
    elif isinstance(value, (int, float)):
        secs = float(value)
    else:
        secs = go_duration_seconds(str(value))
    if secs is None or secs < 0:
        r.fail(("horizon",), f"horizon must be a number of seconds or a duration like 15m, found {value!r}")
    return secs


def _gang_app(r: Reader, ap, a: dict, app: App) -> None:
    """A gang application's fields: its task groups (name, minMember, minResource: unique names,
    a whole minMember of at least 1, as the shim accepts them), style and placeholder timeout."""
    groups = a.get("taskGroups")
    if groups is not None:
        if not isinstance(groups, list):
            r.fail(ap + ("taskGroups",), f"application {app.id}: taskGroups must be a list of {{name, minMember, minResource}}")
        names = set()
        for j, g in enumerate(groups):
            gp = ap + ("taskGroups", j)
            if not isinstance(g, dict):
                r.fail(gp, "a task group is a mapping with name, minMember and minResource")
            r.check_keys(gp, g, ("name", "minMember", "minResource"), "a task group")
            name = g.get("name")
            if not isinstance(name, str) or not name:
                r.fail(gp, f"application {app.id}: a task group needs a name")
            if name in names:
                r.fail(gp + ("name",), f"application {app.id}: task group {name!r} appears twice")
            names.add(name)
            n = g.get("minMember")
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                r.fail(gp + ("minMember",) if "minMember" in g else gp,
                       f"task group {name}: minMember must be a whole number of at least 1 (the shim refuses others), found {n!r}")
            if not isinstance(g.get("minResource"), dict):
                r.fail(gp + ("minResource",) if "minResource" in g else gp,
                       f"task group {name}: minResource must be a mapping of resource name to quantity")
            app.task_groups.append(TaskGroup(name, n, r.resources(gp + ("minResource",), g["minResource"])))
    style = a.get("gangSchedulingStyle")
    if style is not None and not isinstance(style, str):
        r.fail(ap + ("gangSchedulingStyle",), f"gangSchedulingStyle must be Soft or Hard, found {style!r}")
    app.gang_style = "Hard" if style == "Hard" else "Soft"  # the shim: anything but Hard is Soft
    t = a.get("placeholderTimeoutInSeconds")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int)):
        r.fail(ap + ("placeholderTimeoutInSeconds",), f"placeholderTimeoutInSeconds must be a whole number of seconds, found {t!r}")
    app.placeholder_timeout = t if t and t > 0 else 0


def _tags(r: Reader, path, value, app_id: str) -> dict:
    """An application's `tags`: what the resource manager submitted it with (the shim's
    namespace, application.create.force, ...): a mapping of strings."""
    if not isinstance(value, dict) or any(not isinstance(v, str) for v in value.values()):
        r.fail(path, f"application {app_id}: tags must be a mapping of tag name to string value")
    return {str(k): v for k, v in value.items()}
