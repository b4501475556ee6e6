"""YuniKorn's reader of a command's files, the registry's default row's `reader`: prio.io.gather
hands it, file by file, every document no other backend claims (a queue config or a REST queues
dump, pending work from native snapshots, REST applications dumps or kubectl pod and node lists,
the shim's ConfigMaps and Namespaces, PriorityClasses) and asks it first for a directory saved by
URL, read whole as the server it recorded (restdump). What a reader offers is said in
prio.io.gather; what it reads into is prio.yunikorn.load.inputs.Inputs."""
from __future__ import annotations

from prio.io import documents
from prio.io.gather import CLASS_KINDS
from prio.yunikorn.load.inputs import WORK_KINDS, Inputs, cluster_objects, default_config, load_work, merge, set_config, take_units

EXPECTED = ("a YuniKorn queue config (partitions:), a yunikorn-configs ConfigMap, a native snapshot "
            "(applications:), a YuniKorn REST dump (/ws/v1/partition/{p}/queues or the applications "
            "endpoints), a kubectl pod list, PriorityClass manifests")

WHAT = {"config": "a queue config", "configmap": "a ConfigMap", "configmap-list": "ConfigMaps",
        "priorityclass": "a PriorityClass", "priorityclass-list": "PriorityClasses",
        "native": "a prio snapshot", "rest-queues": "a YuniKorn REST queues dump",
        "rest-apps": "a YuniKorn REST applications dump", "pods": "a pod list", "nodes": "a node list",
        "list": "a List of other objects",
        "helm-values": "the YuniKorn Helm chart's values",
        "namespace": "a Namespace"}

# What is read before any backend claims a document (the rest of the kinds a file holds, after)
OWN_KINDS = (*CLASS_KINDS, "config", "configmap", "configmap-list", "list", "helm-values")
_CARRIERS = {*CLASS_KINDS, "configmap", "configmap-list", "helm-values"}  # the kinds documents.units decodes


def new() -> Inputs:
    return Inputs()


def whole(paths: list, classes_paths: list) -> Inputs | None:
    """A directory saved by URL is read as the server it recorded: alone, as --yunikorn reads a
    server (prio.yunikorn.load.restdump); None where no path is one."""
    from prio.yunikorn.load import restdump

    return restdump.whole(paths, classes_paths)


def holds(inp: Inputs) -> bool:
    return inp.config is not None or inp.snapshot is not None


def holds_work(inp: Inputs) -> bool:
    return inp.snapshot is not None


def finish(inp: Inputs, keep_documents: bool) -> None:
    """Once every file is read: the pending work (against every file's PriorityClasses), the
    built-in config for pods given none, one snapshot of it all.

    As YuniKorn does: only the first queue config document of a file counts; of the ConfigMaps,
    yunikorn-configs' queues.yaml replaces yunikorn-defaults'. What was assumed goes to notes."""
    pending_docs, inp.pending = inp.pending, []
    snaps = load_work(inp, pending_docs)
    if inp.config is None and any(k == "pods" for k, _, _ in pending_docs):
        default_config(inp)
    if keep_documents:
        inp.documents = [doc for _, _, doc in pending_docs]
    if snaps:
        inp.snapshot = merge(snaps)
        inp.notes += inp.snapshot.notes


class file:
    """One file's YuniKorn documents into `inp`: the queue config, the PriorityClasses,
    ConfigMaps and Helm values, its pending work (kept for finish). for_work: read for its
    pending work alone where a config was given before it (prio.io.gather's work_from)."""

    __slots__ = ("inp", "name", "text", "kinds", "units", "seen_config", "work_only")

    def __init__(self, inp: Inputs, name: str, text: str, docs: list, kinds: list, for_work: bool):
        self.inp, self.name, self.text, self.kinds = inp, name, text, kinds
        cluster_objects(inp, docs, kinds)
        self.units = None
        if _CARRIERS & set(kinds):
            self.units = documents.units(name, text)  # decoded as Kubernetes and YuniKorn decode them
        self.seen_config = False
        self.work_only = for_work and inp.config is not None and bool(set(kinds) & set(WORK_KINDS))

    def take(self, doc, k: str) -> bool:
        """One document of the file; False: the file's later documents are not read."""
        inp = self.inp
        if k in CLASS_KINDS:
            inp.class_docs.append((self.name, doc))
            if self.units is None:
                from prio.yunikorn.load.priorityclasses import classes_from_docs

                inp.classes += classes_from_docs([(self.name, doc)])
        elif k == "config" and self.work_only:
            if not self.seen_config:
                inp.notes.append(f"{self.name}: its queue config is ignored, its pending work is read")
            self.seen_config = True
        elif k == "config":
            if self.seen_config:
                inp.notes.append(f"{self.name}: YAML documents after the first are ignored, as YuniKorn reads only the first")
                return False
            self.seen_config = True
            set_config(inp, self.name, doc)
        elif k in WORK_KINDS:
            inp.pending.append((k, self.name, doc))
        # ConfigMaps and Helm values are taken from the units (close); other lists hold nothing for us
        return True

    def close(self) -> None:
        if self.units is not None:
            take_units(self.inp, self.name, self.units, self.kinds)


