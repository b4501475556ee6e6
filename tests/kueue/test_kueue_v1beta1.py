"""Kueue's deprecated v1beta1 API (prio.kueue.convert): an object written in it is read as Kueue
serves it, converted to v1beta2 by its conversion webhook's rules, checked against the v1beta1
CRD as the API server checks a request, and reported as deprecated (PRIO623).

The metamorphic property: every recorded scenario written back in v1beta1 (each object whose
v1beta1 form the v1beta1 CRD takes; the rest stay v1beta2, as a cluster mid-migration holds
both) simulates to the same JSON as written in v1beta2, and validates with the same findings
beside PRIO623."""
from __future__ import annotations

import copy
import glob
import json
import os

import pytest
import yaml

from conftest import SHARED, run_cli

CASES = sorted(p for corpus in ("kueue", "kueue-2") for p in glob.glob(os.path.join(SHARED, "testdata", corpus, "*.yaml")))
V1 = "kueue.x-k8s.io/v1beta1"
SOURCES = {"WorkloadPriorityClass": "kueue.x-k8s.io/workloadpriorityclass", "PriorityClass": "scheduling.k8s.io/priorityclass"}


def _to_v1beta1(obj: dict) -> dict:
    """A v1beta2 Kueue object as v1beta1 writes it (the webhook's rules run backwards)."""
    obj = copy.deepcopy(obj)
    obj["apiVersion"] = V1
    kind, spec, status = obj.get("kind"), obj.get("spec") or {}, obj.get("status") or {}
    if kind == "ClusterQueue" and "cohortName" in spec:
        spec["cohort"] = spec.pop("cohortName")
    if kind == "Workload":
        ref = spec.pop("priorityClassRef", None)
        if ref:
            spec["priorityClassName"] = ref["name"]
            spec["priorityClassSource"] = SOURCES[ref.get("kind") or "WorkloadPriorityClass"]
        for pa in (status.get("admission") or {}).get("podSetAssignments") or []:
            ta = pa.get("topologyAssignment")
            if ta:
                pa["topologyAssignment"] = {"levels": ta["levels"], "domains": _domains(ta)}
    if kind == "LocalQueue" and "flavorsUsage" in status:
        status["flavorUsage"] = status.pop("flavorsUsage")
    return obj


def _domains(ta: dict) -> list:
    out = []
    for sl in ta.get("slices") or []:
        n = sl.get("domainCount", 1)
        levels = [[lv["universal"]] * n if "universal" in lv else
                  [f"{lv['individual'].get('prefix', '')}{r}{lv['individual'].get('suffix', '')}" for r in lv["individual"]["roots"]]
                  for lv in sl["valuesPerLevel"]]
        pc = sl["podCounts"]
        counts = [pc["universal"]] * n if "universal" in pc else pc["individual"]
        out += [{"values": [lv[k] for lv in levels], "count": counts[k]} for k in range(n)]
    return out


def _v1beta1_takes(obj: dict) -> bool:
    from prio.kueue import crd

    kind = obj.get("kind")
    return kind in crd.PLURALS and not crd.violations(kind, obj, "v1beta1") and not crd.refusals(kind, obj, "v1beta1")


def _written_back(path: str, tmp_path) -> tuple:
    """The scenario with every object the v1beta1 CRD takes in v1beta1, and how many were."""
    docs = [d for d in yaml.safe_load_all(open(path, encoding="utf-8")) if d is not None]
    out, n = [], 0
    for d in docs:
        if isinstance(d, dict) and str(d.get("apiVersion", "")).startswith("kueue.x-k8s.io/"):
            v1 = _to_v1beta1(d)
            if _v1beta1_takes(v1):
                d, n = v1, n + 1
        out.append(d)
    target = tmp_path / os.path.basename(path)
    target.write_text(yaml.safe_dump_all(out, sort_keys=False))
    return str(target), n


@pytest.mark.skipif(not CASES, reason="../shared/testdata/kueue is absent")
@pytest.mark.parametrize("case", CASES, ids=[os.path.basename(c)[:-5] for c in CASES])
def test_a_scenario_written_in_v1beta1_simulates_as_in_v1beta2(case, tmp_path):
    v1, n = _written_back(case, tmp_path)
    assert n  # every scenario has objects v1beta1 takes (its ResourceFlavors at least)
    want = run_cli("simulate", case, "-o", "json")
    got = run_cli("simulate", v1, "-o", "json")
    assert (got.exit_code, got.stdout) == (want.exit_code, want.stdout)
    assert got.stderr.replace(v1, case) == want.stderr


@pytest.mark.skipif(not CASES, reason="../shared/testdata/kueue is absent")
@pytest.mark.parametrize("case", CASES[::8], ids=[os.path.basename(c)[:-5] for c in CASES[::8]])
def test_a_scenario_written_in_v1beta1_validates_as_in_v1beta2_beside_the_deprecation(case, tmp_path):
    v1, n = _written_back(case, tmp_path)
    v2 = tmp_path / ("v2-" + os.path.basename(case))  # the same dump, so that lines compare
    v2.write_text(yaml.safe_dump_all([d for d in yaml.safe_load_all(open(case, encoding="utf-8")) if d is not None],
                                     sort_keys=False))
    want = json.loads(run_cli("validate", str(v2), "-o", "json").stdout)["findings"]
    got = json.loads(run_cli("validate", v1, "-o", "json").stdout)["findings"]
    assert sum(f["rule"] == "PRIO623" for f in got) == n
    assert [(f["rule"], f["message"]) for f in got if f["rule"] != "PRIO623"] == [(f["rule"], f["message"]) for f in want]


def _validate(tmp_path, text: str) -> list:
    p = tmp_path / "v1.yaml"
    p.write_text(text)
    r = run_cli("validate", str(p), "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    return json.loads(r.stdout)["findings"]


CQ = """apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq}
spec:
  cohort: org
  namespaceSelector: {}
  admissionChecks: [check-a, check-b]
  flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 8}]
"""


def test_the_webhooks_cluster_queue_rules():
    """Convert_v1beta1_ClusterQueueSpec_To_v1beta2_ClusterQueueSpec: cohort is cohortName, the
    admission checks a strategy (replacing one written beside them), Borrow and Preempt are
    MayStopSearch; what only v1beta2 defines is pruned, as the API server prunes a request."""
    from prio.io import yamlnodes
    from prio.kueue.crd import converted

    text = CQ.replace("namespaceSelector: {}", "namespaceSelector: {}\n  concurrentAdmissionPolicy: x\n"
                                               "  admissionChecksStrategy: {admissionChecks: [{name: old}]}")
    doc = converted(yamlnodes.load("cq.yaml", text)[0])
    spec = doc.data["spec"]
    assert doc.data["apiVersion"] == "kueue.x-k8s.io/v1beta2"
    assert spec["cohortName"] == "org" and "cohort" not in spec and "concurrentAdmissionPolicy" not in spec
    assert spec["admissionChecksStrategy"] == {"admissionChecks": [{"name": "check-a"}, {"name": "check-b"}]}
    assert spec["flavorFungibility"] == {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "MayStopSearch"}
    assert doc.pos(("spec", "cohortName")).line == 5  # where `cohort` was written
    assert doc.pos(("spec", "admissionChecksStrategy", "admissionChecks", 1, "name")).line == 9  # (two lines added above)
    assert doc.original.data["spec"]["cohort"] == "org"  # the document as written is kept, untouched


def test_a_v1beta1_cluster_queue_is_in_its_cohort_and_deprecated(tmp_path):
    found = [f for f in _validate(tmp_path, CQ) if f["rule"] != "PRIO611"]  # (its ResourceFlavor is not among them)
    assert [(f["rule"], f["line"]) for f in found] == [("PRIO623", 1)]
    assert "spec.cohort is spec.cohortName" in found[0]["message"] and "Borrow is MayStopSearch" in found[0]["message"]
    # the v1beta2 name in a v1beta1 object is what the v1beta1 CRD does not define
    found = _validate(tmp_path, CQ.replace("cohort:", "cohortName:"))
    assert ("PRIO610", 5) in [(f["rule"], f["line"]) for f in found]
    # and v1beta1's name in a v1beta2 object, as before
    found = _validate(tmp_path, CQ.replace("v1beta1", "v1beta2").replace("  admissionChecks: [check-a, check-b]\n", "")
                      .replace("{whenCanBorrow: Borrow, whenCanPreempt: Preempt}", "{}"))
    assert [(f["rule"], f["line"]) for f in found if f["rule"] != "PRIO611"] == [("PRIO610", 5)]


WORKLOADS = """apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 1}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: lq, namespace: default}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: mid}
value: 500
"""


def _workload(name: str, created: str, source: str | None, cls: str | None) -> str:
    container = {"name": "c", "resources": {"requests": {"cpu": "1"}}}
    spec: dict = {"queueName": "lq", "podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": [container]}}}]}
    if cls:
        spec["priorityClassName"] = cls
    if source is not None:
        spec["priorityClassSource"] = source
    return "---\n" + yaml.safe_dump({"apiVersion": V1, "kind": "Workload",
                                     "metadata": {"name": name, "namespace": "default", "creationTimestamp": created},
                                     "spec": spec}, sort_keys=False)


def test_a_v1beta1_workloads_priority_class_is_its_source_and_name(tmp_path):
    """priorityClassSource says which class priorityClassName names; with no source (v1beta1's
    default) the webhook drops the name: the workload has no priority class (0), so the one
    created first is admitted before it, and the Kueue class before the Kubernetes one."""
    text = WORKLOADS + _workload("none", "2026-01-01T00:00:00Z", None, "high") + \
        _workload("kube", "2026-01-01T00:00:01Z", "scheduling.k8s.io/priorityclass", "mid") + \
        _workload("kueue", "2026-01-01T00:00:02Z", "kueue.x-k8s.io/workloadpriorityclass", "high")
    p = tmp_path / "setup.yaml"
    p.write_text(text)
    r = run_cli("simulate", str(p), "-o", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    wls = {w["workload"]: w for w in out["workloads"]}
    assert {n: (w["priority"], w["priorityClass"], w["priorityClassKind"]) for n, w in wls.items()} == {
        "default/none": (0, None, None), "default/kube": (500, "mid", "PriorityClass"),
        "default/kueue": (1000, "high", "WorkloadPriorityClass")}
    assert [w["workload"] for c in out["cycles"] for w in c["admitted"]][:1] == ["default/kueue"]


def test_a_missing_class_is_refused_where_v1beta1_named_it(tmp_path):
    p = tmp_path / "setup.yaml"
    text = WORKLOADS + _workload("w", "2026-01-01T00:00:00Z", "kueue.x-k8s.io/workloadpriorityclass", "nosuch")
    p.write_text(text)
    r = run_cli("simulate", str(p))
    assert r.exit_code == 2
    line = text.split("\n").index("  priorityClassName: nosuch") + 1
    assert f"{p}:{line}:" in r.stderr and "WorkloadPriorityClass 'nosuch' does not exist" in r.stderr


def test_a_v1beta1_topology_assignment_is_read_as_its_domains():
    """v1beta1's domains (values, count) are the same assignment as v1beta2's slices: the loader
    reads the same (levels, domains) from either."""
    from prio.io import yamlnodes
    from prio.kueue import load
    from prio.kueue.crd import converted

    wl = {"apiVersion": V1, "kind": "Workload", "metadata": {"name": "w", "creationTimestamp": "2026-01-01T00:00:00Z"},
          "spec": {"queueName": "lq", "podSets": [{"name": "main", "count": 3}]},
          "status": {"admission": {"clusterQueue": "cq", "podSetAssignments": [{"name": "main", "count": 3, "topologyAssignment": {
              "levels": ["zone", "host"], "domains": [{"values": ["a", "h1"], "count": 2}, {"values": ["b", "h2"], "count": 1}]}}]}}}
    doc = converted(yamlnodes.load("w.yaml", yaml.safe_dump(wl))[0])
    ta = doc.data["status"]["admission"]["podSetAssignments"][0]["topologyAssignment"]
    r = load._Reader("w.yaml", doc)
    assert load._topology_assignment(r, ("status", "admission", "podSetAssignments", 0, "topologyAssignment"), ta, "w") == \
        (("zone", "host"), [(("a", "h1"), 2), (("b", "h2"), 1)])


def test_a_refusal_of_the_v1beta1_crd_is_placed_where_written(tmp_path):
    """The v1beta1 CRD's own limit (an admission check's name of at most 316 bytes): validate's
    PRIO622 and the analyses' refusal both at the name as written, under the field v1beta2
    renamed (not at `spec`, where the converted path would fall back to)."""
    text = CQ.replace("[check-a, check-b]", "[" + "a" * 400 + "]")
    found = [f for f in _validate(tmp_path, text) if f["rule"] == "PRIO622"]
    assert [(f["line"], f["column"]) for f in found] == [(7, 21)] and "316 bytes" in found[0]["message"]
    r = run_cli("explain", str(tmp_path / "v1.yaml"))
    assert r.exit_code == 2 and f"{tmp_path / 'v1.yaml'}:7:21:" in r.stderr


def test_a_version_kueue_does_not_serve_is_refused_and_skipped(tmp_path):
    """kueue.x-k8s.io/v1alpha1 (where Topology once lived) is no resource the API server knows:
    validate's PRIO624, and the analyses leave the object out (a note) and replay the rest."""
    sample = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "kueue.yaml")
    text = open(sample, encoding="utf-8").read()
    first_cq = text.index("kind: ClusterQueue")
    at = text.rindex("apiVersion: kueue.x-k8s.io/v1beta2", 0, first_cq)
    p = tmp_path / "setup.yaml"
    p.write_text(text[:at] + "apiVersion: kueue.x-k8s.io/v1alpha1" + text[at + len("apiVersion: kueue.x-k8s.io/v1beta2"):])
    line = text[:at].count("\n") + 1
    found = json.loads(run_cli("validate", str(p), "-o", "json").stdout)["findings"]
    assert [(f["rule"], f["line"]) for f in found if f["rule"] == "PRIO624"] == [("PRIO624", line)]
    r = run_cli("simulate", str(p))
    assert r.exit_code == 0, r.stderr
    assert f"{p}:{line}:13:" in r.stderr and "is not a version Kueue serves (skipped: the API server refuses this object)" in r.stderr


def test_the_webhooks_status_rules_and_a_name_without_a_source():
    """LocalQueue flavorUsage is flavorsUsage and flavors is dropped; a ClusterQueue's
    pendingWorkloadsStatus and a Cohort's admissionFairSharingStatus are dropped; a Workload's
    accumulatedPastExexcutionTimeSeconds (sic) is renamed; a priorityClassName with no source is
    dropped (Convert_v1beta1_WorkloadSpec_To_v1beta2_WorkloadSpec)."""
    from prio.io import yamlnodes
    from prio.kueue.crd import converted

    def one(obj: dict) -> dict:
        return converted(yamlnodes.load("x.yaml", yaml.safe_dump(dict(obj, apiVersion=V1)))[0]).data

    usage = [{"name": "default", "resources": [{"name": "cpu", "total": "1"}]}]
    lq = one({"kind": "LocalQueue", "metadata": {"name": "lq"}, "spec": {"clusterQueue": "cq"},
              "status": {"flavorUsage": usage, "flavors": [{"name": "default"}]}})
    assert lq["status"] == {"flavorsUsage": usage}
    cq = one({"kind": "ClusterQueue", "metadata": {"name": "cq"}, "spec": {},
              "status": {"pendingWorkloads": 1, "pendingWorkloadsStatus": {"clusterQueuePendingWorkload": []},
                         "fairSharing": {"weightedShare": 5, "admissionFairSharingStatus": {"consumedResources": {}}}}})
    assert cq["status"] == {"pendingWorkloads": 1, "fairSharing": {"weightedShare": 5}}
    wl = one({"kind": "Workload", "metadata": {"name": "w"}, "spec": {"queueName": "lq", "priorityClassName": "high",
                                                                    "podSets": [{"name": "main", "count": 1}]},
              "status": {"accumulatedPastExexcutionTimeSeconds": 7}})
    assert "priorityClassName" not in wl["spec"] and "priorityClassRef" not in wl["spec"]
    assert wl["status"] == {"accumulatedPastExecutionTimeSeconds": 7}


def test_an_unserved_version_is_refused_whole(tmp_path):
    """No CRD of v1alpha1 to check the object against: PRIO624 alone, not the v1beta2 schema's
    findings on v1beta1's `cohort`."""
    found = [f["rule"] for f in _validate(tmp_path, CQ.replace("v1beta1", "v1alpha1")) if f["rule"] != "PRIO611"]
    assert found == ["PRIO624"]


def test_a_source_without_a_name_and_nulls():
    """A priorityClassSource without a name is a priorityClassRef naming no class (the webhook's
    switch on the source runs without one); a null field is no value (pruned before converting:
    `cohort: null` is no cohortName)."""
    from prio.io import yamlnodes
    from prio.kueue.crd import converted

    wl = {"apiVersion": V1, "kind": "Workload", "metadata": {"name": "w"},
          "spec": {"queueName": "lq", "priorityClassSource": "scheduling.k8s.io/priorityclass", "podSets": [{"name": "main", "count": 1}]}}
    got = converted(yamlnodes.load("w.yaml", yaml.safe_dump(wl))[0]).data["spec"]
    assert got["priorityClassRef"] == {"group": "scheduling.k8s.io", "kind": "PriorityClass"} and "priorityClassSource" not in got
    cq = converted(yamlnodes.load("cq.yaml", CQ.replace("cohort: org", "cohort: null"))[0]).data["spec"]
    assert "cohortName" not in cq and "cohort" not in cq
