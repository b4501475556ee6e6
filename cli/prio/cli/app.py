"""The typer app: option parsing and wiring only. Every command imports what it needs inside its
body, so `prio --version` and `--help` stay fast (no rich, jsonschema or tabulate)."""
from __future__ import annotations

import sys

import typer

from prio import __version__, backends

app = typer.Typer(
    name="prio",
    help=f"Policy analysis for priority scheduling in Apache YuniKorn (and {backends.TITLES}): "
    "lint queue configs, explain effective priorities, simulate the scheduling order, show what preemption would do.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (typer's own); --version skips typer
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# `kubectl prio --help`: the plugin's own command beside prio's (prio.cli.kubectl_plugin)
PLUGIN_EPILOG = ("kubectl prio also answers: why POD [-n NAMESPACE] (or why NAMESPACE/POD): why a pod waits, or where it "
                 "runs (`kubectl prio why --help`). The commands that read a cluster (explain, simulate, preempt, "
                 "snapshot, diff) read the one of your kubeconfig.")


def set_plugin_help(epilog: str) -> None:
    """The top-level help as `kubectl prio --help` shows it: with the plugin's `why`."""
    app.info.epilog = epilog


def _version(value: bool):
    if value:
        typer.echo(f"prio {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True, help="Show the version and exit."),
):
    """prio: why is this job waiting behind that one?"""


# The commands, in --help order: each module prio.cli.NAME defines SHORT_HELP and either `command`
# (its docstring is the help) or Options, run and HELP (typer_command derives the command), and
# imports its work lazily. They never import the app.
COMMANDS = ("validate", "explain", "simulate", "preempt", "snapshot", "rule", "diff")


def _register() -> None:
    if app.registered_commands:
        return
    import importlib

    from prio.cli.options import typer_command
    from prio.cli.usage import Command

    for name in COMMANDS:
        mod = importlib.import_module(f"prio.cli.{name}")
        # a command of prio.optspec's declarations is derived here, from its options class
        # and runner (its module imports no typer: the fast path, prio.cli.fastpath, uses both)
        command = getattr(mod, "command", None) or typer_command(mod.Options, mod.run, mod.HELP)
        app.command(name, short_help=mod.SHORT_HELP, cls=Command)(command)


def main() -> None:
    argv = sys.argv[1:]
    if argv in (["--version"], ["-V"]):  # the hot path for pre-commit: no typer at all
        try:
            sys.stdout.write(f"prio {__version__}\n")
            sys.stdout.flush()
        except BrokenPipeError:  # `prio --version | true`: quiet, as every command
            from prio.cli.common import quiet_broken_pipe

            quiet_broken_pipe()
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
        from prio.cli.usage import plain_usage_error

        where = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        from prio.cli.guard import say

        say(f"prio: {plain_usage_error(e.format_message())}{where}")  # it may quote an argument: escaped
        sys.exit(getattr(e, "exit_code", 2) or 2)
    except SystemExit:
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # typer's exit 1 for a closed stdout (`prio rule | head -1`, --help)
            from prio.cli.common import quiet_broken_pipe

            quiet_broken_pipe()
            sys.exit(0)
        raise
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("prio: interrupted\n")
        sys.exit(130)
    from prio.cli import lifetime

    lifetime.end(code if isinstance(code, int) else 0)  # stdout is flushed above
