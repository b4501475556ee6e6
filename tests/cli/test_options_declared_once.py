"""Options declared once (issue 27): validate's typer command and the console script's fast path
derive from one declaration and must agree on every option (names, types, defaults, choices,
limits, environment variables); the commands hand their runners one options object, never a
list of positional parameters."""
from __future__ import annotations

import dataclasses
import inspect
import typing

import enum

import pytest
import typer.main

from prio.cli import validate_fast as vf


def _command(name):
    from prio.cli.app import _register, app

    _register()
    return typer.main.get_command(app).commands[name]


def _typer_options(name):
    return {p.name: p for p in _command(name).params if p.param_type_name == "option" and p.name != "help"}


def _plain(value):
    value = getattr(value, "value", value)
    return tuple(value) if isinstance(value, list) else value


def test_validate_typer_and_fast_path_agree_on_every_option():
    typer_opts = _typer_options("validate")
    fast_defaults = vf.parse(["x.yaml"], {})  # every option at its default, as the fast path reads it
    assert fast_defaults is not None
    fast_names = set(vf.LONG.values()) | set(vf.SHORT.values())
    assert set(typer_opts) == fast_names == set(vf.FLAGS) | set(vf.MULTIPLE) | set(vf.SINGLE)
    for name, p in typer_opts.items():
        # names: every flag string leads to the same parameter
        for o in p.opts + p.secondary_opts:
            assert (vf.LONG.get(o) if o.startswith("--") else vf.SHORT.get(o[1:])) == name, o
        # types: a flag, a repeatable option, a choice or a text
        assert (name in vf.FLAGS) == bool(p.is_flag), name
        assert (name in vf.MULTIPLE) == bool(p.multiple), name
        kind = p.type_descriptor.annotation
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            assert vf.CHOICES.get(name) == tuple(m.value for m in kind), name
            assert not p.type_descriptor.parameter_info.case_sensitive  # the fast path casefolds, as typer does here
        else:
            assert name not in vf.CHOICES, name
            assert kind in ((bool,) if p.is_flag else (str, typing.List[str])), (name, kind)
        # limits: the fast path reads texts only; a number (and its limits) is typer's
        assert p.min is None and p.max is None, name
        # defaults
        assert _plain(p.default) == _plain(getattr(fast_defaults, name)), name
        # environment variables
        assert p.envvar == vf.ENVVARS.get(name), name
    assert fast_defaults.paths == ("x.yaml",)


def test_validate_options_object_is_the_declaration():
    from prio.cli.validate_run import OPTIONS, ValidateOptions

    assert [f.name for f in dataclasses.fields(ValidateOptions)] == [d.name for d in OPTIONS]
    params = [p.name for p in _command("validate").params if p.name != "help"]
    assert params == [d.name for d in OPTIONS]


def test_a_number_option_is_left_to_typer():
    """The fast path never converts a number (or checks its limit) itself."""
    from prio.cli.optspec import Opt

    d = Opt("n", ("--n",), type=int, min=0)
    assert vf._value(d, "3") is None


def test_validate_runner_takes_one_options_object():
    """validate's runner takes the options object alone (it had three signatures of 14 options)."""
    from prio.cli import validate_run

    assert list(inspect.signature(validate_run.run).parameters) == ["o"]
