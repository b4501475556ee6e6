"""The typer app: option parsing and wiring only. Every command imports what it needs inside its
body, so `prio --version` and `--help` stay fast (no rich, jsonschema or tabulate)."""
from __future__ import annotations

import os
import sys

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


def _version(value: bool):
    if value:
        typer.echo(f"prio {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True, help="Show the version and exit."),
):
    """prio: why is this job waiting behind that one?"""


# The commands, in --help order: each module prio.cli.NAME defines `command` (its docstring is the
# help) and SHORT_HELP, parses its options and imports its work lazily. They never import the app.
COMMANDS = ("validate", "explain", "simulate", "preempt", "snapshot", "rule", "diff")


def _register() -> None:
    _plain_arguments()
    if app.registered_commands:
        return
    import importlib

    for name in COMMANDS:
        mod = importlib.import_module(f"prio.cli.{name}")
        app.command(name, short_help=mod.SHORT_HELP)(mod.command)


# pydantic's wording (typer validates through it) as a one-line usage error says it.
_PLAIN = (
    (r"Input should be greater than or equal to (\S+)", r"must be \1 or more"),
    (r"Input should be less than or equal to (\S+)", r"must be \1 or less"),
    (r"Input should be greater than (\S+)", r"must be more than \1"),
    (r"Input should be less than (\S+)", r"must be less than \1"),
    (r"Input should be a valid integer(, [^(]*)?", "must be a whole number"),
    (r"Input should be a valid number(, [^(]*)?", "must be a number"),
    (r"Value error, ", ""),
    (r"Invalid value for '([^']+)'( / '([^']+)')?( \(env var: '([^']+)'\))?: ",
     lambda m: f"{m.group(3) or m.group(1)}" + (f" (or {m.group(5)})" if m.group(5) else "") + ": "),
)


def plain_usage(message: str) -> str:
    import re

    for pattern, repl in _PLAIN:
        message = re.sub(pattern, repl, message)
    return " ".join(message.split()).rstrip(".")


def _plain_arguments() -> None:
    """Arguments in --help as users read them (INPUT..., OLD NEW, [ID]), not typer's `INPUT
    <list[str]>`, `{OLD}` or `[[ID]]`: no type after the name, braces never, one pair of brackets."""
    from typer import core

    arg = getattr(core, "TyperArgument", None)
    if arg is None or getattr(arg, "_prio_plain", False):
        return
    if hasattr(arg, "display_type_rich"):
        arg.display_type_rich = lambda self, ctx=None: None
    if hasattr(arg, "display_type"):
        arg.display_type = lambda self, ctx=None: ""

    def usage(self) -> str:
        name = (self.metavar or (self.name or "").upper()).strip("[]")
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    if hasattr(arg, "_usage_display_name"):
        arg._usage_display_name = usage
    arg._prio_plain = True


def main() -> None:
    argv = sys.argv[1:]
    if argv in (["--version"], ["-V"]):  # the hot path for pre-commit: no typer at all
        sys.stdout.write(f"prio {__version__}\n")
        return
    _register()
    try:
        code = app(standalone_mode=False)
        sys.stdout.flush()
    except BrokenPipeError:  # stdout closed early (`| head -1`): quiet, whatever the format
        from prio.cli.common import quiet_broken_pipe

        quiet_broken_pipe()
        sys.exit(0)
    except typer.TyperException as e:
        ctx = getattr(e, "ctx", None)
        if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
            sys.stdout.write(ctx.get_help() + "\n")
            sys.exit(0)
        # Usage errors: one line, as for any input prio cannot run on (exit 2).
        where = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        sys.stderr.write(f"prio: {plain_usage(e.format_message())}{where}\n")
        sys.exit(getattr(e, "exit_code", 2) or 2)
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("prio: interrupted\n")
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
