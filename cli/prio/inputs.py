"""The inputs of explain and simulate: positional files recognised by content and combined
(a queue config or a REST queues dump, plus pending work from a native snapshot, REST
applications dumps or kubectl pod lists, plus PriorityClasses)."""
from __future__ import annotations

from dataclasses import dataclass, field

from prio import config as config_mod
from prio import documents, source, yamlnodes
from prio.errors import InputError
from prio.snapshot import Snapshot

WALKTHROUGH = ("walkthrough-queues", "walkthrough-asks")

EXPECTED = ("a YuniKorn queue config (partitions:), a yunikorn-configs ConfigMap, a native snapshot "
            "(applications:), a YuniKorn REST dump (/ws/v1/partition/{p}/queues or the applications "
            "endpoints), a kubectl pod list, PriorityClass manifests or an Armada scenario (model: armada)")


@dataclass
class Inputs:
    config: object = None  # SchedulerConfig
    config_doc: object = None
    config_name: str = ""
    snapshot: Snapshot | None = None
    rest_queues: list = field(default_factory=list)  # QueueInfo from a REST queues dump
    armada: list = field(default_factory=list)  # (name, Document) of Armada scenarios and queues
    classes: list = field(default_factory=list)  # PriorityClass
    names: list = field(default_factory=list)


def _kind(data) -> str:
    """documents.kind_of, with Lists told apart by what they hold."""
    k = documents.kind_of(data)
    if k == "queues" and isinstance(data, dict) and not ("partitions" in data or not data):
        return "unknown"  # a mapping that is nothing we know: not worth reading as a config
    if k == "queues" and data is not None and not isinstance(data, dict):
        return "unknown"
    if k == "armada-scenario" or k == "armada-queue":
        return "armada"
    if k == "list":
        kinds = {documents.kind_of(i) for i in data.get("items") or []}
        if kinds and kinds <= {"priorityclass"}:
            return "priorityclass-list"
        return "configmap-list" if "configmap" in kinds else "list"
    return "config" if k == "queues" else k


def gather(paths: list[str], classes_paths: list[str] = ()) -> Inputs:
    """Read and classify every input; raises InputError on anything unreadable or uncombinable."""
    inp = Inputs()
    pending_docs = []  # (kind, name, doc) loaded after the classes are known
    for path in list(classes_paths) + list(paths):
        src = source.read(path, source.MAX_SNAPSHOT_BYTES)
        inp.names.append(src.name)
        docs = yamlnodes.load_fast(src.name, src.text)
        if not docs:
            raise InputError(src.name, f"empty input; expected {EXPECTED}")
        for doc in docs:
            k = _kind(doc.data)
            if k in ("priorityclass", "priorityclass-list"):
                from prio.k8s.lint import classes_from_docs

                inp.classes += classes_from_docs([(src.name, doc)])
            elif k in ("config", "configmap", "configmap-list"):
                if k == "config":
                    conf_doc = doc
                else:
                    units = [u for u in documents.units(src.name, src.text) if u.kind == "queues"]
                    if not units:
                        raise InputError(src.name, "ConfigMap without a queues.yaml key")
                    conf_doc = units[0].doc
                if inp.config is not None:
                    raise InputError(src.name, f"a second queue config (the first came from {inp.config_name}); give one config at a time")
                inp.config = config_mod.decode(conf_doc)
                inp.config_doc, inp.config_name = conf_doc, src.name
                if k != "config":
                    break  # the ConfigMap file was consumed whole
            elif k == "armada":
                inp.armada.append((src.name, doc))
            elif k in ("native", "rest-queues", "rest-apps", "pods"):
                pending_docs.append((k, src.name, doc))
            elif k == "list":
                continue  # a List of other kinds: nothing for us
            else:
                pos = doc.start
                raise InputError(src.name, f"not an input prio understands; expected {EXPECTED}", pos.line if doc.index else None)
    snaps = []
    for k, name, doc in pending_docs:
        if k == "native":
            from prio.loaders import native

            snaps.append(native.load(name, doc, inp.classes))
        elif k == "rest-queues":
            from prio.loaders import rest

            if inp.rest_queues:
                raise InputError(name, "a second REST queues dump; give one partition's queues at a time")
            inp.rest_queues, snap = rest.load_queues(name, doc)
            if snap is not None:
                snaps.append(snap)
        elif k == "rest-apps":
            from prio.loaders import rest

            snaps.append(rest.load_apps(name, doc))
        else:
            from prio.loaders import kubectl

            snaps.append(kubectl.load_pods(name, doc, inp.classes))
    if snaps:
        inp.snapshot = merge(snaps)
    if inp.armada and (inp.config is not None or inp.snapshot is not None):
        raise InputError(inp.armada[0][0], "an Armada scenario cannot be combined with YuniKorn inputs")
    return inp


def merge(snaps: list[Snapshot]) -> Snapshot:
    """Several sources of pending work (e.g. REST dumps of several queues) make one snapshot."""
    if len(snaps) == 1:
        return snaps[0]
    out = Snapshot(source=", ".join(s.source for s in snaps))
    seen = {}
    for s in snaps:
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
                raise InputError(s.source, f"application {a.id!r} appears in {seen[a.id]} and {s.source}")
            seen[a.id] = s.source
            out.apps.append(a)
    return out
