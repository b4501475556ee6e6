"""Gang applications of a snapshot against the queue config they are checked with (validate given
both a queues.yaml and a prio snapshot): what YuniKorn refuses at submission and what can never
complete. The snapshot's gang fields are the native format's (taskGroups, minMember,
minResource); the rules name the application and task group, and point into the snapshot.

- PRIO801: the gang's leaf sorts applications `fair`: YuniKorn rejects the application.
- PRIO802: the gang's whole task group request is over the max set on its queues: rejected.
- PRIO803: a task group can never be gang-scheduled on the snapshot's nodes (a member larger
  than every node, or minMember x minResource over all the nodes together).
- PRIO804: a pod's yunikorn.apache.org/task-groups annotation the shim cannot decode (kubectl
  exports of pods: validate checks the pods that carry one).
"""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.lint.registry import check

FAMILY = "gangs"


def _leaf(root, path: str):
    """The configured leaf queue at `path` (lowercase), or None (dynamic, or a parent)."""
    return next((q for q in root.walk() if q.path == path and q.leaf), None)


def _gangs(root, snap):
    """(index in the file, application, its configured leaf) of every gang application that names a
    configured leaf queue (placement rules are not played here)."""
    for i, app in enumerate(snap.apps):
        if app.task_groups and app.queue:
            leaf = _leaf(root, app.queue)
            if leaf is not None:
                yield i, app, leaf


@check("PRIO801", "gang-in-fair-queue", "error", FAMILY, target="queues-vs-snapshot")
def gang_in_fair_queue(root, snap) -> list:
    """A gang application (task groups) in a leaf that sorts applications `fair`: YuniKorn rejects it.

    PartitionContext.AddApplication accepts task groups only in a leaf whose
    `application.sort.policy` is `fifo` (the default): anywhere else the application is rejected
    at submission ("cannot run application ... with task group request: unsupported sort type"),
    and none of its pods is ever scheduled.

    Example (fails), the config's leaf and the snapshot's application:
        - name: spark
          properties: {application.sort.policy: fair}
        applications:
          - {id: job-1, queue: root.spark, taskGroups: [{name: exec, minMember: 4, minResource: {vcore: 2}}]}

    Fix: run gangs in a fifo leaf (remove the fair sort policy, or submit the gang elsewhere).
    """
    from prio.yunikorn.gangs import refusal

    out = []
    for i, app, leaf in _gangs(root, snap):
        if leaf.sort_policy != "fifo":
            out.append(Issue("PRIO801", ("applications", i, "queue"),
                             f"gang application {app.id}: {refusal(leaf, app) or 'its leaf does not sort fifo'}"))
    return out


@check("PRIO802", "gang-over-queue-max", "error", FAMILY, target="queues-vs-snapshot")
def gang_over_queue_max(root, snap) -> list:
    """A gang whose whole task group request exceeds the max of its queues: YuniKorn rejects it.

    The whole request is minMember x minResource over the task groups (the shim's GetTGResource); YuniKorn rejects the
    application at submission when that is over the max set on its leaf or any parent below root
    ("task group request ... larger than max queue allocation ..."), whatever the cluster holds.

    Example (fails): a leaf with `max: {vcore: 8}` and a gang of 5 x 2 vcore.

    Fix: fewer or smaller members (minMember, minResource), or a larger max on the queues.
    """
    from prio.yunikorn.gangs import refusal

    out = []
    for i, app, leaf in _gangs(root, snap):
        if leaf.sort_policy == "fifo":
            why = refusal(leaf, app)
            if why is not None:
                out.append(Issue("PRIO802", ("applications", i, "taskGroups"), f"gang application {app.id}: {why}"))
    return out


@check("PRIO803", "task-group-never-fits", "warning", FAMILY, target="queues-vs-snapshot")
def task_group_never_fits(root, snap) -> list:
    """A task group that can never have all its placeholders on the snapshot's nodes: the gang never starts.

    The shim hands a gang's real pods over only once every task group has minMember placeholders
    allocated. A member larger than every node, or minMember members that do not fit the nodes
    one by one (each member on one node), never get there: the gang holds what placeholders it
    got, and nothing starts until the placeholder timeout (never, if no placeholder was placed).

    Example (warns): nodes of 8 vcore and a group of 3 x 6 vcore on two nodes.

    Fix: smaller members or fewer of them, or bigger nodes.
    """
    from prio.yunikorn.quantity import show_quantity

    nodes = [n.capacity for n in snap.nodes or () if n.schedulable]
    if not snap.nodes:
        return []
    out = []
    for i, app in enumerate(snap.apps):
        for j, g in enumerate(app.task_groups):
            res = {k: v for k, v in g.min_resource.items() if v > 0}
            if not res:
                continue
            fits = [n for n in nodes if all(n.get(k, 0) >= v for k, v in res.items())]
            if not fits:
                k = next(k for k, v in res.items() if all(n.get(k, 0) < v for n in nodes) or not nodes)
                out.append(Issue("PRIO803", ("applications", i, "taskGroups", j, "minResource"),
                                 f"gang application {app.id}, task group {g.name}: one member needs {k} {show_quantity(k, res[k])}, "
                                 "larger than every schedulable node: the gang never starts"))
                continue
            room = sum(min(n.get(k, 0) // v for k, v in res.items()) for n in fits)
            if room < g.min_member:
                out.append(Issue("PRIO803", ("applications", i, "taskGroups", j, "minMember"),
                                 f"gang application {app.id}, task group {g.name}: the nodes hold at most {room} of its "
                                 f"{g.min_member} members even when empty: the gang never starts"))
    return out


def gang_pods(data) -> list:
    """(path, pod) of every Pod of a `kubectl get pods` export (a List, PodList or one Pod) that
    carries the task-groups annotation."""
    from prio.io.recognise import _listed, is_pod
    from prio.kube.shim import TASK_GROUPS

    got = _listed(data, "Pod", "PodList")
    pods = [((), data)] if got is True else [(("items", i), p) for i, p in enumerate(got[0]) if is_pod(p, got[1])] \
        if isinstance(got, tuple) else []
    out = []
    for path, pod in pods:
        ann = (pod.get("metadata") or {}).get("annotations") if isinstance(pod.get("metadata"), dict) else None
        if isinstance(ann, dict) and TASK_GROUPS in ann:
            out.append((path, pod))
    return out


@check("PRIO804", "task-groups-annotation-unparseable", "error", FAMILY, target="pods")
def task_groups_unparseable(doc) -> list:
    """A pod's `yunikorn.apache.org/task-groups` annotation that YuniKorn's shim cannot decode: no gang.

    The shim reads the task groups from the annotation of the pod that creates the application
    (GetTaskGroupsFromAnnotation). JSON that does not decode into its task group struct, a group
    without `name` or `minResource`, a `minMember` that is 0 or negative, a negative quantity,
    `cpu` beside `vcore` (or an explicit `pods`) in one group, or a request past int64: the shim
    logs the error, records a `TaskGroupsError` warning event on the pod and creates the
    application **without task groups**. No placeholders are made, and the pods are scheduled one
    by one as ordinary pods: the gang may start in part, which is what it was meant to prevent.

    Example (fails), a pod of `kubectl get pods -o yaml`:
        metadata:
          annotations:
            yunikorn.apache.org/task-groups: '[{"name": "exec", "minMember": 0, "minResource": {"cpu": "1"}}]'

    Fix: a JSON list of `{name, minMember (1 or more), minResource}` objects, as the shim documents it.
    """
    from prio.kube.shim import TASK_GROUPS, decode_task_groups

    out = []
    for path, pod in gang_pods(doc.data):
        meta = pod["metadata"]
        value = meta["annotations"][TASK_GROUPS]
        why = decode_task_groups(value if isinstance(value, str) else None)[1] if isinstance(value, str) else "not a string"
        if why is not None:
            who = f"{meta.get('namespace') or 'default'}/{meta.get('name') or '?'}"
            out.append(Issue("PRIO804", path + ("metadata", "annotations", TASK_GROUPS),
                             f"pod {who}: the shim cannot decode its {TASK_GROUPS} annotation ({why}): its application gets "
                             "no task groups, and its pods are scheduled one by one as ordinary pods"))
    return out


def issues(conf, snap) -> list:
    """Every partition of a decoded queues.yaml against one snapshot's gang applications (the
    partition the snapshot names, default when it names none)."""
    from prio.lint.registry import run
    from prio.yunikorn.tree import from_config

    want = (snap.partition or "default").lower()
    for part in conf.partitions:
        if part.display_name.lower() == want and part.root() is not None:
            return run("queues-vs-snapshot", from_config(part), snap)
    return []
