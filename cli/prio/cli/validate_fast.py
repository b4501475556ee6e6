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
against the options the typer command declares. PRIO_NO_FAST_PATH=1 always takes the typer path.
"""
from __future__ import annotations

import os
import sys

# validate's options as the typer command declares them (prio.cli.validate.command): the option
# string -> the parameter. A test compares this table with the typer command's parameters.
LONG = {
    "--output": "output", "--output-file": "output_file", "--config": "config", "--no-config": "no_config",
    "--select": "select", "--ignore": "ignore", "--strict": "strict", "--quiet": "quiet", "--color": "color",
    "--priority-classes": "priority_classes", "--verbose": "verbose", "--statistics": "statistics",
    "--exit-zero": "exit_zero",
}
SHORT = {"o": "output", "q": "quiet", "v": "verbose"}
FLAGS = ("no_config", "strict", "quiet", "verbose", "statistics", "exit_zero")
MULTIPLE = ("select", "ignore", "priority_classes")
SINGLE = ("output", "output_file", "config", "color")  # one value; the last one given wins
ENVVARS = {"output_file": "PRIO_OUTPUT_FILE", "config": "PRIO_CONFIG", "strict": "PRIO_STRICT", "color": "PRIO_COLOR"}
COLORS = ("auto", "always", "never")
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


def parse(args: list[str], environ=os.environ) -> dict | None:
    """validate's keyword arguments for `run` (plus `paths` and `output`), or None: let typer do it."""
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
                if not _text(value):
                    return None
                given[dest] = value
    strict = given.get("strict", False)
    if isinstance(strict, str):  # from PRIO_STRICT
        word = strict.strip()
        if not word.isascii():
            return None
        word = word.lower()
        if word in TRUE:
            strict = True
        elif word in FALSE or word == "":
            strict = False
        else:
            return None
    output = given.get("output")
    if output is not None:
        from prio.cli.validate_run import FORMATS

        output = _choice(output, FORMATS)
        if output is None:
            return None
    color = _choice(given.get("color", "auto"), COLORS)
    if color is None:
        return None
    return {
        "paths": paths, "output": output, "output_file": given.get("output_file"), "config": given.get("config"),
        "no_config": given.get("no_config", False), "select": multiple["select"], "ignore": multiple["ignore"],
        "strict": strict, "quiet": given.get("quiet", False), "color": color,
        "priority_classes": multiple["priority_classes"], "verbose": given.get("verbose", False),
        "statistics": given.get("statistics", False), "exit_zero": given.get("exit_zero", False),
    }


def invoke(kw: dict) -> int:
    """What the typer command does with its parsed options."""
    from prio.cli import validate_run as v

    kw = dict(kw)
    paths, output = kw.pop("paths"), kw.pop("output")
    return v.run(paths, output or v._env_format(), **kw)


def main(args: list[str]) -> None:
    """Run `prio validate ARGS` and exit, as prio.cli.app.main would; return (doing nothing) when
    typer must read these arguments."""
    kw = parse(args)
    if kw is None:
        return
    try:
        code = invoke(kw)
    except KeyboardInterrupt:  # typer: Exit(130), no message
        code = 130
    except BrokenPipeError:  # click: an EPIPE out of a command exits 1, quietly
        from prio.cli.common import quiet_broken_pipe

        quiet_broken_pipe()
        sys.exit(1)
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # as prio.cli.app.main: quiet, exit 0
        from prio.cli.common import quiet_broken_pipe

        quiet_broken_pipe()
        sys.exit(0)
    sys.exit(code)
