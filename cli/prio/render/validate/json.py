"""`prio validate -o json`, exactly as the contract fixes it."""
from __future__ import annotations

import json

from prio.diagnostics import Report


def render(report: Report, summary: dict | None = None, input_errors=(), **_) -> str:
    """`summary` counts everything found (with --quiet the findings listed are fewer). Inputs prio
    could not check come first, as error-level PRIO000 (unreadable-input) entries, counted."""
    from prio.render.validate.common import input_error_findings

    unreadable = input_error_findings(input_errors)
    summary = dict(summary or report.summary())
    summary["errors"] = summary.get("errors", 0) + len(unreadable)
    return json.dumps({"findings": [f.to_json() for f in unreadable + list(report.findings)], "summary": summary}, indent=2) + "\n"
