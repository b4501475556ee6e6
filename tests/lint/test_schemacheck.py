"""The jsonschema-free check (lint/schemacheck.py) says "valid" only where jsonschema finds no
error, on every recorded config, the samples and mutations of them, and validate does not import
jsonschema or rich for a clean config."""
import copy
import glob
import os
import random
import subprocess
import sys

from conftest import ROOT, SHARED, sample
from prio.io import yamlnodes
from prio.lint.schema import load_schema, validator
from prio.lint.schemacheck import valid


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


_VALUES = [None, True, False, 0, -1, 1.5, 2.0, float("nan"), float("inf"), 18446744073709551616, "x", "yes", [], {}, [1], {"a": 1}, {1: 2}]


def _mutate(rnd, data):
    data = copy.deepcopy(data)
    nodes = []

    def walk(x):
        if isinstance(x, dict):
            for k in list(x):
                nodes.append((x, k))
                walk(x[k])
        elif isinstance(x, list):
            for i in range(len(x)):
                nodes.append((x, i))
                walk(x[i])

    walk(data)
    if not nodes:
        return data
    for _ in range(rnd.randint(1, 3)):
        parent, key = rnd.choice(nodes)
        if isinstance(parent, dict) and rnd.random() < 0.2:
            parent[rnd.choice(["nosuch", "Name", key if isinstance(key, str) else "k"]) + ("" if rnd.random() < 0.5 else "x")] = rnd.choice(_VALUES)
        else:
            parent[key] = copy.deepcopy(rnd.choice(_VALUES))
    return data


def test_mutations_agree():
    rnd = random.Random(13)
    datas = [d for d in _datas() if isinstance(d, dict)]
    found_both = set()
    for _ in range(1500):
        found_both.add(_agrees(_mutate(rnd, rnd.choice(datas))))
    assert found_both == {True, False}


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
