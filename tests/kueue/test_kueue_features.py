"""Kueue's features as prio treats them (prio.kueue.features, issue 48): what is refused is
refused in one line, what is read but not replayed is said in a note on stderr (never silently
ignored), and docs/kueue.md's feature table is the code's table."""
from __future__ import annotations

import json
import os

import pytest
from test_kueue_inputs import FLAVOR, cluster_queue, local_queue, setup, workload

from conftest import ROOT, run_cli, shared
from prio.kueue import features

DOC = os.path.join(ROOT, "docs", "kueue.md")
BEGIN, END = "<!-- features: generated from prio.kueue.features; PRIO_UPDATE_GOLDEN=1 rewrites it -->", "<!-- /features -->"


def test_the_docs_feature_table_is_the_codes():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    assert BEGIN in text and END in text
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    wanted = f"{head}{BEGIN}\n{features.markdown_table()}{END}{tail}"
    if os.environ.get("PRIO_UPDATE_GOLDEN") and wanted != text:
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(wanted)
        return
    assert text == wanted, "docs/kueue.md's feature table differs from prio.kueue.features: PRIO_UPDATE_GOLDEN=1 rewrites it"


def test_every_feature_has_a_known_status_and_refused_ones_name_kinds_or_fields():
    assert {f.status for f in features.FEATURES} <= {features.MODELLED, features.NOTED, features.REFUSED}
    assert len({f.id for f in features.FEATURES}) == len(features.FEATURES)
    assert set(features.REFUSED_KINDS) == {"AdmissionCheck", "ProvisioningRequestConfig",
                                           "MultiKueueConfig", "MultiKueueCluster"}  # Topology is modelled (test_kueue_tas.py)


BASE = [FLAVOR, cluster_queue("cq"), local_queue("a", "cq"), workload("a", "w")]


def simulate(tmp_path, *docs):
    f = tmp_path / "k.yaml"
    f.write_text(setup(*docs))
    return run_cli("simulate", str(f), "-o", "json")


@pytest.mark.parametrize("kind", sorted(features.REFUSED_KINDS))
def test_a_refused_kind_is_refused_in_one_line(tmp_path, kind):
    r = simulate(tmp_path, *BASE, f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: {kind}\nmetadata: {{name: x}}\n")
    assert r.exit_code == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and f"{kind} x: " in r.stderr and "not modelled by prio" in r.stderr and "k.yaml:" in r.stderr


def test_what_topology_aware_scheduling_does_not_model_is_refused_where_it_is_asked_for(tmp_path):
    wl = workload("a", "w").replace("  - template:", "  - topologyRequest: {required: zone, podSetGroupName: g}\n    template:")
    r = simulate(tmp_path, *BASE[:3], wl)
    assert r.exit_code == 2 and "Workload a/w: topology slices and leader/worker pod set groups are not modelled" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_what_is_read_but_not_replayed_is_said_in_a_note(tmp_path):
    config = ("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nwaitForPodsReady: {timeout: 5m}\n"
              "featureGates: {PartialAdmission: false}\nresources: {excludeResourcePrefixes: [x]}\n")
    off = workload("a", "paused").replace("spec:\n", "spec:\n  active: false\n", 1)
    r = simulate(tmp_path, config, *BASE, off)
    assert r.exit_code == 0, r.stderr
    notes = [line for line in r.stderr.splitlines() if line.startswith("prio: note: ")]
    assert any("Configuration waitForPodsReady: waitforpodsready is not replayed" in n for n in notes)
    assert any("Configuration featureGates: feature gates is not replayed: prio replays Kueue's default gates" in n
               for n in notes)
    assert any("Configuration resources: other configuration fields is not replayed: not read" in n for n in notes)
    assert not any("a/paused" in n for n in notes)  # a pending deactivated workload is modelled: no note
    assert list(json.loads(r.stdout)) == ["cyclesRun", "stopReason", "cycles", "workloads"]  # stdout stays the corpus's form


def test_no_note_when_nothing_unmodelled_is_used(tmp_path):
    r = simulate(tmp_path, *BASE)
    assert r.exit_code == 0 and r.stderr == ""


def test_a_cluster_queue_with_admission_checks_is_inactive_as_kueue_makes_it(tmp_path):
    cq = cluster_queue("cq").replace("  namespaceSelector", "  admissionChecksStrategy: {admissionChecks: [{name: prov}]}\n"
                                                            "  namespaceSelector")
    r = simulate(tmp_path, FLAVOR, cq, *BASE[2:])
    assert r.exit_code == 0, r.stderr
    (w,) = json.loads(r.stdout)["workloads"]
    assert (w["state"], w["pendingReason"], w["pendingMessage"]) == ("Pending", "Suspended", "ClusterQueue cq is inactive")


def test_reclaimable_pods_no_longer_hold_quota(tmp_path):
    running = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {namespace: a, name: big, "
               "creationTimestamp: \"2026-01-01T00:00:00Z\"}\nspec:\n  queueName: queue\n  podSets:\n"
               "  - count: 4\n    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n"
               "status:\n  admission: {clusterQueue: cq, podSetAssignments: [{name: main, count: 4, flavors: {cpu: default}, "
               "resourceUsage: {cpu: \"4\"}}]}\n  RECLAIM\n")
    wl = workload("a", "w", cpu=2, second=5)
    held = json.loads(simulate(tmp_path, FLAVOR, cluster_queue("cq"), local_queue("a", "cq"),
                               running.replace("  RECLAIM\n", ""), wl).stdout)
    assert {w["workload"]: w["state"] for w in held["workloads"]}["a/w"] == "Pending"
    freed = json.loads(simulate(tmp_path, FLAVOR, cluster_queue("cq"), local_queue("a", "cq"),
                                running.replace("RECLAIM", "reclaimablePods: [{name: main, count: 2}]"), wl).stdout)
    assert {w["workload"]: w["state"] for w in freed["workloads"]}["a/w"] == "Admitted"


def test_kueues_own_thrashing_is_said_and_the_replay_stops_as_kueues():
    r = run_cli("simulate", shared("testdata", "kueue-2", "fairshare--random-24.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["stopReason"] == "cycleLimit"
    assert "prio: note: Kueue itself thrashes here (kueue#13662): cq-11/w088 evicted 40 times for cq-17/w165" in r.stderr


@pytest.mark.parametrize("bad", [
    ("  namespaceSelector", "  admissionChecksStrategy: [prov]\n  namespaceSelector"),
    ("status:\n", "status:\n  reclaimablePods: [{name: main, count: two}]\n"),
])
def test_a_malformed_new_field_skips_its_object_with_one_note_naming_the_file(tmp_path, bad):
    """The API server refuses the object (a list for a mapping, a string for a count): it is
    skipped, said in one note at its file and line, and the rest replays as without it."""
    running = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {namespace: a, name: r, "
               "creationTimestamp: \"2026-01-01T00:00:00Z\"}\nspec:\n  queueName: queue\n  podSets:\n"
               "  - template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\nstatus:\n"
               "  admission: {clusterQueue: cq, podSetAssignments: [{name: main, count: 1, flavors: {cpu: default}, "
               "resourceUsage: {cpu: \"1\"}}]}\n")
    good = [FLAVOR, cluster_queue("cq"), local_queue("a", "cq"), running, workload("a", "w", second=5)]
    docs = [d.replace(*bad, 1) for d in good]
    (i,) = [j for j, (d, g) in enumerate(zip(docs, good)) if d != g]
    r = simulate(tmp_path, *docs)
    assert r.exit_code == 0 and "Traceback" not in r.stderr, r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"prio: note: {tmp_path / 'k.yaml'}:") and line.endswith("(skipped: the API server refuses this object)")
    assert r.stdout == simulate(tmp_path, *(good[:i] + good[i + 1:])).stdout


def test_partial_admission_takes_the_largest_count_that_fits(tmp_path):
    """PodSetReducer: counts 10 down to minCount 2 in proportion; 4 cpu of quota admit 4 pods."""
    wl = workload("a", "w").replace("  - template:", "  - count: 10\n    minCount: 2\n    template:")
    r = simulate(tmp_path, FLAVOR, cluster_queue("cq", cpu=4), local_queue("a", "cq"), wl)
    assert r.exit_code == 0, r.stderr
    (w,) = json.loads(r.stdout)["workloads"]
    assert w["state"] == "Admitted" and w["podSets"][0]["count"] == 4 and w["podSets"][0]["resourceUsage"] == {"cpu": "4"}
    r = simulate(tmp_path, FLAVOR, cluster_queue("cq", cpu=1), local_queue("a", "cq"), wl)
    (w,) = json.loads(r.stdout)["workloads"]  # below minCount: pending with the full count's message
    assert (w["state"], w["pendingReason"]) == ("Pending", "ExceedsMaxQuota")
    assert "current podset request (10) > maximum capacity (1)" in w["pendingMessage"]


RUNNING = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {namespace: a, name: big, "
           "creationTimestamp: \"2026-01-01T00:00:00Z\"}\nspec:\n  queueName: queue\n  podSets:\n"
           "  - count: 4\n    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n"
           "status:\n  admission: {clusterQueue: cq, podSetAssignments: [{name: main, count: 4, flavors: {cpu: default}, "
           "resourceUsage: {cpu: \"4\"}}]}\n")


def _deactivate(doc: str) -> str:
    return doc.replace("spec:\n", "spec:\n  active: false\n", 1)


def test_a_deactivated_workload_gets_kueues_reason_and_message_and_is_never_tried(tmp_path):
    """`resolveGranularUnadmittedQuotaReservedCondition`: Deactivated, "The workload is deactivated"."""
    r = simulate(tmp_path, *BASE[:3], _deactivate(workload("a", "w")))
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    (w,) = out["workloads"]
    assert (w["state"], w["pendingReason"], w["pendingMessage"]) == ("Pending", "Deactivated", "The workload is deactivated")
    assert out["cycles"] == [] and r.stderr == ""


def test_a_deactivated_running_workload_gives_its_quota_back_with_a_note(tmp_path):
    wl = workload("a", "w", cpu=2, second=5)
    held = json.loads(simulate(tmp_path, *BASE[:3], RUNNING, wl).stdout)
    assert {w["workload"]: w["state"] for w in held["workloads"]}["a/w"] == "Pending"
    r = simulate(tmp_path, *BASE[:3], _deactivate(RUNNING), wl)
    states = {w["workload"]: (w["state"], w["pendingReason"]) for w in json.loads(r.stdout)["workloads"]}
    assert states == {"a/big": ("Pending", "Deactivated"), "a/w": ("Admitted", None)}
    assert "Workload a/big: evicting a deactivated running workload is not replayed" in r.stderr


def test_explain_says_a_deactivated_workload_is_never_queued(tmp_path):
    f = tmp_path / "k.yaml"
    f.write_text(setup(*BASE[:3], _deactivate(workload("a", "w"))))
    r = run_cli("explain", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    (row,) = json.loads(r.stdout)["pending"]
    assert (row["outcome"], row["reason"], row["message"]) == ("never queued", "Deactivated", "The workload is deactivated")
    r = run_cli("explain", str(f), "--why-workload", "a/w")
    assert r.exit_code == 0, r.stderr
    assert "Kueue never queues it: Deactivated: The workload is deactivated (spec.active is false)." in r.stdout
