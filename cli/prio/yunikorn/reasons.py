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
- ``UserQuota``: "Not enough user quota" (objects.NotEnoughUserQuota): the ask does not fit the
  headroom a user limit (`limits:` with `users`) leaves on its path; prio names the user, the
  queue and the resource. ``GroupQuota``: the same for the limit of the group the application is
  tracked under (YuniKorn writes the same NotEnoughUserQuota for both: it checks their minimum).
- ``UserMaxApplications`` / ``GroupMaxApplications``: the user's (or group's) `maxapplications` on
  the path is reached: YuniKorn keeps the application Accepted (APP_CANNOTRUN_QUEUE's user/group
  counterpart).
- ``MaxApplications``: YuniKorn keeps the application Accepted and sends the event
  APP_CANNOTRUN_QUEUE: the maxapplications of a queue on its path is reached.
- ``RejectedByPlacement``: no placement rule places the application; the words are the
  placement error YuniKorn logs ("failed to place application ...").
- ``NoSubmitAccess``: the same, when no queue of the config has a submit or admin ACL, so no one
  may submit anywhere (the commonest newcomer's config: YuniKorn rejects every application).
- ``InvalidUser``: the core refuses the user name the resource manager sent (ConvertUGI: "invalid
  username, it contains invalid characters").

and prio's own for what its model adds:

- ``NodeTooSmall``: the ask is larger than every node (FitInNode fails everywhere): it can never
  be placed, and YuniKorn does not reserve a node for it.
- ``NoNodeRoom``: no node has room for it now (the free room is split over the nodes): prio names
  the resource and the node with the most of it free, and the reservation the ask holds.
- ``NodeReserved``: a node with room is reserved for another ask (a reserved node is closed to
  every other ask until its reservation is used).
- ``NodeUnschedulable``: the only nodes big enough for the ask, or the only ones with room for it
  now, are unschedulable (cordoned or draining: YuniKorn's tryNodes skips them).
- The node predicates the Kubernetes shim runs (kube.predicates), where every schedulable node
  big enough for the ask refuses it, in kube-scheduler's words, the code of the commonest
  refusal: ``NodeSelectorMismatch`` ("node(s) didn't match Pod's node affinity/selector"),
  ``TaintNotTolerated`` ("node(s) had untolerated taint {KEY: VALUE}"), ``NodeNameMismatch``,
  ``NodeNotEligible`` (a required `metadata.name` field names other nodes), ``AffinityConflict``
  (the required terms name no node at all), ``NodeUnschedulable`` (cordoned, not tolerated),
  ``RequiredNodeMismatch`` (not the DaemonSet pod's required node). The reason then carries
  every refusing node (`nodes`: node, plugin, Kubernetes' message) and the codes among them
  (`codes`); a reason of another code (no room on the nodes that admit the ask) carries them too.
- ``NoCapacity``: the cluster capacity (root's max, the snapshot's ``capacity``) is used up: in
  YuniKorn the ask would wait for a node; prio has one pool and nothing is released.
- ``GangIncomplete``: a real pod of a gang application the shim still holds back: not every
  task group has its minMember placeholders allocated (the shim's onReservationStateChange); prio
  names the first group short of them and why its next placeholder waits.
- ``GangFailed``: the gang's placeholder timer fired with style Hard while it reserved: the shim
  failed the application, its pods are never handed over (timeoutPlaceholderProcessing).
- ``PlaceholderCancelled``: a placeholder the timer removed before it was ever allocated.
- ``GangRejected``: a gang application YuniKorn refuses at submission (its leaf sorts `fair`, or
  its whole task group request is over a queue's max: PartitionContext.AddApplication).
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
    "UserQuota": ("Not enough user quota", "YuniKorn's allocation log (NotEnoughUserQuota)"),
    "GroupQuota": ("Not enough group quota", "YuniKorn's allocation log (NotEnoughUserQuota: the user's and group's headroom together)"),
    "UserMaxApplications": ("Application cannot run: the user's maxapplications reached", "YuniKorn's user/group manager (CanRunApp)"),
    "GroupMaxApplications": ("Application cannot run: the group's maxapplications reached", "YuniKorn's user/group manager (CanRunApp)"),
    "NodeTooSmall": ("Larger than every node", "prio: FitInNode fails on every node (YuniKorn never reserves one for it)"),
    "NoNodeRoom": ("No node has room", "prio: no node's free room fits it (tryNodes found none)"),
    "NodeReserved": ("Node reserved for another ask", "prio: the node with room holds another ask's reservation"),
    "NodeUnschedulable": ("Only unschedulable nodes fit", "prio: the nodes big enough (or with room) are cordoned or draining (tryNodes skips them)"),
    "MaxApplications": ("Application cannot run in queue: maxapplications reached", "YuniKorn's event APP_CANNOTRUN_QUEUE"),
    "RejectedByPlacement": ("Rejected by placement", "YuniKorn's placement manager (failed to place application)"),
    "NoSubmitAccess": ("Rejected: no queue of the config admits anyone (no submitacl or adminacl)",
                       "YuniKorn's placement manager: Queue.CheckSubmitAccess fails on every queue"),
    "InvalidUser": ("Rejected: the user name is invalid", "YuniKorn's user conversion (ConvertUGI)"),
    "NodeSelectorMismatch": ("node(s) didn't match Pod's node affinity/selector", "the shim's NodeAffinity predicate (kube-scheduler's Filter)"),
    "TaintNotTolerated": ("node(s) had untolerated taint", "the shim's TaintToleration predicate"),
    "NodeNameMismatch": ("node(s) didn't match the requested node name", "the shim's NodeName predicate"),
    "NodeNotEligible": ("node not eligible", "the shim's NodeAffinity PreFilter (a required metadata.name field)"),
    "AffinityConflict": ("pod affinity terms conflict", "the shim's NodeAffinity PreFilter (the terms name no node)"),
    "RequiredNodeMismatch": ("not the pod's required node", "YuniKorn's core: an ask with a required node goes there or nowhere"),
    "NoCapacity": ("No capacity left", "prio: the cluster capacity is used up (one pool, nothing released)"),
    "GangIncomplete": ("Gang waits for its placeholders", "the shim's onReservationStateChange: real pods go in once every task group has its placeholders"),
    "GangFailed": ("Gang failed: Hard placeholder timeout", "YuniKorn's timeoutPlaceholderProcessing (gangSchedulingStyle Hard)"),
    "PlaceholderCancelled": ("Placeholder cancelled by the placeholder timeout", "YuniKorn's timeoutPlaceholderProcessing"),
    "GangRejected": ("Gang rejected at submission", "YuniKorn's PartitionContext.AddApplication (task group checks)"),
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
    codes: tuple = ()  # the predicate codes among `nodes`, commonest first
    nodes: tuple = ()  # (node, plugin, Kubernetes' reason, code) of each node the predicates refuse it on


@dataclass(frozen=True)
class PendingAsk:
    """An ask prio does not place, with why."""

    ask: str
    application: str
    queue: str
    priority: int
    reason: Reason


class _Patterns:
    """The engine's sentences as patterns, each compiled when first used: only a run that leaves
    asks pending needs them, and compiling all ten cost every run 3-5 ms of its start."""

    SOURCES = dict(
        maxapps=r"^maxapplications (\d+) of (\S+) reached \((\d+) running\)",
        fit=r"^does not fit (?:the cluster capacity|max of (\S+)): needs (\S+) (\S+), (\S+) of (\S+) left",
        stopped=r"^queue (\S+) is Stopped",
        gang_waits=r"^gang (\S+) waits: (\d+) of (\d+) (\S+) placeholders allocated",
        gang_failed=r"^gang (\S+) failed \(Hard placeholder timeout\)",
        cancelled=r"^placeholder cancelled by the placeholder timeout of gang (\S+)",
        gang_refused=r"^queue (\S+) cannot (?:run|fit) application \S+(?::| with) task group request",
        ugm_quota=r"^(user|group) (\S+) quota in (\S+) exceeded: needs (\S+) (\S+), (\S+) of (\S+) left",
        ugm_apps=r"^(user|group) (\S+) maxapplications (\d+) of (\S+) reached \((\d+) running\)",
        too_big=r"^larger than every node(?:: needs (\S+) (\S+), the largest node has (\S+))?",
        no_room=r"^no node has room(?:: needs (\S+) (\S+), the most free on one node is (\S+) \((\S+)\))?",
        reserved=r"^node (\S+) has room but is reserved for (\S+) \(application (\S+)\)",
        unsched_big=r"^only unschedulable nodes are big enough \(([^)]*)\)(?:: needs (\S+) (\S+), the largest schedulable node has (\S+))?",
        unsched_room=r"^node (\S+) has room but is unschedulable; no schedulable node has room(?:: needs (\S+) (\S+), the most free on one node is (\S+) \((\S+)\))?",
    )

    def __getattr__(self, name: str):
        if name not in self.SOURCES:
            raise AttributeError(name)
        pattern = re.compile(self.SOURCES[name])
        setattr(self, name, pattern)  # found as an attribute from now on
        return pattern


_P = _Patterns()


def classify(detail: str) -> Reason:
    """The code of one of the engine's sentences; one naming the nodes the predicates refuse
    (reference.Refused) carries them."""
    refused = getattr(detail, "nodes", None)
    if refused:
        codes = predicate_codes(refused)
        lead = getattr(detail, "lead", "")
        if lead:  # the refusal that decides (a required node's) first
            codes = (lead,) + tuple(c for c in codes if c != lead)
        if detail.startswith("no node admits the pod"):
            words = detail.split(": ", 1)[1]
            return Reason(codes[0], words, detail, codes=codes, nodes=refused)
        r = _classify(detail)
        return Reason(r.code, r.words, r.detail, r.queue, r.resource, codes, refused)
    return _classify(detail)


def predicate_fields(r: Reason) -> dict:
    """What an unscheduled entry adds for the nodes the predicates refuse it on (nothing when
    there are none): `codes`, and `nodes` as [{node, plugin, reason}] (`kubectl describe`'s
    FailedScheduling, per node)."""
    if not r.nodes:
        return {}
    return {"codes": list(r.codes), "nodes": [{"node": n, "plugin": p, "reason": w} for n, p, w, _ in r.nodes]}


def predicate_codes(refused) -> tuple:
    """The codes of the refusals (node, plugin, reason, code), the commonest first (ties: the
    plugins' order). An ask's code is the first (reference.Refused's `lead` before them)."""
    counts: dict = {}
    for r in refused:
        counts[r[3]] = counts.get(r[3], 0) + 1
    from prio.kube import predicates  # (imported where a node refused an ask only)

    order = predicates.CODES  # the plugins' order
    return tuple(sorted(counts, key=lambda c: (-counts[c], order.index(c) if c in order else len(order))))


def _classify(detail: str) -> Reason:
    m = _P.maxapps.match(detail)
    if m:
        limit, queue, running = m.groups()
        return Reason("MaxApplications", f"{CODES['MaxApplications'][0]} on {queue} ({running} of {limit} running)",
                      detail, queue)
    m = _P.fit.match(detail)
    if m:
        queue, res, need, left, total = m.groups()
        if queue is None:
            return Reason("NoCapacity", f"{CODES['NoCapacity'][0]}: the cluster has {left} of {total} {res} free, the ask needs {need}",
                          detail, None, res)
        return Reason("QueueQuota", f"{CODES['QueueQuota'][0]}: {queue} is short of {res} (needs {need}, {left} of max {total} left)",
                      detail, queue, res)
    m = _P.ugm_quota.match(detail)
    if m:
        kind, who, queue, res, need, left, total = m.groups()
        code = "UserQuota" if kind == "user" else "GroupQuota"
        return Reason(code, f"{CODES[code][0]}: {kind} {who} is short of {res} in {queue} (needs {need}, {left} of {total} left)",
                      detail, queue, res)
    m = _P.ugm_apps.match(detail)
    if m:
        kind, who, limit, queue, running = m.groups()
        code = "UserMaxApplications" if kind == "user" else "GroupMaxApplications"
        return Reason(code, f"{CODES[code][0]}: {kind} {who} on {queue} ({running} of {limit} running)", detail, queue)
    m = _P.too_big.match(detail)
    if m:
        res, need, top = m.groups()
        more = f": needs {res} {need}, the largest node has {top}" if res else ""
        return Reason("NodeTooSmall", CODES["NodeTooSmall"][0] + more, detail, None, res)
    m = _P.no_room.match(detail)
    if m:
        res, need, top, node = m.groups()
        more = f": needs {res} {need}, at most {top} free on one node ({node})" if res else ""
        return Reason("NoNodeRoom", CODES["NoNodeRoom"][0] + more, detail, None, res)
    m = _P.reserved.match(detail)
    if m:
        node, ask, app = m.groups()
        return Reason("NodeReserved", f"{CODES['NodeReserved'][0]}: {node} waits for {ask} of {app}", detail)
    m = _P.unsched_big.match(detail)
    if m:
        names, res, need, top = m.groups()
        more = f"; needs {res} {need}, the largest schedulable node has {top}" if res else ""
        return Reason("NodeUnschedulable", f"{CODES['NodeUnschedulable'][0]}: {names} (cordoned or draining){more}", detail, None, res)
    m = _P.unsched_room.match(detail)
    if m:
        node, res, need, top, other = m.groups()
        more = f"; needs {res} {need}, at most {top} free on a schedulable node ({other})" if res else ""
        return Reason("NodeUnschedulable", f"{CODES['NodeUnschedulable'][0]}: {node} has room but is cordoned or draining{more}",
                      detail, None, res)
    m = _P.stopped.match(detail)
    if m:
        return Reason("QueueStopped", f"{CODES['QueueStopped'][0]}: {m.group(1)}", detail, m.group(1))
    m = _P.gang_waits.match(detail)
    if m:
        app, have, need, group = m.groups()
        return Reason("GangIncomplete", f"{CODES['GangIncomplete'][0]}: gang {app} has {have} of {need} {group} placeholders", detail)
    m = _P.gang_failed.match(detail)
    if m:
        return Reason("GangFailed", f"{CODES['GangFailed'][0]}: gang {m.group(1)}", detail)
    m = _P.cancelled.match(detail)
    if m:
        return Reason("PlaceholderCancelled", f"{CODES['PlaceholderCancelled'][0]} of gang {m.group(1)}", detail)
    return Reason("Unknown", detail, detail)


def rejected(detail: str, queue: str) -> Reason:
    """An application no placement rule places (its first line is YuniKorn's error)."""
    from prio.yunikorn.placement import BAD_USER, CLOSED

    first = detail.splitlines()[0] if detail else "no placement rule places it"
    if CLOSED in detail:
        return Reason("NoSubmitAccess", f"{CODES['NoSubmitAccess'][0]}: {first}", detail, queue)
    if first == BAD_USER:
        return Reason("InvalidUser", f"{CODES['InvalidUser'][0]}: {first}", detail, queue)
    if _P.gang_refused.match(first):
        return Reason("GangRejected", f"{CODES['GangRejected'][0]}: {first}", detail, queue)
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
    gangs = getattr(eng, "gangs", None) or {}
    for st in eng.apps:
        g = gangs.get(id(st))
        held = g.hidden if g is not None else ()  # real pods the shim holds back: marked taken, not placed
        for i, a in enumerate(st.asks):
            if (not st.alloc[i] or i in held) and (st.app.id, a.id) not in seen:
                out.append(PendingAsk(a.id, st.app.id, st.leaf.path, a.priority, held_not_reached(g) if i in held else NOT_REACHED))
    return out


def held_not_reached(g) -> Reason:
    """A real pod of a gang still reserving when the simulation stopped (--steps): not reached,
    and why YuniKorn does not know it yet (the shim holds it back)."""
    from prio.yunikorn.gangs import waiting_reason

    why = waiting_reason(g)
    return Reason("NotReached", f"{NOT_REACHED.words}; the shim still holds it back ({why})", f"{NOT_REACHED.detail}; {why}")


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
