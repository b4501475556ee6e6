"""The JSON Schemas of Kueue's outputs (schemas/kueue-simulate, kueue-explain, kueue-diff): valid
schemas, shipped where prio finds its schemas, and every output of every recorded scenario, the
sample and the diff cases validates against its schema. Outputs are strict JSON (an infinite
fair share is "+Inf", never the Infinity JSON does not have)."""
from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import ROOT, SHARED, run_cli

DATA = os.path.join(SHARED, "testdata", "kueue")
CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(DATA, "*.yaml")))
SAMPLE = os.path.join(ROOT, "samples", "kueue.yaml")


def validator(name: str):
    from jsonschema import Draft202012Validator

    from prio.io.package_data import schema_path

    with open(schema_path(f"kueue-{name}.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def strict(text: str):
    """JSON as every reader takes it: NaN and Infinity refused."""
    def refuse(word):
        raise AssertionError(f"{word} is not JSON")

    return json.loads(text, parse_constant=refuse)


def conforms(name: str, doc) -> None:
    errors = sorted(validator(name).iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def output(*args):
    r = run_cli(*args, "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    return strict(r.stdout)


@pytest.mark.parametrize("name", ["simulate", "explain", "diff"])
def test_each_schema_is_valid_and_ships_with_prio(name):
    v = validator(name)
    assert v.schema["$id"] == f"urn:prio:schema:kueue-{name}"


@pytest.mark.skipif(not CASES, reason="../shared/testdata/kueue is absent")
@pytest.mark.parametrize("case", CASES)
def test_simulate_and_explain_of_every_scenario_conform(case):
    path = os.path.join(DATA, case + ".yaml")
    conforms("simulate", output("simulate", path))
    conforms("explain", output("explain", path))
    # the recorded outcome in the shared contract's fields conforms too: the schema describes Kueue's form
    recorded = json.load(open(os.path.join(DATA, case + ".kueue.json"), encoding="utf-8"))
    conforms("simulate", {k: recorded[k] for k in ("cyclesRun", "stopReason", "cycles", "workloads")})


def test_the_sample_and_why_workload_conform():
    conforms("simulate", output("simulate", "--sample", "kueue"))
    doc = output("explain", "--sample", "kueue", "--why-workload", "team-a/a-1")
    assert doc["why"] and all(isinstance(line, str) for line in doc["why"])
    conforms("explain", doc)


def test_a_zero_weight_that_borrows_has_share_plus_inf(tmp_path):
    text = open(SAMPLE, encoding="utf-8").read().replace(
        "  name: team-b\nspec:\n", "  name: team-b\nspec:\n  fairSharing: {weight: 0}\n", 1)
    path = tmp_path / "zero.yaml"
    path.write_text("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing: {}\n---\n" + text)
    doc = output("explain", str(path))
    assert {n["name"]: n["share"] for n in doc["tree"]}["team-b"] == "+Inf"
    conforms("explain", doc)
    assert "+Inf" in run_cli("explain", str(path), "-o", "plain").stdout


def test_diff_outputs_conform(tmp_path):
    from builders import kueue_sample_split

    SETUP, NO_RECLAIM, WORK = kueue_sample_split()
    (tmp_path / "old.yaml").write_text(SETUP)
    (tmp_path / "new.yaml").write_text(NO_RECLAIM)
    (tmp_path / "work.yaml").write_text(WORK)
    broken = SETUP.replace("  name: team-a\nspec:\n  namespaceSelector: {}\n", "  name: team-a\nspec:\n", 1)
    (tmp_path / "broken.yaml").write_text(broken)
    (tmp_path / "newbroken.yaml").write_text(broken.replace("reclaimWithinCohort: Any", "reclaimWithinCohort: Never"))
    extra = WORK.split("\n---\n")[-1].replace("name: a-2", "name: a-3")
    (tmp_path / "more.yaml").write_text(open(SAMPLE, encoding="utf-8").read() + "---\n" + extra)
    seen = set()
    for args in (("old", "new", "work"), ("new", "old", "work"), ("old", "broken", "work"), ("old", "old", "work"), ("new", "newbroken", "work"),
                 ("more", SAMPLE), (SAMPLE, "more")):
        paths = [a if os.path.isabs(a) else str(tmp_path / f"{a}.yaml") for a in args]
        doc = output("diff", *paths)
        conforms("diff", doc)
        seen |= {k for c in doc["workloads"] for k in c["changes"]}
        seen |= {"findings"} if doc["findings"]["added"] or doc["findings"]["removed"] else set()
    assert {"newly pending", "newly admitted", "admitted in another cycle", "preempted more often", "preempted less often",
            "only in NEW", "only in OLD", "waits for another reason", "findings"} <= seen, seen


def test_the_schemas_refuse_what_prio_does_not_write():
    doc = output("simulate", "--sample", "kueue")
    pending = dict(doc["workloads"][0], state="Pending")  # an admitted workload's facts called pending
    bad = [dict(doc, extra=1), dict(doc, stopReason="done"), dict(doc, workloads=[pending]),
           dict(doc, cycles=[dict(doc["cycles"][0], tie=False)])]
    for d in bad:
        assert list(validator("simulate").iter_errors(d)), d
    tree = output("explain", "--sample", "kueue")
    assert list(validator("explain").iter_errors(dict(tree, tree=[dict(tree["tree"][0], share="Infinity")])))
    assert list(validator("explain").iter_errors(dict(tree, tree=[dict(tree["tree"][0], queueingStrategy="StrictFIFO")])))  # a Cohort
