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

import json
from typing import NamedTuple

from prio.errors import InputError
from prio.kube import quantity as kq
from prio.loaders.priorityclasses import classes_from_docs
from prio.kube.priorityclass import ResolveError, catalogue, resolve_class
from prio.loaders.reader import parse_time, to_ns
from prio.loaders.reader import Reader
from prio.yunikorn import resources
from prio.yunikorn.snapshot import Allocation, App, Ask, Node, Snapshot
from prio.io.document import Document
from prio.io.recognise import NOT_POD_LISTS, is_node, is_pod, is_pod_list  # noqa: F401 - recognised by shape
from prio.values import count

SCHEDULER = "yunikorn"
APP_ID_LABELS = (("label", "yunikorn.apache.org/app-id"), ("annotation", "yunikorn.apache.org/app-id"),
                 ("label", "applicationId"), ("label", "spark-app-selector"))
QUEUE_LABELS = (("label", "yunikorn.apache.org/queue"), ("annotation", "yunikorn.apache.org/queue"), ("label", "queue"))
USER_INFO = "yunikorn.apache.org/user.info"  # the shim's userInfoKey (utils.GetUserFromPod)
DEFAULT_USER = "nobody"  # the shim's constants.DefaultUser
ALLOW_PREEMPTION = "yunikorn.apache.org/allow-preemption"  # "false": the pod is never a victim


class PodRecord(NamedTuple):
    """One pod YuniKorn schedules, as load_pods keeps it until the applications are made."""

    order: int  # its place among the pods kept
    created: float | None
    app_id: str
    queue: str
    qpath: tuple
    name: str
    namespace: str
    priority: int
    resources: dict
    bound: bool
    node: str  # spec.nodeName ("" when not bound)
    user: str
    groups: tuple
    owned: bool  # has ownerReferences (then the shim marks no task the application's originator)
    allow_preemption: bool
    preemption_policy: str
    line: int | None


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


def _first(sources: dict, order, path) -> tuple[str | None, tuple | None]:
    for where, key in order:
        v = sources[where].get(key)
        if v is not None and str(v) != "":
            return str(v), path + ("metadata", where + "s", key)
    return None, None


def _requests(r, c: dict, cpath) -> dict:
    res = c.get("resources")
    if res is None:
        return {}
    if not isinstance(res, dict):
        r.fail(cpath + ("resources",), "resources must be a mapping with requests and limits")
    out = {}
    req = res.get("requests") or {}
    lim = res.get("limits") or {}
    for what, m in (("requests", req), ("limits", lim)):
        if not isinstance(m, dict):
            r.fail(cpath + ("resources", what), f"resources.{what} must be a mapping of resource name to quantity")
    for what, m in (("requests", req), ("limits", lim)):
        for k, v in m.items():
            if what == "limits" and k in req:
                continue  # a request wins; a limit alone is the request (API defaulting)
            key, val = _quantity(r, cpath + ("resources", what, k), k, v)
            out[key] = val
    return out


def _quantity(r, p, name, value) -> tuple:
    """(YuniKorn's resource name, its value) of one Kubernetes quantity at path p, read from
    its source text where there is one (so `1.5` stays the text written, not a float)."""
    raw = r.doc.raw(p)
    try:
        return kq.to_internal(str(name), raw if raw is not None and not isinstance(value, bool) else value)
    except kq.QuantityError as e:
        r.fail(p, str(e))


def pod_resources(r, spec: dict, path) -> dict:
    """What the shim asks YuniKorn for (GetPodResource): containers summed, restartable init
    containers (sidecars) added too; each other init container raises a resource to its own
    request plus the sidecars started before it, when that is larger; pod-level
    `spec.resources.requests` replace what the containers give; then the pod overhead and one
    `pods`."""
    total: dict = {}
    for key in ("containers", "initContainers"):
        if spec.get(key) is not None and not isinstance(spec.get(key), list):
            r.fail(path + ("spec", key), f"spec.{key} must be a list of containers")
    for i, c in enumerate(spec.get("containers") or []):
        if not isinstance(c, dict):
            r.fail(path + ("spec", "containers", i), "a container must be a mapping")
        resources.add_to(total, _requests(r, c, path + ("spec", "containers", i)))
    inits = []
    sidecars: dict = {}  # the sidecars started so far: they keep running beside later init containers
    for i, c in enumerate(spec.get("initContainers") or []):
        if not isinstance(c, dict):
            r.fail(path + ("spec", "initContainers", i), "an init container must be a mapping")
        req = _requests(r, c, path + ("spec", "initContainers", i))
        if c.get("restartPolicy") == "Always":
            resources.add_to(total, req)
            resources.add_to(sidecars, req)
        else:
            with_sidecars = dict(sidecars)
            resources.add_to(with_sidecars, req)
            inits.append(with_sidecars)
    for req in inits:
        for k, v in req.items():
            if v > total.get(k, 0):
                total[k] = v
    pod_level = spec.get("resources")
    if isinstance(pod_level, dict) and isinstance(pod_level.get("requests"), dict):
        total.update(_requests(r, {"resources": {"requests": pod_level["requests"]}}, path + ("spec",)))
    ov = spec.get("overhead")
    if ov is not None:
        resources.add_to(total, _quantities(r, ov, path + ("spec", "overhead"), "spec.overhead"))
    total["pods"] = 1
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
        out.append(Node(nm, {k: v for k, v in offers.items() if v != 0}, schedulable=not cordoned))
    return out


def join_nodes(nodes: list | None, more: list, name: str) -> list:
    """The nodes read so far and those of one more document (`name`) as one list; a node two
    documents list is refused."""
    have = {n.name for n in nodes or ()}
    twice = [n.name for n in more if n.name in have]
    if twice:
        raise InputError(name, f"node {twice[0]} is listed by another input too; give each node once")
    return [*(nodes or ()), *more]


def _classes_in_file(items) -> list:
    docs = [("", Document(it)) for it, _ in items if isinstance(it, dict) and it.get("kind") == "PriorityClass"]
    return classes_from_docs(docs)


def load_pods(name: str, doc, classes=(), nodes: list | None = None) -> Snapshot:
    """The YuniKorn pods of a pod list as a snapshot of applications, running allocations and
    pending asks. `nodes`: the cluster's nodes (load_nodes of every input), when known: the
    snapshot then holds them, what other schedulers' pods take on them added to their
    `occupied` (the list is shared by every pod list of the run, each adding its own pods)."""
    r = Reader(name, doc, name_path="unpositioned")
    items, bare = _items(r, doc.data)
    # as the native loader: the file's own classes first (the first definition of a name counts)
    all_classes = _classes_in_file(items) + list(classes)
    cat = catalogue(all_classes)
    snap = Snapshot(source=name, priority_classes=all_classes)
    by_node = {n.name: n for n in nodes} if nodes is not None else None
    if nodes is not None:
        snap.nodes = nodes
        snap.capacity = resources.total(n.capacity for n in nodes)  # root's max: the partition's nodes
    skipped: dict[str, int] = {}
    other_kinds: dict[str, int] = {}
    counts = {"no_queue": set(), "autogen": 0, "no_status": 0, "unknown_class": set(), "bound": 0, "rooted": set(),
              "stale_class": set(), "foreign": 0, "orphans": set(), "bad_user": set()}
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
        rec = _pod(r, pod, path, order, all_classes, cat, counts, skipped, by_node, pos.line if pos else None)
        if rec is not None:
            pods.append(rec)
    apps, disagree = _applications(name, pods, counts)
    snap.apps = apps
    snap.notes += _notes(counts, disagree, skipped, other_kinds)
    return snap


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


def _pod(r, pod: dict, path, order: int, all_classes, cat: dict, counts: dict, skipped: dict,
         by_node: dict | None, line: int | None) -> PodRecord | None:
    """One YuniKorn pod as a PodRecord, or None when YuniKorn leaves it out (terminating,
    finished, bound to a node `by_node` does not hold: counted in `skipped`) or it is another
    scheduler's (with nodes, one bound to a node and not finished takes room there)."""
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
    node = spec.get("nodeName") or ""
    if not isinstance(node, str):
        r.fail(path + ("spec", "nodeName"), f"spec.nodeName must be a string, found {node!r}")
    sched = spec.get("schedulerName") or "default-scheduler"
    if sched != SCHEDULER:
        # the shim's updateForeignPod: assigned and not terminated (Succeeded, Failed) is a
        # foreign allocation on its node, if the node is known (else an orphan it skips)
        if by_node is not None and node in by_node and (status or {}).get("phase") not in ("Succeeded", "Failed"):
            resources.add_to(by_node[node].occupied, pod_resources(r, spec, path))
            counts["foreign"] += 1
        else:
            _skip(skipped, f"scheduler {sched}")
        return None
    phase = (status or {}).get("phase")
    bound = phase == "Running" or bool(node)
    if md.get("deletionTimestamp") and not (bound and phase in ("Pending", "Running")):
        _skip(skipped, "terminating")
        return None
    if phase in (None, ""):
        counts["no_status"] += 1
        phase = "Pending"
    if phase not in ("Pending", "Running"):
        _skip(skipped, str(phase))
        return None
    if bound and by_node is not None and node not in by_node:
        counts["orphans"].add(node or "no node")
        _skip(skipped, "bound to a node not listed")
        return None
    labels = _strmap(r, md, "labels", path)
    annotations = _strmap(r, md, "annotations", path)
    sources = {"label": labels, "annotation": annotations}
    app_id, _ = _first(sources, APP_ID_LABELS, path)
    if app_id is None:
        app_id = f"yunikorn-{ns}-autogen"
        counts["autogen"] += 1
    queue, qpath = _first(sources, QUEUE_LABELS, path)
    if queue is None:
        queue = f"root.{ns}"
        counts["no_queue"].add(queue.lower())
        qpath = path + ("metadata",)
    queue = queue.strip()
    if not queue.lower().startswith("root.") and queue.lower() != "root":
        counts["rooted"].add(queue)
        queue = "root." + queue
    if any(not part for part in queue.split(".")) or " " in queue:
        r.fail(qpath, f"pod {ns}/{pod_name}: queue {queue!r} is not a queue path like root.a.b")
    prio = _priority(r, spec, path, all_classes, cat, counts, f"{ns}/{pod_name}", admitted=pod.get("status") is not None)
    res = pod_resources(r, spec, path)
    ct = md.get("creationTimestamp")
    created = parse_time(ct)
    if ct is not None and created is None:
        r.fail(path + ("metadata", "creationTimestamp"), f"creationTimestamp {ct!r} is not an RFC 3339 time")
    user, groups = _user(annotations.get(USER_INFO), counts, f"{ns}/{pod_name}")
    policy = spec.get("preemptionPolicy")
    if not isinstance(policy, str) or not policy:  # admission copies the class's
        c = cat.get(spec.get("priorityClassName")) if isinstance(spec.get("priorityClassName"), str) else None
        policy = c.preemption_policy if c is not None else ""
    return PodRecord(order, created, app_id, queue.lower(), qpath, pod_name, ns, prio, res, bound, node, user, groups,
                     bool(md.get("ownerReferences")), str(annotations.get(ALLOW_PREEMPTION, "")) != "false", policy, line)


def _user(info, counts: dict, who: str) -> tuple[str, tuple]:
    """The user and groups of a pod as the shim reads them (utils.GetUserFromPod): the JSON of
    the user.info annotation, else the default user; a user left empty is the default user."""
    if info is None or info == "":
        return DEFAULT_USER, ()
    try:
        ugi = json.loads(str(info))
    except ValueError:
        ugi = None
    if not isinstance(ugi, dict) or not isinstance(ugi.get("user", ""), str) or \
            not isinstance(ugi.get("groups") or [], list) or not all(isinstance(g, str) for g in ugi.get("groups") or []):
        counts["bad_user"].add(who)
        return DEFAULT_USER, ()
    return ugi.get("user") or DEFAULT_USER, tuple(ugi.get("groups") or ())


def _applications(name: str, pods: list, counts: dict) -> tuple[list, set]:
    """The applications of the pods (load_pods' records), in the order of their first pod, each
    with its bound pods as running allocations and its other pods as asks; and the applications
    whose pods name different queues. The oldest pod stands for the application (the shim
    creates it from the first pod it sees): its queue, its user, and, when it has no owner, it is
    the originator task."""
    apps: dict[str, App] = {}
    first: dict[str, PodRecord] = {}
    disagree = set()
    for rec in sorted(pods, key=lambda p: (p.created if p.created is not None else float("-inf"), p.order)):
        when = (to_ns(rec.created), 0) if rec.created is not None else (0, rec.order)
        if rec.app_id not in apps:
            apps[rec.app_id] = App(rec.app_id, rec.queue, when, line=rec.line, user=rec.user, groups=rec.groups)
            first[rec.app_id] = rec
        elif rec.queue != first[rec.app_id].queue:
            disagree.add(rec.app_id)
    ask_ids: dict[str, set] = {}
    alloc_ids: set = set()  # allocation keys are unique in YuniKorn (the pod's UID there)
    for rec in pods:
        app = apps[rec.app_id]
        when = (to_ns(rec.created), 0) if rec.created is not None else (0, rec.order)
        if rec.bound:
            aid = rec.name if rec.name not in alloc_ids else f"{rec.namespace}/{rec.name}"
            if aid in alloc_ids:
                raise InputError(name, f"pod {rec.namespace}/{rec.name} appears twice", rec.line)
            alloc_ids.add(aid)
            resources.add_to(app.allocated, rec.resources)
            originator = first[rec.app_id] is rec and not rec.owned
            app.allocations = (app.allocations or []) + [
                Allocation(aid, rec.priority, rec.resources, rec.node, when, originator, rec.allow_preemption, rec.order)]
            app.state = "Running"
            counts["bound"] += 1
            continue
        ids = ask_ids.setdefault(rec.app_id, set())
        ask_id = rec.name if rec.name not in ids else f"{rec.namespace}/{rec.name}"
        if ask_id in ids:
            raise InputError(name, f"pod {rec.namespace}/{rec.name} appears twice in application {rec.app_id}", rec.line)
        ids.add(ask_id)
        app.asks.append(Ask(ask_id, rec.priority, rec.resources, when, rec.order, rec.preemption_policy))
    return list(apps.values()), disagree


def _notes(counts: dict, disagree: set, skipped: dict, other_kinds: dict) -> list:
    """What load_pods tells about how it read the pods."""
    notes = []
    if counts["no_queue"]:
        notes.append("pods without a queue label or annotation are placed in root.<namespace> ("
                     + ", ".join(sorted(counts["no_queue"])[:5]) + "), as YuniKorn's default placement rule (tag namespace, "
                     "create) would do; the config's placement rules are not evaluated")
    if counts["rooted"]:
        notes.append("queue names without root. are taken as below root: " + ", ".join(sorted(counts["rooted"])[:5]))
    if counts["autogen"]:
        notes.append(f"{count(counts['autogen'], 'pod')} without an application id label {'is' if counts['autogen'] == 1 else 'are'} grouped per namespace as "
                     "yunikorn-<namespace>-autogen, as the shim does")
    if counts["no_status"]:
        notes.append(f"{count(counts['no_status'], 'pod')} {'has' if counts['no_status'] == 1 else 'have'} no status (manifests, not created yet): taken as pending")
    if counts["bound"]:
        whose = "its application's" if counts["bound"] == 1 else "their applications'"
        notes.append(f"{count(counts['bound'], 'pod')} already bound or running {'counts' if counts['bound'] == 1 else 'count'} as {whose} allocated resources")
    if counts["foreign"]:
        n = counts["foreign"]
        notes.append(f"{count(n, 'pod')} of other schedulers bound to the nodes {'takes' if n == 1 else 'take'} room there "
                     "(YuniKorn's foreign allocations), in no queue")
    if counts["orphans"]:
        notes.append("pods bound to nodes the node list does not hold are left out, as the shim leaves such orphans out: "
                     + ", ".join(sorted(counts["orphans"])[:5]))
    if counts["bad_user"]:
        notes.append(f"the {USER_INFO} annotation is not a JSON object with user and groups; the user {DEFAULT_USER} is taken, "
                     "as the shim does: " + ", ".join(sorted(counts["bad_user"])[:5]))
    if counts["stale_class"]:
        notes.append("created pods keep the priority admission gave them, although their class has changed since: "
                     + ", ".join(sorted(counts["stale_class"])[:5]))
    if counts["unknown_class"]:
        notes.append("spec.priority used as given for classes prio was not shown: " + ", ".join(sorted(counts["unknown_class"])[:5]))
    if disagree:
        notes.append("pods of one application name different queues; the oldest pod's queue is used (as the shim does): "
                     + ", ".join(sorted(disagree)[:5]))
    if skipped:
        notes.append("pods left out: " + ", ".join(f"{k}: {n}" for k, n in sorted(skipped.items())))
    if other_kinds:
        notes.append("items that are not Pods skipped: " + ", ".join(f"{n} {k}" for k, n in sorted(other_kinds.items())))
    return notes


def _priority(r, spec: dict, path, classes, cat: dict, counts: dict, who: str, admitted: bool = False) -> int:
    """The ask priority. YuniKorn takes pod.spec.priority as it is; admission checked it against
    the class once, at creation. So a created pod (it has a status) keeps its priority even if
    its class has changed since (noted); a manifest not yet created is checked as admission
    would check it."""
    name = spec.get("priorityClassName")
    if name is not None and not isinstance(name, str):
        r.fail(path + ("spec", "priorityClassName"), f"priorityClassName must be a string, found {name!r}")
    given = spec.get("priority")
    if given is not None:
        given = r.int32(path + ("spec", "priority"), given, f"pod {who} spec.priority")
    try:
        if given is not None and name and name not in cat:
            counts["unknown_class"].add(name)  # admitted in its cluster: spec.priority is the truth
            return given
        if given is not None and not name:
            return given  # admission wrote no class: there was no global default, or no admission
        c = resolve_class(name or None, classes)
        value = c.value if c is not None else 0
        if given is not None and given != value and admitted:
            counts["stale_class"].add(f"{who} ({given}, class {name} now {value})")
            return given
        if given is not None and given != value:
            r.fail(path + ("spec", "priority"),
                   f"pod {who}: spec.priority {given} disagrees with PriorityClass {name!r} ({value}); admission rejects such a pod")
        pol = spec.get("preemptionPolicy")
        if pol is not None and c is not None and pol != c.preemption_policy and not admitted:
            r.fail(path + ("spec", "preemptionPolicy"),
                   f"pod {who}: preemptionPolicy {pol!r} disagrees with PriorityClass {c.name!r} ({c.preemption_policy}); "
                   "admission rejects such a pod")
        return value
    except ResolveError as e:
        r.fail(path + ("spec", "priorityClassName") if name else path + ("spec",), f"pod {who}: {e}")
