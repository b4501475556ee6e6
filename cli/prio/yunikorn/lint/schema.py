"""JSON Schema validation of decoded data, turned into findings at the right node.

jsonschema's error tree does the work; we only pick the best error of an anyOf (as
check-jsonschema's best match does) and find the anchor the error is about: the offending key
for unknown keys, the value otherwise."""
from __future__ import annotations

import json
from functools import cache

from prio.diagnostics import Issue, format_path
from prio.io.package_data import schema_path
from prio.values import describe


@cache
def load_schema(name: str = "yunikorn-queues.schema.json") -> dict:
    with open(schema_path(name), encoding="utf-8") as fh:
        return json.load(fh)


def inline_refs(schema: dict) -> dict:
    """The same schema with every non-recursive local $ref replaced by its target: reference
    resolution is the validator's hottest path on a 10,000-queue file. Recursive definitions
    (queues in queues, placement rule parents) keep their $ref."""
    defs = schema.get("$defs", {})

    def expand(node, stack):
        if isinstance(node, list):
            return [expand(x, stack) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/"):]
            if stack.count(name) < UNROLL and name in defs and set(node) <= {"$ref", "description"}:
                return expand(defs[name], stack + (name,))
        return {k: expand(v, stack) for k, v in node.items() if k != "$defs"}

    out = expand(schema, ())
    out["$defs"] = {k: expand(v, (k,)) for k, v in defs.items()}
    return out


# Recursive definitions are unrolled this many levels before the $ref stays: a queue tree rarely
# goes deeper, and each $ref the validator resolves costs as much as validating a small queue.
UNROLL = 6


@cache
def validator(name: str = "yunikorn-queues.schema.json"):
    from jsonschema import Draft202012Validator

    # Built once per process; the bundled schema is checked against the metaschema by a test
    # (tests/lint), never at run time.
    return Draft202012Validator(inline_refs(load_schema(name)))


_WANT = {"object": "a mapping", "array": "a list", "string": "a string", "number": "a number",
         "integer": "an integer", "boolean": "a boolean", "null": "nothing"}


def _describe(v) -> str:
    return describe(v, article=False)


def suggest(key: str, allowed) -> str:
    allowed = list(allowed)
    for a in allowed:
        if a == key.lower():
            return f"; did you mean {a!r}? (YuniKorn keys are the lower-case Go field names)"
    import difflib

    near = difflib.get_close_matches(key.lower(), allowed, n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""


def _issue(err) -> list[Issue]:
    path = tuple(err.absolute_path)
    v = err.validator
    if v in ("anyOf", "oneOf") and err.context:
        from jsonschema.exceptions import best_match

        sub = best_match(err.context)
        # The bool anyOf: say what a YuniKorn boolean is rather than list both branches.
        if "boolean" in json.dumps(err.schema.get("anyOf", [])):
            return [Issue("PRIO003", path, f"expected a boolean (true/false, yes/no, on/off, y/n), found {_describe(err.instance)}")]
        return _issue(sub)
    if v == "additionalProperties":
        allowed = err.schema.get("properties", {})
        extra = [k for k in err.instance if k not in allowed]
        where = format_path(path) or "the top level"
        return [Issue("PRIO001", path + (k,), f"unknown key {k!r} in {where}: YuniKorn's strict decoder rejects it{suggest(k, allowed)}", at="key") for k in extra]
    if v == "type":
        want = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        want = [w for w in want if w != "null"] or want
        wanted = " or ".join(_WANT.get(w, w) for w in want[:2]) if len(want) <= 2 else "a scalar"
        return [Issue("PRIO003", path, f"expected {wanted}, found {_describe(err.instance)}")]
    if v in ("minimum", "maximum") and isinstance(err.instance, (int, float)):
        return [Issue("PRIO003", path, f"{path[-1] if path else 'value'} must be an unsigned 64-bit integer (0 to 18446744073709551615), found {err.instance}")]
    return [Issue("PRIO005", path, err.message)]


def validate(data, name: str = "yunikorn-queues.schema.json") -> list[Issue]:
    from prio.lint.schemacheck import valid

    if valid(data, load_schema(name)):  # the common case needs no jsonschema at all
        return []
    issues: list[Issue] = []
    for err in validator(name).iter_errors(data):
        issues.extend(_issue(err))
    return issues
