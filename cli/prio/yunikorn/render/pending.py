"""Rendering `prio explain --pending`: reason code -> how many asks, per queue, the first few asks
(like Slurm's pending reasons). Renderers return strings."""
from __future__ import annotations

import io
import json

from prio.render.printable import for_terminal


def to_json(groups, placed: int, total: int) -> dict:
    return {
        "placed": placed,
        "pending": total,
        "reasons": [{"code": g.code, "words": g.words, "asks": g.count,
                     "queues": [{"queue": q.queue, "asks": q.count, "words": q.words,
                                 "first": [{"ask": p.ask, "application": p.application, "priority": p.priority,
                                            "reason": p.reason.detail} for p in q.first]}
                                for q in g.queues]}
                    for g in groups],
    }


def _headline(placed: int, total: int) -> str:
    if not total and not placed:
        return "Nothing to schedule: no pending asks."  # as simulate says it
    if not total:
        return f"Every pending ask is placed ({placed} in the simulated order): nothing waits."
    return f"{total} ask{'s' if total != 1 else ''} not placed ({placed} placed in the simulated order)."


def _first(q) -> str:
    shown = ", ".join(f"{p.application}/{p.ask}" for p in q.first)
    more = q.count - len(q.first)
    return shown + (f" (+{more} more)" if more > 0 else "")


@for_terminal
def render(fmt: str, groups, placed: int, total: int, width: int = 120, color: bool = False) -> str:
    if fmt == "json":
        return json.dumps(to_json(groups, placed, total), indent=2) + "\n"
    if fmt == "table":
        return _rich(groups, placed, total, width, color)
    return _tabular(groups, placed, total, "github" if fmt == "markdown" else "plain")


def _tabular(groups, placed, total, tablefmt) -> str:
    from prio.render.align import grid

    h = "## " if tablefmt == "github" else ""
    out = [_headline(placed, total) + "\n"]
    if not groups:
        return out[0]
    out.append(f"\n{h}Pending reasons\n")
    out.append(grid([(g.code, g.count, g.words) for g in groups], ("code", "asks", "reason"), tablefmt))
    out.append(f"\n\n{h}Per queue\n")
    rows = [(g.code, q.queue, q.count, q.words, _first(q)) for g in groups for q in g.queues]
    out.append(grid(rows, ("code", "queue", "asks", "why", "first asks"), tablefmt))
    return "".join(out) + "\n"


def _rich(groups, placed, total, width, color) -> str:
    from rich.markup import escape
    from rich.table import Table

    from prio.render.printable import Console
    from prio.yunikorn.render.paths import DottedPath

    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                  color_system="standard" if color else None, highlight=False, emoji=False)
    con.print(_headline(placed, total), markup=False)
    if not groups:
        return buf.getvalue()
    t = Table(title="Pending reasons", title_justify="left")
    t.add_column("code", no_wrap=True)
    t.add_column("asks", justify="right", no_wrap=True)
    t.add_column("reason", overflow="fold")
    for g in groups:
        t.add_row(f"[bold]{escape(g.code)}[/]", str(g.count), escape(g.words))
    from prio.yunikorn.render import fit

    con.print()
    con.print(fit.fitted(con, t, [fit.ID, fit.NUM, fit.TEXT]))
    q = Table(title="Per queue", title_justify="left")
    q.add_column("code", no_wrap=True)
    q.add_column("queue", overflow="fold", ratio=2)
    q.add_column("asks", justify="right", no_wrap=True)
    q.add_column("why", overflow="fold", ratio=3)
    q.add_column("first asks", overflow="fold", ratio=2)
    for g in groups:
        for x in g.queues:
            q.add_row(escape(g.code), DottedPath(x.queue), str(x.count), escape(x.words), escape(_first(x)))
    con.print()
    con.print(fit.fitted(con, q, [fit.ID, fit.PATH, fit.NUM, fit.TEXT, fit.TEXT]))
    return buf.getvalue()
