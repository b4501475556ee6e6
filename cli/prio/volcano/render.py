"""Render Volcano results: `json` exactly the shared corpus's form
(`../shared/testdata/volcano/README.md`), `table` (rich), `plain` and `markdown` (tabulate) as a
person reads them: the config in force, per cycle what was bound, evicted and pipelined, then
each PodGroup and pod at the end."""
from __future__ import annotations

import json

from prio.render.printable import for_terminal
from prio.render.sections import Sections

LABEL = "Volcano"


def _config_lines(cfg: dict) -> list:
    lines = []
    if not cfg["valid"]:
        lines.append(f"the file's config is refused by Volcano ({cfg['error']!r}): the default config runs")
    lines.append("actions: " + ", ".join(cfg["actions"]))
    for i, tier in enumerate(cfg["tiers"], 1):
        lines.append(f"tier {i}: " + ", ".join(p["name"] for p in tier))
    return lines


@for_terminal
def simulate_text(data: dict, fmt: str, width: int | None = None) -> str:
    """data: prio.volcano.report.simulate."""
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    o = Sections(fmt, width)
    o.title(f"{LABEL}: {data['cyclesRun']} scheduling cycle{'s' if data['cyclesRun'] != 1 else ''}, "
            f"stopped: {_STOPS.get(data['stopReason'], data['stopReason'])}")
    o.lines(_config_lines(data["config"]), "Config in force")
    rows = []
    for c in data["cycles"]:
        n = str(c["cycle"])
        rows += [[n, "phase", p["podGroup"], f"{p['from']} -> {p['to']}"] for p in c["phaseChanges"]]
        rows += [[n, "bind", b["pod"], f"on {b['node']}" + (" (tie: lowest node name)" if b.get("tie") else "")] for b in c["binds"]]
        rows += [[n, e["action"], e["pod"], f"from {e['node']}" + (f" for {e['preemptor']}" if e["preemptor"] else "")]
                 for e in c["evictions"]]
        rows += [[n, "pipelined", p["pod"], f"onto {p['node']}, bound once its victims are gone"] for p in c["pipelined"]]
    if rows:
        o.table("Cycles (only those in which something happened)", ["cycle", "event", "object", "detail"], rows)
    else:
        o.lines(["nothing was bound, evicted or pipelined and no PodGroup changed phase"])
    groups = [[g["podGroup"], g["queue"], str(g["priority"]), g["phase"] + ("" if g["inSession"] else " (never in a session: its queue does not exist)"),
               f"{g['running']} running, {g['pending']} pending, {g['evicted']} evicted"] for g in data["podGroups"]]
    o.table("PodGroups at the end", ["PodGroup", "queue", "priority", "phase", "pods"], groups)
    pods = []
    for p in data["pods"]:
        if p["state"] == "Running":
            when = "running from the start" if p["boundInCycle"] == 0 else f"bound in cycle {p['boundInCycle']}"
            pods.append([p["pod"], p["state"], p["node"], when])
        elif p["state"] == "Evicted":
            pods.append([p["pod"], p["state"], p["node"], f"evicted in cycle {p['evictedInCycle']}"])
        elif p["state"] == "Deleted":
            pods.append([p["pod"], p["state"], p["node"] or "", "being deleted at the start: Releasing in cycle 1, gone after it"])
        elif p["state"] != "Pending":  # Succeeded, Failed, Unknown: as written
            pods.append([p["pod"], p["state"], p["node"] or "", "as written: Volcano never schedules it again"])
        else:
            why = p["pendingMessage"] or p["pendingReason"] or ""
            pods.append([p["pod"], p["state"], p["nominatedNode"] or "", why])
    o.table("Pods at the end", ["pod", "state", "node", "when / why"], pods)
    return o.render()


@for_terminal
def explain_text(data: dict, fmt: str, width: int | None = None) -> str:
    """data: prio.volcano.explain.explain."""
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    o = Sections(fmt, width)
    o.title(f"{LABEL}: the order its session serves queues and jobs in")
    o.lines(_config_lines(data["config"]), "Config in force")
    o.table("Queues, in the order allocate serves them", ["queue", "weight", "priority", "state", "deserved", "allocated"],
            [[q["queue"], str(q["weight"]), str(q["priority"]), q["state"], q["deserved"], q["allocated"]] for q in data["queues"]])
    o.table("Jobs, in the order allocate takes them within their queue", ["PodGroup", "queue", "priority", "minMember", "phase", "pods"],
            [[j["podGroup"], j["queue"], str(j["priority"]), str(j["minMember"]), j["phase"], str(j["pods"])] for j in data["jobs"]])
    if data["notInSession"]:
        o.lines([f"{g}: names a queue that does not exist: Volcano leaves it out of every session" for g in data["notInSession"]],
                "Left out")
    return o.render()


@for_terminal
def why_text(data: dict, fmt: str, width: int | None = None) -> str:
    """data: prio.volcano.why.why_job."""
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    o = Sections(fmt, width)
    o.title(f"{LABEL}: why {data['podGroup']} is {data['phase']}")
    o.lines([data["verdict"]])
    o.table("What each action and plugin says at the last session", ["action", "plugin", "", "reason"],
            [[c["action"], c["plugin"], "ok" if c["passed"] else "stops it", c["reason"]] for c in data["checks"]])
    if data["conditions"]:
        o.table("Its PodGroup's conditions, as Volcano wrote them", ["type", "reason", "message"],
                [[c["type"], c["reason"], c["message"]] for c in data["conditions"]])
    if data["pods"]:
        o.table("Its pending pods, as Volcano wrote them (PodScheduled=False)", ["pod", "reason", "message"],
                [[p["pod"], p["reason"] or "", p["message"] or ""] for p in data["pods"]])
    if data["history"]:
        o.table("What happened to it", ["cycle", "event", "detail"], [[str(h["cycle"]), h["event"], h["detail"]] for h in data["history"]])
    else:
        o.lines(["nothing happened to it in any cycle"])
    return o.render()


def _side(p: dict | None) -> str:
    if p is None:
        return "-"
    if p["state"] == "Running":
        return f"Running on {p['node']}" + (f" (bound in cycle {p['boundInCycle']})" if p["boundInCycle"] else " (from the start)")
    if p["state"] == "Evicted":
        return f"Evicted from {p['node']} in cycle {p['evictedInCycle']}"
    if p["state"] == "Deleted":
        return "Deleted (being deleted at the start)"
    if p["state"] != "Pending":
        return f"{p['state']} (as written)"
    return "Pending" + (f": {p['pendingMessage']}" if p.get("pendingMessage") else "")


@for_terminal
def diff_text(d: dict, old: str, new: str, fmt: str, width: int | None = None) -> str:
    """d: prio.volcano.diff.compare."""
    if fmt == "json":
        return json.dumps(d, indent=2) + "\n"
    o = Sections(fmt, width)
    s = d["summary"]
    o.title(f"{LABEL}: {s['podGroupsChanged']} of {s['podGroups']} PodGroups and {s['podsChanged']} of {s['pods']} pods end "
            f"differently (OLD {old}, NEW {new})")
    lines = [f"cycles: OLD {d['cycles']['old']}, NEW {d['cycles']['new']}",
             f"pods newly running {s['newlyRunning']}, newly pending {s['newlyPending']}, newly evicted {s['newlyEvicted']}"]
    if d["config"]["changed"]:
        for side in ("old", "new"):
            c = d["config"][side]
            lines.append(f"{side.upper()} config: " + ("refused by Volcano, the default runs; " if not c["valid"] else "")
                         + "actions " + ", ".join(c["actions"]) + "; " + " | ".join(", ".join(t) for t in c["tiers"]))
    else:
        lines.append("the config in force is the same on both sides")
    o.lines(lines, "Summary")
    if d["podGroups"]:
        o.table("PodGroups that end differently", ["PodGroup", "changes", "OLD", "NEW"],
                [[g["podGroup"], ", ".join(g["changes"]),
                  *[("-" if x is None else f"{x['phase']}: {x['running']} running, {x['pending']} pending, {x['evicted']} evicted")
                    for x in (g["old"], g["new"])]] for g in d["podGroups"]])
    if d["pods"]:
        o.table("Pods that end differently", ["pod", "changes", "OLD", "NEW"],
                [[p["pod"], ", ".join(p["changes"]), _side(p["old"]), _side(p["new"])] for p in d["pods"]])
    if not d["podGroups"] and not d["pods"]:
        o.lines(["every PodGroup and pod ends the same"])
    f = d["findings"]
    if f["added"] or f["removed"]:
        o.lines([f"+ {x['rule']} {x['message']}" for x in f["added"]] + [f"- {x['rule']} {x['message']}" for x in f["removed"]],
                "validate findings (+ NEW has, - OLD had)")
    return o.render()


_STOPS = {"quiet": "a cycle changed nothing", "cycleLimit": "the cycle limit (100)"}
