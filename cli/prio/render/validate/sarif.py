"""`prio validate -o sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

Every rule that ran is in `tool.driver.rules` (with its documentation as help), each result has
a region (line 1 when prio has no position: GitHub refuses results without one), a logical
location (the YAML path) and a `partialFingerprints` entry that survives lines moving. Paths
are relative to GITHUB_WORKSPACE when set, else to the working directory. Input prio could not
read is reported as a tool execution notification, with `executionSuccessful: false`."""
from __future__ import annotations

import json
import os
from urllib.parse import quote

from prio.diagnostics import Report
from prio.render.validate.common import doc_markdown, fingerprints, repo_path

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
ROOT_ENV = ("GITHUB_WORKSPACE",)


def uri(name: str) -> str:
    p = repo_path(name, ROOT_ENV)
    if os.path.isabs(p):
        from pathlib import Path

        return Path(p).as_uri()
    return quote(p, safe="/")


def _rule(r) -> dict:
    return {
        "id": r.id,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": r.doc},
        "help": {"text": r.doc, "markdown": doc_markdown(r.doc)},
        "defaultConfiguration": {"level": LEVEL[r.severity]},
        "properties": {"tags": ["yunikorn", r.family]},
    }


def _location(name: str, line, column) -> dict:
    region = {"startLine": line or 1}
    if line and column:
        region["startColumn"] = column
    return {"physicalLocation": {"artifactLocation": {"uri": uri(name)}, "region": region}}


def render(report: Report, rules=None, input_errors=(), version: str | None = None, **_) -> str:
    from prio import __version__
    from prio.lint.registry import RULES

    if rules is None:
        from prio.lint.rules import all_rules

        rules = all_rules().values()
    rules = list(rules)
    index = {r.id: i for i, r in enumerate(rules)}
    for f in report.findings:  # a finding of a rule not listed (should not happen): list it
        if f.rule not in index and f.rule in RULES:
            index[f.rule] = len(rules)
            rules.append(RULES[f.rule])
    results = []
    for f, fp in zip(report.findings, fingerprints(report.findings, lambda f: uri(f.file))):
        loc = _location(f.file, f.line, f.column)
        if f.path:
            loc["logicalLocations"] = [{"fullyQualifiedName": f.path, "kind": "object"}]
        res = {"ruleId": f.rule}
        if f.rule in index:
            res["ruleIndex"] = index[f.rule]
        res.update({
            "level": LEVEL.get(f.severity, "warning"),
            "message": {"text": f.message},
            "locations": [loc],
            "partialFingerprints": {"prioFinding/v1": fp},
        })
        results.append(res)
    invocation = {"executionSuccessful": not input_errors}
    if input_errors:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": e.message}, "locations": [_location(e.file, e.line, e.column)]}
            for e in input_errors
        ]
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "prio",
                "version": version or __version__,
                "semanticVersion": version or __version__,
                "rules": [_rule(r) for r in rules],
            }},
            "invocations": [invocation],
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"suppressed": report.suppressed, "skipped": len(getattr(report, "skipped", ()))},
        }],
    }
    return json.dumps(doc, indent=2) + "\n"
