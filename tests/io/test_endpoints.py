"""Saved REST answers: validate never lints a response of an endpoint prio does not read as a
queues.yaml, and a saved GET /ws/v1/config is read as the queues.yaml it serves."""
from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import run_cli, shared


def test_validate_names_rest_answers_instead_of_linting_them():
    d = shared("testdata", "yunikorn-rest")
    r = run_cli("validate", "--no-config", "-o", "json", d)
    assert r.exit_code == 2, r.stdout  # nothing there is a queue config
    rules = {f["rule"] for f in json.loads(r.stdout)["findings"]}
    assert rules == {"PRIO000"}, rules
    nodes = os.path.join(d, "yunikorn-site__docs__api__scheduler__nodes.json")
    r = run_cli("validate", nodes)
    assert r.exit_code == 2 and "/ws/v1/partition/{p}/nodes" in r.stderr, r.stderr
    r = run_cli("validate", os.path.join(d, "yunikorn-web__json-db.json"))
    assert r.exit_code == 2 and "several REST responses" in r.stderr, r.stderr


def test_a_saved_config_answer_is_the_queues_yaml_it_serves():
    files = sorted(glob.glob(os.path.join(shared("testdata", "yunikorn-rest-live"), "*", "ws", "v1", "config.yaml")))
    assert files
    for f in files:
        r = run_cli("validate", "--no-config", "-o", "json", f)
        found = json.loads(r.stdout)["findings"]
        assert not [x for x in found if x["rule"] == "PRIO001"], (f, found)
        r = run_cli("explain", f, "-o", "json")
        assert r.exit_code == 0 and "/ws/v1/config response" in r.stderr, (f, r.stderr)


def test_a_directory_with_a_stray_json_file_is_read_with_that_file_skipped():
    d = os.path.join(shared("testdata", "yunikorn-rest-live"), "walkthrough")
    r = run_cli("explain", d, "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "manifest.json: skipped: not a queue config" in r.stderr
    assert json.loads(r.stdout)["queues"]


def test_standard_input_twice_is_said_so():
    r = run_cli("explain", "-", "-", input="partitions: []\n")
    assert r.exit_code == 2 and "standard input is given more than once" in r.stderr, r.stderr


LIVE = ("testdata", "yunikorn-rest-live", "walkthrough", "ws", "v1")


@pytest.mark.parametrize("parts,endpoint", [
    (("partition", "default", "nodes.json"), "/ws/v1/partition/{p}/nodes"),
    (("partition", "default", "node", "node-1.json"), "/ws/v1/partition/{p}/node/{node}"),
    (("partitions.json",), "/ws/v1/partitions"),
    (("scheduler", "healthcheck.json"), "/ws/v1/scheduler/healthcheck"),
    (("clusters.json",), "/ws/v1/clusters"),
    (("partition", "default", "placementrules.json"), "/ws/v1/partition/{p}/placementrules"),
    (("scheduler", "node-utilizations.json"), "/ws/v1/scheduler/node-utilizations"),
])
def test_a_wrong_endpoint_is_named_with_the_one_to_save(parts, endpoint):
    path = shared(*LIVE, *parts)
    for cmd in ("explain", "simulate"):
        r = run_cli(cmd, path)
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert f"this is YuniKorn's {endpoint} response" in r.stderr, r.stderr
        assert "save /ws/v1/partition/{p}/queues" in r.stderr and "applications/active" in r.stderr


def test_the_json_config_and_other_endpoints():
    r = run_cli("explain", shared(*LIVE, "config.json"))
    assert r.exit_code == 2 and "/ws/v1/config answered as JSON" in r.stderr and "save its YAML answer instead" in r.stderr
    users = shared("testdata", "yunikorn-rest-live", "conformance-limits-00002", "ws", "v1", "partition", "default", "usage", "users.json")
    assert "/ws/v1/partition/{p}/usage/users response" in run_cli("explain", users).stderr
    dump = json.dumps({"timestamp": 1, "partitions": [], "applications": [{"applicationID": "a", "queueName": "root.a"}], "nodes": []})
    assert "/ws/v1/fullstatedump response" in run_cli("simulate", "-", input=dump).stderr
    from prio.io.endpoints import identify

    assert identify({"applications": []}) is None and identify([]) is None and identify([{"queuename": "root"}]) is None


def test_a_directory_is_read_file_by_file(tmp_path):
    live = os.path.dirname(shared(*LIVE, "partitions.json"))
    for f in ("partition/default/queues.json", "partition/default/applications/active.json", "partition/default/nodes.json",
              "partitions.json", "scheduler/healthcheck.json"):
        (tmp_path / os.path.basename(f)).write_text(open(os.path.join(live, f)).read())
    (tmp_path / "notes.txt").write_text("not read")
    r = run_cli("simulate", str(tmp_path), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert len(json.loads(r.stdout)["steps"]) == 11
    assert f"prio: note: {tmp_path / 'nodes.json'}: skipped: YuniKorn's /ws/v1/partition/{{p}}/nodes response" in r.stderr
    assert "healthcheck.json: skipped" in r.stderr and "notes.txt" not in r.stderr
    assert run_cli("explain", str(tmp_path), "--why", "root.system").exit_code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run_cli("explain", str(empty))
    assert r.exit_code == 2 and "a directory with no YAML or JSON files" in r.stderr and r.stderr.startswith("prio: ")
    (empty / "health.json").write_text(open(os.path.join(live, "scheduler/healthcheck.json")).read())
    r = run_cli("explain", str(empty))
    assert r.exit_code == 2 and "no input prio reads in this directory (1 YAML/JSON file skipped)" in r.stderr


def test_the_json_config_response_gets_one_message_from_validate_and_explain(tmp_path):
    """/ws/v1/config saved as JSON: validate said "no queue config or pending asks" (it holds
    one, in Go field names) while explain said to save the YAML answer. One line, the same."""
    p = tmp_path / "config.json"
    with open(shared("testdata", "yunikorn-rest-live", "walkthrough", "ws", "v1", "config.json")) as fh:
        p.write_text(fh.read())
    v = run_cli("validate", str(p), "-o", "json")
    e = run_cli("explain", str(p))
    assert v.exit_code == e.exit_code == 2
    said = json.loads(v.stdout)["findings"][0]["message"]
    assert "no queue config" not in said and "save its YAML answer" in said
    assert e.stderr.strip().endswith(said)


def test_a_snapshot_of_a_rest_queues_dump_is_a_config_prio_calls_valid(tmp_path):
    """Root's guaranteedResource in the dump (the site docs' sample) was copied onto root."""
    for name in ("yunikorn-site__docs__api__scheduler__queues.json",
                 "yunikorn-site__versioned_docs__version-0.12.2__api__scheduler__queues.json"):
        out = tmp_path / "snap.yaml"
        r = run_cli("snapshot", shared("testdata", "yunikorn-rest", name), "--output-file", str(out))
        assert r.exit_code == 0, r.stderr
        v = run_cli("validate", str(out), "-o", "json")
        errors = [f for f in json.loads(v.stdout)["findings"] if f["severity"] == "error"]
        assert not errors, (name, errors)
        assert "guaranteed" in out.read_text()  # the children keep theirs
