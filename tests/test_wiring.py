"""Checks across files and inputs combined: PriorityClasses with queue configs, REST and pods."""
import json

from conftest import run_cli, sample, shared


def rules_of(r):
    return {f["rule"] for f in json.loads(r.stdout)["findings"]}


def test_validate_cross_checks_queue_offsets_against_classes():
    both = run_cli("validate", "-o", "json", sample("walkthrough-queues.yaml"), sample("priorityclasses.yaml"))
    assert {"PRIO310", "PRIO311"} <= rules_of(both)
    opt = run_cli("validate", "-o", "json", sample("walkthrough-queues.yaml"), "--priority-classes", sample("priorityclasses.yaml"))
    assert rules_of(opt) == rules_of(both)
    alone = run_cli("validate", "-o", "json", sample("walkthrough-queues.yaml"))
    assert not {"PRIO310", "PRIO311"} & rules_of(alone)


def test_global_default_conflict_across_files(tmp_path):
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 10\nglobalDefault: true\n")
    b.write_text("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 20\nglobalDefault: true\n")
    r = run_cli("validate", "-o", "json", str(a), str(b))
    assert r.exit_code == 1 and "PRIO307" in rules_of(r)
    assert "low" in json.dumps(json.loads(r.stdout)["findings"])


def test_priority_class_list_without_item_kinds(tmp_path):
    p = tmp_path / "pcl.yaml"
    p.write_text("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClassList\nitems:\n  - metadata: {name: system-bad}\n    value: 5\n")
    assert "PRIO303" in rules_of(run_cli("validate", "-o", "json", str(p)))


def test_explain_shows_class_ranges_from_priority_classes_option():
    r = run_cli("explain", "--priority-classes", sample("priorityclasses.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)["priorityClasses"]
    row = [x for x in rows if x["queue"] == "root.system.system-high" and x["class"] == "tier1"][0]
    assert row["value"] == 4000 and row["max"] == 5000


def test_explain_from_pods_and_classes_and_config():
    r = run_cli("explain", sample("pods.json"), sample("priorityclasses.yaml"), sample("walkthrough-queues.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["asks"]


def test_explain_from_rest_dumps_alone():
    q = shared("testdata", "yunikorn-rest", "yunikorn-site__docs__api__scheduler__queues.json")
    r = run_cli("explain", q, "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["queues"][0]["queue"] == "root"


def test_validate_skips_inputs_of_explain_and_says_what_they_are():
    r = run_cli("validate", "-v", sample("walkthrough-asks.yaml"), sample("pods.json"), sample("armada-scenario.yaml"))
    assert r.exit_code == 0, r.stdout
    for what in ("a prio snapshot", "a pod list", "an Armada scenario"):
        assert f"skipped {what}" in r.stderr
