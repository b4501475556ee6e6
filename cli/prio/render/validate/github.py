"""`prio validate -o github`: GitHub Actions workflow commands, one `::group::` per file.

GitHub shows at most 10 annotations of each level (error, warning, notice) per step and drops
the rest silently. So the first 10 findings of each level become annotations, every further one
is a plain log line in its file's group, and one closing notice says how many are only in the
log. Data is escaped as the Actions toolkit does (`%`, CR, LF); property values (file, title)
also escape `:` and `,`, so file names with those characters keep their annotations."""
from __future__ import annotations

from prio.diagnostics import Report
from prio.render.printable import for_terminal
from prio.render.validate.common import STDIN, by_file, location, repo_path

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}
LIMIT = 10  # annotations GitHub shows per level and step
ROOT_ENV = ("GITHUB_WORKSPACE",)


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **props) -> str:
    parts = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v is not None)
    return f"::{level}{' ' + parts if parts else ''}::{escape_data(message)}"


def _log_line(text: str) -> str:
    # A plain log line: no line breaks, and never mistaken for a workflow command.
    out = " ".join(text.splitlines())
    return " " + out if out.startswith("::") else out


@for_terminal
def render(report: Report, input_errors=(), **_) -> str:
    items_by_file = {}
    for e in input_errors:
        items_by_file.setdefault(e.file, []).append(("error", e))
    for name, findings in by_file(report, items_by_file):
        items_by_file.setdefault(name, []).extend((LEVEL.get(f.severity, "warning"), f) for f in findings)

    totals = {"error": 0, "warning": 0, "notice": 0}
    for items in items_by_file.values():
        for level, _ in items:
            totals[level] += 1
    quota = {lvl: min(n, LIMIT) for lvl, n in totals.items()}
    hidden = sum(n - quota[lvl] for lvl, n in totals.items())
    if hidden and quota["notice"] == LIMIT:  # the closing notice needs one of the 10 notice slots
        quota["notice"] -= 1
        hidden += 1

    lines = []
    left = dict(quota)
    for name, items in items_by_file.items():
        if not items:
            continue
        lines.append(f"::group::{escape_data(name)}")
        for level, item in items:
            if hasattr(item, "rule"):
                f = item
                text = f"{location(f)}: {f.severity} {f.rule} ({f.name}) {f.message}"
                body = f.message  # the annotation's title already names the rule; the log line says it all
                props = {"file": None if f.file == STDIN else repo_path(f.file, ROOT_ENV), "line": f.line,
                         "col": f.column if f.line else None, "title": f"prio {f.rule} ({f.name})"}
            else:
                e = item
                text = body = f"{e}"
                props = {"file": None if e.file == STDIN else repo_path(e.file, ROOT_ENV), "line": e.line,
                         "col": e.column if e.line else None, "title": "prio: unreadable input"}
            if left[level] > 0:
                left[level] -= 1
                lines.append(command(level, body, **props))
            else:
                lines.append(_log_line(text))
        lines.append("::endgroup::")
    if hidden:
        rest = {lvl: totals[lvl] - quota[lvl] for lvl in totals}
        parts = [f"{rest[lvl]} {word}{'s' if rest[lvl] != 1 else ''}"
                 for lvl, word in (("error", "error"), ("warning", "warning"), ("notice", "info")) if rest[lvl] > 0]
        lines.append(command("notice", f"{hidden} more finding{'s' if hidden != 1 else ''} ({', '.join(parts)}) "
                             f"not annotated: GitHub shows {LIMIT} annotations per level; all of them are in the log of this step.",
                             title="prio"))
    return "\n".join(lines) + ("\n" if lines else "")
