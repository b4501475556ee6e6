"""`prio validate` on Volcano setups: every footgun of the shared corpus's `config` family is
flagged, naming the key Volcano actually reads; the catalogue's clean setup stays clean; the CI
formats come from the lint runner like every other family's."""
from __future__ import annotations

import json
import os
import sys

import pytest
from conftest import SHARED, run_cli

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lint"))
from configs import VOLCANO  # noqa: E402

DATA = os.path.join(SHARED, "testdata", "volcano")

# scenario -> (rule, a text the message must hold: the key or the error Volcano reads)
FOOTGUNS = {
    "config--misspelled-enableOverused": [("PRIO702", "Volcano reads enabledOverused"), ("PRIO702", "Volcano reads enabledAllocatable")],
    "config--unknown-action": [("PRIO701", "failed to find Action  preemt")],
    "config--proportion-drf-hierarchy": [("PRIO701", "proportion and drf with hierarchy enabled conflicts")],
    "config--missing-queue": [("PRIO708", "queue 'nosuch' does not exist")],
}


def _findings(*paths) -> list:
    r = run_cli("validate", "--no-config", "-o", "json", *paths)
    assert r.exit_code in (0, 1), r.stderr
    return json.loads(r.stdout)["findings"]


@pytest.mark.parametrize("case", sorted(FOOTGUNS))
def test_config_family_footgun_is_flagged(case):
    path = os.path.join(DATA, case + ".yaml")
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/volcano is absent")
    found = _findings(path)
    for rule, text in FOOTGUNS[case]:
        assert any(f["rule"] == rule and text in f["message"] for f in found), (rule, text, found)


def test_every_config_scenario_of_the_corpus_is_covered():
    cases = sorted(n[:-5] for n in os.listdir(DATA) if n.startswith("config--") and n.endswith(".yaml")) if os.path.isdir(DATA) else []
    if not cases:
        pytest.skip("../shared/testdata/volcano is absent")
    assert set(cases) <= set(FOOTGUNS)


def test_the_finding_points_at_the_misspelt_line_inside_the_configmap(tmp_path):
    text = VOLCANO.replace("enableHierarchy: true", "enableHierarchy: true\n        enableOverused: false")
    (tmp_path / "v.yaml").write_text(text)
    found = [f for f in _findings(str(tmp_path / "v.yaml")) if f["rule"] == "PRIO702"]
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "enableOverused" in ln)
    assert [(f["line"], f["column"]) for f in found] == [(line, 9)]


def test_clean_setup_validates_clean(tmp_path):
    (tmp_path / "v.yaml").write_text(VOLCANO)
    assert _findings(str(tmp_path / "v.yaml")) == []


def test_sarif_carries_volcano_rules(tmp_path):
    (tmp_path / "v.yaml").write_text(VOLCANO.replace("preempt, reclaim", "preemt, reclaim"))
    r = run_cli("validate", "--no-config", "-o", "sarif", str(tmp_path / "v.yaml"))
    assert r.exit_code == 1
    run = json.loads(r.stdout)["runs"][0]
    # refused, the default config runs: its proportion ignores team-a's deserved (PRIO705)
    assert [res["ruleId"] for res in run["results"]] == ["PRIO701", "PRIO705"]
