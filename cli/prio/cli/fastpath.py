"""The hot commands without typer: `prio validate` (pre-commit's hook, issue 13) and the analysis
commands `simulate`, `explain`, `preempt` and `diff` (issue 27: on a small input typer's import,
and the pydantic it loads to convert values, cost about as much as the whole run).

The console script (prio.cli.entry) hands `prio COMMAND ARGS` here first. `parse` reads ARGS the
way typer's click parser reads them, from the command's one declaration (its options class's
DECLS, prio.optspec), but only for the shapes it can read exactly: positional arguments,
`-`, the command's options (long, short, clustered short flags, `-oFORMAT`, `--opt=value`),
`--`, plain decimal numbers within their limits, and the environment variables typer reads for
the command. Anything else (help, completion, unknown or malformed options, a missing value or
argument, a value that looks like an option, an invalid choice, a number typer would have to
read, a text that is not UTF-8) returns None and the typer app handles the run, so messages and
exit codes are the typer path's in every case. tests/cli/test_fastpath.py runs both paths on a
matrix of argument shapes per command and compares stdout, stderr, the exit code and the files
written; it also checks the tables against the options the typer commands derive from the same
declarations. PRIO_NO_FAST_PATH=1 always takes the typer path.
"""
from __future__ import annotations

import os
import sys

# command -> (the module with its options class and runner, the class, the runner): modules
# that import no typer (the typer commands are derived from the same two, prio.cli.app)
COMMANDS = {
    "validate": ("prio.cli.validate_run", "ValidateOptions", "run"),
    "simulate": ("prio.cli.simulate", "Options", "run"),
    "explain": ("prio.cli.explain", "Options", "run"),
    "preempt": ("prio.cli.preempt", "Options", "run"),
    "diff": ("prio.cli.diff", "Options", "run"),
}
# The texts a boolean environment variable may hold (typer: stripped, then pydantic's lax bool).
TRUE = ("1", "on", "t", "true", "y", "yes")
FALSE = ("0", "off", "f", "false", "n", "no")
# The numbers read here: plain decimals that int() and typer's conversion read alike, and small.
_MAX_DIGITS = 18


class Table:
    """A command's parser tables, derived from its declarations: the option string -> the
    parameter, and what each parameter takes."""

    def __init__(self, decls):
        from prio.optspec import Opt

        self.opts = tuple(d for d in decls if isinstance(d, Opt))
        self.args = tuple(d for d in decls if not isinstance(d, Opt))
        self.long = {f: d.name for d in self.opts for f in d.flags if f.startswith("--")}
        self.short = {f[1:]: d.name for d in self.opts for f in d.flags if not f.startswith("--")}
        self.flags = tuple(d.name for d in self.opts if d.flag)
        self.multiple = tuple(d.name for d in self.opts if d.multiple)
        self.single = tuple(d.name for d in self.opts if not d.flag and not d.multiple)  # the last one given wins
        self.envvars = {d.name: d.envvar for d in self.opts if d.envvar}
        self.choices = {d.name: d.choices for d in self.opts if d.choices}


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


def parse(cls, args: list[str], environ=os.environ):
    """The options object of `cls` (a command's options class) for ARGS, or None: let typer do it."""
    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in environ):
        return None  # a shell-completion request
    if not all(_text(a) for a in args):
        return None
    t = Table(cls.DECLS)
    given: dict = {}
    multiple: dict = {m: [] for m in t.multiple}
    positional: list[str] = []

    def store(dest: str, value: str) -> None:
        if dest in multiple:
            multiple[dest].append(value)
        else:
            given[dest] = value

    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            positional += args[i:]
            break
        if len(arg) < 2 or arg[0] != "-":
            positional.append(arg)
            continue
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            dest = t.long.get(name)
            if dest is None:
                return None
            if dest in t.flags:
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
            dest = t.short.get(arg[j])
            j += 1
            if dest is None:
                return None
            if dest in t.flags:
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
    values = _arguments(t.args, positional)
    if values is None:
        return None

    for dest, var in t.envvars.items():
        if dest not in given:
            value = environ.get(var)
            if value:  # click: an empty variable is no variable
                if not _text(value) or dest in multiple:
                    return None
                given[dest] = value
    values.update(multiple)
    for d in t.opts:
        if d.name in given:
            value = _value(d, given[d.name])
            if value is None:
                return None
            values[d.name] = value
        elif d.multiple and (d.choices or d.type is not str):
            if any(_value(d, v) is None for v in values[d.name]):
                return None
    from prio.optspec import build

    return build(cls, values)


def _arguments(args, positional: list[str]) -> dict | None:
    """The positional values by argument, as click hands them out (one each to the single
    arguments, the rest to the one taking any number), or None where typer must say what is
    missing or too much."""
    single = [a for a in args if not a.multiple]
    many = [a for a in args if a.multiple]
    if len(many) > 1 or (many and args[-1] is not many[0]):
        return None  # not a shape this reads
    if len(positional) < len(single) or (not many and len(positional) > len(single)):
        return None
    values = {a.name: positional[k] for k, a in enumerate(single)}
    if many:
        rest = positional[len(single):]
        if many[0].required and not rest:
            return None  # typer's "Missing argument"
        values[many[0].name] = rest
    return values


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
    if d.type is int:
        if not (value.isascii() and value.isdigit() and len(value) <= _MAX_DIGITS and (value == "0" or value[0] != "0")):
            return None  # signs, spaces, underscores, leading zeros, huge: typer reads (or refuses) them
        number = int(value)
        return None if d.min is not None and number < d.min else number
    if d.type is not str:
        return None  # other numbers (and their limits): typer reads them
    if d.choices:
        return _choice(value, d.choices)
    return value


def command(name: str) -> tuple:
    """The fast command `name`: (its options class, its runner)."""
    import importlib

    module, cls_name, run_name = COMMANDS[name]
    mod = importlib.import_module(module)
    return getattr(mod, cls_name), getattr(mod, run_name)


def main(name: str, args: list[str]) -> None:
    """Run `prio NAME ARGS` and exit, as prio.cli.app.main would; return (doing nothing) when
    typer must read these arguments."""
    cls, run = command(name)
    o = parse(cls, args)
    if o is None:
        return
    from prio.cli import lifetime

    lifetime.ACTIVE = True  # as the typer path: this process is prio's own (lifetime.py)
    try:
        code = run(o)
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
    code = code if isinstance(code, int) else 0
    lifetime.end(code)
