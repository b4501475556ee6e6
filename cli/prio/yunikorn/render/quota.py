"""Rendering YuniKorn's quota-change preemption (prio.yunikorn.preemption.quota.QuotaResult): the
JSON object `prio preempt` carries as `quota` and `prio diff` as `quotaPreemption`, and the
section both print in the other formats (tabulate for plain and markdown, rich for table)."""
from __future__ import annotations

from datetime import datetime, timezone

from prio.yunikorn.quantity import show_resources

TITLE = "Quota preemption (YuniKorn 1.8+)"


def _res(r) -> dict:
    return dict(sorted((r or {}).items()))


def to_json(q) -> dict:
    """The contract's armed, preempted and usageAfter, then what prio adds: the switch, the usage
    before, every queue over its max with why it is armed or not, each leaf's run (amount,
    candidates in YuniKorn's order with the parts of its sort key, verdicts) and the armed queues
    still above their max."""
    return {
        "armed": q.armed,
        "preempted": q.preempted,
        "usageAfter": {k: _res(v) for k, v in q.usage_after.items()},
        "enabled": q.enabled,
        "usageBefore": {k: _res(v) for k, v in q.usage_before.items()},
        "queues": [{"queue": a.queue, "armed": a.armed, "why": a.why, "max": _res(a.max), "usage": _res(a.usage),
                    "over": _res(a.over), "delay": a.delay, "delayFrom": a.delay_from} for a in q.considered],
        "leaves": [{"leaf": r.leaf, "for": r.armed, "amount": _res(r.amount) if r.amount is not None else None, "how": r.how,
                    "victims": list(r.victims), "freed": _res(r.freed), "leafMax": _res(r.leaf_max) if r.leaf_max else None,
                    "candidates": [{"allocation": v.id, "application": v.application, "node": v.node, "priority": v.priority,
                                    "score": v.score, "optedOut": v.opted_out, "originator": v.originator,
                                    "typeMatch": v.type_match, "createHour": _hour(v.hour), "share": v.share,
                                    "verdict": v.verdict} for v in r.candidates],
                    "notCandidates": [{"allocation": i, "why": w} for i, w in r.excluded]} for r in q.runs],
        "aboveMax": [{"queue": a.queue, "max": _res(a.max), "usage": _res(a.usage), "why": a.why} for a in q.above],
    }


def _hour(h: int) -> str | None:
    if not h:
        return None
    return datetime.fromtimestamp(h * 3600, tz=timezone.utc).strftime("%Y-%m-%dT%H:00Z")


def _share(x: float) -> str:
    return f"{x:.4g}"


def _score(v) -> str:
    parts = (["opted out"] if v.opted_out else []) + (["originator"] if v.originator else []) + [f"{v.type_match}%"]
    return " + ".join(parts)


def count(q) -> int:
    return sum(len(r.victims) for r in q.runs)


def summary(q) -> str:
    """One line: what quota preemption does."""
    if not q.considered:
        return f"{TITLE}: no queue's usage is over its max."
    armed = q.armed
    if not armed:
        return f"{TITLE}: {len(q.considered)} queue(s) over their max, none armed."
    n = count(q)
    if not q.enabled:
        return (f"{TITLE}: armed {', '.join(armed)}, but the partition does not set quotapreemptionenabled: true, "
                "so YuniKorn preempts nothing.")
    leaves = sum(1 for r in q.runs if r.victims)
    delays = sorted({a.delay for a in q.considered if a.armed and a.delay})
    return (f"{TITLE}: armed {', '.join(armed)}; after {' / '.join(delays)} YuniKorn preempts "
            f"{n} allocation{'s' if n != 1 else ''} in {leaves} leaf queue{'s' if leaves != 1 else ''}"
            + (f"; {len(q.above)} queue(s) stay above their max." if q.above else "."))


def blocks(q) -> list:
    """The section as ("line", text) and ("table", title, headers, rows), in reading order."""
    out: list = [("line", summary(q))]
    if not q.considered:
        return out
    out.append(("line", "partition switch quotapreemptionenabled: " + (
        "true (the quota-preemption loop runs)" if q.enabled else
        "false (YuniKorn still arms queues, but its loop never runs: nothing is preempted)")))
    out.append(("table", "Queues over their max", ("queue", "usage", "max", "over by", "quota.preemption.delay", "armed", "why"),
                [(a.queue, show_resources(a.usage), show_resources(a.max), show_resources(a.over),
                  (f"{a.delay} (on {a.delay_from})" if a.delay_from == a.queue else f"{a.delay} (inherited from {a.delay_from})")
                  if a.delay else "-", "yes" if a.armed else "no", a.why) for a in q.considered]))
    for r in q.runs:
        head = f"Leaf {r.leaf}" + (f" (for the lowered parent {r.armed})" if r.armed != r.leaf else "")
        amount = show_resources(r.amount) if r.amount else "nothing"
        out.append(("line", f"{head}: amount to free {amount} ({r.how}); freed {show_resources(r.freed)} by "
                            f"{', '.join(r.victims) or 'no victim'}"))
        if r.candidates:
            share = "share of the leaf's max" if r.leaf_max else "size (the leaf has no max: YuniKorn compares raw quantities)"
            order = (f"score higher first: opted out 2^34, originator 2^33, % of types to free; then priority lower first, "
                     f"creation hour newer first, {share} smaller first" if r.by_ask else
                     "YuniKorn 1.8.0's: regular pods first, then opted out, then originators; priority lower first; newer first; "
                     "smaller first")
            out.append(("table", f"Candidates of {r.leaf} in YuniKorn's order ({order})",
                        ("#", "allocation", "application", "node", "score", "priority", "created (hour)", "share" if r.leaf_max else "size", "resources", "verdict"),
                        [(str(i + 1), v.id, v.application, v.node, _score(v), str(v.priority), _hour(v.hour) or "-",
                          _share(v.share), show_resources(v.resources), v.verdict) for i, v in enumerate(r.candidates)]))
        if r.excluded:
            out.append(("line", f"  not candidates in {r.leaf}: " + ", ".join(f"{i} ({w})" for i, w in r.excluded[:10])
                        + (f", ... {len(r.excluded) - 10} more" if len(r.excluded) > 10 else "")))
    changed = [k for k in q.usage_before if q.usage_before[k] != q.usage_after[k]]
    if changed:
        out.append(("table", "Usage after the victims are released", ("queue", "before", "after"),
                    [(k, show_resources(q.usage_before[k]), show_resources(q.usage_after[k])) for k in changed]))
    if q.above:
        out.append(("table", "Armed queues still above their max", ("queue", "usage after", "max", "why"),
                    [(a.queue, show_resources(a.usage), show_resources(a.max), a.why) for a in q.above]))
    return out


def plain(q, tablefmt: str) -> str:
    """The section for plain (tablefmt "plain") or markdown ("github")."""
    from prio.render.align import grid

    md = tablefmt == "github"
    out = [f"### {TITLE}", ""] if md else []
    for b in blocks(q):
        if b[0] == "line":
            out.append(b[1])
        else:
            _, title, headers, rows = b
            rows = [[c.replace("|", "\\|") for c in r] for r in rows] if md else rows
            out += ["", (f"**{title}**" if md else title), grid(rows, headers, tablefmt), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def rich(q, con) -> None:
    """The section on a rich console."""
    from rich.markup import escape
    from rich.table import Table

    from prio.render.align import numeric
    from prio.yunikorn.render import fit

    for b in blocks(q):
        if b[0] == "line":
            con.print(escape(b[1]), soft_wrap=True)
            continue
        _, title, headers, rows = b
        t = Table(title=title, title_justify="left")
        for i, h in enumerate(headers):
            t.add_column(h, overflow="fold", justify="right" if numeric(rows, i) else "left")
        for r in rows:
            t.add_row(*(escape(str(c)) for c in r))
        con.print(fit.fitted(con, t, fit.kinds_of(headers, rows)))


def change_summary(q) -> str:
    """prio diff's summary part: what merging NEW does to the running work."""
    n = count(q)
    delays = sorted({a.delay for a in q.considered if a.armed and a.delay})
    if not q.enabled:
        return f"quota preemption armed for {', '.join(q.armed)} but off in the partition (nothing preempted)"
    return (f"merging this preempts {n} running task{'s' if n != 1 else ''} after {' / '.join(delays)} "
            f"(quota preemption of {', '.join(q.armed)})")


def diff_sections(q) -> list:
    """prio diff's (title, headers, rows) sections: the queues NEW's maxes put over their usage that
    the change touched, the victims in YuniKorn's order, the queues still above their new max."""
    touched = [a for a in q.considered if a.changed]
    if not touched:
        return []
    out = [("Quota preemption: queues over NEW's max" + ("" if q.enabled else " (quotapreemptionenabled is off: nothing is preempted)"),
            ("queue", "usage", "max", "over by", "quota.preemption.delay", "armed", "why"),
            [(a.queue, show_resources(a.usage), show_resources(a.max), show_resources(a.over),
              (f"{a.delay} (on {a.delay_from})" if a.delay_from == a.queue else f"{a.delay} (inherited from {a.delay_from})")
              if a.delay else "-", "yes" if a.armed else "no", a.why) for a in touched])]
    victims = [(r.leaf, v) for r in q.runs for v in r.candidates if v.taken]
    if victims:
        out.append(("Quota preemption: running tasks preempted once the delay has passed (YuniKorn's order per queue)",
                    ("queue", "allocation", "application", "node", "priority", "score", "resources", "verdict"),
                    [(leaf, v.id, v.application, v.node, str(v.priority), _score(v), show_resources(v.resources), v.verdict)
                     for leaf, v in victims]))
    if q.above:
        out.append(("Quota preemption: armed queues still above NEW's max afterwards", ("queue", "usage after", "max", "why"),
                    [(a.queue, show_resources(a.usage), show_resources(a.max), a.why) for a in q.above]))
    return out
