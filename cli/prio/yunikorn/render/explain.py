"""Rendering the priority tree: rich (table), tabulate (plain, markdown), json."""
from __future__ import annotations

import io
import json
import operator

from prio.render.jsontext import _SAFE, jstr
from prio.render.printable import for_terminal
from prio.yunikorn.explain import show_priority

NO_ASKS = "No pending asks: every queue has no priority (n/a)."
# The ask list is a static view: the caveat goes under it in every human format.
CAVEAT = "Priorities change as asks are placed: `prio simulate` shows the real order."


def _vector(vec) -> str:
    return " > ".join(f"{p.rsplit('.', 1)[-1]} {show_priority(v)}" for p, v in vec)


def _sort(r) -> str:
    if r.leaf:
        return f"{r.sort_policy}, priority {'on' if r.sort_priority else 'off'}"
    return f"children: {'priority' if r.sort_priority else 'fair share'} first"


@for_terminal
def render(fmt: str, rows, asks, ranges=None, width: int = 120, total: int | None = None, color: bool = False, rejected=()):
    """Yields the output in chunks (a million asks stream rather than build one string).
    `rejected`: applications YuniKorn would refuse to place (their asks are nowhere else)."""
    if fmt == "json":
        yield from _json(rows, asks, ranges, rejected)
    elif fmt == "table":
        yield _rich(rows, asks, ranges, width, total, color)
        if rejected:
            yield _rich_rejected(rejected, width, color)
    else:
        yield _tabular(rows, asks, ranges, "github" if fmt == "markdown" else "plain", total)
        if rejected:
            yield _tabular_rejected(rejected, "github" if fmt == "markdown" else "plain")


def _rejected_rows(rejected):
    return [(r.queue, r.application, r.reason.replace("\n", "; ")) for r in rejected]


def _tabular_rejected(rejected, tablefmt: str) -> str:
    from prio.render.align import grid

    h = "## " if tablefmt == "github" else ""
    return (f"\n{h}Rejected applications (no placement rule places them: none of their asks is scheduled)\n"
            + grid(_rejected_rows(rejected), ("queue", "application", "reason"), tablefmt) + "\n")


def _rich_rejected(rejected, width, color=False) -> str:
    from rich.markup import escape
    from rich.table import Table

    from prio.render.printable import Console
    from prio.yunikorn.render.paths import DottedPath

    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                  color_system="standard" if color else None, highlight=False, emoji=False)
    t = Table(title="Rejected applications (no placement rule places them: none of their asks is scheduled)", title_justify="left")
    for c in ("queue", "application", "reason"):
        t.add_column(c, overflow="fold")
    for row in _rejected_rows(rejected):
        t.add_row(DottedPath(row[0]), *(escape(x) for x in row[1:]))
    from prio.yunikorn.render import fit

    con.print()
    con.print(fit.fitted(con, t, [fit.PATH, fit.ID, fit.TEXT]))
    return buf.getvalue()


_ID = operator.attrgetter("id")
_PRIORITY = operator.attrgetter("priority")


def _json(rows, groups, ranges, rejected=()):
    """`groups`: (application id, queue, vector, [asks]) as explain.iter_ask_groups gives them.
    A million asks: each is four pre-built pieces (the head, its id, the application, the tail
    for its queue and priority) laid out in one list per application and joined at C speed."""
    dumps = json.dumps
    yield '{"queues": [\n  ' + ",\n  ".join(dumps(r.to_json()) for r in rows) + '\n ],\n "asks": ['
    tails: dict = {}  # queue -> {priority: the JSON after the application}, each built once
    first = True
    safe = _SAFE.fullmatch
    for app, queue, vec, asks in groups:
        if not asks:
            continue
        ids = list(map(_ID, asks))
        prios = list(map(_PRIORITY, asks))
        by_prio = tails.get(queue)
        if by_prio is None:
            by_prio = tails[queue] = {}
        try:
            tail = list(map(by_prio.__getitem__, prios))
        except KeyError:  # a priority not seen in this queue yet
            fmt = by_prio.get("fmt")
            if fmt is None:  # the queue and its vector, once per queue
                fmt = by_prio["fmt"] = ', "queue": %s, "priority": %%d, "queuePriorities": %s}' % (
                    dumps(queue).replace("%", "%%"), dumps([{"queue": q, "priority": x} for q, x in vec]).replace("%", "%%"))
            for p in prios:
                if p not in by_prio:
                    by_prio[p] = fmt % p
            tail = list(map(by_prio.__getitem__, prios))
        app_json = ', "application": ' + jstr(app)
        # one match for all of an application's ask ids: the pattern is a run of safe characters
        if safe("".join(ids)):
            pieces = [',\n  {"ask": "', None, '"' + app_json, None] * len(ids)
            pieces[1::4] = ids
        else:
            pieces = [',\n  {"ask": ', None, app_json, None] * len(ids)
            pieces[1::4] = map(jstr, ids)
        pieces[3::4] = tail
        if first:
            pieces[0] = pieces[0][1:]  # no comma before the first ask
            first = False
        yield "".join(pieces)
    yield "\n ]"
    if ranges is not None:
        yield ',\n "priorityClasses": ' + dumps(ranges)
    if rejected:
        yield ',\n "rejected": [' + ",".join("\n  " + dumps({"application": r.application, "queue": r.queue, "reason": r.reason})
                                             for r in rejected) + "\n ]"
    yield "\n}\n"


def _more(total, shown) -> str:
    if total is not None and total > shown:
        return f"\n... {total - shown} more pending asks (use --limit, or -o json for all)\n"
    return ""


def _tabular(rows, asks, ranges, tablefmt: str, total=None) -> str:
    from prio.render.align import grid

    q = [(r.queue, show_priority(r.priority), r.offset, "fence" if r.fenced else "", _sort(r), r.pending_asks,
          "; ".join(r.notes)) for r in rows]
    out = []
    h = "## " if tablefmt == "github" else ""
    out.append(f"{h}Queues\n")
    out.append(grid(q, ("queue", "priority", "offset", "fence", "sorting", "pending", "notes"), tablefmt))
    out.append(f"\n\n{h}Pending asks in the order they are considered now\n")
    if not asks:  # none pending, or --limit 0 left them all out (then it says how many)
        out.append(_more(total, 0).strip() or NO_ASKS)
    else:
        a = [(i, x.queue, x.application, x.ask, x.priority, _vector(x.vector)) for i, x in enumerate(asks, 1)]
        out.append(grid(a, ("#", "queue", "application", "ask", "priority", "queue priorities (root first)"), tablefmt))
        sep = "\n\n" if tablefmt == "github" else "\n"  # markdown: a line right under a table joins it
        tail = [_more(total, len(asks)).strip(), CAVEAT if tablefmt == "github" else CAVEAT.replace("`", "")]
        out.append(sep + sep.join(t for t in tail if t))
    if ranges:
        out.append(f"\n\n{h}PriorityClasses per queue (what the queue reports for a pod of the class)\n")
        out.append(grid([(x["queue"], x["class"], x["value"], x["min"], x["max"]) for x in ranges],
                        ("queue", "class", "value", "min", "max"), tablefmt))
    return "".join(out) + "\n"


def _rich(rows, asks, ranges, width, total=None, color=False) -> str:
    from rich.markup import escape
    from rich.table import Table
    from rich.tree import Tree

    from prio.render.printable import Console
    from prio.yunikorn.render.paths import DottedPath

    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                  color_system="standard" if color else None, highlight=False, emoji=False)
    nodes = {}
    root_tree = None
    for r in rows:
        prio = f"[bold cyan]{show_priority(r.priority)}[/]" if r.priority is not None else "[dim]n/a[/]"
        label = f"[bold]{escape(r.queue.rsplit('.', 1)[-1])}[/]  priority {prio}"
        if r.offset:
            label += f"  offset {r.offset:+d}"
        if r.fenced:
            label += "  [magenta]fence[/]"
        label += f"  ({escape(_sort(r))})"
        if r.pending_asks:
            label += f"  {r.pending_asks} pending"
        if r.dynamic:
            label += "  [dim]dynamic[/]"
        for n in r.notes:
            label += f"\n[yellow]! {escape(n)}[/]"
        parent = r.queue.rsplit(".", 1)[0] if "." in r.queue else None
        if root_tree is None:
            root_tree = Tree(label)
            nodes[r.queue] = root_tree
        else:
            nodes[r.queue] = nodes.get(parent, root_tree).add(label)
    if root_tree is not None:
        con.print(root_tree)
    if not asks:  # none pending (or --limit 0): the PriorityClass ranges below still belong to the answer
        con.print()
        if _more(total, 0):
            con.print(escape(_more(total, 0).strip()))
        else:
            con.print(NO_ASKS, style="dim")
    else:
        _rich_asks(con, asks, total)
    if ranges:
        # numbers as wide as the widest (no wider); class names whole and queue paths folded at
        # their dots: in the boxed table when it fits so, else with columns a space apart, else
        # one record per row (prio.yunikorn.render.fit)
        rt = Table(title="PriorityClasses per queue", title_justify="left")
        for c in ("queue", "class", "value", "min", "max"):
            rt.add_column(c, overflow="fold", justify="right" if c in ("value", "min", "max") else "left")
        for x in ranges:
            rt.add_row(DottedPath(x["queue"]), escape(x["class"]), str(x["value"]), str(x["min"]), str(x["max"]))
        from prio.yunikorn.render import fit

        con.print()
        con.print(fit.fitted(con, rt, [fit.PATH, fit.ID, fit.NUM, fit.NUM, fit.NUM], whole_ids=True))
    return buf.getvalue()


def _rich_asks(con, asks, total) -> None:
    from rich.markup import escape
    from rich.table import Table

    from prio.yunikorn.render import fit
    from prio.yunikorn.render.paths import DottedPath

    t = Table(title="Pending asks in the order they are considered now", title_justify="left", expand=False)
    t.add_column("#", justify="right", no_wrap=True, min_width=len(str(len(asks))))
    t.add_column("queue", overflow="fold", ratio=3)
    t.add_column("application", overflow="fold", ratio=2)
    t.add_column("ask", overflow="fold", ratio=2)
    t.add_column("priority", justify="right", no_wrap=True, min_width=max((len(str(x.priority)) for x in asks), default=8))
    t.add_column("queue priorities (root first)", overflow="fold", ratio=3)
    for i, x in enumerate(asks, 1):
        t.add_row(str(i), DottedPath(x.queue), escape(x.application), escape(x.ask), str(x.priority), escape(_vector(x.vector)))
    con.print()
    con.print(fit.fitted(con, t, [fit.NUM, fit.PATH, fit.ID, fit.ID, fit.NUM, fit.TEXT], prose=0))
    if _more(total, len(asks)):
        con.print(escape(_more(total, len(asks)).strip()))
    con.print(f"[dim]{CAVEAT}[/]")


def render_lines(fmt: str, doc: dict, lines: list) -> str:
    """An answer in lines (--why, --why-ask): the document in json, else the lines, each
    printable (a queue or ask name never starts a line of its own)."""
    if fmt == "json":
        return json.dumps(doc, indent=2) + "\n"
    from prio.render.printable import printable

    return printable("\n".join(lines), lines=True) + "\n"
