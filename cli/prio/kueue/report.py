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
    "Suspended": "its LocalQueue or ClusterQueue is stopped or inactive: Kueue never tries it",
    "AdmissionGated": "an admission gate holds it: Kueue never queues it",
    "Deactivated": "spec.active is false: Kueue never queues it (a running one is evicted)",
}
THRASH_TIMES = 3  # a victim evicted this often for one preemptor that never got in: Kueue thrashes


def thrashing(result) -> list:
    """Kueue's own preemption thrashing (kueue#13662), in a replay that ran to the cycle limit:
    (victim, preemptor, times) where the victim was evicted for the preemptor again and again,
    took the freed quota back, and the preemptor is still pending at the end."""
    if result.stop_reason != "cycleLimit":
        return []
    pending = {s.key for s in result.states if s.admission is None}
    times: dict = {}
    for c in result.cycles:
        for p in c.preempted:
            pair = (p["workload"], p["preemptor"])
            times[pair] = times.get(pair, 0) + 1
    return sorted((v, p, n) for (v, p), n in times.items() if n >= THRASH_TIMES and p in pending)


def replay_notes(result) -> list:
    """What a person should know about the replay itself."""
    found = thrashing(result)
    if not found:
        return []
    shown = "; ".join(f"{v} evicted {n} times for {p}" for v, p, n in found[:3])
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return [f"Kueue itself thrashes here (kueue#13662): {shown}{more}; each time the evicted workload, queued first, "
            f"takes the freed quota back before its preemptor is tried, so the replay runs to the {result.cycles_run}-cycle "
            "limit as Kueue's does (Kueue's fix is gate PrioritizePreemptorWorkloads, off by default)"]


def rfc3339(t: float) -> str:
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def pod_sets(adm) -> list:
    out = []
    for ps in adm.pod_sets:
        row = {"name": ps.name, "count": ps.count, "flavors": dict(sorted(ps.flavors.items())),
               "resourceUsage": {r: quantity.text(r, v) for r, v in sorted(ps.usage.items())}}
        if ps.topology is not None:  # only on a TAS flavor: the corpora's form is unchanged
            levels, domains = ps.topology
            row["topologyAssignment"] = {"levels": list(levels),
                                         "domains": [{"values": list(v), "count": n} for v, n in domains]}
        out.append(row)
    return out


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
