"""Saved REST answers: validate never lints a response of an endpoint prio does not read as a
queues.yaml, and a saved GET /ws/v1/config is read as the queues.yaml it serves."""
from __future__ import annotations

import glob
import json
import os

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
