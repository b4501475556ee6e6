"""`prio validate`'s run, without typer: settings -> check -> suppress -> render -> exit code.

The typer command (prio.cli.validate) and the fast path of the console script
(prio.cli.fastpath, which parses validate's arguments without typer) both call `run`: one
implementation. The checker, the renderers (rich, tabulate) and the settings are imported inside
`run`, so importing this module costs nothing."""
from __future__ import annotations

import sys

from prio import backends
from prio.cli.analysis_options import SHARED as ANALYSIS_OPTIONS
from prio.cli.color import CHOICES as COLORS
from prio.cli.color import use_color
from prio.cli.guard import frame, say
from prio.optspec import Arg, Opt, options_class, opts
from prio.render.formats import VALIDATE_RENDERERS as RENDERERS
from prio.render.formats import help_text, names

FORMATS = names("validate")

# validate's arguments and options, declared once: the typer command (prio.cli.validate) and the
# console script's fast path (prio.cli.fastpath) both derive from this, and `run` takes the
# ValidateOptions object either of them builds.
OPTIONS = opts(
    Arg("paths", "PATH", f"queues.yaml files, ConfigMaps, PriorityClass, {backends.spoken((e.manifests for e in backends.CLAIMED), 'or')} "
                         "manifests, directories, or - for stdin.",
        required=True),
    Opt("output", ("-o", "--output"), choices=FORMATS,
        help=help_text("validate", "Default: text. PRIO_OUTPUT sets the default when it names one of these; a format of "
                                   "other prio commands only is ignored, any other value is an error")),
    Opt("output_file", ("--output-file",), "Write the report to PATH instead of standard output.", metavar="PATH",
        envvar="PRIO_OUTPUT_FILE"),
    Opt("config", ("--config",), "The settings file (select, ignore, severity, per-path-ignores). Default: the nearest "
                                 ".prio.yaml from the working directory upward.", metavar="PATH", envvar="PRIO_CONFIG"),
    Opt("no_config", ("--no-config",), "Ignore any .prio.yaml.", type=bool, default=False),
    Opt("select", ("--select",), "Run only these rules (ids, slugs, id prefixes, comma-separated; replaces the config's select).",
        multiple=True, metavar="IDS"),
    Opt("ignore", ("--ignore",), "Do not run these rules (added to the config's ignore).", multiple=True, metavar="IDS"),
    Opt("strict", ("--strict",), "Exit 1 on warnings too.", type=bool, default=False, envvar="PRIO_STRICT"),
    Opt("quiet", ("-q", "--quiet"), "Report only the findings that fail the run (errors; warnings too with --strict), and no summary.",
        type=bool, default=False),
    Opt("color", ("--color",), "Colour the text output (auto: on a terminal, unless NO_COLOR is set).",
        choices=COLORS, default=COLORS[0], envvar="PRIO_COLOR"),
    Opt("priority_classes", ("--priority-classes",), "PriorityClass manifests to check the queue offsets against.",
        multiple=True, metavar="FILE"),
    Opt("verbose", ("-v", "--verbose"), "Say which documents were skipped.", type=bool, default=False),
    Opt("statistics", ("--statistics",), "Print how many findings each rule produced, most first, instead of the findings "
                                         "(with -o text or json).", type=bool, default=False),
    Opt("exit_zero", ("--exit-zero",), "Exit 0 even when findings fail the run (2 still means prio could not run).",
        type=bool, default=False),
    ANALYSIS_OPTIONS["yunikorn_version"].but(help=ANALYSIS_OPTIONS["yunikorn_version"].help.replace(
        "Default: the newest", "Default: .prio.yaml's yunikornVersion, else the newest")),
    Opt("upgrade_to", ("--upgrade-to",), "Report only what changes meaning when YuniKorn --yunikorn-version is upgraded to this "
                                         "release (PRIO216): keys that stop or start being read, values read otherwise, configs "
                                         "refused after the upgrade.", metavar="X.Y"),
)
ValidateOptions = options_class("ValidateOptions", OPTIONS)


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
    import os

    if not os.environ.get("PRIO_OUTPUT", "").strip():  # unset (the common case): not even envformat is loaded
        return "text"
    from prio.cli.envformat import env_format

    return env_format(FORMATS) or "text"


def _err(message: str) -> None:
    say(f"prio: {message}")


def run(o: ValidateOptions) -> int:
    """Validate `o.paths` and write the report; returns the exit code. Without -o, PRIO_OUTPUT
    (else text); --color is resolved against stdout (never colour in a file)."""
    from prio.cli.guard import guarded

    fmt = o.output or _env_format()
    code = guarded(lambda: _run(o, fmt), o.paths)
    return 0 if o.exit_zero and code == 1 else code  # --exit-zero: findings never fail the run; 2 still does


def _run(o: ValidateOptions, fmt: str) -> int:
    import importlib
    from dataclasses import replace

    from prio.lint import settings as settings_mod
    from prio.lint import suppress
    from prio.lint.rules import all_rules
    from prio.lint.runner import Options, check_paths

    fmt = resolve_format(fmt)
    if fmt not in RENDERERS:
        _err(f"unknown output format {fmt!r} (choose from {', '.join(FORMATS)})")
        return 2
    if o.statistics and fmt not in ("text", "json"):
        _err(f"--statistics prints counts as text or json, not {fmt}")
        return 2
    from prio.cli.outfile import refuse_inputs

    refuse_inputs(o.output_file, [*o.paths, *o.priority_classes, o.config])  # before anything is read
    try:
        settings = settings_mod.load(o.config, discover=not o.no_config)
        if o.select:
            settings.select = settings_mod.resolve_selectors(_split(o.select), "--select")
        if o.ignore:
            settings.ignore = settings.ignore | settings_mod.resolve_selectors(_split(o.ignore), "--ignore")
    except settings_mod.SettingsError as e:
        _err(str(e))
        return 2
    if not any(settings.enabled(rid) for rid in all_rules()):
        # a check that runs nothing never passes silently (a planted `ignore: [ALL]`)
        where = "--select/--ignore" if o.select or o.ignore else settings.path
        if not settings.allow_no_rules:
            _err(f"{where}: leaves no rule on, so validate would check nothing and pass "
                 "(`allow-no-rules: true` in .prio.yaml if that is meant)")
            return 2
        _err(f"note: no rule is on ({where}, allow-no-rules: true): nothing was checked")
    refuse_inputs(o.output_file, [settings.path])  # the .prio.yaml found upward is an input too
    from prio.yunikorn import releases

    release = releases.get(o.yunikorn_version or settings.yunikorn_version)
    target = releases.get(o.upgrade_to) if o.upgrade_to is not None else None
    for given, got in ((o.yunikorn_version, release), (o.upgrade_to, target)):
        if given is not None and got is None:
            _err(f"unknown YuniKorn release {given!r} (prio knows {', '.join(releases.NAMES)})")
            return 2
    if target is not None and releases.NAMES.index(target.name) < releases.NAMES.index(release.name):
        _err(f"--upgrade-to {target.name} is older than YuniKorn {release.name}, the release judged for: "
             "give the release you run now with --yunikorn-version")
        return 2

    checked, results, errors = check_paths(list(o.paths), Options(list(o.priority_classes), release))
    if target is not None:
        from prio.yunikorn.lint.upgrade import upgrade

        upgrade(results, release, target)
    for e in errors:
        say(str(e))
        sys.stderr.write(frame(e))  # a syntax error shows its line and a caret
    if o.verbose:
        if settings.path:
            say(f"prio: settings from {settings.path}")
        elif o.no_config:
            sys.stderr.write("prio: settings: none (--no-config)\n")
        else:
            where = "from here up to the repository root" if settings_mod.repository_root() else \
                "in the working directory (outside a repository no folder above it is searched)"
            say(f"prio: settings: none (no .prio.yaml or .prio.yml {where})")
        for r in results:
            for n in r.notes:
                say(n)
    report = suppress.apply(results, settings, checked.files)
    report.skipped, report.notes = checked.skipped, checked.notes
    if o.verbose:
        for n in checked.notes:
            say(f"prio: {n}")
    failing = ("error", "warning") if o.strict else ("error",)
    code = 2 if errors else 1 if any(f.severity in failing for f in report.findings) else 0

    shown = report
    if o.quiet:
        shown = replace(report, findings=[f for f in report.findings if f.severity in failing])
    sev = settings.severity
    ran = [replace(r, severity=sev[r.id]) if sev.get(r.id, r.severity) != r.severity else r  # a copy only where it differs
           for r in all_rules().values() if settings.enabled(r.id)]
    to_file = o.output_file not in (None, "", "-")
    color = False if to_file else use_color(o.color, sys.stdout)
    renderer = importlib.import_module(RENDERERS[fmt])
    if o.statistics:
        from prio.render.validate import statistics as stats
        from prio.render.validate.common import input_error_findings

        text = stats.render(input_error_findings(errors) + list(shown.findings), fmt)
    else:
        # In text on a terminal or a pipe, each unreadable input is the `prio: FILE: reason` line on stderr,
        # once; a text file, like every machine format, records it as a PRIO000 entry too.
        shown_errors = errors if fmt != "text" or to_file else []
        text = renderer.render(shown, sources={r.name: r.text for r in results}, color=color, rules=ran,
                               input_errors=shown_errors, strict=o.strict, summary=report.summary())
    if to_file:
        from prio.cli.outfile import write_text

        write_text(o.output_file, text)  # a path that cannot be written: one line, exit 2 (guarded)
    else:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:  # `prio validate ... | head`: the verdict stands, a closed pipe never passes a run
            from prio.cli.guard import quiet_broken_pipe

            quiet_broken_pipe()
    if not o.quiet:
        from prio.render.validate.text import summary

        sys.stderr.write(summary(report, errors) + "\n")
    return code


def _split(values) -> list:
    out = []
    for v in values:
        out += [s for s in v.replace(" ", ",").split(",") if s]
    return out
