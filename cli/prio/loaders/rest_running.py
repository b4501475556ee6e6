"""The running side of a live YuniKorn, for `prio preempt --yunikorn` and `prio snapshot`: the
nodes of `/ws/v1/partition/{p}/nodes` and each application's running allocations
(`ApplicationDAOInfo.allocations`) as the snapshot model's Node and Allocation, plus the
applications YuniKorn rejected (`/applications/rejected`) as App entries the engine lists under
`rejected` without placing them.

What YuniKorn's AllocationDAOInfo serves (yunikorn-core pkg/webservice/dao/allocation_info.go):
`allocationKey`, `priority` as a decimal STRING (omitted when empty), `resource` in internal units,
`nodeId`, `requestTime` (the ask's create time, ns; omitted when 0), `originator` (omitted when
false), `preempted`, `placeholder` and `taskGroupName` (a gang's placeholder pods). It does not serve whether a task allows preemption of itself (the
`yunikorn.apache.org/allow-preemption` annotation): prio takes true unless the response carries an
`allowPreemption` or `preemptable` boolean. Allocations come in map order: prio sorts them by
request time, then key."""
from __future__ import annotations

from prio.io import yamlnodes
from prio.loaders.reader import Reader
from prio.yunikorn.snapshot import Allocation, App, Node


def nodes(found: list) -> list:
    """live._nodes' rows ({name, capacity, schedulable: false when cordoned}) as Node objects,
    in name order."""
    return [Node(n["name"], dict(n["capacity"]), n.get("schedulable", True)) for n in found]


def allocations(url: str, apps: list, snap, node_names: list | None, notes: list, only=None) -> int:
    """Set `allocations` on every App of `snap` whose raw application (in `apps`, the parsed
    /applications/active list) lists running allocations. `node_names`: the nodes /nodes listed
    (None: the endpoint is missing, every allocation is kept); `only`: the application ids to
    read them for (None: all). A gang's placeholders carry `placeholder` and `taskGroupName`.
    Returns how many were read."""
    from prio.loaders.rest import _flag, _group_name, _int32, _ns, _resources

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


def rejected_apps(rows: list) -> list:
    """live._rejected's rows as App entries: never placed, listed by the engine under `rejected`
    with YuniKorn's reason. YuniKorn serves an empty queueName for them (the queue they asked
    for is not kept), so `queue` is "" unless the row says otherwise."""
    out = []
    for n, row in enumerate(rows):
        t = row.get("submitTime")
        when = (t, 0) if isinstance(t, int) and not isinstance(t, bool) and t > 0 else (0, n + 1)
        app = App(row["application"], str(row.get("queue") or "").lower(), when, state="Rejected",
                  user=str(row.get("user") or ""), placed=True)
        app.rejected = row.get("reason") or "rejected by YuniKorn (no reason given)"
        out.append(app)
    return out
