"""`prio validate -o gitlab`: a GitLab Code Quality report (`artifacts: reports: codequality:`).

A JSON array of Code Climate issues. GitLab compares the reports of the base and the head of a
merge request by `fingerprint`, so it hashes rule, file and YAML path (not the line): a finding
keeps its fingerprint when lines above it move. Paths are relative to CI_PROJECT_DIR when set,
else to the working directory. Severity: error -> major, warning -> minor, info -> info."""
from __future__ import annotations

import json

from prio.diagnostics import Report
from prio.render.validate.common import fingerprints, repo_path

SEVERITY = {"error": "major", "warning": "minor", "info": "info"}
ROOT_ENV = ("CI_PROJECT_DIR",)


def render(report: Report, input_errors=(), **_) -> str:
    from prio.render.validate.common import input_error_findings

    path_of = lambda f: repo_path(f.file, ROOT_ENV)
    out = []
    findings = input_error_findings(input_errors) + list(report.findings)  # unreadable inputs first
    for f, fp in zip(findings, fingerprints(findings, path_of)):
        out.append({
            "type": "issue",
            "check_name": f.rule,
            "description": f"{f.rule} ({f.name}): {f.message}",
            "categories": ["Bug Risk"] if f.severity == "error" else ["Style"] if f.severity == "info" else ["Clarity"],
            "severity": SEVERITY.get(f.severity, "minor"),
            "fingerprint": fp,
            "location": {"path": path_of(f), "lines": {"begin": f.line or 1}},
        })
    return json.dumps(out, indent=2) + "\n"
