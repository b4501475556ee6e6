"""Lint Kueue setups (`kueue.x-k8s.io/v1beta2` ResourceFlavor, Cohort, ClusterQueue, LocalQueue,
WorkloadPriorityClass, Workload; with PriorityClasses and Namespaces), family `kueue`.

Two targets. `kueue` is one object: what Kueue's API server refuses (the CRD schema's
patterns, enums, types, required fields and CEL rules, and the validating webhooks of
`pkg/webhooks`), each an error (PRIO601-PRIO610, PRIO622). `kueue-set` is every Kueue object of the run together: what the API server
accepts but cannot work (a ClusterQueue naming a ResourceFlavor that does not exist is inactive,
a LocalQueue for a missing ClusterQueue admits nothing, ...), each a warning unless prio could not
model the setup either (PRIO611-PRIO620). The set is the files named on the command line: a
reference is checked against the objects among them, so validate the whole setup at once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from prio.diagnostics import Issue
from prio.io.document import Document
from prio.lint import objects, registry
from prio.lint.objects import Obj
from prio.lint.registry import check, run

FAMILY = "kueue"
registry.target("kueue", "one Kueue object (ResourceFlavor, Cohort, ClusterQueue, LocalQueue, ...): its Document")
registry.target("kueue-set", "every Kueue object of the run, with its PriorityClasses and Namespaces: prio.kueue.lint.KueueSet")
KINDS = ("ResourceFlavor", "Cohort", "ClusterQueue", "LocalQueue", "WorkloadPriorityClass", "Workload")

# The effects a ResourceFlavor's nodeTaints and tolerations take: a CEL rule of the CRD
# (`x-kubernetes-validations`), which the schema check leaves to this rule.
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
QUANTITIES = ("nominalQuota", "borrowingLimit", "lendingLimit")  # a quota entry's quantities (PRIO608)
# What v1beta1 called a field v1beta2 renamed: the likeliest meaning of an unknown key.
_RENAMED = {"cohort": "cohortName", "parent": "parentName"}


@dataclass
class KueueSet:
    """Every object of the run, by kind (the first of each name wins, as the last `kubectl apply`
    would not: a name given twice is the loader's error, not a setting)."""

    objects: list = field(default_factory=list)
    units: list = field(default_factory=list)  # (file name, Document): the documents as read, for the loader

    def of(self, kind: str) -> list:
        return [o for o in self.objects if o.kind == kind]

    def names(self, kind: str) -> dict:
        out: dict = {}
        for o in self.of(kind):
            out.setdefault(o.name, o)
        return out

    @property
    def fair_sharing(self) -> bool:
        return any(o.kind == "Configuration" and "fairSharing" in o.data for o in self.objects)


def _str(v) -> str | None:
    return v if isinstance(v, str) and v else None


def _obj(file: str, doc: Document) -> Obj | None:
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        return None
    return objects.of(file, doc, data)


def kueue_set(units) -> KueueSet:
    """units: (file name, Document) of every Kueue object, PriorityClass and Namespace of the run,
    each v1beta1 object as Kueue serves it (prio.kueue.convert: v1beta2, positions as written)."""
    from prio.kueue.crd import converted

    units = [(f, converted(d)) for f, d in units]
    return KueueSet([o for o in (_obj(f, d) for f, d in units) if o is not None], units)


def _groups(spec: dict):
    """(path, group) of spec.resourceGroups, and (path, flavor) within, for mappings only."""
    groups = spec.get("resourceGroups")
    for i, g in enumerate(groups if isinstance(groups, list) else []):
        if isinstance(g, dict):
            yield ("spec", "resourceGroups", i), g


def _flavors(group: dict):
    fl = group.get("flavors")
    for j, f in enumerate(fl if isinstance(fl, list) else []):
        if isinstance(f, dict):
            yield ("flavors", j), f


def _covered(group: dict) -> list:
    """A group's coveredResources that are names (other shapes are the schema's to refuse)."""
    c = group.get("coveredResources")
    return [r for r in c if isinstance(r, str)] if isinstance(c, list) else []


def _quotas(spec: dict):
    """(path, group, flavor, quota) for every quota entry of the object's resource groups."""
    for gp, g in _groups(spec):
        for fp, f in _flavors(g):
            rs = f.get("resources")
            for k, q in enumerate(rs if isinstance(rs, list) else []):
                if isinstance(q, dict):
                    yield gp + fp + ("resources", k), g, f, q


def _qty(v):
    """A quantity as a Decimal, or None when it does not parse."""
    from prio.kube import quantity as kq

    try:
        return kq.parse(v)
    except kq.QuantityError:
        return None


def _kueue_obj(doc: Document) -> Obj | None:
    o = _obj("", doc)
    return o if o is not None and o.kind in KINDS else None


# ---- what the API server refuses ----------------------------------------------------------------

@check("PRIO601", "kueue-limit-without-cohort", "error", FAMILY, target="kueue")
def limit_without_cohort(doc: Document) -> list:
    """A borrowingLimit or lendingLimit on a ClusterQueue without a cohort (or a Cohort without a parent).

    The limits bound what a ClusterQueue borrows from, or lends to, the rest of its cohort: with
    no cohort there is nothing to borrow from or lend to, and Kueue's API server refuses the
    object ("borrowingLimit must be nil when cohort is empty"). A Cohort's limits are towards its
    parent Cohort and are refused the same way without `parentName`.

    Example (error):
        kind: ClusterQueue
        spec:
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: default
              resources: [{name: cpu, nominalQuota: 8, borrowingLimit: 4}]
    Fix: put the ClusterQueue in a cohort (`cohortName: org`), or remove the limit.
    """
    o = _kueue_obj(doc)
    if o is None or o.kind not in ("ClusterQueue", "Cohort"):
        return []
    link = "cohortName" if o.kind == "ClusterQueue" else "parentName"
    if _str(o.spec.get(link)):
        return []
    out = []
    for path, _, _, q in _quotas(o.spec):
        for limit in ("borrowingLimit", "lendingLimit"):
            if q.get(limit) is not None:
                out.append(Issue("PRIO601", ("spec",) + path[1:] + (limit,),
                                 f"{limit} on {o.kind} {o.name} without spec.{link}: Kueue refuses it (the limit is "
                                 f"towards the {'cohort' if o.kind == 'ClusterQueue' else 'parent Cohort'}, and there is none)",
                                 fix=f"set spec.{link}, or remove {limit}"))
    return out


@check("PRIO602", "kueue-lending-limit-above-nominal", "error", FAMILY, target="kueue")
def lending_limit_above_nominal(doc: Document) -> list:
    """A ClusterQueue's lendingLimit is above its nominalQuota.

    A ClusterQueue can lend at most the quota it has; Kueue's webhook refuses a lendingLimit
    greater than the nominalQuota of the same flavor and resource. (A Cohort's lendingLimit may
    exceed its own nominalQuota: it lends its children's quota too.)

    Example (error):
        resources: [{name: cpu, nominalQuota: 4, lendingLimit: 6}]
    Fix: a lendingLimit of at most the nominalQuota (4 here: everything may be lent).
    """
    o = _kueue_obj(doc)
    if o is None or o.kind != "ClusterQueue":
        return []
    out = []
    for path, _, _, q in _quotas(o.spec):
        lend, nominal = _qty(q.get("lendingLimit")), _qty(q.get("nominalQuota", 0))
        if lend is not None and nominal is not None and lend > nominal:
            out.append(Issue("PRIO602", ("spec",) + path[1:] + ("lendingLimit",),
                             f"lendingLimit {q['lendingLimit']} of {q.get('name')} is above its nominalQuota "
                             f"{q.get('nominalQuota', 0)}: Kueue refuses it", fix=f"a lendingLimit of at most {q.get('nominalQuota', 0)}"))
    return out


@check("PRIO603", "kueue-resources-not-covered-resources", "error", FAMILY, target="kueue")
def resources_not_covered_resources(doc: Document) -> list:
    """A flavor's resources do not list the group's coveredResources, in the same order.

    Kueue reads a resource group as a table: every flavor gives one quota per covered resource,
    in the order of `coveredResources`. The API server refuses a flavor with more or fewer
    resources ("flavors must have the same number of resources as the coveredResources") and
    one whose i-th resource is not the i-th covered one ("must match the name in
    coveredResources").

    Example (error):
        - coveredResources: [cpu, memory]
          flavors:
          - name: default
            resources: [{name: memory, nominalQuota: 64Gi}, {name: cpu, nominalQuota: 16}]
    Fix: one entry per covered resource, in the same order (cpu, then memory).
    """
    o = _kueue_obj(doc)
    if o is None or o.kind not in ("ClusterQueue", "Cohort"):
        return []
    out = []
    for gp, g in _groups(o.spec):
        covered = g.get("coveredResources") if isinstance(g.get("coveredResources"), list) else []
        for fp, f in _flavors(g):
            rs = f.get("resources") if isinstance(f.get("resources"), list) else []
            names = [r.get("name") if isinstance(r, dict) else None for r in rs]
            if len(rs) != len(covered):
                out.append(Issue("PRIO603", gp + fp + ("resources",),
                                 f"flavor {f.get('name')} gives {len(rs)} resource{'s' if len(rs) != 1 else ''} for "
                                 f"{len(covered)} covered ({', '.join(map(str, covered)) or 'none'}): Kueue refuses it",
                                 fix=f"one entry per covered resource, in order: {', '.join(map(str, covered))}"))
                continue
            for k, (name, want) in enumerate(zip(names, covered)):
                if name != want:
                    out.append(Issue("PRIO603", gp + fp + ("resources", k, "name"),
                                     f"flavor {f.get('name')}'s resource {k + 1} is {name}, coveredResources has {want} "
                                     "there: Kueue refuses it", fix=f"list the resources in the order of coveredResources: "
                                                                    f"{', '.join(map(str, covered))}"))
    return out


@check("PRIO604", "kueue-duplicate-in-resource-groups", "error", FAMILY, target="kueue")
def duplicate_in_resource_groups(doc: Document) -> list:
    """A resource is covered twice, or a flavor listed twice, across a ClusterQueue's resource groups.

    Each resource and each flavor may belong to one resource group only, once: Kueue's API
    server refuses a duplicate ("Duplicate value"). To give a resource quota in several flavors,
    list the flavors in one group.

    Example (error):
        resourceGroups:
        - coveredResources: [cpu]
          flavors: [{name: on-demand, resources: [{name: cpu, nominalQuota: 8}]}]
        - coveredResources: [cpu]
          flavors: [{name: spot, resources: [{name: cpu, nominalQuota: 8}]}]
    Fix: one group covering cpu with both flavors (on-demand, then spot, in the order to try them).
    """
    o = _kueue_obj(doc)
    if o is None or o.kind not in ("ClusterQueue", "Cohort"):
        return []
    out = []
    seen_r: set = set()
    seen_f: set = set()
    for gp, g in _groups(o.spec):
        covered = g.get("coveredResources") if isinstance(g.get("coveredResources"), list) else []
        for j, r in enumerate(covered):
            if not isinstance(r, str):
                continue
            if r in seen_r:
                out.append(Issue("PRIO604", gp + ("coveredResources", j), f"resource {r} is covered twice: Kueue refuses it",
                                 fix=f"cover {r} in one resource group only"))
            seen_r.add(r)
        for fp, f in _flavors(g):
            n = f.get("name")
            if not isinstance(n, str):
                continue
            if n in seen_f:
                out.append(Issue("PRIO604", gp + fp + ("name",), f"flavor {n} is listed twice: Kueue refuses it",
                                 fix=f"list {n} once, in the group whose resources it gives quota for"))
            seen_f.add(n)
    return out


@check("PRIO605", "kueue-borrow-within-cohort-without-reclaim", "error", FAMILY, target="kueue")
def borrow_without_reclaim(doc: Document) -> list:
    """borrowWithinCohort is enabled while reclaimWithinCohort is Never.

    borrowWithinCohort lets a workload that must borrow preempt lower-priority workloads of other
    ClusterQueues: a kind of reclaim, so Kueue's API server refuses it when reclaiming is off
    ("reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never").

    Example (error):
        preemption:
          borrowWithinCohort: {policy: LowerPriority}
    Fix: `reclaimWithinCohort: Any` (or LowerPriority) too, or drop borrowWithinCohort.
    """
    o = _kueue_obj(doc)
    if o is None or o.kind != "ClusterQueue":
        return []
    p = o.spec.get("preemption") if isinstance(o.spec.get("preemption"), dict) else {}
    b = p.get("borrowWithinCohort") if isinstance(p.get("borrowWithinCohort"), dict) else {}
    if (p.get("reclaimWithinCohort") or "Never") == "Never" and (b.get("policy") or "Never") != "Never":
        return [Issue("PRIO605", ("spec", "preemption", "borrowWithinCohort", "policy"),
                      f"borrowWithinCohort.policy {b.get('policy')} with reclaimWithinCohort Never: Kueue refuses it",
                      fix="set reclaimWithinCohort (Any or LowerPriority), or borrowWithinCohort.policy: Never")]
    return []


@check("PRIO606", "kueue-preference-needs-try-next-flavor", "error", FAMILY, target="kueue")
def preference_needs_try_next(doc: Document) -> list:
    """flavorFungibility.preference is set without both whenCanBorrow and whenCanPreempt TryNextFlavor.

    `preference` chooses between borrowing and preempting after every flavor has been tried; it
    means something only when Kueue goes on to the next flavor in both cases, and the API server
    refuses it otherwise (the defaults are whenCanBorrow: MayStopSearch, whenCanPreempt:
    TryNextFlavor).

    Example (error):
        flavorFungibility:
          preference: BorrowingOverPreemption
    Fix: `whenCanBorrow: TryNextFlavor` and `whenCanPreempt: TryNextFlavor` with it, or no preference.
    """
    o = _kueue_obj(doc)
    if o is None or o.kind != "ClusterQueue":
        return []
    ff = o.spec.get("flavorFungibility") if isinstance(o.spec.get("flavorFungibility"), dict) else {}
    if ff.get("preference") is None:
        return []
    b, p = ff.get("whenCanBorrow") or "MayStopSearch", ff.get("whenCanPreempt") or "TryNextFlavor"
    if b == p == "TryNextFlavor":
        return []
    return [Issue("PRIO606", ("spec", "flavorFungibility", "preference"),
                  f"preference {ff['preference']} with whenCanBorrow {b} and whenCanPreempt {p}: Kueue refuses it "
                  "(both must be TryNextFlavor)", fix="set whenCanBorrow and whenCanPreempt to TryNextFlavor, or remove preference")]


def _at(data, path):
    for p in path:
        if not isinstance(data, dict):
            return None
        data = data.get(p)
    return data


@check("PRIO607", "kueue-unknown-value", "error", FAMILY, target="kueue")
def unknown_value(doc: Document) -> list:
    """A Kueue setting has a value its CRD does not accept.

    queueingStrategy, stopPolicy, the preemption policies, flavorFungibility and a
    ResourceFlavor's taint effects (every enum of Kueue's CRD schemas, vendored in
    prio/kueue/crds/, and the taint effects of its CEL rule) are enums: the API server refuses any other value, spelling
    and case included (`lowerPriority`, `Always`). Each policy has its own list:
    withinClusterQueue takes LowerOrNewerEqualPriority, reclaimWithinCohort takes Any, and
    borrowWithinCohort.policy neither.

    Example (error):
        preemption:
          withinClusterQueue: Any
    Fix: one of the values the field accepts (withinClusterQueue: Never, LowerPriority or LowerOrNewerEqualPriority).
    """
    from prio.suggest import did_you_mean

    o = _kueue_obj(doc)
    if o is None:
        return []
    out = []
    for v in _violations(o):
        if v.keyword == "enum":
            allowed = tuple(v.expected)
            where = ".".join(str(p) for p in (v.path[1:] if v.path[:1] == ("spec",) else v.path) if isinstance(p, str))
            out.append(Issue("PRIO607", v.path, f"{where} {v.found!r} is not a value Kueue accepts "
                                                f"({', '.join(allowed)}){did_you_mean(str(v.found), allowed)}",
                             fix=f"one of {', '.join(allowed)}"))
    if o.kind == "ResourceFlavor":
        for key in ("nodeTaints", "tolerations"):
            items = o.spec.get(key)
            for i, t in enumerate(items if isinstance(items, list) else []):
                eff = t.get("effect") if isinstance(t, dict) else None
                if eff is not None and (eff not in TAINT_EFFECTS or (key == "nodeTaints" and not eff)):
                    out.append(Issue("PRIO607", ("spec", key, i, "effect"), f"effect {eff!r} is not a taint effect Kueue "
                                                                          f"accepts ({', '.join(TAINT_EFFECTS)})",
                                     fix=f"one of {', '.join(TAINT_EFFECTS)}"))
    return out


@check("PRIO608", "kueue-invalid-quantity", "error", FAMILY, target="kueue")
def invalid_quantity(doc: Document) -> list:
    """A quota, limit or fair-sharing weight is not a quantity, or is negative.

    nominalQuota, borrowingLimit and lendingLimit are Kubernetes quantities ("8", "500m",
    "64Gi") and must not be negative; a fair-sharing weight must not be negative either, and
    one above 0 must be above 1n (10^-9), where Kueue's arithmetic would collapse it to zero.
    The API server refuses each.

    Example (error):
        resources: [{name: memory, nominalQuota: 64GB}]
    Fix: a quantity Kubernetes reads (64Gi, or 64G for 10^9 bytes).
    """
    o = _kueue_obj(doc)
    if o is None or o.kind not in ("ClusterQueue", "Cohort"):
        return []
    from decimal import Decimal

    out = []
    for path, _, _, q in _quotas(o.spec):
        for key in QUANTITIES:
            v = q.get(key)
            if v is None:
                continue
            d = _qty(v)
            if d is None:
                from prio.kube import quantity as kq

                try:
                    kq.parse(v)
                except kq.QuantityError as e:
                    why = str(e)
                out.append(Issue("PRIO608", ("spec",) + path[1:] + (key,), f"{key} of {q.get('name')}: {why}",
                                 fix="a quantity such as 8, 500m or 64Gi"))
            elif d < 0:
                out.append(Issue("PRIO608", ("spec",) + path[1:] + (key,), f"{key} of {q.get('name')} is negative ({v}): "
                                                                           "Kueue refuses it", fix="0 or more"))
    fs = o.spec.get("fairSharing")
    if isinstance(fs, dict) and fs.get("weight") is not None:
        w = _qty(fs["weight"])
        if w is None or w < 0 or Decimal(0) < w <= Decimal("1e-9"):
            out.append(Issue("PRIO608", ("spec", "fairSharing", "weight"),
                             f"fairSharing.weight {fs['weight']!r}: Kueue refuses it (a weight is a quantity, 0 or above 1n)",
                             fix="a weight such as 1, 2 or 0.5; 0 to make the queue yield to every other"))
    return out


@check("PRIO609", "kueue-invalid-name", "error", FAMILY, target="kueue")
def invalid_name(doc: Document) -> list:
    """A Kueue object's name, or a name it refers to, is not a valid Kubernetes name.

    ClusterQueue, Cohort, ResourceFlavor and LocalQueue names, and the references to them
    (`cohortName`, `parentName`, a flavor's `name`, a LocalQueue's `clusterQueue`), must be DNS
    subdomains: lower-case letters, digits, `-` and `.`, starting and ending with a letter or
    digit, at most 253 characters. The API server refuses anything else (`Team_A`, `gpu pool`).

    Example (error):
        kind: ClusterQueue
        spec:
          cohortName: ML_Org
    Fix: a lower-case name such as ml-org, spelled the same wherever it is used.
    """
    from prio.kube.priorityclass import is_dns_subdomain

    o = _kueue_obj(doc)
    if o is None:
        return []
    refs = [(("metadata", "name"), o.data.get("metadata", {}).get("name") if isinstance(o.data.get("metadata"), dict) else None)]
    if o.kind == "ClusterQueue":
        refs.append((("spec", "cohortName"), o.spec.get("cohortName")))
    if o.kind == "Cohort":
        refs.append((("spec", "parentName"), o.spec.get("parentName")))
    if o.kind == "LocalQueue":
        refs.append((("spec", "clusterQueue"), o.spec.get("clusterQueue")))
    if o.kind in ("ClusterQueue", "Cohort"):
        for gp, g in _groups(o.spec):
            for fp, f in _flavors(g):
                refs.append((gp + fp + ("name",), f.get("name")))
    out = []
    for path, v in refs:
        if v is None or v == "":
            continue
        # the CRD's pattern for ClusterQueueReference, CohortReference, ResourceFlavorReference
        if not isinstance(v, str):
            out.append(Issue("PRIO609", path, f"{path[-1]} {v!r} is not a string: Kueue refuses it",
                             fix=f'quote it ("{v}"), or use a name with a letter'))
        elif not is_dns_subdomain(v):
            good = re.sub(r"[^a-z0-9.-]+", "-", v.lower()).strip("-.") or "a-name"
            out.append(Issue("PRIO609", path, f"{path[-1]} {v!r} is not a valid Kubernetes name (lower-case letters, digits, "
                                              "'-' and '.'): Kueue refuses it", fix=f"a name such as {good}"))
    return out


@check("PRIO610", "kueue-unknown-field", "error", FAMILY, target="kueue")
def unknown_field(doc: Document) -> list:
    """A Kueue object has a field the CRD of its version (vendored in prio/kueue/crds/) does not define.

    `kubectl apply` validates strictly by default and refuses the object; with
    `--validate=false` the API server drops the field silently and the setting it meant does
    nothing. The usual cause is v1beta1's spelling in a v1beta2 object: v1beta2 renamed a
    ClusterQueue's `cohort` to `cohortName` (and a Cohort's `parent` is `parentName`); an object
    written in v1beta1 is checked against the v1beta1 CRD (PRIO623), where `cohort` is the field.

    Example (error):
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        spec:
          cohort: org
    Fix: v1beta2's field name (cohortName: org).
    """
    from prio.suggest import did_you_mean

    o = _kueue_obj(doc)
    if o is None:
        return []
    out = []
    for v in _violations(o):
        if v.keyword != "additionalProperties" or not isinstance(v.found, dict):
            continue
        allowed = tuple(v.schema.get("properties", ()))
        parent = next((p for p in reversed(v.path) if isinstance(p, str)), None)
        whose = f"'s {parent}" if parent else ""
        for k in v.found:
            if k in allowed:
                continue
            hint = f"; v1beta2 calls it {_RENAMED[k]}" if _RENAMED.get(k) in allowed else did_you_mean(str(k), allowed)
            out.append(Issue("PRIO610", v.path + (k,), f"{k} is not a field of a {o.kind}{whose}{hint}",
                             at="key", fix=f"v1beta2's name ({_RENAMED[k]})" if _RENAMED.get(k) in allowed
                             else f"one of {', '.join(allowed)}, or remove it"))
    return out


@check("PRIO622", "kueue-schema-refused", "error", FAMILY, target="kueue")
def schema_refused(doc: Document) -> list:
    """A Kueue object breaks its CRD's schema: the API server refuses it.

    Kueue's CRD schemas (vendored in prio/kueue/crds/; the object's own version's) give each field
    a type, some a range (a podSet's `minCount` at least 1), a length (at least one flavor in a
    resource group, a name of at most 253 characters), a pattern, and make some fields required (a
    quota entry's `nominalQuota`, a container's `name`). The API server checks an object against
    them after pruning nulls and applying the schema's defaults, and refuses it with the field's
    path (`kubectl apply` fails: `spec.resourceGroups[0].flavors[0].resources[0].nominalQuota:
    Required value`); the finding says what it says, at the field (a missing field: at the mapping
    that lacks it). simulate and explain refuse such a setup too where they read the field (a
    missing nominalQuota is not taken as 0).

    Not checked here: a value outside an enum (PRIO607), a field the CRD does not define
    (PRIO610), a quota or weight that is not a quantity (PRIO608), a name that is not a DNS
    subdomain (PRIO609); an object's `status` (the API server drops it on create: Kueue writes
    it through the status subresource); `format` (the API server checks the formats of strings
    only, and an int32 field's range is the loader's, PRIO621). The CRDs' CEL rules
    (`x-kubernetes-validations`) are not evaluated: the ones prio knows are its own rules
    (PRIO601, PRIO603, PRIO606, PRIO607's taint effects), the others are not reported. One
    exception to the schema, for the recorded scenarios: a quantity field (`x-kubernetes-int-or-string`)
    given a number with a fraction (`weight: 0.5` unquoted) is not reported, as Kueue's
    decoding reads it; the API server's schema takes an integer or a string there, so quote
    such a number ("0.5") for `kubectl apply`.

    Example (error):
        resources:
        - name: cpu
    Fix: the field with a value of its type (nominalQuota: 8).
    """
    from prio.kueue import crd

    o = _kueue_obj(doc)
    if o is None:
        return []
    refused = _violations(o, crd.refusals)
    if not refused:
        return []
    # a field another rule of the object reports is not said twice
    said = {i.path for rule in (unknown_value, invalid_quantity, invalid_name, unknown_field) for i in rule(doc)}
    out = []
    for v in refused:
        if v.path in said or (v.keyword == "required" and v.path[:-1] in said):
            continue
        if v.keyword == "required":
            out.append(Issue("PRIO622", v.path[:-1], crd.said(v), fix=f"set {v.path[-1]}"))
        else:
            out.append(Issue("PRIO622", v.path, crd.said(v), fix="a value the CRD takes there"))
    return out


@check("PRIO623", "kueue-deprecated-api", "warning", FAMILY, target="kueue")
def deprecated_api(doc: Document) -> list:
    """A Kueue object is written in `kueue.x-k8s.io/v1beta1`, which Kueue deprecates.

    Kueue serves every kind in both versions and stores v1beta2: `kubectl apply` takes a v1beta1
    object with a deprecation warning and Kueue's conversion webhook turns it into v1beta2
    (`cohort` becomes `cohortName`, `admissionChecks` a strategy, `whenCanBorrow: Borrow` and
    `whenCanPreempt: Preempt` become `MayStopSearch`, a Workload's `priorityClassName` with its
    `priorityClassSource` becomes `priorityClassRef`). prio reads it as Kueue serves it, and checks
    it against the v1beta1 CRD as the API server does; the finding says what the conversion
    changed of this object. A release that stops serving v1beta1 refuses the object, and
    `kubectl get` shows the v1beta2 names, not the ones written.

    Example (warning):
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        spec:
          cohort: org
    Fix: apiVersion kueue.x-k8s.io/v1beta2 with v1beta2's names (cohortName: org).
    """
    from prio.kueue import convert

    o = _obj("", doc)  # any kind of Kueue's CRDs (a Topology too)
    if o is None or not isinstance(doc, convert.Converted):
        return []
    found = doc.find(o.data)
    if found is None:
        return []
    said = found[1]
    what = f": Kueue serves it as v1beta2, where {'; '.join(said)}" if said else ": Kueue serves it as v1beta2, the same fields"
    who = f"{o.namespace}/{o.name}" if o.kind in ("LocalQueue", "Workload") else o.name
    return [Issue("PRIO623", ("apiVersion",), f"{o.kind} {who} is written in {convert.V1BETA1}, which Kueue deprecates{what}",
                  fix=f"apiVersion: {convert.V1BETA2}" + (", with v1beta2's names" if said else ""))]


@check("PRIO624", "kueue-unserved-api", "error", FAMILY, target="kueue")
def unserved_api(doc: Document) -> list:
    """A Kueue object is written in a version of `kueue.x-k8s.io` that Kueue does not serve.

    Kueue's CRDs serve v1beta2 (stored) and v1beta1 (deprecated) at the vendored commit: an
    object in another version (`v1alpha1`, where Topology once lived, or a typo) is no resource
    the API server knows, and `kubectl apply` fails (`no matches for kind "Topology" in version
    "kueue.x-k8s.io/v1alpha1"`). simulate, explain and diff leave it out, as the cluster never
    held it (a note).

    Example (error):
        apiVersion: kueue.x-k8s.io/v1alpha1
        kind: Topology
    Fix: apiVersion kueue.x-k8s.io/v1beta2.
    """
    from prio.kueue import crd

    o = _obj("", doc)  # any kind of Kueue's CRDs (a Topology too)
    version = crd.unserved(o.kind, o.data.get("apiVersion")) if o is not None else None
    if version is None:
        return []
    return [Issue("PRIO624", ("apiVersion",), f"{o.kind} {o.name}: {crd.GROUP}/{version} is not a version Kueue serves: "
                                              f"kubectl apply fails (no matches for kind \"{o.kind}\" in version "
                                              f"\"{crd.GROUP}/{version}\"); it serves {crd.GROUP}/{crd.VERSION} "
                                              "(and v1beta1, deprecated)", fix=f"apiVersion: {crd.GROUP}/{crd.VERSION}")]


def _violations(o: Obj, of=None) -> list:
    """The object's errors against Kueue's vendored CRD schema (prio.kueue.crd: its enums and
    fields; `of` crd.refusals: PRIO622's), in the version it was written in: a v1beta1 object
    against the v1beta1 CRD, as the API server validates it before converting (_as_written).
    Kept for the run: PRIO607 and PRIO610 read the same ones, and PRIO621 runs every object's
    rules again (what they report it does not say twice)."""
    from prio.kueue import crd

    of = of or crd.violations
    if crd.unserved(o.kind, o.data.get("apiVersion")) is not None:
        return []  # no CRD of its version to check it against: refused whole (PRIO624)
    data, version = _as_written(o)
    key = (id(data), of.__name__)
    got = _SEEN.get(key)
    if got is None or got[0] is not data:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        got = _SEEN[key] = (data, of(o.kind, data, version))
    return got[1]


def _as_written(o: Obj) -> tuple:
    """(the object as its file wrote it, its CRD version): a converted v1beta1 object's original."""
    from prio.kueue import convert, crd

    doc = o.doc
    found = doc.find(o.data) if isinstance(doc, convert.Converted) else None
    return (found[0], "v1beta1") if found is not None else (o.data, crd.VERSION)


# (id(an object's data), which check) -> (the data, its violations): the data is kept with them,
# so its id stays its own; emptied when the run's set rules are done (set_issues), or when it
# grows past the cap
_SEEN: dict = {}
_SEEN_MAX = 1 << 17  # (two entries an object: its violations and its refusals)


# ---- what the API server accepts but cannot work ------------------------------------------------

def _near(name: str, names) -> str:
    from prio.suggest import did_you_mean

    return did_you_mean(name, list(names))


@check("PRIO611", "kueue-flavor-not-found", "warning", FAMILY, target="kueue-set")
def flavor_not_found(ks: KueueSet) -> list:
    """A ClusterQueue names a ResourceFlavor that does not exist.

    Kueue accepts the ClusterQueue but keeps it inactive (status `FlavorNotFound`) until every
    flavor it names exists: it admits nothing, not even on its other flavors, and its workloads
    wait with "ClusterQueue ... is inactive".

    Example (warns):
        kind: ResourceFlavor
        metadata: {name: on-demand}
        ---
        kind: ClusterQueue
        spec:
          resourceGroups:
          - coveredResources: [cpu]
            flavors: [{name: ondemand, resources: [{name: cpu, nominalQuota: 8}]}]
    Fix: name an existing flavor (on-demand), or create the ResourceFlavor.
    """
    flavors = ks.names("ResourceFlavor")
    out = []
    for cq in ks.of("ClusterQueue"):
        for gp, g in _groups(cq.spec):
            for fp, f in _flavors(g):
                n = f.get("name")
                if isinstance(n, str) and n and n not in flavors:
                    out.append(cq.issue("PRIO611", gp + fp + ("name",),
                                        f"ResourceFlavor {n} does not exist{_near(n, flavors)}: ClusterQueue {cq.name} is "
                                        "inactive (FlavorNotFound) and admits nothing",
                                        fix=f"create ResourceFlavor {n}, or name an existing one"))
    return out


@check("PRIO612", "kueue-cluster-queue-not-found", "warning", FAMILY, target="kueue-set")
def cluster_queue_not_found(ks: KueueSet) -> list:
    """A LocalQueue points to a ClusterQueue that does not exist.

    Kueue accepts the LocalQueue (`spec.clusterQueue` is immutable, so a typo stays), and every
    workload submitted to it waits with "ClusterQueue ... doesn't exist".

    Example (warns):
        kind: LocalQueue
        metadata: {namespace: team-a, name: queue}
        spec: {clusterQueue: team-a-cq}
    Fix: the name of an existing ClusterQueue (team-a), or create that ClusterQueue.
    """
    cqs = ks.names("ClusterQueue")
    out = []
    for lq in ks.of("LocalQueue"):
        target = lq.spec.get("clusterQueue")
        if isinstance(target, str) and target and target not in cqs:
            out.append(lq.issue("PRIO612", ("spec", "clusterQueue"),
                                f"ClusterQueue {target} does not exist{_near(target, cqs)}: LocalQueue "
                                f"{lq.namespace}/{lq.name} admits nothing",
                                fix=f"create ClusterQueue {target}, or name an existing one (the field is immutable: "
                                    "delete and recreate the LocalQueue)"))
    return out


@check("PRIO613", "kueue-local-queue-not-found", "warning", FAMILY, target="kueue-set")
def local_queue_not_found(ks: KueueSet) -> list:
    """A Workload's queueName is not a LocalQueue of its namespace.

    A LocalQueue belongs to one namespace: a workload reaches a ClusterQueue only through a
    LocalQueue of its own namespace with the name in `spec.queueName` (the job's
    `kueue.x-k8s.io/queue-name` label). Otherwise it waits with "LocalQueue ... doesn't exist".

    Example (warns):
        kind: LocalQueue
        metadata: {namespace: team-a, name: queue}
        ---
        kind: Workload
        metadata: {namespace: team-b, name: train}
        spec: {queueName: queue}
    Fix: a LocalQueue named queue in team-b, or submit the workload in team-a.
    """
    lqs = {(o.namespace, o.name) for o in ks.of("LocalQueue")}
    if not lqs and not ks.of("ClusterQueue"):
        return []  # workloads alone: the queues are elsewhere
    out = []
    for wl in ks.of("Workload"):
        q = wl.spec.get("queueName")
        if not isinstance(q, str) or not q:
            out.append(wl.issue("PRIO613", ("spec",), f"Workload {wl.namespace}/{wl.name} has no queueName: no ClusterQueue "
                                                      "ever considers it", fix="spec.queueName: a LocalQueue of its namespace"))
        elif (wl.namespace, q) not in lqs:
            elsewhere = sorted(ns for ns, n in lqs if n == q)
            where = f" (there is one in {', '.join(elsewhere)})" if elsewhere else \
                _near(q, [n for ns, n in lqs if ns == wl.namespace])
            out.append(wl.issue("PRIO613", ("spec", "queueName"),
                                f"no LocalQueue {q} in namespace {wl.namespace}{where}: Workload {wl.namespace}/{wl.name} "
                                "is never admitted", fix=f"create LocalQueue {wl.namespace}/{q}, or name one of its namespace"))
    return out


def _cohort_cycles(ks: KueueSet) -> list:
    """Each cycle of Cohort parents, as the loader finds it (prio.kueue.tree.cohort_cycles)."""
    from prio.kueue.tree import cohort_cycles

    return cohort_cycles({o.name: _str(o.spec.get("parentName")) for o in ks.of("Cohort")})


@check("PRIO614", "kueue-cohort-cycle", "warning", FAMILY, target="kueue-set")
def cohort_cycle(ks: KueueSet) -> list:
    """Cohorts' parentName links form a cycle.

    Kueue accepts each Cohort on its own, then finds the cycle and stops admitting in every
    Cohort of it and every ClusterQueue below them until the cycle is broken.

    Example (warns):
        kind: Cohort
        metadata: {name: research}
        spec: {parentName: org}
        ---
        kind: Cohort
        metadata: {name: org}
        spec: {parentName: research}
    Fix: one root: remove parentName from the Cohort meant to be the top (org).
    """
    cohorts = ks.names("Cohort")
    out = []
    for cyc in _cohort_cycles(ks):
        o = cohorts[cyc[0]]
        ring = " -> ".join(cyc + [cyc[0]])
        out.append(o.issue("PRIO614", ("spec", "parentName"),
                           f"Cohort parents form a cycle ({ring}): Kueue admits nothing in these Cohorts' ClusterQueues",
                           fix=f"remove parentName from the Cohort meant to be the root ({' or '.join(cyc)})"))
    return out


@check("PRIO615", "kueue-no-namespace-selector", "warning", FAMILY, target="kueue-set")
def no_namespace_selector(ks: KueueSet) -> list:
    """A ClusterQueue has no namespaceSelector, so it admits from no namespace.

    Kueue's default is a selector matching nothing: without `namespaceSelector` every workload
    reaching the ClusterQueue waits ("workload namespace doesn't match ClusterQueue selector").
    `namespaceSelector: {}` admits from every namespace.

    Example (warns):
        kind: ClusterQueue
        spec:
          resourceGroups: [...]
    Fix: `namespaceSelector: {}` for every namespace, or a selector for the ones allowed.
    """
    out = []
    for cq in ks.of("ClusterQueue"):
        if cq.spec.get("namespaceSelector") is None:
            out.append(cq.issue("PRIO615", ("metadata", "name") if "spec" not in cq.data else ("spec",),
                                f"ClusterQueue {cq.name} has no namespaceSelector: it admits from no namespace",
                                fix="namespaceSelector: {} (every namespace), or a selector for the allowed ones",
                                at="value" if "spec" not in cq.data else "key"))
    return out


def _namespace_labels(ks: KueueSet, ns: str) -> dict | None:
    """A namespace's labels as Kubernetes sets them (prio.kube.namespace: kubernetes.io/metadata.name
    included), or None when the Namespace is not among the inputs."""
    from prio.kube import namespace

    for o in ks.of("Namespace"):
        if o.name == ns:
            meta = o.data.get("metadata") if isinstance(o.data.get("metadata"), dict) else {}
            return namespace.labels(ns, meta.get("labels") if isinstance(meta.get("labels"), dict) else {})
    return None


def _selector_ok(sel) -> bool:
    """A label selector of the shape Kubernetes accepts (the values' validity aside)."""
    if not isinstance(sel, dict) or not isinstance(sel.get("matchLabels") or {}, dict):
        return False
    exprs = sel.get("matchExpressions") or []
    return isinstance(exprs, list) and all(isinstance(e, dict) and isinstance(e.get("key"), str) and
                                           isinstance(e.get("values") or [], list) for e in exprs)


@check("PRIO616", "kueue-namespace-not-selected", "warning", FAMILY, target="kueue-set")
def namespace_not_selected(ks: KueueSet) -> list:
    """A LocalQueue's namespace is not one its ClusterQueue's namespaceSelector selects.

    Kueue checks the workload's namespace against the ClusterQueue's selector at every attempt:
    a LocalQueue in a namespace the selector leaves out queues workloads that are never admitted
    ("workload namespace doesn't match ClusterQueue selector"). Checked when the Namespace is
    among the inputs, or the selector names namespaces only by `kubernetes.io/metadata.name`.

    Example (warns):
        kind: Namespace
        metadata: {name: team-a, labels: {team: a}}
        ---
        kind: ClusterQueue
        metadata: {name: shared}
        spec: {namespaceSelector: {matchLabels: {team: b}}}
        ---
        kind: LocalQueue
        metadata: {namespace: team-a, name: queue}
        spec: {clusterQueue: shared}
    Fix: widen the selector (matchExpressions: [{key: team, operator: In, values: [a, b]}]), or label the namespace.
    """
    from prio.kube import namespace
    from prio.kueue.reference import selector_matches

    cqs = ks.names("ClusterQueue")
    out = []
    for lq in ks.of("LocalQueue"):
        cq = cqs.get(lq.spec.get("clusterQueue")) if isinstance(lq.spec.get("clusterQueue"), str) else None
        sel = cq.spec.get("namespaceSelector") if cq is not None else None
        if not _selector_ok(sel) or not sel:
            continue  # none is PRIO615's; {} selects every namespace; a malformed one the API server refuses
        labels = _namespace_labels(ks, lq.namespace)
        if labels is None:
            keys = {e.get("key") for e in sel.get("matchExpressions") or [] if isinstance(e, dict)} | set(sel.get("matchLabels") or {})
            if keys != {namespace.NAME_LABEL}:
                continue
            labels = namespace.labels(lq.namespace)
        if not selector_matches(sel, labels):
            out.append(lq.issue("PRIO616", ("metadata", "namespace") if "namespace" in (lq.data.get("metadata") or {}) else ("metadata",),
                                f"ClusterQueue {cq.name}'s namespaceSelector does not select namespace {lq.namespace}: "
                                f"LocalQueue {lq.namespace}/{lq.name}'s workloads are never admitted",
                                fix=f"widen ClusterQueue {cq.name}'s namespaceSelector, or label namespace {lq.namespace} to match"))
    return out


def _cohort_members(ks: KueueSet) -> tuple:
    """(root cohort name -> the ClusterQueues in its tree, the function giving a cohort's root);
    parents followed, cycles cut."""
    parent = {o.name: _str(o.spec.get("parentName")) for o in ks.of("Cohort")}

    def root(c):
        seen = []
        while parent.get(c) and c not in seen:
            seen.append(c)
            c = parent[c]
        return c

    out: dict = {}
    for cq in ks.of("ClusterQueue"):
        c = _str(cq.spec.get("cohortName"))
        if c:
            out.setdefault(root(c), []).append(cq.name)
    return out, root


@check("PRIO617", "kueue-preemption-never-fires", "warning", FAMILY, target="kueue-set")
def preemption_never_fires(ks: KueueSet) -> list:
    """A ClusterQueue's preemption policy can never preempt anything.

    reclaimWithinCohort and borrowWithinCohort preempt workloads of other ClusterQueues of the
    cohort: a ClusterQueue without a cohort, or alone in its cohort tree, has none to preempt.
    With fair sharing on (the Configuration's `fairSharing`), Kueue ignores borrowWithinCohort
    altogether, and `maxPriorityThreshold` means nothing while borrowWithinCohort's policy is
    Never. The policy reads as protection or reach the setup does not have.

    Example (warns):
        kind: ClusterQueue
        spec:
          preemption:
            reclaimWithinCohort: Any
    Fix: put the ClusterQueue in the cohort it should reclaim from (cohortName), or remove the policy.
    """
    members, root = _cohort_members(ks)
    out = []
    for cq in ks.of("ClusterQueue"):
        p = cq.spec.get("preemption") if isinstance(cq.spec.get("preemption"), dict) else {}
        b = p.get("borrowWithinCohort") if isinstance(p.get("borrowWithinCohort"), dict) else {}
        cohort = _str(cq.spec.get("cohortName"))
        for key, value, path in (("reclaimWithinCohort", p.get("reclaimWithinCohort"), ("spec", "preemption", "reclaimWithinCohort")),
                                 ("borrowWithinCohort", b.get("policy"), ("spec", "preemption", "borrowWithinCohort", "policy"))):
            if value in (None, "Never"):
                continue
            if cohort is None:
                why = "it has no cohort"
            elif members.get(root(cohort)) == [cq.name] and ks.of("ClusterQueue"):
                why = f"it is the only ClusterQueue in cohort {root(cohort)}'s tree"
            elif key == "borrowWithinCohort" and ks.fair_sharing:
                why = "fair sharing is on, and Kueue ignores borrowWithinCohort then"
            else:
                continue
            out.append(cq.issue("PRIO617", path, f"{key} {value} on ClusterQueue {cq.name} never preempts: {why}",
                                fix="put the ClusterQueue in the cohort it should preempt in, or remove the policy"
                                if "fair sharing" not in why else "remove borrowWithinCohort (fair sharing decides)"))
        if b.get("maxPriorityThreshold") is not None and (b.get("policy") or "Never") == "Never":
            out.append(cq.issue("PRIO617", ("spec", "preemption", "borrowWithinCohort", "maxPriorityThreshold"),
                                f"maxPriorityThreshold on ClusterQueue {cq.name} means nothing: borrowWithinCohort's policy is Never",
                                fix="borrowWithinCohort.policy: LowerPriority, or remove maxPriorityThreshold"))
    return out


@check("PRIO618", "kueue-priority-class-not-found", "error", FAMILY, target="kueue-set")
def priority_class_not_found(ks: KueueSet) -> list:
    """A Workload names a WorkloadPriorityClass or PriorityClass that does not exist.

    A workload's priority comes from its `kueue.x-k8s.io/priority-class` label or
    `priorityClassRef` (a WorkloadPriorityClass), or its pod template's `priorityClassName`
    (a PriorityClass). Kueue's job integration does not create a Workload whose class does not
    exist, the API server refuses the pods, and prio cannot give it a priority.

    Example (error):
        kind: Workload
        metadata:
          labels: {kueue.x-k8s.io/priority-class: hihg}
    Fix: an existing class (high), or create the WorkloadPriorityClass.
    """
    from prio.kube.priorityclass import BUILTIN

    wpcs = ks.names("WorkloadPriorityClass")
    pcs = set(ks.names("PriorityClass")) | set(BUILTIN)
    out = []
    for wl in ks.of("Workload"):
        if wl.spec.get("priority") is not None:
            continue  # already resolved: Kueue reads no class
        meta = wl.data.get("metadata") if isinstance(wl.data.get("metadata"), dict) else {}
        label = (meta.get("labels") or {}).get("kueue.x-k8s.io/priority-class") if isinstance(meta.get("labels"), dict) else None
        ref = wl.spec.get("priorityClassRef") if isinstance(wl.spec.get("priorityClassRef"), dict) else {}
        if label:
            found = (("metadata", "labels", "kueue.x-k8s.io/priority-class"), str(label), "WorkloadPriorityClass")
        elif ref.get("name"):
            found = (("spec", "priorityClassRef", "name"), str(ref["name"]), ref.get("kind") or "WorkloadPriorityClass")
        else:
            found = None
            ps = wl.spec.get("podSets")
            for i, p in enumerate(ps if isinstance(ps, list) else []):
                name = _at(p, ("template", "spec", "priorityClassName"))
                if name:
                    found = (("spec", "podSets", i, "template", "spec", "priorityClassName"), str(name), "PriorityClass")
                    break
        if found is None:
            continue
        path, name, kind = found
        known = wpcs if kind == "WorkloadPriorityClass" else pcs
        if name not in known:
            out.append(wl.issue("PRIO618", path, f"{kind} {name} does not exist{_near(name, known)}: Workload "
                                                 f"{wl.namespace}/{wl.name} gets no priority", fix=f"create {kind} {name}, or name an existing one"))
    return out


def _requests(wl: Obj) -> list:
    """(path, resource) of every resource a Workload's pod sets request (limits standing in)."""
    out = []
    ps = wl.spec.get("podSets")
    for i, p in enumerate(ps if isinstance(ps, list) else []):
        spec = _at(p, ("template", "spec"))
        if not isinstance(spec, dict):
            continue
        for key in ("containers", "initContainers"):
            cs = spec.get(key)
            for j, c in enumerate(cs if isinstance(cs, list) else []):
                res = _at(c, ("resources",))
                for kind in ("requests", "limits"):
                    m = res.get(kind) if isinstance(res, dict) else None
                    for r, v in (m.items() if isinstance(m, dict) else ()):
                        q = _qty(v)
                        if q is None or q > 0:
                            out.append((("spec", "podSets", i, "template", "spec", key, j, "resources", kind, r), str(r)))
    return out


@check("PRIO619", "kueue-resource-not-covered", "warning", FAMILY, target="kueue-set")
def resource_not_covered(ks: KueueSet) -> list:
    """A Workload requests a resource its ClusterQueue has no quota for.

    Kueue admits a workload only when every resource it requests is a covered resource of its
    ClusterQueue (one of its `resourceGroups`); a request for anything else (a GPU, an
    `ephemeral-storage` request, a typo) keeps it pending with "resource ... unavailable in
    ClusterQueue", whatever the quota of the rest.

    Example (warns):
        kind: ClusterQueue
        spec:
          resourceGroups:
          - coveredResources: [cpu, memory]
        ---
        kind: Workload
        spec:
          podSets:
          - template: {spec: {containers: [{resources: {requests: {cpu: 2, nvidia.com/gpu: 1}}}]}}
    Fix: cover the resource in a resource group (with a flavor giving it quota), or drop the request.
    """
    cqs = ks.names("ClusterQueue")
    lqs = {(o.namespace, o.name): _str(o.spec.get("clusterQueue")) for o in ks.of("LocalQueue")}
    out = []
    for wl in ks.of("Workload"):
        cq = cqs.get(lqs.get((wl.namespace, _str(wl.spec.get("queueName")))))
        if cq is None:
            continue  # PRIO612/PRIO613 say why
        covered = {r for _, g in _groups(cq.spec) for r in _covered(g)}
        said = set()
        for path, r in _requests(wl):
            if r not in covered and r not in said:
                said.add(r)
                out.append(wl.issue("PRIO619", path, f"ClusterQueue {cq.name} covers no {r} ({', '.join(sorted(covered)) or 'no resource'}): "
                                                     f"Workload {wl.namespace}/{wl.name} is never admitted",
                                    fix=f"add {r} to a resource group of ClusterQueue {cq.name}, or drop the request"))
    return out


@check("PRIO620", "kueue-cohort-quota-unused", "warning", FAMILY, target="kueue-set")
def cohort_quota_unused(ks: KueueSet) -> list:
    """A Cohort gives quota for a resource and flavor that no ClusterQueue below it covers.

    A Cohort's own nominalQuota is a pool its ClusterQueues borrow from, but a ClusterQueue
    borrows only for the (flavor, resource) pairs of its own resource groups: quota for a pair no
    ClusterQueue of the Cohort's subtree names is never used.

    Example (warns):
        kind: Cohort
        metadata: {name: org}
        spec:
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]
    Fix: give the ClusterQueues that should use it that flavor and resource (nominalQuota 0 lets them borrow it).
    """
    parent = {o.name: _str(o.spec.get("parentName")) for o in ks.of("Cohort")}

    def under(c, cohort):  # is cohort c (a ClusterQueue's) at or below `cohort`?
        seen = set()
        while c is not None and c not in seen:
            if c == cohort:
                return True
            seen.add(c)
            c = parent.get(c)
        return False

    pairs: dict = {}  # cohort name -> {(flavor, resource)} its subtree's ClusterQueues cover
    for co in ks.of("Cohort"):
        s = pairs.setdefault(co.name, set())
        for cq in ks.of("ClusterQueue"):
            if under(_str(cq.spec.get("cohortName")), co.name):
                s.update((f.get("name"), r) for _, g in _groups(cq.spec) for _, f in _flavors(g)
                         for r in _covered(g) if isinstance(f.get("name"), str))
    out = []
    for co in ks.of("Cohort"):
        if not ks.of("ClusterQueue"):
            break  # the ClusterQueues are elsewhere
        for path, _, f, q in _quotas(co.spec):
            pair = (f.get("name"), q.get("name"))
            if not all(isinstance(x, str) for x in pair):
                continue
            if pair not in pairs[co.name] and (_qty(q.get("nominalQuota", 0)) or 0) > 0:
                out.append(co.issue("PRIO620", ("spec",) + path[1:] + ("nominalQuota",),
                                    f"no ClusterQueue under Cohort {co.name} covers {pair[1]} in flavor {pair[0]}: this quota "
                                    "is never used", fix=f"give a ClusterQueue of the Cohort flavor {pair[0]} for {pair[1]}, "
                                                         "or remove the quota"))
    return out


@check("PRIO621", "kueue-object-unreadable", "error", FAMILY, target="kueue-set")
def object_unreadable(ks: KueueSet) -> list:
    """An object holds a field the API server would refuse (a field of the wrong type, a count
    past its range, a number of thousands of digits, a list longer than Kueue's CRD allows).

    The API server refuses such an object (`kubectl apply` fails), and `prio simulate`,
    `prio explain` and `prio diff` leave it out (a note, and the rest replayed without it, as the
    cluster never admitted it): validate says so first, at the same place, instead of passing a
    setup whose analysis would not hold the object. A problem a rule of its own reports
    (what the CRD's schema refuses, PRIO622: a wrong type or a missing field in `spec`; an
    invalid quantity, a cohort cycle, a missing priority class) is not said twice: what is left
    here is what the loader refuses beyond them (an int32 count past its range, a `status` field
    of the wrong type or past its list's length).

    Example (error):
        kind: Workload
        spec:
          podSets:
          - {name: main, count: 3000000000}
    Fix: the type the Kueue API has for the field (count: an int32).
    """
    from prio.errors import APIRefusal, InputError
    from prio.kueue import load as loader

    if not ks.units:
        return []
    try:
        loader.load(ks.units)
        return []
    except InputError as e:
        if e.line is None:
            return []  # nothing to point at (the analysis still says it)
        err = e
    said = set()  # (file, line) of what the other rules report
    for file, doc in ks.units:
        for i in lint_object(doc):
            pos = i.pos or doc.pos(i.path, i.at)
            if pos is not None:
                said.add((file, pos.line))
    for file, doc, i in cohort_cycle(ks) + priority_class_not_found(ks):
        pos = i.pos or doc.pos(i.path, i.at)
        if pos is not None:
            said.add((file, pos.line))
    # The loader marks the refusals that are the API server's too (a field's type or range, a list
    # past the CRD's length): the others are what prio's analysis needs of a run's objects (a
    # Workload's creationTimestamp, a Topology among the inputs, a ClusterQueue to schedule on),
    # which a setup under review need not have.
    if (err.file, err.line) in said or not isinstance(err, APIRefusal):
        return []
    doc = next(d for f, d in ks.units if f == err.file)
    from prio.io.document import Pos

    return [(err.file, doc, Issue("PRIO621", (), f"simulate and explain cannot read this: {err.message}", "value", None,
                                  Pos(err.line, err.column or 1), "the type the Kueue API has for the field"))]


def lint_object(doc: Document) -> list[Issue]:
    """Every finding of the `kueue` target for one object document: a v1beta1 object's on it as
    Kueue serves it (prio.kueue.convert), each placed where the converted field was written (the
    runner places findings by the document as written)."""
    from dataclasses import replace

    from prio.kueue.convert import Converted
    from prio.kueue.crd import converted

    conv = converted(doc)
    found = run("kueue", conv)
    if not isinstance(conv, Converted):
        return found
    return [i if i.pos is not None else replace(i, pos=(conv.original if i.rule in _AS_WRITTEN else conv).pos(i.path, i.at))
            for i in found]


# The rules whose findings name the object as written (the schema checks of its own version,
# _as_written): placed by the document as written, the others by the converted one (which
# places each converted field where it was written).
_AS_WRITTEN = ("PRIO607", "PRIO610", "PRIO622")


def set_issues(units) -> list:
    """(file name, Document, Issue) for the objects of the run together; `units` as `kueue_set`."""
    ks = kueue_set(units)
    if not any(o.kind in KINDS for o in ks.objects):
        return []
    try:
        return run("kueue-set", ks)
    finally:
        _SEEN.clear()  # the run's objects are done with


registry.unit_check("kueue", lint_object)
registry.unit_check("namespace")  # its labels are read by the Kueue rules of the run; nothing to check alone
registry.set_check(("kueue",), ("kueue", "priorityclass", "namespace"), set_issues)
