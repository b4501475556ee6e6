"""The JSON Schema of prio's native snapshot (schemas/yunikorn-snapshot.schema.json,
docs/snapshot-format.md): a valid Draft 2020-12 schema, in step with the loader (the keys it
names are the ones prio.yunikorn.load.native reads), the samples and what `prio snapshot` writes
conform, and `yunikornVersion` takes exactly the releases prio knows (a minor or a patch)."""
from __future__ import annotations

import json
import os

import pytest
import yaml

from conftest import ROOT, run_cli, sample
from prio import __version__
from prio.yunikorn import releases
from prio.yunikorn.load import native


@pytest.fixture(scope="module")
def validator():
    from jsonschema import Draft202012Validator

    from prio.io.package_data import schema_path

    with open(schema_path("yunikorn-snapshot.schema.json"), encoding="utf-8") as fh:
        schema = json.load(fh)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(validator, doc) -> list:
    return [e.message for e in validator.iter_errors(doc)]


def test_the_schema_is_versioned_and_names_the_keys_the_loader_reads(validator):
    s = validator.schema
    assert s["$id"] == "urn:prio:schema:yunikorn-snapshot" and s["x-prio-version"] == __version__
    app = s["properties"]["applications"]["items"]
    assert tuple(s["properties"]) == native.TOP and tuple(app["properties"]) == native.APP
    assert tuple(app["properties"]["asks"]["items"]["properties"]) == native.ASK
    assert tuple(app["properties"]["allocations"]["items"]["properties"]) == native.ALLOC


@pytest.mark.parametrize("name", ["batch", "cluster", "gang", "preemption", "quota", "walkthrough"])
def test_the_samples_conform(validator, name):
    with open(sample(f"{name}-asks.yaml"), encoding="utf-8") as fh:
        assert _errors(validator, yaml.safe_load(fh)) == []


def test_what_prio_snapshot_writes_conforms_with_the_release_it_records(validator):
    r = run_cli("snapshot", sample("walkthrough-queues.yaml"), sample("walkthrough-asks.yaml"), "--yunikorn-version", "1.6.3",
                "--output-file", "-")
    assert r.exit_code == 0, r.stderr
    doc = next(d for d in yaml.safe_load_all(r.stdout) if d and "applications" in d)  # (the config is a document of its own)
    assert doc["yunikornVersion"] == "1.6" and _errors(validator, doc) == []


GOOD = ["1.5", "1.6", "1.6.3", "v1.9", "1.9.0", 1.8]
BAD = ["1.4", "1.10", "2.0", "1", "1.6.x", "", 1.4, 2, [1.6], {"v": 1.6}]


@pytest.mark.parametrize("value", GOOD)
def test_yunikorn_version_a_release_prio_knows_validates(validator, value):
    assert _errors(validator, {"yunikornVersion": value, "applications": []}) == []
    assert releases.get(str(value)) is not None  # and the loader takes it


@pytest.mark.parametrize("value", BAD)
def test_yunikorn_version_of_no_known_release_does_not(validator, value):
    errors = _errors(validator, {"yunikornVersion": value, "applications": []})
    assert errors, value
    if not isinstance(value, (list, dict)):
        assert not str(value) or releases.get(str(value)) is None  # the loader refuses it too (native._release)


def test_a_key_the_schema_does_not_name_fails(validator):
    assert _errors(validator, {"applications": [{"id": "a", "surprise": 1}]})
    assert _errors(validator, {"applications": [], "yunikornRelease": "1.6"})


def test_the_snapshot_format_names_the_schema():
    with open(os.path.join(ROOT, "docs", "snapshot-format.md"), encoding="utf-8") as fh:
        assert "schemas/yunikorn-snapshot.schema.json" in fh.read()
