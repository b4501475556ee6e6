"""`prio validate -o markdown`: a heading and a table of findings, for a pull-request comment or
$GITHUB_STEP_SUMMARY (GitHub and GitLab flavoured markdown)."""
from __future__ import annotations

from prio.diagnostics import Report
from prio.render.printable import for_terminal, markdown, printable
from prio.render.validate.common import location


def cell(s: str) -> str:
    """Text safe in a table cell: prio's own line breaks as <br>, each line escaped as markdown
    (prio.render.printable.markdown: pipes, HTML, control characters)."""
    return "<br>".join(markdown(ln) for ln in s.splitlines()) if s else s


def code(s: str) -> str:
    """A code span (HTML and markdown inside it are text): its fence longer than any run of
    backticks in `s`, so no name can close it early (CommonMark's rule)."""
    import re

    s = printable(s).replace("|", "\\|")  # a line break is escaped; a pipe would end the table cell
    fence = "`" * (max((len(run) for run in re.findall("`+", s)), default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def heading(report: Report, input_errors=()) -> str:
    from prio.render.validate.text import summary

    return f"### prio validate: {summary(report, input_errors)}"


@for_terminal
def render(report: Report, input_errors=(), **_) -> str:
    from tabulate import tabulate

    from prio.render.validate.common import input_error_findings

    out = [heading(report, input_errors), ""]
    findings = input_error_findings(input_errors) + list(report.findings)  # inputs prio could not check first
    if findings:
        rows = [(f"**{f.severity}**" if f.severity == "error" else f.severity, code(location(f)),
                 f"{f.rule} {code(f.name)}", cell(f.message)) for f in findings]
        out.append(tabulate(rows, headers=("severity", "location", "rule", "message"), tablefmt="github", disable_numparse=True))
        out.append("")
        out.append("Run `prio rule ID` for a rule's documentation and fix.")
    return "\n".join(out).rstrip("\n") + "\n"
