"""`prio validate`'s run, without typer: settings -> check -> suppress -> render -> exit code.

The typer command (prio.cli.validate) and the fast path of the console script
(prio.cli.validate_fast, which parses validate's arguments without typer) both call `run`: one
implementation. The checker, the renderers (rich, tabulate) and the settings are imported inside
`run`, so importing this module costs nothing."""
from __future__ import annotations

import sys

from prio.cli.color import Color, use_color
from prio.render.formats import VALIDATE_RENDERERS as RENDERERS, names

FORMATS = names("validate")


def resolve_format(fmt: str) -> str:
    """`auto`: github inside GitHub Actions, else text."""
    import os

    fmt = (fmt or "text").strip().lower()
    if fmt == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return fmt


def _env_format() -> str:
    """PRIO_OUTPUT, as every command reads it (prio.cli.envformat): another command's format is
    ignored, an unknown value is one line and exit 2."""
    from prio.cli.envformat import env_format

    return env_format(FORMATS) or "text"


def _err(message: str) -> None:
    sys.stderr.write(f"prio: {message}\n")


def run(paths, fmt, *, strict=False, quiet=False, color=False, priority_classes=(), verbose=False,
        output_file=None, config=None, no_config=False, select=(), ignore=(), statistics=False, exit_zero=False) -> int:
    """Validate `paths` and write the report; returns the exit code. `color` is a bool, or a
    Color choice resolved against stdout (never colour in a file)."""
    from prio.cli.common import guarded

    code = guarded(lambda: _run(paths, fmt, strict=strict, quiet=quiet, color=color, priority_classes=priority_classes,
                                verbose=verbose, output_file=output_file, config=config, no_config=no_config,
                                select=select, ignore=ignore, statistics=statistics))
    return 0 if exit_zero and code == 1 else code  # --exit-zero: findings never fail the run; 2 still does


def _run(paths, fmt, *, strict, quiet, color, priority_classes, verbose, output_file, config, no_config, select, ignore,
         statistics=False) -> int:
    import importlib
    from dataclasses import replace

    from prio.lint import settings as settings_mod
    from prio.lint import suppress
    from prio.lint.runner import Options, check_paths
    from prio.lint.rules import all_rules

    fmt = resolve_format(fmt)
    if fmt not in RENDERERS:
        _err(f"unknown output format {fmt!r} (choose from {', '.join(FORMATS)})")
        return 2
    if statistics and fmt not in ("text", "json"):
        _err(f"--statistics prints counts as text or json, not {fmt}")
        return 2
    try:
        settings = settings_mod.load(config, discover=not no_config)
        if select:
            settings.select = settings_mod.resolve_selectors(_split(select), "--select")
        if ignore:
            settings.ignore = settings.ignore | settings_mod.resolve_selectors(_split(ignore), "--ignore")
    except settings_mod.SettingsError as e:
        _err(str(e))
        return 2

    checked, results, errors = check_paths(list(paths), Options(list(priority_classes)))
    for e in errors:
        sys.stderr.write(f"prio: {e}\n")
    if verbose:
        if settings.path:
            sys.stderr.write(f"prio: settings from {settings.path}\n")
        for r in results:
            for n in r.notes:
                sys.stderr.write(("" if n.startswith("prio: ") else "prio: ") + n + "\n")
    report = suppress.apply(results, settings, checked.files)
    report.skipped, report.notes = checked.skipped, checked.notes
    if verbose:
        for n in checked.notes:
            sys.stderr.write(f"prio: {n}\n")
    failing = ("error", "warning") if strict else ("error",)
    code = 2 if errors else 1 if any(f.severity in failing for f in report.findings) else 0

    shown = report
    if quiet:
        shown = replace(report, findings=[f for f in report.findings if f.severity in failing])
    ran = [replace(r, severity=settings.severity.get(r.id, r.severity))
           for r in all_rules().values() if settings.enabled(r.id)]
    to_file = output_file not in (None, "", "-")
    if not isinstance(color, bool):
        color = False if to_file else use_color(Color(color), sys.stdout)
    elif to_file:
        color = False
    renderer = importlib.import_module(RENDERERS[fmt])
    if statistics:
        from prio.render.validate import statistics as stats
        from prio.render.validate.common import input_error_findings

        text = stats.render(input_error_findings(errors) + list(shown.findings), fmt)
    else:
        text = renderer.render(shown, sources={r.name: r.text for r in results}, color=color, rules=ran,
                               input_errors=errors, strict=strict, summary=report.summary())
    if to_file:
        try:
            with open(output_file, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as e:
            _err(f"cannot write {output_file}: {e.strerror or e}")
            return 2
    else:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:  # `prio validate ... | head`: the verdict stands, a closed pipe never passes a run
            from prio.cli.common import quiet_broken_pipe

            quiet_broken_pipe()
    if not quiet:
        from prio.render.validate.text import summary

        sys.stderr.write(summary(report, len(errors)) + "\n")
    return code


def _split(values) -> list:
    out = []
    for v in values:
        out += [s for s in v.replace(" ", ",").split(",") if s]
    return out
