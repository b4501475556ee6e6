"""The JSON Schemas of Volcano's outputs (schemas/volcano-simulate, volcano-explain,
volcano-why-job, volcano-diff): valid
schemas, shipped where prio finds its schemas, and the output of every recorded scenario and of
the bundled sample validates against its schema."""
from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import SHARED, run_cli

DATA = os.path.join(SHARED, "testdata", "volcano")
INPUTS = sorted(glob.glob(os.path.join(DATA, "*.yaml")))


def validator(name: str):
    from jsonschema import Draft202012Validator

    from prio.io.package_data import schema_path

    with open(schema_path(f"volcano-{name}.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_the_sample_conforms(command):
    r = run_cli(command, "--sample", "volcano", "-o", "json")
    assert r.exit_code == 0, r.stderr
    errors = list(validator(command).iter_errors(json.loads(r.stdout)))
    assert not errors, [e.message for e in errors]


@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_every_recorded_scenario_conforms(command):
    if not INPUTS:
        pytest.skip("../shared/testdata/volcano is absent")
    v = validator(command)
    for path in INPUTS:
        r = run_cli(command, path, "-o", "json")
        assert r.exit_code == 0, (path, r.stderr)
        errors = list(v.iter_errors(json.loads(r.stdout)))
        assert not errors, (path, [e.message for e in errors][:3])


def test_a_refused_config_is_said_in_the_output():
    path = os.path.join(DATA, "config--unknown-action.yaml")
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/volcano is absent")
    r = run_cli("simulate", path, "-o", "plain")
    assert r.exit_code == 0
    assert "refused by Volcano ('failed to find Action  preemt'): the default config runs" in r.stdout


def test_why_job_of_every_podgroup_of_a_few_scenarios_conforms():
    v = validator("why-job")
    picked = [p for p in INPUTS if os.path.basename(p).split("--")[0] in ("config", "capacity", "preempt")][:6]
    if not picked:
        pytest.skip("../shared/testdata/volcano is absent")
    for path in picked:
        groups = json.loads(run_cli("simulate", path, "-o", "json").stdout)["podGroups"]
        for g in groups:
            r = run_cli("explain", path, "--why-job", g["podGroup"], "-o", "json")
            assert r.exit_code == 0, (path, r.stderr)
            errors = list(v.iter_errors(json.loads(r.stdout)))
            assert not errors, (path, g["podGroup"], [e.message for e in errors][:3])


def test_diff_conforms(tmp_path):
    from conftest import ROOT

    text = open(os.path.join(ROOT, "samples", "volcano.yaml"), encoding="utf-8").read()
    (tmp_path / "new.yaml").write_text(text.replace("preempt, reclaim, ", ""))
    r = run_cli("diff", os.path.join(ROOT, "samples", "volcano.yaml"), str(tmp_path / "new.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["pods"] and not list(validator("diff").iter_errors(d))
