"""May this pod go on this node? The node predicates YuniKorn's Kubernetes shim runs for the core
(yunikorn-k8shim pkg/plugin/predicates/predicate_manager.go: every PreFilter plugin of the
default kube-scheduler profile, then every Filter plugin, in profile order, the first failure
wins), for the four plugins that look at the node alone: NodeAffinity (its PreFilter's node-name
set, its Filter's nodeSelector and required node affinity), NodeUnschedulable, NodeName and
TaintToleration. The matching is component-helpers' (scheduling/corev1: FindMatchingUntoleratedTaint,
nodeaffinity.GetRequiredNodeAffinity(pod).Match) and k8s.io/api's Toleration.ToleratesTaint; the
messages are kube-scheduler's, word for word, as `kubectl describe pod` shows them.

Pod (anti-)affinity, topology spread, host ports and volumes are other plugins: not modelled
here (the loaders say so where a pod uses them).

Pure: no I/O. `constraints` and `taints` turn Kubernetes' JSON shapes into frozen values (a
ValueError names what is wrong, for the loader to place); `verdict` judges one (pod, node);
`Judge` memoises the verdicts of a set of nodes per distinct pod constraints, which is what a
run over many pods needs: pods repeat a few shapes, so each shape is judged once per node.
"""
from __future__ import annotations

import json
import re
from typing import NamedTuple

# ---- what the pod asks for --------------------------------------------------------------------

OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")  # NodeSelectorOperator
NAME_FIELD = "metadata.name"  # the only node field extractNodeFields sets
UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"  # v1.TaintNodeUnschedulable
HARD_EFFECTS = ("NoSchedule", "NoExecute")  # DoNotScheduleTaintsFilterFunc: PreferNoSchedule never closes a node


class Requirement(NamedTuple):
    """One NodeSelectorRequirement, as written."""

    key: str
    operator: str
    values: tuple


class Term(NamedTuple):
    """One NodeSelectorTerm: its matchExpressions and matchFields, ANDed."""

    expressions: tuple  # Requirement
    fields: tuple  # Requirement


class Toleration(NamedTuple):
    key: str
    operator: str  # "" (Equal), Equal, Exists, or anything else (tolerates nothing)
    value: str
    effect: str
    seconds: int | None  # tolerationSeconds: carried, plays no part in scheduling


class Taint(NamedTuple):
    key: str
    value: str
    effect: str


class Constraints(NamedTuple):
    """What a pod says about its node. `selector`: spec.nodeSelector as sorted (key, value)
    pairs, None when absent (an empty {} is not absent: NodeAffinity's PreFilter then runs);
    `required`: the required node affinity's terms, None when there is none; `preferred`: the
    preferred terms, carried as written (plain JSON text) and never judged; `node_name`:
    spec.nodeName. (A YuniKorn DaemonSet pod's required node is its ask's, snapshot.Ask:
    Judge takes it beside these.)"""

    selector: tuple | None = None
    required: tuple | None = None
    tolerations: tuple = ()
    node_name: str = ""
    preferred: str = ""


NONE = Constraints()  # a pod that says nothing about its node (taints still close nodes to it)


class Verdict(NamedTuple):
    """Why a node fails a pod: `stage` PreFilter or Filter; `plugin` the kube-scheduler plugin;
    `shim_plugin` the name the shim returns with the error (empty where a PreFilter plugin
    rejects the pod outright); `reason` Kubernetes' message; `code` prio's stable name."""

    stage: str
    plugin: str
    shim_plugin: str
    reason: str
    code: str


NOT_ELIGIBLE = Verdict("PreFilter", "NodeAffinity", "NodeAffinity", "node not eligible", "NodeNotEligible")
CONFLICT = Verdict("PreFilter", "NodeAffinity", "", "pod affinity terms conflict", "AffinityConflict")
UNSCHEDULABLE = Verdict("Filter", "NodeUnschedulable", "NodeUnschedulable", "node(s) were unschedulable", "NodeUnschedulable")
NAME_MISMATCH = Verdict("Filter", "NodeName", "NodeName", "node(s) didn't match the requested node name", "NodeNameMismatch")
SELECTOR_MISMATCH = Verdict("Filter", "NodeAffinity", "NodeAffinity", "node(s) didn't match Pod's node affinity/selector",
                            "NodeSelectorMismatch")
TAINT_CODE = "TaintNotTolerated"
# not a plugin's: the core places an ask with a required node there or nowhere
OTHER_NODE = Verdict("", "", "", "not the pod's required node", "RequiredNodeMismatch")
CODES = ("NodeNotEligible", "AffinityConflict", "NodeUnschedulable", "NodeNameMismatch", TAINT_CODE, "NodeSelectorMismatch",
         "RequiredNodeMismatch")


def untolerated(taint: Taint) -> Verdict:
    """TaintToleration's failure for `taint`: its key and value (empty when it has none)."""
    return Verdict("Filter", "TaintToleration", "TaintToleration",
                   f"node(s) had untolerated taint {{{taint.key}: {taint.value}}}", TAINT_CODE)


# ---- reading Kubernetes' shapes (already parsed JSON) -----------------------------------------

def _str(v, where: tuple) -> str:
    if v is None:
        return ""
    if not isinstance(v, str):
        raise ValueError(where, f"{where[-1]} must be a string, found {v!r}")
    return v


def _list(v, where: tuple) -> list:
    if v is None:
        return []
    if not isinstance(v, list):
        raise ValueError(where, f"{where[-1]} must be a list, found {type(v).__name__}")
    return v


def _requirement(r, where: tuple) -> Requirement:
    if not isinstance(r, dict):
        raise ValueError(where, "a node selector requirement is a mapping (key, operator, values)")
    vs = _list(r.get("values"), where + ("values",))
    values = tuple(_str(x, where + ("values", i)) for i, x in enumerate(vs))
    return Requirement(_str(r.get("key"), where + ("key",)), _str(r.get("operator"), where + ("operator",)), values)


def _term(t, where: tuple) -> Term:
    if t is None:
        return Term((), ())
    if not isinstance(t, dict):
        raise ValueError(where, "a node selector term is a mapping (matchExpressions, matchFields)")
    return Term(tuple(_requirement(r, where + ("matchExpressions", i))
                      for i, r in enumerate(_list(t.get("matchExpressions"), where + ("matchExpressions",)))),
                tuple(_requirement(r, where + ("matchFields", i))
                      for i, r in enumerate(_list(t.get("matchFields"), where + ("matchFields",)))))


def constraints(node_selector=None, node_affinity=None, tolerations=None, node_name=None) -> Constraints:
    """A pod's Constraints from spec.nodeSelector, spec.affinity.nodeAffinity, spec.tolerations
    and spec.nodeName as Kubernetes writes them. A ValueError (where, what) on a wrong shape:
    `where` is the field's path, a tuple (e.g. ("tolerations", 1, "key")); node affinity's
    fields start with "affinity"."""
    selector = None
    if node_selector is not None:
        if not isinstance(node_selector, dict):
            raise ValueError(("nodeSelector",), "nodeSelector must be a mapping of label to value")
        selector = tuple(sorted((str(k), _str(v, ("nodeSelector", k))) for k, v in node_selector.items()))
    required, preferred = None, ""
    if node_affinity is not None:
        if not isinstance(node_affinity, dict):
            raise ValueError(("affinity",), "nodeAffinity must be a mapping")
        req = node_affinity.get("requiredDuringSchedulingIgnoredDuringExecution")
        if req is not None:
            if not isinstance(req, dict):
                raise ValueError(("affinity", "requiredDuringSchedulingIgnoredDuringExecution"),
                                 "requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms")
            where: tuple = ("affinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
            required = tuple(_term(t, where + (i,)) for i, t in enumerate(_list(req.get("nodeSelectorTerms"), where)))
        pref = node_affinity.get("preferredDuringSchedulingIgnoredDuringExecution")
        if pref is not None:  # carried as written, as text (hashable)
            preferred = json.dumps(pref, sort_keys=True)
    tols = []
    for i, t in enumerate(_list(tolerations, ("tolerations",))):
        where = ("tolerations", i)
        if not isinstance(t, dict):
            raise ValueError(where, "a toleration is a mapping (key, operator, value, effect)")
        secs = t.get("tolerationSeconds")
        if secs is not None and (not isinstance(secs, int) or isinstance(secs, bool)):
            raise ValueError(where + ("tolerationSeconds",), f"tolerationSeconds must be a whole number, found {secs!r}")
        key, op, val, effect = (_str(t.get(k), where + (k,)) for k in ("key", "operator", "value", "effect"))
        tols.append(Toleration(key, op, val, effect, secs))
    return Constraints(selector, required, tuple(tols), _str(node_name, ("nodeName",)), preferred)


def taints(value) -> tuple:
    """A node's spec.taints as Taints, in the node's order."""
    out = []
    for i, t in enumerate(_list(value, ("taints",))):
        if not isinstance(t, dict):
            raise ValueError(("taints", i), "a taint is a mapping (key, value, effect)")
        out.append(Taint(*(_str(t.get(k), ("taints", i, k)) for k in ("key", "value", "effect"))))
    return tuple(out)


def labels(value) -> dict:
    """A node's metadata.labels as a dict of strings."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(("labels",), "labels must be a mapping of label to value")
    return {str(k): _str(v, ("labels", k)) for k, v in value.items()}


# ---- writing them back, as Kubernetes writes them ---------------------------------------------

def _requirement_doc(r: Requirement) -> dict:
    out: dict = {"key": r.key, "operator": r.operator}
    if r.values:
        out["values"] = list(r.values)
    return out


def affinity_doc(c: Constraints) -> dict | None:
    """The pod's affinity.nodeAffinity as Kubernetes writes it, or None when it has none."""
    out: dict = {}
    if c.required is not None:
        terms = []
        for t in c.required:
            d: dict = {}
            if t.expressions:
                d["matchExpressions"] = [_requirement_doc(r) for r in t.expressions]
            if t.fields:
                d["matchFields"] = [_requirement_doc(r) for r in t.fields]
            terms.append(d)
        out["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": terms}
    if c.preferred:
        out["preferredDuringSchedulingIgnoredDuringExecution"] = json.loads(c.preferred)
    return out or None


def tolerations_doc(c: Constraints) -> list:
    out = []
    for t in c.tolerations:
        d = {k: v for k, v in (("key", t.key), ("operator", t.operator), ("value", t.value), ("effect", t.effect)) if v}
        if t.seconds is not None:
            d["tolerationSeconds"] = t.seconds
        out.append(d)
    return out


def taints_doc(ts) -> list:
    return [{k: v for k, v in (("key", t.key), ("value", t.value), ("effect", t.effect)) if v} for t in ts]


# ---- the matching (component-helpers, k8s.io/api, apimachinery's labels) -----------------------

def tolerates(t: Toleration, taint: Taint) -> bool:
    """v1.Toleration.ToleratesTaint: effect empty or equal, key empty or equal, then Exists
    tolerates any value, Equal (or no operator) an equal value; any other operator (Gt, Lt:
    their feature gate is off by default) nothing."""
    if t.effect and t.effect != taint.effect:
        return False
    if t.key and t.key != taint.key:
        return False
    if t.operator in ("", "Equal"):
        return t.value == taint.value
    return t.operator == "Exists"


def first_untolerated(node_taints, tols) -> Taint | None:
    """FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc: the first NoSchedule or
    NoExecute taint, in the node's order, that no toleration tolerates."""
    for taint in node_taints:
        if taint.effect in HARD_EFFECTS and not any(tolerates(t, taint) for t in tols):
            return taint
    return None


_INT = re.compile(r"[+-]?[0-9]+\Z")
_INT64 = 1 << 63


def go_int(s: str) -> int | None:
    """strconv.ParseInt(s, 10, 64): an optional sign and decimal digits in int64's range (no
    spaces, no underscores), else None."""
    if not _INT.match(s):
        return None
    v = int(s)
    return v if -_INT64 <= v < _INT64 else None


_NAME = re.compile(r"([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)\Z")
_DNS1123 = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")


def _label_key_ok(k: str) -> bool:
    """validation.IsQualifiedName: an optional DNS subdomain prefix and '/', then a name of at
    most 63 characters."""
    prefix, _, name = k.rpartition("/")
    if "/" in k and (not prefix or len(prefix) > 253 or not _DNS1123.match(prefix)):
        return False
    return 0 < len(name) <= 63 and bool(_NAME.match(name))


def _label_value_ok(v: str) -> bool:
    """validation.IsValidLabelValue: empty, or at most 63 characters of the name pattern."""
    return v == "" or (len(v) <= 63 and bool(_NAME.match(v)))


def _expression_ok(r: Requirement) -> bool:
    """labels.NewRequirement accepts it (nodeSelectorRequirementsAsSelector): a known operator,
    a valid key, In/NotIn with values, Exists/DoesNotExist without, Gt/Lt with one integer."""
    if r.operator not in OPERATORS or not _label_key_ok(r.key):
        return False
    if r.operator in ("In", "NotIn"):
        ok = len(r.values) > 0
    elif r.operator in ("Exists", "DoesNotExist"):
        ok = not r.values
    else:
        ok = len(r.values) == 1 and go_int(r.values[0]) is not None
    return ok and all(_label_value_ok(v) for v in r.values)


def _expression_matches(r: Requirement, node_labels: dict) -> bool:
    """labels.Requirement.Matches."""
    op = r.operator
    if op == "In":
        return r.key in node_labels and node_labels[r.key] in r.values
    if op == "NotIn":
        return r.key not in node_labels or node_labels[r.key] not in r.values
    if op == "Exists":
        return r.key in node_labels
    if op == "DoesNotExist":
        return r.key not in node_labels
    if r.key not in node_labels:
        return False
    have, want = go_int(node_labels[r.key]), go_int(r.values[0])
    if have is None or want is None:
        return False
    return have > want if op == "Gt" else have < want


def _field_matches(r: Requirement, node_name: str):
    """nodeSelectorRequirementsAsFieldSelector and its match on the node's fields (only
    metadata.name is set): None when the requirement does not parse (one value, In or NotIn)."""
    if len(r.values) != 1 or r.operator not in ("In", "NotIn"):
        return None
    have = node_name if r.key == NAME_FIELD else ""
    return (have == r.values[0]) == (r.operator == "In")


def _term_matches(t: Term, node_labels: dict, node_name: str) -> bool:
    """nodeSelectorTerm.match: a term with no requirements, or one that does not parse, matches
    nothing; its expressions and fields are ANDed."""
    if not t.expressions and not t.fields:
        return False
    for r in t.expressions:
        if not _expression_ok(r):
            return False
    fields = [_field_matches(r, node_name) for r in t.fields]
    if None in fields:
        return False
    return all(_expression_matches(r, node_labels) for r in t.expressions) and all(fields)


def affinity_matches(c: Constraints, node_labels: dict, node_name: str) -> bool:
    """RequiredNodeAffinity.Match: every nodeSelector label equal, and some required term
    matching (when there are required terms; none at all matches nothing)."""
    if c.selector:
        for k, v in c.selector:
            if k not in node_labels or node_labels[k] != v:
                return False
    if c.required is None:
        return True
    return any(_term_matches(t, node_labels, node_name) for t in c.required)


def eligible_names(c: Constraints) -> frozenset | None:
    """NodeAffinity's PreFilter node-name set: None when every node is eligible (no required
    affinity, or a term without a `metadata.name In` field); else the union over the terms of
    each term's intersection of its `metadata.name In` values (empty: the terms conflict)."""
    if c.required is None:
        return None
    names: set | None = None
    for t in c.required:
        term: set | None = None
        for r in t.fields:
            if r.key == NAME_FIELD and r.operator == "In":
                term = set(r.values) if term is None else term & set(r.values)
        if term is None:
            return None
        names = term if names is None else names | term
    return None if names is None else frozenset(names)


def verdict(c: Constraints, name: str, node_labels: dict, node_taints, unschedulable: bool) -> Verdict | None:
    """The shim's predicates for pod constraints `c` on one node (its name, labels, taints and
    spec.unschedulable): None when the node passes, else the first failure in the plugins'
    order (NodeAffinity's PreFilter, NodeUnschedulable, NodeName, TaintToleration,
    NodeAffinity's Filter)."""
    prefilter = c.selector is not None or c.required is not None  # else NodeAffinity skips (PreFilter and Filter)
    if prefilter:
        names = eligible_names(c)
        if names is not None:
            if not names:
                return CONFLICT
            if name not in names:
                return NOT_ELIGIBLE
    if unschedulable and not any(tolerates(t, Taint(UNSCHEDULABLE_TAINT, "", "NoSchedule")) for t in c.tolerations):
        return UNSCHEDULABLE
    if c.node_name and c.node_name != name:
        return NAME_MISMATCH
    taint = first_untolerated(node_taints, c.tolerations)
    if taint is not None:
        return untolerated(taint)
    if prefilter and not affinity_matches(c, node_labels, name):
        return SELECTOR_MISMATCH
    return None


class Judge:
    """The verdicts of a list of nodes (objects with name, labels, taints, schedulable) per
    distinct pod Constraints (and required node: `only`, the node a YuniKorn DaemonSet pod must
    go on; the others then refuse it as OTHER_NODE where the predicates pass them), worked out
    once per shape for every node: `verdicts` a tuple in node order (None where the node passes),
    `passing` a tuple of booleans (None when every node passes), `refusals` (node name, plugin,
    reason, code) of the nodes that refuse (a verdict's stage and shim plugin are verdict's). Memoised by the Constraints object (then by value),
    so a run of many pods sharing a few shapes judges each shape once."""

    def __init__(self, nodes):
        self.nodes = list(nodes)
        self._facts = [(n.name, getattr(n, "labels", None) or {}, getattr(n, "taints", None) or (),
                        not getattr(n, "schedulable", True)) for n in self.nodes]
        self._by_id: dict = {}  # (id(constraints), only) -> (constraints, judged)
        self._by_value: dict = {}  # (constraints, only) -> (verdicts, passing, refusals)
        # whether a pod without constraints can fail a node YuniKorn offers (a hard taint; a
        # cordoned node is never offered): else such a pod passes everywhere it can go
        self.closing = any(t.effect in HARD_EFFECTS for _, _, ts, off in self._facts if not off for t in ts)

    def _judged(self, c: Constraints | None, only: str) -> tuple:
        c = c or NONE
        key = (id(c), only)
        got = self._by_id.get(key)
        if got is not None and got[0] is c:
            return got[1]
        val = self._by_value.get((c, only))
        if val is None:
            # the predicates' own answer first, on every node (what the shim would say of it)
            vs = tuple(verdict(c, *f) or (OTHER_NODE if only and f[0] != only else None) for f in self._facts)
            val = self._by_value[(c, only)] = (
                vs, None if all(v is None for v in vs) else tuple(v is None for v in vs),
                tuple((f[0], v.plugin, v.reason, v.code) for f, v in zip(self._facts, vs) if v is not None))
        self._by_id[key] = (c, val)
        return val

    def refusals(self, c: Constraints | None, only: str = "") -> tuple:
        return self._judged(c, only)[2]

    def passing(self, c: Constraints | None, only: str = ""):
        """None where every node passes; None at once for a pod without constraints or required
        node where no node has a hard taint (a cordoned node is YuniKorn's to skip, not this)."""
        if c is None and not only and not self.closing:
            return None
        return self._judged(c, only)[1]
