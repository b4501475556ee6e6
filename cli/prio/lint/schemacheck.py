"""A yes/no check of decoded data against the bundled JSON Schema, without jsonschema.

Most configs are valid, and importing jsonschema and walking a big config with it costs more than
everything else `prio validate` does on a small file (pre-commit runs it on every commit). This
interprets the few keywords the bundled schema and the backends' vendored CRD schemas use (type,
properties, additionalProperties, items, anyOf, enum of strings, minimum, maximum, required,
pattern, min/maxItems, min/maxLength, maxProperties, local $ref; format, default and `x-`
extensions are annotations to JSON Schema, as to jsonschema) and answers True only when the data
is certainly valid; anything it cannot decide, or any doubt, answers False, and the caller lets
jsonschema find and describe the errors as before. A test checks it agrees with jsonschema.
Pure: no I/O.
"""
from __future__ import annotations

import math
import re

_IGNORED = frozenset(("$schema", "$id", "$defs", "title", "description", "$comment", "format", "default"))
_KNOWN = frozenset(("type", "properties", "additionalProperties", "items", "anyOf", "enum", "minimum",
                    "maximum", "$ref", "required", "pattern", "minItems", "maxItems", "minLength", "maxLength",
                    "maxProperties")) | _IGNORED


class _Undecided(Exception):
    pass


def valid(data, schema: dict, closed: bool = False, only: frozenset | None = None) -> bool:
    """True when `data` is certainly valid against `schema` (only local "#/$defs/..." refs).
    `closed`: an object schema with properties and no additionalProperties (nor
    x-kubernetes-preserve-unknown-fields) takes no other key, as Kubernetes reads a CRD's
    structural schema (a backend's vendored CRDs), without a copy of the schema saying so. `only`:
    the keywords checked, the others read as annotations (what the backend's lint reports), again
    without a copy of the schema."""
    key = (id(schema), closed, only)
    got = _COMPILED.get(key)
    if got is None or got[0] is not schema:
        try:
            got = (schema, _compile(schema, closed, only))
        except (_Undecided, RecursionError):
            got = (schema, None)
        _COMPILED[key] = got  # the schema is kept with it, so its id stays its own
    check = got[1]
    if check is None:
        return False
    try:
        return check(data)
    except (_Undecided, RecursionError):  # (a property's schema is made when a key first needs it)
        return False


_COMPILED: dict = {}  # (id(schema), closed, only) -> (schema, its check or None: a keyword this cannot decide)


def _compile(schema: dict, closed: bool = False, only: frozenset | None = None):
    """One check function per schema node, made once: a 10,000-queue config is checked node by
    node, and reading each keyword of each schema again at every node cost more than the check.
    An unknown keyword anywhere the root reaches raises _Undecided (the caller lets jsonschema
    decide), whatever the data; below a property, when the data first has that property (a
    property's check is made then). The checks of a node are all required, so their order does not change the answer."""
    defs = schema.get("$defs", {})
    refs: dict = {}  # a $defs name -> a one-element list holding its check (recursive refs)

    def ref(name):
        box = refs.get(name)
        if box is None:
            box = refs[name] = [None]
            box[0] = node(defs[name])
        return box

    def node(s):
        if s is True:
            return _yes
        if type(s) is not dict:
            raise _Undecided(s)
        if only is not None:
            s = {k: v for k, v in s.items() if k in only}
        if not s.keys() <= _KNOWN:
            unknown = {k for k in s if k not in _KNOWN and not k.startswith("x-")}
            if unknown:
                raise _Undecided(unknown)
        tests = []
        t = s.get("type")
        if t is not None:
            types = [t] if type(t) is str else t
            for x in types:
                if x not in _TYPES:
                    raise _Undecided(x)
            tests.append(_type_test(types))
        r = s.get("$ref")
        if r is not None:
            if not (type(r) is str and r.startswith("#/$defs/") and r[8:] in defs):
                raise _Undecided(r)
            box = ref(r[8:])
            # the definition itself once it is made; a reference inside it (queues in queues)
            # reads it when called
            tests.append(box[0] or (lambda v: box[0](v)))
        enum = s.get("enum")
        if enum is not None:
            if not all(type(e) is str for e in enum):
                raise _Undecided(enum)
            allowed = frozenset(enum)
            tests.append(lambda v: type(v) is str and v in allowed)
        lo, hi = s.get("minimum"), s.get("maximum")
        if lo is not None or hi is not None:
            tests.append(_bounds_test(lo, hi))
        any_of = s.get("anyOf")
        if any_of is not None:
            subs = [node(x) for x in any_of]
            tests.append(_either(subs))
        if "properties" in s or "additionalProperties" in s:
            extra = s.get("additionalProperties", False if closed and "properties" in s
                          and not s.get("x-kubernetes-preserve-unknown-fields") else True)
            tests.append(_object_test(s.get("properties", {}), extra, node))
        req = s.get("required")
        if req is not None:
            needed = tuple(req)
            tests.append(lambda v: type(v) is not dict or all(k in v for k in needed))
        sizes = [(k, s[k]) for k in ("minItems", "maxItems", "minLength", "maxLength", "maxProperties") if k in s]
        if sizes:
            tests.append(_sizes_test(sizes))
        pattern = s.get("pattern")
        if pattern is not None:
            search = re.compile(pattern).search
            tests.append(lambda v: type(v) is not str or search(v) is not None)
        items = s.get("items")
        if items is not None:
            each = node(items)
            tests.append(lambda v: type(v) is not list or all(map(each, v)))
        if not tests:
            return _yes
        return _both(tests)

    return node(schema)


def _yes(v) -> bool:
    return True


_TYPES = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "null": lambda v: v is None,
    "boolean": lambda v: type(v) is bool,
    "integer": lambda v: type(v) is int or (type(v) is float and v.is_integer()),
    "number": lambda v: type(v) is int or (type(v) is float and not math.isnan(v)),
}


# the JSON types a Python type always is (a float is an integer or a number by its value)
_EXACT = {"object": dict, "array": list, "string": str, "null": type(None), "boolean": bool, "integer": int, "number": int}


def _type_test(types: list):
    """One test for a list of JSON types: a set of Python types (every scalar of a config is
    checked against the five of `text`, so no call per type), and a float by its value."""
    if len(types) == 1:
        return _TYPES[types[0]]
    exact = frozenset(_EXACT[x] for x in types)
    if "number" in types:  # (an integral float is a number too)
        return lambda v: type(v) in exact or (type(v) is float and not math.isnan(v))
    if "integer" in types:
        return lambda v: type(v) in exact or (type(v) is float and v.is_integer())
    return lambda v: type(v) in exact


def _both(tests: list):
    """A test passing where every one of `tests` does (in their order), without a generator
    for the usual one to three."""
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        a, b = tests
        return lambda v: a(v) and b(v)
    if len(tests) == 3:
        a, b, c = tests
        return lambda v: a(v) and b(v) and c(v)
    return lambda v: all(c(v) for c in tests)


def _either(tests: list):
    """A test passing where one of `tests` does (anyOf)."""
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        a, b = tests
        return lambda v: a(v) or b(v)
    return lambda v: any(c(v) for c in tests)


def _bounds_test(lo, hi):
    def test(v) -> bool:
        if type(v) is int or type(v) is float:
            if lo is not None and not v >= lo:
                return False
            if hi is not None and not v <= hi:
                return False
        return True
    return test


_SIZED = {"minItems": list, "maxItems": list, "minLength": str, "maxLength": str, "maxProperties": dict}


def _sizes_test(sizes: list):
    """min/maxItems, min/maxLength, maxProperties: the length of a list, string or mapping (a
    string's in code points, as jsonschema counts it)."""
    checks = [(_SIZED[k], k.startswith("min"), n) for k, n in sizes]

    def test(v) -> bool:
        for t, at_least, n in checks:
            if type(v) is t and (len(v) < n if at_least else len(v) > n):
                return False
        return True
    return test


def _object_test(schemas: dict, extra, node):
    """properties and additionalProperties: a key the properties name takes their check, any
    other (or a key that is not a string) the additionalProperties one. A property's check is made
    the first time a key needs it: a CRD's schema may hold all of a pod's spec (a workload's), and
    a validate reads a few of its fields."""
    closed = extra is False
    other = None if extra is True or closed else node(extra)
    props: dict = {}  # the checks made so far

    def test(v) -> bool:
        if type(v) is not dict:
            return True
        get = props.get
        for k, x in v.items():
            sub = get(k) if type(k) is str else None
            if sub is None and k in schemas:
                sub = props[k] = node(schemas[k])
            if sub is not None:
                if not sub(x):
                    return False
            elif closed or type(k) is not str or (other is not None and not other(x)):
                return False
        return True
    return test
