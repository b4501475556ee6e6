"""The inputs of explain and simulate: positional files recognised by content and combined
(a queue config or a REST queues dump, plus pending work from a native snapshot, REST
applications dumps or kubectl pod lists, plus PriorityClasses)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from prio import backends
from prio.errors import InputError
from prio.io import documents, recognise, source, yamlnodes
from prio.yunikorn.load import queues as queues_loader
from prio.yunikorn.snapshot import Snapshot

EXPECTED = ("a YuniKorn queue config (partitions:), a yunikorn-configs ConfigMap, a native snapshot "
            "(applications:), a YuniKorn REST dump (/ws/v1/partition/{p}/queues or the applications "
            "endpoints), a kubectl pod list, PriorityClass manifests, "
            + backends.spoken((e.inputs for e in backends.CLAIMED), "or"))


@dataclass
class Inputs:
    config: object = None  # SchedulerConfig
    config_doc: object = None
    config_name: str = ""
    snapshot: Snapshot | None = None
    rest_queues: list = field(default_factory=list)  # QueueInfo from a REST queues dump
    # the scheduler backend whose documents these are (a name of prio.backends.REGISTRY; None:
    # YuniKorn's inputs) and its documents as recognised, for its loader alone: (name, Document)
    # per document, or (name, [Document]) for a backend that claims whole files (documents.
    # WHOLE_FILE_BACKENDS)
    backend: str | None = None
    objects: list = field(default_factory=list)
    class_docs: list = field(default_factory=list)  # (name, Document) of PriorityClass manifests, as written
    classes: list = field(default_factory=list)  # PriorityClass
    names: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # what was assumed or ignored: printed on stderr
    recognised: list = field(default_factory=list)  # (file, what it was read as), for --verbose
    # the snapshots' parsed documents, when the caller keeps them (gather's keep_documents)
    documents: list = field(default_factory=list)
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


_WHAT = {"config": "a queue config", "configmap": "a ConfigMap", "configmap-list": "ConfigMaps",
         "priorityclass": "a PriorityClass", "priorityclass-list": "PriorityClasses",
         "native": "a prio snapshot", "rest-queues": "a YuniKorn REST queues dump",
         "rest-apps": "a YuniKorn REST applications dump", "pods": "a pod list", "nodes": "a node list",
         "list": "a List of other objects",
         "helm-values": "the YuniKorn Helm chart's values",
         "namespace": "a Namespace", **{k: documents.BACKEND_LABELS[b] for k, b in documents.BACKEND_OF_KIND.items() if k != "namespace"}}


def _kind(data) -> str:
    """documents.kind_of, with Lists told apart by what they hold."""
    k = documents.kind_of(data)
    if k == "queues" and isinstance(data, dict) and not ("partitions" in data or not data):
        return "unknown"  # a mapping that is nothing we know: not worth reading as a config
    if k == "queues" and data is not None and not isinstance(data, dict):
        return "unknown"
    if k == "list":
        kinds = {documents.kind_of(i) for i in data.get("items") or []}
        if kinds and kinds <= {"priorityclass"}:
            return "priorityclass-list"
        return "configmap-list" if "configmap" in kinds else "list"
    return "config" if k == "queues" else k


# What a file of pending work holds (a prio snapshot file holds a config and one of these).
WORK_KINDS = ("native", "rest-queues", "rest-apps", "pods", "nodes")
_SURE_BYTES = 1 << 20  # texts above this are checked by recognise.surely_no_input before parsing


def gather(paths: list[str], classes_paths: list[str] = (), keep_documents: bool = False, work_from=()) -> Inputs:
    """Read and classify every input; raises InputError on anything unreadable or uncombinable.
    keep_documents: the snapshots' parsed documents stay in Inputs.documents, so they are freed
    with it and not here (a million-ask JSON document takes 0.2 s to free: a command that keeps
    its inputs until the process ends, lifetime.py, never pays it).
    work_from: paths read for their pending work alone when an earlier path gave the config: a
    file holding a config and work (a `prio snapshot` file) there has its config ignored, with a
    note, instead of being "a second queue config" (`prio diff OLD NEW incident.yaml`).

    As YuniKorn does: only the first queue config document of a file counts; of the ConfigMaps,
    yunikorn-configs' queues.yaml replaces yunikorn-defaults'. What was assumed goes to notes."""
    if (list(paths) + list(classes_paths)).count("-") > 1:
        raise InputError("-", "standard input is given more than once; it can be read only once")
    inp = Inputs()
    pending_docs: list = []  # (kind, name, doc) loaded after the classes are known
    paths, in_dirs = _expand_dirs(list(paths))
    for path in list(classes_paths) + list(paths):
        _read_file(inp, path, pending_docs, in_dirs, for_classes=path in classes_paths, for_work=path in work_from)
    for d in dict.fromkeys(os.path.dirname(p) for p in in_dirs):
        if not any(ok for p, ok in in_dirs.items() if os.path.dirname(p) == d):
            skipped = sum(1 for p in in_dirs if os.path.dirname(p) == d)
            raise InputError(d, f"no input prio reads in this directory ({skipped} YAML/JSON file{'s' if skipped != 1 else ''} skipped); expected {EXPECTED}")
    snaps = _load_work(inp, pending_docs)
    if inp.config is None and any(k == "pods" for k, _, _ in pending_docs):
        _default_config(inp)
    if keep_documents:
        inp.documents = [doc for _, _, doc in pending_docs]
    if snaps:
        inp.snapshot = merge(snaps)
        inp.notes += inp.snapshot.notes
    _claimed(inp)
    return inp


def _claim(inp: Inputs, backend: str, name: str, item) -> None:
    """A document (or a whole file) that is `backend`'s: inputs of two backends never combine."""
    if inp.backend is not None and inp.backend != backend:
        raise InputError(name, f"{documents.BACKEND_LABELS[backend]} cannot be combined with {documents.BACKEND_LABELS[inp.backend]}")
    inp.backend = backend
    inp.objects.append(item)


def _claimed(inp: Inputs) -> None:
    """A backend's documents with YuniKorn's inputs are refused; Namespaces beside pods alone are
    YuniKorn's (read for the shim's application tags, _cluster_objects)."""
    if inp.backend is None:
        return
    if all(not isinstance(d, list) and _kind(d.data) == "namespace" for _, d in inp.objects):
        if inp.snapshot is not None:
            inp.backend, inp.objects = None, []
            return
        raise InputError(inp.objects[0][0], "a Namespace alone: give the objects it goes with (ClusterQueue, Workload, ...)")
    if inp.config is not None or inp.snapshot is not None:
        raise InputError(inp.objects[0][0], f"{documents.BACKEND_LABELS[inp.backend]} cannot be combined with YuniKorn inputs")




def _read_file(inp: Inputs, path: str, pending_docs: list, in_dirs: dict, for_classes: bool, for_work: bool) -> None:
    """One input file into `inp`: classified by its documents' kinds (the queue config, the
    PriorityClasses, ConfigMaps and Helm values, a backend's documents), its pending work
    added to `pending_docs` for _load_work. for_classes: given to --priority-classes; for_work:
    read for its pending work alone where a config was given before it (gather's work_from). A
    directory's file prio does not read is skipped, with a note (in_dirs[path] becomes False)."""
    src = source.read(path, source.MAX_SNAPSHOT_BYTES)
    inp.names.append(src.name)
    if len(src.text) > _SURE_BYTES and recognise.surely_no_input(src.text):
        # a big mapping of other things: said before parsing it (seconds and a gigabyte for 27 MB)
        if path in in_dirs:
            inp.notes.append(f"{src.name}: skipped: not an input prio reads")
            inp.names.pop()
            in_dirs[path] = False
            return
        raise InputError(src.name, f"not an input prio understands (none of its top-level keys is one prio reads); "
                                   f"expected {EXPECTED}", 1)
    docs = yamlnodes.load_fast(src.name, src.text)
    if path in in_dirs:  # a directory's files: what prio does not read is skipped, and said so
        why = _skip_reason(docs)
        if why:
            inp.notes.append(f"{src.name}: skipped: {why}")
            inp.names.pop()
            in_dirs[path] = False
            return
    if not docs:
        raise InputError(src.name, f"empty input; expected {EXPECTED}")
    whole = documents.whole_file_backend(docs)
    if whole is not None:  # a backend that reads a file as a whole (its own documents and the pods beside them)
        _claim(inp, whole, src.name, (src.name, docs))
        inp.recognised.append((src.name, documents.BACKEND_LABELS[whole]))
        return
    kinds = [_kind(d.data) for d in docs]
    for doc, k in zip(docs, kinds):
        _wrong_endpoint(src.name, doc, k)
    inp.recognised.append((src.name, ", ".join(dict.fromkeys(_WHAT.get(k, k) for k in kinds))))
    if for_classes and set(kinds) - {"priorityclass", "priorityclass-list"}:
        raise InputError(src.name, "--priority-classes takes PriorityClass manifests; this file holds something else")
    _cluster_objects(inp, docs, kinds)
    units = None
    if {"configmap", "configmap-list", "priorityclass", "priorityclass-list", "helm-values"} & set(kinds):
        units = documents.units(src.name, src.text)  # decoded as Kubernetes and YuniKorn decode them
    seen_config = False
    work_only = for_work and inp.config is not None and bool(set(kinds) & set(WORK_KINDS))
    for doc, k in zip(docs, kinds):
        if k in ("priorityclass", "priorityclass-list"):
            inp.class_docs.append((src.name, doc))
            if units is None:
                from prio.yunikorn.load.priorityclasses import classes_from_docs

                inp.classes += classes_from_docs([(src.name, doc)])
        elif k == "config" and work_only:
            if not seen_config:
                inp.notes.append(f"{src.name}: its queue config is ignored, its pending work is read")
            seen_config = True
        elif k == "config":
            if seen_config:
                inp.notes.append(f"{src.name}: YAML documents after the first are ignored, as YuniKorn reads only the first")
                break
            seen_config = True
            set_config(inp, src.name, doc)
        elif k in ("configmap", "configmap-list", "list", "helm-values"):
            continue  # ConfigMaps and Helm values are taken from the units below; other lists hold nothing for us
        elif documents.backend_of(k, kinds, doc.data) is not None:
            _claim(inp, documents.backend_of(k, kinds, doc.data), src.name, (src.name, doc))
        elif k in WORK_KINDS:
            pending_docs.append((k, src.name, doc))
        else:
            pos = doc.start
            raise InputError(src.name, f"not an input prio understands; expected {EXPECTED}", pos.line if doc.index else None)
    if units is not None:
        _take_units(inp, src.name, units, kinds)


def _take_units(inp: Inputs, name: str, units: list, kinds: list) -> None:
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


def _load_work(inp: Inputs, pending_docs: list) -> list:
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


def _cluster_objects(inp: Inputs, docs, kinds) -> None:
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


def _default_config(inp: Inputs) -> None:
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


def _expand_dirs(paths: list[str]):
    """A directory stands for the YAML and JSON files directly in it (sorted; not below: a REST
    dump's folders repeat the same state many times). Returns the paths and {file: True} for
    those that came from a directory."""
    out, in_dirs = [], {}
    for p in paths:
        if p == "-" or not os.path.isdir(p):
            out.append(p)
            continue
        try:
            names = sorted(os.listdir(p))
        except OSError as e:
            raise InputError(p, e.strerror or str(e)) from None
        files = [os.path.join(p, f) for f in names if f.endswith(source.YAML_SUFFIXES) and not f.startswith(".")
                 and source.in_tree(p, os.path.join(p, f)) is None]
        if not files:
            raise InputError(p, f"a directory with no YAML or JSON files; expected {EXPECTED}")
        out += files
        in_dirs.update((f, True) for f in files)
    return out, in_dirs


def _skip_reason(docs) -> str | None:
    """Why a file found in a directory is not read (None: it is read)."""
    from prio.io import endpoints

    if not docs:
        return "empty"
    for doc in docs:
        k = _kind(doc.data)
        if k in ("unknown", "native", "config", "other", "rest-endpoint"):
            found = endpoints.identify(doc.data)
            if found is not None:
                return f"YuniKorn's {found.split(' (')[0]} response (not read by prio)"
        if k in ("unknown", "other"):
            return "not an input prio reads"
        if k == "config" and isinstance(doc.data, dict):
            from prio.io.recognise import is_rest_config

            extra = sorted(set(doc.data) - {"partitions", "checksum"})
            if extra and not is_rest_config(doc.data):
                return f"not a queue config (top-level keys {', '.join(extra[:3])})"
    return None


def _wrong_endpoint(name: str, doc, kind: str) -> None:
    """A saved REST response of an endpoint prio does not read: say which, and what to save."""
    if kind not in ("unknown", "native", "config", "other", "rest-endpoint"):
        return
    from prio.io import endpoints

    found = endpoints.identify(doc.data)
    if found is not None:
        raise InputError(name, endpoints.message(found), doc.start.line if doc.index else None)


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
