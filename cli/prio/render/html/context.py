"""What the HTML page shows beside the command's -o json document, from the same result objects:
the queue tree (explain's rows with each queue's resources and its `--why` text) and, for
preempt, each ask's checks and candidates as the plain format lists them; for Kueue inputs the
cohort tree, each workload's ClusterQueue, the pending reasons' headlines and `--why-workload`
(kueue_*). Pure data: dicts and lists that json.dumps takes as they are."""
from __future__ import annotations

from types import SimpleNamespace

from prio.yunikorn.explain import queue_rows, why
from prio.yunikorn.quantity import show_quantity

# --why-workload answers for every workload up to this many workloads (past it the page gives the
# command); each answer is a few lines, worked out from one evaluation of every pending workload.
WHY_WORKLOADS = 2000

# --why text for every queue up to this many queues; past it the page says which command gives it
# (10,000 queues of why text would add megabytes few people read).
WHY_QUEUES = 2000


def _resources(q) -> dict:
    """Per resource type: usage, guaranteed and max, raw (for the bars) and as people write them."""
    out: dict = {}
    for field, res in (("usage", q.allocated), ("guaranteed", q.guaranteed), ("max", q.max)):
        for k, v in (res or {}).items():
            if v is None:
                continue
            out.setdefault(k, {})[field] = v
            out[k][field + "Shown"] = show_quantity(k, v)
    return out


def queue_tree(eng, subtree: str | None = None) -> dict:
    """The queues as explain lists them (tree order), each with depth, leaf, notes, resources and,
    up to WHY_QUEUES queues, the lines of `prio explain --why`. Taken before a run schedules
    anything: the tree as the snapshot has it."""
    rows = queue_rows(eng, subtree)
    by_path = {q.path: q for q in eng.root.walk()}
    with_why = len(rows) <= WHY_QUEUES
    out = []
    for r in rows:
        q = by_path[r.queue]
        d = r.to_json()
        d.update(depth=r.depth, leaf=r.leaf)
        if r.dynamic:
            d["dynamic"] = True
        if r.notes:
            d["notes"] = r.notes
        res = _resources(q)
        if res:
            d["resources"] = res
        if with_why:
            # why() finds its queue from the root it is given: rooted at the queue itself, at once
            d["why"] = why(SimpleNamespace(root=q), q.path)
        out.append(d)
    return {"queues": out, **({} if with_why else {"whyNote": f"{len(rows)} queues: run prio explain --why QUEUE for one queue's derivation"})}


def reason_codes() -> dict:
    """Each reason code of `unscheduled` with its headline (prio.yunikorn.reasons)."""
    from prio.yunikorn.reasons import CODES

    return {code: words for code, (words, _) in CODES.items()}


def preempt_asks(asks) -> list:
    """Per ask (in the JSON's order): the headline, the lines the plain format prints above its
    table (checks, fence root, log), the checks as data, and every running task inside the fence
    root with its verdict, victims first in YuniKorn's order."""
    from prio.render.preempt import _details, _in_scope, _mark, _victim_rank, headline

    out = []
    for r in asks:
        rank = _victim_rank(r)
        cands = sorted((c for c in r.candidates if _in_scope(r, c)), key=lambda c: (rank.get(c.id, 1 << 30), c.queue, c.id))
        out.append({
            "ask": r.ask, "application": r.application, "queue": r.queue, "priority": r.priority, "outcome": r.outcome,
            "headline": headline(r), "details": _details(r), "fenceWhy": r.fence_why,
            "checks": [{"check": name, "passed": ok, "detail": detail} for name, ok, detail in r.preconditions],
            "candidates": [{"task": c.id, "application": c.application, "queue": c.queue, "node": c.node, "priority": c.priority,
                            "askPriorityThere": c.compared_with, "verdict": _mark(r, c, rank), "why": c.why} for c in cands],
            "outside": sum(1 for c in r.candidates if not _in_scope(r, c)),
        })
    return out


def kueue(setup, why_workloads: bool = False) -> dict:
    """The context of a Kueue page: the model's name (the page draws Kueue's views), the pending
    reasons' headlines, every ClusterQueue's cohort path, each workload's ClusterQueue (its
    LocalQueue's, null without one: -o json says where a workload was admitted, not where a
    pending one waits) and, with `why_workloads`, `--why-workload` for every workload."""
    from prio.kueue import explain as ex
    from prio.kueue.report import PENDING_REASONS
    from prio.kueue.tree import Tree

    out = {"model": "kueue", "fairSharing": setup.fair_sharing, "reasons": dict(PENDING_REASONS),
           "paths": {name: node.path() for name, node in Tree(setup).cqs.items()},
           "clusterQueueOf": {w.key: setup.cluster_queue_of(w) for w in setup.workloads}}
    if why_workloads:
        if len(setup.workloads) <= WHY_WORKLOADS:
            rows = ex.pending(setup)
            out["whyWorkload"] = {w.key: ex.why_workload(setup, w.key, rows) for w in setup.workloads}
        else:
            out["whyNote"] = f"{len(setup.workloads)} workloads: run prio explain --why-workload NS/NAME for one workload"
    return out


def kueue_tree(setup) -> list:
    """The cohort tree before any cycle runs, as explain -o json writes it."""
    from prio.kueue.explain import tree
    from prio.render.kueue import tree_json

    return tree_json(tree(setup))
