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


def map_order(run: Run, by_application: bool = False) -> tuple:
    """What breaks a tie of YuniKorn's keys, Go's map order in YuniKorn: queue path, application
    and snapshot order (the preemption corpus), or application id and allocation key (the
    scheduling corpus with preemption in the loop)."""
    return (run.app, run.alloc.id) if by_application else (run.leaf.path, run.app, run.order)


def victim_key(run: Run) -> tuple:
    """sortVictimsForPreemption / compareAllocationLess: opted-in first, non-originators first,
    newest first (priority plays no part)."""
    ct = run.alloc.create_time
    return (not run.alloc.allow_preemption, run.alloc.originator, (-ct[0], -ct[1]))


def victim_order_key(run: Run, by_application: bool = False):
    return victim_key(run) + map_order(run, by_application)


def additional_key(run: Run) -> tuple:
    """The order calculateAdditionalVictims tries the tasks on other nodes in: by score, then
    newest first."""
    ct = run.alloc.create_time
    return (score(run), (-ct[0], -ct[1]))


def additional_order_key(run: Run, by_application: bool = False):
    return additional_key(run) + map_order(run, by_application)
