"""Checks across files and inputs combined: PriorityClasses with queue configs, REST and pods."""
import json

import pytest

from conftest import run_cli, run_prio, sample, shared


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


def test_validate_refuses_inputs_of_explain_named_explicitly_and_says_what_they_are():
    r = run_cli("validate", "-v", sample("walkthrough-asks.yaml"), sample("pods.json"), sample("armada-scenario.yaml"))
    assert r.exit_code == 2, r.stdout
    for what in ("a prio snapshot", "a pod list", "an Armada scenario"):
        assert f"not something prio validates: it holds {what}" in r.stderr


CM = """apiVersion: v1
kind: ConfigMap
metadata: {{name: {name}}}
data:
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: {queue}
"""


def test_configs_configmap_replaces_defaults_and_later_documents_are_read(tmp_path):
    f = tmp_path / "cms.yaml"
    pc = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: tier1}\nvalue: 4000\n"
    f.write_text(CM.format(name="yunikorn-defaults", queue="fromdefaults") + "---\n" +
                 CM.format(name="yunikorn-configs", queue="fromconfigs") + "---\n" + pc)
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n  - {id: a, queue: root.fromconfigs, asks: [{priorityClassName: tier1}]}\n")
    r = run_cli("explain", str(f), str(s), "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert [q["queue"] for q in got["queues"]] == ["root", "root.fromconfigs"]
    assert got["asks"][0]["priority"] == 4000  # the PriorityClass after the ConfigMaps was read
    assert "yunikorn-configs replaces yunikorn-defaults" in r.stderr


def test_only_the_first_config_document_counts(tmp_path):
    f = tmp_path / "q.yaml"
    f.write_text("partitions: [{name: default, queues: [{name: root, queues: [{name: a}]}]}]\n---\npartitions: []\n")
    r = run_cli("explain", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "YAML documents after the first are ignored" in r.stderr


def test_one_application_over_several_documents(tmp_path):
    pod = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {n}\n  namespace: ns\n  labels: {{applicationId: app-1, queue: root.a}}\n"
           "spec:\n  schedulerName: yunikorn\n  priority: 5\n  containers: []\nstatus: {{phase: Pending}}\n")
    f = tmp_path / "pods.yaml"
    f.write_text(pod.format(n="p1") + "---\n" + pod.format(n="p2"))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert [s["ask"] for s in json.loads(r.stdout)["steps"]] == ["p1", "p2"]


def test_config_and_rest_queues_cannot_be_combined():
    q = shared("testdata", "yunikorn-rest", "yunikorn-site__docs__api__scheduler__queues.json")
    r = run_cli("explain", sample("walkthrough-queues.yaml"), q)
    assert r.exit_code == 2 and "both describe the queues" in r.stderr


def test_files_that_are_not_queue_configs_are_refused():
    r = run_cli("explain", shared("testdata", "yunikorn-rest", "yunikorn-web__json-db.json"))
    assert r.exit_code == 2 and "bundles several REST responses" in r.stderr
    r = run_cli("explain", "-", input="partitions: []\nextra: 1\n")
    assert r.exit_code == 2 and "not a YuniKorn queue config" in r.stderr
    r = run_cli("explain", "--priority-classes", sample("walkthrough-queues.yaml"))
    assert r.exit_code == 2 and "PriorityClass manifests" in r.stderr


def test_explaining_a_config_yunikorn_refuses_says_so():
    r = run_cli("explain", sample("mistakes.yaml"), "-o", "json")
    assert r.exit_code == 0
    assert "YuniKorn would refuse this config" in r.stderr


def test_the_refusal_note_stands_where_the_config_was_read(tmp_path):
    """The loader reads the config and runs no lint rule; the command checks it afterwards
    (prio.yunikorn.lint.judged.check_config) and its note keeps the place the loader left for it: before
    the notes of the files read after the config."""
    from prio.io.gather import gather
    from prio.yunikorn.lint.judged import check_config

    (tmp_path / "a.yaml").write_text(open(sample("mistakes.yaml"), encoding="utf-8").read())
    (tmp_path / "b.yaml").write_text("replicaCount: 1\n")
    inp = gather([str(tmp_path)])
    assert inp.config_note_at == 0 and not any("would refuse" in n for n in inp.notes)
    notes = check_config(inp).notes
    assert "YuniKorn would refuse this config" in notes[0] and "b.yaml: skipped" in notes[1]
    assert check_config(inp).notes == notes  # checked once
    r = run_cli("explain", str(tmp_path), "-o", "json")
    lines = [line for line in r.stderr.splitlines() if line.startswith("prio: note:")]
    assert r.exit_code == 0 and "would refuse" in lines[0] and "b.yaml: skipped" in lines[1]


def test_partition_of_the_snapshot_must_exist(tmp_path):
    s = tmp_path / "s.yaml"
    s.write_text("partition: gpu\napplications:\n  - {id: a, queue: root.system.system-low, asks: [{priority: 1}]}\n")
    r = run_cli("explain", sample("walkthrough-queues.yaml"), str(s))
    assert r.exit_code == 2 and "no partition 'gpu'" in r.stderr
    multi = shared("testdata", "yunikorn-configs", "01_yunikorn-core__config__queues.yaml")
    r = run_cli("explain", multi, "-o", "json")
    assert r.exit_code == 0 and "also configured: gpu" in r.stderr
    r = run_cli("explain", multi, "--partition", "gpu", "-o", "json")
    assert r.exit_code == 0, r.stderr


def test_sample_names_and_armada_options():
    r = run_cli("explain", "--sample", "nope")
    assert r.exit_code == 2 and "armada-scenario" in r.stderr and "walkthrough" in r.stderr
    assert run_cli("explain", "--sample", "armada-scenario", "-o", "json").exit_code == 0
    r = run_cli("simulate", "--seed", "3")  # YuniKorn's inputs: the option is Armada's (prio.backends)
    assert r.exit_code == 2 and r.stderr == "prio: --seed applies to Armada inputs\n"
    r = run_cli("explain", "--sample", "armada-scenario", "--armada-decay", "foo")
    assert r.exit_code == 2 and "code, document" in r.stderr


def test_prio_output_is_shared_with_validate(monkeypatch):
    monkeypatch.setenv("PRIO_OUTPUT", "sarif")
    r = run_cli("simulate")
    assert r.exit_code == 0 and "Scheduling order" in r.stdout
    monkeypatch.setenv("PRIO_OUTPUT", "json")
    assert json.loads(run_cli("simulate").stdout)["steps"]


def test_directories_skip_yaml_that_is_plainly_not_a_queue_config(tmp_path):
    (tmp_path / "values.yaml").write_text("replicaCount: 2\nimage: {repository: x}\n")
    (tmp_path / "queues.yaml").write_text(open(sample("walkthrough-queues.yaml")).read())
    r = run_cli("validate", "-v", str(tmp_path))
    assert r.exit_code == 0 and "values.yaml: skipped" in r.stderr
    assert run_cli("validate", str(tmp_path / "values.yaml")).exit_code == 1  # named: checked


def test_cross_check_severity_offsets_warn_fences_inform():
    r = run_cli("validate", "-o", "json", sample("walkthrough-queues.yaml"), sample("priorityclasses.yaml"))
    sev = {(f["rule"], f["line"]): f["severity"] for f in json.loads(r.stdout)["findings"]}
    assert sev[("PRIO311", 16)] == "warning"  # system-high's +1000 offset
    assert sev[("PRIO310", 22)] == "warning"  # a user class passing a system class: always a warning
    assert sev[("PRIO311", 22)] == "info"  # a class swap the tenants fence makes, by design


def test_cross_check_skips_parents_that_sort_by_fair_share(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n"
                 "        properties: {application.sort.priority: disabled}\n        queues:\n"
                 "          - {name: a, properties: {priority.offset: '5000', application.sort.priority: enabled}}\n"
                 "          - {name: b, properties: {application.sort.priority: enabled}}\n")
    r = run_cli("validate", "-o", "json", str(q), sample("priorityclasses.yaml"))
    assert "PRIO311" not in {f["rule"] for f in json.loads(r.stdout)["findings"]}


def test_verbose_says_what_each_input_was_read_as():
    r = run_cli("explain", "-v", sample("pods.json"), sample("priorityclasses.yaml"), sample("walkthrough-queues.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "pods.json: read as a pod list" in r.stderr and "walkthrough-queues.yaml: read as a queue config" in r.stderr


def test_an_empty_applications_dump_is_read():
    r = run_cli("explain", sample("walkthrough-queues.yaml"), "-", "-o", "json", input="[]\n")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["asks"] == [] and len(d["queues"]) == 12  # no application, every queue of the config
    assert all(q["pendingAsks"] == 0 for q in d["queues"])


def test_explain_compares_rest_current_priority(tmp_path):
    q = tmp_path / "q.json"
    q.write_text(json.dumps({"queuename": "root", "partition": "default", "isLeaf": False, "isManaged": True, "currentPriority": 50,
                             "children": [{"queuename": "root.a", "parent": "root", "isLeaf": True, "isManaged": True, "currentPriority": 50}]}))
    a = tmp_path / "a.json"
    a.write_text(json.dumps([{"applicationID": "x", "partition": "default", "queueName": "root.a", "submissionTime": 1,
                              "requests": [{"allocationKey": "k", "priority": "10", "resource": {"pods": 1}}]}]))
    r = run_cli("explain", str(q), str(a), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "root.a: YuniKorn reported 50, prio computes 10" in r.stderr


def test_a_queue_of_another_partition_is_pointed_out(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    queues: [{name: root, queues: [{name: a}]}]\n"
                 "  - name: gpu\n    queues: [{name: root, queues: [{name: g}]}]\n")
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n  - {id: x, queue: root.g, asks: [{priority: 1}]}\n")
    r = run_cli("explain", str(q), str(s), "-o", "json")
    assert r.exit_code == 0 and "root.g is not in partition default" in r.stderr and "--partition gpu?" in r.stderr


REFUSED = """\
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: a
            resources:
              guaranteed: {memory: 2000}
              max: {memory: 1000}
          - name: b
            maxApplications: 3
"""


@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_every_reason_yunikorn_would_refuse_the_config_for_is_said_first(command, tmp_path):
    # Guaranteed above max (PRIO109, a resources rule) and a misspelt key (PRIO001, the schema)
    # are refusals as much as a structure error: each is said, before the analysis.
    q = tmp_path / "q.yaml"
    q.write_text(REFUSED)
    r = run_prio(command, str(q))
    assert r.returncode == 0, r.stderr
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"prio: note: {q}: YuniKorn would refuse this config: line 8: PRIO109 guaranteed resource"), first
    assert "; line 11: PRIO001 unknown key 'maxApplications'" in first
    assert first.endswith("; analysing it as written (prio validate shows each finding)")
    clean = run_prio(command, sample("walkthrough-queues.yaml"))
    assert "would refuse" not in clean.stderr


def test_a_long_list_of_refusals_is_cut_with_a_count(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n"
                 + "".join(f"          - name: q{i}\n            maxApplications: 1\n" for i in range(9)))
    r = run_cli("explain", str(q), "-o", "json")
    note = next(line for line in r.stderr.splitlines() if "would refuse" in line)
    assert note.count("PRIO001") == 5 and "; and 4 more; analysing it as written" in note, note
