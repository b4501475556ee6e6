"""`prio validate -o text`: `file:line:col: severity ID (slug) message`, then a code frame.

Colour comes from rich when the caller asks for it; the text is the same without."""
from __future__ import annotations

import io

from prio.diagnostics import Report
from prio.render.printable import for_terminal

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


@for_terminal
def render(report: Report, sources: dict | None = None, color: bool = False, frames: bool = True, width: int = 100,
           input_errors=(), **_) -> str:
    if not report.findings and not input_errors:
        return ""  # nothing to print: no rich either
    from rich.markup import escape

    from prio.lint.registry import RULES
    from prio.render.printable import Console, printable
    from prio.render.validate.hints import hint

    buf = io.StringIO()
    con = Console(file=buf, force_terminal=color, no_color=not color, color_system="standard" if color else None,
                  width=max(width, 40), highlight=False, soft_wrap=True, emoji=False)
    lines_of = {}
    from prio.render.validate.common import input_error_findings

    for f in input_error_findings(input_errors) + list(report.findings):
        loc = f.file + (f":{f.line}" + (f":{f.column}" if f.column else "") if f.line else "")
        # a file name or a key with a line break never starts a line of its own (printable)
        con.print(f"[bold]{escape(printable(loc))}[/]: [{_STYLE[f.severity]}]{f.severity}[/] [bold]{f.rule}[/] ({f.name}) "
                  f"{escape(printable(f.message))}")
        if frames and f.line and sources and f.file in sources:
            lines = lines_of.get(f.file)
            if lines is None:
                lines = lines_of[f.file] = sources[f.file].split("\n")
            if 0 < f.line <= len(lines):
                text = lines[f.line - 1].rstrip("\r").expandtabs(1)
                gutter = f"{f.line:>5} | "
                con.print(escape(gutter + printable(text)), style="dim" if color else None)
                con.print(" " * (len(gutter) - 2) + "| " + " " * max((f.column or 1) - 1, 0) + f"[{_STYLE[f.severity]}]^[/]")
        if frames and f.rule in RULES and f.rule != "PRIO000":  # the rule's Fix, on one line (ruff's help:)
            con.print("      " + escape(hint(RULES[f.rule], f.fix)), style="dim" if color else None)
    return buf.getvalue()


def summary(report: Report, input_errors=()) -> str:
    """The one-line summary for stderr: the findings by severity, the files checked, the files
    skipped (found in a directory, holding nothing prio validates), those unreadable and the
    directories with nothing to check. A run that checked nothing never says "no problems"."""
    from prio.errors import NothingToCheck

    e, w, i = report.count("error"), report.count("warning"), report.count("info")
    files = len(report.files)
    skipped = len(getattr(report, "skipped", ()))
    empty = sum(1 for x in input_errors if isinstance(x, NothingToCheck))
    unreadable = len(input_errors) - empty
    parts = []
    for n, word in ((e, "error"), (w, "warning"), (i, "info")):
        if n:
            parts.append(f"{n} {word}{'s' if n != 1 else ''}")
    what = ", ".join(parts) if parts else "no problems"
    tail = f" ({report.suppressed} suppressed)" if report.suppressed else ""
    bad = [f"{unreadable} file{'s' if unreadable != 1 else ''} could not be checked"] if unreadable else []
    if empty:
        bad.append(f"{empty} director{'ies' if empty != 1 else 'y'} with nothing to check")
    if not files:
        why = "; ".join(bad + ([f"{skipped} skipped: not queue configs"] if skipped else []))
        return "nothing checked" + (f": {why}" if why else "")
    where = f"{files} file{'s' if files != 1 else ''}"
    if skipped:
        where += f" checked, {skipped} skipped: not queue configs"
    return f"{what} in {where}{tail}" + "".join(f"; {b}" for b in bad)
