"""A yes/no check of decoded data against the bundled JSON Schema, without jsonschema.

Most configs are valid, and importing jsonschema and walking a big config with it costs more than
everything else `prio validate` does on a small file (pre-commit runs it on every commit). This
interprets the few keywords the bundled schema uses (type, properties, additionalProperties,
items, anyOf, enum of strings, minimum, maximum, local $ref) and answers True only when the data
is certainly valid; anything it cannot decide, or any doubt, answers False, and the caller lets
jsonschema find and describe the errors as before. A test checks it agrees with jsonschema.
Pure: no I/O.
"""
from __future__ import annotations

import math

_IGNORED = frozenset(("$schema", "$id", "$defs", "title", "description", "$comment"))
_KNOWN = frozenset(("type", "properties", "additionalProperties", "items", "anyOf", "enum", "minimum",
                    "maximum", "$ref")) | _IGNORED


class _Undecided(Exception):
    pass


def _is(t: str, v) -> bool:
    if t == "object":
        return type(v) is dict
    if t == "array":
        return type(v) is list
    if t == "string":
        return type(v) is str
    if t == "null":
        return v is None
    if t == "boolean":
        return type(v) is bool
    if t == "integer":
        return type(v) is int or (type(v) is float and v.is_integer())
    if t == "number":
        return type(v) is int or (type(v) is float and not math.isnan(v))
    raise _Undecided(t)


def valid(data, schema: dict) -> bool:
    """True when `data` is certainly valid against `schema` (only local "#/$defs/..." refs)."""
    defs = schema.get("$defs", {})

    def ok(s, v) -> bool:
        if s is True:
            return True
        if type(s) is not dict:
            raise _Undecided(s)
        if not s.keys() <= _KNOWN:
            raise _Undecided(set(s) - _KNOWN)
        t = s.get("type")
        if t is not None:
            if type(t) is str:
                if not _is(t, v):
                    return False
            elif not any(_is(x, v) for x in t):
                return False
        ref = s.get("$ref")
        if ref is not None:
            if not (type(ref) is str and ref.startswith("#/$defs/") and ref[8:] in defs):
                raise _Undecided(ref)
            if not ok(defs[ref[8:]], v):
                return False
        enum = s.get("enum")
        if enum is not None:
            if not all(type(e) is str for e in enum):
                raise _Undecided(enum)
            if type(v) is not str or v not in enum:
                return False
        if type(v) is int or type(v) is float:
            lo, hi = s.get("minimum"), s.get("maximum")
            if lo is not None and not v >= lo:
                return False
            if hi is not None and not v <= hi:
                return False
        any_of = s.get("anyOf")
        if any_of is not None and not any(ok(x, v) for x in any_of):
            return False
        if type(v) is dict:
            props = s.get("properties", {})
            extra = s.get("additionalProperties", True)
            for k, x in v.items():
                sub = props.get(k) if type(k) is str else None
                if sub is not None:
                    if not ok(sub, x):
                        return False
                elif extra is False or type(k) is not str:
                    return False
                elif extra is not True and not ok(extra, x):
                    return False
        elif type(v) is list:
            items = s.get("items")
            if items is not None:
                for x in v:
                    if not ok(items, x):
                        return False
        return True

    try:
        return ok(schema, data)
    except (_Undecided, RecursionError):
        return False
