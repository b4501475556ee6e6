"""`prio validate` on Kueue setups (prio.kueue.lint): the finer points the catalogue's one
case per rule does not show: several files read as one setup, `kubectl get -o yaml` lists, every
CI format, suppressions, exit codes, the messages' hints, and odd shapes that must not crash."""
from __future__ import annotations

import json
import os

import pytest
from configs import KUEUE, kueue, line_of

from builders import paths_of as _leaves
from conftest import ROOT, run_cli


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Write {name: text} into tmp_path (the working directory) and return the names."""
    for var in ("PRIO_CONFIG", "PRIO_STRICT", "PRIO_OUTPUT_FILE", "PRIO_COLOR", "CI_PROJECT_DIR", "GITHUB_WORKSPACE", "GITHUB_ACTIONS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)

    def write(**texts):
        for name, text in texts.items():
            (tmp_path / name.replace("_", ".")).write_text(text, encoding="utf-8")
        return [name.replace("_", ".") for name in texts]

    return write


def validate(*args):
    r = run_cli("validate", "--no-config", "-o", "json", *args)
    assert "Traceback" not in r.stderr, r.stderr
    return r.exit_code, (json.loads(r.stdout)["findings"] if r.stdout.strip() else []), r.stderr


def rules_of(findings) -> list:
    return sorted(f["rule"] for f in findings)


def test_the_clean_setup_and_the_sample_have_no_findings(files):
    files(setup_yaml=KUEUE)
    assert validate("setup.yaml")[:2] == (0, [])
    assert validate(os.path.join(ROOT, "samples", "kueue.yaml"))[:2] == (0, [])


def test_refused_settings_are_errors_and_exit_1_while_warnings_alone_exit_0(files):
    files(bad_yaml=kueue(("withinClusterQueue: LowerPriority", "withinClusterQueue: lowerPriority")),
          warn_yaml=kueue(("  queueName: queue", "  queueName: other")))
    code, found, _ = validate("bad.yaml")
    assert code == 1 and rules_of(found) == ["PRIO607"] and found[0]["severity"] == "error"
    assert "did you mean LowerPriority?" in found[0]["message"]
    code, found, _ = validate("warn.yaml")
    assert code == 0 and rules_of(found) == ["PRIO613"] and found[0]["severity"] == "warning"
    assert run_cli("validate", "--no-config", "--strict", "warn.yaml").exit_code == 1


def test_references_are_checked_across_the_files_of_the_run(files):
    """The flavor in one file, the ClusterQueues in another: together no finding; the
    ClusterQueues alone name a flavor that is not there, at their own file and line."""
    head, rest = KUEUE.split("---\n", 1)
    files(flavors_yaml=head, queues_yaml=rest)
    assert validate("flavors.yaml", "queues.yaml")[:2] == (0, [])
    code, found, _ = validate("queues.yaml")
    assert code == 0 and rules_of(found) == ["PRIO611", "PRIO611"]
    assert {f["file"] for f in found} == {"queues.yaml"}
    assert [f["line"] for f in found] == [line_of(rest, "- name: default"), line_of(rest, "- name: default", 2)]
    assert "ResourceFlavor default does not exist" in found[0]["message"] and "inactive (FlavorNotFound)" in found[0]["message"]


def test_a_kubectl_list_is_split_into_its_objects_with_their_own_lines(files):
    """`kubectl get clusterqueues -o yaml`: a typed list whose items carry no kind."""
    text = """apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueueList
items:
- metadata: {name: team-a}
  spec:
    namespaceSelector: {}
    cohort: org
- metadata: {name: team-b}
  spec:
    resourceGroups: []
"""
    files(cqs_yaml=text)
    code, found, _ = validate("cqs.yaml")
    assert code == 1
    assert [(f["rule"], f["line"]) for f in found] == [("PRIO610", 7), ("PRIO615", 9)]
    assert "v1beta2 calls it cohortName" in found[0]["message"]


def test_a_namespace_file_is_read_with_the_setup(files):
    files(ns_yaml="apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {team: a}}\n",
          setup_yaml=kueue(("{name: team-a}\nspec:\n  namespaceSelector: {}", "{name: team-a}\nspec:\n  namespaceSelector: {matchLabels: {team: b}}")))
    assert validate("ns.yaml")[:2] == (0, [])  # nothing to check in a Namespace alone
    # without the Namespace its labels are unknown: no finding; with it, the LocalQueue is never served
    assert validate("setup.yaml")[:2] == (0, [])
    code, found, _ = validate("setup.yaml", "ns.yaml")
    assert rules_of(found) == ["PRIO616"] and found[0]["file"] == "setup.yaml"


def test_the_namespace_name_label_is_decided_without_the_namespace(files):
    sel = "{matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [team-b]}]}"
    files(setup_yaml=kueue(("{name: team-a}\nspec:\n  namespaceSelector: {}", "{name: team-a}\nspec:\n  namespaceSelector: " + sel)))
    assert rules_of(validate("setup.yaml")[1]) == ["PRIO616"]


@pytest.mark.parametrize("fmt,needle", [("text", "PRIO611"), ("github", "::warning file=setup.yaml,line="), ("gitlab", "PRIO611"),
                                        ("sarif", "PRIO611"), ("junit", "PRIO611"), ("markdown", "PRIO611")])
def test_every_ci_format_reports_a_kueue_finding(files, fmt, needle):
    files(setup_yaml=kueue(("    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 4}",
                            "    - name: gpu\n      resources:\n      - {name: cpu, nominalQuota: 4}")))
    r = run_cli("validate", "--no-config", "-o", fmt, "setup.yaml")
    assert r.exit_code == 0, r.stderr
    assert needle in r.stdout, r.stdout


def test_a_finding_is_suppressed_on_its_line(files):
    text = kueue(("  queueName: queue", "  queueName: other  # prio: ignore[PRIO613]"))
    files(setup_yaml=text)
    assert validate("setup.yaml")[:2] == (0, [])


def test_messages_say_what_is_meant(files):
    files(a_yaml=kueue(("namespace: team-a, name: queue", "namespace: team-c, name: queue")),
          b_yaml=kueue(
              ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor",
               "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing: {}\n---\n"
               "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor"),
              ("reclaimWithinCohort: Any", "reclaimWithinCohort: Any\n    borrowWithinCohort: {policy: LowerPriority}")))
    found = validate("a.yaml")[1]
    assert [f["message"] for f in found if f["rule"] == "PRIO613"] == [
        "no LocalQueue queue in namespace team-a (there is one in team-c): Workload team-a/train is never admitted"]
    found = validate("b.yaml")[1]
    assert [f["message"] for f in found] == [
        "borrowWithinCohort LowerPriority on ClusterQueue team-a never preempts: fair sharing is on, and Kueue ignores borrowWithinCohort then"]


def test_a_cluster_queue_alone_in_its_cohort_tree_reclaims_nothing(files):
    files(setup_yaml=kueue(("team-b}\nspec:\n  namespaceSelector: {}\n  cohortName: org", "team-b}\nspec:\n  namespaceSelector: {}\n  cohortName: other")))
    found = validate("setup.yaml")[1]
    assert [(f["rule"], f["message"]) for f in found] == [
        ("PRIO617", "reclaimWithinCohort Any on ClusterQueue team-a never preempts: it is the only ClusterQueue in cohort org's tree")]


def test_a_priority_class_of_the_pod_template_and_a_global_class(files):
    wl = ("labels: {kueue.x-k8s.io/priority-class: high}", "labels: {}")
    tmpl = ("template: {spec: {containers:", "template: {spec: {priorityClassName: batch, containers:")
    files(setup_yaml=kueue(wl, tmpl),
          pc_yaml="apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: batch}\nvalue: 100\n")
    found = validate("setup.yaml")[1]
    assert [(f["rule"], f["message"]) for f in found] == [("PRIO618", "PriorityClass batch does not exist: Workload team-a/train gets no priority")]
    assert validate("setup.yaml", "pc.yaml")[:2] == (0, [])
    files(builtin_yaml=kueue(wl, ("template: {spec: {containers:", "template: {spec: {priorityClassName: system-cluster-critical, containers:")))
    assert validate("builtin.yaml")[:2] == (0, [])


@pytest.mark.parametrize("odd", [
    "spec: null", "spec: []", "spec: {resourceGroups: cpu}", "spec: {resourceGroups: [{flavors: 3}]}",
    "spec: {resourceGroups: [{coveredResources: cpu, flavors: [{name: 3, resources: [{name: cpu, nominalQuota: [1]}]}]}]}",
    "spec: {preemption: Any, flavorFungibility: [], fairSharing: {weight: -1}}", "spec: {cohortName: 5, namespaceSelector: {matchLabels: 3}}",
])
def test_odd_shapes_give_findings_not_tracebacks(files, odd):
    files(setup_yaml=KUEUE.replace("spec:\n  namespaceSelector: {}\n  cohortName: org\n  resourceGroups:", odd + "\nx_:\n  resourceGroups:", 1))
    code, _, err = validate("setup.yaml")
    assert code in (0, 1), err




def _replaced(data, path, value):
    import copy

    if not path:
        return value
    out = copy.deepcopy(data)
    node = out
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return out


def test_any_value_anywhere_gives_issues_not_exceptions():
    """Every value of every object of KUEUE (a Namespace and a Configuration added) replaced by
    each odd value in turn: both targets' checks return issues, whatever the shape."""
    from prio.io.document import Document
    from prio.kueue import lint as rules
    from prio.lint.registry import run

    text = kueue(("kind: ResourceFlavor", "kind: Namespace\nmetadata: {name: team-a, labels: {team: a}}\n---\napiVersion: "
                                          "config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing: {}\n---\n"
                                          "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: org}\nspec: {parentName: top, "
                                          "resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: 1, lendingLimit: 1}]}]}]}\n---\n"
                                          "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor"))
    text = text.replace("namespaceSelector: {}", "namespaceSelector: {matchLabels: {team: a}, matchExpressions: [{key: x, operator: In, values: [y]}]}", 1)
    import yaml

    datas = list(yaml.safe_load_all(text))
    odd = (None, 5, -1, True, "x", "", [], {}, [{"a": 1}], {"a": [1]})
    runs = 0
    for i, data in enumerate(datas):
        for path in list(_leaves(data)):
            for value in odd:
                changed = [_replaced(d, path, value) if j == i else d for j, d in enumerate(datas)]
                docs = [("f.yaml", Document(d)) for d in changed]
                for _, doc in docs:
                    assert isinstance(rules.lint_object(doc), list)
                assert isinstance(run("kueue-set", rules.kueue_set(docs)), list)
                runs += 1
    assert runs > 500


def test_prio621_tells_the_api_servers_refusals_from_prios_needs_by_their_type(files):
    """The loader raises an APIRefusal where the API server refuses the object too (a count past
    int32, a status quantity that is none, a status list past the CRD's length: what the schema
    check PRIO622 does not report, test_prio622_*) and a plain InputError for what only prio's
    analysis needs (a Workload's creationTimestamp): PRIO621 reports the first kind only."""
    from prio.errors import APIRefusal, InputError
    from prio.io.documents import units
    from prio.kueue import load as loader

    running = "\nstatus:\n  admission:\n    clusterQueue: team-a\n    podSetAssignments:\n    - {name: main, count: 1, resourceUsage: USAGE}\n"
    reclaim = "\nstatus:\n  reclaimablePods:\n" + "  - {name: main, count: 0}\n" * 19
    cases = {"count_yaml": (kueue(("    count: 1\n", "    count: 3000000000\n")), True),
             "qty_yaml": (KUEUE + running.replace("USAGE", "{cpu: [1]}"), True),
             "reclaim_yaml": (KUEUE + reclaim, True),
             "created_yaml": (kueue(('  creationTimestamp: "2026-01-01T00:00:00Z"\n', "")), False)}
    files(**{k: text for k, (text, _) in cases.items()})
    for name, (text, refused) in cases.items():
        name = name.replace("_", ".")
        with pytest.raises(InputError) as e:
            loader.load([(name, u.doc) for u in units(name, text)])
        assert isinstance(e.value, APIRefusal) == refused, (name, e.value)
        found = [f for f in validate(name)[1] if f["rule"] == "PRIO621"]
        assert bool(found) == refused, (name, found)


def test_prio622_says_what_the_api_server_says_at_the_field_and_simulate_skips_the_object(files):
    """The CRD's required fields, types, ranges and lengths: one PRIO622 per refusal, in the API
    server's words, at the field (a missing one: at the mapping without it); PRIO621 does not say
    it again; simulate skips the object (a note where it reads the field), so a missing
    nominalQuota is not taken as 0."""
    cases = {
        "quota_yaml": (kueue(("{name: memory, nominalQuota: 32Gi}", "{name: memory}")), "{name: memory}",
                       ["spec.resourceGroups[0].flavors[0].resources[1].nominalQuota: Required value"]),
        "count_yaml": (kueue(("    count: 1\n", "    count: many\n")), "count: many",
                       ['spec.podSets[0].count: Invalid value: "string": spec.podSets[0].count in body must be of type '
                        'integer: "string"']),
        "min_yaml": (kueue(("    count: 1\n", "    count: 2\n    minCount: 0\n")), "minCount: 0",
                     ["spec.podSets[0].minCount: Invalid value: 0: spec.podSets[0].minCount in body should be greater than "
                      "or equal to 1"]),
        "groups_yaml": (kueue(("  resourceGroups:\n", "  resourceGroups:\n" + "".join(
            f"  - {{coveredResources: [r{i}], flavors: [{{name: f{i}, resources: [{{name: r{i}, nominalQuota: 1}}]}}]}}\n"
            for i in range(16)))),
                        "coveredResources: [r0]", ["spec.resourceGroups: Too many: 17: must have at most 16 items"]),
        "image_yaml": (kueue(("[{name: c, resources", "[{image: 7, resources")), "image: 7",
                       ["spec.podSets[0].template.spec.containers[0].name: Required value",  # (at the container: before image)
                        'spec.podSets[0].template.spec.containers[0].image: Invalid value: "integer": '
                        'spec.podSets[0].template.spec.containers[0].image in body must be of type string: "integer"']),
    }
    files(**{k: text for k, (text, _, _) in cases.items()})
    for name, (text, marker, said) in cases.items():
        name = name.replace("_", ".")
        code, found, _ = validate(name)
        found = [f for f in found if f["rule"] not in ("PRIO611", "PRIO620")]  # (the 16 groups' flavors are not there)
        assert code == 1 and rules_of(found) == ["PRIO622"] * len(said), (name, found)
        assert [f["message"] for f in found] == said, name
        assert {f["line"] for f in found} == {line_of(text, marker)}, (name, found)
        r = run_cli("simulate", name)
        assert r.exit_code == 0 and "Traceback" not in r.stderr, (name, r.stderr)
        assert r.stderr.count("(skipped: the API server refuses this object)") == 1, (name, r.stderr)
    assert "spec.resourceGroups[0].flavors[0].resources[1].nominalQuota: Required value (skipped" in run_cli("simulate", "quota.yaml").stderr


def test_prio622_leaves_status_quantities_written_as_numbers_and_other_rules_fields_alone(files):
    """Not PRIO622's: a Workload's status (the API server drops it on create), a weight written
    as a number with a fraction (the recorded scenarios' `weight: 0.5`, the explicit exception),
    what PRIO607-PRIO610 report (said once, by them)."""
    status = ("\nstatus:\n  conditions:\n  - {type: QuotaReserved, status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z'}\n")
    files(status_yaml=KUEUE + status,
          weight_yaml=kueue(("  preemption:\n    reclaimWithinCohort", "  fairSharing: {weight: 0.5}\n  preemption:\n    reclaimWithinCohort")),
          quoted_yaml=kueue(("  preemption:\n    reclaimWithinCohort", "  fairSharing: {weight: '0.5'}\n  preemption:\n    reclaimWithinCohort")),
          others_yaml=kueue(("nominalQuota: 32Gi", "nominalQuota: [32Gi]"), ("cohortName: org", "cohortName: 7"),
                            ("withinClusterQueue: LowerPriority", "withinClusterQueue: 3")))
    for name in ("status.yaml", "weight.yaml", "quoted.yaml"):
        assert validate(name)[:2] == (0, []), name
        assert run_cli("simulate", name).exit_code == 0, name
    found = rules_of(validate("others.yaml")[1])
    assert "PRIO622" not in found and {"PRIO607", "PRIO608", "PRIO609"} <= set(found), found


def test_every_recorded_kueue_input_passes_the_crds_schema_check():
    """Every object of both recorded corpora and the sample: no refusal by the schema check
    (PRIO622's), nor by the loader's shapes (taken from the same schema)."""
    import glob

    from conftest import shared
    from prio.io.documents import units
    from prio.kueue import crd
    from prio.kueue import load as loader

    paths = sorted(glob.glob(os.path.join(os.path.dirname(shared("testdata", "kueue")), "kueue*", "*.yaml")))
    checked = 0
    for path in paths + [os.path.join(ROOT, "samples", "kueue.yaml")]:
        with open(path, encoding="utf-8") as fh:
            docs = [(path, u.doc) for u in units(path, fh.read())]
        for _, doc in docs:
            if isinstance(doc.data, dict) and doc.data.get("kind") in crd.PLURALS:
                assert crd.refusals(doc.data["kind"], doc.data) == [], (path, doc.data.get("metadata"))
                checked += 1
        loader.load(docs)
    assert checked > 5000
