"""Options explain and simulate share, declared once (typer only: keep --help fast)."""
from __future__ import annotations

import functools

import typer

from prio.cli.color import Color, use_color  # noqa: F401 - typer-free, re-exported for the commands
from prio.render.formats import help_text


INPUTS = typer.Argument(None, metavar="INPUT", help="Queue config, snapshot, REST dumps, kubectl pod lists, PriorityClasses, an Armada scenario, in any order (recognised by content). None: the bundled walkthrough.")
SAMPLE = typer.Option(None, "--sample", metavar="NAME", help="Use a bundled sample: walkthrough (the default), batch, mistakes, yunikorn-configs, priorityclasses, pods, preemption, armada-current, armada-scenario, armada-reports (an unknown name lists them all).")
OUTPUT = typer.Option(None, "-o", "--output", metavar="FORMAT", help=help_text("explain", "Default from PRIO_OUTPUT"))
COLOR = typer.Option(Color.auto, "--color", case_sensitive=False, envvar="PRIO_COLOR", help="Colour the table output (auto: on a terminal, unless NO_COLOR is set; default from PRIO_COLOR).")
OUTPUT_FILE = typer.Option(None, "--output-file", metavar="PATH", help="Write the report to PATH instead of standard output (never coloured; plain unless -o says otherwise).")
PARTITION = typer.Option(None, "--partition", metavar="NAME", help="The partition (default: the snapshot's, else default).")
PRIORITY_CLASSES = typer.Option([], "--priority-classes", metavar="FILE", help="PriorityClass manifests: resolve priorityClassName, and show the range each class maps to per queue.")
ARMADA_DECAY = typer.Option("code", "--armada-decay", metavar="code|document", help="Armada scenarios: code (true half-life, default) or document (the doc's formula).")
ARMADA_WEIGHTING = typer.Option("current", "--armada-weighting", metavar="current|legacy", help="Armada scenarios: current (unknown resources weigh 0) or legacy (1).")
ARMADA_MODEL = typer.Option(None, "--armada-model", metavar="current|legacy", help="Armada scenarios: current (DRF fair share, the default) or legacy (usage decay, up to 2022); a scenario's scheduler: field says the same.")
VERBOSE = typer.Option(False, "-v", "--verbose", help="Say what each input was recognised as.")
# Reading a running YuniKorn (explain, simulate, snapshot; preempt and diff reuse them).
YUNIKORN = typer.Option(None, "--yunikorn", metavar="URL", help="Read the config, queues, applications and nodes from a running YuniKorn's REST API (read-only, GET only), e.g. http://localhost:9080. Default from PRIO_YUNIKORN_URL when no input files are given.")
YUNIKORN_DIFF = typer.Option(None, "--yunikorn", metavar="URL", help="Compare OLD and NEW on the pending work of a running YuniKorn (read-only, GET only); OLD or NEW may be the word live: the config the server runs. PRIO_YUNIKORN_URL stands in when OLD or NEW is live and no INPUT is given.")
HEADER = typer.Option([], "--header", metavar="'NAME: VALUE'", help="With --yunikorn: an HTTP header to send (repeatable), e.g. 'Authorization: Bearer TOKEN'. PRIO_YUNIKORN_HEADER adds headers too (one per line), so a token stays out of shell history.")
CACERT = typer.Option(None, "--cacert", metavar="FILE", help="With an https:// --yunikorn: the CA bundle (PEM) to verify the server with (default from PRIO_YUNIKORN_CACERT). TLS is always verified.")
TIMEOUT = typer.Option(None, "--timeout", min=0.001, metavar="SECONDS", help="With --yunikorn: seconds to wait to connect and for each read (default 10, or PRIO_YUNIKORN_TIMEOUT).")


# ---- the typer side of prio.cli.optspec: a command's typer signature, derived -------------------

@functools.lru_cache(maxsize=None)
def choice_enum(d):
    """The str Enum typer checks an option's choices with (one per declaration)."""
    from enum import Enum

    return Enum("".join(w.title() for w in d.name.split("_")), {c: c for c in d.choices}, type=str)


def typer_param(d):
    """(annotation, typer default) for one declaration, as typer reads a parameter."""
    from typing import List, Optional

    from prio.cli.optspec import Arg

    if isinstance(d, Arg):
        annotation = List[str] if d.multiple else str
        return annotation, typer.Argument(... if d.required else None, metavar=d.metavar, help=d.help)
    if d.flag:
        annotation, default = bool, d.default
    elif d.multiple:
        annotation, default = List[d.type], []
    elif d.choices:
        kind = choice_enum(d)
        annotation = kind if d.default is not None else Optional[kind]
        default = kind(d.default) if d.default is not None else None
    else:
        annotation, default = (d.type if d.default is not None else Optional[d.type]), d.default
    return annotation, typer.Option(default, *d.flags, metavar=d.metavar, envvar=d.envvar, help=d.help, min=d.min,
                                    case_sensitive=not d.choices, hidden=d.hidden)


def typer_command(cls, run, doc: str):
    """The typer command of an options class: a function whose signature typer reads (one
    parameter per declaration, in order) and whose body builds the options object and calls
    `run` with it: parse -> options object -> runner -> exit code."""
    import inspect

    from prio.cli.optspec import build

    params, annotations = [], {}
    for d in cls.DECLS:
        annotation, default = typer_param(d)
        params.append(inspect.Parameter(d.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
        annotations[d.name] = annotation

    def command(**values):
        raise typer.Exit(run(build(cls, values)))

    command.__signature__ = inspect.Signature(params)
    command.__annotations__ = annotations
    command.__doc__ = doc
    command.__name__ = command.__qualname__ = f"{cls.__name__}_command"
    return command
