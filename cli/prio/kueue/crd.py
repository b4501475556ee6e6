"""Kueue's own CRD schemas (vendored in prio/kueue/crds/ at the corpora's commit, with their
sha256s and licence: manifest.json) as a jsonschema check of one Kueue object.

The vendored files are the CRDs' `openAPIV3Schema`s as Kueue publishes them; what the API server
does with such a structural schema beyond JSON Schema is done here, once per kind, when the first
object of that kind is checked (a YuniKorn config never loads a file of them, nor jsonschema):

- a null value is no value: the API server prunes a null field before validating (a field that is
  not `nullable`), so nulls are left out of the data checked (prio's loader reads null as absent
  too);
- an object schema with `properties` is closed: a field it does not define is refused by
  kubectl's strict field validation (and pruned otherwise), so `additionalProperties: false`;
- `x-kubernetes-int-or-string` (a quantity) is PRIO608's where it reads quotas and weights, which
  reads it as Kubernetes decodes a quantity (the `anyOf` integer/string beside it is not among the
  CHECKED keywords); the REFUSING check (PRIO622) takes a number or a string there, a number with
  a fraction included: an explicit exception for the recorded scenarios' `weight: 0.5` (_refusing);
- a required field with a `default` is never missing (the API server defaults before it
  validates); an object's `status` is not checked by REFUSING (the API server drops it on create:
  the status subresource);
- the other `x-kubernetes-*` extensions (list types and keys, map types, CEL `validations`) and
  `format` are left to prio's own rules, which say what they check (PRIO601-PRIO606, PRIO604's
  duplicates, the loader's int32 ranges), and `default` to the loader, which applies the CRD
  defaults itself.

Which finding a schema error becomes is the lint's business (prio.kueue.lint): this module says
where and what, the JSON Schema way, for the keywords the lint reports (CHECKED: PRIO607, PRIO610;
REFUSING: PRIO622, in the API server's words, `said`). The loader (prio.kueue.load) reads the
CRD's numbers here (`field`, `integer_range`: a list's maxItems, a count's minimum and format) and
its shape table (`shape`: each field's string, mapping or list, the fields `spec` requires), not
the whole check: the loader reads quantities as Kubernetes' quantity decoding does (the weight 0.5
again), integers with its own ranges and messages, and its refusals are one line, the first. An
edge of the Kueue backend (it reads files and uses jsonschema), not of its pure core.
"""
from __future__ import annotations

import json
import os
from functools import cache

VERSION = "v1beta2"  # the API prio reads (docs/kueue.md): a v1beta1 object is converted to it (prio.kueue.convert)
GROUP = "kueue.x-k8s.io"
# The versions Kueue serves at the vendored commit (every CRD: v1beta2 stored, v1beta1 served and
# deprecated): another is no resource the API server knows (`kubectl apply`: no matches for kind)
SERVED = ("v1beta1", "v1beta2")


def unserved(kind: str, api_version) -> str | None:
    """The version an object of a Kueue CRD kind is written in when Kueue serves no such version
    (v1alpha1, a typo), else None; the Configuration's group and other kinds are not checked."""
    if kind not in PLURALS or not isinstance(api_version, str):
        return None
    group, _, version = api_version.strip().partition("/")
    return version if group == GROUP and version not in SERVED else None
# package data beside this module (prio/kueue/crds/), in a wheel as in a checkout
_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crds")
PLURALS = {"ClusterQueue": "clusterqueues", "Cohort": "cohorts", "LocalQueue": "localqueues",
           "ResourceFlavor": "resourceflavors", "Topology": "topologies",
           "WorkloadPriorityClass": "workloadpriorityclasses", "Workload": "workloads"}


@cache
def schema(kind: str, version: str = VERSION) -> dict:
    """The vendored openAPIV3Schema of a kind, as Kueue publishes it."""
    with open(os.path.join(_DIR, f"{PLURALS[kind]}.{version}.json"), encoding="utf-8") as fh:
        return json.load(fh)


def converted(doc):
    """A document's v1beta1 Kueue objects as Kueue serves them (prio.kueue.convert.v1beta2),
    pruned by the vendored v1beta1 CRDs first; `doc` itself when it holds none."""
    from prio.kueue import convert

    return convert.v1beta2(doc, lambda kind: schema(kind, "v1beta1") if kind in PLURALS else None)


def structural(node):
    """A vendored schema as JSON Schema reads it with the API server's meaning (the module's
    docstring): object schemas with properties closed."""
    if isinstance(node, list):
        return [structural(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k == "properties":
            out[k] = {p: structural(s) for p, s in v.items()}
        elif k in ("enum", "required", "default") or k.startswith("x-kubernetes-"):
            out[k] = v
        else:
            out[k] = structural(v)
    if "properties" in out and "additionalProperties" not in out and not node.get("x-kubernetes-preserve-unknown-fields"):
        out["additionalProperties"] = False
    return out


# The keywords PRIO607 (an enum) and PRIO610 (a field the schema does not define) report and those
# that lead to them: the check holds these alone, so an object breaking another (a Workload's
# status condition without its `reason`, which the CRD requires) costs no jsonschema run for
# them: the other keywords (types, ranges, lengths, patterns, required fields) are REFUSING's
# (PRIO622, below, outside status) and the loader's where it reads the field (PRIO621).
CHECKED = frozenset(("properties", "items", "additionalProperties", "enum", "x-kubernetes-preserve-unknown-fields"))


def reduced(node):
    """A schema with the CHECKED keywords alone."""
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k == "properties":
            out[k] = {p: reduced(x) for p, x in v.items()}
        elif k in ("items", "additionalProperties"):
            out[k] = reduced(v)
        elif k in CHECKED:
            out[k] = v
    return out


@cache
def checked(kind: str, version: str = VERSION) -> dict:
    """The vendored schema of a kind with the CHECKED keywords alone (made once per kind)."""
    return reduced(schema(kind, version))


@cache
def validator(kind: str, version: str = VERSION):
    """The jsonschema validator of a kind's checked schema, made on the first object of that kind
    with an error."""
    from jsonschema import Draft7Validator

    return Draft7Validator(structural(checked(kind, version)))


def unnulled(data):
    """The data without the null values of mappings (the API server prunes them)."""
    if isinstance(data, dict):
        return {k: unnulled(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [unnulled(x) for x in data]
    return data


class Violation:
    """One error of an object against its kind's schema: where (the path below the object), which
    keyword, its value in the schema, the value found, and the schema node that refused it. (A
    plain class: a dataclass costs its making at import, and simulate imports this module for
    the CRD's numbers.)"""

    __slots__ = ("path", "keyword", "expected", "found", "schema")

    def __init__(self, path: tuple, keyword: str, expected, found, schema: dict):
        self.path, self.keyword, self.expected, self.found, self.schema = path, keyword, expected, found, schema


def violations(kind: str, obj: dict, version: str = VERSION) -> list[Violation]:
    """Every error of `obj` (a Kueue object of `kind`) against the CHECKED keywords of the vendored
    schema of `version`, in the order of the object (the path's order)."""
    if kind not in PLURALS or not isinstance(obj, dict):
        return []
    from prio.lint.schemacheck import valid

    # The common case, a valid object, needs no jsonschema (its import costs more than the checks)
    # and no copy without nulls (most objects have none).
    if valid(obj, schema(kind, version), closed=True, only=CHECKED):
        return []
    data = unnulled(obj)
    if data != obj and valid(data, schema(kind, version), closed=True, only=CHECKED):
        return []
    out = []
    for err in validator(kind, version).iter_errors(data):
        out.append(Violation(tuple(err.absolute_path), str(err.validator), err.validator_value, err.instance, err.schema))
    return sorted(out, key=lambda v: tuple((0, str(p)) if isinstance(p, str) else (1, p) for p in v.path))


@cache
def field(kind: str, where: str) -> dict:
    """The vendored schema of one field of a kind: `where` is its path below the object, a list's
    items written `[]` ("spec.podSets[].count"). The loader takes the CRD's numbers from here (a
    list's maxItems, an integer's minimum and format) rather than writing them again."""
    node = schema(kind)
    for part in where.split("."):
        lists = part.count("[]")
        node = node["properties"][part.replace("[]", "")]
        for _ in range(lists):
            node = node["items"]
    return node


_FORMAT_MAX = {"int32": 2**31 - 1, "int64": 2**63 - 1}


def integer_range(kind: str, where: str) -> tuple:
    """(minimum, maximum) of an integer field: the CRD's minimum (else its format's least), and its
    format's greatest (Kubernetes decodes an int32 field into an int32)."""
    node = field(kind, where)
    top = _FORMAT_MAX[node["format"]]
    return node.get("minimum", -top - 1), top


# ---- what the API server's schema check refuses beyond the CHECKED keywords (PRIO622) -----------

# The API server validates a custom object against its CRD's structural schema after pruning
# nulls and applying the schema's defaults; these keywords refuse it there (enum and unknown
# fields are PRIO607's and PRIO610's, above). `format` is not among them: the API server checks
# a string's formats, and an int32/int64 integer's range is the decoding's (the loader's ranges).
REFUSING = frozenset(("type", "properties", "items", "additionalProperties", "anyOf", "required", "minimum", "maximum",
                      "minItems", "maxItems", "minLength", "maxLength", "maxProperties", "pattern"))
QUANTITY_TYPES = ["number", "string"]


def _refusing(node):
    """A schema node with the REFUSING keywords alone, as the API server applies them:
    - a required property with a `default` is never missing (defaults are applied first);
    - `x-kubernetes-int-or-string` (a quantity, an int-or-string weight) takes a number with a
      fraction too. An explicit exception, not the API server's schema: its anyOf integer/string
      refuses `weight: 0.5` unquoted, which the recorded scenarios write (kueue/
      fairshare--random-08, kueue-2's fairshare family) and Kueue's own replay read, decoding the
      quantity as Kubernetes' resource.Quantity does; prio follows the recorded scenarios (a
      quantity's own spelling is PRIO608's and the loader's, which read it that way too)."""
    if not isinstance(node, dict):
        return node
    if node.get("x-kubernetes-int-or-string"):
        out: dict = {"type": QUANTITY_TYPES}
        if "pattern" in node:
            out["pattern"] = node["pattern"]
        return out
    out = {}
    for k, v in node.items():
        if k not in REFUSING:
            continue
        if k == "properties":
            out[k] = {p: _refusing(s) for p, s in v.items()}
        elif k in ("items", "additionalProperties"):
            out[k] = _refusing(v)
        elif k == "anyOf":
            out[k] = [_refusing(s) for s in v]
        elif k == "required":
            props = node.get("properties", {})
            need = [p for p in v if "default" not in props.get(p, {})]
            if need:
                out[k] = need
        else:
            out[k] = v
    return out


@cache
def refusing(kind: str, version: str = VERSION) -> dict:
    """The kind's schema as its refusals are checked (_refusing), without `status`: the API
    server drops a Kueue object's status on create and update (each kind with a status has the
    status subresource), so a file's status is never refused by the schema; Kueue writes it."""
    out = _refusing(schema(kind, version))
    props = dict(out.get("properties", {}))
    props.pop("status", None)
    return dict(out, properties=props)


@cache
def _refusing_validator(kind: str, version: str = VERSION):
    from jsonschema import Draft7Validator

    return Draft7Validator(refusing(kind, version))


def refusals(kind: str, obj: dict, version: str = VERSION) -> list[Violation]:
    """Every error of `obj` (a Kueue object of `kind`) the API server's schema check refuses it
    for, beyond the CHECKED keywords (types, required fields, ranges, lengths, patterns), in the
    order of the object; a missing field's path names it (its parent holds no value for it)."""
    if kind not in PLURALS or not isinstance(obj, dict):
        return []
    from prio.lint.schemacheck import valid

    if valid(obj, refusing(kind, version)):
        return []
    data = unnulled(obj)
    if data != obj and valid(data, refusing(kind, version)):
        return []
    out = []
    seen = set()
    for err in _refusing_validator(kind, version).iter_errors(data):
        path, keyword = tuple(err.absolute_path), str(err.validator)
        if keyword == "required":
            for p in err.validator_value:
                if isinstance(err.instance, dict) and p not in err.instance and path + (p,) not in seen:
                    seen.add(path + (p,))
                    out.append(Violation(path + (p,), keyword, p, None, err.schema))
            continue
        out.append(Violation(path, keyword, err.validator_value, err.instance, err.schema))
    return sorted(out, key=lambda v: tuple((0, str(p)) if isinstance(p, str) else (1, p) for p in v.path))


_JSON_TYPE = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"), (dict, "object"))


def json_type(value) -> str:
    """The JSON type of a decoded value, as the API server names it ("string", "array", ...)."""
    if value is None:
        return "null"
    return next(name for t, name in _JSON_TYPE if isinstance(value, t))


def _shown(value) -> str:
    """A value as the API server quotes it in an error (JSON, long strings cut)."""
    if isinstance(value, str) and len(value) > 64:
        value = value[:61] + "..."
    return json.dumps(value, ensure_ascii=True, default=str)


def said(v: Violation) -> str:
    """What the API server says of a refusal (apimachinery's field.Error: the field's path,
    the kind of error, the value, the detail), e.g.
    `spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Required value`."""
    from prio.diagnostics import format_path

    where = format_path(v.path) or "<root>"
    k, x, found = v.keyword, v.expected, v.found
    if k == "required":
        return f"{where}: Required value"
    if k in ("type", "anyOf"):
        want = ",".join(x) if isinstance(x, list) else str(x)
        if k == "anyOf" or x == QUANTITY_TYPES:
            want = "integer,string"
        t = json_type(found)
        return f'{where}: Invalid value: "{t}": {where} in body must be of type {want}: "{t}"'
    if k == "minimum":
        return f"{where}: Invalid value: {_shown(found)}: {where} in body should be greater than or equal to {_shown(x)}"
    if k == "maximum":
        return f"{where}: Invalid value: {_shown(found)}: {where} in body should be less than or equal to {_shown(x)}"
    if k == "minItems":
        return f"{where}: Invalid value: {len(found)}: {where} in body should have at least {x} items"
    if k in ("maxItems", "maxProperties"):
        return f"{where}: Too many: {len(found)}: must have at most {x} items"
    if k == "minLength":
        return f"{where}: Invalid value: {_shown(found)}: {where} in body should be at least {x} chars long"
    if k == "maxLength":
        return f"{where}: Too long: may not be more than {x} bytes"
    if k == "pattern":
        return f"{where}: Invalid value: {_shown(found)}: {where} in body should match '{x}'"
    return f"{where}: Invalid value: {_shown(found)}"  # (no other keyword is REFUSING)


def _shape(node, required: bool):
    """A schema node in the loader's shape language (prio.kueue.load._check_shape): "str", "strmap",
    a dict of the properties' shapes ("*": any other key's, "!": the required keys, when
    `required`), [the items' shape]; None where the loader checks nothing (an integer, a boolean,
    a quantity: read where used, the loader says why)."""
    if not isinstance(node, dict) or node.get("x-kubernetes-int-or-string"):
        return None
    t = node.get("type")
    if t == "string":
        return "str"
    if t == "array":
        return [_shape(node.get("items"), required)]
    if t != "object":
        return None
    props = node.get("properties", {})
    extra = node.get("additionalProperties")
    if not props and isinstance(extra, dict) and extra.get("type") == "string" and not extra.get("x-kubernetes-int-or-string"):
        return "strmap"
    out: dict = {}
    for p, s in props.items():
        sub = _shape(s, required)
        if sub is not None:
            out[p] = sub
    if isinstance(extra, dict):
        sub = _shape(extra, required)
        if sub is not None:
            out["*"] = sub
    need = tuple(p for p in node.get("required", ()) if "default" not in props.get(p, {}))
    if required and need:
        out["!"] = need
    return out


@cache
def shape(kind: str) -> dict:
    """The loader's shape of a kind (_shape), from its vendored schema: the fields `spec` requires
    required, `status`'s not (the API server drops a file's status: Kueue writes it)."""
    props = schema(kind).get("properties", {})
    out = {}
    for p, s in props.items():
        sub = _shape(s, p == "spec")
        if sub is not None:
            out[p] = sub
    return out
