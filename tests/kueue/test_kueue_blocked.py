"""Workloads Kueue never schedules (issue 48): what its workload controller writes on them when
they are created, in Kueue's words (`WorkloadReconciler.Reconcile`): a stopped LocalQueue or
ClusterQueue is Suspended, an admission gate is AdmissionGated, a missing LocalQueue is
Misconfigured; and a stopped LocalQueue's workloads are never admitted while the rest go on."""
from __future__ import annotations

import json

from test_kueue_inputs import FLAVOR, cluster_queue, setup, workload

from conftest import run_cli

GATED = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {namespace: a, name: gated, "
         "creationTimestamp: \"2026-01-01T00:00:09Z\", annotations: {kueue.x-k8s.io/admission-gated-by: example.com/gate}}\n"
         "spec:\n  queueName: queue\n  podSets:\n  - template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n")


def lq(ns: str, cq: str, name: str = "queue", stop: str | None = None) -> str:
    spec = f"{{clusterQueue: {cq}" + (f", stopPolicy: {stop}}}" if stop else "}")
    return f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {{namespace: {ns}, name: {name}}}\nspec: {spec}\n"


def held_workload(ns: str, name: str) -> str:
    return workload(ns, name).replace("queueName: queue", "queueName: held")


def test_stopped_queues_gates_and_missing_queues_in_kueues_words(tmp_path):
    stopped_cq = cluster_queue("cq-b").replace("  namespaceSelector", "  stopPolicy: Hold\n  namespaceSelector")
    f = tmp_path / "k.yaml"
    f.write_text(setup(FLAVOR, cluster_queue("cq-a"), stopped_cq, lq("a", "cq-a"), lq("a", "cq-a", "held", "HoldAndDrain"),
                       lq("b", "cq-b"), workload("a", "runs"), held_workload("a", "held-1"), workload("b", "in-stopped-cq"),
                       GATED, workload("c", "no-queue")))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    end = {w["workload"]: (w["state"], w["pendingReason"], w["pendingMessage"]) for w in json.loads(r.stdout)["workloads"]}
    assert end == {
        "a/runs": ("Admitted", None, None),
        "a/held-1": ("Pending", "Suspended", "LocalQueue held is inactive"),
        "b/in-stopped-cq": ("Pending", "Suspended", "ClusterQueue cq-b is inactive"),
        "a/gated": ("Pending", "AdmissionGated", "Admission is gated by: example.com/gate"),
        "c/no-queue": ("Pending", "Misconfigured", "LocalQueue queue doesn't exist"),
    }
    ex = run_cli("explain", str(f), "-o", "json")
    assert ex.exit_code == 0, ex.stderr
    rows = {p["workload"]: (p["outcome"], p["reason"]) for p in json.loads(ex.stdout)["pending"]}
    assert rows["a/held-1"] == ("never queued", "Suspended") and rows["a/gated"] == ("never queued", "AdmissionGated")
    assert rows["b/in-stopped-cq"] == ("never tried", "Suspended")
    why = run_cli("explain", str(f), "-o", "plain", "--why-workload", "a/held-1")
    assert "Kueue never queues it: Suspended: LocalQueue held is inactive." in why.stdout
