"""Lint rules for Kubernetes PriorityClass manifests (`scheduling.k8s.io/v1`, and the old
v1beta1/v1alpha1), as the API server's validation and the Priority admission plugin enforce them.

`lint_priority_class(doc)` checks one PriorityClass (a document, or one item of a `kind: List`,
as `documents.units` splits them); `cross_file(units)` checks what only the whole set can show
(several global defaults, one name defined twice); `classes_from_docs(units)` turns the valid
manifests into `PriorityClass` objects for resolution and the queue cross-check.

Where the Kubernetes design doc (pod-priority-api.md) and the code differ, prio follows the code
and says so: system classes are 2000000000 and 2000001000 (not int_max), the reserved `system-`
prefix is enforced by API validation, and several global defaults can exist (the lowest wins).
"""
from __future__ import annotations

import re

from prio.diagnostics import Issue
from prio.kube.priorityclass import BUILTIN, HIGHEST_USER, PREEMPTION_POLICIES, is_dns_subdomain
from prio.lint.registry import check, run
from prio.yunikorn.load.priorityclasses import PC, manifests

FAMILY = "priorityclass"
FIELDS = ("apiVersion", "kind", "metadata", "value", "globalDefault", "description", "preemptionPolicy")
SERVED = ("scheduling.k8s.io/v1",)
OLD = ("scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha1")
def _show(v) -> str:
    if isinstance(v, str):
        return f"the string {v!r}"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (dict, list)):
        return "a mapping" if isinstance(v, dict) else "a list"
    return repr(v)


# ---- per-document rules -------------------------------------------------------------------

@check("PRIO301", "priorityclass-invalid-name", "error", FAMILY, target="priorityclass")
def invalid_name(pc: PC):
    """A PriorityClass name that is missing or not a DNS subdomain.

    The API server validates the name of every cluster-scoped object as a DNS-1123 subdomain: at
    most 253 characters, lowercase letters, digits, `-` and `.`, each dot-separated part starting
    and ending with a letter or digit. Pods refer to the class by this name (`priorityClassName`),
    so a class the API server refuses leaves every pod that names it refused too.

    Example (fails):
        metadata:
          name: Tier_1
    Fix: use a lowercase name such as `tier-1`.
    """
    md = pc.data.get("metadata")
    if not isinstance(md, dict):
        yield Issue("PRIO301", ("metadata",) if "metadata" in pc.data else (), "a PriorityClass needs metadata.name")
        return
    if "name" not in md or md.get("name") in (None, ""):
        if md.get("generateName"):
            return  # the API server generates the name; nothing to check here
        yield Issue("PRIO301", ("metadata", "name") if "name" in md else ("metadata",), "a PriorityClass needs metadata.name")
        return
    n = md["name"]
    if not isinstance(n, str):
        yield Issue("PRIO301", ("metadata", "name"), f"metadata.name must be a string, found {_show(n)}")
        return
    if not is_dns_subdomain(n):
        why = "longer than 253 characters" if len(n) > 253 else (
            "uppercase letters are not allowed" if n.lower() != n and is_dns_subdomain(n.lower()) else
            "use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit")
        yield Issue("PRIO301", ("metadata", "name"), f"PriorityClass name {n!r} is not a valid DNS subdomain: {why}")


@check("PRIO302", "priorityclass-namespaced", "warning", FAMILY, target="priorityclass")
def namespaced(pc: PC):
    """A PriorityClass with metadata.namespace set.

    PriorityClass is cluster-scoped: one class serves pods in every namespace. The API server
    clears the namespace of a cluster-scoped object before validating it (rest.BeforeCreate), so
    the class is created without it; the validator's own unit test refuses it, which is why some
    tools call it an error. The mistake usually comes from templating a class together with
    namespaced objects, and suggests a per-namespace class that does not exist.

    Example (warns):
        metadata:
          name: tier1
          namespace: team-a
    Fix: remove metadata.namespace.
    """
    ns = pc.metadata.get("namespace")
    if ns not in (None, ""):
        who = f"PriorityClass {pc.name}" if pc.name else "this PriorityClass"
        yield Issue("PRIO302", ("metadata", "namespace"),
                    f"{who} sets metadata.namespace {ns!r}: a PriorityClass is cluster-scoped, "
                    "the API server drops the namespace and the class applies to every namespace")


@check("PRIO303", "priorityclass-reserved-system-name", "error", FAMILY, target="priorityclass")
def reserved_system_name(pc: PC):
    """A `system-` name that is not exactly one of the two built-in classes.

    Names starting with `system-` are reserved. API validation accepts such a class only when it
    is `system-cluster-critical` with value 2000000000 or `system-node-critical` with value
    2000001000, and `globalDefault` false; anything else is Forbidden ("priority class names with
    'system-' prefix are reserved for system use only"). (The Kubernetes design doc shows a
    system value of 2147483647; the code uses these two values.)

    Example (fails):
        metadata:
          name: system-batch
        value: 5000
    Fix: pick a name without the `system-` prefix.
    """
    if not pc.system_name:
        return
    n = pc.name
    if n not in BUILTIN:
        yield Issue("PRIO303", ("metadata", "name"),
                    f"{n!r} is not a known system priority class: names with the 'system-' prefix are reserved "
                    f"for {' and '.join(BUILTIN)}")
        return
    want = BUILTIN[n]
    if pc.has_value and pc.value is not None and pc.value != want:
        yield Issue("PRIO303", ("value",), f"value of {n} must be {want}, found {pc.value}: the 'system-' names are reserved and fixed")
    elif not pc.has_value:
        yield Issue("PRIO303", ("metadata", "name"), f"value of {n} must be {want}; without a value it decodes as 0")
    if pc.global_default:
        yield Issue("PRIO303", ("globalDefault",), f"globalDefault of {n} must be false")


@check("PRIO304", "priorityclass-value-above-user-max", "error", FAMILY, target="priorityclass")
def above_user_max(pc: PC):
    """A user PriorityClass above 1,000,000,000.

    Kubernetes reserves values above 1e9 (`HighestUserDefinablePriority`) for the system classes
    (2000000000 and 2000001000), so no user pod can outrank a critical system pod. API validation
    refuses a higher value for any name without the `system-` prefix; 1000000000 itself is allowed.

    Example (fails):
        metadata:
          name: urgent
        value: 1500000000
    Fix: use a value of at most 1000000000.
    """
    if pc.system_name or pc.value is None:
        return
    if pc.value > HIGHEST_USER:
        yield Issue("PRIO304", ("value",),
                    f"value {pc.value} of PriorityClass {pc.name or '?'} is above 1000000000, the maximum for a user-defined "
                    "class (higher values are reserved for system-cluster-critical and system-node-critical)")


@check("PRIO305", "priorityclass-value-not-int32", "error", FAMILY, target="priorityclass")
def value_not_int32(pc: PC):
    """A PriorityClass `value` that is not a 32-bit integer.

    `value` is an int32 in the API. A quoted number, a fraction, true/false or a number outside
    -2147483648..2147483647 cannot be decoded, so kubectl and the API server refuse the manifest.

    Example (fails):
        value: "1000"
    Fix: write a plain integer: `value: 1000`.
    """
    if not pc.has_value or pc.value is not None:
        return
    v = pc.data["value"]
    if isinstance(v, int) and not isinstance(v, bool):
        msg = f"value {v} is outside the int32 range (-2147483648 to 2147483647)"
    elif isinstance(v, str):
        msg = f"value is {_show(v)}: a quoted number is a string, and the API expects an int32" + (
            f"; write value: {v.strip()}" if re.fullmatch(r"\s*[+-]?\d+\s*", v) else "")
    else:
        msg = f"value must be an int32, found {_show(v)}"
    yield Issue("PRIO305", ("value",), msg)


@check("PRIO306", "priorityclass-invalid-preemption-policy", "error", FAMILY, target="priorityclass")
def invalid_preemption_policy(pc: PC):
    """A `preemptionPolicy` other than `PreemptLowerPriority` or `Never`.

    The field is optional (absent means PreemptLowerPriority), but when present it must be one of
    the two values, spelled exactly so: validation answers NotSupported for anything else and
    Required for an empty string. `Never` makes pods of the class wait in the queue without
    preempting others.

    Example (fails):
        preemptionPolicy: never
    Fix: `preemptionPolicy: Never` (or remove the field).
    """
    if "preemptionPolicy" not in pc.data or pc.data["preemptionPolicy"] is None:
        return
    v = pc.data["preemptionPolicy"]
    if v in PREEMPTION_POLICIES:
        return
    if v == "":
        msg = "preemptionPolicy is empty: remove it or set PreemptLowerPriority or Never"
    elif isinstance(v, str):
        near = [p for p in PREEMPTION_POLICIES if p.lower() == v.strip().lower()]
        msg = f"preemptionPolicy {v!r} is not supported: use PreemptLowerPriority or Never" + (
            f" (values are case-sensitive: {near[0]!r})" if near else "")
    else:
        msg = f"preemptionPolicy must be PreemptLowerPriority or Never, found {_show(v)}"
    yield Issue("PRIO306", ("preemptionPolicy",), msg)


@check("PRIO308", "priorityclass-defines-builtin", "warning", FAMILY, target="priorityclass")
def defines_builtin(pc: PC):
    """A manifest that defines one of the built-in system classes.

    `system-cluster-critical` and `system-node-critical` are created by the API server at startup
    and cannot be deleted or changed. A manifest that defines them (even with the exact values) is
    at best a no-op: `kubectl create` fails with AlreadyExists, and tools that delete what they
    applied get Forbidden. prio always knows both classes, so there is no need to define them.

    Example (warns):
        metadata:
          name: system-node-critical
        value: 2000001000
    Fix: remove the document; use the class by name in pods.
    """
    if pc.name in BUILTIN and pc.value == BUILTIN[pc.name] and not pc.global_default:
        yield Issue("PRIO308", ("metadata", "name"),
                    f"{pc.name} is a built-in class: the API server creates it and owns it; remove it from the manifest")


@check("PRIO309", "priorityclass-missing-value", "warning", FAMILY, target="priorityclass")
def missing_value(pc: PC):
    """A PriorityClass without a `value`.

    `value` is required in the published schema, so kubectl's client-side validation refuses the
    manifest; a client that skips that check stores the class with value 0 (Go decodes a missing
    int as 0). Either way the manifest does not say what it means. prio reads it as 0.

    Example (warns):
        metadata:
          name: tier2
        description: "second tier"
    Fix: set `value:` explicitly.
    """
    if not pc.has_value and not pc.system_name:
        yield Issue("PRIO309", ("metadata", "name") if pc.name else (),
                    f"PriorityClass {pc.name or '?'} has no value: kubectl refuses it, the API would store 0; prio reads 0")


@check("PRIO313", "priorityclass-invalid-field", "error", FAMILY, target="priorityclass")
def invalid_field(pc: PC):
    """An unknown or wrongly typed field in a PriorityClass.

    A PriorityClass has only apiVersion, kind, metadata, value, globalDefault, description and
    preemptionPolicy. kubectl's strict field validation refuses unknown fields (a typo such as
    `globaldefault` would otherwise be dropped silently, and the class would not be the default),
    and `globalDefault: "true"` (a string) cannot be decoded into the boolean.

    Example (fails):
        globaldefault: true
    Fix: spell the field as the API does (`globalDefault`), with a plain true/false.
    """
    import difflib

    for k in pc.data:
        if k not in FIELDS:
            near = difflib.get_close_matches(k, FIELDS, n=1, cutoff=0.6) or [f for f in FIELDS if f.lower() == k.lower()]
            yield Issue("PRIO313", (k,), f"unknown field {k!r} in a PriorityClass" +
                        (f"; did you mean {near[0]!r}?" if near else f" (fields: {', '.join(FIELDS)})"), at="key")
    gd = pc.data.get("globalDefault")
    if "globalDefault" in pc.data and gd is not None and not isinstance(gd, bool):
        yield Issue("PRIO313", ("globalDefault",), f"globalDefault must be true or false, found {_show(gd)}")
    desc = pc.data.get("description")
    if desc is not None and not isinstance(desc, str):
        yield Issue("PRIO313", ("description",), f"description must be a string, found {_show(desc)}")
    md = pc.data.get("metadata")
    if md is not None and not isinstance(md, dict):
        yield Issue("PRIO313", ("metadata",), f"metadata must be a mapping, found {_show(md)}")


@check("PRIO314", "priorityclass-api-version", "warning", FAMILY, target="priorityclass")
def api_version(pc: PC):
    """A PriorityClass in an API version Kubernetes no longer serves.

    `scheduling.k8s.io/v1` has been the PriorityClass API since Kubernetes 1.14; v1beta1 and
    v1alpha1 are not served by Kubernetes 1.22 and later, so applying such a manifest fails with
    "no matches for kind". An unknown version is an error. The fields are the same, so prio reads
    the class anyway.

    Example (warns):
        apiVersion: scheduling.k8s.io/v1beta1
    Fix: `apiVersion: scheduling.k8s.io/v1`.
    """
    api = str(pc.data.get("apiVersion", ""))
    if api in SERVED:
        return
    if api in OLD:
        yield Issue("PRIO314", ("apiVersion",), f"{api} is not served by Kubernetes 1.22 and later: use scheduling.k8s.io/v1")
    else:
        yield Issue("PRIO314", ("apiVersion",), f"{api!r} is not an API version of PriorityClass: use scheduling.k8s.io/v1",
                    severity="error")



def lint_priority_class(doc) -> list[Issue]:
    """Every issue of one PriorityClass document (paths relative to the document)."""
    issues = list(getattr(doc, "issues", ()) or ())
    if not isinstance(doc.data, dict):
        return issues
    return issues + run("priorityclass", PC(doc))


# ---- rules over the whole set of files ----------------------------------------------------

@check("PRIO307", "priorityclass-multiple-global-defaults", "error", FAMILY, target="priorityclass-set")
def multiple_global_defaults(units):
    """More than one PriorityClass with `globalDefault: true`, across all the files given.

    The Priority admission plugin refuses a second global default ("PriorityClass X is already
    marked as default. Only one default can exist"), so applying these manifests fails part way.
    If several exist anyway (the check races), pods without a class get the default with the
    lowest value. prio reports each default and names the one that would win.

    Example (fails):
        # a.yaml                          # b.yaml
        metadata: {name: standard}        metadata: {name: batch}
        value: 1000                       value: 100
        globalDefault: true               globalDefault: true
    Fix: keep `globalDefault: true` on one class only.
    """
    found = []
    seen = set()
    for name, doc in units:
        pc = PC(doc)
        if not pc.global_default or pc.name is None or pc.system_name:
            continue
        key = (pc.name, pc.value)
        if key in seen:
            continue  # the same class defined twice: PRIO312's business
        seen.add(key)
        found.append((name, doc, pc))
    if len(found) < 2:
        return []
    winner = min(found, key=lambda t: (t[2].value if t[2].value is not None else 0, t[2].name))[2]
    wv = winner.value if winner.value is not None else 0
    tie = sum(1 for _, _, o in found if (o.value if o.value is not None else 0) == wv) > 1
    tied = " (a tie: admission takes whichever it lists first, prio the first by name)" if tie else ""
    out = []
    for name, doc, pc in found:
        others = ", ".join(f"{o.name} ({o.value if o.value is not None else 0}" + (f", in {n})" if n else ")")
                           for n, _, o in found if o is not pc)
        if pc is winner:
            tail = f"this one would win: admission takes the lowest value, {wv}{tied}"
        else:
            tail = f"{winner.name} ({wv}) would win: admission takes the lowest value{tied}"
        out.append((name, doc, Issue("PRIO307", ("globalDefault",),
                                     f"{len(found)} PriorityClasses are marked globalDefault: {pc.name} "
                                     f"({pc.value if pc.value is not None else 0}) and {others}; "
                                     f"only one default can exist, {tail}")))
    return out


@check("PRIO312", "priorityclass-conflicting-definitions", "error", FAMILY, target="priorityclass-set")
def conflicting_definitions(units):
    """One PriorityClass name defined twice with a different value or preemption policy.

    A PriorityClass's `value` and `preemptionPolicy` cannot change: the second definition is an
    update that the API server refuses ("may not be changed in an update"). The first one applied
    stays, so which value pods get depends on the order the files were applied in. prio uses the
    first definition it reads.

    Example (fails):
        # a.yaml                 # b.yaml
        metadata: {name: tier1}  metadata: {name: tier1}
        value: 4000              value: 5000
    Fix: keep one definition per class; to change a value, delete and recreate the class.
    """
    first = {}
    out = []
    for name, doc in units:
        pc = PC(doc)
        if pc.name is None:
            continue
        policy = pc.data.get("preemptionPolicy") or "PreemptLowerPriority"
        cur = (pc.value if pc.value is not None else 0, policy)
        if pc.name not in first:
            first[pc.name] = (name, doc, cur)
            continue
        fname, fdoc, prev = first[pc.name]
        pos = fdoc.pos(("metadata", "name"))
        where = f"{fname}:{pos.line}" if pos else fname
        if prev[0] != cur[0]:
            out.append((name, doc, Issue("PRIO312", ("value",) if pc.has_value else ("metadata", "name"),
                                         f"PriorityClass {pc.name} is already defined at {where} with value {prev[0]}; "
                                         f"value {cur[0]} cannot replace it (value is immutable), prio uses {prev[0]}")))
        elif prev[1] != cur[1]:
            out.append((name, doc, Issue("PRIO312", ("preemptionPolicy",) if "preemptionPolicy" in pc.data else ("metadata", "name"),
                                         f"PriorityClass {pc.name} is already defined at {where} with preemptionPolicy {prev[1]}; "
                                         f"{cur[1]} cannot replace it (preemptionPolicy is immutable)")))
    return out


def cross_file(units) -> list:
    """Issues that need every PriorityClass given (all files, --priority-classes included):
    several global defaults (PRIO307) and one name defined twice differently (PRIO312).
    `units` are (file name, Document) pairs; returns (file name, Document, Issue) triples."""
    return run("priorityclass-set", manifests(units))
# The cross-check rules (PRIO310, PRIO311) live with the cross-check; importing it here puts them
# in the registry whenever the PriorityClass rules are loaded (`prio rule`, validate).
