"""`prio validate`: settings -> check -> suppress -> render -> exit code.

Only typer and the app are imported here; the checker, the renderers (rich, tabulate) and the
settings are imported inside `run`, so `prio --help` stays fast. `run` lives in
prio.cli.validate_run (no typer), which the console script's fast path calls too."""
from __future__ import annotations

from enum import Enum
from typing import List, Optional

import typer

from prio.cli.options import Color
from prio.cli.validate_run import FORMATS, RENDERERS, _env_format, resolve_format, run  # noqa: F401 - one implementation


from prio.render.formats import help_text

OutputFormat = Enum("OutputFormat", {f: f for f in FORMATS}, type=str)  # the option's choices


SHORT_HELP = 'Lint YuniKorn queue configs (and PriorityClass / Armada queue manifests).'


def command(
    paths: List[str] = typer.Argument(..., metavar="PATH", help="queues.yaml files, ConfigMaps, PriorityClass or Armada queue manifests, directories, or - for stdin."),
    output: Optional[OutputFormat] = typer.Option(
        None, "-o", "--output", case_sensitive=False,
        help=help_text("validate", "Default: text. PRIO_OUTPUT sets the default when it names one of these; a format of "
                               "other prio commands only is ignored, any other value is an error")),
    output_file: Optional[str] = typer.Option(
        None, "--output-file", metavar="PATH", envvar="PRIO_OUTPUT_FILE",
        help="Write the report to PATH instead of standard output."),
    config: Optional[str] = typer.Option(
        None, "--config", metavar="PATH", envvar="PRIO_CONFIG",
        help="The settings file (select, ignore, severity, per-path-ignores). Default: the nearest "
             ".prio.yaml from the working directory upward."),
    no_config: bool = typer.Option(False, "--no-config", help="Ignore any .prio.yaml."),
    select: List[str] = typer.Option([], "--select", metavar="IDS", help="Run only these rules (ids, slugs, id prefixes, comma-separated; replaces the config's select)."),
    ignore: List[str] = typer.Option([], "--ignore", metavar="IDS", help="Do not run these rules (added to the config's ignore)."),
    strict: bool = typer.Option(False, "--strict", envvar="PRIO_STRICT", help="Exit 1 on warnings too."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="Report only the findings that fail the run (errors; warnings too with --strict), and no summary."),
    color: Color = typer.Option(Color.auto, "--color", case_sensitive=False, envvar="PRIO_COLOR", help="Colour the text output (auto: on a terminal, unless NO_COLOR is set)."),
    priority_classes: List[str] = typer.Option([], "--priority-classes", metavar="FILE", help="PriorityClass manifests to check the queue offsets against."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Say which documents were skipped."),
    statistics: bool = typer.Option(False, "--statistics", help="Print how many findings each rule produced, most first, instead of the findings (with -o text or json)."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when findings fail the run (2 still means prio could not run)."),
):
    """Lint YuniKorn queue configs against the schema and the scheduler's own rules.

    Exit status: 0 no error findings (warnings allowed unless --strict), 1 error findings (or
    warnings under --strict), 2 unreadable input, a bad .prio.yaml or bad usage. The same for
    every output format.
    """
    raise typer.Exit(run(paths, output.value if output else _env_format(), strict=strict, quiet=quiet, color=color,
                         priority_classes=priority_classes, verbose=verbose, output_file=output_file,
                         config=config, no_config=no_config, select=select, ignore=ignore,
                         statistics=statistics, exit_zero=exit_zero))
