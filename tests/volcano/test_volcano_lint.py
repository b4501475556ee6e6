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
from configs import VOLCANO

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


def test_simulate_and_explain_draw_a_page_whose_view_is_volcanos():
    for command in ("simulate", "explain"):
        r = run_cli(command, "--sample", "volcano", "-o", "html")
        assert r.exit_code == 0, r.stderr
        assert '"model":"volcano"' in r.stdout and "prioViews.volcano = function" in r.stdout


def test_a_config_go_yaml_cannot_decode_is_refused_not_a_traceback(tmp_path):
    (tmp_path / "raw.yaml").write_text('actions: "enqueue, allocate"\ntiers: 3\n')
    found = _findings(str(tmp_path / "raw.yaml"))
    assert [f["rule"] for f in found] == ["PRIO701"]
    r = run_cli("simulate", str(tmp_path / "raw.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    cfg = json.loads(r.stdout)["config"]
    assert (cfg["source"], cfg["valid"], cfg["actions"]) == ("raw", False, ["enqueue", "allocate", "backfill"])


@pytest.mark.parametrize("text, message", [
    ("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
     "spec:\n  containers: [{name: c}]\n", "x.yaml:5: pod default/p has no scheduling.k8s.io/group-name annotation"),
    ("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\nspec: {capability: {cpu: lots}}\n",
     "x.yaml:4: spec.capability.cpu: invalid quantity 'lots'"),
    ("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n",
     "x.yaml:5: a Deployment: not an object Volcano's scheduler reads here"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text(text)
    r = run_cli("simulate", "x.yaml")
    assert r.exit_code == 2
    assert message in r.stderr and "Traceback" not in r.stderr


def test_a_name_the_api_server_refuses_is_an_input_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text('apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: "q\\n- evil"}\n')
    r = run_cli("simulate", "x.yaml")
    assert r.exit_code == 2
    assert "x.yaml:3: Queue name 'q\\n- evil' is not a name the API server accepts" in r.stderr
