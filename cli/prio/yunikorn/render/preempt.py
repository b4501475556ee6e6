"""Rendering `prio preempt`: json (the contract's shape), a rich tree per ask (table), tabulate
(plain, markdown); then quota-change preemption (yunikorn/render/quota.py), in every format."""
from __future__ import annotations

import io
import json

from prio.render.printable import for_terminal


def _key(r, dup: set) -> str:
    return f"{r.application}/{r.ask}" if r.ask in dup else r.ask


def _dups(asks) -> set:
    seen, dup = set(), set()
    for r in asks:
        (dup if r.ask in seen else seen).add(r.ask)
    return dup


def to_json(asks, quota=None) -> dict:
    """The contract's `preempt -o json`: fields exactly those of the recorded scenarios, and the
    top-level `quota` (quota-change preemption) when given."""
    dup = _dups(asks)
    out = {}
    for r in asks:
        out[_key(r, dup)] = {
            "outcome": r.outcome, "node": r.node, "victims": list(r.victims), "reason": r.reason,
            "fenceRoot": r.fence_root, "eligibleVictims": list(r.eligible),
            "askPriorityByQueue": dict(r.priority_by_queue), "log": list(r.log),
        }
    if quota is None:
        return {"asks": out}
    from prio.yunikorn.render import quota as quota_out

    return {"asks": out, "quota": quota_out.to_json(quota)}


@for_terminal
def render(fmt: str, result, asks, width: int = 120, color: bool = False, quota=None):
    """`quota`: the quota-change preemption (QuotaResult), shown after the asks."""
    if fmt == "json":
        yield json.dumps(to_json(asks, quota), indent=1) + "\n"
        return
    if not asks and (quota is None or not quota.considered):
        yield "No pending asks in the snapshot, and no queue's running work is over its max (nothing for quota preemption).\n"
        return
    if not asks:
        yield "No pending asks in the snapshot.\n"
    elif fmt == "table":
        yield _rich(result, asks, width, color)
    else:
        yield _tabular(result, asks, "github" if fmt == "markdown" else "plain")
    if quota is not None:
        yield "\n" + _quota(quota, fmt, width, color)


def _quota(quota, fmt: str, width: int, color: bool) -> str:
    from prio.yunikorn.render import quota as quota_out

    if fmt != "table":
        return quota_out.plain(quota, "github" if fmt == "markdown" else "plain")
    from rich.console import Console

    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color, highlight=False, emoji=False)
    quota_out.rich(quota, con)
    return buf.getvalue()


def headline(r) -> str:
    who = f"{r.ask} (application {r.application}, queue {r.queue}, priority {r.priority})"
    if r.outcome == "allocated":
        what = f"fits without preemption: allocated on {r.node}" if r.fits_now else f"allocated on {r.node} once other asks' preemptions freed room"
    elif r.outcome == "preempted":
        what = f"preempts {', '.join(r.victims)} (in this order) and is placed on {r.node}"
    else:
        what = f"not placed: {r.reason}"
    return f"{who}: {what}"


def _victim_rank(r) -> dict:
    return {v: i + 1 for i, v in enumerate(r.victims)}


def _mark(r, c, rank) -> str:
    if c.id in rank:
        return f"victim #{rank[c.id]}"
    if c.eligible:
        return "candidate"
    return "not eligible"


def _in_scope(r, c) -> bool:
    return c.queue == r.fence_root or c.queue.startswith(r.fence_root + ".")


_MEANING = {
    "Preemption queue guarantees check failed":
        "removing every candidate would still not bring the ask's queue within its guarantee (or no queue on its path has one)",
    "Preemption helped but short of resources":
        "the victims YuniKorn may take on the chosen node add up to less than the ask (it does not count the node's free space here)",
    "Preemption does not help":
        "no node where taking candidates (each leaving its queue over its guarantee, within what is left of the ask queue's guarantee) makes the ask fit",
}


def _details(r) -> list[str]:
    lines = []
    if r.outcome == "not placed" and r.reason in _MEANING:
        meaning = _MEANING[r.reason]
        if r.reason == "Preemption does not help" and not r.eligible:
            meaning = "the victim search found no candidates"
        lines.append(f"why: {meaning}")
    for name, ok, detail in r.preconditions:
        lines.append(f"{'ok ' if ok else 'NO '} {name}: {detail}")
    lines.append(f"fence root: {r.fence_root} ({r.fence_why})")
    lines.append("ask priority by queue: " + ", ".join(f"{q} {p}" for q, p in r.priority_by_queue))
    if r.log:
        lines.append("YuniKorn's allocation log: " + "; ".join(r.log))
    outside = sum(1 for c in r.candidates if not _in_scope(r, c))
    if outside:
        lines.append(f"{outside} running task{'s' if outside != 1 else ''} outside the fence root (never candidates)")
    return lines


def _rich(result, asks, width, color) -> str:
    from rich.markup import escape
    from rich.tree import Tree

    from prio.render.printable import Console, printable

    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color, highlight=False, emoji=False)
    for n, r in enumerate(asks):
        if n:
            con.print()
        style = {"preempted": "bold yellow", "allocated": "bold green"}.get(r.outcome, "bold red")
        con.print(f"[{style}]{escape(printable(headline(r)))}[/]", soft_wrap=True)  # one line: a name's line break written out
        if r.outcome == "allocated" and r.fits_now:
            continue
        for line in _details(r):
            con.print("  " + escape(printable(line)), soft_wrap=True)
        rank = _victim_rank(r)
        prio_at = dict(r.priority_by_queue)
        tree = Tree(escape(printable(f"{r.fence_root}  (fence root; ask priority here {prio_at.get(r.fence_root)})")))
        nodes = {r.fence_root: tree}

        def branch(path: str, nodes=nodes, r=r, prio_at=prio_at):  # this iteration's tree
            if path in nodes:
                return nodes[path]
            parent = branch(path.rsplit(".", 1)[0])
            label = path.rsplit(".", 1)[1]
            if path == r.queue:
                label += f"  (the ask's queue; ask priority {prio_at.get(path)})"
            elif path in prio_at:
                label += f"  (ask priority here {prio_at[path]})"
            nodes[path] = parent.add(escape(printable(label)))
            return nodes[path]

        if r.queue != r.fence_root:
            branch(r.queue)
        for c in sorted((c for c in r.candidates if _in_scope(r, c)), key=lambda c: (c.queue, rank.get(c.id, 1 << 30), c.id)):
            mark = _mark(r, c, rank)
            sym = {"candidate": "[cyan]o[/]"}.get(mark, "[yellow]x[/]" if mark.startswith("victim") else "[dim]-[/]")
            text = escape(printable(f"{c.id}  P{c.priority}  {c.node}  {mark}: {c.why}"))
            branch(c.queue).add(f"{sym} {text}")  # the fence root is the tree itself (nodes[fence_root])
        con.print(tree)
    con.print()
    con.print("Legend: x victim (in YuniKorn's order), o candidate not needed, - not eligible. "
              "Each pending ask on its own in the state of the snapshot; prio simulate runs these preemptions inside the scheduling order (with nodes).", soft_wrap=True)
    return buf.getvalue()


def _tabular(result, asks, tablefmt) -> str:
    from prio.render.align import grid
    from prio.render.printable import cell

    out = []
    md = tablefmt == "github"
    for n, r in enumerate(asks):
        if n:
            out.append("")
        out.append(("### " if md else "") + cell(headline(r), tablefmt))  # escaped as a table's cells are
        if r.outcome == "allocated" and r.fits_now:
            continue
        out.append("")
        for line in _details(r):
            out.append(("- " if md else "  ") + cell(line, tablefmt))
        rank = _victim_rank(r)
        rows = [(c.id, c.application, c.queue, c.node, c.priority, "" if c.compared_with is None else c.compared_with,
                 _mark(r, c, rank), c.why)
                for c in sorted((c for c in r.candidates if _in_scope(r, c)), key=lambda c: (rank.get(c.id, 1 << 30), c.queue, c.id))]
        if rows:
            out.append("")
            out.append(grid(rows, ("task", "application", "queue", "node", "priority", "ask priority there", "verdict", "why"), tablefmt))
    out.append("")
    out.append("Each pending ask on its own in the state of the snapshot; prio simulate runs these preemptions inside the scheduling order (with nodes).")
    return "\n".join(out) + "\n"
