"""`prio validate ...` without typer: the pre-commit hot path (issue 13).

Importing typer (and the pydantic and click it loads) costs several times a whole `prio validate`
of a small config. The console script (prio.cli.entry) hands `prio validate ARGS` here first;
`parse` reads ARGS the way typer's click parser reads them, but only for the shapes it can read
exactly: paths, `-`, validate's own options (long, short, clustered short flags, `-oFORMAT`,
`--opt=value`), `--`, and the environment variables typer reads for validate (PRIO_OUTPUT_FILE,
PRIO_CONFIG, PRIO_STRICT, PRIO_COLOR). Anything else (help, completion, unknown or malformed
options, a missing value, a value that looks like an option, an invalid choice, a text that is
not UTF-8, no PATH) returns None and the typer app handles the run, so messages and exit codes
are the typer path's in every case. tests/cli/test_validate_fast.py runs both paths on a matrix of
argument shapes and compares stdout, stderr and the exit code; it also checks the table below
against the options the typer command derives from the same declaration. PRIO_NO_FAST_PATH=1 always takes the typer path.
"""
from __future__ import annotations

import os
import sys

from prio.cli.optspec import Opt, build
from prio.cli.validate_run import OPTIONS, ValidateOptions

# The parser's tables, derived from validate's one declaration (prio.cli.validate_run.OPTIONS),
# as the typer command is: the option string -> the parameter, and what each parameter takes.
_OPTS = tuple(d for d in OPTIONS if isinstance(d, Opt))
LONG = {f: d.name for d in _OPTS for f in d.flags if f.startswith("--")}
SHORT = {f[1:]: d.name for d in _OPTS for f in d.flags if not f.startswith("--")}
FLAGS = tuple(d.name for d in _OPTS if d.flag)
MULTIPLE = tuple(d.name for d in _OPTS if d.multiple)
SINGLE = tuple(d.name for d in _OPTS if not d.flag and not d.multiple)  # one value; the last one given wins
ENVVARS = {d.name: d.envvar for d in _OPTS if d.envvar}
CHOICES = {d.name: d.choices for d in _OPTS if d.choices}
COLORS = CHOICES["color"]
# The texts a boolean environment variable may hold (typer: stripped, then pydantic's lax bool).
TRUE = ("1", "on", "t", "true", "y", "yes")
FALSE = ("0", "off", "f", "false", "n", "no")


def _text(s: str) -> bool:
    """A text typer reads as it is (pydantic refuses lone surrogates: leave those to typer)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _choice(value: str, choices) -> str | None:
    """typer's case-insensitive choice: both sides casefolded."""
    v = value.casefold()
    for c in choices:
        if c.casefold() == v:
            return c
    return None


def parse(args: list[str], environ=os.environ) -> ValidateOptions | None:
    """validate's options object for `run`, or None: let typer do it."""
    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in environ):
        return None  # a shell-completion request
    if not all(_text(a) for a in args):
        return None
    given: dict = {}
    multiple: dict = {m: [] for m in MULTIPLE}
    paths: list[str] = []

    def store(dest: str, value: str) -> None:
        if dest in MULTIPLE:
            multiple[dest].append(value)
        else:
            given[dest] = value

    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            paths += args[i:]
            break
        if len(arg) < 2 or arg[0] != "-":
            paths.append(arg)
            continue
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            dest = LONG.get(name)
            if dest is None:
                return None
            if dest in FLAGS:
                if eq:
                    return None  # "does not take a value"
                given[dest] = True
                continue
            if not eq:
                if i >= n or (args[i].startswith("-") and args[i] != "-"):
                    return None  # a missing value, or one that looks like an option
                value = args[i]
                i += 1
            store(dest, value)
            continue
        j = 1  # -qv, -o json, -ojson, -qo json: click's clustered short options
        while j < len(arg):
            dest = SHORT.get(arg[j])
            j += 1
            if dest is None:
                return None
            if dest in FLAGS:
                given[dest] = True
                continue
            if j < len(arg):
                value = arg[j:]
            else:
                if i >= n or (args[i].startswith("-") and args[i] != "-"):
                    return None
                value = args[i]
                i += 1
            store(dest, value)
            break
    if not paths:
        return None  # typer's "Missing argument"

    for dest, var in ENVVARS.items():
        if dest not in given:
            value = environ.get(var)
            if value:  # click: an empty variable is no variable
                if not _text(value) or dest in MULTIPLE:
                    return None
                given[dest] = value
    values: dict = {"paths": paths, **multiple}
    for d in _OPTS:
        if d.name in given:
            value = _value(d, given[d.name])
            if value is None:
                return None
            values[d.name] = value
        elif d.multiple and (d.choices or d.type is not str):
            if any(_value(d, v) is None for v in values[d.name]):
                return None
    return build(ValidateOptions, values)


def _value(d, value):
    """One parsed value as typer converts it, or None: leave this one to typer."""
    if d.flag:
        if not isinstance(value, str):
            return value  # given on the command line
        word = value.strip()  # from the environment variable
        if not word.isascii():
            return None
        word = word.lower()
        if word in TRUE:
            return True
        if word in FALSE or word == "":
            return False
        return None
    if d.type is not str:
        return None  # numbers (and their limits): typer reads them
    if d.choices:
        return _choice(value, d.choices)
    return value


def invoke(o: ValidateOptions) -> int:
    """What the typer command does with its parsed options."""
    from prio.cli import validate_run

    return validate_run.run(o)


def main(args: list[str]) -> None:
    """Run `prio validate ARGS` and exit, as prio.cli.app.main would; return (doing nothing) when
    typer must read these arguments."""
    o = parse(args)
    if o is None:
        return
    try:
        code = invoke(o)
    except KeyboardInterrupt:  # typer: Exit(130), no message
        code = 130
    except BrokenPipeError:  # click: an EPIPE out of a command exits 1, quietly
        from prio.cli.guard import quiet_broken_pipe

        quiet_broken_pipe()
        sys.exit(1)
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # as prio.cli.app.main: quiet, exit 0
        from prio.cli.guard import quiet_broken_pipe

        quiet_broken_pipe()
        sys.exit(0)
    sys.exit(code)
