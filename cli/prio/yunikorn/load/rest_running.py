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

from prio.yunikorn.load.rest import running_allocations as allocations  # noqa: F401 - the running side's reader
from prio.yunikorn.snapshot import App, Node


def nodes(found: list) -> list:
    """live._nodes' rows ({name, capacity, schedulable: false when cordoned}) as Node objects,
    in name order."""
    return [Node(n["name"], dict(n["capacity"]), n.get("schedulable", True)) for n in found]


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
