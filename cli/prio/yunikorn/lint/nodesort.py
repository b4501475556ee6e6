"""The partition's node sorting policy (checkNodeSortingPolicy)."""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.lint.registry import check


@check("PRIO134", "nodesort-policy-type", "error", "nodesort")
def nodesort_policy_type(ctx):
    """A node sorting policy type other than fair or binpacking (case-sensitive).

    Example (fails): `nodesortpolicy: {type: BinPacking}`
    Fix: `nodesortpolicy: {type: binpacking}`
    """
    for p in ctx.config.partitions:
        t = p.nodesort_type
        if t is not None and t not in ("", "fair", "binpacking"):
            hint = f" (values are case-sensitive: did you mean {t.lower()!r}?)" if t.lower() in ("fair", "binpacking") else ""
            yield Issue("PRIO134", p.path + ("nodesortpolicy", "type"), f"undefined policy: {t}{hint}")


@check("PRIO135", "nodesort-negative-weight", "error", "nodesort")
def nodesort_negative_weight(ctx):
    """A negative resource weight in the node sorting policy.

    Example (fails): `resourceweights: {vcore: -1}`
    Fix: weights are 0 or more.
    """
    for p in ctx.config.partitions:
        for k, v in p.resourceweights.items():
            if v < 0:
                yield Issue("PRIO135", p.path + ("nodesortpolicy", "resourceweights", k), f"negative resource weight for {k} is not allowed")
