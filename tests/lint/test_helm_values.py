"""Values files of YuniKorn's Helm chart: the queue config in `yunikornDefaults` (its queues.yaml,
or `<service.policyGroup>.yaml`, as the chart renders them into yunikorn-defaults) or in the
deprecated `configuration` string is validated with the values file's own lines, as a ConfigMap's
is, and explain and simulate take it as the config. It was "unknown key 'yunikornDefaults'"."""
import json

import pytest

from conftest import run_cli, sample


def _indented(text: str, by: int) -> str:
    return "".join(" " * by + line + "\n" if line.strip() else "\n" for line in text.rstrip("\n").split("\n"))


WALKTHROUGH = open(sample("walkthrough-queues.yaml"), encoding="utf-8").read()
BROKEN = "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n          - name: tenants\n            properties:\n              priority.policy: fenced\n"

VALUES = "image:\n  repository: apache/yunikorn\nyunikornDefaults:\n  service.clusterId: yunikorn-01\n  queues.yaml: |\n" + _indented(BROKEN, 4)
GROUP = "yunikornDefaults:\n  service.policyGroup: prod\n  prod.yaml: |\n" + _indented(BROKEN, 4)
DEPRECATED = "configuration: |\n" + _indented(BROKEN, 2)


@pytest.mark.parametrize("text,line", [(VALUES, 13), (GROUP, 11), (DEPRECATED, 9)])
def test_the_embedded_config_is_validated_at_the_values_files_lines(tmp_path, text, line):
    p = tmp_path / "values.yaml"
    p.write_text(text)
    r = run_cli("validate", str(p), "-o", "json")
    found = json.loads(r.stdout)["findings"]
    assert [(f["rule"], f["line"]) for f in found if f["rule"] == "PRIO206"] == [("PRIO206", line)], found
    assert not [f for f in found if f["rule"] in ("PRIO001", "PRIO000")], found  # not "unknown key 'yunikornDefaults'"
    assert text.split("\n")[line - 1].strip() == "priority.policy: fenced"


def test_yunikorn_defaults_wins_over_the_deprecated_configuration(tmp_path):
    p = tmp_path / "values.yaml"
    p.write_text(VALUES + "configuration: |\n" + _indented("partitions: []\n", 2))
    found = json.loads(run_cli("validate", str(p), "-o", "json").stdout)["findings"]
    assert {f["rule"] for f in found} == {"PRIO206"}  # partitions: [] (PRIO137) is not what the chart installs


def test_values_without_a_queue_config_are_said_so(tmp_path):
    p = tmp_path / "values.yaml"
    p.write_text("yunikornDefaults:\n  service.clusterId: a\n")
    r = run_cli("validate", str(p))
    assert r.exit_code == 2 and "Helm values without a queue config" in r.stdout + r.stderr
    e = run_cli("explain", str(p))
    assert e.exit_code == 2 and "Helm values without a queue config" in e.stderr


def test_explain_and_simulate_take_the_values_file_as_the_config(tmp_path):
    p = tmp_path / "values.yaml"
    p.write_text("yunikornDefaults:\n  queues.yaml: |\n" + _indented(WALKTHROUGH, 4))
    asks = sample("walkthrough-asks.yaml")
    for command in ("explain", "simulate"):
        got = run_cli(command, str(p), asks, "-o", "json")
        want = run_cli(command, sample("walkthrough-queues.yaml"), asks, "-o", "json")
        assert got.exit_code == 0, got.stderr
        assert json.loads(got.stdout) == json.loads(want.stdout)


def test_configuration_under_another_policy_group_is_not_read(tmp_path):
    """The chart renders configuration as queues.yaml; with service.policyGroup prod the shim reads prod.yaml."""
    p = tmp_path / "values.yaml"
    p.write_text("yunikornDefaults:\n  service.policyGroup: prod\n" + DEPRECATED)
    r = run_cli("validate", str(p))
    assert r.exit_code == 2 and "service.policyGroup has the shim read prod.yaml" in r.stdout + r.stderr
