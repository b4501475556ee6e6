"""The typer app: option parsing and wiring only. Every command imports what it needs inside its
body, so `prio --version` and `--help` stay fast (no rich, jsonschema or tabulate)."""
from __future__ import annotations

import os
import sys
from enum import Enum
from typing import List, Optional

import typer

from prio import __version__

app = typer.Typer(
    name="prio",
    help="Policy analysis for priority scheduling in Apache YuniKorn (and Armada's legacy model): "
    "lint queue configs, explain effective priorities, simulate the scheduling order.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


def _version(value: bool):
    if value:
        typer.echo(f"prio {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True, help="Show the version and exit."),
):
    """prio: why is this job waiting behind that one?"""


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"prio: {message}", err=True)
    raise typer.Exit(code)


def use_color(choice: Color, stream) -> bool:
    if choice == Color.always:
        return True
    if choice == Color.never or os.environ.get("NO_COLOR", ""):
        return False
    return stream.isatty()


def default_format(env: str, machine_default: str, tty_default: str) -> str:
    """The format: PRIO_OUTPUT-style variable first, then table/text on a terminal."""
    v = os.environ.get(env, "").strip()
    if v:
        return v
    return tty_default if sys.stdout.isatty() else machine_default


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
    from prio.commands.validate import run

    raise typer.Exit(run(paths, output or os.environ.get("PRIO_OUTPUT") or "text", strict=strict, quiet=quiet,
                         color=use_color(color, sys.stdout), priority_classes=priority_classes, verbose=verbose))


@app.command()
def rule(
    rule_id: Optional[str] = typer.Argument(None, metavar="[ID]", help="A rule id (PRIO201) or slug."),
    output: str = typer.Option("text", "-o", "--output", help="text, json or markdown."),
):
    """List the lint rules, or show one rule's documentation."""
    from prio.commands.rule import run

    raise typer.Exit(run(rule_id, output))


def main() -> None:
    argv = sys.argv[1:]
    if argv in (["--version"], ["-V"]):  # the hot path for pre-commit: no typer at all
        sys.stdout.write(f"prio {__version__}\n")
        return
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("prio: interrupted\n")
        sys.exit(130)
