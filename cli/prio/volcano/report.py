"""The replay as data: the fields of the shared corpus's recordings (`NAME.volcano.json`), which
`prio simulate -o json` prints and schemas/volcano-simulate.schema.json describes."""
from __future__ import annotations

from prio.volcano import session
from prio.volcano.conf import Config


def config_data(cfg: Config) -> dict:
    return {"source": cfg.source, "valid": cfg.valid, "error": cfg.error, "actions": list(cfg.actions),
            "tiers": [[dict(sorted(({**p.flags, "name": p.name, **({"arguments": p.arguments} if p.arguments else {})}).items()))
                       for p in tier] for tier in cfg.tiers],
            "configurations": list(cfg.configurations)}


def simulate(cluster, cfg: Config) -> dict:
    """Replay `cluster` (left unchanged) under `cfg`; the end state and the eventful cycles."""
    start = cluster  # the replay changes `end` alone
    end = cluster.replica()
    run = session.replay(end, cfg)
    cycles = [{"cycle": r.cycle,
               "phaseChanges": [{"podGroup": g, "from": a, "to": b} for g, a, b in r.phase_changes],
               "binds": [{"pod": p, "node": n, "podGroup": g, **({"tie": True} if tie else {})} for p, n, g, tie in r.binds],
               "evictions": [{"pod": p, "podGroup": g, "node": n, "action": a, "preemptor": pre} for p, g, n, a, pre in r.evictions],
               "pipelined": [{"pod": p, "node": n} for p, n in r.pipelined]} for r in run.cycles]
    groups = []
    by_group: dict = {}
    for p in start.pods.values():
        by_group.setdefault(p.group, []).append(p)
    state_of = {k: session.pod_state(end.pods.get(k), k in run.deleted_node) for k in start.pods}  # each pod's end state, once
    for key in sorted(start.groups):
        g = end.groups[key]
        prio, pc = start.group_priority(start.groups[key])
        pods = by_group.get(key, [])
        states = [state_of[p.key] for p in pods]
        running, evicted = states.count("Running"), states.count("Evicted")
        groups.append({"podGroup": key, "queue": g.queue, "priority": prio, "priorityClass": pc, "minMember": g.min_member,
                       "phase": g.phase, "inSession": key in run.in_session,
                       "conditions": [{"type": t, "status": s, "reason": r, "message": m} for t, (s, r, m) in g.conditions.items()],
                       "running": running, "pending": states.count("Pending"), "evicted": evicted})
    pods_out = []
    for key in sorted(start.pods):
        p0 = start.pods[key]
        p = end.pods.get(key)
        state = state_of[key]
        node = (run.deleted_node.get(key) or run.evicted_node.get(key)) if p is None else (p.node if state != "Pending" else None)
        pods_out.append({"pod": key, "podGroup": p0.group, "priority": p0.priority, "state": state, "node": node,
                         "boundInCycle": (run.bound_in.get(key, 0) if state == "Running" else None),
                         "evictedInCycle": run.evicted_in.get(key),
                         "pendingReason": p.reason if state == "Pending" else None,
                         "pendingMessage": p.message if state == "Pending" else None,
                         "nominatedNode": p.nominated if p is not None and state == "Pending" else None})
    return {"model": "volcano", "config": config_data(cfg), "addedObjects": list(cluster.added),
            "cyclesRun": run.cycles_run, "stopReason": run.stop, "cycles": cycles, "podGroups": groups, "pods": pods_out}
