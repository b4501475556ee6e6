"""The effective priority tree, as data: what each queue reports and why. Pure."""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from prio.yunikorn import properties as P
from prio.yunikorn.engine import MIN, Engine
from prio.yunikorn.reference import guarantee_shares
from prio.yunikorn.reference import priority_value_by_policy as report
from prio.yunikorn.resources import strictly_greater
from prio.yunikorn.tree import QNode


def show_priority(v: int | None) -> str:
    return "n/a" if v is None or v == MIN else str(v)


@dataclass
class QueueRow:
    queue: str
    depth: int
    priority: int | None
    offset: int
    fenced: bool
    sort_priority: bool
    sort_policy: str
    pending_asks: int
    leaf: bool
    dynamic: bool
    notes: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"queue": self.queue, "priority": self.priority, "offset": self.offset, "fenced": self.fenced,
                "sortPriority": self.sort_priority, "sortPolicy": self.sort_policy, "pendingAsks": self.pending_asks}


def pending_counts(eng: Engine) -> dict:
    counts: dict = {}
    for st in eng.apps:
        n = st.alloc.count(False)  # its asks not allocated
        q: QNode | None = st.leaf
        while q is not None:
            counts[q.path] = counts.get(q.path, 0) + n
            q = q.parent
    return counts


def _stateaware(q: QNode, release) -> bool:
    """A leaf that sorts stateaware in `release` (before 1.6: a policy of its own, stateaware.py)."""
    return release is not None and release.stateaware_policy and q.leaf and q.props.get(P.SORT_POLICY) == "stateaware"


def queue_notes(q: QNode, release=None) -> list[str]:
    notes = list(q.notes)
    if q.offset_problem:
        notes.append(f"priority.offset {q.own.get(P.PRIORITY_OFFSET)!r} ignored: {q.offset_problem}")
    pol = q.own.get(P.PRIORITY_POLICY)
    if pol is not None and P.priority_policy(pol)[1]:
        notes.append(P.priority_policy(pol)[1])
    sp = q.props.get(P.SORT_POLICY)
    if sp is not None and P.sort_policy(sp)[1] and not _stateaware(q, release):
        notes.append(f"application.sort.policy: {P.sort_policy(sp)[1]}")
    spr = q.props.get(P.SORT_PRIORITY)
    if spr is not None and P.sort_priority(spr)[1]:
        notes.append(f"application.sort.priority: {P.sort_priority(spr)[1]}")
    if q.parent is None and (q.offset or q.fenced):
        notes.append("root's offset and fence have no effect on scheduling: nothing compares root with another queue")
    return notes


def reported_differences(eng: Engine, queues) -> list[str]:
    """Where a REST dump's currentPriority differs from what prio computes from the same dump.
    YuniKorn updates a parent's cached child priorities only on ask and application events, so
    after a config reload they can be stale; a partial applications dump differs too."""
    by_path = {q.path: q for q in eng.root.walk()}
    out = []
    for info in queues:
        q = by_path.get(info.path)
        if q is None or info.current_priority is None:
            continue
        if info.current_priority != q.reported:
            out.append(f"{info.path}: YuniKorn reported {show_priority(info.current_priority)}, prio computes {show_priority(q.reported)}")
    return out


def queue_rows(eng: Engine, subtree: str | None = None) -> list[QueueRow]:
    counts = pending_counts(eng)
    start = eng.root
    if subtree:
        start = find(eng.root, subtree)
    rows = []
    for q in start.walk():
        rows.append(QueueRow(q.path, q.depth, None if q.reported == MIN else q.reported, q.offset, q.fenced,
                             q.sort_priority, "fair" if not q.leaf else "stateaware" if _stateaware(q, eng.release) else q.sort_policy,
                             counts.get(q.path, 0), q.leaf, q.dynamic, queue_notes(q, eng.release)))
    return rows


def find(root: QNode, path: str) -> QNode:
    p = path.lower()
    if not p.startswith("root"):
        p = "root." + p
    for q in root.walk():
        if q.path == p:
            return q
    raise KeyError(path)


class AskRow(NamedTuple):
    """One pending ask as explain lists it (a tuple: a million of them are cheap)."""

    ask: str
    application: str
    queue: str
    priority: int
    vector: tuple  # ((queue path, reported priority or None), ...) root's children first

    def to_json(self) -> dict:
        return {"ask": self.ask, "application": self.application, "queue": self.queue, "priority": self.priority,
                "queuePriorities": [{"queue": p, "priority": v} for p, v in self.vector]}


def iter_ask_groups(eng: Engine, subtree: str | None = None):
    """Pending asks in the order they would be considered now, by application: (application id,
    queue, priority vector, [asks]). The vector is what every queue on the path reports, from
    root's child down to the leaf. Lazy: a million asks stream to the renderer."""
    prefix = find(eng.root, subtree).path if subtree else None
    vectors: dict = {}  # one vector per leaf, shared by its asks
    for st, asks in eng.considered_groups():
        leaf = st.leaf
        vec = vectors.get(leaf.path)
        if vec is None:
            if prefix and not (leaf.path == prefix or leaf.path.startswith(prefix + ".")):
                vec = vectors[leaf.path] = ()
            else:
                chain = []
                q = leaf
                while q.parent is not None:
                    chain.append((q.path, None if q.reported == MIN else q.reported))
                    q = q.parent
                vec = vectors[leaf.path] = tuple(reversed(chain))
        if (prefix and not vec) or not asks:
            continue
        yield st.app.id, leaf.path, vec, asks


def iter_ask_rows(eng: Engine, subtree: str | None = None):
    """iter_ask_groups one ask at a time, as AskRows."""
    for app, queue, vec, asks in iter_ask_groups(eng, subtree):
        for a in asks:
            yield AskRow(a.id, app, queue, a.priority, vec)


def why(eng: Engine, path: str) -> list[str]:
    """How a queue's priority was derived, step by step."""
    return why_at(eng.root, path, eng.release)


def why_at(top, path: str, release) -> list[str]:
    """`why` below the queue `top` (a subtree's root: its own queue found at once), for YuniKorn
    `release` (prio.yunikorn.releases.Release: the notes that release's rules give)."""
    q = find(top, path)
    lines = []
    name = q.path
    if q.leaf:
        apps = [st for st in q.apps if st.prio != MIN]
        if not apps:
            lines.append(f"{name} has no pending asks, so it has no priority (n/a, -2147483648 internally) and its parent ignores it")
            return lines
        best = max(apps, key=lambda st: (st.prio, st.app.id))
        lines.append(f"{name} is a leaf: its raw priority is the highest application priority, {best.prio}, from application {best.app.id}")
        for st in sorted(apps, key=lambda st: -st.prio)[:10]:
            pend = [a.priority for i, a in enumerate(st.asks) if not st.alloc[i]]
            lines.append(f"  application {st.app.id}: {st.prio} (the highest of its {len(pend)} pending ask{'s' if len(pend) != 1 else ''}: {', '.join(map(str, pend[:8]))}{', ...' if len(pend) > 8 else ''})")
        raw = best.prio
    else:
        kids = [c for c in q.children if c.reported != MIN]
        if not kids:
            lines.append(f"{name} has no pending asks below it, so it has no priority (n/a)")
            return lines
        best = max(kids, key=lambda c: c.reported)
        raw = best.reported
        lines.append(f"{name} is a parent: its raw priority is the highest its children report, {raw}, from {best.name}")
        for c in sorted(q.children, key=lambda c: -c.reported if c.reported != MIN else 2**40):
            lines.append(f"  {c.name}: {show_priority(c.reported)}" + (" (fenced: reports its offset)" if c.fenced and c.reported != MIN else ""))
    if q.fenced:
        lines.append(f"priority.policy is fence: {name} reports its offset, {q.offset}, and hides the raw {raw} from its parent")
    else:
        total = raw + q.offset
        rep = report(q, raw)
        if q.offset:
            lines.append(f"priority.offset {q.offset:+d}: {raw} {'+' if q.offset > 0 else '-'} {abs(q.offset)} = {total}")
        if total != rep:
            lines.append(f"{total} is outside int32, so it saturates at {rep}" + (" (which YuniKorn reads as 'nothing pending')" if rep == MIN else ""))
        lines.append(f"{name} reports {show_priority(rep)}")
    for n in queue_notes(q, release):
        lines.append(f"note: {n}")
    if q.parent is not None and q.parent.parent is not None and q.parent.fenced:
        lines.append(f"its parent {q.parent.path} is fenced: outside that subtree only the parent's offset counts")
    return lines


def _ask_key(key: str):
    app, _, ask = key.rpartition("/")
    return app, ask


def _names(st, app: str, task_id: str, id_: str, key: str) -> bool:
    """Whether `key` (ASK, APP/ASK, or a pod's NAMESPACE/NAME) names task `id_` of application
    state `st` (task_id: the part of the key after its last slash)."""
    if id_ == key:
        return True  # a pod whose id is namespace/name (its name repeats in the application)
    return id_ == task_id and (not app or st.app.id == app or (st.app.tags or {}).get("namespace") == app)


def _locate(eng: Engine, key: str):
    """(AppState, ask index) of an ask by id, APP/ASK when ask ids repeat across applications, or
    a pod's NAMESPACE/NAME."""
    app, ask = _ask_key(key)
    hits = [(st, i) for st in eng.apps for i, a in enumerate(st.asks) if _names(st, app, ask, a.id, key)]
    if not hits:
        raise KeyError(key)
    if len(hits) > 1:
        raise ValueError(f"ask id {key!r} is in {len(hits)} applications; say APP/ASK")
    return hits[0]


def running(eng: Engine, key: str) -> list[str] | None:
    """For a task that already runs (a bound pod: a running allocation), where and since when,
    instead of "no pending ask"; None when no running task has that name."""
    app, task = _ask_key(key)
    for st in eng.apps:
        for t in st.app.allocations or ():
            if _names(st, app, task, t.id, key):
                since = ""
                if t.create_time[1] == 0 and t.create_time[0]:
                    stamp = datetime.datetime.fromtimestamp(t.create_time[0] / 1e9, datetime.timezone.utc)
                    since = f" since {stamp.strftime('%Y-%m-%dT%H:%M:%SZ')}"
                where = f"running on {t.node}" if t.node else "running"
                return [f"{t.id} (application {st.app.id}, priority {t.priority}, queue {st.leaf.path}) is {where}{since}: "
                        "it waits for nothing."]
    return None


def why_ask(make_engine, ask: str, behind: str | None = None, facts: dict | None = None) -> list[str]:
    """Why an ask waits where it does, from the simulated order: the step that places it (or why
    none does), the ask placed before it (or `behind`), and, at the moment YuniKorn chose the
    earlier one, the first queue where their paths part and the rule of YuniKorn's comparator
    that decided there. `make_engine` builds a fresh engine on the inputs (the question is asked
    of a simulation, which changes the engine). `facts`, when given, is filled with the same
    answer as data: step, placedBefore, partsAt, rule, values, tie (see the README)."""
    from prio.yunikorn.reasons import NOT_REACHED  # --why-ask's alone: the reasons' module is not every explain's

    facts = {} if facts is None else facts
    facts.update(step=None, placedBefore=None, partsAt=None, rule=None, values={}, tie=False)
    eng = make_engine()
    refused = _rejected_ask(eng, ask)
    if refused:
        facts["rule"] = "rejected"
        return refused
    st, i = _locate(eng, ask)
    target = (st.app.id, st.asks[i].id)
    other_key = _locate(eng, behind) if behind is not None else None
    if other_key is not None and other_key == (st, i):
        raise ValueError("--behind names the same ask as --why-ask")
    other = (other_key[0].app.id, other_key[0].asks[other_key[1]].id) if other_key else None
    steps = eng.run()
    placed = {(x.application, x.ask): x.step for x in steps}
    left = {(u.application, u.ask): u.reason for u in eng.leftovers()}
    a = st.asks[i]
    head = f"{a.id} (application {st.app.id}, priority {a.priority}, queue {st.leaf.path})"
    if target not in placed:
        reason = left.get(target, NOT_REACHED.detail)
        from prio.yunikorn.reasons import pending as pending_reasons
        from prio.yunikorn.reasons import predicate_fields

        code = next((p.reason for p in pending_reasons(eng) if (p.application, p.ask) == target), None)
        facts.update(rule="neverPlaced", values={"reason": reason, "code": code.code if code else None,
                                                 **(predicate_fields(code) if code else {})})
        return [f"{head} is never placed: {reason}."] + ([f"Reason {code.code}: {code.words}."] if code else []) + \
            (refusal_lines(code.nodes) if code else [])
    n = placed[target]
    facts["step"] = n
    lines = [f"{head} is placed at step {n} of {len(steps)} in the simulated order (prio simulate)."]
    made_room = next((p for p in getattr(eng, "preemptions", ()) if (p.application, p.ask) == target), None)
    if made_room is not None:
        facts["preemption"] = {"node": made_room.node, "victims": list(made_room.victims), "beforeStep": made_room.step}
        lines.append(f"It is placed only because YuniKorn preempted {', '.join(made_room.victims)} on {made_room.node} for it "
                     f"(before step {made_room.step}); the node was reserved for it.")
    if getattr(eng, "gangs", None):
        from prio.yunikorn.gangs import explain_lines

        more, complete = explain_lines(eng, target[0], target[1], n)
        lines += more
        if complete and other is None:
            facts["rule"] = "placeholderReplaced"
            tie = [t for t in steps[n - 1].tie if t[0] == "placeholders"]
            if tie:
                facts["tie"] = True
                lines.append(f"Which of its group's placeholders it takes is Go's map order in YuniKorn ({tie[0]}): prio takes "
                             "the first by id; the real scheduler may take another, on another node.")
            return lines
    if other is None:
        if n == 1:
            facts["rule"] = "first"
            return lines + ["Nothing goes before it: it is the next ask YuniKorn places."]
        prev = steps[n - 2]
        other = (prev.application, prev.ask)
    if other not in placed:
        facts.update(placedBefore={"ask": other[1], "application": other[0], "step": None}, rule="otherNeverPlaced")
        return lines + [f"{other[1]} is never placed ({left.get(other, NOT_REACHED.detail)}), so it holds nothing up."]
    m = placed[other]
    facts["placedBefore"] = {"ask": other[1], "application": other[0], "step": m}
    facts["waitsBehind"] = m < n  # False: --behind named an ask placed after this one
    facts["tie"] = bool(steps[min(m, n) - 1].tie)
    first, second = (other, target) if m < n else (target, other)
    verb = "waits behind" if m < n else "goes before"
    lines.append(f"It {verb} {other[1]} (application {other[0]}, placed at step {m}). When YuniKorn placed "
                 f"{first[1]} (step {min(m, n)}), both were pending:")
    lines += _step_caveats(steps[min(m, n) - 1])
    # Replay up to the moment of the earlier placement and compare the two there.
    eng = make_engine()
    eng.run(limit=min(m, n) - 1)
    st1, i1 = _locate(eng, f"{first[0]}/{first[1]}")
    st2, i2 = _locate(eng, f"{second[0]}/{second[1]}")
    blocked = _blockers(eng, st2, st2.asks[i2], facts)
    if blocked:
        return lines + ["  " + b for b in blocked]
    pa, pb = Engine.path_of(st1.leaf)[::-1], Engine.path_of(st2.leaf)[::-1]  # root first
    k = 0
    while k < min(len(pa), len(pb)) and pa[k] is pb[k]:
        k += 1
    if k == len(pa) and k == len(pb):
        return lines + _why_same_leaf(eng, st1, st1.asks[i1], st2, st2.asks[i2], facts)
    return lines + _why_siblings(eng, pa[k - 1], pa[k], pb[k], facts)


def _rejected_ask(eng: Engine, key: str) -> list[str]:
    """The answer for an ask of an application YuniKorn rejects (it is in no step)."""
    app, ask = _ask_key(key)
    for r in eng.rejected:
        if app and r.application != app:
            continue
        snap_app = next((a for a in eng.snapshot.apps if a.id == r.application), None)
        if snap_app is not None and any(a.id == ask for a in snap_app.asks):
            return [f"{ask} (application {r.application}, queue {r.queue}) is never scheduled: YuniKorn rejects the application "
                    f"at submission ({r.reason.replace(chr(10), '; ')})."]
    return []


def _step_caveats(step) -> list[str]:
    """What the step's marks mean for the answer: a tie left to Go's map order, the fair-max defect."""
    out = []
    if step.tie:
        out.append(f"  note: step {step.step} was a tie that YuniKorn leaves to Go's map order ({'; '.join(map(str, step.tie))}): prio takes "
                   "the name, the real scheduler may take the other one there.")
    if step.note:
        out.append(f"  note: step {step.step}: {step.note}.")
    return out


def _blockers(eng: Engine, st, a, facts: dict | None = None) -> list[str]:
    """What stops the ask whatever its place: maxapplications on the path, or no headroom."""
    out = []
    facts = {} if facts is None else facts
    if not st.running:
        q = eng.blocked_by_maxapps(st)
        if q is not None:
            facts.update(rule="maxapplications", partsAt=q.path, values={"running": q.running, "maxapplications": q.maxapps})
            out.append(f"Application {st.app.id} has nothing running yet and {q.path} already runs {q.running} of its "
                       f"maxapplications {q.maxapps}: YuniKorn skips the application until one finishes.")
    if eng.ugm is not None:
        out += _limit_blockers(eng, st, a, facts)
    miss = eng.misfit(Engine.path_of(st.leaf), a)
    if miss is None and eng.cluster is not None and not out:
        nodes = _node_blocker(eng, st, a, facts)
        if nodes:
            return out + [nodes]
    if miss is not None:
        from prio.yunikorn.quantity import show_quantity as qshow

        q, k = miss
        where = "the cluster capacity" if q.parent is None else f"the max of {q.path}"
        left = q.max[k] - q.allocated.get(k, 0)
        if facts.get("rule") is None:
            facts.update(rule="headroom", partsAt=q.path, values={"resource": k, "needs": a.resources[k], "left": left, "max": q.max[k]})
        out.append(f"{a.id} does not fit {where} then (needs {k} {qshow(k, a.resources[k])}, {qshow(k, left)} of "
                   f"{qshow(k, q.max[k])} left): YuniKorn tries the next ask instead.")
    return out


def _limit_blockers(eng: Engine, st, a, facts: dict) -> list[str]:
    """The user's and group's limits at that moment: maxapplications for an application that does
    not run yet, then the headroom the ask must fit."""
    from prio.yunikorn.reference import groups_of, user_of

    out = []
    assert eng.ugm is not None  # (the caller asks only with user/group limits)
    user, groups = user_of(st), groups_of(st)
    if not st.running:
        got = eng.ugm.cannot_run(st.app_id, st.leaf.path, user, groups)
        if got is not None:
            kind, who, path, limit, running = got
            if facts.get("rule") is None:
                facts.update(rule=f"{kind}MaxApplications", partsAt=path, values={kind: who, "running": running, "maxapplications": limit})
            out.append(f"Application {st.app.id} has nothing running yet and {kind} {who} already runs {running} of its "
                       f"maxapplications {limit} in {path}: YuniKorn skips the application until one finishes.")
    short = eng.ugm.short_of(st.app_id, st.leaf.path, user, groups, a.resources)
    if short is not None:
        from prio.yunikorn.quantity import show_quantity as qshow

        kind, who, path, k, left, limit = short
        if facts.get("rule") is None:
            facts.update(rule=f"{kind}Quota", partsAt=path, values={kind: who, "resource": k, "needs": a.resources[k], "left": left, "max": limit})
        out.append(f"{a.id} does not fit the {kind} limit of {who} in {path} then (needs {k} {qshow(k, a.resources[k])}, "
                   f"{qshow(k, max(left, 0))} of {qshow(k, limit)} left): YuniKorn tries the next ask instead.")
    return out


SHOWN_REFUSALS = 20  # nodes named one by one in --why-ask's text (the json has them all)


def refusal_lines(refused) -> list:
    """The nodes the shim's predicates refuse an ask on, one line each (plugin, Kubernetes'
    message), as `kubectl describe pod` would give them per node."""
    if not refused:
        return []
    out = ["The node predicates (as YuniKorn's Kubernetes shim runs them) refuse it on:"]
    out += [f"  {n}: {plugin or 'YuniKorn'}: {why}" for n, plugin, why, _ in refused[:SHOWN_REFUSALS]]
    if len(refused) > SHOWN_REFUSALS:
        out.append(f"  and {len(refused) - SHOWN_REFUSALS} more nodes (-o json lists them all)")
    return out


def _node_blocker(eng: Engine, st, a, facts: dict) -> str:
    """Whether a node could take the ask at that moment (an unreserved node whose free room fits,
    or the node it holds); if none, why (the same words as the unscheduled reason)."""
    from prio.yunikorn.reference import no_room_reason, too_big_reason

    key = (st.app_id, a.id)
    assert eng.cluster is not None  # (the caller asks only with nodes)
    nodes = eng.cluster.nodes
    ok = eng.cluster.admits(a)
    if any(n.schedulable and n.fits_node(a.resources) and n.can_allocate(a.resources, key)
           and (n.reserved is None or n.reserved == key) and (ok is None or ok[n.index]) for n in nodes):
        return ""
    held = next((n for n in nodes if n.reserved == key), None)
    words = too_big_reason(eng.cluster, a.resources) if not any(n.fits_node(a.resources) for n in nodes) \
        else no_room_reason(eng.cluster, st, a, held)
    if facts.get("rule") is None:
        facts.update(rule="nodes", values={"reason": words})
    return f"{a.id} finds no node then ({words}): YuniKorn tries the next ask instead."


def _shares(shares: tuple) -> str:
    """A queue's usage shares as YuniKorn before 1.6 compares them (reference.guarantee_shares)."""
    return "(" + ", ".join(f"{x:.6g}" for x in reversed(shares)) + ")" if shares else "0"


def _why_siblings(eng: Engine, parent: QNode, first: QNode, second: QNode, facts: dict | None = None) -> list[str]:
    """Which step of the queue comparator at `parent` puts `first` before `second`."""
    facts = {} if facts is None else facts
    p1, p2 = first.reported, second.reported
    by_guarantee = not eng.release.fair_max_share  # before 1.6: usage over guarantee type by type
    s1: Any  # the shares by type (a tuple, by_guarantee), else one fair share (a float)
    s2: Any
    s1, s2 = (guarantee_shares(first), guarantee_shares(second)) if by_guarantee else (eng.share(first), eng.share(second))
    out = [f"  their paths part at {parent.path}, where {first.name} sorts before {second.name}:"]
    if eng.beyond_insertion(parent) and not eng.misaligned(parent):
        out.append(f"  ({parent.path} has more than 20 children and pending compared over several resource types: YuniKorn's "
                   "sort (Go's SliceStable: insertion sort on blocks of 20, then merges) can order siblings equal on priority "
                   "and fair share by the queues around them, not by their own pending alone)")
    if eng.misaligned(parent):
        out.append(f"  (the children of {parent.path} differ in fair max: YuniKorn's sort divides usage by the fair max at a "
                   "position, not the queue's own, so the fair shares below, each against its own fair max, may not decide)")
    prio_txt = f"priority {show_priority(p1)} against {show_priority(p2)}"
    share_txt = f"fair share {s1:.6g} against {s2:.6g} (allocated over guaranteed, else over the max)" if not by_guarantee else \
        (f"fair share {_shares(s1)} against {_shares(s2)} (YuniKorn {eng.release.name}: allocated over guaranteed per resource type, "
         "the usage itself where none is guaranteed, compared largest first)")
    prio_vals = {first.path: None if p1 == MIN else p1, second.path: None if p2 == MIN else p2}
    share_vals = {first.path: list(s1[::-1]) if by_guarantee else s1, second.path: list(s2[::-1]) if by_guarantee else s2}
    said = _shares(s1) if by_guarantee else f"{s1:.6g}"  # first's share as the lines below say it
    facts.update(partsAt=parent.path, rule="priority", values=prio_vals)
    if parent.sort_priority and p1 != p2:
        why = f"higher priority first: {prio_txt}"
    elif not parent.sort_priority and s1 != s2:
        facts.update(rule="fairShare", values=share_vals)
        why = f"application.sort.priority is disabled on {parent.path}, so fair share comes first: lower {share_txt}"
    elif s1 != s2:
        facts.update(rule="fairShare", values=share_vals)
        why = f"equal priority ({show_priority(p1)}), then the lower fair share first: {share_txt}"
    elif p1 != p2:
        why = f"equal fair share ({said}), then the higher priority first: {prio_txt}"
    elif strictly_greater(first.pending, second.pending):
        facts.update(rule="pendingResources", values={first.path: dict(first.pending), second.path: dict(second.pending)})
        why = (f"equal priority ({show_priority(p1)}) and fair share ({said}); then pending resources: {first.name} wants at least "
               f"as much of everything and more of something ({_res(first.pending)} against {_res(second.pending)})")
    else:
        facts.update(rule="name", values={first.path: first.name, second.path: second.name}, tie=True)
        why = (f"equal priority ({show_priority(p1)}), fair share ({said}) and no pending-resource dominance "
               f"({_res(first.pending)} against {_res(second.pending)}): YuniKorn leaves this to chance, prio takes the name")
    out.append(f"  {why}.")
    out += [f"  ({q.name} is fenced and reports only its offset, {q.offset})" for q in (first, second) if q.fenced and q.reported != MIN]
    for q in (first, second):
        if q.offset and not q.fenced:
            out.append(f"  ({q.name} adds priority.offset {q.offset:+d} to what is below it)")
    out.append(f"  (prio explain --why {first.path} shows how a queue's priority comes about)")
    return out


def _res(r: dict) -> str:
    from prio.yunikorn.quantity import show_quantity as qshow

    return ", ".join(f"{k} {qshow(k, v)}" for k, v in sorted(r.items())) or "nothing"


def _why_same_leaf(eng: Engine, st_first, first, st_second, second, facts: dict | None = None) -> list[str]:
    """Which step of the application (or ask) comparator puts `first` before `second`."""
    leaf = st_first.leaf
    facts = {} if facts is None else facts
    facts["partsAt"] = leaf.path
    if st_first is st_second:
        facts.update(rule="askPriority", values={first.id: first.priority, second.id: second.priority})
        if first.priority != second.priority:
            return [f"  both are asks of {st_first.app.id}: within an application the higher priority goes first ({first.priority} against {second.priority})."]
        facts.update(rule="askCreateTime", values={first.id: first.create_time, second.id: second.create_time})
        if first.create_time != second.create_time:
            return [f"  both are asks of {st_first.app.id} with priority {first.priority}: the one created first goes first."]
        facts.update(rule="askOrder", values={})
        return [f"  both are asks of {st_first.app.id} with priority {first.priority} and the same create time: the one added first goes first."]
    pol, on = leaf.sort_policy, leaf.sort_priority
    p1, p2 = st_first.prio, st_second.prio
    out = [f"  both are in {leaf.path}, which sorts applications {pol}"
           + (", priority first" if on else " with application.sort.priority disabled (priority only breaks ties)") + ":"]
    if pol == "fifo":
        t1, t2 = st_first.key_submit, st_second.key_submit
        other = ("earlier submission first", t1 != t2,
                 f"{st_first.app.id} was submitted (or its oldest ask created) before {st_second.app.id}")
        other_facts = ("submitTime", {st_first.app.id: t1, st_second.app.id: t2})
    else:
        u1, u2 = eng.usage_key(st_first), eng.usage_key(st_second)
        other = ("lower usage first", u1 != u2,
                 f"usage shares {', '.join(f'{x:.6g}' for x in u1) or '0'} against {', '.join(f'{x:.6g}' for x in u2) or '0'}")
        other_facts = ("usage", {st_first.app.id: list(u1), st_second.app.id: list(u2)})
    prio_step = ("higher application priority first", p1 != p2,
                 f"{show_priority(p1)} against {show_priority(p2)} (an application's priority is its highest pending ask)")
    prio_facts = ("applicationPriority", {st_first.app.id: None if p1 == MIN else p1, st_second.app.id: None if p2 == MIN else p2})
    for (name, differs, detail), (rule, values) in (((prio_step, prio_facts), (other, other_facts)) if on
                                                     else ((other, other_facts), (prio_step, prio_facts))):
        if differs:
            facts.update(rule=rule, values=values)
            out.append(f"  {name}: {detail}.")
            return out
    facts.update(rule="applicationId", values={st_first.app.id: st_first.app.id, st_second.app.id: st_second.app.id}, tie=True)
    out.append(f"  priority and {'submission time' if pol == 'fifo' else 'usage'} are equal: YuniKorn leaves this to chance, prio takes the application id.")
    return out


# --why-ask for every ask of a simulation of at most this many asks (the HTML page's): each
# answer simulates again (twice), so a bigger run gives the command to ask instead.
WHY_ASKS = 100


def why_asks(make_engine, eng) -> dict:
    """APP/ASK -> the lines of `prio explain --why-ask APP/ASK`, for every ask of a run of at most
    WHY_ASKS asks (else empty)."""
    keys = [f"{st.app.id}/{a.id}" for st in eng.apps for a in st.asks]
    if not keys or len(keys) > WHY_ASKS:
        return {}
    out = {}
    for k in keys:
        try:
            out[k] = why_ask(make_engine, k)
        except (KeyError, ValueError) as e:  # an ask id the engine cannot locate alone: said, not fatal
            out[k] = [str(e)]
    return out
