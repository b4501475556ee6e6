"""What preemption.analyse returns, per pending ask, and the messages YuniKorn itself logs
when it does not preempt (pkg/common/errors.go, objects/application.go)."""
from __future__ import annotations

from dataclasses import dataclass, field

NOT_ENOUGH_QUEUE_QUOTA = "Not enough queue quota"
NOT_ENOUGH_USER_QUOTA = "Not enough user quota"  # objects.NotEnoughUserQuota: no preemption is tried
USER_CANNOT_RUN = "Application cannot run: the user's or group's maxapplications reached"
DOES_NOT_HELP = "Preemption does not help"
GUARANTEE_FAILED = "Preemption queue guarantees check failed"
SHORTFALL = "Preemption helped but short of resources"
PRECONDITIONS_FAILED = "Preemption preconditions failed"
NOT_ATTEMPTED_NEVER = "not attempted: preemptionPolicy Never"
NOT_ATTEMPTED_PARTITION = "not attempted: preemption disabled in partition"


@dataclass
class Candidate:
    """A running task and why the victim search does or does not take it."""

    id: str
    application: str
    queue: str
    node: str
    priority: int
    eligible: bool
    why: str
    compared_with: int | None = None  # the ask's priority as seen from the task's queue


@dataclass
class AskResult:
    ask: str
    application: str
    queue: str
    priority: int
    outcome: str = "not placed"  # allocated | preempted | not placed
    node: str | None = None
    victims: list = field(default_factory=list)
    reason: str = ""
    fence_root: str = ""
    fence_why: str = ""
    eligible: list = field(default_factory=list)  # candidate ids, sorted
    priority_by_queue: list = field(default_factory=list)  # (queue, priority), fence root first
    log: list = field(default_factory=list)
    candidates: list = field(default_factory=list)  # Candidate, every running task
    preconditions: list = field(default_factory=list)  # (check, passed, detail)
    fits_now: bool = False  # fits (queue headroom and a node) as things stand


@dataclass
class Result:
    asks: list  # AskResult, in snapshot order
    nodes: list  # node names
    notes: list = field(default_factory=list)

