"""Render Kueue results: `json` exactly the corpus's form (`../shared/testdata/kueue/README.md`),
`table` (rich), `plain` and `markdown` (tabulate) as a person reads them: per cycle, per
ClusterQueue (with its cohort path), then the end state."""
from __future__ import annotations

import json

from prio.render.sections import Sections

LABEL = "Kueue"


def _flavors(ps_list: list) -> str:
    parts = []
    for ps in ps_list:
        res = ", ".join(f"{r} {ps['resourceUsage'].get(r, '0')} in {f}" for r, f in ps["flavors"].items())
        ta = ps.get("topologyAssignment")
        if ta:  # a TAS flavor: where the pods go, each domain's level values joined
            res += " on " + ", ".join(f"{'/'.join(d['values'])} x{d['count']}" for d in ta["domains"])
        parts.append(f"{ps['name']} x{ps['count']}: {res}" if len(ps_list) > 1 or ps["name"] != "main" else res)
    return "; ".join(parts)


def simulate_text(data: dict, paths: dict, fmt: str, width: int | None = None, notes: list = ()) -> str:
    """data: `prio.kueue.report.as_data`; paths: ClusterQueue -> cohort path (/root/.../cq)."""
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    o = Sections(fmt, width)
    o.title(f"{LABEL}: {data['cyclesRun']} scheduling cycle{'s' if data['cyclesRun'] != 1 else ''}, "
            f"stopped: {_STOPS.get(data['stopReason'], data['stopReason'])}")
    rows = []
    for c in data["cycles"]:
        events = [(a["clusterQueue"], a["workload"], "admitted", _flavors(a["podSets"])) for a in c["admitted"]]
        events += [(p["clusterQueue"], p["workload"], "preempted",
                    f"for {p['preemptor']} ({p['reason']})") for p in c["preempted"]]
        for cq, wl, what, detail in sorted(events, key=lambda e: (paths.get(e[0], e[0]), e[2] != "preempted", e[1])):
            rows.append([str(c["cycle"]) + (" (tie)" if c.get("tie") else ""), paths.get(cq, cq), what, wl, detail])
    if rows:
        o.table("Cycles (only those in which something was admitted or preempted)",
                ["cycle", "ClusterQueue", "event", "workload", "detail"], rows,
                "a preemptor is admitted in a later cycle, once its victims have released their quota")
    else:
        o.lines(["no workload was admitted or preempted"])
    end = []
    for w in data["workloads"]:
        cq = w.get("clusterQueue")
        if w["state"] == "Admitted":
            when = "running from the start" if w["admittedInCycle"] == 0 else f"cycle {w['admittedInCycle']}"
            end.append([w["workload"], paths.get(cq, cq), str(w["priority"]), "Admitted", when, _flavors(w["podSets"])])
        else:
            end.append([w["workload"], w.get("_cq_path") or "", str(w["priority"]), "Pending",
                        w["pendingReason"] or "never evaluated", w["pendingMessage"] or ""])
    o.table("End state", ["workload", "ClusterQueue", "priority", "state", "when / reason", "flavors / message"], end)
    preempted = [w for w in data["workloads"] if w["timesPreempted"]]
    if preempted:
        o.lines([f"{w['workload']}: preempted {w['timesPreempted']} time{'s' if w['timesPreempted'] != 1 else ''}"
                 for w in preempted], "Preempted during the run")
    o.lines(list(notes), "Notes")
    return o.render()


_STOPS = {"noPendingHeads": "no ClusterQueue has a workload left to try",
          "noProgress": "two cycles in a row changed nothing", "cycleLimit": "the cycle limit (200)"}


def _share(x) -> str:
    if x is None:
        return ""
    return "+Inf" if x == float("inf") else f"{x:g}"


def tree_json(rows: list) -> list:
    """The cohort tree's rows (prio.kueue.explain.tree_rows) as JSON holds them: a zero weight
    that borrows has an infinite share, written "+Inf" (JSON has no infinity: render.jsontext.num)."""
    from prio.render.jsontext import num

    return [dict(n, share=None if n["share"] is None else num(n["share"])) for n in rows]


def explain_text(data: dict, fmt: str, width: int | None = None, why: list | None = None) -> str:
    """data: `prio.kueue.explain.explain`."""
    if fmt == "json":
        out = dict(data, tree=tree_json(data["tree"]))
        if why is not None:
            out["why"] = why
        return json.dumps(out, indent=2) + "\n"
    o = Sections(fmt, width)
    o.title(f"{LABEL}: cohort tree and quotas" + (" (fair sharing on)" if data["fairSharing"] else ""))
    rows = []
    for n in data["tree"]:
        name = "  " * n["depth"] + n["name"] + ("" if n["kind"] == "ClusterQueue" else "/")
        if not n["resources"]:
            rows.append([name, "", "", "", "", "", "", "", _share(n["weight"]), _share(n["share"])])
        for i, r in enumerate(n["resources"]):
            rows.append([name if i == 0 else "", f"{r['resource']} in {r['flavor']}", r["nominalQuota"] or "",
                         r["borrowingLimit"] or "-", r["lendingLimit"] or "-", r["usage"] or "0", r["borrowed"] or "0",
                         r["available"] or "", _share(n["weight"]) if i == 0 else "", _share(n["share"]) if i == 0 else ""])
    o.table("Cohorts and ClusterQueues", ["name", "resource", "nominal", "borrowing limit", "lending limit", "usage",
                                          "borrowed", "available", "weight", "share"], rows,
            "borrowed: usage above the node's own quota; available: what a workload of the ClusterQueue may use now, "
            "borrowing included; share: dominant resource share / weight (fair sharing)")
    prow = []
    for p in data["pending"]:
        victims = ", ".join(v["workload"] for v in p["victims"])
        prow.append([p["clusterQueue"] or "", str(p["position"] or "-"), p["workload"], str(p["priority"]), p["outcome"],
                     p["reason"] or "", p["message"] + (f" (victims: {victims})" if victims else "")])
    if prow:
        o.table("Pending workloads, in the order Kueue considers them", ["ClusterQueue", "#", "workload", "priority",
                                                                          "now", "reason", "why"], prow,
                "each evaluated alone against the current quota, as Kueue's next cycle would; one workload per "
                "ClusterQueue is tried per cycle")
    else:
        o.lines(["no pending workload"])
    if why:
        o.lines(why, "Why")
    return o.render()


def _state(f: dict | None) -> str:
    """One side of a workload in a diff, as a person reads it."""
    if f is None:
        return "(not there)"
    if f["state"] == "Admitted":
        when = "from the start" if f["admittedInCycle"] == 0 else f"cycle {f['admittedInCycle']}"
        flv = "; ".join(", ".join(f"{r} in {fl}" for r, fl in sorted(rs.items())) for rs in f["flavors"].values())
        s = f"Admitted to {f['clusterQueue']} ({when}{': ' + flv if flv else ''})"
    else:
        s = f"Pending: {f['pendingReason'] or 'never evaluated'}" + (f" ({f['pendingMessage']})" if f["pendingMessage"] else "")
    if f["timesPreempted"]:
        s += f"; preempted {f['timesPreempted']}x"
    return s


def diff_text(d: dict, old: str, new: str, fmt: str, width: int | None = None) -> str:
    """d: `prio.kueue.diff.compare`."""
    if fmt == "json":
        return json.dumps({"old": old, "new": new, **d}, indent=2) + "\n"
    o = Sections(fmt, width)
    s = d["summary"]
    o.title(f"{LABEL}: prio diff {old} -> {new}: {s['changed']} of {s['workloads']} workloads differ"
            + (f" ({s['newlyAdmitted']} newly admitted, {s['newlyPending']} newly pending)" if s["changed"] else ""))
    rows = [[c["workload"], ", ".join(c["changes"]), _state(c["old"]), _state(c["new"])] for c in d["workloads"]]
    if rows:
        o.table("Workloads admitted, preempted or left pending differently", ["workload", "change", "OLD", "NEW"], rows)
    else:
        o.lines(["every workload ends the same: admitted in the same cycle to the same ClusterQueue and flavors, "
                 "preempted as often, or pending for the same reason"])
    if d["cycles"]["old"] != d["cycles"]["new"] or d["stopReason"]["old"] != d["stopReason"]["new"]:
        o.lines([f"OLD: {d['cycles']['old']} cycles, stopped: {_STOPS.get(d['stopReason']['old'], d['stopReason']['old'])}",
                 f"NEW: {d['cycles']['new']} cycles, stopped: {_STOPS.get(d['stopReason']['new'], d['stopReason']['new'])}"],
                "Replays")
    f = d["findings"]
    if f["added"] or f["removed"]:
        o.lines([f"+ {x['rule']} {x['message']}" for x in f["added"]] + [f"- {x['rule']} {x['message']}" for x in f["removed"]],
                "validate findings (+ new in NEW, - gone)")
    return o.render()
