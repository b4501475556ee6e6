"""`prio snapshot`'s file: the queue config and the pending work as one YAML file of two
documents. The first is the queues.yaml YuniKorn runs (YuniKorn and `prio validate` read only
the first document), the second prio's native snapshot; `prio explain FILE` reads both.

Pure: model in, text out. Anonymizing (`prio.yunikorn.render.anonymize`) renames every name in both
documents, keeping every number and every order."""
from __future__ import annotations

import datetime as _dt
import re

import yaml

from prio.kube import predicates
from prio.yunikorn.quantity import VCORE
from prio.yunikorn.render import anonymize as anonymize_mod
from prio.yunikorn.render.anonymize import Names
from prio.yunikorn.ugm import DEFAULT_USER, beyond

EXPLAIN = ("prio snapshot: document 1 is the queue config (a queues.yaml: YuniKorn and prio validate read the\n"
           "first document only), document 2 the pending work in prio's native snapshot format.\n"
           "prio explain FILE and prio simulate FILE read both.")


def quantity(key: str, v: int):
    """An internal amount (vcore in millicores) as the native format writes it."""
    if key == VCORE:
        return v // 1000 if v % 1000 == 0 else f"{v}m"
    return v


def resources(res: dict | None) -> dict:
    return {k: quantity(k, v) for k, v in (res or {}).items()}  # order kept: messages name the first short one


def rfc3339(ns: int) -> str:
    """Unix nanoseconds as RFC 3339 UTC, to the microsecond (what Python 3.10 parses back)."""
    sec, rem = divmod(int(ns), 1_000_000_000)
    t = _dt.datetime.fromtimestamp(sec, _dt.timezone.utc).replace(tzinfo=None)
    us = rem // 1000
    frac = f".{us:06d}".rstrip("0") if us else ""
    return t.strftime("%Y-%m-%dT%H:%M:%S") + frac + "Z"


def see_snapshot(snap, names: Names, raw_apps=None, nodes=None, rejected=(), placed=None) -> None:
    """Every name the snapshot document will hold, for the renaming (before `names.freeze()`)."""
    raw_apps = raw_apps or {}
    placed = placed or {}
    for n in nodes or ():
        names.see_node(str(n["name"]))
    for n in snap.nodes or ():
        names.see_node(n.name)
    for a in snap.apps:
        names.see_app(a.id)
        if a.id in placed:
            names.see_queue(placed[a.id], False)
        else:
            names.see_queue(a.queue_raw if a.queue_raw is not None else a.queue, names.relative_is_one and not a.placed)
        for k, v in (a.tags or {}).items():
            if k.lower() in _QUEUE_TAGS:
                names.see_queue(v, _QUEUE_TAGS[k.lower()])
        raw = raw_apps.get(a.id) or {}
        user = raw["user"] if isinstance(raw.get("user"), str) and raw["user"] else a.user
        if user:
            names.see_user(user)
        else:
            names.keep(DEFAULT_USER)  # the user YuniKorn's limits take it for: stays what it is
        for g in a.groups:
            names.see_group(g)
        for k in a.asks:
            names.see_ask(a.id, k.id)
            if k.required_node:
                names.see_node(k.required_node)
        for t in a.allocations or ():
            names.see_ask(a.id, t.id)
            names.see_node(t.node)
        for t in raw.get("allocations") if isinstance(raw.get("allocations"), list) else ():
            names.see_ask(a.id, str(t.get("allocationKey") or ""))
            names.see_node(str(t.get("nodeId") or ""))
    for r in rejected:
        names.see_app(r["application"])
        names.see_queue(r.get("queue") or "", names.relative_is_one)
        if r.get("user"):
            names.see_user(r["user"])


def snapshot_doc(snap, names: Names, raw_apps=None, nodes=None, placed=None) -> dict:
    """The native snapshot (contract format) of a Snapshot, as plain data. `placed`: application
    id -> the queue YuniKorn's placement put it in, written as its queue (with its tags, the
    same rules place it there again when the file is read)."""
    raw_apps = raw_apps or {}
    placed = placed or {}
    out: dict = {"partition": snap.partition or "default"}
    if snap.yunikorn_version:
        out["yunikornVersion"] = snap.yunikorn_version
    if snap.capacity:
        out["capacity"] = resources(snap.capacity)
    if nodes:
        out["nodes"] = [_node(str(n["name"]), n["capacity"], n.get("schedulable", True), names) for n in nodes]
    elif snap.nodes:
        out["nodes"] = [_node(n.name, n.capacity, n.schedulable, names, n.occupied, n.labels, n.taints) for n in snap.nodes]
    if snap.priority_classes:
        out["priorityClasses"] = [{"name": c.name, "value": c.value, **({"globalDefault": True} if c.global_default else {})}
                                  for c in snap.priority_classes]
    rows = []
    for a in snap.apps:  # the input's order: the engine sets unfitting asks aside in it
        raw = raw_apps.get(a.id) or {}
        queue = placed.get(a.id) or (a.queue_raw if a.queue_raw is not None else a.queue)
        row: dict = {"id": names.app(a.id), "queue": names.queue(queue, names.relative_is_one and not a.placed and a.id not in placed)}
        if a.submit_time[1] == 0 and a.submit_time[0] is not None:
            row["submitTime"] = rfc3339(a.submit_time[0])
        if isinstance(raw.get("user"), str) and raw["user"]:
            row["user"] = names.user(raw["user"])
        elif a.user:
            row["user"] = names.user(a.user)
        if a.groups:  # the user's groups (user and group limits, placement filters)
            row["groups"] = [names.group(g) for g in a.groups]
        if a.tags:  # what the resource manager submitted it with (tag rules read them)
            row["tags"] = _tags(a.tags, names)
        if a.task_groups:  # a gang application: its task groups, style and placeholder timeout
            row["taskGroups"] = [{"name": g.name, "minMember": g.min_member, "minResource": resources(g.min_resource)}
                                 for g in a.task_groups]
            row["gangSchedulingStyle"] = a.gang_style
            if a.placeholder_timeout:
                row["placeholderTimeoutInSeconds"] = a.placeholder_timeout
        if not queue:
            del row["queue"]  # none named: placement decides
        if a.rejected is not None:  # YuniKorn refused it: kept as refused, with its reason
            if not a.queue and "queue" in row:
                del row["queue"]  # YuniKorn does not serve the queue a rejected application asked for
            row.update({"state": "Rejected", "rejectedMessage": names.text(a.rejected)})
        allocs = raw.get("allocations") if isinstance(raw.get("allocations"), list) else None
        if a.allocations:  # the running tasks one by one (preemption's victims)
            row["allocations"] = [_model_allocation(a.id, t, names) for t in a.allocations]
        elif allocs:
            row["allocations"] = [_allocation(a.id, t, names) for t in sorted(
                allocs, key=lambda t: (_int(t.get("requestTime")), str(t.get("allocationKey"))))]
        elif a.allocated:
            row["allocated"] = resources(a.allocated)
        asks = []
        for k in sorted(a.asks, key=lambda k: k.seq):
            ask: dict = {"id": names.ask(a.id, k.id), "priority": k.priority, "resources": resources(k.resources)}
            if k.create_time[1] == 0 and k.create_time[0] is not None:
                ask["createTime"] = rfc3339(k.create_time[0])
            if k.preemption_policy:  # Never: the ask may not preempt
                ask["preemptionPolicy"] = k.preemption_policy
            _task_fields(ask, k, names=names)
            if k.node is not None:
                ask.update(_node_constraints(k.node, names))
            asks.append(ask)
        row["asks"] = asks
        rows.append(row)
    out["applications"] = rows
    return out


def _node(name: str, capacity: dict, schedulable: bool, names: Names, occupied: dict | None = None,
          labels: dict | None = None, taints=()) -> dict:
    """A node in the native format; `schedulable: false` (prio's addition to the contract) only
    for a cordoned or draining node, `occupied` only where other schedulers' pods take room,
    `labels` and `taints` where it has them (what the pods' node predicates read)."""
    out = {"name": names.node(name), "capacity": resources(capacity)}
    if occupied:
        out["occupied"] = resources(occupied)
    if not schedulable:
        out["schedulable"] = False
    if labels:
        out["labels"] = {k: names.text(v) for k, v in labels.items()}
    if taints:
        out["taints"] = [{**t, "value": names.text(t["value"])} if "value" in t else t for t in predicates.taints_doc(taints)]
    return out


def _node_constraints(c, names: Names) -> dict:
    """An ask's nodeSelector, affinity (the pod's affinity.nodeAffinity) and tolerations as
    Kubernetes writes them (requiredNode is _task_fields'). Anonymized, node names become the nodes' new names
    and every value goes through the same renaming as the nodes' labels and taints, so every
    predicate answers as before."""
    out: dict = {}
    if c.selector is not None:
        out["nodeSelector"] = {k: names.text(v) for k, v in c.selector}
    aff = predicates.affinity_doc(c)
    if aff is not None:
        for term in (aff.get("requiredDuringSchedulingIgnoredDuringExecution") or {}).get("nodeSelectorTerms", ()):
            for r in term.get("matchExpressions", ()):
                if "values" in r:
                    r["values"] = [names.text(v) for v in r["values"]]
            for r in term.get("matchFields", ()):
                if "values" in r:
                    r["values"] = [names.node(v) if r["key"] == predicates.NAME_FIELD else names.text(v) for v in r["values"]]
        out["affinity"] = aff
    if c.tolerations:
        out["tolerations"] = [{**t, "value": names.text(t["value"])} if "value" in t else t for t in predicates.tolerations_doc(c)]
    return out


def _int(v) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


def _model_allocation(app_id: str, t, names: Names) -> dict:
    """A snapshot.Allocation in the native format (contract: id, priority, resources, node,
    createTime, originator, allowPreemption)."""
    out = {"id": names.ask(app_id, t.id), "priority": t.priority, "resources": resources(t.resources)}
    if t.node:
        out["node"] = names.node(t.node)
    if t.create_time[1] == 0 and t.create_time[0]:
        out["createTime"] = rfc3339(t.create_time[0])
    if t.originator:
        out["originator"] = True
    if not t.allow_preemption:
        out["allowPreemption"] = False
    _task_fields(out, t, originator=False)
    return out


# Tags whose value names a queue (renamed as the queue is, so tag rules still place the file's
# applications where they went) and tags that name nothing; --anonymize drops the others.
_QUEUE_TAGS = {"namespace": True, "namespace.parentqueue": False}  # tag -> its value is one queue name
_PLAIN_TAGS = ("application.create.force",)


def _tags(tags: dict, names: Names) -> dict:
    if not names.on:
        return dict(tags)
    out = {}
    for k, v in tags.items():
        if k.lower() in _QUEUE_TAGS:
            out[k] = names.queue(v, _QUEUE_TAGS[k.lower()])
        elif k.lower() in _PLAIN_TAGS:
            out[k] = v
    return out


def _task_fields(out: dict, t, originator: bool = True, names: Names | None = None) -> None:
    """The shim's fields of an ask or allocation, where set: originator (asks: allocations
    write it beside allowPreemption), taskGroup, placeholder, requiredNode."""
    if originator and t.originator:
        out["originator"] = True
    if t.task_group:
        out["taskGroup"] = t.task_group
    if t.placeholder:
        out["placeholder"] = True
    if getattr(t, "required_node", ""):
        out["requiredNode"] = names.node(t.required_node) if names is not None else t.required_node


def _allocation(app_id: str, t: dict, names: Names) -> dict:
    out = {"id": names.ask(app_id, str(t.get("allocationKey") or ""))}
    try:
        out["priority"] = int(str(t.get("priority", 0)).strip())
    except ValueError:
        out["priority"] = 0
    out["resources"] = resources({k: v for k, v in (t.get("resource") or {}).items() if isinstance(v, int)})
    if t.get("nodeId"):
        out["node"] = names.node(str(t["nodeId"]))
    if _int(t.get("requestTime")) > 0:
        out["createTime"] = rfc3339(_int(t["requestTime"]))
    if isinstance(t.get("originator"), bool) and t["originator"]:
        out["originator"] = True
    if isinstance(t.get("preemptable"), bool):
        out["allowPreemption"] = t["preemptable"]
    return out


def plan(snap, config_text: str | None, *, anonymize: bool, keep_queues: bool = False, keep_nodes: bool = False,
         raw_apps=None, nodes=None, rejected=(), placed=None) -> Names:
    """The renaming for one file: every name of the config and the snapshot seen, then numbered
    (off unless `anonymize`)."""
    names = Names(anonymize, keep_queues, keep_nodes)
    names.relative_is_one = config_text is not None  # placement rules read a relative queue as one name
    if anonymize:
        tree = anonymize_mod.parse_config(config_text) if config_text is not None else None
        if tree is not None:
            anonymize_mod.see_config(tree, names)
        see_snapshot(snap, names, raw_apps, nodes, rejected, placed)
    return names.freeze()


def render(config_text: str, snap, *, source: str, anonymize: bool = False, keep_queues: bool = False,
           keep_nodes: bool = False, raw_apps=None, nodes=None, rejected=(), names_out: dict | None = None,
           placed=None) -> str:
    """The whole file: header comments, the config document, the snapshot document. `names_out`
    (a dict) receives the renaming used, as "names", so a summary can name things as the file does."""
    names = plan(snap, config_text, anonymize=anonymize, keep_queues=keep_queues, keep_nodes=keep_nodes,
                 raw_apps=raw_apps, nodes=nodes, rejected=rejected, placed=placed)
    doc = snapshot_doc(snap, names, raw_apps, nodes, placed)
    lines = [f"# {ln}" for ln in EXPLAIN.split("\n")]
    lines.append(f"# source: {source}" if not anonymize else f"# source: (anonymized: {_what_renamed(keep_queues, keep_nodes)})")
    lines.append(f"# partition: {doc['partition']}")
    if anonymize:
        users, groups = anonymize_mod.filter_candidates(snap.apps)
        body = anonymize_mod.config(config_text, names, (users, groups))
    else:
        body = config_text
    body = body.rstrip("\n")
    body = re.sub(r"\A(%[^\n]*\n)*---[ \t]*\n", "", body + "\n").rstrip("\n")
    lines.append(body)
    lines.append("---")
    extra = beyond(snap.tracked, snap.apps)
    if extra:  # the contract's snapshot holds usage only as applications' allocations
        lines.append(f"# YuniKorn tracked more usage for {len(extra)} user{'s' if len(extra) != 1 else ''} than these applications' "
                     "running allocations hold (its user/group manager is shared by every partition): the native format has no "
                     "place for it, so offline runs of this file count the allocations alone for user and group limits")
    rej = [r for r in rejected]
    if rej:
        listed = {a.id for a in snap.apps if a.rejected is not None}
        lines.append(f"# YuniKorn rejected {len(rej)} application{'s' if len(rej) != 1 else ''} (never scheduled): "
                     + ("listed below with state: Rejected and YuniKorn's reason (rejectedMessage)" if all(r["application"] in listed for r in rej) else
                        ", ".join(names.app(r["application"]) for r in rej)))
    text = yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, allow_unicode=True, width=120)
    if names_out is not None:
        names_out["names"] = names
    return "\n".join(lines) + "\n" + text


def _what_renamed(keep_queues: bool, keep_nodes: bool) -> str:
    kinds = ["applications", "asks", "allocations", "users", "groups"]
    kinds += [] if keep_queues else ["queues"]
    kinds += [] if keep_nodes else ["nodes"]
    return ", ".join(kinds[:-1]) + " and " + kinds[-1] + " renamed"


def render_snapshot_only(snap, *, source: str, anonymize: bool = False, keep_queues: bool = False,
                         keep_nodes: bool = False, names_out: dict | None = None) -> str:
    """No queue config was given: the native snapshot alone (its queues are all dynamic)."""
    names = plan(snap, None, anonymize=anonymize, keep_queues=keep_queues, keep_nodes=keep_nodes)
    doc = snapshot_doc(snap, names)
    if names_out is not None:
        names_out["names"] = names
    shown = source if not anonymize else f"(anonymized: {_what_renamed(keep_queues, keep_nodes)})"
    head = [f"# prio snapshot from {shown}: no queue config was given, so this is the native snapshot alone",
            "# (prio explain FILE takes every queue as dynamic; add a queues.yaml to explain it against a config)"]
    return "\n".join(head) + "\n" + yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, allow_unicode=True, width=120)


def config_text(data) -> str:
    """A queue config's data as YAML text (a config re-emitted where its text is not at hand)."""
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True)


def config_from_queues(infos, partition: str) -> str:
    """A queues.yaml equivalent to a REST queues dump: each queue with its effective (merged)
    properties written as its own, its guaranteed and max resources and maxapplications.
    Root's resources are left out: its max is the cluster capacity and its guaranteed what the
    scheduler reports, not configuration (a config setting either is invalid, PRIO103)."""
    tree: dict = {}
    for q in infos:
        parts = q.path.split(".")
        if parts[0] != "root":
            parts = ["root"] + parts
        node = tree
        for p in parts:
            node = node.setdefault(p, {"__kids": {}})
            info_slot = node
            node = node["__kids"]
        info_slot["__info"] = q

    def emit(name: str, slot: dict) -> dict:
        q = slot.get("__info")
        out: dict = {"name": name}
        kids = slot["__kids"]
        if kids or (q is not None and not q.is_leaf):
            out["parent"] = True
        if q is not None:
            res = {}
            if q.guaranteed and q.path != "root":
                res["guaranteed"] = {k: str(quantity(k, v)) for k, v in sorted(q.guaranteed.items())}
            if q.max and q.path != "root":
                res["max"] = {k: str(quantity(k, v)) for k, v in sorted(q.max.items())}
            if res:
                out["resources"] = res
            if q.maxapps:
                out["maxapplications"] = q.maxapps
            if q.properties:
                out["properties"] = {k: str(v) for k, v in sorted(q.properties.items())}
        if name == "root":
            out["submitacl"] = "*"
        if kids:
            out["queues"] = [emit(k, kids[k]) for k in sorted(kids)]
        return out

    roots = [emit(k, tree[k]) for k in sorted(tree)]
    conf = {"partitions": [{"name": partition, "queues": roots}]}
    return yaml.safe_dump(conf, sort_keys=False, default_flow_style=False, allow_unicode=True)
