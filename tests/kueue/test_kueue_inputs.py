"""What the Kueue loader does to the objects before any replay: a cycle of Cohort parents is
refused (one line, the file:line of the cycle, exit 2) by every command that replays, while
validate reports it as PRIO614; and every namespace carries the `kubernetes.io/metadata.name`
label the API server sets, so a namespaceSelector can select namespaces by name."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli

FLAVOR = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default}\n"


def cohort(name: str, parent: str | None = None) -> str:
    spec = f"\nspec: {{parentName: {parent}}}" if parent else ""
    return f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {{name: {name}}}{spec}\n"


def cluster_queue(name: str, cohort_name: str | None = None, selector: str = "{}", cpu: int = 4) -> str:
    return (f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {{name: {name}}}\nspec:\n"
            + (f"  cohortName: {cohort_name}\n" if cohort_name else "")
            + f"  namespaceSelector: {selector}\n  resourceGroups:\n  - coveredResources: [cpu]\n"
              f"    flavors: [{{name: default, resources: [{{name: cpu, nominalQuota: {cpu}}}]}}]\n")


def local_queue(ns: str, cq: str) -> str:
    return f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {{namespace: {ns}, name: queue}}\nspec: {{clusterQueue: {cq}}}\n"


def workload(ns: str, name: str, cpu: int = 1, second: int = 0) -> str:
    return (f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {{namespace: {ns}, name: {name}, "
            f"creationTimestamp: \"2026-01-01T00:00:{second:02d}Z\"}}\nspec:\n  queueName: queue\n  podSets:\n"
            f"  - template: {{spec: {{containers: [{{name: c, resources: {{requests: {{cpu: {cpu}}}}}}}]}}}}\n")


def setup(*docs: str) -> str:
    return "---\n".join(docs)


TWO_CYCLE = setup(FLAVOR, cohort("a", "b"), cohort("b", "a"), cluster_queue("cq", "a"), local_queue("default", "cq"),
                  workload("default", "w"))
SELF_PARENT = setup(FLAVOR, cohort("org"), cohort("loop", "loop"), cluster_queue("cq", "loop"),
                    local_queue("default", "cq"), workload("default", "w"))
ACYCLIC = setup(FLAVOR, cohort("a", "b"), cohort("b"), cluster_queue("cq", "a"), local_queue("default", "cq"),
                workload("default", "w"))


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def one_line_exit_2(r) -> str:
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "nested too deeply" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and r.stdout == "", r.stderr
    return lines[0]


@pytest.mark.parametrize("command", ["simulate", "explain"])
@pytest.mark.parametrize("fmt", ["json", "plain"])
def test_a_cycle_of_two_cohorts_is_one_line_naming_the_file_line_and_the_cycle(tmp_path, command, fmt):
    path = tmp_path / "setup.yaml"
    path.write_text(TWO_CYCLE)
    line = one_line_exit_2(run_cli(command, str(path), "-o", fmt))
    at = line_of(TWO_CYCLE, "parentName: b")  # Cohort a, the first of the cycle written
    assert line.startswith(f"prio: {path}:{at}:"), line
    assert "Cohort parents form a cycle (a -> b -> a)" in line and "remove parentName" in line


def test_a_cohort_its_own_parent_is_a_cycle_of_one(tmp_path):
    path = tmp_path / "setup.yaml"
    path.write_text(SELF_PARENT)
    for command in ("simulate", "explain"):
        line = one_line_exit_2(run_cli(command, str(path)))
        assert f"{path}:{line_of(SELF_PARENT, 'parentName: loop')}:" in line, line
        assert "(loop -> loop)" in line and "remove Cohort loop's parentName" in line


def test_diff_refuses_a_side_with_a_cohort_cycle(tmp_path):
    (tmp_path / "old.yaml").write_text(ACYCLIC)
    (tmp_path / "new.yaml").write_text(TWO_CYCLE)
    for args in (("old.yaml", "new.yaml"), ("new.yaml", "old.yaml")):
        line = one_line_exit_2(run_cli("diff", *(str(tmp_path / a) for a in args), "-o", "json"))
        assert f"new.yaml:{line_of(TWO_CYCLE, 'parentName: b')}:" in line and "(a -> b -> a)" in line, line


def test_validate_keeps_reporting_the_cycle_as_its_finding(tmp_path):
    path = tmp_path / "setup.yaml"
    path.write_text(TWO_CYCLE)
    r = run_cli("validate", str(path), "-o", "json")
    assert r.exit_code == 0, r.stderr  # a warning: Kueue accepts each Cohort on its own
    (f,) = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "PRIO614"]
    assert f["line"] == line_of(TWO_CYCLE, "parentName: b") and "(a -> b -> a)" in f["message"]


def test_a_parent_chain_without_a_cycle_still_replays(tmp_path):
    path = tmp_path / "setup.yaml"
    path.write_text(ACYCLIC)
    r = run_cli("simulate", str(path), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["workloads"][0]["state"] == "Admitted"


BY_NAME = "{matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [team-a]}]}"


def _by_name(*extra: str) -> str:
    return setup(FLAVOR, cluster_queue("shared", selector=BY_NAME), local_queue("team-a", "shared"),
                 local_queue("team-b", "shared"), workload("team-a", "a-1"), workload("team-b", "b-1", second=1), *extra)


def _states(text: str, tmp_path) -> dict:
    path = tmp_path / "setup.yaml"
    path.write_text(text)
    r = run_cli("simulate", str(path), "-o", "json")
    assert r.exit_code == 0, r.stderr
    return {w["workload"]: (w["state"], w["pendingReason"], w["pendingMessage"]) for w in json.loads(r.stdout)["workloads"]}


def test_a_selector_by_metadata_name_admits_the_namespace_it_names(tmp_path):
    """No Namespace object given: the namespaces named by LocalQueues and Workloads carry the label too."""
    assert _states(_by_name(), tmp_path) == {
        "team-a/a-1": ("Admitted", None, None),
        "team-b/b-1": ("Pending", "Misconfigured", "workload namespace doesn't match ClusterQueue selector")}


def test_the_name_label_is_set_on_a_written_namespace_and_wins_over_a_written_value(tmp_path):
    """A Namespace with labels of its own keeps them; the name label is the API server's, whatever the manifest says."""
    ns = ("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n"
          "  labels: {team: a, kubernetes.io/metadata.name: somebody-else}\n")
    both = BY_NAME.replace("]}]}", "]}, {key: team, operator: In, values: [a]}]}")
    text = setup(FLAVOR, cluster_queue("shared", selector=both), local_queue("team-a", "shared"), workload("team-a", "a-1"), ns)
    assert _states(text, tmp_path) == {"team-a/a-1": ("Admitted", None, None)}


def test_explain_evaluates_the_name_label_too(tmp_path):
    path = tmp_path / "setup.yaml"
    path.write_text(_by_name())
    r = run_cli("explain", str(path), "-o", "json")
    assert r.exit_code == 0, r.stderr
    pending = {p["workload"]: (p["outcome"], p["reason"]) for p in json.loads(r.stdout)["pending"]}
    assert pending == {"team-a/a-1": ("fits", None), "team-b/b-1": ("waits", "Misconfigured")}


def test_labels_of_a_namespace():
    from prio.kube.namespace import labels

    assert labels("team-a") == {"kubernetes.io/metadata.name": "team-a"}
    assert labels("x", {"env": "prod", "kubernetes.io/metadata.name": "y", "n": 1}) == {
        "env": "prod", "n": "1", "kubernetes.io/metadata.name": "x"}
