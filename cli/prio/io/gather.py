"""A command's inputs, gathered (issue 47): the files named, read within the caps, each document
recognised by content (prio.io.documents) and claimed for the backend whose it is. A backend's
documents go to its loader as they were read (`Gathered.objects`); the documents no row of
prio.backends claims are the default row's, and go to its reader, per file in the order given
(the module its row names as `reader`: YuniKorn's, prio.yunikorn.load.files).

The default row's reader is a module offering:
  new()                        its state: a Gathered, with the fields its loader reads
  whole(paths, classes_paths)  the state of inputs it reads whole (a directory saved by URL), or None
  EXPECTED                     what its inputs are called where a file is none of them
  WHAT                         {kind: what a file of it is read as}, for --verbose
  OWN_KINDS, WORK_KINDS        the kinds it reads before any backend's claim, and after
  file(state, name, text, docs, kinds, for_work)   a file's reader: take(doc, kind) -> False to
                               stop reading the file; close()
  finish(state, keep_documents)   the pending work, read once every file is
  holds(state), holds_work(state) whether it was given inputs (a backend's are never combined
                               with them), and pending work

Which backend claimed the inputs is `Gathered.backend` (None: the default's); the command picks
its row by it (prio.cli.backend_run)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import import_module

from prio import backends
from prio.errors import InputError
from prio.io import documents, recognise, source, yamlnodes

_SURE_BYTES = 1 << 20  # texts above this are checked by recognise.surely_no_input before parsing
CLASS_KINDS = ("priorityclass", "priorityclass-list")  # Kubernetes' own: every backend may read them


@dataclass
class Gathered:
    # the scheduler backend whose documents these are (a name of prio.backends.REGISTRY; None:
    # the default row's) and its documents as recognised, for its loader alone: (name, Document)
    # per document, or (name, [Document]) for a backend that claims whole files (documents.
    # WHOLE_FILE_BACKENDS)
    backend: str | None = None
    objects: list = field(default_factory=list)
    class_docs: list = field(default_factory=list)  # (name, Document) of PriorityClass manifests, as written
    names: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # what was assumed or ignored: printed on stderr
    recognised: list = field(default_factory=list)  # (file, what it was read as), for --verbose
    # the parsed documents of the pending work, when the caller keeps them (gather's keep_documents)
    documents: list = field(default_factory=list)


def reader():
    """The default row's reader module (prio.backends.DEFAULT.reader)."""
    return import_module(backends.DEFAULT.reader)


def expected() -> str:
    """What a command's inputs may be, as a message names them."""
    return reader().EXPECTED + ", " + backends.spoken((e.inputs for e in backends.CLAIMED), "or")


def kind(data) -> str:
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


def gather(paths: list[str], classes_paths: list[str] = (), keep_documents: bool = False, work_from=(),
           whole: bool = True) -> Gathered:
    """Read and classify every input; raises InputError on anything unreadable or uncombinable.
    keep_documents: the pending work's parsed documents stay in Gathered.documents, so they are
    freed with it and not here (a million-ask JSON document takes 0.2 s to free: a command that
    keeps its inputs until the process ends, lifetime.py, never pays it).
    work_from: paths read for their pending work alone when an earlier path gave the config: a
    file holding a config and work (a `prio snapshot` file) there has its config ignored, with a
    note, instead of being "a second queue config" (`prio diff OLD NEW incident.yaml`).
    whole: the default reader may read the paths whole (its `whole`: a directory saved by URL, as
    the server it recorded); prio diff --yunikorn's sides are files (the server is the live one)."""
    if (list(paths) + list(classes_paths)).count("-") > 1:
        raise InputError("-", "standard input is given more than once; it can be read only once")
    own = reader()
    read_whole = own.whole(list(paths), list(classes_paths)) if whole else None
    if read_whole is not None:
        return read_whole
    inp = own.new()
    paths, in_dirs = _expand_dirs(list(paths))
    for path in list(classes_paths) + list(paths):
        _read_file(own, inp, path, in_dirs, for_classes=path in classes_paths, for_work=path in work_from)
    for d in dict.fromkeys(os.path.dirname(p) for p in in_dirs):
        if not any(ok for p, ok in in_dirs.items() if os.path.dirname(p) == d):
            skipped = sum(1 for p in in_dirs if os.path.dirname(p) == d)
            raise InputError(d, f"no input prio reads in this directory ({skipped} YAML/JSON file{'s' if skipped != 1 else ''} skipped); expected {expected()}")
    own.finish(inp, keep_documents)
    _claimed(own, inp)
    return inp


def _claim(inp: Gathered, backend: str, name: str, item) -> None:
    """A document (or a whole file) that is `backend`'s: inputs of two backends never combine."""
    if inp.backend is not None and inp.backend != backend:
        raise InputError(name, f"{documents.BACKEND_LABELS[backend]} cannot be combined with {documents.BACKEND_LABELS[inp.backend]}")
    inp.backend = backend
    inp.objects.append(item)


def _claimed(own, inp: Gathered) -> None:
    """A backend's documents with the default row's inputs are refused; Namespaces beside the
    default's pending work alone are its (YuniKorn's shim reads them for application tags)."""
    if inp.backend is None:
        return
    if all(not isinstance(d, list) and kind(d.data) == "namespace" for _, d in inp.objects):
        if own.holds_work(inp):
            inp.backend, inp.objects = None, []
            return
        raise InputError(inp.objects[0][0], "a Namespace alone: give the objects it goes with (ClusterQueue, Workload, ...)")
    if own.holds(inp):
        raise InputError(inp.objects[0][0], f"{documents.BACKEND_LABELS[inp.backend]} cannot be combined with {backends.DEFAULT.inputs}")


def _what(own, k: str) -> str:
    return own.WHAT.get(k) or documents.BACKEND_LABELS.get(documents.BACKEND_OF_KIND.get(k, ""), k)


def _read_file(own, inp: Gathered, path: str, in_dirs: dict, for_classes: bool, for_work: bool) -> None:
    """One input file: a backend's whole file, or its documents one by one, each claimed by its
    backend or read by the default row's reader. for_classes: given to --priority-classes;
    for_work: read for its pending work alone where a config was given before it (gather's
    work_from). A directory's file prio does not read is skipped, with a note (in_dirs[path]
    becomes False)."""
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
                                   f"expected {expected()}", 1)
    docs = yamlnodes.load_fast(src.name, src.text)
    if path in in_dirs:  # a directory's files: what prio does not read is skipped, and said so
        why = _skip_reason(docs)
        if why:
            inp.notes.append(f"{src.name}: skipped: {why}")
            inp.names.pop()
            in_dirs[path] = False
            return
    if not docs:
        raise InputError(src.name, f"empty input; expected {expected()}")
    whole = documents.whole_file_backend(docs)
    if whole is not None:  # a backend that reads a file as a whole (its own documents and the pods beside them)
        _claim(inp, whole, src.name, (src.name, docs))
        inp.recognised.append((src.name, documents.BACKEND_LABELS[whole]))
        return
    kinds = [kind(d.data) for d in docs]
    for doc, k in zip(docs, kinds):
        _wrong_endpoint(src.name, doc, k)
    inp.recognised.append((src.name, ", ".join(dict.fromkeys(_what(own, k) for k in kinds))))
    if for_classes and set(kinds) - set(CLASS_KINDS):
        raise InputError(src.name, "--priority-classes takes PriorityClass manifests; this file holds something else")
    mine = own.file(inp, src.name, src.text, docs, kinds, for_work)
    for doc, k in zip(docs, kinds):
        if k in own.OWN_KINDS:  # read before any backend's claim (a PriorityClass beside its objects included)
            if not mine.take(doc, k):
                break  # the rest of the file is not read (and said so)
        elif (claimer := documents.backend_of(k, kinds, doc.data)) is not None:
            _claim(inp, claimer, src.name, (src.name, doc))
        elif k in own.WORK_KINDS:
            mine.take(doc, k)
        else:
            pos = doc.start
            raise InputError(src.name, f"not an input prio understands; expected {expected()}", pos.line if doc.index else None)
    mine.close()


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
            raise InputError(p, f"a directory with no YAML or JSON files; expected {expected()}")
        out += files
        in_dirs.update((f, True) for f in files)
    return out, in_dirs


def _skip_reason(docs) -> str | None:
    """Why a file found in a directory is not read (None: it is read)."""
    from prio.io import endpoints

    if not docs:
        return "empty"
    for doc in docs:
        k = kind(doc.data)
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


def _wrong_endpoint(name: str, doc, k: str) -> None:
    """A saved REST response of an endpoint prio does not read: say which, and what to save."""
    if k not in ("unknown", "native", "config", "other", "rest-endpoint"):
        return
    from prio.io import endpoints

    found = endpoints.identify(doc.data)
    if found is not None:
        raise InputError(name, endpoints.message(found), doc.start.line if doc.index else None)
