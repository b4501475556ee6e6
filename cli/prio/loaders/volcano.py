"""A multi-document YAML of Volcano objects (Queue, PodGroup, Pod, Node, PriorityClass, the
volcano-scheduler.conf ConfigMap or raw config) -> prio.volcano's Cluster and Config, with the
defaults a cluster applies on create (the API server's, Volcano's webhooks' and controllers').
Bad input raises InputError naming the file and line."""
from __future__ import annotations

import re
from decimal import Decimal

from prio.errors import InputError
from prio.io import recognise, yamlnodes
from prio.kube import quantity
from prio.volcano import conf as vconf
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
        out[str(k)] = float(d) if k == "memory" else float(d * Decimal(1000))
    return out


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
    """(Cluster, Config) of one file's documents."""
    config, _, _ = config_of(name, docs)
    c = Cluster()
    pods_raw = []
    for d in docs:
        data = d.data
        if data is None or _config_kind(data):
            continue
        if not isinstance(data, dict):
            raise InputError(name, "a document that is not a Kubernetes object", d.start.line)
        kind = data.get("kind")
        meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
        obj_name = meta.get("name")
        if not isinstance(obj_name, str) or not obj_name:
            raise InputError(name, f"a {kind or 'document'} without metadata.name", d.start.line)
        _named(name, d, f"{kind} name", obj_name, ("metadata", "name"))
        if meta.get("namespace") is not None:
            _named(name, d, "namespace", meta.get("namespace"), ("metadata", "namespace"))
        spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
        status = data.get("status") if isinstance(data.get("status"), dict) else {}
        created = str(meta.get("creationTimestamp") or CREATED)
        if kind == "Queue":
            weight = spec.get("weight") or 1
            guarantee = (spec.get("guarantee") or {}).get("resource") if isinstance(spec.get("guarantee"), dict) else None
            c.queues[obj_name] = Queue(
                obj_name, int(weight), resources(name, d, ("spec", "capability"), spec.get("capability")) or None,
                resources(name, d, ("spec", "deserved"), spec.get("deserved")) or None,
                resources(name, d, ("spec", "guarantee", "resource"), guarantee) or None,
                int(spec.get("priority") or 0), spec.get("reclaimable") is not False,
                _named(name, d, "parent queue", spec["parent"], ("spec", "parent")) if spec.get("parent") else (None if obj_name == "root" else "root"),
                str(status.get("state") or "Open"), created)
        elif kind == "PodGroup":
            ns = str(meta.get("namespace") or "default")
            mr = spec.get("minResources")
            queue = _named(name, d, "queue name", spec["queue"], ("spec", "queue")) if spec.get("queue") else "default"
            g = PodGroup(ns, obj_name, queue, int(spec.get("minMember") or 0),
                         resources(name, d, ("spec", "minResources"), mr) if mr is not None else None,
                         spec.get("priorityClassName"),
                         str(status.get("phase") or "Pending"), created)
            c.groups[g.key] = g
        elif kind == "PriorityClass":
            c.classes[obj_name] = PriorityClass(obj_name, int(data.get("value") or 0), data.get("globalDefault") is True,
                                                str(data.get("preemptionPolicy") or "PreemptLowerPriority"))
        elif kind == "Node":
            alloc = status.get("allocatable") or status.get("capacity") or {}
            conds = status.get("conditions")
            ready = True
            if isinstance(conds, list) and conds:
                ready = any(isinstance(x, dict) and x.get("type") == "Ready" and str(x.get("status")) == "True" for x in conds)
            pods = alloc.get("pods", 110) if isinstance(alloc, dict) else 110
            c.nodes[obj_name] = Node(obj_name, dict(meta.get("labels") or {}), list(spec.get("taints") or []),
                                     resources(name, d, ("status", "allocatable"), alloc), int(quantity.parse(pods)),
                                     ready, spec.get("unschedulable") is True)
        elif kind == "Pod":
            pods_raw.append((d, data, meta, spec, status, obj_name, created))
        else:
            raise InputError(name, f"a {kind or 'document without kind'}: not an object Volcano's scheduler reads here", d.start.line)
    for q, reclaimable in (("root", False), ("default", True)):
        if q not in c.queues:
            c.queues[q] = Queue(q, 1, reclaimable=reclaimable, parent=None if q == "root" else "root")
            c.added.append(f"Queue/{q}")
    default_pc = None
    found = [p for p in c.classes.values() if p.global_default]
    if found:
        default_pc = min(found, key=lambda p: p.value)
    for d, data, meta, spec, status, obj_name, created in pods_raw:
        ns = str(meta.get("namespace") or "default")
        ann = meta.get("annotations") if isinstance(meta.get("annotations"), dict) else {}
        labels = meta.get("labels") if isinstance(meta.get("labels"), dict) else {}
        group = ann.get(GROUP_ANNOTATION)
        if not group:
            raise InputError(name, f"pod {ns}/{obj_name} has no {GROUP_ANNOTATION} annotation: name its PodGroup", d.start.line)
        _named(name, d, "PodGroup name", group, ("metadata", "annotations", GROUP_ANNOTATION))
        req: dict = {}
        for i, ctr in enumerate(spec.get("containers") or []):
            r = (ctr or {}).get("resources") or {}
            merged = dict(r.get("limits") or {})
            merged.update(r.get("requests") or {})
            one = resources(name, d, ("spec", "containers", i, "resources", "requests"), merged)
            for k, v in one.items():
                req[k] = req.get(k, 0.0) + v
        pc_name = spec.get("priorityClassName")
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
            prio = int(spec["priority"])
        if spec.get("preemptionPolicy"):
            policy = str(spec["preemptionPolicy"])
        pre = ann.get(PREEMPTABLE, labels.get(PREEMPTABLE))
        preemptable = True if pre is None else str(pre).strip().lower() in ("1", "t", "true")
        node = _named(name, d, "node name", spec["nodeName"], ("spec", "nodeName")) if spec.get("nodeName") else None
        p = Pod(ns, obj_name, f"{ns}/{group}", str(meta.get("uid") or obj_name), created, req, prio, pc_name, policy, preemptable,
                dict(spec.get("nodeSelector") or {}), spec.get("affinity"), list(spec.get("tolerations") or []),
                node, "Running" if node else "Pending")
        c.pods[p.key] = p
    return c, config
