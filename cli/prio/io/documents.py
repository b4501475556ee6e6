"""What a file holds, by content: a queues.yaml, ConfigMaps that embed one, PriorityClasses,
native snapshots, REST dumps, pod lists, and each other scheduler's documents (as its package's
recognise module says: prio.backends.recognisers). Each YAML document is classified on its own;
ConfigMaps are unpacked into the queues.yaml they carry, with positions in the outer file."""
from __future__ import annotations

from dataclasses import dataclass

import yaml

from prio import backends
from prio.diagnostics import Issue
from prio.errors import InputError
from prio.io import yamlnodes
from prio.io.document import Document
from prio.io.endpoints import identify as rest_endpoint
from prio.io.recognise import (
    RECOGNISERS,
    REST_CONFIG_EXTRA,
    is_apps_dump,
    is_helm_values,
    is_native,
    is_node_list,
    is_pod_list,
    is_queues_dump,
    is_rest_config,
    queue_config_part,
)

QUEUES_KEY = "queues.yaml"


@dataclass
class Unit:
    """One thing to check: a queues config (maybe from a ConfigMap), or another kind."""

    kind: str  # "queues", "priorityclass", a kind a backend claims (its recognise module's KINDS), "other"
    doc: Document
    label: str = ""  # e.g. "ConfigMap yunikorn-configs, key queues.yaml"


REST_CONFIG_LABEL = ("YuniKorn's /ws/v1/config response: the queues.yaml it serves, without the keys the REST API adds ("
                     + ", ".join(REST_CONFIG_EXTRA) + ")")


# Each other scheduler's recognise module, in the registry's order: asked first (`early`, any
# parsed document) and once a document is known to be a mapping (`kind`).
_RECOGNISERS = RECOGNISERS
_EARLY = tuple(r.early for _, r in _RECOGNISERS if hasattr(r, "early"))
_MAPPING = tuple(r.kind for _, r in _RECOGNISERS if hasattr(r, "kind"))


def kind_of(data) -> str:
    """What one parsed document is, by content alone. One of: queues (a queues.yaml, also a
    broken one), configmap, priorityclass, native (a snapshot), rest-queues, rest-apps, pods,
    nodes, list (a Kubernetes List of other things), a kind a backend claims (its KINDS:
    each named by its package's recognise module), other."""
    if data is None:
        return "queues"
    for early in _EARLY:
        got = early(data)
        if got is not None:
            return got
    if rest_endpoint(data) is not None:
        return "rest-endpoint"  # a REST answer prio does not read (nodes, partitions, healthcheck, ...)
    if isinstance(data, list):
        if not data:
            return "rest-apps"  # what the applications endpoints answer for a queue with none
        return "rest-apps" if is_apps_dump(data) else "rest-queues" if is_queues_dump(data) else "queues"
    if not isinstance(data, dict):
        return "queues"  # a scalar at the top: a (broken) queues.yaml
    for claims in _MAPPING:
        got = claims(data)
        if got is not None:
            return got
    kind = data.get("kind")
    api = str(data.get("apiVersion", ""))
    if kind == "ConfigMap":
        return "configmap"
    if kind == "PriorityClass" and api.startswith("scheduling.k8s.io/"):
        return "priorityclass"
    if is_pod_list(data):
        return "pods"
    if is_node_list(data):
        return "nodes"
    if kind == "List" or (isinstance(kind, str) and kind.endswith("List") and isinstance(data.get("items"), list)):
        return "list"
    if "kind" in data or "apiVersion" in data:
        return "other"
    if is_helm_values(data):
        return "helm-values"
    if is_native(data):
        return "native"
    if is_queues_dump(data):
        return "rest-queues"
    if is_apps_dump(data):
        return "rest-apps"
    return "queues"


# Which scheduler backend (prio.backends.REGISTRY) a document's kind belongs to, as
# prio.io.gather hands a backend its documents, and how a user reads them (issue 47). A
# backend named in WHOLE_FILE_BACKENDS reads a file whole: every document of a file holding one of
# its documents is its (Kubernetes Pods and PriorityClasses beside its own objects).
BACKEND_OF_KIND = {k: name for name, r in _RECOGNISERS for k in r.KINDS}
BACKEND_LABELS = {e.name: e.inputs for e in backends.REGISTRY}
WHOLE_FILE_BACKENDS = {name: r.whole_file for name, r in _RECOGNISERS if hasattr(r, "whole_file")}
_BESIDE = tuple((name, r.beside) for name, r in _RECOGNISERS if hasattr(r, "beside"))
_UNIT_KINDS = {k: r.unit_kind for _, r in _RECOGNISERS if hasattr(r, "unit_kind") for k in r.KINDS}


def backend_of(kind: str, kinds, data) -> str | None:
    """The backend whose document this is (`kinds`: every document's kind in its file), or None:
    YuniKorn's (or nothing's). A document of another kind may be claimed for the company it keeps
    (a recognise module's `beside`: a Node beside a backend's objects may be its)."""
    if kind not in BACKEND_OF_KIND:
        return next((name for name, claims in _BESIDE if claims(kind, kinds, data)), None)
    return BACKEND_OF_KIND[kind]


def whole_file_backend(docs) -> str | None:
    """The backend that reads this file whole (WHOLE_FILE_BACKENDS), or None."""
    data = [d.data for d in docs]
    return next((name for name, holds in WHOLE_FILE_BACKENDS.items() if holds(data)), None)


# What validate checks; every other kind is skipped (and said so with --verbose).
_CHECKED = ("queues", "priorityclass", *(k for _, r in _RECOGNISERS for k in r.CHECKED))


_LABELS = {
    "native": "a prio snapshot (explain and simulate read it)",
    "rest-queues": "a YuniKorn REST queues dump (explain and simulate read it)",
    "rest-apps": "a YuniKorn REST applications dump (explain and simulate read it)",
    "pods": "a pod list (explain and simulate read it)",
    "nodes": "a node list (explain, simulate and preempt read it with pods)",
    **{k: label for _, r in _RECOGNISERS for k, label in r.LABELS.items()},
}


def _label(data) -> str:
    k = kind_of(data)
    if k == "rest-endpoint":
        found = rest_endpoint(data)
        return found if found.startswith("several") else f"YuniKorn's {found.split(' (')[0]} response (no queue config or pending asks)"
    if k in _LABELS:
        return _LABELS[k]
    kind = data.get("kind") if isinstance(data, dict) else None
    return f"a {kind}" if kind else "a document"


def documents_kind(data) -> str:
    return kind_of(data) if isinstance(data, dict) else "other"


def _unit_kind(data) -> str:
    k = kind_of(data)
    if k in _UNIT_KINDS:  # a backend's document: it says what validate checks of it
        return _UNIT_KINDS[k](k, data)
    return k if k in _CHECKED or k in ("configmap", "list", "helm-values") else "other"


def _indent(outer_text: str, node) -> int:
    """The indentation of a literal block's content: that of its first non-empty line."""
    for ln in outer_text.split("\n")[node.start_mark.line + 1:]:
        if ln.strip():
            return len(ln) - len(ln.lstrip(" "))
    return 0


def _inner_doc(name: str, outer_text: str, node, key_path, flow: bool = False) -> tuple[Document, list[Issue]]:
    """Parse a ConfigMap value as its own document, positioned inside the outer file. `flow`:
    the value sits in a flow mapping (JSON, as `kubectl get -o json` writes), where no literal
    block can be written, so PRIO007's advice would be noise."""
    notes: list[Issue] = []
    text = node.value
    try:
        nodes = yamlnodes.parse(name, text)
    except InputError as e:
        # Point into the outer file: a literal block's lines are the file's lines.
        if node.style == "|" and e.line is not None:
            raise InputError(name, f"in the embedded {QUEUES_KEY}: {e.message}", e.line + node.start_mark.line + 1,
                             None if e.column is None else e.column + _indent(outer_text, node)) from None
        pos = node.start_mark
        raise InputError(name, f"in the embedded {QUEUES_KEY}: {e.message}", pos.line + 1, pos.column + 1) from None
    if node.style == "|":
        # Literal block: inner line n is outer line (indicator line + 1 + n), shifted by the indent.
        indent = _indent(outer_text, node)
        docs = [yamlnodes.to_document(name, n, node.start_mark.line + 1, indent, go=True) for n in nodes]
    else:
        docs = [yamlnodes.to_document(name, n, go=True) for n in nodes]
        anchor = yamlnodes.Pos(node.start_mark.line + 1, node.start_mark.column + 1)
        for d in docs:
            for e in d.index.values():
                e.pos, e.key = anchor, None
            d.start = anchor
            d.issues = [Issue(i.rule, i.path, i.message, i.at, i.severity, None) for i in d.issues]
        if not flow:
            notes.append(Issue("PRIO007", key_path, f"the embedded {QUEUES_KEY} is not a literal block (|): positions inside it "
                               "point at the key", at="key"))
    if not docs:
        return Document(None, start=yamlnodes.Pos(node.start_mark.line + 1, 1)), notes
    first = docs[0]
    for extra in docs[1:]:
        first.issues.append(Issue("PRIO004", (), f"{QUEUES_KEY} holds {len(docs)} YAML documents; YuniKorn decodes only the first", pos=extra.start))
    return first, notes


def units(name: str, text: str) -> list[Unit]:
    """Split a file into checkable units. Raises InputError for unreadable YAML."""
    nodes = yamlnodes.parse(name, text)
    out: list[Unit] = []
    docs = [yamlnodes.to_document(name, n, go=True) for n in nodes]
    if not docs:
        return [Unit("queues", Document(None))]
    whole = whole_file_backend(docs)
    if whole is not None:  # a backend's whole file: Kubernetes manifests, read as go-yaml v2 reads them
        return [Unit(whole, yamlnodes.to_document(name, n, go="v2")) for n in nodes]
    kinds = [_unit_kind(d.data) for d in docs]
    for i, d in enumerate(docs):
        # Kubernetes manifests are read by kubectl's YAML library (go-yaml v2): yes/no are booleans.
        if kinds[i] == "priorityclass" or (kinds[i] == "list" and (d.data.get("kind") == "PriorityClassList" or any(
                documents_kind(it) == "priorityclass" for it in (d.data.get("items") or [])))):
            docs[i] = yamlnodes.to_document(name, nodes[i], go="v2")
    if all(k == "queues" for k in kinds):
        first = docs[0]
        for extra in docs[1:]:
            first.issues.append(Issue("PRIO004", (), f"this file holds {len(docs)} YAML documents; YuniKorn decodes only the first", pos=extra.start))
        if is_rest_config(first.data):  # a saved GET /ws/v1/config: lint the queues.yaml it serves
            first.data = queue_config_part(first.data)
            return [Unit("queues", first, REST_CONFIG_LABEL)]
        return [Unit("queues", first)]
    for node, doc, kind in zip(nodes, docs, kinds):
        if kind == "configmap":
            out.extend(_configmap(name, text, node, doc))
        elif kind == "helm-values":
            out.extend(_helm_values(name, text, node, doc))
        elif kind == "list":
            # Items of a typed list straight from the API (PriorityClassList) carry no kind.
            item_kind = str(doc.data.get("kind", ""))[:-4] if str(doc.data.get("kind", "")).endswith("List") else ""
            for i, item in enumerate(doc.data.get("items") or []):
                sub = _subdoc(doc, ("items", i))
                if isinstance(item, dict) and "kind" not in item and item_kind:
                    item = dict(item, kind=item_kind, apiVersion=item.get("apiVersion", doc.data.get("apiVersion", "")))
                    sub.data = item
                k = _unit_kind(item)
                if k == "configmap":
                    out.extend(_configmap(name, text, _node_at(node, ("items", i)), sub))
                else:
                    out.append(Unit(k, sub, _label(item) if k == "other" else ""))
        else:
            out.append(Unit(kind, doc, _label(doc.data) if kind == "other" else ""))
    return out


def _node_at(node, path):
    for p in path:
        if isinstance(node, yaml.MappingNode):
            node = next(v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == p)
        else:
            node = node.value[p]
    return node


def _subdoc(doc: Document, prefix) -> Document:
    """The part of a document below `prefix`, re-rooted (positions stay those of the file)."""
    n = len(prefix)
    data = doc.data
    for p in prefix:
        data = data[p]
    idx = {k[n:]: v for k, v in doc.index.items() if k[:n] == prefix}
    issues = [Issue(i.rule, i.path[n:], i.message, i.at, i.severity, i.pos) for i in doc.issues if i.path[:n] == prefix]
    return Document(data, idx, issues, doc.pos(prefix))


def _configmap(name, text, node, doc) -> list[Unit]:
    d = doc.data
    label = f"ConfigMap {((d.get('metadata') or {}).get('name') if isinstance(d.get('metadata'), dict) else None) or '?'}"
    from prio.kube.configmap import NAMES, carries_queues, near_miss_name, queues_key

    out = []
    data = d.get("data") if isinstance(d.get("data"), dict) else {}
    binary = d.get("binaryData") if isinstance(d.get("binaryData"), dict) else {}
    cm_name = (d.get("metadata") or {}).get("name") if isinstance(d.get("metadata"), dict) else None
    qkey = queues_key(data)  # the shim reads this key only (queues.yaml with the default policy group)
    if cm_name in NAMES or near_miss_name(cm_name) is not None or carries_queues(data, binary, qkey):
        out.append(Unit("configmap", doc, label))  # PRIO008/PRIO009: a ConfigMap YuniKorn reads, or was meant to
    else:
        return [Unit("other", doc, f"{label} (not a YuniKorn ConfigMap)")]
    for key in sorted(k for k in data if k == qkey):
        value_node = _node_at(node, ("data", key))
        if not isinstance(value_node, yaml.ScalarNode):
            out.append(Unit("queues", Document({}, issues=[Issue("PRIO003", (), f"{label} data.{key} must be a string holding the queues.yaml text")], start=doc.pos(("data", key)))))
            continue
        inner, notes = _inner_doc(name, text, value_node, ("data", key), flow=bool(node.flow_style))
        inner.issues.extend(_rebase(n, doc) for n in notes)
        out.append(Unit("queues", inner, f"{label}, data.{key}"))
    for key in sorted(k for k in binary if k == f"{qkey}.gz"):
        pos = doc.pos(("binaryData", key), "key")
        raw = _gunzip(name, key, binary[key], pos)
        try:
            from prio.io.source import decode

            inner_text = decode(name, raw)  # UTF-8, or UTF-16/32 with a BOM
        except Exception as e:
            raise InputError(name, f"binaryData.{key} is not base64 gzip UTF-8 text ({type(e).__name__})", pos.line, pos.column) from None
        docs = yamlnodes.load(name, inner_text, go=True)
        inner = docs[0] if docs else Document(None)
        for e in inner.index.values():
            e.pos, e.key = pos, None
        inner.start = pos
        inner.issues = [Issue(i.rule, i.path, i.message, i.at, i.severity, None) for i in inner.issues]
        inner.issues.append(Issue("PRIO007", (), f"binaryData.{key} is compressed: positions inside it point at the key", pos=pos))
        out.append(Unit("queues", inner, f"{label}, binaryData.{key}"))
    return out


def _gunzip(name: str, key: str, value, pos) -> bytes:
    """binaryData's base64 gzip payload, unpacked a chunk at a time up to the cap
    (prio.io.caps.UNPACKED_BYTES): a gzip bomb is refused after the cap, never unpacked whole,
    and a payload larger than the cap is refused, never cut."""
    import base64
    import binascii
    import zlib

    from prio.io import caps

    limit = caps.UNPACKED_BYTES.value()
    try:
        packed = base64.b64decode(str(value), validate=False)
    except (binascii.Error, ValueError) as e:
        raise InputError(name, f"binaryData.{key} is not base64 gzip UTF-8 text ({type(e).__name__})", pos.line, pos.column) from None
    out = bytearray()
    try:
        while packed:  # gzip members one after another, as gzip.decompress reads them
            member = zlib.decompressobj(16 + zlib.MAX_WBITS)
            chunk = member.decompress(packed, limit + 1 - len(out))
            while True:
                out += chunk
                if len(out) > limit:
                    raise InputError(name, f"binaryData.{key} unpacks to more than {limit} bytes; prio unpacks at most that "
                                           f"({caps.UNPACKED_BYTES.env}=N raises the cap)", pos.line, pos.column)
                if member.eof or not member.unconsumed_tail:
                    break
                chunk = member.decompress(member.unconsumed_tail, limit + 1 - len(out))
            if not member.eof:
                raise zlib.error("truncated gzip data")
            packed = member.unused_data.lstrip(b"\0")
    except zlib.error as e:
        raise InputError(name, f"binaryData.{key} is not base64 gzip UTF-8 text ({type(e).__name__})", pos.line, pos.column) from None
    return bytes(out)


def _helm_values(name, text, node, doc) -> list[Unit]:
    """The queue config a values file of YuniKorn's Helm chart installs (apache/yunikorn-release's
    templates/yunikorn-defaults.yaml): yunikornDefaults' `<service.policyGroup>.yaml`, else the
    deprecated `configuration` string (rendered as queues.yaml when yunikornDefaults has none);
    checked with the values file's own lines, as a ConfigMap's."""
    from prio.io.recognise import HELM_CONFIGURATION, HELM_DEFAULTS
    from prio.kube.configmap import queues_key

    d = doc.data
    defaults = d.get(HELM_DEFAULTS) if isinstance(d.get(HELM_DEFAULTS), dict) else {}
    qkey = queues_key(defaults)
    # The chart's yunikorn-defaults template: every yunikornDefaults key, plus `configuration` as
    # queues.yaml when yunikornDefaults has no queues.yaml; the shim reads <policyGroup>.yaml.
    legacy = d.get(HELM_CONFIGURATION) if isinstance(d.get(HELM_CONFIGURATION), str) and d.get(HELM_CONFIGURATION) else None
    chosen = (HELM_DEFAULTS, qkey) if qkey in defaults else (HELM_CONFIGURATION,) if legacy and qkey == "queues.yaml" else None
    if chosen is None:
        why = f"{HELM_CONFIGURATION} becomes queues.yaml, but service.policyGroup has the shim read {qkey}" if legacy else \
            f"{HELM_DEFAULTS} has no {qkey}, no {HELM_CONFIGURATION}"
        return [Unit("other", doc, f"Helm values without a queue config ({why})")]
    label = "Helm values, " + ".".join(chosen)
    value_node = _node_at(node, chosen)
    if not isinstance(value_node, yaml.ScalarNode):
        return [Unit("queues", Document({}, issues=[Issue("PRIO003", (), f"{'.'.join(chosen)} must be a string holding the queues.yaml text")],
                                        start=doc.pos(chosen)), label)]
    inner, notes = _inner_doc(name, text, value_node, chosen)
    inner.issues.extend(_rebase(n, doc) for n in notes)
    out = [Unit("queues", inner, label)]
    if chosen[0] == HELM_DEFAULTS and legacy:
        out.append(Unit("other", _subdoc(doc, (HELM_CONFIGURATION,)),
                        f"the deprecated {HELM_CONFIGURATION} (the chart uses {HELM_DEFAULTS}.{qkey} instead)"))
    return out


def _rebase(issue: Issue, outer: Document) -> Issue:
    """An issue about the outer ConfigMap, carried by the inner unit with an explicit position."""
    return Issue(issue.rule, (), issue.message, issue.at, issue.severity, outer.pos(issue.path, issue.at))
