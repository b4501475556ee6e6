"""What a Kueue page shows beside the command's -o json document (kueue/view.js, Kueue's part of
the page's script, draws it): the cohort tree, each workload's ClusterQueue, the pending reasons' headlines and
`--why-workload` for every workload. Pure data: dicts and lists that json.dumps takes as they are."""
from __future__ import annotations

# --why-workload answers for every workload up to this many workloads (past it the page gives the
# command); each answer is a few lines, worked out from one evaluation of every pending workload.
WHY_WORKLOADS = 2000

# The page's title per command.
TITLES = {"explain": "Kueue cohorts and queues", "simulate": "Kueue admission cycles", "diff": "Kueue setup change"}


def context(setup, why_workloads: bool = False) -> dict:
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


def tree(setup) -> list:
    """The cohort tree before any cycle runs, as explain -o json writes it."""
    from prio.kueue.explain import tree as rows
    from prio.kueue.render import tree_json

    return tree_json(rows(setup))
