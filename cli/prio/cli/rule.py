"""`prio rule [ID]`: the rule catalogue (ruff rule style)."""
from __future__ import annotations

import json
import sys

import typer

from prio.cli.guard import say
from prio.render.formats import help_text

SHORT_HELP = "List the lint rules, or show one rule's documentation."
FORMATS = ("text", "json", "markdown")


def command(
    rule_id: str | None = typer.Argument(None, metavar="ID", help="A rule id (PRIO201) or slug."),
    output: str | None = typer.Option(None, "-o", "--output", metavar="FORMAT", help=help_text(
        "rule", "Default: text. PRIO_OUTPUT sets the default when it names one of these; a format of other prio "
                "commands only is ignored, any other value is an error")),
):
    """List the lint rules, or show one rule's documentation."""
    from prio.cli.envformat import env_format

    fmt = (output or env_format(FORMATS) or "text").strip().lower()
    if fmt not in FORMATS:
        say(f"prio: unknown output format {fmt!r} (choose from {', '.join(FORMATS)})")
        raise typer.Exit(2)
    raise typer.Exit(run(rule_id, fmt))


def run(rule_id, fmt: str) -> int:
    from prio.lint.registry import by_name_or_id
    from prio.lint.rules import all_rules

    rules = all_rules()
    if rule_id:
        r = by_name_or_id(rule_id)
        if r is None:
            say(f"prio: no rule {rule_id!r} (see `prio rule` for the list)")
            return 2
        names, said = releases_of(r)
        if fmt == "json":
            shown = {"id": r.id, "name": r.name, "severity": r.severity, "family": r.family, "doc": r.doc}
            sys.stdout.write(json.dumps(shown if names is None else {**shown, "yunikornReleases": names}, indent=2) + "\n")
        else:
            from prio.cli.common import width

            tail = "" if said is None else "\n\n" + _wrapped(f"Releases: {said}.", width())
            sys.stdout.write(f"# {r.id} {r.name} ({r.severity})\n\n{_wrapped(r.doc, width())}{tail}\n")
        return 0
    rows = [(r.id, r.name, r.severity, r.summary) for r in rules.values()]
    if fmt == "json":
        sys.stdout.write(json.dumps([dict(zip(("id", "name", "severity", "summary"), row)) for row in rows], indent=2) + "\n")
    else:
        from tabulate import tabulate

        headers = ("id", "name", "severity", "summary")
        if fmt == "markdown":  # rendered by whoever shows it: one line per rule
            sys.stdout.write(tabulate(rows, headers=headers, tablefmt="github") + "\n")
            return 0
        from prio.cli.common import width

        # the summary wraps to the terminal (COLUMNS), the other columns stay whole
        room = width() - sum(max(len(str(r[i])) for r in rows + [headers]) + 2 for i in range(3))
        text = ""
        while room >= 30:  # tabulate pads by its own rules: measured, and narrowed by the excess
            text = tabulate(rows, headers=headers, tablefmt="plain", maxcolwidths=[None, None, None, room])
            over = max(map(len, text.splitlines())) - width()
            if over <= 0:
                break
            room -= over
        if room >= 30:
            sys.stdout.write(text + "\n")
        else:  # too narrow for a column of prose: each rule's summary under it, indented
            import textwrap

            for rid, name, severity, summary in rows:
                sys.stdout.write(f"{rid}  {name} ({severity})\n")
                sys.stdout.write(textwrap.fill(summary, max(width(), 40), initial_indent="    ", subsequent_indent="    ",
                                               break_on_hyphens=False) + "\n")
    return 0


def releases_of(r) -> tuple:
    """(the YuniKorn releases a rule of YuniKorn's configs applies to, what to say of them), or
    (None, None) for the rules of other inputs (the backends', PriorityClasses)."""
    if r.target not in ("queues", "queues-vs-classes", "upgrade") and r.family != "decoding":
        return None, None
    from prio.yunikorn.releases import rule_releases

    return rule_releases(r.id)


def _wrapped(doc: str, width: int) -> str:
    """A rule's documentation with its prose lines wrapped to `width` (indented lines, the
    examples, are kept as written)."""
    import textwrap

    out = []
    for line in doc.split("\n"):
        if len(line) <= width or line.startswith(" "):
            out.append(line)
        else:
            out += textwrap.wrap(line, width, break_on_hyphens=False, break_long_words=False)
    return "\n".join(out)
