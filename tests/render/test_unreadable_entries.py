"""Every format records an input prio could not check (issue 14): the file and the one-line
reason, as an error-level entry (PRIO000 unreadable-input), beside the findings of the others."""
import json
import xml.etree.ElementTree as ET

import pytest

from conftest import run_cli

GOOD = "partitions:\n  - name: default\n    queues:\n      - name: root\n        maxApplications: 2\n"


@pytest.fixture
def inputs(tmp_path):
    bad = tmp_path / "broken.yaml"
    bad.write_text("partitions: [\n")
    good = tmp_path / "queues.yaml"
    good.write_text(GOOD)
    return str(bad), str(good)


def run(fmt, inputs):
    r = run_cli("validate", "-o", fmt, *inputs)
    assert r.exit_code == 2
    assert r.stderr.startswith(f"prio: {inputs[0]}:2:1: invalid YAML")
    return r.stdout


def test_json(inputs):
    doc = json.loads(run("json", inputs))
    first = doc["findings"][0]
    assert (first["rule"], first["name"], first["severity"], first["file"], first["line"]) == \
        ("PRIO000", "unreadable-input", "error", inputs[0], 2)
    assert "invalid YAML" in first["message"]
    assert [f["rule"] for f in doc["findings"][1:]] == ["PRIO001"]
    assert doc["summary"]["errors"] == 2


def test_gitlab(inputs):
    issues = json.loads(run("gitlab", inputs))
    assert issues[0]["check_name"] == "PRIO000" and issues[0]["severity"] == "major"
    assert issues[0]["location"]["path"].endswith("broken.yaml") and "invalid YAML" in issues[0]["description"]
    assert len({i["fingerprint"] for i in issues}) == len(issues) == 2


def test_markdown(inputs):
    out = run("markdown", inputs)
    row = next(ln for ln in out.splitlines() if "PRIO000" in ln)
    assert "**error**" in row and "broken.yaml:2:1" in row and "invalid YAML" in row


def test_text(inputs, tmp_path):
    out = tmp_path / "report.txt"
    r = run_cli("validate", "--output-file", str(out), *inputs)
    assert r.exit_code == 2
    text = out.read_text()
    assert text.startswith(f"{inputs[0]}:2:1: error PRIO000 (unreadable-input) invalid YAML")
    assert "PRIO001" in text


def test_the_formats_that_already_did_still_do(inputs):
    assert "title=prio%3A unreadable input" in run("github", inputs)
    sarif = json.loads(run("sarif", inputs))
    assert sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["level"] == "error"
    root = ET.fromstring(run("junit", inputs))
    assert root.get("errors") == "1"


def test_rule_documented():
    r = run_cli("rule", "PRIO000")
    assert r.exit_code == 0 and "unreadable-input" in r.stdout
