"""`prio rule [ID]`: the rule catalogue (ruff rule style)."""
from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from prio.render.formats import help_text



SHORT_HELP = "List the lint rules, or show one rule's documentation."
FORMATS = ("text", "json", "markdown")


def command(
    rule_id: Optional[str] = typer.Argument(None, metavar="ID", help="A rule id (PRIO201) or slug."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="FORMAT", help=help_text(
        "rule", "Default: text. PRIO_OUTPUT sets the default when it names one of these; a format of other prio "
                "commands only is ignored, any other value is an error")),
):
    """List the lint rules, or show one rule's documentation."""
    from prio.cli.envformat import env_format

    fmt = (output or env_format(FORMATS) or "text").strip().lower()
    if fmt not in FORMATS:
        sys.stderr.write(f"prio: unknown output format {fmt!r} (choose from {', '.join(FORMATS)})\n")
        raise typer.Exit(2)
    raise typer.Exit(run(rule_id, fmt))


def run(rule_id, fmt: str) -> int:
    from prio.lint.rules import all_rules
    from prio.lint.registry import by_name_or_id

    rules = all_rules()
    if rule_id:
        r = by_name_or_id(rule_id)
        if r is None:
            sys.stderr.write(f"prio: no rule {rule_id!r} (see `prio rule` for the list)\n")
            return 2
        if fmt == "json":
            sys.stdout.write(json.dumps({"id": r.id, "name": r.name, "severity": r.severity, "family": r.family, "doc": r.doc}, indent=2) + "\n")
        else:
            sys.stdout.write(f"# {r.id} {r.name} ({r.severity})\n\n{r.doc}\n")
        return 0
    rows = [(r.id, r.name, r.severity, r.summary) for r in rules.values()]
    if fmt == "json":
        sys.stdout.write(json.dumps([dict(zip(("id", "name", "severity", "summary"), row)) for row in rows], indent=2) + "\n")
    else:
        from tabulate import tabulate

        sys.stdout.write(tabulate(rows, headers=("id", "name", "severity", "summary"), tablefmt="github" if fmt == "markdown" else "plain") + "\n")
    return 0
