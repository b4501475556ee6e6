"""Rendering a simulation: rich (table), tabulate (plain, markdown), json.

Renderers yield string chunks, so a million steps stream instead of building one huge string."""
from __future__ import annotations

import io
import json

from prio.render.jsontext import jstr
from prio.render.printable import for_terminal
from prio.yunikorn.reasons import classify, predicate_fields
from prio.yunikorn.step import HAND_OVER


def short(path: str) -> str:
    return path.rsplit(".", 1)[-1]


def _show(v):
    return "n/a" if v is None else str(v)


def changes_text(changes) -> str:
    """Like the user docs' table: `system-high: 1001 -> n/a, system: 1001 -> 10`."""
    return ", ".join(f"{short(q)}: {_show(a)} -> {_show(b)}" for q, a, b in changes)


TIE_MARK = "*"
NOTE_MARK = "!"


def marks(s) -> str:
    """The marks of a step: `*` a choice Go's map order makes in YuniKorn, `!` the fair-max defect."""
    return (TIE_MARK if s.tie else "") + (NOTE_MARK if s.note else "")


def footnotes(steps) -> list[str]:
    """What the marks after step numbers mean (first: a long list of marked steps must not hide
    it, and only the marks shown), then one line per marked step (ties name what was tied)."""
    out = []
    for s in steps:
        if s.tie:
            # what prio takes where Go's map order decides: the name, but for the shim's hand-over
            # of identical placeholders the snapshot's order (they have no name order of their own)
            taken = "the snapshot's order" if all(isinstance(x, tuple) and x[0] == HAND_OVER for x in s.tie) else "the name"
            out.append(f"{TIE_MARK} step {s.step}: tied, YuniKorn leaves the order to Go's map order (prio takes {taken}): " + "; ".join(map(str, s.tie)))
        if s.note:
            out.append(f"{NOTE_MARK} step {s.step}: {s.note}")
    legend = []
    if any(s.tie for s in steps):
        legend.append(f"{TIE_MARK} a tie: the real scheduler may take another order here")
    if any(s.note for s in steps):
        legend.append(f"{NOTE_MARK} YuniKorn's queue sort compares against another sibling's fair max (a defect in "
                      "sortQueuesByPriorityAndFairness worth reporting upstream)")
    return ([f"Marks after a step number ({'8' + TIE_MARK if any(s.tie for s in steps) else '8' + NOTE_MARK}, ...): " + "; ".join(legend) + "."] if legend else []) + out


def preemption_rows(rec) -> list:
    """(before step, ask, application, queue, node, victims, note) per preemption inside the run."""
    out = []
    for p in rec.preemptions:
        note = p.warning or ("victims tie with other tasks: Go's map order chose" if p.tie else "")
        out.append((str(p.step), p.ask, p.application, p.queue, p.node, ", ".join(p.victims), note))
    return out


PREEMPTION_HEAD = ("before step", "ask", "application", "queue", "node", "victims (in YuniKorn's order)", "note")


def gang_cell(view, n: int) -> str:
    """A step's gang column: `placeholder GROUP`, `GROUP, replaces ID` or the task group."""
    g = view.steps.get(n) if view is not None else None
    if g is None:
        return ""
    placeholder, group, replaces = g
    if placeholder:
        return f"placeholder {group}"
    return f"{group}, replaces {replaces}" if replaces else group


def gang_event_rows(view) -> list:
    """(before step, application, queue, what happened) per placeholder release or timeout."""
    out = []
    for e in view.events if view is not None else ():
        b = e.body
        if e.kind == "timeout":
            what = f"{b['style']} timeout ({b['phase']}) at {b['at']} s"
            if b["released"]:
                what += ": released " + ", ".join(b["released"])
            if b["cancelled"]:
                what += ("; " if b["released"] else ": ") + "cancelled " + ", ".join(b["cancelled"])
        else:
            what = f"task group {b['taskGroup']}: a real pod is larger than its placeholders, released " + ", ".join(b["placeholders"])
        out.append((str(e.step), b["application"], b["queue"], what))
    return out


GANG_EVENT_HEAD = ("before step", "application", "queue", "what happened")
GANG_HEAD = ("application", "state", "real pods sent", "placeholders pending", "placeholders held", "timeout at")


def gang_rows(view) -> list:
    """One row per gang application: the corpus's `gangs` summary."""
    return [(g["application"], g["state"], "yes" if g["realAsksSent"] else "no", ", ".join(g["placeholdersPending"]) or "-",
             ", ".join(g["placeholdersHeld"]) or "-", "-" if g["timeoutAt"] is None else f"{g['timeoutAt']} s")
            for g in view.summary] if view is not None else []


def rejected_rows(rec):
    return [(r.queue, r.application, r.reason.replace("\n", "; ")) for r in rec.rejected]


@for_terminal
def render(fmt, rec, width: int = 120, limit: int | None = None, color: bool = False, stopped: str = ""):
    """`rec`: the run's record (prio.yunikorn.records.Simulation). `limit` caps the step rows of
    the human formats (json always has every step); `stopped`: the line that says --steps ended
    the run with asks still pending."""
    steps, unscheduled = rec.steps, rec.unscheduled
    if fmt == "json":
        yield from _json(steps, unscheduled, rec.rejected, rec.step_nodes, rec.tied_leftovers, rec.preemptions, rec.gangs)
        return
    if not steps and stopped and not unscheduled and not rejected_rows(rec):  # --steps 0: not "nothing to schedule"
        yield stopped + "\n"
        return
    if not steps and not unscheduled and not rejected_rows(rec):
        yield "Nothing to schedule: no pending asks.\n"
        return
    shown = steps if limit is None else steps[:limit]
    more = (f"... {len(steps) - len(shown)} more step{'s' if len(steps) - len(shown) != 1 else ''} (--limit N to see more, -o json for all)\n"
            if len(shown) < len(steps) else "")
    if stopped:
        more += stopped + "\n"
    if fmt == "table":
        yield _rich(shown, unscheduled, rec, width, more, color)
    else:
        yield _tabular(shown, unscheduled, rec, "github" if fmt == "markdown" else "plain", more)


def _preemption_json(p) -> str:
    """A preemption inside the run, as the steps list carries it: {"step": N, "preemption": {...}}."""
    body = {"ask": p.ask, "application": p.application, "queue": p.queue, "node": p.node, "victims": list(p.victims)}
    if p.warning:
        body["warning"] = p.warning
    return json.dumps({"step": p.step, "preemption": body, **({"tie": True} if p.tie else {})})




def _event_json(e) -> str:
    return json.dumps({"step": e.step, e.kind: e.body})


def _gang_fields(g) -> str:
    """A step's gang fields in JSON (after its node), from GangView.steps' entry."""
    placeholder, group, replaces = g
    out = ', "placeholder": true' if placeholder else ""
    if group:
        out += ', "taskGroup": ' + json.dumps(group)
    if replaces:
        out += ', "replaces": ' + json.dumps(replaces)
    return out


def _json(steps, unscheduled, rejected=(), step_nodes=None, tied=None, preemptions=None, gangs=None):
    """`step_nodes`: step number -> the node it placed on, when nodes are modelled; `tied`:
    (application, ask) of unscheduled asks whose reservation after the last step was a tied
    choice (they carry "tie": true); `gangs`: the GangView of a run with gang applications."""
    dumps = json.dumps
    yield '{"steps": ['
    sep = "\n  "
    memo: dict = {}  # queue paths and application ids repeat: their JSON once each
    batch: list = []  # steps are yielded a few thousand at a time: a million yields cost more
    out = batch.append
    # in the order they happened, each before its step
    pending = [(p.step, _preemption_json, p) for p in preemptions or ()]
    if gangs is not None:
        pending = sorted(pending + [(e.step, _event_json, e) for e in gangs.events], key=lambda t: t[0])
    gang_steps = gangs.steps if gangs is not None else None
    for n, queue, app, ask, priority, changes, tie, note in steps:  # a Step, unpacked: no attribute lookups
        while pending and pending[0][0] <= n:
            _, show, p = pending.pop(0)
            out(sep + show(p))
            sep = ",\n  "
        q = memo.get(queue)
        if q is None:
            q = memo[queue] = jstr(queue)
        a = memo.get(app)
        if a is None:
            a = memo[app] = jstr(app)
        if not changes and not note:  # most steps
            ch = '], "tie": true' if tie else "]"
        else:
            parts = []
            for path, old, to in changes:
                p = memo.get(path)
                if p is None:
                    p = memo[path] = jstr(path)
                parts.append('{"queue": %s, "from": %s, "to": %s}' % (p, "null" if old is None else old, "null" if to is None else to))
            ch = ", ".join(parts) + "]" + (', "tie": true' if tie else "") + (', "note": ' + jstr(note) if note else "")
        if step_nodes:
            ch += ', "node": ' + jstr(step_nodes.get(n, ""))
        if gang_steps and n in gang_steps:
            ch += _gang_fields(gang_steps[n])
        out('%s{"step": %d, "queue": %s, "application": %s, "ask": %s, "priority": %d, "changes": [%s}' % (
            sep, n, q, a, jstr(ask), priority, ch))
        sep = ",\n  "
        if len(batch) >= 4096:
            yield "".join(batch)
            batch.clear()
    for _, show, p in pending:  # after the last allocation
        out(sep + show(p))
        sep = ",\n  "
    yield "".join(batch)
    yield '\n ],\n "unscheduled": ['
    sep = "\n  "
    for u in unscheduled:
        why = classify(u.reason)
        entry = {"ask": u.ask, "application": u.application, "queue": u.queue, "priority": u.priority, "reason": u.reason, "code": why.code,
                 **predicate_fields(why)}
        if tied and (u.application, u.ask) in tied:
            entry["tie"] = True
        if gangs is not None and (u.application, u.ask) in gangs.placeholders:
            entry["placeholder"] = True
        yield sep + dumps(entry)
        sep = ",\n  "
    yield "\n ]"
    if gangs is not None:
        yield ',\n "gangs": [' + ",".join("\n  " + dumps(g) for g in gangs.summary) + "\n ]"
    if rejected:
        yield ',\n "rejected": [' + ",".join("\n  " + dumps({"application": r.application, "queue": r.queue, "reason": r.reason})
                                             for r in rejected) + "\n ]"
    yield "\n}\n"


def _tabular(steps, unscheduled, rec, tablefmt, more=""):
    from prio.render.align import grid

    h = "## " if tablefmt == "github" else ""
    out = [f"{h}Scheduling order\n"]
    if not steps and not more:  # (more: --limit 0 or --steps 0 hid them, and says so below)
        out.append("Nothing was placed: no pending ask fits (see Unscheduled below).")
    elif steps:
        nodes = rec.step_nodes
        view = rec.gangs
        if view is not None:  # gangs: each step's placeholder, task group and what it replaces
            out.append(grid([(f"{s.step}{marks(s)}", s.queue, s.application, s.ask, f"P{s.priority}", nodes.get(s.step, "") if nodes else "",
                              gang_cell(view, s.step), changes_text(s.changes)) for s in steps],
                            ("step", "queue", "application", "ask", "priority", "node", "gang", "priority changes"), tablefmt))
        elif nodes:  # nodes are modelled: where each ask goes
            out.append(grid([(f"{s.step}{marks(s)}", s.queue, s.application, s.ask, f"P{s.priority}", nodes.get(s.step, ""), changes_text(s.changes)) for s in steps],
                            ("step", "queue", "application", "ask", "priority", "node", "priority changes"), tablefmt))
        else:
            out.append(grid([(f"{s.step}{marks(s)}", s.queue, s.application, s.ask, f"P{s.priority}", changes_text(s.changes)) for s in steps],
                            ("step", "queue", "application", "ask", "priority", "priority changes"), tablefmt))
    notes = footnotes(steps)
    if notes:
        out.append("\n\n" + "\n".join(notes))
    if more:
        out.append(("\n" if steps else "") + more.rstrip("\n"))
    if preemption_rows(rec):
        out.append(f"\n\n{h}Preemptions\n")
        out.append(grid(preemption_rows(rec), PREEMPTION_HEAD, tablefmt))
    view = rec.gangs
    if gang_event_rows(view):
        out.append(f"\n\n{h}Placeholder releases and timeouts\n")
        out.append(grid(gang_event_rows(view), GANG_EVENT_HEAD, tablefmt))
    if gang_rows(view):
        out.append(f"\n\n{h}Gangs\n")
        out.append(grid(gang_rows(view), GANG_HEAD, tablefmt))
    if rec.placed:
        out.append(f"\n\n{h}Per queue\n")
        out.append(grid(rec.placed, ("queue", "placed", "first step", "last step"), tablefmt))
    if unscheduled:
        out.append(f"\n\n{h}Unscheduled\n")
        out.append(grid([(u.queue, u.application, u.ask, f"P{u.priority}", classify(u.reason).code, u.reason) for u in unscheduled],
                        ("queue", "application", "ask", "priority", "code", "reason"), tablefmt))
    rejected = rejected_rows(rec)
    if rejected:
        out.append(f"\n\n{h}Rejected applications\n")
        out.append(grid(rejected, ("queue", "application", "reason"), tablefmt))
    return "".join(out) + "\n"


def _rich(steps, unscheduled, rec, width, more="", color=False):
    from rich.markup import escape
    from rich.table import Table

    from prio.render.printable import Console
    from prio.yunikorn.render import fit
    from prio.yunikorn.render.paths import DottedPath

    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                  color_system="standard" if color else None, highlight=False, emoji=False)
    if not steps and not more:
        con.print("Nothing was placed: no pending asks" + (", or none fits (see below)." if unscheduled else "."), style="dim")
    t = Table(title="Scheduling order", title_justify="left")
    # Numbers never wrap or get cut; text columns fold instead of ending in "…".
    t.add_column("step", justify="right", no_wrap=True, min_width=max((len(f"{s.step}{marks(s)}") for s in steps), default=1))
    t.add_column("queue", overflow="fold", ratio=3)
    t.add_column("application", overflow="fold", ratio=2)
    t.add_column("ask", overflow="fold", ratio=2)
    t.add_column("priority", justify="right", no_wrap=True, min_width=max((len(f"P{s.priority}") for s in steps), default=8))
    nodes = rec.step_nodes
    view = rec.gangs
    if nodes:  # nodes are modelled: where each ask goes
        t.add_column("node", overflow="fold", ratio=1)
    if view is not None:
        t.add_column("gang", overflow="fold", ratio=2)
    t.add_column("priority changes", overflow="fold", ratio=3)
    for s in steps:
        cells = [f"{s.step}{marks(s)}", DottedPath(s.queue), escape(s.application), escape(s.ask), f"[bold cyan]P{s.priority}[/]"]
        if nodes:
            cells.append(escape(nodes.get(s.step, "")))
        if view is not None:
            cells.append(escape(gang_cell(view, s.step)))
        t.add_row(*cells, "\n".join(f"{escape(short(q))}: {_show(a)} -> " + ("[dim]n/a[/]" if b is None else str(b)) for q, a, b in s.changes))
    if steps:
        con.print(fit.fitted(con, t, [fit.NUM, fit.PATH, fit.ID, fit.ID, fit.NUM, *([fit.ID] if nodes else []),
                                      *([fit.TEXT] if view is not None else []), fit.TEXT], prose=0))
        for line in footnotes(steps):
            con.print(line, markup=False, style="dim")
    if more:
        con.print(more.rstrip("\n"), markup=False)
    if preemption_rows(rec):
        pt = Table(title="Preemptions", title_justify="left")
        for c in PREEMPTION_HEAD:
            pt.add_column(c, overflow="fold", justify="right" if c == "before step" else "left", no_wrap=c == "before step")
        rows = preemption_rows(rec)
        for row in rows:
            pt.add_row(*(escape(x) for x in row))
        con.print()
        con.print(fit.fitted(con, pt, fit.kinds_of(PREEMPTION_HEAD, rows)))
    for title, head, rows in (("Placeholder releases and timeouts", GANG_EVENT_HEAD, gang_event_rows(view)),
                              ("Gangs", GANG_HEAD, gang_rows(view))):
        if rows:
            gt = Table(title=title, title_justify="left")
            for c in head:
                gt.add_column(c, overflow="fold")
            for row in rows:
                gt.add_row(*(escape(x) for x in row))
            con.print()
            con.print(fit.fitted(con, gt, fit.kinds_of(head, rows)))
    st = Table(title="Per queue", title_justify="left")
    for c in ("queue", "placed", "first step", "last step"):
        st.add_column(c, overflow="fold", justify="left" if c == "queue" else "right", no_wrap=c != "queue")
    for row in rec.placed:
        st.add_row(DottedPath(row[0]), *(str(x) for x in row[1:]))
    if st.row_count:
        con.print()
        con.print(fit.fitted(con, st, [fit.PATH, fit.NUM, fit.NUM, fit.NUM]))
    if unscheduled:
        ut = Table(title="Unscheduled", title_justify="left")
        for c in ("queue", "application", "ask", "priority", "code", "reason"):
            ut.add_column(c, overflow="fold", justify="right" if c == "priority" else "left", no_wrap=c == "priority")
        for u in unscheduled:
            ut.add_row(DottedPath(u.queue), escape(u.application), escape(u.ask), f"P{u.priority}", classify(u.reason).code, escape(u.reason))
        con.print()
        con.print(fit.fitted(con, ut, [fit.PATH, fit.ID, fit.ID, fit.NUM, fit.ID, fit.TEXT]))
    rejected = rejected_rows(rec)
    if rejected:
        rt = Table(title="Rejected applications", title_justify="left")
        for c in ("queue", "application", "reason"):
            rt.add_column(c, overflow="fold")
        for row in rejected:
            rt.add_row(DottedPath(row[0]), *(escape(x) for x in row[1:]))
        con.print()
        con.print(fit.fitted(con, rt, [fit.PATH, fit.ID, fit.TEXT]))
    return buf.getvalue()
