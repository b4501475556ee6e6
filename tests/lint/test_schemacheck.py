"""The jsonschema-free check (lint/schemacheck.py) says "valid" only where jsonschema finds no
error, on every recorded config, the samples and mutations of them, and validate does not import
jsonschema or rich for a clean config."""
import functools
import glob
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import ROOT, SHARED, sample
from prio.io import yamlnodes
from prio.lint.schemacheck import valid
from prio.yunikorn.lint.schema import load_schema, validator
from strategies import an_example, mutated


def _datas():
    files = sorted(glob.glob(os.path.join(SHARED, "testdata", "yunikorn-conformance", "validate", "*.yaml")))
    files += sorted(glob.glob(os.path.join(SHARED, "testdata", "yunikorn-configs", "*.yaml")))
    files += [sample(n) for n in ("walkthrough-queues.yaml", "batch-queues.yaml", "mistakes.yaml", "preemption-queues.yaml")]
    for f in files:
        try:
            docs = yamlnodes.load(f, open(f, encoding="utf-8").read(), go=True)
        except Exception:
            continue
        for d in docs:
            yield d.data


def _agrees(data):
    errors = list(validator().iter_errors(data))
    if valid(data, load_schema()):
        assert not errors, (data, errors[0].message)
    return not errors


def test_valid_only_where_jsonschema_finds_nothing():
    seen_valid = seen_invalid = 0
    for data in _datas():
        if _agrees(data):
            seen_valid += 1
        else:
            seen_invalid += 1
    assert seen_valid > 10


@functools.cache
def _documents() -> list:
    """The recorded configs and the samples that are mappings: what the mutations start from."""
    return [d for d in _datas() if isinstance(d, dict)]


# a recorded config or a sample with one to three values made awkward (tests/strategies.py mutated)
_mutations = st.deferred(lambda: st.sampled_from(_documents()).flatmap(mutated))


@settings(max_examples=350, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations)
def test_mutations_agree(data):
    event("valid" if _agrees(data) else "invalid")


@pytest.mark.parametrize("valid_one", [True, False])
def test_the_mutations_are_valid_and_invalid_both(valid_one):
    """The property above holds to jsonschema both documents it finds valid and invalid."""
    an_example(_mutations, lambda data: _agrees(data) == valid_one)


def test_clean_validate_imports_neither_jsonschema_nor_rich():
    code = (f"import sys; sys.argv=['prio', 'validate', {sample('walkthrough-queues.yaml')!r}]\n"
            "from prio.cli.entry import main\ntry: main()\nexcept SystemExit: pass\n"
            "print('HEAVY', [m for m in ('jsonschema', 'rich') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")})
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr


def _conf(**queue):
    return {"partitions": [{"name": "default", "queues": [{"name": "root", **queue}]}]}


def test_edge_values():
    schema = load_schema()
    assert valid(_conf(maxapplications=18446744073709551615), schema)
    assert valid(_conf(maxapplications=3.0, parent=True, properties={"a": 1}), schema)
    for doubt in (_conf(maxapplications=float("nan")), _conf(properties={1: "a"})):
        assert not valid(doubt, schema)  # in doubt: jsonschema decides
    for bad in (_conf(maxapplications=18446744073709551616), _conf(maxapplications=-1), _conf(maxapplications=True),
                _conf(maxapplications="3"), _conf(parent="maybe"), _conf(parent=1),
                _conf(nosuch=1), _conf(properties={"a": [1]}), _conf(queues={"a": 1}), ["x"]):
        assert not valid(bad, schema), bad
        assert list(validator().iter_errors(bad)), bad


def test_a_schema_is_compiled_once_and_an_unknown_keyword_leaves_the_answer_to_jsonschema():
    """The schema becomes check functions once (kept by its identity); a keyword the check does
    not know, anywhere the data reaches, makes it answer False (jsonschema then decides); a
    property's check is made when the data first has it (so an unknown keyword below a property
    the data never has decides nothing); a recursive definition reads itself when called."""
    tree = {"$defs": {"node": {"type": "object", "additionalProperties": False,
                               "properties": {"name": {"type": "string"},
                                              "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
            "$ref": "#/$defs/node"}
    deep = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    assert valid(deep, tree)
    assert not valid({"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}]}, tree)
    assert not valid({"name": "a", "children": [{"nom": "b"}]}, tree)
    node = tree["$defs"]["node"]
    unknown = {**tree, "$defs": {"node": {**node, "properties": {**node["properties"], "tag": {"dependentRequired": {}}}}}}
    assert valid(deep, unknown)  # the data never has a tag: its schema is never made
    assert not valid({**deep, "tag": "x"}, unknown)  # it has one: undecided
    assert not valid(deep, {**tree, "dependentRequired": {}})  # at the root: undecided whatever the data
    unused = {**tree, "$defs": {**tree["$defs"], "unused": {"pattern": "^a"}}}
    assert valid(deep, unused)  # a definition nothing refers to is never compiled


def test_the_crd_keywords_agree_with_jsonschema():
    """required, pattern, the sizes, `x-` extensions, format and default (annotations), and
    `closed` (an object schema with properties takes no other key, as Kubernetes reads a CRD)."""
    from jsonschema import Draft7Validator

    schema = {"type": "object", "required": ["name"], "x-kubernetes-validations": [{"rule": "true"}],
              "properties": {"name": {"type": "string", "pattern": "^[a-z]+$", "minLength": 2, "maxLength": 4, "default": "ab"},
                             "items": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "integer", "format": "int32"}},
                             "labels": {"type": "object", "maxProperties": 1, "additionalProperties": {"type": "string"}},
                             "free": {"type": "object", "properties": {"a": {"type": "string"}},
                                      "x-kubernetes-preserve-unknown-fields": True}}}
    closed = {**schema, "additionalProperties": False,
              "properties": {**schema["properties"], "free": schema["properties"]["free"]}}
    cases = [{"name": "ab"}, {"name": "abcd", "items": [1, 2], "labels": {"a": "b"}}, {}, {"name": "a"}, {"name": "abcde"},
             {"name": "Ab"}, {"name": "ab", "items": []}, {"name": "ab", "items": [1, 2, 3]}, {"name": "ab", "labels": {"a": "b", "c": "d"}},
             {"name": "ab", "other": 1}, {"name": "ab", "free": {"b": 1}}, {"name": "ab", "free": {"a": 1}}]
    for data in cases:
        assert valid(data, schema) == (not list(Draft7Validator(schema).iter_errors(data))), data
        assert valid(data, schema, closed=True) == (not list(Draft7Validator(closed).iter_errors(data))), data
    assert valid({"name": "ab", "other": 1}, schema) and not valid({"name": "ab", "other": 1}, schema, closed=True)


def test_only_the_keywords_named_are_checked():
    """`only`: the other keywords read as annotations (prio.kueue.crd checks the ones its lint
    reports), a keyword this check does not know among them too."""
    schema = {"type": "object", "required": ["a"], "dependentRequired": {},
              "properties": {"a": {"type": "string", "enum": ["x"]}, "b": {"maxLength": 1}}}
    only = frozenset(("properties", "enum"))
    assert not valid({}, schema) and valid({}, schema, only=only)
    assert valid({"a": "x", "b": "long"}, schema, only=only) and valid({"b": 3}, schema, only=only)
    assert not valid({"a": "y"}, schema, only=only) and not valid({"a": 1}, schema, only=only)
    assert not valid({"c": 1}, schema, closed=True, only=only)
