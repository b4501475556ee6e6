"""The order YuniKorn tries victims in (sortVictimsForPreemption) and the score that ranks a
node's solution (preemption.go scoreAllocation and solution scores): lower is better."""
from __future__ import annotations

from prio.yunikorn.preemption.world import Run

SCORE_ORIGINATOR = 1 << 33
SCORE_NO_PREEMPT = 1 << 34
SCORE_UNFIT = 1 << 35
SCORE_FIT_MAX = 1 << 32


def score(run: Run) -> int:
    """scoreAllocation: originators and tasks that opted out of preemption score high."""
    s = 0
    if run.alloc.originator:
        s |= SCORE_ORIGINATOR
    if not run.alloc.allow_preemption:
        s |= SCORE_NO_PREEMPT
    return s


def victim_order_key(run: Run):
    """sortVictimsForPreemption / compareAllocationLess: opted-in first, non-originators first,
    newest first (priority plays no part)."""
    ct = run.alloc.create_time
    return (not run.alloc.allow_preemption, run.alloc.originator, (-ct[0], -ct[1]), run.leaf.path, run.app, run.order)


def additional_order_key(run: Run):
    """The order calculateAdditionalVictims tries the tasks on other nodes in: by score, then
    newest first."""
    ct = run.alloc.create_time
    return (score(run), (-ct[0], -ct[1]), run.leaf.path, run.app, run.order)
