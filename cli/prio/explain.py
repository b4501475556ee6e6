"""The effective priority tree, as data: what each queue reports and why. Pure."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from prio import properties as P
from prio.engine import MIN, Engine, report
from prio.tree import QNode


def show(v: int | None) -> str:
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
        n = sum(1 for i in range(len(st.asks)) if not st.alloc[i])
        q = st.leaf
        while q is not None:
            counts[q.path] = counts.get(q.path, 0) + n
            q = q.parent
    return counts


def queue_notes(q: QNode) -> list[str]:
    notes = list(q.notes)
    if q.offset_problem:
        notes.append(f"priority.offset {q.own.get(P.PRIORITY_OFFSET)!r} ignored: {q.offset_problem}")
    pol = q.own.get(P.PRIORITY_POLICY)
    if pol is not None and P.priority_policy(pol)[1]:
        notes.append(P.priority_policy(pol)[1])
    sp = q.props.get(P.SORT_POLICY)
    if sp is not None and P.sort_policy(sp)[1]:
        notes.append(f"application.sort.policy: {P.sort_policy(sp)[1]}")
    spr = q.props.get(P.SORT_PRIORITY)
    if spr is not None and P.sort_priority(spr)[1]:
        notes.append(f"application.sort.priority: {P.sort_priority(spr)[1]}")
    if q.parent is None and (q.offset or q.fenced):
        notes.append("root's offset and fence have no effect on scheduling: nothing compares root with another queue")
    return notes


def queue_rows(eng: Engine, subtree: str | None = None) -> list[QueueRow]:
    counts = pending_counts(eng)
    start = eng.root
    if subtree:
        start = find(eng.root, subtree)
    rows = []
    for q in start.walk():
        rows.append(QueueRow(q.path, q.depth, None if q.reported == MIN else q.reported, q.offset, q.fenced,
                             q.sort_priority, "fair" if not q.leaf else q.sort_policy, counts.get(q.path, 0),
                             q.leaf, q.dynamic, queue_notes(q)))
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


def ask_rows(eng: Engine, subtree: str | None = None, limit: int | None = None) -> list[AskRow]:
    """Pending asks in the order they would be considered now, with the priority vector: what
    every queue on the ask's path reports, from root's child down to the leaf."""
    prefix = find(eng.root, subtree).path if subtree else None
    vectors: dict = {}  # one vector per leaf, shared by its asks
    out = []
    for st, a in eng.considered_order():
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
        if prefix and not vec:
            continue
        out.append(AskRow(a.id, st.app.id, leaf.path, a.priority, vec))
        if limit is not None and len(out) >= limit:
            break
    return out


def why(eng: Engine, path: str) -> list[str]:
    """How a queue's priority was derived, step by step."""
    q = find(eng.root, path)
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
            lines.append(f"  application {st.app.id}: {st.prio} (the highest of its {len(pend)} pending asks: {', '.join(map(str, pend[:8]))}{', ...' if len(pend) > 8 else ''})")
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
            lines.append(f"  {c.name}: {show(c.reported)}" + (" (fenced: reports its offset)" if c.fenced and c.reported != MIN else ""))
    if q.fenced:
        lines.append(f"priority.policy is fence: {name} reports its offset, {q.offset}, and hides the raw {raw} from its parent")
    else:
        total = raw + q.offset
        rep = report(q, raw)
        if q.offset:
            lines.append(f"priority.offset {q.offset:+d}: {raw} {'+' if q.offset > 0 else '-'} {abs(q.offset)} = {total}")
        if total != rep:
            lines.append(f"{total} is outside int32, so it saturates at {rep}" + (" (which YuniKorn reads as 'nothing pending')" if rep == MIN else ""))
        lines.append(f"{name} reports {show(rep)}")
    for n in queue_notes(q):
        lines.append(f"note: {n}")
    if q.parent is not None and q.parent.parent is not None and q.parent.fenced:
        lines.append(f"its parent {q.parent.path} is fenced: outside that subtree only the parent's offset counts")
    return lines
