"""Diagnostics: the issue and the finding, what every check produces and every report renders.

Checks speak in YAML paths (tuples of keys and indexes); the loader's position index turns a
path into a file/line/column, so no check ever touches a YAML mark.

This module sits below everything that reports a problem (io's YAML reader, the loaders, the
lint rules, the renderers) and imports nothing of prio, so none of them has to import another
just to speak of a problem at a path.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

SEVERITIES = ("error", "warning", "info")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")

Path = tuple  # of str keys and int indexes


def format_path(path: Path) -> str:
    """`("partitions", 0, "properties", "priority.offset")` -> `partitions[0].properties['priority.offset']`."""
    out = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENT.match(part):
            out.append(("." if out else "") + part)
        else:
            out.append("[" + repr(str(part)) + "]")
    return "".join(out)


@dataclass(frozen=True)
class Issue:
    """What a check reports, before it has a position: rule id, YAML path and message.

    `at` picks the anchor: "value" (the node at `path`), "key" (the key naming it, for unknown or
    duplicate keys).
    """

    rule: str
    path: Path
    message: str
    at: str = "value"
    severity: str | None = None  # overrides the rule's default (rare: e.g. info for a benign case)
    pos: object = None  # an explicit position, when the path alone cannot say (a duplicate key)
    fix: str = ""  # the fix in this finding's own values (the help: line); "" takes the rule's Fix


@dataclass(frozen=True)
class Finding:
    rule: str
    name: str
    severity: str
    message: str
    file: str
    line: int | None
    column: int | None
    path: str
    fix: str = ""  # the Issue's own fix, for the help: line (not in the contract's JSON)

    def to_json(self) -> dict:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
        }


def sort_key(f: Finding):
    return (f.file, f.line or 0, f.column or 0, f.rule, f.message)


@dataclass
class Report:
    """The result of checking some files: findings plus what the summary counts."""

    files: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    suppressed: int = 0
    skipped: list[str] = field(default_factory=list)  # files found in a directory that hold nothing prio validates
    notes: list[str] = field(default_factory=list)  # why they were skipped (for --verbose)

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def summary(self) -> dict:
        return {"files": len(self.files), "errors": self.count("error"), "warnings": self.count("warning"),
                "skipped": len(self.skipped)}
