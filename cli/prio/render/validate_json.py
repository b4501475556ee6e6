"""`prio validate -o json`, exactly as the contract fixes it."""
from __future__ import annotations

import json

from prio.findings import Report


def render(report: Report, **_) -> str:
    return json.dumps({"findings": [f.to_json() for f in report.findings], "summary": report.summary()}, indent=2) + "\n"
