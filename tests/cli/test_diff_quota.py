"""`prio diff OLD NEW` and quota-change preemption: what NEW's lowered maxes do to the running
work (quotaPreemption in JSON, a section in the other formats, --fail-on preemption)."""
import json

import pytest

from conftest import run_cli, sample

NEW = sample("quota-queues.yaml")
ASKS = sample("quota-asks.yaml")


@pytest.fixture
def old(tmp_path):
    """The quota sample's config before the change: team-a's max 16 vcores."""
    with open(NEW, encoding="utf-8") as fh:
        text = fh.read()
    assert text.count("max: {vcore: 8}") == 1
    p = tmp_path / "old.yaml"
    p.write_text(text.replace("max: {vcore: 8}", "max: {vcore: 16}"))
    return str(p)


def test_json_carries_quota_preemption(old):
    r = run_cli("diff", old, NEW, ASKS, "-o", "json")
    assert r.exit_code == 0, r.stderr
    q = json.loads(r.stdout)["quotaPreemption"]
    assert q["armed"] == ["root.tenants.team-a"]
    assert q["preempted"] == {"root.tenants.team-a": ["web-0", "etl-driver"]}
    assert q["usageAfter"]["root.tenants.team-a"]["vcore"] == 8000
    assert q["queues"][0]["why"] == "max lowered under the usage"


@pytest.mark.parametrize("fmt", ["plain", "markdown", "table"])
def test_every_format_has_the_section(old, fmt):
    r = run_cli("diff", old, NEW, ASKS, "-o", fmt)
    assert r.exit_code == 0, r.stderr
    assert "merging this preempts 2 running tasks after 5m (quota preemption of root.tenants.team-a)" in r.stdout
    assert "Quota preemption: queues over NEW's max" in r.stdout
    assert "Quota preemption: running tasks preempted" in r.stdout
    assert "web-0" in r.stdout and "etl-driver" in r.stdout


def test_fail_on_preemption(old):
    assert run_cli("diff", old, NEW, ASKS, "--fail-on", "preemption").exit_code == 1
    # raising the max back preempts nothing
    assert run_cli("diff", NEW, old, ASKS, "--fail-on", "preemption").exit_code == 0
    # the same config: nothing is armed by a change that did not happen
    r = run_cli("diff", NEW, NEW, ASKS, "--fail-on", "preemption", "-o", "json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["quotaPreemption"]["armed"] == []


def test_switch_off_is_armed_but_preempts_nothing(old, tmp_path):
    with open(NEW, encoding="utf-8") as fh:
        off = tmp_path / "off.yaml"
        off.write_text(fh.read().replace("quotapreemptionenabled: true", "quotapreemptionenabled: false"))
    r = run_cli("diff", old, str(off), ASKS, "--fail-on", "preemption")
    assert r.exit_code == 0, r.stdout
    assert "off in the partition (nothing preempted)" in r.stdout


def test_a_new_max_where_there_was_none_is_not_armed(tmp_path):
    with open(NEW, encoding="utf-8") as fh:
        text = fh.read()
    before = tmp_path / "before.yaml"
    before.write_text(text.replace("                resources:\n                  max: {vcore: 8}          # was {vcore: 16}\n", ""))
    r = run_cli("diff", str(before), NEW, ASKS, "-o", "json")
    q = json.loads(r.stdout)["quotaPreemption"]
    assert q["armed"] == [] and "had no max before" in q["queues"][0]["why"]
