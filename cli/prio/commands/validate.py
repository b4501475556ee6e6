"""`prio validate`: check -> render -> exit code."""
from __future__ import annotations

import os
import sys
from typing import List, Optional

import typer

from prio.app import Color, app, use_color

FORMATS = ("text", "json")


@app.command()
def validate(
    paths: List[str] = typer.Argument(..., help="queues.yaml files, ConfigMaps, PriorityClass or Armada queue manifests, directories, or - for stdin."),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Format: text (default), json. Default from PRIO_OUTPUT."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="Only errors, and no summary."),
    color: Color = typer.Option(Color.auto, "--color", help="Colour the text output."),
    priority_classes: List[str] = typer.Option([], "--priority-classes", help="PriorityClass manifests to check the queue offsets against."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Say which documents were skipped."),
):
    """Lint YuniKorn queue configs against the schema and the scheduler's own rules."""
    raise typer.Exit(run(paths, output or os.environ.get("PRIO_OUTPUT") or "text", strict=strict, quiet=quiet,
                         color=use_color(color, sys.stdout), priority_classes=priority_classes, verbose=verbose))


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
