"""The typer side of prio.optspec: a command's typer signature, derived from its options
class (the declarations live with the commands and in prio.cli.analysis_options, as data)."""
from __future__ import annotations

import functools

import typer


@functools.cache
def choice_enum(d):
    """The str Enum typer checks an option's choices with (one per declaration)."""
    from enum import Enum

    return Enum("".join(w.title() for w in d.name.split("_")), {c: c for c in d.choices}, type=str)


def typer_param(d):
    """(annotation, typer default) for one declaration, as typer reads a parameter."""
    from typing import Optional

    from prio.optspec import Arg

    if isinstance(d, Arg):
        annotation = list[str] if d.multiple else str
        return annotation, typer.Argument(... if d.required else None, metavar=d.metavar, help=d.help)
    if d.flag:
        annotation, default = bool, d.default
    elif d.multiple:
        annotation, default = list[d.type], []
    elif d.choices:
        kind = choice_enum(d)
        annotation = kind if d.default is not None else Optional[kind]  # noqa: UP045 - typer reads the annotation at run time: typing's form
        default = kind(d.default) if d.default is not None else None
    else:
        annotation, default = (d.type if d.default is not None else Optional[d.type]), d.default  # noqa: UP045 - as above
    return annotation, typer.Option(default, *d.flags, metavar=d.metavar, envvar=d.envvar, help=d.help, min=d.min,
                                    case_sensitive=not d.choices, hidden=d.hidden)


def typer_command(cls, run, doc: str):
    """The typer command of an options class: a function whose signature typer reads (one
    parameter per declaration, in order) and whose body builds the options object and calls
    `run` with it: parse -> options object -> runner -> exit code."""
    import inspect

    from prio.optspec import build

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
