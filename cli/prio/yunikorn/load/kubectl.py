"""`kubectl get pods -o json|yaml` output (a `kind: List` or `PodList` of Pods, or one Pod) as a
snapshot, read the way the YuniKorn Kubernetes shim reads pods.

- Only pods with `spec.schedulerName: yunikorn` count. A `Pending` pod not yet bound to a node
  (`spec.nodeName` empty) is a pending ask; a pod that is bound or `Running` is what its
  application already runs (it counts for fair share); finished pods are left out, and so are
  terminating ones not bound to a node (a terminating bound pod holds its room until it is gone:
  the shim reports it until the pod is deleted). A pod without `status` (a manifest, not yet
  created) is taken as pending.
- Application id, first set of: label `yunikorn.apache.org/app-id`, annotation
  `yunikorn.apache.org/app-id`, label `applicationId`, label `spark-app-selector`; else the
  shim's generated `yunikorn-<namespace>-autogen`.
- Queue, first set of: label `yunikorn.apache.org/queue`, annotation `yunikorn.apache.org/queue`,
  label `queue`; else `root.<namespace>`, which is what the shim's default placement rule (tag
  `namespace`, create) gives. The config's own placement rules are not evaluated. An
  application's queue is the one of its oldest pod, as the shim creates the application from the
  first pod it sees.
- Priority: `spec.priority` (admission has filled it in a cluster), checked against
  `priorityClassName` when that class is known; without `spec.priority`, the class resolved as
  the Priority admission plugin does (`prio.kube.priorityclass`) from the PriorityClass items of the same
  file, the classes given, and the built-in system classes.
- Resources: the sum of the containers' requests (a resource with only a limit takes the limit,
  as API defaulting does), raised to any larger init container request, plus `spec.overhead`,
  with `cpu` as `vcore` millicores, memory in bytes, other names kept, and `pods: 1`.
- Create time: `metadata.creationTimestamp`. (YuniKorn stamps a pending ask with the time it
  received it; the creation time is the closest thing a pod list holds.)
- User: the annotation `yunikorn.apache.org/user.info` (`{"user": ..., "groups": [...]}`, which
  YuniKorn's admission controller writes) of the pod that creates the application, else the
  shim's default user `nobody` without groups (also when the annotation is not JSON).

With nodes (`kubectl get nodes -o json`, in a file of their own or as Node items beside the
pods; `load_nodes`), the pods are read as the shim reports them to the core: a node offers its
`status.allocatable` (cpu as vcore millicores, memory in bytes, pods and extended resources as
counts, zero amounts left out) and a cordoned node (`spec.unschedulable`) takes nothing new; a
bound YuniKorn pod is a running allocation on its node; a pod of another scheduler bound to a
node and not finished is a foreign allocation: it takes room on the node (`occupied`) but
belongs to no queue or user. Pods bound to a node the list does not hold are orphans the shim
does not report: left out, and said so.
"""
from __future__ import annotations

from typing import NamedTuple

from prio.errors import InputError
from prio.io import caps
from prio.io.document import Document
from prio.io.recognise import NOT_POD_LISTS, is_node, is_pod, is_pod_list  # noqa: F401 - recognised by shape
from prio.kube import quantity as kq
from prio.kube import shim
from prio.kube.priorityclass import ResolveError, catalogue, resolve_class
from prio.values import count
from prio.yunikorn import resources
from prio.yunikorn.load.priorityclasses import classes_from_docs
from prio.yunikorn.load.reader import Reader, parse_time, to_ns
from prio.yunikorn.snapshot import Allocation, App, Ask, Node, Snapshot, TaskGroup

PREEMPT_LOWER = "PreemptLowerPriority"  # the preemptionPolicy admission gives without a class


class PodRecord(NamedTuple):
    """One pod YuniKorn schedules, as load_pods keeps it until the applications are made."""

    order: int  # its place among the pods kept
    created: float | None
    app_id: str
    queue: str  # as the pod asks for it, exactly as written ("" when it names none)
    name: str
    namespace: str
    uid: str
    priority: int
    resources: dict
    bound: bool
    node: str  # spec.nodeName ("" when not bound)
    user: str
    groups: tuple
    allow_preemption: bool  # the shim's isPreemptSelfAllowed
    preemption_policy: str
    placeholder: bool
    task_group: str
    owners: tuple  # the uids of metadata.ownerReferences (a placeholder's name its originator)
    tags: dict  # what the pod gives the application it creates (getAppMetadata)
    required_node: str  # a DaemonSet pod's node (CreateTagsForTask)
    line: int | None
    constraints: object = None  # kube.predicates.Constraints (_node_constraints), None: none


def _meta(r, pod: dict, path) -> dict:
    md = pod.get("metadata")
    if md is None:
        return {}
    if not isinstance(md, dict):
        r.fail(path + ("metadata",), "metadata must be a mapping")
    return md


def _strmap(r, md: dict, key: str, path) -> dict:
    v = md.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        r.fail(path + ("metadata", key), f"metadata.{key} must be a mapping of strings")
    return v


def _requests(r, c: dict, cpath, manifest: bool) -> dict:
    """A container's requests (resources.requests); for a manifest, a limit without a request
    is the request, as the API server's defaulting makes it on creation. The shim never reads
    limits: a created pod's export already carries what defaulting wrote."""
    res = c.get("resources")
    if res is None:
        return {}
    if not isinstance(res, dict):
        r.fail(cpath + ("resources",), "resources must be a mapping with requests and limits")
    req = res.get("requests") or {}
    lim = res.get("limits") or {}
    for what, m in (("requests", req), ("limits", lim)):
        if not isinstance(m, dict):
            r.fail(cpath + ("resources", what), f"resources.{what} must be a mapping of resource name to quantity")
    out = {}
    for k, v in req.items():
        key, val = _quantity(r, cpath + ("resources", "requests", k), k, v)
        out[key] = val
    if manifest:
        for k, v in lim.items():
            if k not in req:
                key, val = _quantity(r, cpath + ("resources", "limits", k), k, v)
                out[key] = val
    return out


def _quantity(r, p, name, value) -> tuple:
    """(YuniKorn's resource name, its value) of one Kubernetes quantity at path p, as the shim
    sends it (quantity.as_sent), read from its source text where there is one (so `1.5` stays
    the text written, not a float)."""
    raw = r.doc.raw(p)
    try:
        return kq.as_sent(str(name), raw if raw is not None and not isinstance(value, bool) else value)
    except kq.QuantityError as e:
        r.fail(p, str(e))


def _max_into(into: dict, other: dict) -> None:
    """The shim's updateMax: each resource the larger of the two."""
    for k, v in other.items():
        if k not in into or v > into[k]:
            into[k] = v


def _statuses(r, status, path) -> tuple[dict, bool]:
    """The container statuses by name (init containers' too) and whether a resize is
    infeasible (status.resize, or a PodResizePending condition with reason Infeasible)."""
    if not isinstance(status, dict):
        return {}, False
    out = {}
    for key in ("containerStatuses", "initContainerStatuses"):
        for cs in status.get(key) or () if isinstance(status.get(key), list) else ():
            if isinstance(cs, dict) and isinstance(cs.get("name"), str):
                out[cs["name"]] = cs
    infeasible = status.get("resize") == "Infeasible" or any(
        isinstance(c, dict) and c.get("type") == "PodResizePending" and c.get("reason") == "Infeasible"
        for c in (status.get("conditions") or () if isinstance(status.get("conditions"), list) else ()))
    return out, infeasible


def _container(r, c: dict, cpath, statuses: dict, infeasible: bool, manifest: bool) -> dict:
    """computeContainerResource: the container's requests, raised to what its status shows
    allocated or requested (in-place resize); an infeasible resize keeps the status' requests."""
    combined = _requests(r, c, cpath, manifest)
    cs = statuses.get(c.get("name"))
    if cs is not None:
        res = cs.get("resources")
        if infeasible and isinstance(res, dict):
            return _quantities(r, res.get("requests") or {}, cpath, "the container status' resources.requests")
        if isinstance(cs.get("allocatedResources"), dict):
            _max_into(combined, _quantities(r, cs["allocatedResources"], cpath, "allocatedResources"))
        if isinstance(res, dict) and isinstance(res.get("requests"), dict):
            _max_into(combined, _quantities(r, res["requests"], cpath, "the container status' resources.requests"))
    return combined


POD_LEVEL = ("cpu", "memory")  # component-helpers IsSupportedPodLevelResource, with hugepages-*


def pod_resources(r, spec: dict, path, status=None, manifest: bool = False) -> dict:
    """What the shim asks YuniKorn for (GetPodResource): the containers summed (each as
    _container reads it); init containers as checkInitContainerRequest takes them (sidecars,
    `restartPolicy: Always`, added to the pod; each init container needs its own request plus
    the sidecars started before it, and the pod takes the larger); pod-level
    `spec.resources.requests` replace cpu, memory and hugepages; then the overhead and one `pods`."""
    for key in ("containers", "initContainers"):
        if spec.get(key) is not None and not isinstance(spec.get(key), list):
            r.fail(path + ("spec", key), f"spec.{key} must be a list of containers")
    statuses, infeasible = _statuses(r, status, path)
    total: dict = {}
    for i, c in enumerate(spec.get("containers") or []):
        if not isinstance(c, dict):
            r.fail(path + ("spec", "containers", i), "a container must be a mapping")
        resources.add_to(total, _container(r, c, path + ("spec", "containers", i), statuses, infeasible, manifest))
    inits = spec.get("initContainers") or []
    if inits:
        init_max: dict = {}
        sidecars: dict = {}  # the sidecars started so far: they keep running beside later init containers
        for i, c in enumerate(inits):
            if not isinstance(c, dict):
                r.fail(path + ("spec", "initContainers", i), "an init container must be a mapping")
            own = _container(r, c, path + ("spec", "initContainers", i), statuses, infeasible, manifest)
            current = dict(own)
            resources.add_to(current, sidecars)
            if c.get("restartPolicy") == "Always":
                resources.add_to(sidecars, own)
            _max_into(init_max, current)
        resources.add_to(total, sidecars)
        _max_into(total, init_max)
    pod_level = spec.get("resources")
    if isinstance(pod_level, dict):
        reqs = pod_level.get("requests")
        if manifest and isinstance(pod_level.get("limits"), dict):
            # defaulting: a pod-level limit with no pod-level request, that no container requests, is the request
            reqs = dict(reqs or {})
            asked = {k for c in spec.get("containers") or () if isinstance(c, dict)
                     for k in ((c.get("resources") or {}).get("requests") or {})}
            for k, v in pod_level["limits"].items():
                if k not in reqs and k not in asked:
                    reqs[k] = v
            if reqs:
                pod_level = {**pod_level, "requests": reqs}
        if isinstance(reqs, dict) and reqs:
            for k, v in reqs.items():
                if k in POD_LEVEL or str(k).startswith("hugepages-"):
                    key, val = _quantity(r, path + ("spec", "resources", "requests", k), k, v)
                    total[key] = val
    ov = spec.get("overhead")
    if ov is not None:
        resources.add_to(total, _quantities(r, ov, path + ("spec", "overhead"), "spec.overhead"))
    total["pods"] = 1 + total.pop("pods", 0)  # the shim starts from pods: 1 (written last, as before)
    return total


def _quantities(r, m, path, what: str) -> dict:
    """A mapping of resource name to quantity (a pod's overhead, a node's allocatable) in
    YuniKorn's names and units."""
    if not isinstance(m, dict):
        r.fail(path, f"{what} must be a mapping of resource name to quantity")
    out = {}
    for k, v in m.items():
        key, val = _quantity(r, path + (k,), k, v)
        out[key] = val
    return out


def load_nodes(name: str, doc) -> list:
    """The Nodes of a document (a node list, or Node items beside the pods of a pod list) as the
    snapshot's nodes, in the document's order, as the shim registers them with the core: the
    node offers its `status.allocatable` (GetNodeResource; `status.capacity` when a manifest
    leaves allocatable out, as the API server would default it), with zero amounts left out (the
    core prunes them), and a cordoned node (`spec.unschedulable: true`) is unschedulable."""
    r = Reader(name, doc, name_path="unpositioned")
    data = doc.data
    if isinstance(data, dict) and data.get("kind") == "Node":
        found = [(data, ())]
    else:
        items = data.get("items") if isinstance(data, dict) else None
        bare = isinstance(data, dict) and data.get("kind") == "NodeList"
        found = [(it, ("items", i)) for i, it in enumerate(items if isinstance(items, list) else []) if is_node(it, bare)]
    caps.OBJECTS.check(name, len(found), what="nodes")
    out, seen = [], set()
    for node, path in found:
        md = _meta(r, node, path)
        nm = md.get("name")
        if not isinstance(nm, str) or not nm:
            r.fail(path + ("metadata",) if md else path, "a Node needs a metadata.name")
        if nm in seen:
            r.fail(path + ("metadata", "name"), f"node {nm} appears twice")
        seen.add(nm)
        spec = node.get("spec")
        if spec is not None and not isinstance(spec, dict):
            r.fail(path + ("spec",), f"node {nm}: spec must be a mapping")
        cordoned = (spec or {}).get("unschedulable")
        if cordoned is not None and not isinstance(cordoned, bool):
            r.fail(path + ("spec", "unschedulable"), f"node {nm}: spec.unschedulable must be true or false, found {cordoned!r}")
        status = node.get("status")
        key = next((k for k in ("allocatable", "capacity") if isinstance(status, dict) and status.get(k) is not None), None)
        if key is None:
            r.fail(path + ("status",) if isinstance(status, dict) else path,
                   f"node {nm}: no status.allocatable, so what the node offers is unknown")
        offers = _quantities(r, status[key], path + ("status", key), f"node {nm}: status.{key}")
        out.append(Node(nm, {k: v for k, v in offers.items() if v != 0}, schedulable=not cordoned,
                        labels=r.node_labels(path + ("metadata",), md.get("labels")),
                        taints=r.node_taints(path + ("spec",), (spec or {}).get("taints"))))
    return out


def join_nodes(nodes: list | None, more: list, name: str) -> list:
    """The nodes read so far and those of one more document (`name`) as one list; a node two
    documents list is refused."""
    caps.OBJECTS.check(name, len(nodes or ()) + len(more), caps.in_total(len(nodes or ())), "nodes")
    have = {n.name for n in nodes or ()}
    twice = [n.name for n in more if n.name in have]
    if twice:
        raise InputError(name, f"node {twice[0]} is listed by another input too; give each node once")
    return [*(nodes or ()), *more]


def _classes_in_file(items) -> list:
    docs = [("", Document(it)) for it, _ in items if isinstance(it, dict) and it.get("kind") == "PriorityClass"]
    return classes_from_docs(docs)


def load_pods(name: str, doc, classes=(), nodes: list | None = None, settings: dict | None = None,
              namespaces: dict | None = None, already: int = 0) -> Snapshot:
    """The YuniKorn pods of a pod list as a snapshot of applications, running allocations and
    pending asks, as the shim submits them. `nodes`: the cluster's nodes (load_nodes of every
    input), when known: the snapshot then holds them, what other schedulers' pods take on them
    added to their `occupied` (the list is shared by every pod list of the run, each adding its
    own pods). `settings`: the shim's settings from its ConfigMaps (shim.settings);
    `namespaces`: Namespace name -> its annotations, for the application tags. `already`: the
    asks earlier inputs of the run gave: every pod counts against the asks cap (prio.io.caps),
    checked before a pod is read."""
    r = Reader(name, doc, name_path="unpositioned")
    items, bare = _items(r, doc.data)
    caps.ASKS.check(name, already + sum(1 for pod, _ in items if is_pod(pod, bare)), caps.in_total(already), "pods")
    # as the native loader: the file's own classes first (the first definition of a name counts)
    all_classes = _classes_in_file(items) + list(classes)
    cat = catalogue(all_classes)
    snap = Snapshot(source=name, priority_classes=all_classes)
    by_node = {n.name: n for n in nodes} if nodes is not None else None
    if nodes is not None:
        snap.nodes = nodes
        snap.capacity = resources.total(n.capacity for n in nodes)  # root's max: the partition's nodes
    ctx = _Context(settings or {}, namespaces, all_classes, cat, by_node)
    other_kinds: dict[str, int] = {}
    pods = []  # one record per YuniKorn pod, in file order
    for pod, path in items:
        if not is_pod(pod, bare):
            if isinstance(pod, dict) and pod.get("kind") in ("PriorityClass", "Node"):
                continue  # read by the classes and load_nodes
            k = pod.get("kind") if isinstance(pod, dict) else None
            other_kinds[str(k or "non-object item")] = other_kinds.get(str(k or "non-object item"), 0) + 1
            continue
        order = len(pods) + 1
        pos = doc.pos(path) if doc.index else None
        rec = _pod(r, pod, path, order, ctx, pos.line if pos else None)
        if rec is not None:
            pods.append(rec)
    apps, disagree = _applications(name, pods, ctx.counts)
    snap.apps = apps
    snap.notes += _notes(ctx.counts, disagree, ctx.skipped, other_kinds)
    return snap


class _Context:
    """What reading one pod list needs beside the pod: the shim's settings, the Namespaces, the
    PriorityClasses, the nodes, and the counts the notes are made of."""

    def __init__(self, settings: dict, namespaces: dict | None, classes: list, cat: dict, by_node: dict | None):
        self.unique_ids = bool(settings.get("generateUniqueAppIds"))
        self.gangs = not settings.get("disableGangScheduling")
        self.namespaces = namespaces
        self.classes, self.cat, self.by_node = classes, cat, by_node
        self.skipped: dict[str, int] = {}
        self.counts: dict = {"autogen": 0, "no_status": 0, "unknown_class": set(), "bound": 0, "stale_class": set(),
                             "foreign": 0, "orphans": set(), "bad_user": set(), "no_priority": set(), "gated": set(),
                             "refused": []}


def _items(r, data) -> tuple[list, bool]:
    """The file's items with their paths, and whether it is a PodList (whose items may omit
    their kind)."""
    if not isinstance(data, dict):
        r.fail((), "a pod list is a kind: List (or PodList) of Pods, or one Pod")
    if data.get("kind") == "Pod":
        return [(data, ())], False
    raw_items = data.get("items")
    if not isinstance(raw_items, list):
        r.fail(("items",) if "items" in data else (), "a pod list needs items: a list of Pods")
    return [(it, ("items", i)) for i, it in enumerate(raw_items)], data.get("kind") == "PodList"


def _skip(skipped: dict, why: str) -> None:
    skipped[why] = skipped.get(why, 0) + 1


def _pod(r, pod: dict, path, order: int, ctx: _Context, line: int | None) -> PodRecord | None:
    """One YuniKorn pod as a PodRecord, or None when the shim reports nothing for it (finished,
    bound to a node `ctx.by_node` does not hold, waiting on scheduling gates, a manifest the API
    server would refuse: counted in ctx.skipped) or it is another scheduler's (with nodes, one
    bound to a node and not finished takes room there: a foreign allocation)."""
    md = _meta(r, pod, path)
    spec = pod.get("spec")
    if not isinstance(spec, dict):
        r.fail(path + ("spec",) if "spec" in pod else path, "a Pod needs a spec")
    pod_name = md.get("name") or f"{md.get('generateName') or 'pod-'}{order}"
    if not isinstance(pod_name, str):
        r.fail(path + ("metadata", "name"), f"metadata.name must be a string, found {pod_name!r}")
    ns = md.get("namespace") or "default"
    if not isinstance(ns, str):
        r.fail(path + ("metadata", "namespace"), f"metadata.namespace must be a string, found {ns!r}")
    status = pod.get("status")
    if status is not None and not isinstance(status, dict):
        r.fail(path + ("status",), "status must be a mapping")
    manifest = status is None  # not created yet: taken through what the API server does on creation
    node = spec.get("nodeName") or ""
    if not isinstance(node, str):
        r.fail(path + ("spec", "nodeName"), f"spec.nodeName must be a string, found {node!r}")
    phase = (status or {}).get("phase")
    sched = spec.get("schedulerName") or "default-scheduler"
    if sched != shim.SCHEDULER:
        # the shim's updateForeignPod: assigned and not terminated is a foreign allocation on
        # its node, if the node is known (else an orphan it skips)
        if ctx.by_node is not None and node in ctx.by_node and phase not in shim.TERMINATED:
            resources.add_to(ctx.by_node[node].occupied, pod_resources(r, spec, path, status, manifest))
            ctx.counts["foreign"] += 1
        else:
            _skip(ctx.skipped, f"scheduler {sched}")
        return None
    if phase in shim.TERMINATED:
        _skip(ctx.skipped, str(phase))
        return None
    bound = bool(node)  # utils.IsAssignedPod: spec.nodeName, whatever the phase
    if bound and ctx.by_node is not None and node not in ctx.by_node:
        ctx.counts["orphans"].add(node)
        _skip(ctx.skipped, "bound to a node not listed")
        return None
    gates = spec.get("schedulingGates")
    if isinstance(gates, list) and gates:
        ctx.counts["gated"].add(f"{ns}/{pod_name}")
        _skip(ctx.skipped, "waiting on scheduling gates")
        return None
    if manifest:
        ctx.counts["no_status"] += 1
    labels = _strmap(r, md, "labels", path)
    annotations = _strmap(r, md, "annotations", path)
    uid = str(md.get("uid") or "")
    app_id, generated = shim.app_id(labels, annotations, ns, uid, ctx.unique_ids)
    if generated:
        ctx.counts["autogen"] += 1
    queue, _ = shim.first_set(labels, annotations, shim.QUEUE_SOURCES)
    who = f"{ns}/{pod_name}"
    admitted = _priority(r, spec, path, ctx, who, manifest)
    if admitted is None:
        _skip(ctx.skipped, "refused by the API server on creation")
        return None
    prio, policy = admitted
    res = pod_resources(r, spec, path, status, manifest)
    ct = md.get("creationTimestamp")
    created = parse_time(ct)
    if ct is not None and created is None:
        r.fail(path + ("metadata", "creationTimestamp"), f"creationTimestamp {ct!r} is not an RFC 3339 time")
    user, groups, decoded = shim.user_of(annotations, labels)
    if not decoded:
        ctx.counts["bad_user"].add(who)
    cls = ctx.cat.get(spec.get("priorityClassName")) if isinstance(spec.get("priorityClassName"), str) else None
    allow_self = shim.allow_preempt_self(annotations, {shim.ALLOW_PREEMPTION: "false"} if cls is not None and not cls.allow_preemption else None)
    owners = tuple(str(o.get("uid") or "") for o in md.get("ownerReferences") or () if isinstance(o, dict)) \
        if isinstance(md.get("ownerReferences"), list) else ()
    tags = _tags(spec, annotations, ns, bound, ctx)
    return PodRecord(order, created, app_id, queue, pod_name, ns, uid, prio, res, bound, node, user, groups,
                     allow_self, policy, shim.placeholder(annotations), str(annotations.get(shim.TASK_GROUP_NAME) or ""),
                     owners, tags, shim.required_node(spec, md.get("ownerReferences") if isinstance(md.get("ownerReferences"), list) else ()),
                     line, _node_constraints(r, spec, path, ctx.counts, who))


def _node_constraints(r, spec: dict, path, counts: dict, who: str):
    """What a pod asks of its node (kube.predicates.Constraints, None when nothing): its
    nodeSelector, required node affinity and tolerations (a DaemonSet pod's required node is the
    record's own, shim.required_node). What other predicates would read (pod (anti-)affinity,
    topology spread, host ports, claimed volumes) is counted for a note."""
    aff = spec.get("affinity") if isinstance(spec.get("affinity"), dict) else {}
    node_aff = aff.get("nodeAffinity")
    if aff.get("podAffinity") or aff.get("podAntiAffinity") or spec.get("topologySpreadConstraints") or any(
            isinstance(c, dict) and any(isinstance(p, dict) and p.get("hostPort") for p in c.get("ports") or ())
            for c in spec.get("containers") or ()) or any(
            isinstance(v, dict) and ("persistentVolumeClaim" in v or "ephemeral" in v) for v in spec.get("volumes") or ()):
        counts.setdefault("unmodelled", set()).add(who)
    got = r.node_constraints(path + ("spec",), spec.get("nodeSelector"), node_aff, spec.get("tolerations"),
                             affinity_at=path + ("spec", "affinity", "nodeAffinity"))
    return counts.setdefault("shapes", {}).setdefault(got, got)  # pods repeat a few shapes: one object each, judged once


def _tags(spec: dict, annotations: dict, ns: str, bound: bool, ctx: _Context) -> dict:
    """The tags an application created from this pod is submitted with (getAppMetadata,
    Context.updateApplicationTags)."""
    tags = {"namespace": ns, "application.create.force": "true" if bound else "false"}
    secrets = spec.get("imagePullSecrets")
    if isinstance(secrets, list) and secrets:
        tags["imagePullSecrets"] = ",".join(str(s.get("name", "")) if isinstance(s, dict) else "" for s in secrets)
    if ctx.gangs:
        tags[shim.TASK_GROUPS] = str(annotations.get(shim.TASK_GROUPS) or "")
    tags[shim.SCHEDULING_POLICY] = str(annotations.get(shim.SCHEDULING_POLICY) or "")
    if ctx.namespaces is not None and ns in ctx.namespaces:
        tags.update(shim.namespace_tags(ctx.namespaces[ns]))
    return tags


def _applications(name: str, pods: list, counts: dict) -> tuple[list, set]:
    """The applications of the pods (load_pods' records), each with its bound pods as running
    allocations and its other pods as asks; and the applications whose pods name different
    queues. The shim registers pods sorted by their creation second (registerPods; pods of the
    same second in file order here, where Go's order is not defined) and creates an
    application from the first of its pods: that pod's queue, user, groups and tags. Its
    originator is the creating pod, or, for an application a placeholder created, the first
    real pod among the placeholder's owners (Context.addTask)."""
    apps: dict[str, App] = {}
    first: dict[str, PodRecord] = {}
    originators: dict[str, PodRecord] = {}
    disagree = set()
    for rec in sorted(pods, key=lambda p: (int(p.created) if p.created is not None else -(1 << 62), p.order)):
        when = (to_ns(rec.created), 0) if rec.created is not None else (0, rec.order)
        if rec.app_id not in apps:
            queue = rec.queue.lower()
            if queue and not rec.queue.startswith("root."):
                queue = "root." + queue.replace(".", "_dot_") if queue != "root" else "root.root"
            apps[rec.app_id] = App(rec.app_id, queue, when, line=rec.line, user=rec.user, groups=rec.groups,
                                   tags=dict(rec.tags), queue_raw=rec.queue)
            first[rec.app_id] = rec
            if not rec.placeholder:
                originators[rec.app_id] = rec
            why = _gang_fields(apps[rec.app_id], rec.tags)
            if why is not None:
                counts.setdefault("bad_task_groups", []).append(f"{rec.namespace}/{rec.name} ({why})")
        elif rec.queue != first[rec.app_id].queue:
            disagree.add(rec.app_id)
        if rec.app_id not in originators and not rec.placeholder and rec.uid and rec.uid in first[rec.app_id].owners:
            originators[rec.app_id] = rec
    ask_ids: dict[str, set] = {}
    alloc_ids: set = set()  # allocation keys are unique in YuniKorn (the pod's UID there)
    for rec in pods:
        app = apps[rec.app_id]
        when = (to_ns(rec.created), 0) if rec.created is not None else (0, rec.order)
        originator = originators.get(rec.app_id) is rec
        if rec.bound:
            aid = rec.name if rec.name not in alloc_ids else f"{rec.namespace}/{rec.name}"
            if aid in alloc_ids:
                raise InputError(name, f"pod {rec.namespace}/{rec.name} appears twice", rec.line)
            alloc_ids.add(aid)
            resources.add_to(app.allocated, rec.resources)
            app.allocations = (app.allocations or []) + [
                Allocation(aid, rec.priority, rec.resources, rec.node, when, originator, rec.allow_preemption, rec.order,
                           rec.task_group, rec.placeholder)]
            app.state = "Running"
            counts["bound"] += 1
            continue
        ids = ask_ids.setdefault(rec.app_id, set())
        ask_id = rec.name if rec.name not in ids else f"{rec.namespace}/{rec.name}"
        if ask_id in ids:
            raise InputError(name, f"pod {rec.namespace}/{rec.name} appears twice in application {rec.app_id}", rec.line)
        ids.add(ask_id)
        app.asks.append(Ask(ask_id, rec.priority, rec.resources, when, rec.order, rec.preemption_policy, originator,
                            rec.task_group, rec.placeholder, rec.required_node, rec.constraints))
    return list(apps.values()), disagree


def _gang_fields(app: App, tags: dict) -> str | None:
    """The application's task groups, style and placeholder timeout, from the annotations of the
    pod it was created from (the shim's getAppMetadata; none when gang scheduling is disabled).
    Returns why the shim refuses the task-groups annotation, if it does (then: no task groups)."""
    groups, why = shim.decode_task_groups(tags.get(shim.TASK_GROUPS))
    app.task_groups = [TaskGroup(*g) for g in groups]
    if app.task_groups:
        app.gang_style, timeout = shim.scheduling_policy(tags.get(shim.SCHEDULING_POLICY))
        app.placeholder_timeout = timeout if timeout > 0 else 0
    return why


def _notes(counts: dict, disagree: set, skipped: dict, other_kinds: dict) -> list:
    """What load_pods tells about how it read the pods."""
    notes = []
    if counts["autogen"]:
        notes.append(f"{count(counts['autogen'], 'pod')} without an application id label {'is' if counts['autogen'] == 1 else 'are'} grouped "
                     "as the shim does (yunikorn-<namespace>-autogen, or <namespace>-<pod uid> with generateUniqueAppId)")
    if counts["no_status"]:
        notes.append(f"{count(counts['no_status'], 'pod')} {'has' if counts['no_status'] == 1 else 'have'} no status (manifests, not created yet): "
                     "taken as the API server would create them (limits as requests, priority from the PriorityClass) and pending")
    if counts["bound"]:
        whose = "its application's" if counts["bound"] == 1 else "their applications'"
        notes.append(f"{count(counts['bound'], 'pod')} already bound to a node {'counts' if counts['bound'] == 1 else 'count'} as {whose} allocated resources")
    if counts["foreign"]:
        n = counts["foreign"]
        notes.append(f"{count(n, 'pod')} of other schedulers bound to the nodes {'takes' if n == 1 else 'take'} room there "
                     "(YuniKorn's foreign allocations), in no queue")
    if counts["orphans"]:
        notes.append("pods bound to nodes the node list does not hold are left out, as the shim leaves such orphans out: "
                     + ", ".join(n for n in sorted(counts["orphans"])[:5]))
    if counts["gated"]:
        notes.append("pods with scheduling gates are not sent to YuniKorn until the gates are removed: "
                     + ", ".join(n for n in sorted(counts["gated"])[:5]))
    if counts["bad_user"]:
        notes.append(f"the {shim.USER_INFO} annotation does not decode as {{user, groups}}; the user {shim.DEFAULT_USER} is taken, "
                     "as the shim does: " + ", ".join(n for n in sorted(counts["bad_user"])[:5]))
    if counts["no_priority"]:
        notes.append("created pods without spec.priority are priority 0, as the shim sends them (it never reads the PriorityClass; "
                     "admission fills spec.priority): " + ", ".join(n for n in sorted(counts["no_priority"])[:5]))
    if counts["stale_class"]:
        notes.append("created pods keep the priority admission gave them, although their class has changed since: "
                     + ", ".join(n for n in sorted(counts["stale_class"])[:5]))
    if counts["unknown_class"]:
        notes.append("spec.priority used as given for classes prio was not shown: " + ", ".join(n for n in sorted(counts["unknown_class"])[:5]))
    for why in counts["refused"][:5]:
        notes.append(why)
    if counts.get("bad_task_groups"):
        bad = counts["bad_task_groups"]
        notes.append(f"the {shim.TASK_GROUPS} annotation of {count(len(bad), 'pod')} that {'creates its application' if len(bad) == 1 else 'create their applications'} "
                     "does not decode as the shim decodes it: no task groups, the pods are scheduled as ordinary ones "
                     "(PRIO804; the shim records a TaskGroupsError event): " + ", ".join(bad[:5]))
    if disagree:
        notes.append("pods of one application name different queues; the queue of the pod that created it is used (as the shim does): "
                     + ", ".join(n for n in sorted(disagree)[:5]))
    if counts.get("unmodelled"):
        n = len(counts["unmodelled"])
        notes.append(f"{count(n, 'pod')} {'uses' if n == 1 else 'use'} pod (anti-)affinity, topology spread, host ports or claimed "
                     "volumes, whose predicates prio does not model (taken as passing): " + ", ".join(sorted(counts["unmodelled"])[:5]))
    if skipped:
        notes.append("pods left out: " + ", ".join(f"{k}: {n}" for k, n in sorted(skipped.items())))
    if other_kinds:
        notes.append("items that are not Pods skipped: " + ", ".join(f"{n} {k}" for k, n in sorted(other_kinds.items())))
    return notes


def _priority(r, spec: dict, path, ctx: _Context, who: str, manifest: bool) -> tuple[int, str] | None:
    """The ask's priority and preemption policy, as the shim sends them: `spec.priority` (else
    0: CreatePriorityForTask never reads the class) and `spec.preemptionPolicy` of a created pod;
    a manifest is taken through the Priority admission plugin first (priority and policy from
    its class, or the lowest global default, or 0), and None when admission refuses it (a class
    that does not exist, a priority or policy that disagrees with the class: noted)."""
    name = spec.get("priorityClassName")
    if name is not None and not isinstance(name, str):
        r.fail(path + ("spec", "priorityClassName"), f"priorityClassName must be a string, found {name!r}")
    given = spec.get("priority")
    if given is not None:
        given = r.int32(path + ("spec", "priority"), given, f"pod {who} spec.priority")
    pol = spec.get("preemptionPolicy")
    if pol is not None and not isinstance(pol, str):
        r.fail(path + ("spec", "preemptionPolicy"), f"preemptionPolicy must be a string, found {pol!r}")
    if not manifest:
        if given is None:
            ctx.counts["no_priority"].add(who)
            return 0, pol or ""
        c = ctx.cat.get(name) if name else None
        if name and c is None:
            ctx.counts["unknown_class"].add(name)
        elif c is not None and c.value != given:
            ctx.counts["stale_class"].add(f"{who} ({given}, class {name} now {c.value})")
        return given, pol or ""
    try:
        c = resolve_class(name or None, ctx.classes)
    except ResolveError as e:
        ctx.counts["refused"].append(f"pod {who} is refused by the API server on creation: {e}")
        return None
    value = c.value if c is not None else 0
    if given is not None and given != value:
        of = f"PriorityClass {name!r}" if c is not None and name else f"the global default PriorityClass {c.name!r}" if c is not None \
            else "the priority admission gives a pod of no class when no class is the global default"
        ctx.counts["refused"].append(f"pod {who} is refused by the API server on creation: spec.priority {given} disagrees "
                                     f"with {of} ({value})")
        return None
    want = c.preemption_policy if c is not None else PREEMPT_LOWER
    if pol is not None and c is not None and pol != want:
        ctx.counts["refused"].append(f"pod {who} is refused by the API server on creation: preemptionPolicy {pol!r} "
                                     f"disagrees with PriorityClass {c.name!r} ({want})")
        return None
    return value, pol or want
