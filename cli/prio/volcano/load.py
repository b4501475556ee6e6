"""A multi-document YAML of Volcano objects (Queue, PodGroup, Pod, Node, PriorityClass, the
volcano-scheduler.conf ConfigMap or raw config) -> prio.volcano's Cluster and Config, with the
defaults a cluster applies on create (the API server's, Volcano's webhooks' and controllers').
Bad input raises InputError naming the file and line."""
from __future__ import annotations

import re
from decimal import Decimal

from prio.errors import InputError
from prio.io import caps, yamlnodes
from prio.io.fields import Reader, kind_of_value
from prio.kube import quantity
from prio.values import INT32_MIN, shown_number
from prio.volcano import conf as vconf
from prio.volcano import recognise
from prio.volcano.model import Cluster, Node, Pod, PodGroup, PriorityClass, Queue

CONF_KEY = "volcano-scheduler.conf"
GROUP_ANNOTATION = "scheduling.k8s.io/group-name"
PREEMPTABLE = "volcano.sh/preemptable"
CREATED = "2026-01-01T00:00:00Z"
# What the API server lets a name be (DNS-1123 and the looser label-value forms): no spaces,
# line breaks or control characters can reach an output line.
_NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]{0,251}[A-Za-z0-9])?$")


def _named(name: str, doc, what: str, value, path) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise InputError(name, f"{what} {value!r} is not a name the API server accepts", _line(doc, path) or doc.start.line)
    return value


def resources(name: str, doc, path, value) -> dict:
    """Kubernetes quantities as Volcano's api.Resource holds them: cpu in millicores, memory in
    bytes, any other resource in milli-units (pods is not a resource here)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(name, f"{'.'.join(map(str, path))} must be a mapping of resource quantities", _line(doc, path))
    out = {}
    for k, v in value.items():
        try:
            d = quantity.parse(v)
        except quantity.QuantityError as e:
            raise InputError(name, f"{'.'.join(map(str, path))}.{k}: {e}", _line(doc, tuple(path) + (k,))) from None
        if str(k) == "pods":
            continue
        if d < 0 or d > quantity.INT64_MAX:
            raise InputError(name, f"{'.'.join(map(str, path))}.{k}: {shown_number(str(v))} is outside 0 to {quantity.INT64_MAX}",
                             _line(doc, tuple(path) + (k,)))
        out[str(k)] = float(d) if k == "memory" else float(d * Decimal(1000))
    return out


def _mapping(r: Reader, path: tuple, value) -> dict:
    """A field Kubernetes has as a mapping: {} when absent."""
    return {} if value is None else r.mapping(path, value)


def _text(r: Reader, path: tuple, value) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        r.fail(path, f"expected a string, found {kind_of_value(value)}")
    return str(value)


def _flag(r: Reader, path: tuple, value):
    return None if value is None else r.boolean(path, value)


def _int(r: Reader, path: tuple, value, minimum: int = INT32_MIN) -> int | None:
    """An int32 field (the API's type for weights, priorities, minMember), None when absent."""
    if value is None:
        return None
    v = r.int32(path, value, path[-1])
    if v < minimum:
        r.fail(path, f"{path[-1]} must be at least {minimum}, found {v}")
    return v


def _count(r: Reader, path: tuple, value) -> int:
    """A node's pods capacity: a quantity, a whole number within int64."""
    try:
        q = quantity.parse(value)
    except quantity.QuantityError as e:
        r.fail(path, str(e))
    if q < 0 or q > quantity.INT64_MAX:
        r.fail(path, f"pods {shown_number(str(value))} is outside 0 to {quantity.INT64_MAX}")
    return int(q)


def _count_pods(name: str, docs) -> None:
    """The ask cap (prio.io.caps.ASKS) on the pods of one file and the objects cap
    (prio.io.caps.OBJECTS) on its other objects (queues, PodGroups, nodes, PriorityClasses),
    counted before any is read; the refusal names the first past the cap. (A Volcano input is
    one file: per file is per run.)"""
    pods, others = [], []
    for d in docs:
        if isinstance(d.data, dict):
            (pods if d.data.get("kind") == "Pod" else others).append(d)
    cap = caps.ASKS.value()
    if len(pods) > cap:
        raise InputError(name, f"{len(pods)} pods in the file, more than prio reads ({cap}); {caps.ASKS.env}=N raises the cap",
                         pods[cap].start.line)
    cap = caps.OBJECTS.value()
    if len(others) > cap:
        raise InputError(name, caps.OBJECTS.exceeded(len(others), "in the file", "objects besides pods"), others[cap].start.line)


def _line(doc, path) -> int | None:
    pos = doc.pos(tuple(path)) if doc is not None and doc.index else None
    return pos.line if pos else None


def config_of(name: str, docs) -> tuple:
    """(Config, the Document holding it or None, its text or None, where its text starts)."""
    found = [(d, k) for d in docs for k in [_config_kind(d.data)] if k]
    if len(found) > 1:
        raise InputError(name, "more than one Volcano scheduler config in the file; give one", found[1][0].start.line)
    if not found:
        return vconf.default_config(), None, None
    doc, kind = found[0]
    if kind == "raw":
        data = doc.data
        return vconf.unmarshal(data, "raw"), doc, None
    text = doc.data["data"][CONF_KEY]
    if not isinstance(text, str):
        raise InputError(name, f"data.{CONF_KEY} must be a string holding the scheduler config", _line(doc, ("data", CONF_KEY)))
    inner = parse_conf(name, text, _line(doc, ("data", CONF_KEY)))
    return vconf.unmarshal(inner.data, "configmap"), doc, text


def parse_conf(name: str, text: str, line: int | None = None):
    """The config text decoded as go-yaml v2 decodes it (a Document; data None when empty)."""
    try:
        docs = yamlnodes.load(name, text, go="v2")
    except InputError as e:
        raise InputError(name, f"in {CONF_KEY}: {e.message}", line) from None
    return docs[0] if docs else yamlnodes.Document(None) if hasattr(yamlnodes, "Document") else _empty()


def _empty():
    from prio.io.document import Document

    return Document(None)


def _config_kind(data) -> str:
    if recognise.is_volcano_configmap(data):
        return "configmap"
    if recognise.is_volcano_raw_config(data):
        return "raw"
    return ""


def load(name: str, docs) -> tuple:
    """(Cluster, Config) of one file's documents. Every field Volcano reads is checked for its
    type and range before the work (int32 numbers, quantities within int64, mappings and lists
    where Kubernetes has them), and the pods are counted against the ask cap (PRIO_MAX_ASKS)
    before one is made: bad input is one line naming the file and line, never an internal error."""
    config, _, _ = config_of(name, docs)
    _count_pods(name, docs)
    c = Cluster()
    pods_raw = []
    for d in docs:
        data = d.data
        if data is None or _config_kind(data):
            continue
        if not isinstance(data, dict):
            raise InputError(name, "a document that is not a Kubernetes object", d.start.line)
        r = Reader(name, d)
        kind = data.get("kind")
        meta = _mapping(r, ("metadata",), data.get("metadata"))
        obj_name = meta.get("name")
        if not isinstance(obj_name, str) or not obj_name:
            raise InputError(name, f"a {kind if isinstance(kind, str) else 'document'} without metadata.name", d.start.line)
        _named(name, d, f"{kind} name", obj_name, ("metadata", "name"))
        if meta.get("namespace") is not None:
            _named(name, d, "namespace", meta.get("namespace"), ("metadata", "namespace"))
        spec = _mapping(r, ("spec",), data.get("spec"))
        status = _mapping(r, ("status",), data.get("status"))
        created = _text(r, ("metadata", "creationTimestamp"), meta.get("creationTimestamp")) or CREATED
        if kind == "Queue":
            weight = _int(r, ("spec", "weight"), spec.get("weight"), 0) or 1
            g_spec = _mapping(r, ("spec", "guarantee"), spec.get("guarantee"))
            guarantee = g_spec.get("resource")
            c.queues[obj_name] = Queue(
                obj_name, weight, resources(name, d, ("spec", "capability"), spec.get("capability")) or None,
                resources(name, d, ("spec", "deserved"), spec.get("deserved")) or None,
                resources(name, d, ("spec", "guarantee", "resource"), guarantee) or None,
                _int(r, ("spec", "priority"), spec.get("priority")) or 0, _flag(r, ("spec", "reclaimable"), spec.get("reclaimable")) is not False,
                _named(name, d, "parent queue", spec["parent"], ("spec", "parent")) if spec.get("parent") else (None if obj_name == "root" else "root"),
                _text(r, ("status", "state"), status.get("state")) or "Open", created)
        elif kind == "PodGroup":
            ns = str(meta.get("namespace") or "default")
            mr = spec.get("minResources")
            queue = _named(name, d, "queue name", spec["queue"], ("spec", "queue")) if spec.get("queue") else "default"
            g = PodGroup(ns, obj_name, queue, _int(r, ("spec", "minMember"), spec.get("minMember"), 0) or 0,
                         resources(name, d, ("spec", "minResources"), mr) if mr is not None else None,
                         _text(r, ("spec", "priorityClassName"), spec.get("priorityClassName")),
                         _text(r, ("status", "phase"), status.get("phase")) or "Pending", created)
            c.groups[g.key] = g
        elif kind == "PriorityClass":
            c.classes[obj_name] = PriorityClass(obj_name, _int(r, ("value",), data.get("value")) or 0,
                                                _flag(r, ("globalDefault",), data.get("globalDefault")) is True,
                                                _text(r, ("preemptionPolicy",), data.get("preemptionPolicy")) or "PreemptLowerPriority")
        elif kind == "Node":
            alloc = status.get("allocatable") or status.get("capacity") or {}
            where = ("status", "allocatable") if status.get("allocatable") else ("status", "capacity")
            conds = r.sequence(("status", "conditions"), status["conditions"]) if status.get("conditions") is not None else None
            ready = True
            if conds:
                ready = any(isinstance(x, dict) and x.get("type") == "Ready" and str(x.get("status")) == "True" for x in conds)
            res = resources(name, d, where, alloc)
            pods = _mapping(r, where, alloc).get("pods", 110)
            max_pods = _count(r, where + ("pods",), pods)
            labels = r.node_labels(("metadata", "labels"), meta.get("labels"))
            r.node_taints(("spec", "taints"), spec.get("taints"))
            c.nodes[obj_name] = Node(obj_name, labels, list(spec.get("taints") or []), res, max_pods,
                                     ready, _flag(r, ("spec", "unschedulable"), spec.get("unschedulable")) is True)
        elif kind == "Pod":
            pods_raw.append((d, r, data, meta, spec, status, obj_name, created))
        else:
            raise InputError(name, f"a {kind if isinstance(kind, str) else 'document without kind'}: not an object Volcano's scheduler reads here", d.start.line)
    for q, reclaimable in (("root", False), ("default", True)):
        if q not in c.queues:
            c.queues[q] = Queue(q, 1, reclaimable=reclaimable, parent=None if q == "root" else "root")
            c.added.append(f"Queue/{q}")
    default_pc = None
    found = [p for p in c.classes.values() if p.global_default]
    if found:
        default_pc = min(found, key=lambda p: p.value)
    for d, r, _data, meta, spec, status, obj_name, created in pods_raw:
        ns = str(meta.get("namespace") or "default")
        ann = _mapping(r, ("metadata", "annotations"), meta.get("annotations"))
        labels = _mapping(r, ("metadata", "labels"), meta.get("labels"))
        group = ann.get(GROUP_ANNOTATION)
        if not group:
            raise InputError(name, f"pod {ns}/{obj_name} has no {GROUP_ANNOTATION} annotation: name its PodGroup", d.start.line)
        _named(name, d, "PodGroup name", group, ("metadata", "annotations", GROUP_ANNOTATION))
        req: dict = {}
        for i, ctr in enumerate(r.sequence(("spec", "containers"), spec["containers"]) if spec.get("containers") is not None else []):
            ctr = _mapping(r, ("spec", "containers", i), ctr)
            rs = _mapping(r, ("spec", "containers", i, "resources"), ctr.get("resources"))
            merged = dict(_mapping(r, ("spec", "containers", i, "resources", "limits"), rs.get("limits")))
            merged.update(_mapping(r, ("spec", "containers", i, "resources", "requests"), rs.get("requests")))
            one = resources(name, d, ("spec", "containers", i, "resources", "requests"), merged)
            for k, v in one.items():
                req[k] = req.get(k, 0.0) + v
        pc_name = _text(r, ("spec", "priorityClassName"), spec.get("priorityClassName"))
        policy = "PreemptLowerPriority"
        if pc_name:
            pc = c.classes.get(pc_name)
            if pc is None:
                raise InputError(name, f"pod {ns}/{obj_name} names PriorityClass {pc_name!r}, which does not exist: the API server refuses it", _line(d, ("spec", "priorityClassName")))
            prio, policy = pc.value, pc.preemption_policy
        elif default_pc is not None:
            prio, pc_name, policy = default_pc.value, default_pc.name, default_pc.preemption_policy
        else:
            prio = 0
        if spec.get("priority") is not None:
            prio = _int(r, ("spec", "priority"), spec["priority"])
        if spec.get("preemptionPolicy"):
            policy = _text(r, ("spec", "preemptionPolicy"), spec["preemptionPolicy"])
        r.node_constraints(("spec",), spec.get("nodeSelector"), (spec.get("affinity") or {}).get("nodeAffinity")
                           if isinstance(spec.get("affinity"), dict) else _mapping(r, ("spec", "affinity"), spec.get("affinity")),
                           spec.get("tolerations"), affinity_at=("spec", "affinity", "nodeAffinity"))
        pre = _text(r, ("metadata", "annotations" if PREEMPTABLE in ann else "labels", PREEMPTABLE), ann.get(PREEMPTABLE, labels.get(PREEMPTABLE)))
        preemptable = True if pre is None else str(pre).strip().lower() in ("1", "t", "true")
        node = _named(name, d, "node name", spec["nodeName"], ("spec", "nodeName")) if spec.get("nodeName") else None
        p = Pod(ns, obj_name, f"{ns}/{group}", _text(r, ("metadata", "uid"), meta.get("uid")) or obj_name, created, req, prio, pc_name, policy, preemptable,
                dict(spec.get("nodeSelector") or {}), spec.get("affinity"), list(spec.get("tolerations") or []),
                node, _text(r, ("status", "phase"), status.get("phase")) or ("Running" if node else "Pending"),
                deleting=meta.get("deletionTimestamp") is not None)
        c.pods[p.key] = p
    return c, config
