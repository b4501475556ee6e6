"""Why an ask is still pending: a stable reason code and words for every ask prio does not place,
like Slurm's pending reasons (pure: no I/O).

The engine records a sentence for every ask it sets aside (`Engine.leftovers()`), and the
placement step (where present) the applications it rejects (`Engine.rejected`). This module
turns them into codes without changing the engine: the sentence says which limit held the ask
back, and where the sentence does not say it, the engine's state does.

The words are YuniKorn's own where it has a string for the case:

- ``QueueQuota``: "Not enough queue quota", the allocation log entry YuniKorn writes when an ask
  does not fit the headroom of its queue path (objects.NotEnoughQueueQuota); prio names the queue
  whose max is short and the resource.
- ``UserQuota``: "Not enough user quota" (objects.NotEnoughUserQuota). prio does not model user
  and group limits, so it never gives this code; it is in the catalogue so the codes stay stable.
- ``MaxApplications``: YuniKorn keeps the application Accepted and sends the event
  APP_CANNOTRUN_QUEUE: the maxapplications of a queue on its path is reached.
- ``RejectedByPlacement``: no placement rule places the application; the words are the
  placement error YuniKorn logs ("failed to place application ...").

and prio's own for what its model adds:

- ``NoCapacity``: the cluster capacity (root's max, the snapshot's ``capacity``) is used up: in
  YuniKorn the ask would wait for a node; prio has one pool and nothing is released.
- ``QueueStopped``: a queue on the path is Stopped (REST dumps).
- ``NotReached``: the simulation stopped before the ask (``--steps``).
- ``Unknown``: a sentence this module does not know (a newer engine): the sentence is kept.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# code -> (words, where the words come from)
CODES = {
    "QueueQuota": ("Not enough queue quota", "YuniKorn's allocation log (NotEnoughQueueQuota)"),
    "UserQuota": ("Not enough user quota", "YuniKorn's allocation log (NotEnoughUserQuota); prio does not model user limits"),
    "MaxApplications": ("Application cannot run in queue: maxapplications reached", "YuniKorn's event APP_CANNOTRUN_QUEUE"),
    "RejectedByPlacement": ("Rejected by placement", "YuniKorn's placement manager (failed to place application)"),
    "NoCapacity": ("No capacity left", "prio: the cluster capacity is used up (one pool, nothing released)"),
    "QueueStopped": ("Queue is stopped", "prio: a Stopped queue is never scheduled"),
    "NotReached": ("Not reached", "prio: the simulation stopped before it (--steps)"),
    "Unknown": ("Not placed", "prio: a reason this version does not classify"),
}


@dataclass(frozen=True)
class Reason:
    code: str  # a key of CODES
    words: str  # one line: YuniKorn's string where it has one, with the queue/resource that is short
    detail: str  # the engine's sentence (what simulate's `reason` says)
    queue: str | None = None  # the queue that holds it back (None: the cluster, or unknown)
    resource: str | None = None  # the resource that is short (quota and capacity)


@dataclass(frozen=True)
class PendingAsk:
    """An ask prio does not place, with why."""

    ask: str
    application: str
    queue: str
    priority: int
    reason: Reason


_MAXAPPS = re.compile(r"^maxapplications (\d+) of (\S+) reached \((\d+) running\)")
_FIT = re.compile(r"^does not fit (?:the cluster capacity|max of (\S+)): needs (\S+) (\S+), (\S+) of (\S+) left")
_STOPPED = re.compile(r"^queue (\S+) is Stopped")


def classify(detail: str) -> Reason:
    """The code of one of the engine's sentences."""
    m = _MAXAPPS.match(detail)
    if m:
        limit, queue, running = m.groups()
        return Reason("MaxApplications", f"{CODES['MaxApplications'][0]} on {queue} ({running} of {limit} running)",
                      detail, queue)
    m = _FIT.match(detail)
    if m:
        queue, res, need, left, total = m.groups()
        if queue is None:
            return Reason("NoCapacity", f"{CODES['NoCapacity'][0]}: the cluster has {left} of {total} {res} free, the ask needs {need}",
                          detail, None, res)
        return Reason("QueueQuota", f"{CODES['QueueQuota'][0]}: {queue} is short of {res} (needs {need}, {left} of max {total} left)",
                      detail, queue, res)
    m = _STOPPED.match(detail)
    if m:
        return Reason("QueueStopped", f"{CODES['QueueStopped'][0]}: {m.group(1)}", detail, m.group(1))
    return Reason("Unknown", detail, detail)


def rejected(detail: str, queue: str) -> Reason:
    """An application no placement rule places (its first line is YuniKorn's error)."""
    first = detail.splitlines()[0] if detail else "no placement rule places it"
    return Reason("RejectedByPlacement", f"{CODES['RejectedByPlacement'][0]}: {first}", detail, queue)


NOT_REACHED = Reason("NotReached", CODES["NotReached"][0] + ": the simulation stopped before it", "the simulation ended before it")


def pending(eng) -> list[PendingAsk]:
    """Every ask a (finished) run of `eng` did not place: set aside by the engine, in a rejected
    application, or not reached when the run was cut short. Order: the engine's leftovers, then
    the rejected applications' asks, then the rest in snapshot order."""
    out: list[PendingAsk] = []
    seen = set()
    for u in eng.leftovers():
        out.append(PendingAsk(u.ask, u.application, u.queue, u.priority, classify(u.reason)))
        seen.add((u.application, u.ask))
    rejected_list = getattr(eng, "rejected", None) or ()
    apps = {a.id: a for a in eng.snapshot.apps} if rejected_list else {}
    for r in rejected_list:
        why = rejected(r.reason, r.queue)
        app = apps.get(r.application)
        for a in app.asks if app is not None else ():
            out.append(PendingAsk(a.id, r.application, r.queue, a.priority, why))
            seen.add((r.application, a.id))
    for st in eng.apps:
        for i, a in enumerate(st.asks):
            if not st.alloc[i] and (st.app.id, a.id) not in seen:
                out.append(PendingAsk(a.id, st.app.id, st.leaf.path, a.priority, NOT_REACHED))
    return out


def rejected_apps(eng) -> list[tuple[str, str, Reason]]:
    """(application, queue, reason) of the applications placement rejects (none before the
    placement step exists in the engine)."""
    return [(r.application, r.queue, rejected(r.reason, r.queue)) for r in getattr(eng, "rejected", None) or ()]


@dataclass
class QueueGroup:
    queue: str
    count: int
    words: str  # the words of the first ask (asks of one queue and code usually share them)
    first: list  # the first few PendingAsk


@dataclass
class CodeGroup:
    code: str
    words: str  # the code's headline
    count: int
    queues: list  # QueueGroup, most asks first


def summary(asks: list[PendingAsk], first: int = 3) -> list[CodeGroup]:
    """Slurm-like: reason code -> how many asks, per queue, with the first few asks. Codes with
    the most asks first (ties: code), queues likewise (ties: queue path)."""
    by_code: dict[str, dict[str, list]] = {}
    for p in asks:
        by_code.setdefault(p.reason.code, {}).setdefault(p.queue, []).append(p)
    groups = []
    for code, queues in by_code.items():
        qs = [QueueGroup(q, len(items), items[0].reason.words, items[:first]) for q, items in queues.items()]
        qs.sort(key=lambda g: (-g.count, g.queue))
        groups.append(CodeGroup(code, CODES.get(code, CODES["Unknown"])[0], sum(g.count for g in qs), qs))
    groups.sort(key=lambda g: (-g.count, g.code))
    return groups
