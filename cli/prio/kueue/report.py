"""A replay's result in the corpus's form (`cyclesRun`, `stopReason`, `cycles`, `workloads`),
as plain data for the renderers."""
from __future__ import annotations

import datetime as _dt

from prio.kueue import quantity


# Kueue's pending reasons (the QuotaReserved=False condition's reason), in a person's words.
PENDING_REASONS = {
    "WaitingForQuota": "fits the quota in principle, but not now",
    "ExceedsMaxQuota": "can never fit: more than the ClusterQueue could ever get, borrowing included",
    "NoMatchingFlavor": "no flavor matches its tolerations or node selection",
    "Misconfigured": "the ClusterQueue cannot admit it (its namespace is not selected, say)",
    "PendingEvaluation": "preempted, and not evaluated since (the message is the preemption's)",
    "WaitingForPreemptedWorkloads": "waits for the workloads it preempts to release their quota",
}


def rfc3339(t: float) -> str:
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def pod_sets(adm) -> list:
    return [{"name": ps.name, "count": ps.count, "flavors": dict(sorted(ps.flavors.items())),
             "resourceUsage": {r: quantity.text(r, v) for r, v in sorted(ps.usage.items())}} for ps in adm.pod_sets]


def as_data(result) -> dict:
    cycles = []
    for c in result.cycles:
        entry = {"cycle": c.cycle, "time": rfc3339(c.time),
                 "admitted": sorted(({"workload": s.key, "clusterQueue": adm.cluster_queue, "podSets": pod_sets(adm)}
                                     for s, adm in c.admitted), key=lambda d: d["workload"]),
                 "preempted": sorted(c.preempted, key=lambda d: d["workload"])}
        if c.tie:
            entry["tie"] = True
        cycles.append(entry)
    workloads = []
    for s in result.states:
        w = {"workload": s.key, "localQueue": s.wl.queue_name, "priority": s.wl.priority,
             "priorityClass": s.wl.priority_class, "priorityClassKind": s.wl.priority_class_kind,
             "state": "Admitted" if s.admission is not None else "Pending",
             "clusterQueue": s.admission.cluster_queue if s.admission is not None else None}
        if s.admission is not None:
            w["podSets"] = pod_sets(s.admission)
        w.update({"admittedInCycle": s.admitted_in_cycle, "timesPreempted": s.times_preempted,
                  "pendingReason": s.pending_reason if s.admission is None else None,
                  "pendingMessage": s.pending_message if s.admission is None else None})
        workloads.append(w)
    return {"cyclesRun": result.cycles_run, "stopReason": result.stop_reason, "cycles": cycles, "workloads": workloads}
