"""`prio validate -o json`, exactly as the contract fixes it."""
from __future__ import annotations

import json

from prio.lint.findings import Report


def render(report: Report, summary: dict | None = None, **_) -> str:
    """`summary` counts everything found (with --quiet the findings listed are fewer)."""
    return json.dumps({"findings": [f.to_json() for f in report.findings], "summary": summary or report.summary()}, indent=2) + "\n"
