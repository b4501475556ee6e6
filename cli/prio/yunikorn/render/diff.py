"""Rendering `prio diff`: json (the contract), plain and markdown (tabulate; markdown is made for
a pull-request comment: a summary line, then collapsible <details> blocks) and table (rich).
Renderers return strings."""
from __future__ import annotations

import io
import json

from prio.render.printable import for_terminal
from prio.yunikorn.quantity import show_quantity
from prio.yunikorn.reasons import classify, predicate_fields

ROWS = 200  # rows per section in the human formats (a pull-request comment has a size limit)


def _prio(v) -> str:
    return "n/a" if v is None else str(v)


def _step(v) -> str:
    return "not placed" if v is None else str(v)


def _move(m) -> str:
    if m.before is None:
        return "now placed"
    if m.after is None:
        return "no longer placed"
    d = m.after - m.before
    return f"+{d} (later)" if d > 0 else f"{d} (earlier)"


def _value(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict):
        return ", ".join(f"{k} {show_quantity(k, x)}" for k, x in v.items()) or "-"
    if isinstance(v, tuple):
        lo, hi = v
        return _prio(lo) if lo == hi else f"{_prio(lo)}..{_prio(hi)}"
    return str(v)


def _finding_json(f) -> dict:
    return f.to_json() if hasattr(f, "to_json") else dict(f)


def _config_json(c) -> dict:
    def j(v):
        return list(v) if isinstance(v, tuple) else v

    return {"queue": c.queue, "field": c.field, "before": j(c.before), "after": j(c.after)}


def to_json(d) -> dict:
    """The contract's four keys, then what prio adds: rejected applications and config changes."""
    def un(u):
        return {"ask": u.ask, "application": u.application, "queue": u.queue, "code": u.code, "reason": u.reason,
                **predicate_fields(classify(u.reason))}  # the nodes the predicates refuse it on, if any

    def rej(r):
        return {"application": r.application, "queue": r.queue, "code": r.code, "reason": r.reason}

    return {
        "queues": [{"queue": q.queue, "before": q.before, "after": q.after} for q in d.queues],
        "asks": [{"ask": m.ask, "application": m.application, "queue": m.queue, "stepBefore": m.before,
                  "stepAfter": m.after} for m in d.asks],
        "unscheduled": {"added": [un(u) for u in d.unscheduled_added], "removed": [un(u) for u in d.unscheduled_removed]},
        "findings": {"added": [_finding_json(f) for f in d.findings_added],
                     "removed": [_finding_json(f) for f in d.findings_removed]},
        "rejected": {"added": [rej(r) for r in d.rejected_added], "removed": [rej(r) for r in d.rejected_removed]},
        "config": [_config_json(c) for c in d.config],
        "unscheduledReasons": [{"ask": b.ask, "application": b.application, "queue": b.queue, "before": a.code,
                                "after": b.code, "reason": b.reason} for a, b in d.reasons_changed],
        "quotaPreemption": _quota_json(d.quota),
        **({"gangs": [{"application": g.application, "before": _gang_json(g.before), "after": _gang_json(g.after)}
                      for g in d.gangs]} if getattr(d, "gangs", None) else {}),
    }


def _gang_json(s):
    if s is None:
        return None
    return {"state": s.state, "realAsksSent": s.real_sent, "placeholdersHeld": s.held, "placeholdersPending": s.pending}


def _gang_cell(s) -> str:
    if s is None:
        return "-"
    return f"{s.state}, real pods {'sent' if s.real_sent else 'held'}, {s.held} held, {s.pending} pending"


def _quota_json(q):
    if q is None:
        return None
    from prio.yunikorn.render import quota as quota_out

    return quota_out.to_json(q)


def _n(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


def summary(d, old: str, new: str) -> str:
    """One line: what changes, counted."""
    if d.empty:
        return f"prio diff {old} -> {new}: no change in priorities, order, unscheduled asks, placement or findings."
    parts = []
    if d.config:
        parts.append(_n(len(d.config), "config change"))
    if d.queues:
        parts.append(_n(len(d.queues), "queue changes priority", "queues change priority"))
    if d.asks:  # every part counted, so that they add up to the total
        later = sum(1 for m in d.asks if m.moved is not None and m.moved > 0)
        earlier = sum(1 for m in d.asks if m.moved is not None and m.moved < 0)
        unscheduled = sum(1 for m in d.asks if m.after is None)
        placed = sum(1 for m in d.asks if m.before is None)
        across = "".join(f", {k} {what}" for k, what in ((unscheduled, "now unscheduled"), (placed, "now placed")) if k)
        parts.append(f"{_n(len(d.asks), 'ask moves', 'asks move')} ({later} later, {earlier} earlier{across})")
    if d.unscheduled_added:
        parts.append(_n(len(d.unscheduled_added), "ask newly unscheduled", "asks newly unscheduled"))
    if d.unscheduled_removed:
        parts.append(_n(len(d.unscheduled_removed), "ask newly placeable", "asks newly placeable"))
    if d.reasons_changed:
        parts.append(_n(len(d.reasons_changed), "unscheduled ask with another reason", "unscheduled asks with another reason"))
    if d.rejected_added:
        parts.append(_n(len(d.rejected_added), "application newly rejected", "applications newly rejected"))
    if d.rejected_removed:
        parts.append(_n(len(d.rejected_removed), "application no longer rejected", "applications no longer rejected"))
    if getattr(d, "gangs", None):  # (a Diff always has it)
        parts.append(_n(len(d.gangs), "gang ends otherwise", "gangs end otherwise"))
    if d.findings_added or d.findings_removed:
        parts.append(f"findings +{len(d.findings_added)} -{len(d.findings_removed)}")
    if d.quota is not None and d.quota.armed:
        from prio.yunikorn.render import quota as quota_out

        parts.append(quota_out.change_summary(d.quota))
    return f"prio diff {old} -> {new}: " + ", ".join(parts) + "."


def sections(d) -> list[tuple[str, tuple, list]]:
    """(title, headers, rows) of every non-empty section, in reading order."""
    out = []
    if d.config:
        out.append(("Config changes", ("queue", "setting", "before", "after"),
                    [(c.queue, c.field, _value(c.before), _value(c.after)) for c in d.config]))
    if d.queues:
        out.append(("Effective priorities (before scheduling)", ("queue", "before", "after"),
                    [(q.queue, _prio(q.before), _prio(q.after)) for q in d.queues]))
    if d.asks:
        out.append(("Scheduling order: asks that move (biggest moves first, by queue and application)",
                    ("queue", "application", "ask", "step before", "step after", "move"),
                    [(m.queue, m.application, m.ask, _step(m.before), _step(m.after), _move(m)) for m in d.asks]))
    if d.unscheduled_added:
        out.append(("Newly unscheduled", ("queue", "application", "ask", "code", "reason"),
                    [(u.queue, u.application, u.ask, u.code, u.reason) for u in d.unscheduled_added]))
    if d.unscheduled_removed:
        out.append(("Newly placeable (unscheduled before)", ("queue", "application", "ask", "code before", "reason before"),
                    [(u.queue, u.application, u.ask, u.code, u.reason) for u in d.unscheduled_removed]))
    if d.reasons_changed:
        out.append(("Still unscheduled, for another reason", ("queue", "application", "ask", "code before", "code after", "reason now"),
                    [(b.queue, b.application, b.ask, a.code, b.code, b.reason) for a, b in d.reasons_changed]))
    if d.rejected_added or d.rejected_removed:
        out.append(("Applications rejected by placement", ("", "application", "queue", "reason"),
                    [("+", r.application, r.queue, r.reason.replace("\n", " ")) for r in d.rejected_added]
                    + [("-", r.application, r.queue, r.reason.replace("\n", " ")) for r in d.rejected_removed]))
    if getattr(d, "gangs", None):
        out.append(("Gangs that end otherwise (state, real pods, placeholders held and pending)", ("application", "before", "after"),
                    [(g.application, _gang_cell(g.before), _gang_cell(g.after)) for g in d.gangs]))
    if d.quota is not None:
        from prio.yunikorn.render import quota as quota_out

        out += quota_out.diff_sections(d.quota)
    if d.findings_added or d.findings_removed:
        out.append(("Validate findings", ("", "rule", "severity", "where", "message"),
                    [("+", f.rule, f.severity, f"{f.file}:{f.line}" if f.line else f.file, f.message) for f in d.findings_added]
                    + [("-", f.rule, f.severity, f"{f.file}:{f.line}" if f.line else f.file, f.message) for f in d.findings_removed]))
    return out


@for_terminal
def render(fmt: str, d, old: str, new: str, width: int = 120, color: bool = False, rows: int = ROWS) -> str:
    if fmt == "json":
        return json.dumps(to_json(d), indent=2) + "\n"
    if fmt == "table":
        return _rich(d, old, new, width, color, rows)
    return _tabular(d, old, new, fmt, rows)


def _cut(body: list, rows: int):
    more = len(body) - rows
    return body[:rows], (f"... {more} more rows (-o json for all)" if more > 0 else "")


def _tabular(d, old, new, fmt, rows) -> str:
    from prio.render.align import grid
    from prio.render.printable import cell

    md = fmt == "markdown"
    head = cell(summary(d, old, new), "github" if md else "plain")  # it names the inputs: escaped for its kind
    out = [f"**{head}**" if md else head]
    for title, headers, body in sections(d):
        shown, more = _cut(body, rows)
        table = grid(shown, headers, "github" if md else "plain")  # grid escapes every cell for its kind
        if md:
            out.append(f"<details><summary>{_html(title)} ({len(body)})</summary>\n\n{table}\n" + (f"\n{more}\n" if more else "") + "\n</details>")
        else:
            out.append(f"{title} ({len(body)})\n{table}" + (f"\n{more}" if more else ""))
    return "\n\n".join(out) + "\n"


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _rich(d, old, new, width, color, rows) -> str:
    from rich.markup import escape
    from rich.table import Table

    from prio.render.align import numeric
    from prio.render.printable import Console
    from prio.yunikorn.render.paths import DottedPath

    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                  color_system="standard" if color else None, highlight=False, emoji=False)
    con.print(summary(d, old, new), markup=False, soft_wrap=True)
    for title, headers, body in sections(d):
        shown, more = _cut(body, rows)
        t = Table()
        for i, h in enumerate(headers):
            num = numeric(shown, i)
            t.add_column(h, overflow="fold", justify="right" if num else "left", no_wrap=num)
        for r in shown:
            t.add_row(*(DottedPath(str(c)) if h == "queue" else escape(str(c)) for h, c in zip(headers, r)))
        from prio.yunikorn.render import fit

        con.print()
        con.print(f"{title} ({len(body)})", markup=False, style="bold")
        con.print(fit.fitted(con, t, fit.kinds_of(headers, shown)))
        if more:
            con.print(more, markup=False)
    return buf.getvalue()
