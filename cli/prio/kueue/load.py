"""Read Kueue objects (the v1beta2 API, as in `../shared/testdata/kueue/README.md`; an object
written in the deprecated v1beta1 converted first, as Kueue serves it: prio.kueue.convert) into
`prio.kueue.model.Setup`, with Kueue's CRD defaults applied as the API server applies them, and
each Workload's priority resolved once. What the API server would refuse, or what prio cannot
model, is an InputError at its line; the first kind (an APIRefusal, one object's) leaves that
object out instead when the caller collects the skipped objects (`load`'s `skipped`), as the
cluster never admitted it."""
from __future__ import annotations

import json
from decimal import ROUND_CEILING

from prio.errors import APIRefusal, InputError
from prio.io.fields import Reader, kind_of_value, parse_time
from prio.kube import namespace
from prio.kueue import features
from prio.kueue.model import (
    BEST_EFFORT_FIFO,
    MAY_STOP_SEARCH,
    NEVER,
    TRY_NEXT_FLAVOR,
    Admission,
    ClusterQueue,
    Cohort,
    FlavorQuotas,
    Fungibility,
    LocalQueue,
    PodSet,
    PodSetAdmission,
    Preemption,
    Quota,
    ResourceFlavor,
    ResourceGroup,
    Setup,
    Taint,
    Toleration,
    Workload,
)
from prio.kueue.tas import Node as TasNode
from prio.kueue.tas import Topology, TopologyRequest
from prio.values import shown_number

KINDS = ("Configuration", "ResourceFlavor", "Cohort", "ClusterQueue", "LocalQueue", "WorkloadPriorityClass",
         "PriorityClass", "Namespace", "Workload", "Topology", "Node")
TOPOLOGY_MODES = ("required", "preferred", "unconstrained")  # what prio models of a podSet's topologyRequest
TOPOLOGY_ANNOTATIONS = ("kueue.x-k8s.io/podset-required-topology", "kueue.x-k8s.io/podset-preferred-topology",
                        "kueue.x-k8s.io/podset-unconstrained-topology")
CLOCK_START = parse_time("2026-01-01T01:00:00Z")
PRIORITY_LABEL = "kueue.x-k8s.io/priority-class"
ADMISSION_GATED_BY = "kueue.x-k8s.io/admission-gated-by"


class _Reader(Reader):
    """The loader's Reader: a typed read (mapping, list, string, integer, int32) fails where the
    API server refuses the object too, so its failure is an APIRefusal, as is `refuse`'s (the
    loader's own checks of the same kind: quantities, shapes, a CRD's list lengths, times);
    `fail` is prio's own need of its inputs (prio.kueue.lint PRIO621 reads the difference)."""

    def refuse(self, path, message: str, at: str = "value"):
        try:
            self.fail(path, message, at)
        except InputError as e:
            raise APIRefusal.of(e) from None

    def mapping(self, path: tuple, value) -> dict:
        return _refusing(super().mapping, path, value)

    def sequence(self, path: tuple, value) -> list:
        return _refusing(super().sequence, path, value)

    def string(self, path: tuple, value) -> str:
        return _refusing(super().string, path, value)

    def integer(self, path: tuple, value, minimum: int, maximum: int) -> int:
        return _refusing(super().integer, path, value, minimum, maximum)

    def int32(self, path, value, what: str) -> int:
        return _refusing(super().int32, path, value, what)


def _refusing(read, *args):
    try:
        return read(*args)
    except APIRefusal:
        raise
    except InputError as e:
        raise APIRefusal.of(e) from None


def items_of(name: str, doc):
    """(path, object) of one document: the object itself, or each item of a List."""
    data = doc.data
    if isinstance(data, dict) and isinstance(data.get("items"), list) and str(data.get("kind", "")).endswith("List"):
        item_kind = str(data.get("kind"))[:-4] if data.get("kind") != "List" else ""
        for i, item in enumerate(data["items"]):
            if isinstance(item, dict) and "kind" not in item and item_kind:
                item = dict(item, kind=item_kind)
            yield ("items", i), item
    else:
        yield (), data


_SLICES = "status.admission.podSetAssignments[].topologyAssignment.slices[]"


def _integer_range(where: str) -> tuple:
    """A Workload's integer field's (minimum, maximum) as its vendored CRD has them (prio.kueue.crd)."""
    from prio.kueue import crd

    return crd.integer_range("Workload", where)


def _topology_request(r: _Reader, path, value, who: str):
    """A podSet's topologyRequest: required, preferred or unconstrained (what prio models; the
    slice and group fields are refused in one line); None when absent."""
    if value is None:
        return None
    tr = r.mapping(path, value)
    for k in tr:
        if k not in TOPOLOGY_MODES:
            r.fail(path + (k,), f"{who}: {features.refusal('tas-slices')}")
    for k in ("required", "preferred"):
        if tr.get(k) is not None and not (isinstance(tr[k], str) and tr[k]):
            r.fail(path + (k,), f"{who}: topologyRequest.{k} names a topology level (a node label)")
    if tr.get("required") is not None and tr.get("preferred") is not None:
        r.refuse(path, f"{who}: topologyRequest has both required and preferred (Kueue's webhook refuses it)")
    return TopologyRequest(tr.get("required"), tr.get("preferred"), tr.get("unconstrained") is True)


def _topology_assignment(r: _Reader, path, value, who: str) -> tuple:
    """A running pod set's v1beta2 `topologyAssignment` (`levels`; `slices[]` of `domainCount`
    domains, each level's values `universal` or `individual` {prefix, roots, suffix}, pod counts
    `universal` or `individual`) as (levels, [(values, count)])."""
    ta = r.mapping(path, value)
    levels = [str(x) for x in r.sequence(path + ("levels",), ta.get("levels") or [])]
    domains = []
    for i, sl in enumerate(r.sequence(path + ("slices",), ta.get("slices") or [])):
        sp = path + ("slices", i)
        sl = r.mapping(sp, sl)
        n = r.integer(sp + ("domainCount",), sl.get("domainCount", 0), *_integer_range(_SLICES + ".domainCount"))
        per_level = []
        vpl = r.sequence(sp + ("valuesPerLevel",), sl.get("valuesPerLevel") or [])
        if len(vpl) != len(levels):
            r.fail(sp + ("valuesPerLevel",), f"{who}: topologyAssignment has {len(levels)} levels and {len(vpl)} valuesPerLevel")
        for j, lv in enumerate(vpl):
            lv = r.mapping(sp + ("valuesPerLevel", j), lv)
            if lv.get("universal") is not None:
                per_level.append([str(lv["universal"])] * n)
                continue
            ind = r.mapping(sp + ("valuesPerLevel", j, "individual"), lv.get("individual") or {})
            roots = [str(x) for x in r.sequence(sp + ("valuesPerLevel", j, "individual", "roots"), ind.get("roots") or [])]
            if len(roots) != n:
                r.fail(sp + ("valuesPerLevel", j), f"{who}: topologyAssignment names {len(roots)} values for {n} domains")
            per_level.append([f"{ind.get('prefix') or ''}{x}{ind.get('suffix') or ''}" for x in roots])
        pc = r.mapping(sp + ("podCounts",), sl.get("podCounts") or {})
        if pc.get("universal") is not None:
            counts = [r.integer(sp + ("podCounts", "universal"), pc["universal"],
                                *_integer_range(_SLICES + ".podCounts.universal"))] * n
        else:
            counts = [r.integer(sp + ("podCounts", "individual", k), c, *_integer_range(_SLICES + ".podCounts.individual[]"))
                      for k, c in enumerate(r.sequence(sp + ("podCounts", "individual"), pc.get("individual") or []))]
            if len(counts) != n:
                r.fail(sp + ("podCounts",), f"{who}: topologyAssignment has {len(counts)} pod counts for {n} domains")
        domains += [(tuple(per_level[j][k] for j in range(len(levels))), counts[k]) for k in range(n)]
    return tuple(levels), domains


def _qty(r: _Reader, path, res: str, value) -> int:
    """A Kubernetes quantity in Kueue's units: cpu in millicores, the rest whole units, rounded up."""
    from prio.kube import quantity as kq

    if isinstance(value, bool) or value is None or not isinstance(value, (int, float, str)):
        r.refuse(path, f"expected a quantity such as \"4\", \"500m\" or \"16Gi\", found {kind_of_value(value)}")
    try:
        d = kq.parse(value)
    except kq.QuantityError as e:
        r.refuse(path, str(e))
    if d < 0:
        r.refuse(path, f"a quantity cannot be negative, found {shown_number(value)}")
    if res == "cpu":
        d = d * 1000
    if d > kq.INT64_MAX:  # Kueue counts in int64 (resources.ResourceValue): past it, Kueue's sums wrap
        _refuse_past_int64(r, path, value, "millicores of cpu" if res == "cpu" else f"units of {res}")
    return int(d.to_integral_value(rounding=ROUND_CEILING))


def _refuse_past_int64(r: _Reader, path, value, units: str):
    """A quantity past Kueue's int64 (Kubernetes caps what it parses there, and Kueue's
    millicores of such a cpu wrap around): refused, never modelled. prio's limit, not the API
    server's, unless the number runs to more than 30 digits (thousands, typically), which
    PRIO621 reports as the API server's refusal."""
    from prio.kube import quantity as kq

    shown = shown_number(value)
    refuse = r.refuse if shown != (value.strip() if isinstance(value, str) else str(value)) else r.fail
    refuse(path, f"{shown} is more than Kueue counts: it holds this as int64 {units} (at most {kq.INT64_MAX})")


def _time(r: _Reader, path, value, what: str) -> float:
    t = parse_time(value)
    if t is None:
        r.refuse(path, f"{what} must be an RFC 3339 time such as 2026-01-01T00:00:00Z, found {value!r}")
    return t


def _weight(r: _Reader, path, fs) -> float:
    if fs is None:
        return 1.0
    fs = r.mapping(path, fs)
    w = fs.get("weight")
    if w is None:
        return 1.0
    from prio.kube import quantity as kq

    try:
        d = kq.parse(w)
    except kq.QuantityError as e:
        r.refuse(path + ("weight",), str(e))
    if abs(d) * 1000 > kq.INT64_MAX:  # Kueue divides by the weight's MilliValue, an int64
        _refuse_past_int64(r, path + ("weight",), w, "thousandths")
    return float(d)


def _at_most(r: _Reader, path, items, kind: str, where: str, what: str) -> list:
    """A list the CRD bounds (`+kubebuilder:validation:MaxItems`; `where` names it in the vendored
    CRD of `kind`, prio.kueue.crd.field): longer, the API server refuses it."""
    from prio.kueue import crd

    n = crd.field(kind, where)["maxItems"]
    items = r.sequence(path, items)
    if len(items) > n:
        r.refuse(path, f"{len(items)} {what}: the API server refuses more than {n} (Kueue's CRD)")
    return items


def _resource_groups(r: _Reader, path, groups, kind: str) -> list:
    out = []
    for i, g in enumerate(_at_most(r, path, groups or [], kind, "spec.resourceGroups", "resourceGroups")):
        gp = path + (i,)
        g = r.mapping(gp, g)
        covered = tuple(str(c) for c in _at_most(r, gp + ("coveredResources",), g.get("coveredResources") or [], kind,
                                                 "spec.resourceGroups[].coveredResources", "coveredResources"))
        flavors = []
        for j, f in enumerate(_at_most(r, gp + ("flavors",), g.get("flavors") or [], kind, "spec.resourceGroups[].flavors",
                                         "flavors")):
            fp = gp + ("flavors", j)
            f = r.mapping(fp, f)
            res = {}
            for k, rq in enumerate(_at_most(r, fp + ("resources",), f.get("resources") or [], kind,
                                               "spec.resourceGroups[].flavors[].resources", "resources")):
                rp = fp + ("resources", k)
                rq = r.mapping(rp, rq)
                name = r.string(rp + ("name",), rq.get("name"))
                nominal = _qty(r, rp + ("nominalQuota",), name, rq["nominalQuota"])  # required (_shape)
                bl = rq.get("borrowingLimit")
                ll = rq.get("lendingLimit")
                res[name] = Quota(nominal, None if bl is None else _qty(r, rp + ("borrowingLimit",), name, bl),
                                  None if ll is None else _qty(r, rp + ("lendingLimit",), name, ll))
            flavors.append(FlavorQuotas(r.string(fp + ("name",), f.get("name")), res))
        out.append(ResourceGroup(covered, flavors))
    return out


def _pod_request(r: _Reader, path, spec: dict):
    """Kueue's pod request: the containers' requests summed (limits standing in for missing
    requests), at least every init container's, plus the overhead."""
    def container_requests(cp, c):
        c = r.mapping(cp, c)
        res = c.get("resources") or {}
        req = dict(res.get("limits") or {})
        req.update(res.get("requests") or {})
        return {k: _qty(r, cp + ("resources", "requests", k), k, v) for k, v in req.items()}

    total: dict = {}
    shape_containers = []
    for i, c in enumerate(r.sequence(path + ("containers",), spec.get("containers") or [])):
        req = container_requests(path + ("containers", i), c)
        shape_containers.append(sorted(req.items()))
        for k, v in req.items():
            total[k] = total.get(k, 0) + v
    for i, c in enumerate(spec.get("initContainers") or []):
        req = container_requests(path + ("initContainers", i), c)
        for k, v in req.items():
            total[k] = max(total.get(k, 0), v)
    for k, v in (spec.get("overhead") or {}).items():
        total[k] = total.get(k, 0) + _qty(r, path + ("overhead", k), k, v)
    return total, shape_containers


def _affinity_terms(spec: dict) -> list:
    na = ((spec.get("affinity") or {}).get("nodeAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or {}
    terms = []
    for term in na.get("nodeSelectorTerms") or []:
        terms.append([(e.get("key"), e.get("operator"), tuple(e.get("values") or ())) for e in term.get("matchExpressions") or []])
    return terms


def _tolerations(items) -> list:
    return [Toleration(str(t.get("key", "")), str(t.get("operator", "Equal")), str(t.get("value", "")), str(t.get("effect", "")))
            for t in items or [] if isinstance(t, dict)]


# The shape of each field, as the API server's decoding holds it (a string field given a number,
# a mapping given a list: the API server refuses the object), checked before a field is read, so a
# wrong type is one line at its position, never an internal error. "str": a string; "strmap": a
# mapping of strings to strings; a dict: a mapping, the keys named checked where present, "*" the
# shape of any other key's value, "!" the keys that must be there; [x]: a list of x. null stands
# for absent, as in Kubernetes.
#
# Kueue's kinds take their shapes from their vendored CRD schemas (prio.kueue.crd.shape: every
# field of the schema, not only those read), with these exceptions, each for what the loader reads
# itself where it reads it:
# - a quantity (`x-kubernetes-int-or-string`: quotas, limits, a fair-sharing weight, a pod's
#   requests) is read by _qty/_weight as Kubernetes' quantity decoding reads it. The CRD's anyOf
#   integer/string would refuse a number with a fraction, and the recorded scenarios write
#   `weight: 0.5` unquoted (kueue/fairshare--random-08, two of kueue-2's fairshare family), which
#   Kueue's own replay decoded as the quantity 0.5: the loader reads such a number too;
# - integers and booleans are read by the Reader where used (r.integer / r.int32 with the CRD's
#   ranges, `is False` / `is True`), with the loader's messages;
# - a field the CRD requires (a quota entry's nominalQuota, a container's name) is required in
#   `spec` only: the API server drops a Kueue object's `status` on create (the status subresource),
#   so a file's status is the cluster's as Kueue wrote it, read as far as the replay needs it.
# The kinds Kueue does not define (its Configuration, Namespace, PriorityClass) and every object's
# metadata (the API server's own ObjectMeta, not in the CRDs) keep the table below.
_META = {"name": "str", "namespace": "str", "labels": "strmap", "annotations": "strmap"}
_SHAPES = {
    "Configuration": {"fairSharing": {"preemptionStrategies": ["str"]}},
    "Namespace": {},
    "PriorityClass": {},
}


def _shape(kind: str) -> dict:
    """The shape an object of `kind` is checked against; any other kind (a Node, read as the
    YuniKorn side reads one, with its messages) only a mapping for its metadata, which every
    object's reading starts with."""
    got = _SHAPE_OF.get(kind)
    if got is None:
        from prio.kueue import crd

        if kind in crd.PLURALS or kind in _SHAPES:
            got = dict(crd.shape(kind) if kind in crd.PLURALS else _SHAPES[kind], metadata=_META)
        else:
            got = {"metadata": {}}
        _SHAPE_OF[kind] = got
    return got


_SHAPE_OF: dict = {}  # kind -> its shape, made when the first object of the kind is read


def _field(path: tuple) -> str:
    return next((str(p) for p in reversed(path) if isinstance(p, str)), "the object")


def _check_shape(r: _Reader, path: tuple, value, shape, top: int) -> None:
    """`value` (not null) has `shape` (_shape), else the field is refused at its position; `top`:
    the length of the object's own path in `path` (the API server names a field from its object).
    (A string field's check is made inline, without a call: most fields of a Kueue object are.)"""
    if shape == "str":
        if not isinstance(value, str):
            r.refuse(path, f"{_field(path)} must be a string, found {kind_of_value(value)}")
    elif isinstance(shape, list):
        r.sequence(path, value)
        sub = shape[0]
        if sub is not None:
            for i, item in enumerate(value):
                if item is not None and not (sub == "str" and isinstance(item, str)):
                    _check_shape(r, path + (i,), item, sub, top)
    else:
        if not isinstance(value, dict):
            r.refuse(path, f"{_field(path)} must be a mapping, found {kind_of_value(value)}")
        if shape == "strmap":
            for k, v in value.items():
                if not isinstance(v, str):
                    r.refuse(path + (k,), f"{_field(path)} maps names to strings; {k} is {kind_of_value(v)}")
            return
        get, other = shape.get, shape.get("*")
        for k, v in value.items():
            sub = get(k, other) if isinstance(k, str) and k not in ("*", "!") else other
            if sub is not None and v is not None and not (sub == "str" and isinstance(v, str)):
                _check_shape(r, path + (k,), v, sub, top)
        for k in get("!", ()):
            if value.get(k) is None:
                from prio.diagnostics import format_path

                r.refuse(path, f"{format_path(path[top:] + (k,))}: Required value")


class _Builder:
    def __init__(self):
        self.setup = Setup()
        self.wpcs: dict = {}
        self.pcs: dict = {}
        self.workload_docs: list = []
        self.latest = None
        self.config_seen = None
        self.cohort_at: dict = {}  # Cohort name -> (Reader, path): where a cycle of parents is reported
        self.noted: dict = {}  # noted feature id -> the objects that use it
        self.draining: set = set()  # ("LocalQueue", ns, name) / ("ClusterQueue", name) with HoldAndDrain
        self.topology_refs: list = []  # (reader, path, flavor, Topology name) checked once every object is read
        self.skipped: dict = {}  # (kind, name) -> where the API server refuses that object (skipped: load's `skipped`)
        # id(a converted v1beta1 object) -> (it as written, "v1beta1", its document as written) (prio.kueue.convert)
        self.written: dict = {}
        self.backoff: list = []  # (a pending workload in a requeue backoff, its requeueAt or None) (_backoff)

    def skipped_one(self, kind: str, name) -> str:
        """What a message naming a missing object adds when one of that kind and name was skipped."""
        e = self.skipped.get((kind, name))
        return "" if e is None else f" (one was skipped at {_where(e)}: the API server refuses it)"

    def note(self, feature_id: str, where: str) -> None:
        self.noted.setdefault(feature_id, []).append(where)

    def read_whole(self, read, r: _Reader, path, obj, *more):
        """`read(r, path, obj, *more)` (add, workload) or, where the API server refuses the object
        (an APIRefusal), None with nothing of it kept: the notes it took are dropped (every other
        part of the builder is written only once the object is read whole), as if it were absent."""
        kept = {k: len(v) for k, v in self.noted.items()}
        try:
            return read(r, path, obj, *more)
        except APIRefusal:
            for k in list(self.noted):
                if k not in kept:
                    del self.noted[k]
                else:
                    del self.noted[k][kept[k]:]
            raise

    def _see_time(self, t: float) -> None:
        self.latest = t if self.latest is None else max(self.latest, t)

    def admit(self, r: _Reader, path, obj) -> None:
        """`add`, where objects are skipped (load's `skipped`): first what the API server refuses
        that `add` does not read for itself (_unread_refusal), of the object as written (a v1beta1
        one against the v1beta1 CRD, as the API server checks the request)."""
        _unread_refusal(r, path, obj, *self.written.get(id(obj), ()))
        self.add(r, path, obj)

    def add(self, r: _Reader, path, obj) -> None:
        if not isinstance(obj, dict):
            r.refuse(path, f"expected a Kubernetes object, found {kind_of_value(obj)}")
        kind, _api = obj.get("kind"), str(obj.get("apiVersion", ""))
        if not isinstance(kind, str):
            r.refuse(path + ("kind",) if "kind" in obj else path, f"a Kubernetes object needs a kind, found {kind_of_value(kind)}")
        _check_shape(r, path, obj, _shape(kind), len(path))
        meta = obj.get("metadata") or {}
        name = meta.get("name")
        spec = obj.get("spec") or {}
        from prio.kueue import crd

        if crd.unserved(kind, _api) is not None:  # the API server has no such resource: refused (validate's PRIO624)
            r.refuse(path + ("apiVersion",), f"{_label(meta, kind, name if isinstance(name, str) and name else None)}: "
                                             f"{_api.strip()} is not a version Kueue serves")
        if kind in features.REFUSED_KINDS:
            r.fail(path + ("kind",), f"{kind} {name or ''}: {features.refusal(features.REFUSED_KINDS[kind])}")
        if kind not in KINDS:
            r.fail(path + ("kind",), f"a {kind} is not a Kueue object prio reads (expected one of {', '.join(KINDS)})")
        if kind != "Configuration" and not (isinstance(name, str) and name):
            # the API server's: no object without a name (said after the label a note gives it, once)
            r.refuse(path + ("metadata",), f"{_label(meta, kind, None)}: metadata.name is missing")
        line = r.doc.pos(path, "value").line if r.doc.pos(path, "value") else None
        s = self.setup
        if kind == "Configuration":
            if self.config_seen:
                r.fail(path, f"a second Configuration (the first is at line {self.config_seen}); Kueue reads one")
            self.config_seen = line or 1
            fs = obj.get("fairSharing")
            if "fairSharing" in obj:
                s.fair_sharing = True
                s.strategies_written = [str(x) for x in (fs or {}).get("preemptionStrategies") or []]
                for i, st in enumerate(s.strategies_written):
                    if st not in ("LessThanOrEqualToFinalShare", "LessThanInitialShare"):
                        r.fail(path + ("fairSharing", "preemptionStrategies", i), f"unknown preemption strategy {st!r}")
            others = [k for k in obj if k not in ("apiVersion", "kind", "metadata", "fairSharing")]
            for k, fid in (("waitForPodsReady", "wait-for-pods-ready"), ("admissionFairSharing", "admission-fair-sharing"),
                           ("featureGates", "feature-gates")):
                if k in others:
                    others.remove(k)
                    self.note(fid, f"Configuration {k}")
            if others:
                self.note("configuration", f"Configuration {', '.join(others)}")
        elif kind == "ResourceFlavor":
            taints = [Taint(str(t.get("key", "")), str(t.get("value", "")), str(t.get("effect", "")))
                      for t in spec.get("nodeTaints") or []]
            topo = spec.get("topologyName")
            if topo is not None and not (isinstance(topo, str) and topo):
                r.fail(path + ("spec", "topologyName"), f"ResourceFlavor {name}: topologyName names a Topology")
            s.flavors[name] = ResourceFlavor(name, dict(spec.get("nodeLabels") or {}), taints, _tolerations(spec.get("tolerations")),
                                             topo or None)
            if topo:
                self.topology_refs.append((r, path + ("spec", "topologyName"), name, topo))
        elif kind == "Topology":
            levels = []
            for i, lv in enumerate(r.sequence(path + ("spec", "levels"), spec.get("levels") or [])):
                label = r.mapping(path + ("spec", "levels", i), lv).get("nodeLabel")
                if not (isinstance(label, str) and label):
                    r.fail(path + ("spec", "levels", i), f"Topology {name}: each level needs a nodeLabel")
                levels.append(label)
            if not levels:
                r.fail(path + ("spec",), f"Topology {name} needs spec.levels")
            s.topologies[name] = Topology(name, tuple(levels))
        elif kind == "Node":
            # labels and taints as the YuniKorn side reads a node (prio.kube.predicates: one model)
            from prio.kube import predicates

            alloc = r.mapping(path + ("status", "allocatable"), (obj.get("status") or {}).get("allocatable") or {})
            try:
                labels = predicates.labels(meta.get("labels"))
            except ValueError as e:
                r.refuse(path + ("metadata",) + tuple(e.args[0]), f"Node {name}: {e.args[1]}")
            try:
                taints = predicates.taints(spec.get("taints"))
            except ValueError as e:
                r.refuse(path + ("spec",) + tuple(e.args[0]), f"Node {name}: {e.args[1]}")
            s.nodes.append(TasNode(name, labels, {k: _qty(r, path + ("status", "allocatable", k), k, v)
                                                  for k, v in alloc.items()}, taints))
        elif kind == "Cohort":
            cohort = Cohort(name, spec.get("parentName") or None,
                            _resource_groups(r, path + ("spec", "resourceGroups"), spec.get("resourceGroups"), "Cohort"),
                            _weight(r, path + ("spec", "fairSharing"), spec.get("fairSharing")))
            c = s.cohorts.get(name)  # (after reading it: a second one the API server refuses is skipped, never twice)
            if c is not None and c.declared:
                r.fail(path, f"Cohort {name} is defined twice")
            self.cohort_at[name] = (r, path)
            s.cohorts[name] = cohort
        elif kind == "ClusterQueue":
            p = spec.get("preemption") or {}
            bwc = p.get("borrowWithinCohort") or {}
            for k, fid in (("admissionScope", "admission-fair-sharing"), ("concurrentAdmissionPolicy", "concurrent-admission")):
                if spec.get(k) is not None:
                    self.note(fid, f"ClusterQueue {name} {k}")
            acs = r.mapping(path + ("spec", "admissionChecksStrategy"), spec.get("admissionChecksStrategy") or {})
            checks = [str(r.mapping(path + ("spec", "admissionChecksStrategy", "admissionChecks", i), c).get("name"))
                      for i, c in enumerate(r.sequence(path + ("spec", "admissionChecksStrategy", "admissionChecks"),
                                                       acs.get("admissionChecks") or []))]
            ff = spec.get("flavorFungibility") or {}
            queue = ClusterQueue(
                name=name, cohort=spec.get("cohortName") or None,
                namespace_selector=None if spec.get("namespaceSelector") is None else dict(spec["namespaceSelector"]),
                queueing_strategy=spec.get("queueingStrategy") or BEST_EFFORT_FIFO,
                resource_groups=_resource_groups(r, path + ("spec", "resourceGroups"), spec.get("resourceGroups"), "ClusterQueue"),
                preemption=Preemption(p.get("withinClusterQueue") or NEVER, p.get("reclaimWithinCohort") or NEVER,
                                      bwc.get("policy") or NEVER, bwc.get("maxPriorityThreshold")),
                fungibility=Fungibility(ff.get("whenCanBorrow") or MAY_STOP_SEARCH, ff.get("whenCanPreempt") or TRY_NEXT_FLAVOR,
                                        ff.get("preference")),
                fair_weight=_weight(r, path + ("spec", "fairSharing"), spec.get("fairSharing")),
                stop_policy=spec.get("stopPolicy") or "None", admission_checks=tuple(checks), line=line)
            if name in s.cluster_queues:  # (after reading it, as a Cohort's)
                r.fail(path, f"ClusterQueue {name} is defined twice")
            s.cluster_queues[name] = queue
            if spec.get("stopPolicy") == "HoldAndDrain":
                self.draining.add(("ClusterQueue", name))
        elif kind == "LocalQueue":
            ns = meta.get("namespace") or "default"
            cq = spec.get("clusterQueue")
            if not isinstance(cq, str) or not cq:
                r.fail(path + ("spec",), f"LocalQueue {ns}/{name} needs spec.clusterQueue")
            s.local_queues[(ns, name)] = LocalQueue(ns, name, cq, spec.get("stopPolicy") or "None")
            if spec.get("stopPolicy") == "HoldAndDrain":
                self.draining.add(("LocalQueue", ns, name))
            s.namespaces.setdefault(ns, {})
        elif kind == "WorkloadPriorityClass":
            self.wpcs[name] = r.int32(path + ("value",), obj.get("value", 0), "value")
        elif kind == "PriorityClass":
            self.pcs[name] = (r.int32(path + ("value",), obj.get("value", 0), "value"), bool(obj.get("globalDefault")))
        elif kind == "Namespace":
            s.namespaces[name] = dict(meta.get("labels") or {})
        elif kind == "Workload":
            ts = meta.get("creationTimestamp")
            times = [] if ts is None else [_time(r, path + ("metadata", "creationTimestamp"), ts, "creationTimestamp")]
            times += [_time(r, path, c["lastTransitionTime"], "lastTransitionTime")
                      for c in ((obj.get("status") or {}).get("conditions") or [])
                      if isinstance(c, dict) and c.get("lastTransitionTime") is not None]
            self.workload_docs.append((r, path, obj, line, times))

    def workload(self, r: _Reader, path, obj, line) -> Workload | None:
        """The Workload of `obj`; None for a finished one (left out: a note)."""
        meta = obj.get("metadata") or {}
        spec = r.mapping(path + ("spec",), obj.get("spec") or {})
        ns, name = meta.get("namespace") or "default", meta["name"]
        if meta.get("creationTimestamp") is None:
            r.fail(path + ("metadata",), f"Workload {ns}/{name} needs metadata.creationTimestamp (its place in the queue)")
        created = _time(r, path + ("metadata", "creationTimestamp"), meta["creationTimestamp"], "creationTimestamp")
        status = r.mapping(path + ("status",), obj.get("status") or {})
        # status.reclaimablePods: pods that finished count no more (podSetsCountsAfterReclaim)
        reclaim = {}
        for i, rp in enumerate(_at_most(r, path + ("status", "reclaimablePods"), status.get("reclaimablePods") or [],
                                        "Workload", "status.reclaimablePods", "reclaimablePods")):
            rp = r.mapping(path + ("status", "reclaimablePods", i), rp)
            reclaim[str(rp.get("name") or "main")] = r.integer(path + ("status", "reclaimablePods", i, "count"),
                                                               rp.get("count", 0),
                                                               *_integer_range("status.reclaimablePods[].count"))
        pod_sets = []
        for i, ps in enumerate(_at_most(r, path + ("spec", "podSets"), spec.get("podSets") or [], "Workload", "spec.podSets",
                                        "podSets")):
            pp = path + ("spec", "podSets", i)
            ps = r.mapping(pp, ps)
            topology = _topology_request(r, pp + ("topologyRequest",), ps.get("topologyRequest"), f"Workload {ns}/{name}")
            tmeta = (ps.get("template") or {}).get("metadata") or {}
            if topology is None and isinstance(tmeta, dict) and set(tmeta.get("annotations") or {}) & set(TOPOLOGY_ANNOTATIONS):
                self.note("tas-annotations", f"Workload {ns}/{name}")
            pspec = ((ps.get("template") or {}).get("spec")) or {}
            req, shape_c = _pod_request(r, pp + ("template", "spec"), pspec)
            shape = json.dumps({"c": shape_c, "ns": pspec.get("nodeSelector"), "aff": pspec.get("affinity"),
                                "tol": pspec.get("tolerations"), "prio": pspec.get("priority"),
                                "ov": pspec.get("overhead")}, sort_keys=True, default=str)
            count = r.integer(pp + ("count",), ps.get("count", 1), *_integer_range("spec.podSets[].count"))
            min_count = None
            if ps.get("minCount") is not None:  # the CRD: 1 <= minCount, and (webhook) minCount <= count
                min_count = r.integer(pp + ("minCount",), ps["minCount"], _integer_range("spec.podSets[].minCount")[0], count)
            ps_name = str(ps.get("name") or "main")
            pod_sets.append(PodSet(ps_name, count - min(reclaim.get(ps_name, 0), count),
                                   req, _tolerations(pspec.get("tolerations")), dict(pspec.get("nodeSelector") or {}),
                                   _affinity_terms(pspec), shape, min_count, topology))
        if not pod_sets:
            # (the CRD: required, minItems 1; where validate's PRIO622 says so, at the list written)
            r.refuse(path + ("spec", "podSets") if "podSets" in spec else path + ("spec",), f"Workload {ns}/{name}: no podSets (the CRD needs at least one)")
        if any(isinstance(c, dict) and c.get("type") == "Finished" and str(c.get("status")) == "True"
               for c in status.get("conditions") or []):
            # Kueue keeps a finished workload as finished alone (WorkloadReconciler.Create:
            # AddFinishedWorkload; HasActiveQuotaReservation and IsAdmissible are false for it):
            # no quota, never queued, its priority class never resolved. Left out, said once.
            self.note("finished", f"Workload {ns}/{name}")
            return None
        self._backoff(r, path, status, f"Workload {ns}/{name}")
        if spec.get("active", True) is False and status.get("admission"):
            self.note("deactivated-running", f"Workload {ns}/{name}")
        if spec.get("maximumExecutionTimeSeconds") is not None:
            self.note("max-execution-time", f"Workload {ns}/{name}")
        prio, cls, kind = self.priority(r, path, meta, spec, pod_sets, obj)
        gated = r.mapping(path + ("metadata", "annotations"), meta.get("annotations") or {}).get(ADMISSION_GATED_BY)
        wl = Workload(ns, name, str(meta.get("uid") or name), created, str(spec.get("queueName") or ""), pod_sets,
                      prio, cls, kind, active=spec.get("active", True) is not False,
                      admission_gated_by=str(gated) if gated else None, line=line)
        adm = status.get("admission")
        if adm:
            conds = {c.get("type"): c for c in status.get("conditions") or [] if isinstance(c, dict)}
            qr = conds.get("QuotaReserved")
            if qr is None or str(qr.get("status")) == "True":
                if str((conds.get("Evicted") or {}).get("status")) == "True":
                    self.note("evicting", f"Workload {ns}/{name}")
                pss = []
                for j, pa in enumerate(_at_most(r, path + ("status", "admission", "podSetAssignments"),
                                                adm.get("podSetAssignments") or [], "Workload",
                                                "status.admission.podSetAssignments", "podSetAssignments")):
                    ap = path + ("status", "admission", "podSetAssignments", j)
                    pa = r.mapping(ap, pa)
                    topo = None
                    if pa.get("topologyAssignment") is not None:
                        topo = _topology_assignment(r, ap + ("topologyAssignment",), pa["topologyAssignment"],
                                                    f"Workload {ns}/{name}")
                    usage = {k: _qty(r, ap + ("resourceUsage", k), k, v) for k, v in (pa.get("resourceUsage") or {}).items()}
                    pa_name = str(pa.get("name") or "main")
                    pa_count = r.integer(ap + ("count",), pa.get("count", 1),
                                         *_integer_range("status.admission.podSetAssignments[].count"))
                    left = next((p.count for p in pod_sets if p.name == pa_name), pa_count)
                    # totalRequestsFromAdmission: the usage scaled down to the pods not reclaimable
                    counted = {k: v // pa_count * left for k, v in usage.items()} if 0 < pa_count and left < pa_count else None
                    per_pod = next((dict(p.requests) for p in pod_sets if p.name == pa_name), None) if topo else None
                    pss.append(PodSetAdmission(pa_name, pa_count, dict(pa.get("flavors") or {}), usage, counted,
                                               topology=topo, per_pod=per_pod))
                wl.admission = Admission(str(adm.get("clusterQueue")), pss)
                wl.reserved_at = _time(r, path, qr["lastTransitionTime"], "lastTransitionTime") \
                    if qr is not None and qr.get("lastTransitionTime") is not None else created
        self.setup.namespaces.setdefault(ns, {})
        return wl

    def _backoff(self, r: _Reader, path, status: dict, who: str) -> None:
        """A pending workload waiting out a requeue backoff (condition Requeued=False, or
        status.requeueState.requeueAt): Kueue's queue sets it aside until the backoff ends
        (backoffWaitingTimeExpired), which prio does not replay; kept for a note once the replay's
        clock is known (a requeueAt before it has expired already)."""
        conds = [c for c in status.get("conditions") or [] if isinstance(c, dict)]
        if any(c.get("type") == "QuotaReserved" and str(c.get("status")) == "True" for c in conds):
            return
        state = r.mapping(path + ("status", "requeueState"), status.get("requeueState") or {})
        at = state.get("requeueAt")
        when = None if at is None else _time(r, path + ("status", "requeueState", "requeueAt"), at, "requeueAt")
        if when is not None or any(c.get("type") == "Requeued" and str(c.get("status")) == "False" for c in conds):
            self.backoff.append((who, when))

    def priority(self, r: _Reader, path, meta, spec, pod_sets, obj):
        """Priority, resolved once: spec.priority, the priority-class label, priorityClassRef,
        the first pod template's priorityClassName, the globalDefault PriorityClass, else 0."""
        if spec.get("priority") is not None:
            return r.int32(path + ("spec", "priority"), spec["priority"], "spec.priority"), None, None
        label = (meta.get("labels") or {}).get(PRIORITY_LABEL)
        if label:
            if label not in self.wpcs:
                r.fail(path + ("metadata", "labels", PRIORITY_LABEL), f"WorkloadPriorityClass {label!r} does not exist{self.skipped_one('WorkloadPriorityClass', label)}")
            return self.wpcs[label], label, "WorkloadPriorityClass"
        ref = spec.get("priorityClassRef")
        if isinstance(ref, dict) and ref.get("name"):
            nm, kind = ref["name"], ref.get("kind") or "WorkloadPriorityClass"
            table = self.wpcs if kind == "WorkloadPriorityClass" else {k: v[0] for k, v in self.pcs.items()}
            if nm not in table:
                r.fail(path + ("spec", "priorityClassRef", "name"), f"{kind} {nm!r} does not exist{self.skipped_one(kind, nm)}")
            return table[nm], nm, kind
        for i, ps in enumerate(spec.get("podSets") or []):
            pcn = (((ps or {}).get("template") or {}).get("spec") or {}).get("priorityClassName")
            if pcn:
                if pcn not in self.pcs:
                    r.fail(path + ("spec", "podSets", i, "template", "spec", "priorityClassName"), f"PriorityClass {pcn!r} does not exist{self.skipped_one('PriorityClass', pcn)}")
                return self.pcs[pcn][0], pcn, "PriorityClass"
        defaults = sorted((v, n) for n, (v, g) in self.pcs.items() if g)
        if defaults:
            return defaults[0][0], defaults[0][1], "PriorityClass"
        return 0, None, None


def _refuse_cohort_cycle(b: _Builder) -> None:
    """A cycle of Cohort parents has no root: Kueue admits nothing below it, and no quota tree
    can be built from it (prio validate reports it as PRIO614), so it is refused here, at the first
    Cohort of the cycle's parentName."""
    from prio.kueue.tree import cohort_cycles

    cycles = cohort_cycles({name: c.parent for name, c in b.setup.cohorts.items()})
    if cycles:
        cyc = cycles[0]
        r, path = b.cohort_at[cyc[0]]
        ring = " -> ".join(cyc + [cyc[0]])
        fix = (f"remove Cohort {cyc[0]}'s parentName" if len(cyc) == 1 else
               f"remove parentName from the Cohort meant to be the root ({' or '.join(cyc)})")
        r.fail(path + ("spec", "parentName"), f"Cohort parents form a cycle ({ring}): a cohort tree needs a root, and Kueue "
                                              f"admits nothing below these Cohorts; {fix}")


class Skipped:
    """An object the API server refuses (an APIRefusal while reading it), left out of the setup:
    the cluster never admitted it. `kind` as the object writes it (None: none), `label` its kind
    and name as prio names it (`Workload team-a/train`, `a Workload`, `an object`), `error` the
    refusal (its file, line and column: the field refused), `reason` its message."""

    __slots__ = ("kind", "name", "label", "error")

    def __init__(self, obj, error: APIRefusal):
        self.kind = obj.get("kind") if isinstance(obj, dict) and isinstance(obj.get("kind"), str) and obj["kind"] else None
        meta = obj.get("metadata") if isinstance(obj, dict) else None
        name = meta.get("name") if isinstance(meta, dict) else None
        self.name = name if isinstance(name, str) and name else None  # (None: none written)
        self.label, self.error = _label(meta, self.kind, self.name), error

    @property
    def reason(self) -> str:
        m = self.error.message
        return m[len(self.label) + 2:] if m.startswith(self.label + ": ") else m  # (said once, before it)

    def note(self) -> str:
        """The note said on stderr: `file:line:col: Workload ns/name: REASON (skipped: ...)`."""
        e = self.error
        return str(InputError(e.file, f"{self.label}: {self.reason} (skipped: the API server refuses this object)",
                              e.line, e.column))


def _where(e: InputError) -> str:
    """`file:line:col` of an error, as far as it is known."""
    return str(InputError(e.file, "", e.line, e.column))[:-2]


def _label(meta, kind: str | None, name: str | None) -> str:
    if kind is None:
        return "an object"
    if name is None:
        return f"{'an' if kind[:1] in 'AEIOU' else 'a'} {kind}"
    if kind in ("LocalQueue", "Workload"):
        ns = meta.get("namespace") if isinstance(meta, dict) else None
        return f"{kind} {ns if isinstance(ns, str) and ns else 'default'}/{name}"
    return f"{kind} {name}"


# What the CRD's schema refuses (crd.refusals, validate's PRIO622) that the loader does not read
# for itself: a string's pattern (a quantity's apart: the loader reads quantities, and refuses a
# bad one in its own words) or length, a map's size. Where objects are skipped such an object is
# one too (it never reached the cluster); a strict load leaves them to PRIO622, which says them
# all, so that PRIO621 still finds the loader's first refusal beyond them.
_UNREAD = frozenset(("pattern", "minLength", "maxLength", "maxProperties"))


def _unread_refusal(r: _Reader, path, obj, written=None, version: str | None = None, doc=None) -> None:
    """`obj`'s refusals the loader does not read for itself; a converted v1beta1 object's of it
    as `written` in `doc`, the document as written, where they are placed (their paths are its)."""
    from prio.kueue import crd

    kind = obj.get("kind") if isinstance(obj, dict) else None
    if not isinstance(kind, str):
        return  # (add refuses it in its words)
    if doc is not None:
        r = _Reader(r.name, doc)
    for v in crd.refusals(kind, obj if written is None else written, version or crd.VERSION):
        if v.keyword in _UNREAD and not (v.keyword == "pattern" and v.schema.get("type") == crd.QUANTITY_TYPES):
            r.refuse(path + v.path, crd.said(v))


def _skipping(skipped: list | None, b: _Builder, read, r: _Reader, path, obj, *more):
    """read(r, path, obj, *more) whole (_Builder.read_whole), or None where the API server refuses
    the object and `skipped` collects such objects (a Configuration is never skipped: Kueue would
    not start with it)."""
    if skipped is None:
        return read(r, path, obj, *more)
    try:
        return b.read_whole(read, r, path, obj, *more)
    except APIRefusal as e:
        if isinstance(obj, dict) and obj.get("kind") == "Configuration":
            raise
        skip = Skipped(obj, e)
        skipped.append(skip)
        if skip.kind is not None and skip.name is not None:
            b.skipped.setdefault((skip.kind, skip.name), e)
        return None


def load(docs: list, skipped: list | None = None) -> Setup:
    """docs: (file name, Document) pairs holding Kueue objects (and PriorityClasses, Namespaces).
    The objects of every file are counted against the objects cap (prio.io.caps) before one is
    read.

    `skipped`: None, the first refusal of the API server's (an APIRefusal) ends the load, as
    validate's PRIO621 reads it; a list, each object the API server refuses is left out of the
    setup (as the cluster never admitted it) and appended there as a Skipped, in the order
    written (their labels in the Setup's `skipped`), and the rest is read as if it were absent. What is not one object's refusal (prio's
    own needs of its inputs, a Cohort cycle, the objects cap, a second definition) still ends
    the load; with every ClusterQueue and Workload skipped, nothing is left to schedule (an
    InputError at the first of them)."""
    from prio.io import caps
    from prio.kueue.convert import Converted
    from prio.kueue.crd import converted

    docs = [(name, converted(doc)) for name, doc in docs]  # a v1beta1 object as Kueue serves it
    b = _Builder()
    for _, doc in docs:
        if isinstance(doc, Converted):
            for obj, written, _ in doc.objects():
                b.written[id(obj)] = (written, "v1beta1", doc.original)
    names = []
    objects = []
    limit = caps.OBJECTS.value()
    before = 0  # the objects of the files before this one
    for name, doc in docs:
        if names and name != names[-1]:
            before = len(objects)
        names.append(name)
        r = _Reader(name, doc)
        for path, obj in items_of(name, doc):
            objects.append((r, path, obj))
            if len(objects) > limit:
                r.fail(path, caps.OBJECTS.exceeded(len(objects), caps.in_total(before), "Kueue objects"))
    add = b.add if skipped is None else b.admit
    for r, path, obj in objects:
        _skipping(skipped, b, add, r, path, obj)
    s = b.setup
    seen = {}
    for r, path, obj, line, times in b.workload_docs:
        finished = len(b.noted.get("finished", ()))
        wl = _skipping(skipped, b, b.workload, r, path, obj, line)
        if wl is None:
            if len(b.noted.get("finished", ())) > finished:  # left out, but its times still bound the replay's now
                for t in times:
                    b._see_time(t)
            continue
        if wl.key in seen:
            r.fail(path, f"Workload {wl.key} is defined twice")
        seen[wl.key] = wl
        s.workloads.append(wl)
        for t in times:
            b._see_time(t)
    if skipped:  # in the order written (a Workload's refusal is found once every object is read, PriorityClasses first)
        files = {name: i for i, name in reversed(list(enumerate(names)))}
        skipped.sort(key=lambda x: (files.get(x.error.file, -1), x.error.line or 0, x.error.column or 0))
    # Cohorts named by a ClusterQueue or a Cohort exist even when not written.
    for cq in s.cluster_queues.values():
        if cq.cohort and cq.cohort not in s.cohorts:
            s.cohorts[cq.cohort] = Cohort(cq.cohort, declared=False)
    for c in list(s.cohorts.values()):
        if c.parent and c.parent not in s.cohorts:
            s.cohorts[c.parent] = Cohort(c.parent, declared=False)
    _refuse_cohort_cycle(b)
    for r, path, flavor, topo in b.topology_refs:
        if topo not in s.topologies:
            r.fail(path, f"ResourceFlavor {flavor} names Topology {topo}, which is not among the inputs{b.skipped_one('Topology', topo)}")
    tas_flavors = {f.name for f in s.flavors.values() if f.topology_name}
    if tas_flavors and s.nodes:
        b.note("tas-other-pods", f"the nodes of ResourceFlavor {', '.join(sorted(tas_flavors))}")
    for wl in s.workloads:
        lq = s.local_queues.get((wl.namespace, wl.queue_name))
        if wl.admission is not None and (("ClusterQueue", wl.admission.cluster_queue) in b.draining
                                         or (lq is not None and ("LocalQueue", lq.namespace, lq.name) in b.draining)):
            b.note("hold-and-drain", f"Workload {wl.key}")
    for lq in s.local_queues.values():
        s.namespaces.setdefault(lq.namespace, {})
    # Every namespace, written or only named by a LocalQueue or Workload, with the label the API
    # server sets (a namespaceSelector may select by name).
    s.namespaces = {ns: namespace.labels(ns, written) for ns, written in s.namespaces.items()}
    if not s.cluster_queues and not s.workloads:
        needed = [x for x in skipped or () if x.kind in ("ClusterQueue", "Workload")]
        if needed:
            e = needed[0].error
            raise InputError(e.file, f"nothing to schedule: the API server refuses every ClusterQueue and Workload of the "
                                     f"inputs ({len(needed)} skipped; the first, {needed[0].label}: {needed[0].reason})",
                             e.line, e.column)
        raise InputError(names[0] if names else "-", "Kueue objects without a ClusterQueue or a Workload: nothing to schedule")
    s.skipped = [x.label for x in skipped or ()]
    s.clock_start = max(CLOCK_START, (b.latest + 60) if b.latest is not None else CLOCK_START)
    waiting = [who for who, when in b.backoff if when is None or when > s.clock_start]
    for who in waiting:
        b.note("backoff", who)
    s.notes = [features.note(f.id, b.noted[f.id]) for f in features.FEATURES if f.id in b.noted]
    s.source = ", ".join(dict.fromkeys(names))
    return s
