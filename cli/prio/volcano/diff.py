"""`prio diff OLD NEW` for Volcano inputs: two replays (`prio.volcano.report.simulate`, each side
its own objects and scheduler config) compared PodGroup by PodGroup and pod by pod. A PodGroup
differs when its end phase, its running/pending/evicted counts, its queue or its priority differ;
a pod when it ends in another state, on another node, bound in another cycle, or evicted (or not)
where the other side did otherwise. Pure: plain data in and out."""
from __future__ import annotations

# `--fail-on` names the kinds of prio.backend.FAIL_ON, read for Volcano by `changed`:
# priority: a PodGroup's priority; order: a pod bound elsewhere or in another cycle;
# unscheduled: running in OLD, pending in NEW; preemption: evicted in NEW only; findings: a
# validate finding NEW has and OLD has not.


def _group(g: dict | None) -> dict | None:
    if g is None:
        return None
    return {k: g[k] for k in ("queue", "priority", "phase", "inSession", "running", "pending", "evicted")}


def _pod(p: dict | None) -> dict | None:
    if p is None:
        return None
    return {k: p[k] for k in ("state", "node", "boundInCycle", "evictedInCycle", "pendingReason", "pendingMessage")}


def _group_changes(a: dict | None, b: dict | None) -> list:
    if a is None:
        return ["only in NEW"]
    if b is None:
        return ["only in OLD"]
    kinds = []
    if a["phase"] != b["phase"]:
        kinds.append(f"phase {a['phase']} -> {b['phase']}")
    if (a["running"], a["pending"], a["evicted"]) != (b["running"], b["pending"], b["evicted"]):
        kinds.append("pods end otherwise")
    if a["queue"] != b["queue"]:
        kinds.append("another queue")
    if a["priority"] != b["priority"]:
        kinds.append("priority changed")
    return kinds


def _pod_changes(a: dict | None, b: dict | None) -> list:
    if a is None:
        return ["only in NEW"]
    if b is None:
        return ["only in OLD"]
    kinds = []
    if a["state"] != b["state"]:
        kinds.append(f"newly {b['state'].lower()}")  # running, pending, evicted; or succeeded, failed, unknown as written
    elif b["state"] == "Running":
        if a["node"] != b["node"]:
            kinds.append("bound elsewhere")
        if a["boundInCycle"] != b["boundInCycle"]:
            kinds.append("bound in another cycle")
    elif b["state"] == "Pending" and (a["pendingReason"], a["pendingMessage"]) != (b["pendingReason"], b["pendingMessage"]):
        kinds.append("waits for another reason")
    return kinds


def compare(old: dict, new: dict, old_findings=(), new_findings=()) -> dict:
    """old, new: `report.simulate` of the two sides; *_findings: (rule, message) of each side's
    validate run. Returns the diff as plain data (the JSON `prio diff -o json` writes)."""
    ga = {g["podGroup"]: g for g in old["podGroups"]}
    gb = {g["podGroup"]: g for g in new["podGroups"]}
    groups = []
    for key in sorted(set(ga) | set(gb)):
        a, b = _group(ga.get(key)), _group(gb.get(key))
        kinds = _group_changes(a, b)
        if kinds:
            groups.append({"podGroup": key, "changes": kinds, "old": a, "new": b})
    pa = {p["pod"]: p for p in old["pods"]}
    pb = {p["pod"]: p for p in new["pods"]}
    pods = []
    for key in sorted(set(pa) | set(pb)):
        a, b = _pod(pa.get(key)), _pod(pb.get(key))
        kinds = _pod_changes(a, b)
        if kinds:
            pods.append({"pod": key, "changes": kinds, "old": a, "new": b})
    added = sorted(set(map(tuple, new_findings)) - set(map(tuple, old_findings)))
    removed = sorted(set(map(tuple, old_findings)) - set(map(tuple, new_findings)))

    def cfg(c: dict) -> dict:
        return {"valid": c["valid"], "actions": c["actions"], "tiers": [[p["name"] for p in t] for t in c["tiers"]]}

    count = {k: sum(1 for c in pods if k in c["changes"]) for k in ("newly running", "newly pending", "newly evicted")}
    return {"model": "volcano",
            "config": {"old": cfg(old["config"]), "new": cfg(new["config"]), "changed": cfg(old["config"]) != cfg(new["config"])},
            "summary": {"podGroups": len(set(ga) | set(gb)), "podGroupsChanged": len(groups), "pods": len(set(pa) | set(pb)),
                        "podsChanged": len(pods), "newlyRunning": count["newly running"], "newlyPending": count["newly pending"],
                        "newlyEvicted": count["newly evicted"]},
            "cycles": {"old": old["cyclesRun"], "new": new["cyclesRun"]},
            "podGroups": groups, "pods": pods,
            "findings": {"added": [{"rule": r, "message": m} for r, m in added],
                         "removed": [{"rule": r, "message": m} for r, m in removed]}}


def changed(d: dict, kind: str) -> bool:
    """Whether the diff holds a change of `kind` (one of FAIL_ON)."""
    if kind == "findings":
        return bool(d["findings"]["added"])
    if kind == "priority":
        return any("priority changed" in c["changes"] for c in d["podGroups"])
    want = {"order": ("bound elsewhere", "bound in another cycle"), "unscheduled": ("newly pending",),
            "preemption": ("newly evicted",)}[kind]
    return any(k in c["changes"] for c in d["pods"] for k in want)
