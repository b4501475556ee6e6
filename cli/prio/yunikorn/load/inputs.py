"""YuniKorn's inputs as gathered (`Inputs`: the config, the snapshot of the pending work, the
REST queues, the shim's settings and Namespaces, the PriorityClasses) and how each is read into
them: prio.yunikorn.load.files reads the files a command names into one, prio.yunikorn.load.live
a server's responses."""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.errors import InputError
from prio.io import yamlnodes
from prio.io.gather import Gathered
from prio.yunikorn.load import queues as queues_loader
from prio.yunikorn.snapshot import Snapshot

# What a file of pending work holds (a prio snapshot file holds a config and one of these).
WORK_KINDS = ("native", "rest-queues", "rest-apps", "pods", "nodes")


@dataclass
class Inputs(Gathered):
    config: object = None  # SchedulerConfig
    config_doc: object = None
    config_name: str = ""
    snapshot: Snapshot | None = None
    rest_queues: list = field(default_factory=list)  # QueueInfo from a REST queues dump
    classes: list = field(default_factory=list)  # PriorityClass
    # where in notes the caller's note on the config's errors belongs (None: no config, or
    # checked already): loaders run no lint rules, the command does (prio.yunikorn.lint.judged.check_config)
    config_note_at: int | None = None
    # the shim's ConfigMaps' data, merged as FlattenConfigMaps does (yunikorn-configs' keys
    # replacing yunikorn-defaults'), and the Namespaces' annotations: how pods are read
    shim_data: dict = field(default_factory=dict)
    namespaces: dict | None = None
    default_config: bool = False  # the config is YuniKorn's built-in one (no queues.yaml given)
    # the config's own text where it came embedded (a ConfigMap's queues.yaml as written; "" for
    # one only its parsed data gives, as Helm values'): None for a config file
    config_text: str | None = None
    # the YuniKorn release the run schedules for (prio.yunikorn.releases.Release; None: the
    # newest), set by the command (prio.cli.common.for_release), read by assemble.build
    release: object = None
    # (kind, name, doc) of the pending work, read by finish once every file's PriorityClasses are known
    pending: list = field(default_factory=list, repr=False)


def take_units(inp: Inputs, name: str, units: list, kinds: list) -> None:
    """What a file's ConfigMaps, Helm values and PriorityClass manifests hold, decoded as
    Kubernetes and YuniKorn decode them (documents.units): its PriorityClasses, and the queue
    config a ConfigMap or Helm values carry (yunikorn-configs' replacing yunikorn-defaults')."""
    from prio.yunikorn.load.priorityclasses import classes_from_docs

    inp.classes += classes_from_docs([(name, u.doc) for u in units if u.kind == "priorityclass"])
    carried = [u for u in units if u.kind == "queues" and u.label.startswith(("ConfigMap", "Helm values"))]
    if not carried and "helm-values" in kinds:
        why = next((u.label for u in units if u.label.startswith("Helm values")), "")
        raise InputError(name, f"{why or 'Helm values without a queue config'}: nothing to explain")
    if carried:
        # FlattenConfigMaps: a key of yunikorn-configs replaces the same key of yunikorn-defaults.
        chosen = next((u for u in carried if u.label.startswith("ConfigMap yunikorn-configs")), carried[0])
        if len(carried) > 1:
            inp.notes.append(f"{name}: using the queues.yaml of {chosen.label.split(',')[0]}, "
                             "as the shim does (yunikorn-configs replaces yunikorn-defaults)")
        set_config(inp, name, chosen.doc)
        key = chosen.label.rsplit(", data.", 1)[-1] if ", data." in chosen.label else None
        inp.config_text = inp.shim_data.get(key, "") if key else ""


def load_work(inp: Inputs, pending_docs: list) -> list:
    """The snapshots of the pending work the files hold (native snapshots, REST dumps, pod and
    node lists), read once the PriorityClasses are known; a REST queues dump becomes
    inp.rest_queues."""
    snaps: list = []
    nodes = _kube_nodes(pending_docs)
    asks = counted = 0  # the asks of snaps[:counted]: the asks cap is on the run's total (prio.io.caps)
    for k, name, doc in pending_docs:
        if k == "nodes":
            continue  # read by _kube_nodes, and given to the pod lists
        for s in snaps[counted:]:  # (an input may add no snapshot: a REST queues dump without one)
            asks += s.ask_count()
        counted = len(snaps)
        if k == "native":
            from prio.yunikorn.load import native

            snaps.append(native.load(name, doc, inp.classes, already=asks))
        elif k == "rest-queues":
            from prio.yunikorn.load import rest

            if inp.rest_queues:
                raise InputError(name, "a second REST queues dump; give one partition's queues at a time")
            if inp.config is not None:
                raise InputError(name, f"a REST queues dump and a queue config ({inp.config_name}) both describe the queues; give one of them")
            inp.rest_queues, snap = rest.load_queues(name, doc)
            if snap is not None:
                snaps.append(snap)
        elif k == "rest-apps":
            from prio.yunikorn.load import rest

            snaps.append(rest.load_apps(name, doc, already=asks))
        else:
            from prio.kube import shim
            from prio.yunikorn.load import kubectl

            snaps.append(kubectl.load_pods(name, doc, inp.classes, nodes, shim.settings(inp.shim_data), inp.namespaces,
                                           already=asks))
    if nodes is not None and not any(k == "pods" for k, _, _ in pending_docs):  # nodes with other pending work, or alone
        from prio.yunikorn import resources

        names = ", ".join(name for k, name, _ in pending_docs if k == "nodes")
        snaps.append(Snapshot(source=names, nodes=nodes, capacity=resources.total(n.capacity for n in nodes)))
    if inp.rest_queues and inp.config is not None:
        raise InputError(inp.config_name, "a queue config and a REST queues dump both describe the queues; give one of them")
    return snaps


def cluster_objects(inp: Inputs, docs, kinds) -> None:
    """The ConfigMaps the shim reads its settings from and the Namespaces it takes application
    tags from, wherever they are among a file's documents (alone or in Lists)."""
    if not {"configmap", "namespace", "configmap-list", "list"} & set(kinds):
        return  # (a config or a snapshot: nothing of the shim's, and kube.configmap not imported)
    from prio.kube.configmap import NAMES

    for doc, k in zip(docs, kinds):
        data = doc.data
        objs = [data] if k in ("configmap", "namespace") else \
            [i for i in data.get("items") or () if isinstance(i, dict)] if k in ("configmap-list", "list") else []
        for o in objs:
            md = o.get("metadata") if isinstance(o.get("metadata"), dict) else {}
            if o.get("kind") == "Namespace" and isinstance(md.get("name"), str):
                notes = md.get("annotations")
                inp.namespaces = inp.namespaces or {}
                inp.namespaces[md["name"]] = {str(a): str(v) for a, v in notes.items()} if isinstance(notes, dict) else {}
            elif o.get("kind") == "ConfigMap" and md.get("name") in NAMES and isinstance(o.get("data"), dict):
                found = {str(a): str(v) for a, v in o["data"].items()}
                if md["name"] == "yunikorn-configs":
                    inp.shim_data = {**inp.shim_data, **found}
                else:  # yunikorn-defaults: yunikorn-configs' keys win whatever the order read
                    inp.shim_data = {**found, **inp.shim_data}


def default_config(inp: Inputs) -> None:
    """No queues.yaml among the inputs of pods: the core runs its built-in default config (one
    tag rule on the namespace that creates the queue, root open to all)."""
    from prio.kube.shim import DEFAULT_CONFIG

    name = "YuniKorn's built-in default config"
    [doc] = yamlnodes.load(name, DEFAULT_CONFIG)
    set_config(inp, name, doc)
    inp.default_config = True
    inp.notes.append("no queues.yaml among the inputs: the pods are placed as YuniKorn's built-in default config places them "
                     "(one rule, tag namespace with create: root.<namespace>; root open to all); give the yunikorn-configs "
                     "ConfigMap or the queues.yaml your scheduler runs to place them as it does")


def _kube_nodes(pending_docs) -> list | None:
    """The Kubernetes Nodes of every node list and pod list among the inputs, as one list (None:
    no input lists a node): the pod lists are then read against them."""
    if not any(k in ("nodes", "pods") for k, _, _ in pending_docs):
        return None
    from prio.yunikorn.load import kubectl

    nodes = None
    for k, name, doc in pending_docs:
        if k in ("nodes", "pods"):
            found = kubectl.load_nodes(name, doc)
            if found:
                nodes = kubectl.join_nodes(nodes, found, name)
    return nodes


def check_work_given(inp: Inputs) -> None:
    """A REST queues dump whose queues report a priority (YuniKorn had asks pending there) with no
    pending ask among the inputs: the applications were left out, and every answer would say
    "nothing pending". One line saying what to add, instead of that confident empty answer."""
    from prio.values import INT32_MIN

    if not inp.rest_queues or (inp.snapshot is not None and inp.snapshot.ask_count()):
        return
    busy = [q for q in inp.rest_queues if q.current_priority is not None and q.current_priority != INT32_MIN]
    if busy:
        name = inp.snapshot.source if inp.snapshot is not None and inp.snapshot.source else (inp.names[0] if inp.names else "")
        shown = ", ".join(f"{q.path} {q.current_priority}" for q in busy[:3]) + (", ..." if len(busy) > 3 else "")
        raise InputError(name, f"the queues report pending asks (currentPriority {shown}) but no input gives them: add the "
                               "applications, the /ws/v1/partition/{p}/applications/active response (or a snapshot, or pods)")


def set_config(inp: Inputs, name: str, doc) -> None:
    """The queue config of `doc` (a queues.yaml, or the REST /ws/v1/config answer) decoded into
    `inp`, read from `name`: a file, a ConfigMap's queues.yaml, or a live server (live.py). A
    second config is refused; the lint rules run later, by the command (prio.yunikorn.lint.judged.check_config)."""
    if inp.config is not None:
        raise InputError(name, f"a second queue config (the first came from {inp.config_name}); give one config at a time")
    data = doc.data
    from prio.io.recognise import is_rest_config, queue_config_part

    if is_rest_config(data):
        from prio.io.documents import REST_CONFIG_LABEL

        doc.data = data = queue_config_part(data)
        inp.notes.append(f"{name}: read as {REST_CONFIG_LABEL}")
    if isinstance(data, dict):
        extra = sorted(set(data) - {"partitions", "checksum"})
        if extra and {"queues", "apps"} & set(extra):
            raise InputError(name, "this bundles several REST responses (a mock server's db.json?): save the "
                             "/ws/v1/partition/{p}/queues response and the applications responses as files of their own")
        if extra:
            raise InputError(name, f"not a YuniKorn queue config: YuniKorn refuses the top-level keys {', '.join(extra)} (run prio validate)", doc.start.line if doc.index else None)
    inp.config = queues_loader.decode(doc)
    inp.config_doc, inp.config_name = doc, name
    inp.config_note_at = len(inp.notes)


def merge(snaps: list[Snapshot]) -> Snapshot:
    """Several sources of pending work (e.g. REST dumps of several queues) make one snapshot."""
    if len(snaps) == 1:
        return snaps[0]
    out = Snapshot(source=", ".join(s.source for s in snaps))
    seen = {}
    for s in snaps:
        if s.nodes is not None and s.nodes is not out.nodes:  # the pod lists of one run share their node list
            if out.nodes is not None:
                raise InputError(s.source, "nodes are given by two inputs; give the cluster's nodes once")
            out.nodes = s.nodes
        if s.capacity:
            if out.capacity and out.capacity != s.capacity:
                raise InputError(s.source, "two different capacities given")
            out.capacity = s.capacity
        if s.partition and s.partition != "default":
            out.partition = s.partition
        out.priority_classes += s.priority_classes
        out.queues += s.queues
        out.notes += s.notes
        for a in s.apps:
            if a.id in seen:
                first = seen[a.id]
                if first.queue != a.queue:
                    raise InputError(s.source, f"application {a.id!r} is in queue {first.queue} in one input and {a.queue} in another")
                # One application's pods (or asks) spread over several documents, as the shim
                # groups them whatever file they come from.
                have = {k.id for k in first.asks}
                first.asks += [k for k in a.asks if k.id not in have]
                first.submit_time = min(first.submit_time, a.submit_time)
                for k, v in a.allocated.items():
                    first.allocated[k] = first.allocated.get(k, 0) + v
                if a.allocations:
                    first.allocations = (first.allocations or []) + a.allocations
                continue
            seen[a.id] = a
            out.apps.append(a)
    return out
