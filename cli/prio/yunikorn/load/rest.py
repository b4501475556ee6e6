"""YuniKorn REST dumps: `/ws/v1/partition/{p}/queues` (the runtime queue tree) and the
applications endpoints (pending asks).

Shapes read (reference: yunikorn-core `pkg/webservice/dao`):
- queues: ONE `PartitionQueueDAOInfo` object for root with recursive `children`, as the core
  returns it; also the site docs' array root (`[ {root} ]`), `isLeaf`/`isManaged` as strings,
  omitted zero fields (`priorityOffset` absent = 0), dumps from before YUNIKORN-2974 without
  `isPriorityFence`/`priorityOffset` (then the merged `properties` say it), a single queue
  (`/queue/{q}` without `subtree`: its missing ancestors are added, empty), and the legacy 0.12
  shape with resources as Go-formatted strings (`"[memory:8000 vcore:8000]"`) and a
  `[cluster]partition` name.
- applications: a list of `ApplicationDAOInfo` (or one of them). `requests` holds only the
  unallocated asks, each with `priority` as a STRING ("100"), `requestTime` in ns and `resource`
  in internal units (vcore in millicores, memory in bytes). Apps in a final state (Completed,
  Rejected, Failed, Expired) are left out: they take no part in scheduling.
"""
from __future__ import annotations

import re

from prio.io import caps
from prio.io.recognise import is_app_object, is_apps_dump, is_queue_object, is_queues_dump  # noqa: F401 - recognised by shape
from prio.values import INT32_MAX, INT32_MIN, shown_number, too_long
from prio.yunikorn import properties as P
from prio.yunikorn.load.reader import Reader
from prio.yunikorn.resources import strictly_positive
from prio.yunikorn.snapshot import App, Ask, QueueInfo, Snapshot
from prio.yunikorn.tree import QNode, empty_root

INT64_MAX = 2**63 - 1
FINAL_STATES = ("completed", "rejected", "failed", "expired")
MAX_COUNT = 10_000_000
_LEGACY_RES = re.compile(r"^\[(?P<body>.*)\]$")
_CLUSTER_PREFIX = re.compile(r"^\[[^\]]*\]")


# ---- detection ------------------------------------------------------------------------------

# ---- small field readers ----------------------------------------------------------------------

def _text(value) -> str:
    """A string field of the DAO, "" when absent or of another type."""
    return value if isinstance(value, str) else ""


def _partition(v) -> str:
    s = str(v or "").strip()
    s = _CLUSTER_PREFIX.sub("", s)  # "[mycluster]default" (0.12): the rmID prefix
    return s


def _bool(r: Reader, path, v, what: str):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, str) and v.strip().lower() in ("true", "false"):
        return v.strip().lower() == "true"
    r.fail(path, f"{what} must be true or false, found {v!r}")


def _uint(r: Reader, path, v, what: str) -> int:
    if isinstance(v, str) and re.fullmatch(r"\s*\+?\d+\s*", v):
        v = _decimal(r, path, v, what)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        r.fail(path, f"{what} must be a whole number >= 0, found {v!r}")
    return v


def _resources(r: Reader, path, v, legacy: list) -> dict | None:
    """A REST resource map (map[string]int64, internal units), or None when absent. The 0.12
    shape writes it as a Go-formatted string, "[memory:8000 vcore:8000]"."""
    if v is None:
        return None
    if isinstance(v, str):
        m = _LEGACY_RES.match(v.strip())
        if not m:
            r.fail(path, f"a resource is a mapping of name to integer (or the 0.12 string \"[memory:1 vcore:1]\"), found {v!r}")
        out = {}
        for part in m.group("body").split():
            k, sep, num = part.rpartition(":")
            if not sep or not k or not re.fullmatch(r"\d+", num):
                r.fail(path, f"cannot read {part!r} in the resource string {v!r}: expected name:integer")
            out[k] = _decimal(r, path, num, f"resource {k}")
        legacy.append(True)
        return out
    if not isinstance(v, dict):
        r.fail(path, f"a resource is a mapping of name to integer, found {v!r}")
    out = {}
    for k, x in v.items():
        p = tuple(path) + (k,)
        if isinstance(x, float) and x.is_integer():
            x = int(x)
        if isinstance(x, str) and re.fullmatch(r"\s*\d+\s*", x):
            x = _decimal(r, p, x, f"resource {k}")
        if isinstance(x, bool) or not isinstance(x, int):
            r.fail(p, f"resource {k} must be an integer in YuniKorn's internal unit, found {x!r}")
        if x < 0:
            r.fail(p, f"resource {k} is negative ({x})")
        if x > INT64_MAX:
            r.fail(p, f"resource {k} = {shown_number(x)} does not fit int64")
        out[str(k)] = x
    return out


def _int32(r: Reader, path, v, what: str) -> int:
    """An int32 that the DAO writes as a number or (ask priorities) as a decimal string."""
    if isinstance(v, str):
        s = v.strip()
        if not re.fullmatch(r"[+-]?\d+", s):
            r.fail(path, f"{what} {shown_number(v)!r} is not an integer")
        v = _decimal(r, path, s, what)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        r.fail(path, f"{what} must be an integer, found {v!r}")
    if not INT32_MIN <= v <= INT32_MAX:
        r.fail(path, f"{what} {shown_number(v)} is outside the int32 range (-2147483648 to 2147483647)")
    return v


def _decimal(r: Reader, path, s: str, what: str) -> int:
    """int() of a decimal text, refused past 20 digits (out of every range, and int() of
    thousands of digits is slow, then refused by Python)."""
    if too_long(s):
        r.fail(path, f"{what} {shown_number(s)} is out of range")
    return int(s)


def _ns(r: Reader, path, v, what: str, notes: list) -> int | None:
    """A unix time in nanoseconds, kept exact (prio's time keys are whole nanoseconds). The site
    docs' example has a 20-digit requestTime (beyond int64); prio takes it as written and says so."""
    if v is None:
        return None
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, str) and re.fullmatch(r"\s*\d+\s*", v):
        v = _decimal(r, path, v, what)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        r.fail(path, f"{what} must be a unix time in nanoseconds, found {v!r}")
    if v > INT64_MAX:
        head = f"{what} values beyond int64"
        if not any(n.startswith(head) for n in notes):
            notes.append(f"{head} (e.g. {v}) taken as written (the YuniKorn site docs' example has such a value)")
    return v


# ---- queues -------------------------------------------------------------------------------------

def load_queues(name: str, doc) -> tuple[list[QueueInfo], Snapshot | None]:
    """The queues of a REST queues dump, depth first in dump order, plus a Snapshot carrying
    the partition and, from root's maxResource, the cluster capacity."""
    r = Reader(name, doc, name_path="unpositioned")
    data = doc.data
    notes: list[str] = []
    base: tuple = ()
    if isinstance(data, list):
        if len(data) != 1:
            r.fail((), f"this queues dump holds {len(data)} queue trees; give one partition's queues at a time")
        base = (0,)
        data = data[0]
        notes.append("queues dump with an array root (as the site docs show it); YuniKorn returns one object")
    if not is_queue_object(data):
        r.fail(base, "a REST queues dump is an object with queuename (and children)")
    out: list[QueueInfo] = []
    legacy: list = []
    seen: dict[str, tuple] = {}
    flags = {"no_prio_fields": 0, "string_leaf": 0, "no_current": 0, "offset_mismatch": [], "inactive": []}
    stack = [(data, base, None)]
    max_queues = caps.OBJECTS.value()
    while stack:
        q, path, parent = stack.pop()
        info, kids = _queue_info(r, q, path, parent, seen, flags, legacy)
        out.append(info)
        if len(out) > max_queues:  # stopped at the cap, before the tree is built
            r.fail(path, caps.OBJECTS.exceeded(len(out), "in the dump", "queues"))
        for i in reversed(range(len(kids))):
            stack.append((kids[i], path + ("children", i), info.path))
    top = out[0]
    part = _partition(data.get("partition")) or "default"
    notes += _dump_notes(flags, legacy, len(out), top.path)
    capacity = top.max if top.path == "root" and top.max else None
    snap = Snapshot(partition=part, capacity=capacity, source=name, queues=list(out), notes=notes)
    return out, snap


def _queue_info(r: Reader, q, path: tuple, parent: str | None, seen: dict, flags: dict, legacy: list) -> tuple:
    """One queue object of the dump, at `path` under the queue `parent` (its path, None for the
    top): its QueueInfo and its children (objects, read next). What the dump's notes count goes
    into `flags` and `legacy`; every queue path into `seen` (a path twice is refused)."""
    if not isinstance(q, dict):
        r.fail(path, "a queue in the dump must be an object with queuename")
    qn = q.get("queuename")
    if not isinstance(qn, str) or not qn.strip():
        r.fail(path + ("queuename",) if "queuename" in q else path, "a queue in the dump needs a queuename (its full path)")
    qpath = qn.strip().lower()
    parts = qpath.split(".")
    if any(not x for x in parts):
        r.fail(path + ("queuename",), f"queuename {qn!r} is not a queue path like root.a.b")
    if parent is not None and not (qpath.startswith(parent + ".") and qpath.count(".") == parent.count(".") + 1):
        r.fail(path + ("queuename",), f"queue {qn!r} is listed as a child of {parent!r}, but its name does not say so")
    if qpath in seen:
        r.fail(path + ("queuename",), f"queue {qpath} appears twice in the dump")
    seen[qpath] = path
    status = q.get("status")
    if isinstance(status, str) and status and status.lower() != "active":
        flags["inactive"].append(f"{qpath} ({status})")
    if isinstance(q.get("isLeaf"), str):
        flags["string_leaf"] += 1
    is_leaf = _bool(r, path + ("isLeaf",), q.get("isLeaf"), "isLeaf")
    kids = q.get("children")
    if kids is not None and not isinstance(kids, list):
        r.fail(path + ("children",), "children must be a list of queues")
    kids = kids or []
    if is_leaf is None:
        is_leaf = not kids and qpath != "root"
    if is_leaf and kids:
        r.fail(path + ("isLeaf",), f"queue {qpath} says isLeaf but has {len(kids)} children")
    props_raw = q.get("properties")
    if props_raw is not None and not isinstance(props_raw, dict):
        r.fail(path + ("properties",), "properties must be a mapping of property name to value")
    props = {str(k): ("" if v is None else str(v).lower() if isinstance(v, bool) else str(v))
             for k, v in (props_raw or {}).items()}
    sorting = _priority_fields(r, q, path, qpath, props, flags)
    delay = q.get("preemptionDelay")
    cur = q.get("currentPriority")
    if cur is None:
        flags["no_current"] += 1
    else:
        cur = _int32(r, path + ("currentPriority",), cur, "currentPriority")
    info = QueueInfo(
        path=qpath,
        is_leaf=bool(is_leaf),
        properties=props,
        guaranteed=_resources(r, path + ("guaranteedResource",), q.get("guaranteedResource"), legacy),
        max=_resources(r, path + ("maxResource",), q.get("maxResource"), legacy),
        maxapps=_uint(r, path + ("maxRunningApps",), q.get("maxRunningApps") or 0, "maxRunningApps"),
        allocated=_resources(r, path + ("allocatedResource",), q.get("allocatedResource"), legacy) or {},
        current_priority=cur,
        status=status if isinstance(status, str) and status else "Active",
        priority_sorting=sorting,
        preemption_enabled=_bool(r, path + ("preemptionEnabled",), q.get("preemptionEnabled"), "preemptionEnabled"),
        preemption_fence=_bool(r, path + ("isPreemptionFence",), q.get("isPreemptionFence"), "isPreemptionFence"),
        preemption_delay=delay if isinstance(delay, str) and delay else None,
    )
    return info, kids


def _priority_fields(r: Reader, q: dict, path: tuple, qpath: str, props: dict, flags: dict):
    """A queue's priority fields (isPriorityFence, priorityOffset, prioritySorting) into its
    merged properties `props`, where the DAO has them; its prioritySorting (None: not said)."""
    # Fence and offset: the DAO fields are the truth when present (the merged properties
    # show priority.offset "0" and priority.policy "default" for the reset, inherited values).
    if "isPriorityFence" in q or "priorityOffset" in q:
        fence = _bool(r, path + ("isPriorityFence",), q.get("isPriorityFence"), "isPriorityFence")
        if fence:
            props[P.PRIORITY_POLICY] = "fence"
        elif fence is False and P.priority_policy(props.get(P.PRIORITY_POLICY))[0] == "fence":
            props[P.PRIORITY_POLICY] = "default"
        off = _int32(r, path + ("priorityOffset",), q.get("priorityOffset", 0), "priorityOffset")
        said = P.offset(props.get(P.PRIORITY_OFFSET))[0]
        if said != off:  # an unreadable property that YuniKorn read as 0 is kept, for the note
            if props.get(P.PRIORITY_OFFSET) not in (None, ""):
                flags["offset_mismatch"].append(f"{qpath} ({props.get(P.PRIORITY_OFFSET)!r} vs {off})")
            props[P.PRIORITY_OFFSET] = str(off)
    else:
        flags["no_prio_fields"] += 1
    # prioritySorting (newer DAOs) says what application.sort.priority the queue runs with.
    sorting = _bool(r, path + ("prioritySorting",), q.get("prioritySorting"), "prioritySorting")
    if sorting is False and P.SORT_PRIORITY not in props:
        props[P.SORT_PRIORITY] = "disabled"
    return sorting


def _dump_notes(flags: dict, legacy: list, count: int, top: str) -> list:
    """What a queues dump makes prio assume, said once for the dump (_queue_info counted it)."""
    notes: list = []
    if legacy:
        notes.append("legacy (0.12) resource strings read as written: before YuniKorn 1.0 memory was in megabytes, "
                     "so do not mix this dump with newer ones")
    if flags["string_leaf"]:
        notes.append("isLeaf given as a string (as the site docs show it); read as a boolean")
    if flags["no_prio_fields"]:
        notes.append(f"{flags['no_prio_fields']} of {count} queues have no isPriorityFence/priorityOffset (a dump "
                     "from a YuniKorn before YUNIKORN-2974, or the site docs): their fence and offset are read from "
                     "the merged properties")
    if flags["inactive"]:
        notes.append("queues not Active in the dump (Stopped ones are not scheduled, Draining ones are, as in YuniKorn): " + ", ".join(flags["inactive"][:5]))
    if flags["offset_mismatch"]:
        notes.append("priorityOffset differs from the priority.offset property for " + ", ".join(flags["offset_mismatch"][:5]) +
                     "; prio uses priorityOffset")
    if flags["no_current"]:
        notes.append("the dump does not report currentPriority for every queue: those are not compared with what prio computes")
    if top != "root":
        notes.append(f"the dump starts at {top}, not root (a /queue/{{q}} response): its ancestors are added with no properties")
    return notes


def build_tree(queues: list[QueueInfo]) -> QNode:
    """The runtime queue tree of a REST dump, without a queues.yaml: the properties are already
    the effective (merged) map, so nothing is inherited; priority.policy and priority.offset
    count as the queue's own only where they make a difference (a fence, a non-zero or unreadable
    offset), since the merged map shows the reset values of every queue. Children keep the
    order of the dump; `conf_path` is None (there is no config to point at)."""
    root = empty_root()
    nodes: dict[str, QNode] = {"root": root}

    def ensure(parts: list[str]) -> QNode:
        """The queue at `parts`, adding the ancestors the dump does not hold (a /queue/{q} response)."""
        cur = root
        for i in range(1, len(parts)):
            p = ".".join(parts[: i + 1])
            n = nodes.get(p)
            if n is None:
                n = QNode(parts[i], cur)
                n.apply_properties({}, {})
                n.leaf = False
                n.notes.append("not in the REST dump (an ancestor of the dumped queue): no properties")
                cur.add_child(n)
                nodes[p] = n
            cur = n
        return cur

    built = []
    for info in queues:
        parts = info.path.split(".")
        if parts[0] != "root":
            parts = ["root"] + parts
        q = ensure(parts)
        q.notes = []
        props = dict(info.properties)
        own = {}
        pol = props.get(P.PRIORITY_POLICY)
        if pol is not None and P.priority_policy(pol) != ("default", None):
            own[P.PRIORITY_POLICY] = pol
        off = props.get(P.PRIORITY_OFFSET)
        if off is not None and P.offset(off) != (0, None):
            own[P.PRIORITY_OFFSET] = off
        q.apply_properties(props, own)
        q.guaranteed = info.guaranteed if info.guaranteed and strictly_positive(info.guaranteed) else None
        q.max = info.max if info.max and strictly_positive(info.max) else None
        q.maxapps = info.maxapps
        q.conf_path = None
        # YuniKorn's sortQueues skips Stopped children; Draining ones are still scheduled.
        q.stopped = info.status.lower() == "stopped"
        if q.stopped:
            q.notes.append("Stopped: YuniKorn schedules nothing from it")
        # What the queue already runs, from the dump, counts even when the applications dump
        # given is partial (fair share and headroom depend on it).
        q.base_allocated = dict(info.allocated) if info.allocated else None
        built.append((q, info))
    for q, info in built:  # a queue with children is a parent, whatever the dump says
        if q is not root:
            q.leaf = bool(info.is_leaf) and not q.children
    return root


# ---- applications -------------------------------------------------------------------------------

def _flag(r: Reader, path, obj: dict, key: str) -> bool:
    v = obj.get(key)
    if v is not None and not isinstance(v, bool):
        r.fail(path + (key,), f"{key} must be true or false, found {v!r}")
    return bool(v)


def _group_name(r: Reader, path, obj: dict) -> str:
    v = obj.get("taskGroupName")
    if v is not None and not isinstance(v, str):
        r.fail(path + ("taskGroupName",), f"taskGroupName must be a string, found {v!r}")
    return v or ""


def _placeholder_data(r: Reader, ap, a: dict, app, legacy: list, gangs: dict) -> None:
    """ApplicationDAOInfo.placeholderData (PlaceholderDAOInfo: taskGroupName, count, minResource,
    replaced, timedout) as the application's task groups: `count`, the placeholders YuniKorn was
    given for the group, is the shim's minMember (it creates minMember of them)."""
    from prio.yunikorn.snapshot import TaskGroup

    rows = a["placeholderData"]
    pp = ap + ("placeholderData",)
    if not isinstance(rows, list):
        r.fail(pp, f"application {app.id}: placeholderData must be a list")
    kept = []
    for j, d in enumerate(rows):
        p = pp + (j,)
        if not isinstance(d, dict):
            r.fail(p, f"application {app.id}: a placeholderData entry must be an object with taskGroupName")
        name = _group_name(r, p, d)
        count, replaced, timedout = (_uint(r, p + (f,), d.get(f) or 0, f) for f in ("count", "replaced", "timedout"))
        if not name or count <= 0:
            continue  # nothing the shim made placeholders for
        if any(g.name == name for g in app.task_groups):
            r.fail(p + ("taskGroupName",), f"application {app.id}: task group {name!r} appears twice in placeholderData")
        app.task_groups.append(TaskGroup(name, count, _resources(r, p + ("minResource",), d.get("minResource"), legacy) or {}))
        kept.append((name, count, replaced, timedout))
    if kept:
        gangs[app.id] = kept


def _placeholders_over(app, rows: list) -> bool:
    """No placeholder is left, allocated or pending, and every one YuniKorn was given was
    replaced or timed out: the shim makes none again (a Soft gang resumed as an ordinary one)."""
    if any(a.placeholder for a in app.asks) or any(a.placeholder for a in app.allocations or ()):
        return False
    return all(replaced + timedout >= count for _, count, replaced, timedout in rows)


def running_allocations(url: str, apps: list, snap, node_names: list | None, notes: list, only=None) -> int:
    """Set `allocations` on every App of `snap` whose raw application (in `apps`, the parsed
    /applications/active list) lists running allocations. `node_names`: the nodes /nodes listed
    (None: the endpoint is missing, every allocation is kept); `only`: the application ids to
    read them for (None: all). A gang's placeholders carry `placeholder` and `taskGroupName`.
    Returns how many were read."""
    from prio.io import yamlnodes
    from prio.yunikorn.snapshot import Allocation

    r = Reader(url, yamlnodes.Document(apps), name_path="unpositioned")
    by_id = {a.id: a for a in snap.apps}
    seen: dict = {}  # allocation key -> application: keys are unique in YuniKorn
    dropped: list = []
    count = 0
    for i, raw in enumerate(apps):
        if not isinstance(raw, dict) or raw.get("applicationID") not in by_id:
            continue  # left out by the applications loader (final state): runs nothing
        if only is not None and raw["applicationID"] not in only:
            continue
        app = by_id[raw["applicationID"]]
        allocs = raw.get("allocations")
        if allocs is None:
            continue
        ap = (i, "allocations")
        if not isinstance(allocs, list):
            r.fail(ap, f"application {app.id}: allocations must be a list")
        rows = []
        for j, t in enumerate(allocs):
            p = ap + (j,)
            if not isinstance(t, dict):
                r.fail(p, f"application {app.id}: an allocation must be an object with allocationKey")
            key = t.get("allocationKey")
            if key is None or key == "":
                key = t.get("allocationID") or t.get("uuid") or f"{app.id}-alloc-{j + 1}"
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                r.fail(p + ("allocationKey",), f"allocationKey must be a string, found {key!r}")
            key = str(key)
            if key in seen:
                r.fail(p + ("allocationKey",), f"allocation {key!r} is listed twice (applications {seen[key]} and {app.id})")
            seen[key] = app.id
            prio = 0 if t.get("priority") in (None, "") else _int32(r, p + ("priority",), t["priority"], f"priority of allocation {key}")
            res = _resources(r, p + ("resource",), t.get("resource"), []) or {}
            created = _ns(r, p + ("requestTime",), t.get("requestTime"), "requestTime", notes) or 0
            node = t.get("nodeId", t.get("nodeID"))
            if node is not None and not isinstance(node, str):
                r.fail(p + ("nodeId",), f"nodeId must be a string, found {node!r}")
            node = node or ""
            if node_names is not None and node not in node_names:
                if not node and len(node_names) == 1:
                    node = node_names[0]
                else:
                    dropped.append(f"{key} ({node or 'no node'})")
                    continue
            flags = []
            for name in ("originator", "allowPreemption", "preemptable"):
                v = t.get(name)
                if v is not None and not isinstance(v, bool):
                    r.fail(p + (name,), f"{name} must be true or false, found {v!r}")
                flags.append(v)
            allow = flags[1] if flags[1] is not None else flags[2] if flags[2] is not None else True
            rows.append((created, key, prio, res, node, bool(flags[0]), allow, _flag(r, p, t, "placeholder"), _group_name(r, p, t)))
        rows.sort(key=lambda x: (x[0], x[1]))
        app.allocations = [Allocation(key, prio, res, node, (created, 0) if created else (0, n), orig, allow, n, group, ph)
                           for n, (created, key, prio, res, node, orig, allow, ph, group) in enumerate(rows)]
        count += len(rows)
    if dropped:
        notes.append(f"{url}: left out {len(dropped)} running allocation{'s' if len(dropped) != 1 else ''} on nodes "
                     f"/nodes does not list (removed between the two requests?): {', '.join(dropped[:5])}"
                     + (" ..." if len(dropped) > 5 else ""))
    return count


def load_apps(name: str, doc, already: int = 0) -> Snapshot:
    """The applications of a REST applications dump, with their pending asks; `already`: the
    asks earlier inputs of the run gave (the asks cap is on the run's total, prio.io.caps)."""
    r = Reader(name, doc, name_path="unpositioned")
    data = doc.data
    items = [(data, ())] if isinstance(data, dict) else [(a, (i,)) for i, a in enumerate(data or [])]
    snap = Snapshot(source=name)
    notes: list[str] = []
    legacy: list = []
    seen: dict[str, tuple] = {}
    order = 0
    max_asks = caps.ASKS.value()
    asks = already  # made so far, over every application and input: the cap is on the total
    skipped = {}
    partitions = set()
    gangs: dict = {}  # application id -> its placeholderData rows (name, count, replaced, timedout)
    for a, ap in items:
        if not isinstance(a, dict):
            r.fail(ap, "an application in the dump must be an object with applicationID")
        app_id = a.get("applicationID")
        if not isinstance(app_id, str) or not app_id:
            r.fail(ap + ("applicationID",) if "applicationID" in a else ap, "an application needs an applicationID")
        if app_id in seen:
            r.fail(ap + ("applicationID",), f"application {app_id!r} appears twice in the dump")
        seen[app_id] = ap
        state = a.get("applicationState") or ""
        if not isinstance(state, str):
            r.fail(ap + ("applicationState",), f"applicationState must be a string, found {state!r}")
        if state.lower() in FINAL_STATES:
            skipped[state] = skipped.get(state, 0) + 1
            continue
        queue = a.get("queueName")
        if not isinstance(queue, str) or not queue.strip() or any(not x for x in queue.strip().split(".")):
            r.fail(ap + ("queueName",) if "queueName" in a else ap,
                   f"application {app_id}: queueName must be a full queue path like root.a.b, found {queue!r}")
        if a.get("partition"):
            partitions.add(_partition(a.get("partition")))
        submit = _ns(r, ap + ("submissionTime",), a.get("submissionTime"), "submissionTime", notes)
        order += 1
        pos = doc.pos(ap) if doc.index else None
        app = App(app_id, queue.strip().lower(), (submit, 0) if submit is not None else (0, order),
                  allocated=_resources(r, ap + ("usedResource",), a.get("usedResource"), legacy) or {},
                  state=state, line=pos.line if pos else None, placed=True, user=_text(a.get("user")),
                  groups=tuple(str(g) for g in a.get("groups") or () if isinstance(g, str) and g))
        reqs = a.get("requests")
        if reqs is None:
            reqs = []
        if not isinstance(reqs, list):
            r.fail(ap + ("requests",), "requests must be a list of asks")
        ids = set()
        for j, k in enumerate(reqs):
            kp = ap + ("requests", j)
            if not isinstance(k, dict):
                r.fail(kp, "an ask in requests must be an object with allocationKey")
            key = k.get("allocationKey")
            if key is None or key == "":
                key = f"{app_id}-{j + 1}"
            elif not isinstance(key, (str, int)) or isinstance(key, bool):
                r.fail(kp + ("allocationKey",), f"allocationKey must be a string, found {key!r}")
            key = str(key)
            if "priority" not in k or k["priority"] is None:
                r.fail(kp, f"ask {key} of application {app_id} has no priority")
            prio = _int32(r, kp + ("priority",), k["priority"], f"priority of ask {key}")
            created = _ns(r, kp + ("requestTime",), k.get("requestTime"), "requestTime", notes)
            res = _resources(r, kp + ("resource",), k.get("resource"), legacy)
            if res is None:
                res = {}
            count = 1
            if "pendingCount" in k and k["pendingCount"] is not None:  # asks of YuniKorn < 1.0
                count = _uint(r, kp + ("pendingCount",), k["pendingCount"], "pendingCount")
                if count > MAX_COUNT:
                    r.fail(kp + ("pendingCount",), f"pendingCount {count} is more than prio handles ({MAX_COUNT})")
            asks += count
            if asks > max_asks:  # the total, before the asks are made
                r.fail(kp + ("pendingCount",) if count > 1 else kp, caps.ASKS.exceeded(asks, caps.in_total(already)))
            placeholder, originator = (_flag(r, kp, k, f) for f in ("placeholder", "originator"))
            group = _group_name(r, kp, k)
            for c in range(count):
                order += 1
                ask_id = key if count == 1 else f"{key}-{c + 1}"
                if ask_id in ids:
                    r.fail(kp + ("allocationKey",), f"allocationKey {ask_id!r} appears twice in application {app_id}")
                ids.add(ask_id)
                app.asks.append(Ask(ask_id, prio, res, (created, 0) if created is not None else app.submit_time, order, "",
                                    originator and c == 0, group, placeholder))
        if a.get("placeholderData") is not None:
            _placeholder_data(r, ap, a, app, legacy, gangs)
        snap.apps.append(app)
    if gangs:
        # a gang's running placeholders and real pods decide what the shim still makes (a live
        # server's running side reads them all again, with its nodes: rest_running)
        running_allocations(name, [x for x, _ in items], snap, None, notes, only=gangs)
        over = [x.id for x in snap.apps if x.id in gangs and _placeholders_over(x, gangs[x.id])]
        for x in snap.apps:
            if x.id in over:
                x.task_groups = []
        if over:
            notes.append("gang applications whose placeholders were all replaced or timed out (placeholderData) are scheduled "
                         "as ordinary ones: " + ", ".join(over[:5]) + (" ..." if len(over) > 5 else ""))
    if any(x.task_groups for x in snap.apps if x.id in gangs):
        notes.append("gang applications read from placeholderData (task group, count as minMember, minResource): YuniKorn's REST "
                     "API serves neither their gangSchedulingStyle (Soft taken) nor their placeholder timeout (900 s taken), nor "
                     "the real pods of a gang that still reserves (the shim holds them back)")
    if len(partitions) > 1:
        r.fail((), f"the dump mixes partitions ({', '.join(sorted(partitions))}); give one partition at a time")
    if partitions:
        snap.partition = partitions.pop() or "default"
    if skipped:
        notes.append("left out applications in a final state: " + ", ".join(f"{n} {s}" for s, n in sorted(skipped.items())))
    if legacy:
        notes.append("legacy (0.12) resource strings read as written: before YuniKorn 1.0 memory was in megabytes")
    snap.notes = notes
    return snap
