"""`prio explain` for Kueue: the cohort tree with each ClusterQueue's quotas, limits, usage,
borrowing, lending and fair share, and the pending workloads in the order Kueue will consider
them, each evaluated against the current quota as Kueue's next cycle would (`nominate`): fits,
would preempt, or waits, with Kueue's reason and message."""
from __future__ import annotations

from prio.kueue import quantity
from prio.kueue import tree as t
from prio.kueue.assign import FIT, NO_FIT, PREEMPT
from prio.kueue.model import Setup
from prio.kueue.reference import (
    DEACTIVATED,
    DEACTIVATED_MESSAGE,
    SUSPENDED,
    WAITING_FOR_QUOTA,
    Entry,
    ReferenceRun,
    Snapshot,
    creation_blocker,
    selector_matches,
)
from prio.kueue.report import rfc3339


def _amount(res: str, v) -> str | None:
    return None if v is None else quantity.text(res, v)


def tree_rows(setup: Setup, snap: Snapshot) -> list:
    """Every cohort and ClusterQueue, depth first, with its quota per flavor and resource."""
    rows = []

    def visit(node, depth):
        cq = setup.cluster_queues.get(node.name) if node.is_cq else None
        drs = t.dominant_resource_share(node)
        row = {"kind": "ClusterQueue" if node.is_cq else "Cohort", "name": node.name, "path": node.path(),
               "depth": depth, "weight": node.weight, "share": None if node.parent is None else drs.weighted(),
               "resources": []}
        if cq is not None:
            row.update({"queueingStrategy": cq.queueing_strategy, "namespaceSelector": cq.namespace_selector,
                        "preemption": {"withinClusterQueue": cq.preemption.within_cluster_queue,
                                       "reclaimWithinCohort": cq.preemption.reclaim_within_cohort,
                                       "borrowWithinCohort": cq.preemption.borrow_within_cohort}})
        for fr in sorted(set(node.quotas) | set(node.usage)):
            q = node.quotas.get(fr)
            res = fr[1]
            usage = node.usage.get(fr, 0)
            nominal = q.nominal if q else 0
            lendable = nominal if q is None or q.lending_limit is None else min(nominal, q.lending_limit)
            row["resources"].append({
                "flavor": fr[0], "resource": res, "nominalQuota": _amount(res, nominal),
                "borrowingLimit": _amount(res, q.borrowing_limit if q else None),
                "lendingLimit": _amount(res, q.lending_limit if q else None),
                "usage": _amount(res, usage), "borrowed": _amount(res, max(0, usage - node.subtree.get(fr, 0))),
                "lendable": _amount(res, lendable) if node.parent is not None else None,
                "available": _amount(res, t.cq_available(node, fr)) if node.is_cq else None})
        rows.append(row)
        for c in node.child_cohorts:
            visit(c, depth + 1)
        for c in node.child_cqs:
            visit(c, depth + 1)

    roots = sorted([n for n in list(snap.tree.cohorts.values()) + list(snap.tree.cqs.values()) if n.parent is None],
                   key=lambda n: (n.is_cq, n.name))
    for r in roots:
        visit(r, 0)
    return rows


def pending(setup: Setup) -> list:
    """The pending workloads per ClusterQueue in Kueue's queue order, each evaluated alone
    against the current quota."""
    run = ReferenceRun(setup)
    snap = Snapshot(run)
    out = []
    for name, q in run.queues.items():
        members = sorted(list(q.active.values()) + list(q.inadmissible.values()), key=q.order_key)
        for pos, s in enumerate(members, 1):
            out.append(dict(_evaluate(run, snap, name, s), position=pos))
    queued = {k for q in run.queues.values() for k in list(q.active) + list(q.inadmissible)}
    for s in sorted(run.states.values(), key=lambda s: s.key):
        if s.admission is None and s.key not in queued:
            # what Kueue's workload controller wrote when the Workload was created
            if not s.wl.active:
                reason, why = s.pending_reason, s.pending_message
            else:
                # an active Workload the queue manager does not hold: ReferenceRun queued every
                # one creation_blocker says nothing of (or holds as queued), so it said something
                blocked = creation_blocker(setup, s.wl)
                assert blocked is not None
                reason, why = blocked[:2]
            out.append({"workload": s.key, "clusterQueue": s.cq, "position": None, "priority": s.wl.priority,
                        "outcome": "never queued", "reason": reason, "message": why, "victims": []})
    return out


def _evaluate(run: ReferenceRun, snap: Snapshot, cq: str, s) -> dict:
    base = {"workload": s.key, "clusterQueue": cq, "priority": s.wl.priority, "victims": []}
    cqs = run.setup.cluster_queues[cq]
    if not all(f in run.setup.flavors for f in cqs.flavor_names()):
        missing = [f for f in cqs.flavor_names() if f not in run.setup.flavors]
        return dict(base, outcome="never tried", reason=SUSPENDED,
                    message=f"ClusterQueue {cq} is inactive: flavor {', '.join(missing)} not found")
    if cqs.admission_checks:
        return dict(base, outcome="never tried", reason=SUSPENDED,
                    message=f"ClusterQueue {cq} is inactive: admission check {', '.join(cqs.admission_checks)} not found")
    if cqs.stop_policy != "None":
        return dict(base, outcome="never tried", reason=SUSPENDED,
                    message=f"ClusterQueue {cq} is inactive (stopPolicy {cqs.stop_policy})")
    if not selector_matches(cqs.namespace_selector, run.setup.namespaces.get(s.wl.namespace, {})):
        return dict(base, outcome="waits", reason="Misconfigured",
                    message="workload namespace doesn't match ClusterQueue selector")
    e = Entry(s, cq)
    a, targets = run.get_assignments(snap, e)
    mode = a.mode()
    if mode == FIT:
        flavors = "; ".join(f"{r} in {f.flavor}" for ps in a.pod_sets for r, f in sorted(ps.flavors.items()))
        placed = [f"{'/'.join(v)} x{n}" for ps in a.pod_sets if ps.topology for v, n in ps.topology[1]]
        if placed:  # a TAS flavor: the domains Kueue's next cycle would give it
            flavors += " on " + ", ".join(placed)
        return dict(base, outcome="fits", reason=None,
                    message=f"fits ({flavors}{', borrowing' if a.borrowing else ''})")
    if mode == PREEMPT and targets:
        return dict(base, outcome="would preempt", reason="WaitingForPreemptedWorkloads", message=a.message(),
                    victims=[{"workload": tg.adm.key, "clusterQueue": tg.cq, "reason": tg.reason} for tg in targets])
    if mode == NO_FIT:
        return dict(base, outcome="waits", reason=a.no_fit_reason, message=a.message())
    return dict(base, outcome="waits", reason=WAITING_FOR_QUOTA, message=a.message())


def tree(setup: Setup) -> list:
    """The cohort tree's rows (tree_rows) as the inputs have it, before any cycle runs."""
    return tree_rows(setup, Snapshot(ReferenceRun(setup)))


def explain(setup: Setup) -> dict:
    return {"model": "kueue", "fairSharing": setup.fair_sharing, "tree": tree(setup), "pending": pending(setup)}


def why_workload(setup: Setup, key: str, rows: list | None = None) -> list | None:
    """--why-workload NS/NAME in prose; None when no such workload. `rows`: `pending(setup)`, when
    the caller has it already (the HTML report asks for every workload)."""
    wl = next((w for w in setup.workloads if w.key == key), None)
    if wl is None:
        return None
    if rows is None:
        rows = pending(setup)
    lines = []
    src = (f"spec.priority {wl.priority}" if wl.priority_class is None and wl.priority else
           f"{wl.priority_class_kind} {wl.priority_class} = {wl.priority}" if wl.priority_class else "no priority class: 0")
    lines.append(f"{key}: priority {wl.priority} ({src}), created {rfc3339(wl.created)}, LocalQueue {wl.queue_name or '(none)'}")
    cq = setup.cluster_queue_of(wl)
    if wl.admission is not None and wl.active:
        lines.append(f"It is running in ClusterQueue {wl.admission.cluster_queue}: it holds its quota, and only "
                     "preemption can take it back.")
        return lines
    if not wl.active:
        lines.append(f"Kueue never queues it: {DEACTIVATED}: {DEACTIVATED_MESSAGE} (spec.active is false).")
        return lines
    if cq is None:
        lines.append(f"No LocalQueue {wl.namespace}/{wl.queue_name} exists: Kueue never queues it.")
        return lines
    row = next((p for p in rows if p["workload"] == key), None)
    if row is None or row["outcome"] == "never queued":
        why = row["message"] if row else f"ClusterQueue {cq} doesn't exist"
        lines.append(f"Kueue never queues it: {row['reason'] + ': ' if row and row['reason'] else ''}{why}.")
        return lines
    ahead = [p["workload"] for p in rows if p["clusterQueue"] == cq and p["position"] and p["position"] < row["position"]]
    strategy = setup.cluster_queues[cq].queueing_strategy
    lines.append(f"In ClusterQueue {cq} ({strategy}) it is number {row['position']} in Kueue's order "
                 "(higher priority first, then older creationTimestamp, then UID)"
                 + (f"; ahead of it: {', '.join(ahead)}." if ahead else "; nothing is ahead of it."))
    if strategy == "StrictFIFO" and ahead:
        lines.append("Under StrictFIFO it is not tried while the head before it waits.")
    if row["outcome"] == "fits":
        lines.append(f"Evaluated now it {row['message']}.")
    elif row["outcome"] == "would preempt":
        v = ", ".join(f"{x['workload']} ({x['reason']})" for x in row["victims"])
        lines.append(f"Evaluated now it does not fit ({row['message']}); Kueue would preempt {v}, and admit it in a "
                     "later cycle once they release their quota.")
    else:
        lines.append(f"Evaluated now it waits: {row['reason'] or ''}{': ' if row['reason'] else ''}{row['message']}")
    return lines
