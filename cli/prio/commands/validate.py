"""`prio validate`: check -> render -> exit code."""
from __future__ import annotations

import sys

FORMATS = ("text", "json")


def run(paths, fmt, *, strict=False, quiet=False, color=False, priority_classes=(), verbose=False) -> int:
    from prio.checker import Options, check_paths

    if fmt not in FORMATS:
        sys.stderr.write(f"prio: unknown output format {fmt!r} (choose from {', '.join(FORMATS)})\n")
        return 2
    report, results, errors = check_paths(list(paths), Options(list(priority_classes), verbose))
    for e in errors:
        sys.stderr.write(f"{e}\n")
    if quiet:
        report.findings = [f for f in report.findings if f.severity == "error"]
    if verbose:
        for r in results:
            for n in r.notes:
                sys.stderr.write(n + "\n")
    if fmt == "json":
        from prio.render import validate_json

        sys.stdout.write(validate_json.render(report))
    else:
        from prio.render import validate_text

        sys.stdout.write(validate_text.render(report, {r.name: r.text for r in results}, color=color))
        if not quiet:
            sys.stderr.write(validate_text.summary(report, len(errors)) + "\n")
    if errors:
        return 2
    if report.count("error") or (strict and report.count("warning")):
        return 1
    return 0
