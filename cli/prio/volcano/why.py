"""`prio explain --why-job NS/NAME` on Volcano objects: why one job (its PodGroup) is pending, or
where it runs. The replay runs to its end; then the checks of the last session are asked one by
one, each named by the action and the plugin that makes it (the session's enqueue, allocate,
preempt and reclaim gates), beside Volcano's own words (the PodGroup's conditions and each
pending pod's PodScheduled message) and what happened to the job cycle by cycle."""
from __future__ import annotations

from prio.volcano import session as vs
from prio.volcano.conf import Config
from prio.volcano.explain import resources_text
from prio.volcano.model import Cluster, res_add


def _res(r: dict | None) -> str:
    return resources_text(r, "nothing")


def why_job(cluster: Cluster, cfg: Config, key: str) -> dict | None:
    """The answer for PodGroup `key` (NAMESPACE/NAME), None when there is no such PodGroup."""
    if key not in cluster.groups:
        return None
    end = cluster.replica()
    run = vs.replay(end, cfg)
    g = end.groups[key]
    pods0 = sorted(p for p in cluster.pods if cluster.pods[p].group == key)
    history = []
    for rec in run.cycles:
        for pg, a, b in rec.phase_changes:
            if pg == key:
                history.append({"cycle": rec.cycle, "event": "phase", "detail": f"{a} -> {b}"})
        for pod, node, pg, tie in rec.binds:
            if pg == key:
                history.append({"cycle": rec.cycle, "event": "bind", "detail": f"{pod} on {node}" + (" (tie: lowest node name)" if tie else "")})
        for pod, pg, node, action, pre in rec.evictions:
            if pg == key:
                history.append({"cycle": rec.cycle, "event": action, "detail": f"{pod} evicted from {node}" + (f" for {pre}" if pre else "")})
            elif pre in pods0:
                history.append({"cycle": rec.cycle, "event": action, "detail": f"{pod} of {pg} evicted from {node} for {pre}"})
        for pod, node in rec.pipelined:
            if pod in pods0:
                history.append({"cycle": rec.cycle, "event": "pipelined", "detail": f"{pod} onto {node}, bound once its victims are gone"})
    running = [p for p in pods0 if p in end.pods and vs.pod_state(end.pods[p]) == "Running"]
    pending = [p for p in pods0 if p in end.pods and vs.pod_state(end.pods[p]) == "Pending"]
    evicted = [p for p in pods0 if p not in end.pods and p not in run.deleted_node]  # (not the ones being deleted at the start)
    out = {"model": "volcano", "podGroup": key, "queue": g.queue, "phase": g.phase, "minMember": g.min_member,
           "inSession": key in run.in_session, "running": running, "pending": pending, "evicted": evicted,
           "conditions": [{"type": t, "status": s, "reason": r, "message": m} for t, (s, r, m) in g.conditions.items()],
           "pods": [{"pod": p, "reason": end.pods[p].reason, "message": end.pods[p].message} for p in pending],
           "history": history, "checks": _checks(end, cfg, key), "cyclesRun": run.cycles_run}
    out["verdict"] = _verdict(out)
    return out


def _check(action: str, plugin: str, passed: bool, reason: str) -> dict:
    return {"action": action, "plugin": plugin, "passed": passed, "reason": reason}


def _checks(end: Cluster, cfg: Config, key: str) -> list:
    """The gates of one more session over the end state, in the order a session asks them."""
    g = end.groups[key]
    if g.queue not in end.queues:
        return [_check("session", "cache", False, f"queue {g.queue} does not exist: Volcano leaves the PodGroup out of every "
                                                  "session (no condition is written)")]
    ssn = vs.Session(end, cfg)
    j = ssn.jobs[key]
    q = ssn.queues[j.queue]
    out = []
    if not j.tasks:
        return [_check("session", "cache", False, "the PodGroup has no pods")]
    if g.phase == "Pending":
        if "enqueue" not in cfg.actions:
            out.append(_check("allocate", "-", True, "no enqueue action: allocate takes Pending jobs as Inqueue"))
        else:
            out.extend(_enqueue_checks(ssn, j))
    if "gang" in ssn.names:
        valid = j.count(vs.ALLOCATED + ("Succeeded", "Pipelined", "Pending"))
        out.append(_check("allocate", "gang", valid >= j.min_available,
                          f"{valid} of its pods can run or are running, minMember {j.min_available}"
                          + ("" if valid >= j.min_available else ": the job is not valid and no action takes it")))
    pend = [t for t in j.tasks.values() if t.status == "Pending"]
    if pend:
        over = ssn.overused(j.queue)
        if "proportion" in ssn.names:
            attr = ssn.qattr.get(j.queue) or {}
            out.append(_check("allocate", "proportion", not over,
                              f"queue {j.queue} {'is overused' if over else 'is not overused'}: allocated "
                              f"{_res(attr.get('allocated'))}, deserved {_res(attr.get('deserved'))}"))
        t = min(pend, key=lambda x: (x.created, x.uid))
        ok = ssn.allocatable(j.queue, [t.req])
        plugin = "capacity" if "capacity" in ssn.names else "proportion" if "proportion" in ssn.names else "-"
        if q.state != "Open":
            why = f"queue {j.queue} is {q.state}"
        elif plugin == "-":
            why = "no queue plugin bounds it"
        else:
            attr = ssn.qattr.get(j.queue) or {}
            bound = attr.get("deserved") if plugin == "proportion" else attr.get("real")
            why = (f"{t.key} asks {_res(t.req)}; queue {j.queue} has allocated {_res(attr.get('allocated'))} of "
                   f"{'its deserved' if plugin == 'proportion' else 'its capability'} {_res(bound)}")
        out.append(_check("allocate", plugin, ok, why))
        for t in sorted(pend, key=lambda x: (x.created, x.uid)):
            fits = [ns.name for ns in ssn.nodes.values() if ssn.predicate(t, ns)]
            if fits:
                out.append(_check("allocate", "predicates", True, f"{t.key} fits node{'s' if len(fits) > 1 else ''} {', '.join(fits)}"))
            else:
                errs = {ns.name: ssn.fit_reasons(t, ns) for ns in ssn.nodes.values()}
                out.append(_check("allocate", "predicates", False, f"{t.key}: {vs.fit_errors_text(errs)}"))
        if "preempt" in cfg.actions:
            out.append(_check("preempt", "priority", True, "preempt evicts only pods of lower-priority jobs in the same queue "
                                                           f"({j.queue}), and only for a job that is Inqueue or Running"))
        if "reclaim" in cfg.actions:
            ok = not over
            out.append(_check("reclaim", "proportion" if "proportion" in ssn.names else plugin, ok,
                              "reclaim takes from other queues' reclaimable pods above their deserved share"
                              + ("" if ok else f", but not for queue {j.queue}: it is overused")))
    return out


def _enqueue_checks(ssn, j) -> list:
    out = []
    mr = j.group.min_resources
    if mr is None:
        return [_check("enqueue", "-", True, "no minResources: enqueue admits it")]
    for tier in ssn._enabled("enableJobEnqueued"):
        for name in tier:
            if name == "overcommit":
                ok = ssn._overcommit_enqueueable(j)
                out.append(_check("enqueue", "overcommit", ok,
                                  f"minResources {_res(mr)} with what is already Inqueue ({_res(ssn.over_inqueue)}) "
                                  f"{'fit' if ok else 'do not fit'} the cluster's idle resources times the overcommit factor "
                                  f"({_res(ssn.over_idle)})"))
            elif name in ("proportion", "capacity"):
                ok = ssn._queue_enqueueable(j)
                q = ssn.queues[j.queue]
                attr = ssn.qattr.get(j.queue) or {}
                if q.state != "Open":
                    why = f"queue {j.queue} is {q.state}"
                elif getattr(ssn, "hierarchy", False) and not ssn.ready:
                    why = "a PodGroup sits on a queue with children: hierarchical capacity enqueues nothing"
                else:
                    need = res_add(res_add(mr, attr.get("allocated") or {}), attr.get("inqueue") or {})
                    why = (f"minResources {_res(mr)} plus the queue's allocated and Inqueue ({_res(need)}) "
                           f"{'fit' if ok else 'exceed'} its real capability {_res(attr.get('real'))}")
                out.append(_check("enqueue", name, ok, why))
    return out


def _verdict(d: dict) -> str:
    key, phase = d["podGroup"], d["phase"]
    if not d["inSession"]:
        return f"{key} is never scheduled: its queue {d['queue']} does not exist"
    failed = [c for c in d["checks"] if not c["passed"]]
    if not d["pending"]:
        where = f"{len(d['running'])} pod{'s' if len(d['running']) != 1 else ''} running" if d["running"] else "no pods left"
        return f"{key} is {phase}: {where}" + (f", {len(d['evicted'])} evicted" if d["evicted"] else "")
    first = failed[0] if failed else None
    because = f"; first gate that fails: {first['action']} ({first['plugin']}): {first['reason']}" if first else ""
    return (f"{key} is {phase} with {len(d['pending'])} pod{'s' if len(d['pending']) != 1 else ''} pending"
            f" after {d['cyclesRun']} cycles" + because)

