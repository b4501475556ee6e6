"""The JSON Schemas of YuniKorn's outputs (schemas/yunikorn-explain, -simulate, -preempt, -diff;
issue 44): valid Draft 2020-12 schemas with an `$id` and prio's version, shipped where prio finds
its schemas, strict (a key they do not name fails), and every `-o json` conforms: the goldens
here, and every run of the suite (conftest's run_cli and run_prio check each YuniKorn `-o json`
against its schema on the way)."""
from __future__ import annotations

import glob
import json
import os

import pytest

from builders import walkthrough_queues_lowered
from conftest import ROOT, SCHEMA_COMMANDS, SHARED, check_yunikorn_json, run_cli, sample, yunikorn_validator
from prio import __version__

LIVE = os.path.join(SHARED, "testdata", "yunikorn-rest-live")


@pytest.mark.parametrize("command", SCHEMA_COMMANDS)
def test_each_schema_is_valid_versioned_and_ships_with_prio(command):
    from jsonschema import Draft202012Validator

    v = yunikorn_validator(command)
    Draft202012Validator.check_schema(v.schema)
    assert v.schema["$id"] == f"urn:prio:schema:yunikorn-{command}"
    assert v.schema["x-prio-version"] == __version__ and __version__ in v.schema["description"]


@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_the_goldens_conform(command):
    with open(os.path.join(ROOT, "tests", "golden", command, "walkthrough.json"), encoding="utf-8") as fh:
        check_yunikorn_json(command, fh.read())


def test_a_key_the_schema_does_not_name_fails():
    r = run_cli("simulate", "-o", "json")
    doc = json.loads(r.stdout)
    doc["steps"][0]["surprise"] = 1
    with pytest.raises(AssertionError, match="surprise"):
        check_yunikorn_json("simulate", json.dumps(doc))
    doc = json.loads(r.stdout)
    doc["steps"][0]["priority"] = "high"
    with pytest.raises(AssertionError, match="priority"):
        check_yunikorn_json("simulate", json.dumps(doc))


SAMPLES = ["walkthrough", "batch", "cluster", "preemption", "quota"]


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("command", ["explain", "simulate", "preempt"])
def test_every_sample_conforms(command, name):
    r = run_cli(command, "--sample", name, "-o", "json")  # checked by run_cli
    assert r.exit_code in (0, 1) or command == "preempt" and "preemption is per node" in r.stderr, r.stderr


@pytest.mark.parametrize("args", [
    ("--why", "root.tenants.tenant-a"), ("--why", "root"), ("--why-ask", "app-4-1"),
    ("--why-ask", "app-6-2", "--behind", "app-4-1"), ("--pending",), ("--priority-classes", sample("priorityclasses.yaml")),
])
def test_every_explain_answer_conforms(args):
    r = run_cli("explain", *args, "-o", "json")
    assert r.exit_code == 0, r.stderr


def test_diff_conforms(tmp_path):
    new = tmp_path / "new.yaml"
    new.write_text(walkthrough_queues_lowered())
    assert run_cli("diff", sample("walkthrough-queues.yaml"), str(new), sample("walkthrough-asks.yaml"), "-o", "json").exit_code == 0
    old = tmp_path / "quota-old.yaml"
    old.write_text(open(sample("quota-queues.yaml"), encoding="utf-8").read().replace("max: {vcore: 8} ", "max: {vcore: 16} "))
    r = run_cli("diff", str(old), sample("quota-queues.yaml"), sample("quota-asks.yaml"), "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["quotaPreemption"]["leaves"], r.stderr
    r = run_cli("diff", sample("walkthrough-queues.yaml"), sample("mistakes.yaml"), sample("walkthrough-asks.yaml"), "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["findings"]["added"], r.stderr


@pytest.mark.parametrize("command", ["explain", "simulate", "preempt"])
def test_the_saved_rest_dumps_conform(command):
    dumps = sorted(glob.glob(os.path.join(LIVE, "*", "ws")))
    if not dumps:
        pytest.skip("needs ../shared/testdata/yunikorn-rest-live")
    for d in dumps:
        run_cli(command, d, "-o", "json")  # each checked by run_cli


def test_the_page_lists_every_field():
    """docs/json-output.md is generated (docs/_hooks/jsonschema.py) from the schemas: every field
    path of every schema is on it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("jsonschema_hook", os.path.join(ROOT, "docs", "_hooks", "jsonschema.py"))
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = hook.page_markdown()
    for command in SCHEMA_COMMANDS:
        assert f"## prio {command}" in page and f"urn:prio:schema:yunikorn-{command}" in page
    for path in ("`steps[].changes[].from`", "`asks.*.eligibleVictims`", "`quotaPreemption.leaves[].candidates[].optedOut`",
                 "`queues[].priority`", "`reasons[].queues[].first[].ask`"):
        assert path in page, path
