"""`prio validate --statistics`: how many findings each rule produced, most first (ruff's
--statistics), as text columns or JSON. Inputs prio could not check count under PRIO000."""
from __future__ import annotations

import json

FORMATS = ("text", "json")


def counts(findings) -> list[dict]:
    by: dict = {}
    for f in findings:
        row = by.setdefault(f.rule, {"rule": f.rule, "name": f.name, "severity": f.severity, "count": 0})
        row["count"] += 1
    return sorted(by.values(), key=lambda r: (-r["count"], r["rule"]))


def render(findings, fmt: str) -> str:
    rows = counts(findings)
    if fmt == "json":
        return json.dumps(rows, indent=2) + "\n"
    if not rows:
        return ""
    width = max(len(str(r["count"])) for r in rows)
    sev = max(len(r["severity"]) for r in rows)
    return "".join(f"{r['count']:>{width}}  {r['rule']}  {r['severity']:<{sev}}  {r['name']}\n" for r in rows)
