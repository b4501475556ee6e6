"""`prio validate`: settings -> check -> suppress -> render -> exit code.

Only typer and the app are imported here; the checker, the renderers (rich, tabulate) and the
settings are imported inside the run, so `prio --help` stays fast. The options are declared once
in prio.cli.validate_run (no typer), as data: the typer command below derives from them, and so
does the console script's fast path (prio.cli.fastpath); both call the same `run`."""
from __future__ import annotations

from prio import backends
from prio.cli import validate_run
from prio.cli.options import choice_enum, typer_command
from prio.cli.validate_run import FORMATS, OPTIONS, RENDERERS, ValidateOptions, _env_format, resolve_format  # noqa: F401 - one implementation
from prio.optspec import find

OutputFormat = choice_enum(find(OPTIONS, "output"))  # the -o choices typer checks


SHORT_HELP = f"Lint YuniKorn queue configs (and PriorityClass, {backends.spoken(e.manifests for e in backends.CLAIMED)} manifests)."

HELP = """Lint YuniKorn queue configs against the schema and the scheduler's own rules.

    Exit status: 0 no error findings (warnings allowed unless --strict), 1 error findings (or
    warnings under --strict), 2 unreadable input, a bad .prio.yaml or bad usage. The same for
    every output format.
    """

command = typer_command(ValidateOptions, validate_run.run, HELP)


def run(paths, fmt: str | None = None, **options) -> int:
    """`prio validate PATHS -o FMT --option ...` from Python: the options by their names in
    ValidateOptions (no typer)."""
    return validate_run.run(ValidateOptions(paths=tuple(paths), output=fmt, **options))
