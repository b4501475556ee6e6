"""`prio diff OLD NEW WORK` for Kueue setups: two replays (`prio.kueue.report.as_data`) compared
workload by workload. A workload differs when its end state (Admitted or Pending), where it was
admitted (ClusterQueue, flavor per resource, the topology domains on a TAS flavor), the cycle it was admitted in, how often it was
preempted, its priority, or why it waits (reason and message) differs. Pure: plain data in and out."""
from __future__ import annotations

# `--fail-on` names the kinds of prio.backend.FAIL_ON, read for Kueue by `changed`:
# priority: a workload's priority; order: admitted in another cycle, ClusterQueue, flavor or topology domains;
# unscheduled: admitted in OLD, pending in NEW (or pending and only in NEW); preemption:
# preempted more often in NEW; findings: a validate finding NEW has and OLD has not.


def _flavors(w: dict) -> dict:
    """{pod set: {resource: flavor}} of an admitted workload."""
    return {ps["name"]: dict(ps["flavors"]) for ps in w.get("podSets") or []}


def _facts(w: dict | None) -> dict | None:
    if w is None:
        return None
    out = {"state": w["state"], "priority": w["priority"], "clusterQueue": w["clusterQueue"],
           "admittedInCycle": w["admittedInCycle"], "timesPreempted": w["timesPreempted"],
           "pendingReason": w["pendingReason"], "pendingMessage": w["pendingMessage"]}
    if w["state"] == "Admitted":
        out["flavors"] = _flavors(w)
        placed = {ps["name"]: {"/".join(d["values"]): d["count"] for d in ps["topologyAssignment"]["domains"]}
                  for ps in w.get("podSets") or [] if ps.get("topologyAssignment")}
        if placed:  # a TAS flavor: {pod set: {domain: pods}}
            out["topology"] = placed
    return out


def _what(old: dict | None, new: dict | None) -> list:
    """The kinds of change from one workload's facts to the other's, most telling first."""
    if old is None:
        return ["only in NEW"]
    if new is None:
        return ["only in OLD"]
    kinds = []
    if old["state"] != new["state"]:
        kinds.append("newly admitted" if new["state"] == "Admitted" else "newly pending")
    elif new["state"] == "Admitted":
        if (old["clusterQueue"], old.get("flavors")) != (new["clusterQueue"], new.get("flavors")):
            kinds.append("admitted elsewhere")
        elif old.get("topology") != new.get("topology"):
            kinds.append("placed on other nodes")
        if old["admittedInCycle"] != new["admittedInCycle"]:
            kinds.append("admitted in another cycle")
    elif (old["pendingReason"], old["pendingMessage"]) != (new["pendingReason"], new["pendingMessage"]):
        kinds.append("waits for another reason")
    if old["timesPreempted"] != new["timesPreempted"]:
        kinds.append("preempted more often" if new["timesPreempted"] > old["timesPreempted"] else "preempted less often")
    if old["priority"] != new["priority"]:
        kinds.append("priority changed")
    return kinds


def compare(old: dict, new: dict, old_findings=(), new_findings=()) -> dict:
    """old, new: `as_data` of the two replays; *_findings: (rule, message) of each side's
    validate run. Returns the diff as plain data (the JSON `prio diff -o json` writes)."""
    a = {w["workload"]: w for w in old["workloads"]}
    b = {w["workload"]: w for w in new["workloads"]}
    changes = []
    for key in sorted(set(a) | set(b)):
        fa, fb = _facts(a.get(key)), _facts(b.get(key))
        kinds = _what(fa, fb)
        if kinds:
            changes.append({"workload": key, "changes": kinds, "old": fa, "new": fb})
    added = sorted(set(map(tuple, new_findings)) - set(map(tuple, old_findings)))
    removed = sorted(set(map(tuple, old_findings)) - set(map(tuple, new_findings)))
    count = {k: sum(1 for c in changes if k in c["changes"]) for k in ("newly admitted", "newly pending")}
    return {"model": "kueue",
            "summary": {"workloads": len(set(a) | set(b)), "changed": len(changes),
                        "newlyAdmitted": count["newly admitted"], "newlyPending": count["newly pending"],
                        "preemptedMoreOften": sum(1 for c in changes if "preempted more often" in c["changes"])},
            "cycles": {"old": old["cyclesRun"], "new": new["cyclesRun"]},
            "stopReason": {"old": old["stopReason"], "new": new["stopReason"]},
            "workloads": changes,
            "findings": {"added": [{"rule": r, "message": m} for r, m in added],
                         "removed": [{"rule": r, "message": m} for r, m in removed]}}


def changed(d: dict, kind: str) -> bool:
    """Whether the diff holds a change of `kind` (one of FAIL_ON)."""
    if kind == "findings":
        return bool(d["findings"]["added"])
    want = {"priority": ("priority changed",), "order": ("admitted elsewhere", "placed on other nodes", "admitted in another cycle"),
            "unscheduled": ("newly pending",), "preemption": ("preempted more often",)}[kind]
    return any(k in c["changes"] for c in d["workloads"] for k in want) or \
        (kind == "unscheduled" and any(c["changes"] == ["only in NEW"] and c["new"]["state"] == "Pending" for c in d["workloads"]))
