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


def valid(data, schema: dict) -> bool:
    """True when `data` is certainly valid against `schema` (only local "#/$defs/..." refs)."""
    got = _COMPILED.get(id(schema))
    if got is None or got[0] is not schema:
        try:
            got = (schema, _compile(schema))
        except (_Undecided, RecursionError):
            got = (schema, None)
        _COMPILED[id(schema)] = got  # the schema is kept with it, so its id stays its own
    check = got[1]
    if check is None:
        return False
    try:
        return check(data)
    except RecursionError:
        return False


_COMPILED: dict = {}  # id(schema) -> (schema, its check or None: a keyword this cannot decide)


def _compile(schema: dict):
    """One check function per schema node, made once: a 10,000-queue config is checked node by
    node, and reading each keyword of each schema again at every node cost more than the check.
    An unknown keyword anywhere the root reaches raises _Undecided (the caller lets jsonschema
    decide), whatever the data. The checks of a node are all required, so their order does not change the answer."""
    defs = schema.get("$defs", {})
    refs: dict = {}  # a $defs name -> a one-element list holding its (check, quick) (recursive refs)

    def ref(name):
        box = refs.get(name)
        if box is None:
            box = refs[name] = [None]
            box[0] = node(defs[name])
        return box

    def node(s):
        """(check, quick) of schema node `s`: quick is the Python types a value of which the node
        takes whatever it is (a scalar of the right type, a mapping where only lists are
        checked, ...): the loops over a mapping's values and a list's items test those by their
        type, without calling the check (most of a config's values are scalars of `text`)."""
        if s is True:
            return _yes, _ANY
        if type(s) is not dict:
            raise _Undecided(s)
        if not s.keys() <= _KNOWN:
            raise _Undecided(set(s) - _KNOWN)
        tests = []
        quick = _ANY
        types = None
        t = s.get("type")
        if t is not None:
            types = [t] if type(t) is str else t
            for x in types:
                if x not in _TYPES:
                    raise _Undecided(x)
            tests.append(_type_test(types))
            quick = frozenset(_EXACT[x] for x in types)
        r = s.get("$ref")
        if r is not None:
            if not (type(r) is str and r.startswith("#/$defs/") and r[8:] in defs):
                raise _Undecided(r)
            box = ref(r[8:])
            # the definition itself once it is made; a reference inside it (queues in queues)
            # reads it when called, and is not known to take anything by its type
            if box[0] is not None:
                tests.append(box[0][0])
                quick &= box[0][1]
            else:
                tests.append(lambda v: box[0][0](v))
                quick = frozenset()
        enum = s.get("enum")
        if enum is not None:
            if not all(type(e) is str for e in enum):
                raise _Undecided(enum)
            allowed = frozenset(enum)
            tests.append(lambda v: type(v) is str and v in allowed)
            quick = frozenset()
        lo, hi = s.get("minimum"), s.get("maximum")
        if lo is not None or hi is not None:
            tests.append(_bounds_test(lo, hi))
            quick -= {int, float}
        any_of = s.get("anyOf")
        if any_of is not None:
            subs = [node(x) for x in any_of]
            tests.append(_either([c for c, _ in subs]))
            quick &= frozenset().union(*(q for _, q in subs))
        if "properties" in s or "additionalProperties" in s:
            props = {k: node(x) for k, x in s.get("properties", {}).items()}
            extra = s.get("additionalProperties", True)
            tests.append(_object_test(props, extra if extra is True or extra is False else node(extra)))
            quick -= {dict}
        items = s.get("items")
        if items is not None:
            each = node(items)[0]
            tests.append(lambda v: type(v) is not list or all(map(each, v)))
            quick -= {list}
        if not tests:
            return _yes, _ANY
        if len(tests) == 2 and types is not None and (s.keys() & {"properties", "additionalProperties", "items"}):
            # a mapping's or a list's type and its contents, in one call: a container is checked
            # for its contents, anything else by its type (the contents' test takes it)
            return _typed_container(tests[0], tests[1], dict if items is None else list), quick
        return _both(tests), quick

    return node(schema)[0]


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
# every type decoded data holds (a quick set of a node that takes anything)
_ANY = frozenset((dict, list, str, int, float, bool, type(None)))


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


def _typed_container(type_test, contents, kind: type):
    """type_test and contents (a test that takes anything but a `kind`) as one call."""
    if not type_test(kind()):  # the type does not allow the container at all
        return type_test

    def test(v) -> bool:
        return contents(v) if type(v) is kind else type_test(v)
    return test


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


def _object_test(props: dict, extra):
    """properties and additionalProperties: a key the properties name takes their check, any
    other (or a key that is not a string) the additionalProperties one (`extra`: True, False, or
    its (check, quick)). A value of a type its check takes whatever it is (a quick type) is
    not checked by a call."""
    closed = extra is False
    other, other_quick = (None, _ANY) if extra is True or closed else extra
    checks = {k: c for k, (c, _) in props.items()}
    quick = {k: q for k, (_, q) in props.items()}
    get_quick, get_check = quick.get, checks.get

    def test(v) -> bool:
        if type(v) is not dict:
            return True
        for k, x in v.items():
            q = get_quick(k) if type(k) is str else None
            if q is not None:
                if type(x) not in q and not get_check(k)(x):
                    return False
            elif closed or type(k) is not str or (other is not None and type(x) not in other_quick and not other(x)):
                return False
        return True
    return test
