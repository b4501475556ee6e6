"""Kueue's deprecated v1beta1 API read as Kueue serves it: converted to v1beta2.

Kueue serves every kind prio reads in both versions, v1beta2 the stored one and v1beta1
deprecated; an object written in v1beta1 is converted by Kueue's conversion webhook
(ClusterQueue, Cohort, LocalQueue, Workload: apis/kueue/v1beta1/*_conversion.go at the commit
the vendored CRDs came from, prio/kueue/crds/manifest.json) or, for the kinds without one
(ResourceFlavor, Topology, WorkloadPriorityClass: the same fields in both), only given the new
apiVersion. What the webhook does, and so what this module does (`v1beta2`):

- ClusterQueue: `spec.cohort` is `spec.cohortName`; a non-empty `spec.admissionChecks` (names)
  becomes `spec.admissionChecksStrategy.admissionChecks[].name`, replacing any strategy written
  beside it (Convert_v1beta1_ClusterQueueSpec_To_v1beta2_ClusterQueueSpec runs after the
  generated copy); `flavorFungibility.whenCanBorrow: Borrow` and `whenCanPreempt: Preempt`
  are `MayStopSearch` (v1beta2 has no such values); `status.pendingWorkloadsStatus` and
  `status.fairSharing.admissionFairSharingStatus` are dropped;
- Cohort: `status.fairSharing.admissionFairSharingStatus` is dropped;
- LocalQueue: `status.flavorUsage` is `status.flavorsUsage`; `status.flavors` is dropped;
- Workload: `spec.priorityClassName` with `spec.priorityClassSource` is `spec.priorityClassRef`
  (source `kueue.x-k8s.io/workloadpriorityclass`: kind WorkloadPriorityClass; `scheduling.k8s.io/
  priorityclass`: kind PriorityClass; no source, v1beta1's default: the name is dropped);
  `status.accumulatedPastExexcutionTimeSeconds` (v1beta1's spelling) is
  `accumulatedPastExecutionTimeSeconds`; a running pod set's `topologyAssignment.domains[]`
  (`values`, `count`) is written as v1beta2's `slices[]`, one domain a slice (the same
  assignment; Kueue's webhook packs the slices more tightly, which no analysis can tell).

The converted document keeps the positions of what was written: its index maps each v1beta2
path to the entry of the v1beta1 path it came from, so a finding or a refusal of a converted
field points at the field as written. The schema checks read the original (`Converted.original`)
against the v1beta1 CRD, as the API server validates an object in the version it was sent in.
A pure module: data in, data out.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.io.document import Document

GROUP = "kueue.x-k8s.io"
V1BETA1 = f"{GROUP}/v1beta1"
V1BETA2 = f"{GROUP}/v1beta2"
# the kinds with a conversion webhook; the others have the same fields in both versions
_SOURCES = {"kueue.x-k8s.io/workloadpriorityclass": ("kueue.x-k8s.io", "WorkloadPriorityClass"),
            "scheduling.k8s.io/priorityclass": ("scheduling.k8s.io", "PriorityClass")}


@dataclass
class Converted(Document):
    """A document some of whose Kueue objects were written in v1beta1, as v1beta2 (`data`), with
    the document as written (`original`) and, by the path of each converted object in it, what
    its conversion changed (`changes`: the sentences PRIO623 says)."""

    original: Document | None = None
    changes: dict = field(default_factory=dict)

    def objects(self):
        """(the object as converted, it as written, what changed) of each object converted."""
        written = self.original.data if self.original is not None else None
        for where, said in self.changes.items():  # where: () for the document itself, ("items", i) in a List
            if where:
                yield self.data["items"][where[1]], written["items"][where[1]] if written is not None else None, said
            else:
                yield self.data, written, said

    def find(self, data) -> tuple | None:
        """(it as written, what changed) of the converted object `data`; None for one not converted."""
        return next(((w, said) for obj, w, said in self.objects() if obj is data), None)


def is_v1beta1(data) -> bool:
    return isinstance(data, dict) and str(data.get("apiVersion", "")).strip() == V1BETA1


def v1beta2(doc: Document, schema=None) -> Document:
    """`doc` with its v1beta1 Kueue objects (the document itself, or the items of a List)
    converted to v1beta2; `doc` itself when it holds none. `schema(kind)`: the kind's v1beta1
    CRD schema (prio.kueue.crd.converted hands it in), by which each object is first pruned as
    the API server prunes a request's unknown fields before converting it (a v1beta2 name
    written in a v1beta1 object, `cohortName`, is dropped, not read: PRIO610 reports it)."""
    if isinstance(doc, Converted):
        return doc
    data = doc.data
    objects: list = []  # (path of the object in the document, the object, its kind)
    out: dict | None
    if isinstance(data, dict) and isinstance(data.get("items"), list) and str(data.get("kind", "")).endswith("List"):
        typed = str(data.get("kind"))[:-4] if data.get("kind") != "List" else ""
        for i, item in enumerate(data["items"]):
            if isinstance(item, dict) and (is_v1beta1(item) or ("apiVersion" not in item and typed and is_v1beta1(data))):
                objects.append((("items", i), item, str(item.get("kind") or typed)))
        if not objects:
            return doc
        out = dict(data, items=list(data["items"]))
        if typed and is_v1beta1(data):
            out["apiVersion"] = V1BETA2
    elif isinstance(data, dict) and is_v1beta1(data):
        objects.append(((), data, str(data.get("kind") or "")))
        out = None
    else:
        return doc
    moves: dict = {}  # old path -> new path (an object's subtree moves with it)
    aliases: dict = {}  # new path -> old path, for a mapping the conversion made (its entry: what it came from)
    dropped: set = set()  # old paths gone from the data
    changes: dict = {}
    for where, obj, kind in objects:
        paths = _Paths(where, moves, aliases, dropped)
        known = schema(kind) if schema is not None else None
        if known is not None:
            obj = _pruned(obj, known, (), paths)
        new, said = _object(kind, obj, paths)
        if where and out is not None:
            out["items"][where[1]] = new
        else:
            out = new
        changes[where] = said
    return Converted(out, _index(doc.index, moves, aliases, dropped), doc.issues, doc.start, doc.merge_panics,
                     original=doc, changes=changes)


class _Paths:
    """Where one object's conversion records its moves, in document paths."""

    def __init__(self, at: tuple, moves: dict, aliases: dict, dropped: set):
        self.at, self.moves, self.aliases, self.dropped = at, moves, aliases, dropped

    def move(self, old: tuple, new: tuple) -> None:
        self.moves[self.at + old] = self.at + new

    def alias(self, new: tuple, old: tuple) -> None:
        self.aliases[self.at + new] = self.at + old

    def drop(self, old: tuple) -> None:
        self.dropped.add(self.at + old)


def _index(index: dict, moves: dict, aliases: dict, dropped: set) -> dict:
    """The original index re-keyed by the moves: each path under a moved one (the longest that
    holds it) under its new place; the dropped ones left out; each alias the entry of its source."""
    if not moves and not dropped:
        out = dict(index)
    else:
        out = {}
        for path, entry in index.items():
            for k in range(len(path), 0, -1):
                head = path[:k]
                if head in dropped:
                    break
                new = moves.get(head)
                if new is not None:
                    out[new + path[k:]] = entry
                    break
            else:
                out[path] = entry
    for new, old in aliases.items():
        e = index.get(old)
        if e is not None and new not in out:
            out[new] = e
    return out


def _pruned(data, node: dict, at: tuple, p: _Paths):
    """`data` without the fields its schema `node` does not define, nor the null ones (Kubernetes'
    structural pruning, after PruneNonNullableNullsWithoutDefaults: an object schema with
    properties keeps only those, unless it preserves unknown fields; a map's values and a
    list's items by their own schema). `metadata` is the API machinery's, not the CRD's: left
    as written."""
    if isinstance(data, dict):
        props = node.get("properties")
        if props is not None and not node.get("x-kubernetes-preserve-unknown-fields"):
            out = {}
            for k, v in data.items():
                if k not in props or v is None:  # (a null is no value: the API server drops it first)
                    p.drop(at + (k,))
                elif k == "metadata" and not at:
                    out[k] = v
                else:
                    out[k] = _pruned(v, props[k], at + (k,), p)
            return out
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            return {k: _pruned(v, extra, at + (k,), p) for k, v in data.items()}
        return data
    if isinstance(data, list) and isinstance(node.get("items"), dict):
        return [_pruned(v, node["items"], at + (i,), p) for i, v in enumerate(data)]
    return data


def _with(d: dict, key, value) -> dict:
    out = dict(d)
    out[key] = value
    return out


def _object(kind: str, obj: dict, p: _Paths) -> tuple:
    """One v1beta1 object as v1beta2, and what changed (sentences naming the fields)."""
    obj = dict(obj, apiVersion=V1BETA2)
    said: list = []
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else None
    status = obj.get("status") if isinstance(obj.get("status"), dict) else None
    if kind == "ClusterQueue":
        if spec is not None:
            spec = dict(spec)
            if _rename(spec, "cohort", "cohortName", ("spec",), p):
                said.append("spec.cohort is spec.cohortName")
            if "admissionChecks" in spec:
                checks = spec.pop("admissionChecks")
                if isinstance(checks, list) and checks:
                    spec["admissionChecksStrategy"] = {"admissionChecks": [{"name": c} for c in checks]}
                    new = ("spec", "admissionChecksStrategy", "admissionChecks")
                    if "admissionChecksStrategy" in (obj.get("spec") or {}):
                        p.drop(("spec", "admissionChecksStrategy"))
                    p.move(("spec", "admissionChecks"), new)
                    p.alias(new[:2], ("spec", "admissionChecks"))
                    for i in range(len(checks)):
                        p.move(("spec", "admissionChecks", i), new + (i, "name"))
                        p.alias(new + (i,), ("spec", "admissionChecks", i))
                    said.append("spec.admissionChecks is spec.admissionChecksStrategy.admissionChecks[].name")
                else:
                    p.drop(("spec", "admissionChecks"))
            ff = spec.get("flavorFungibility")
            if isinstance(ff, dict):
                for k, old in (("whenCanBorrow", "Borrow"), ("whenCanPreempt", "Preempt")):
                    if ff.get(k) == old:
                        ff = _with(ff, k, "MayStopSearch")
                        said.append(f"flavorFungibility.{k} {old} is MayStopSearch")
                spec["flavorFungibility"] = ff
            obj["spec"] = spec
        if status is not None:
            status = dict(status)
            _drop(status, "pendingWorkloadsStatus", ("status",), p)
            obj["status"] = _drop_fair_sharing_status(status, p)
    elif kind == "Cohort":
        if status is not None:
            obj["status"] = _drop_fair_sharing_status(dict(status), p)
    elif kind == "LocalQueue":
        if status is not None:
            status = dict(status)
            _rename(status, "flavorUsage", "flavorsUsage", ("status",), p)
            _drop(status, "flavors", ("status",), p)
            obj["status"] = status
    elif kind == "Workload":
        if spec is not None and ("priorityClassName" in spec or "priorityClassSource" in spec):
            spec = dict(spec)
            name, source = spec.pop("priorityClassName", None), spec.pop("priorityClassSource", None)
            ref = _SOURCES.get(source) if isinstance(source, str) else None
            if ref is not None:  # (a source without a name too: a ref naming no class, as Kueue writes it)
                spec["priorityClassRef"] = {"group": ref[0], "kind": ref[1], **({"name": name} if name else {})}
                p.move(("spec", "priorityClassName"), ("spec", "priorityClassRef", "name"))
                p.move(("spec", "priorityClassSource"), ("spec", "priorityClassRef", "kind"))
                p.alias(("spec", "priorityClassRef"), ("spec", "priorityClassName") if name else ("spec", "priorityClassSource"))
                said.append(f"spec.priorityClassName with priorityClassSource is spec.priorityClassRef ({ref[1]} {name})" if name
                            else f"spec.priorityClassSource without a name is a spec.priorityClassRef naming no {ref[1]}")
            else:
                p.drop(("spec", "priorityClassName"))
                p.drop(("spec", "priorityClassSource"))
                if name:
                    said.append("spec.priorityClassName without a priorityClassSource is dropped")
            obj["spec"] = spec
        if status is not None:
            obj["status"] = _workload_status(dict(status), p)
    return obj, said


def _rename(d: dict, old: str, new: str, at: tuple, p: _Paths) -> bool:
    """`d`'s field `old` under v1beta2's name `new` (in place; `at` its path): whether it was there."""
    if old not in d:
        return False
    d[new] = d.pop(old)
    p.move(at + (old,), at + (new,))
    return True


def _drop(d: dict, key: str, at: tuple, p: _Paths) -> None:
    """`d` without the field v1beta2 lacks (in place; `at` its path)."""
    if key in d:
        del d[key]
        p.drop(at + (key,))


def _drop_fair_sharing_status(status: dict, p: _Paths) -> dict:
    fs = status.get("fairSharing")
    if isinstance(fs, dict) and "admissionFairSharingStatus" in fs:
        status["fairSharing"] = {k: v for k, v in fs.items() if k != "admissionFairSharingStatus"}
        p.drop(("status", "fairSharing", "admissionFairSharingStatus"))
    return status


def _workload_status(status: dict, p: _Paths) -> dict:
    _rename(status, "accumulatedPastExexcutionTimeSeconds", "accumulatedPastExecutionTimeSeconds", ("status",), p)  # (sic: v1beta1's)
    adm = status.get("admission")
    psas = adm.get("podSetAssignments") if isinstance(adm, dict) else None
    if not isinstance(psas, list):
        return status
    out = []
    for j, pa in enumerate(psas):
        ta = pa.get("topologyAssignment") if isinstance(pa, dict) else None
        if isinstance(ta, dict) and "domains" in ta:
            at = ("status", "admission", "podSetAssignments", j, "topologyAssignment")
            ta = dict(ta)
            pa = dict(pa, topologyAssignment=ta)
            ta["slices"] = _slices(ta.pop("domains"), at, p)
        out.append(pa)
    status["admission"] = dict(adm or {}, podSetAssignments=out)
    return status


def _slices(domains, at: tuple, p: _Paths):
    """v1beta1's domains as v1beta2's slices, one domain each (the levels' values universal,
    the pod count universal); what is not a list of mappings is left for the checks to refuse."""
    p.move(at + ("domains",), at + ("slices",))
    if not isinstance(domains, list):
        return domains
    out = []
    for i, d in enumerate(domains):
        if not isinstance(d, dict):
            out.append(d)
            continue
        here, there = at + ("domains", i), at + ("slices", i)
        values = d.get("values")
        sl: dict = {"domainCount": 1}
        if isinstance(values, list):
            sl["valuesPerLevel"] = [{"universal": v} for v in values]
            for k in range(len(values)):
                p.move(here + ("values", k), there + ("valuesPerLevel", k, "universal"))
                p.alias(there + ("valuesPerLevel", k), here + ("values", k))
        else:
            sl["valuesPerLevel"] = values
        p.move(here + ("values",), there + ("valuesPerLevel",))
        if "count" in d:
            sl["podCounts"] = {"universal": d["count"]}
            p.move(here + ("count",), there + ("podCounts", "universal"))
            p.alias(there + ("podCounts",), here + ("count",))
        p.move(here, there)
        p.alias(there + ("domainCount",), here)
        out.append(sl)
    return out
