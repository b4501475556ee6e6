"""Options declared once (issue 27): each command's typer command and the console script's fast
path (validate, simulate, explain, preempt, diff) derive from one declaration and must agree on
every option (names, types, defaults, choices,
limits, environment variables); the commands hand their runners one options object, never a
list of positional parameters."""
from __future__ import annotations

import dataclasses
import enum
import inspect
import typing

import pytest
import typer.main

from prio.cli import fastpath


def _command(name):
    from prio.cli.app import _register, app

    _register()
    return typer.main.get_command(app).commands[name]


def _typer_options(name):
    return {p.name: p for p in _command(name).params if p.param_type_name == "option" and p.name != "help"}


def _plain(value):
    value = getattr(value, "value", value)
    return tuple(value) if isinstance(value, list) else value


def _options_class(name):
    return fastpath.command(name)[0]


def _bare_args(name):
    """The fewest positional arguments the command takes."""
    return ["old.yaml", "new.yaml"] if name == "diff" else ["x.yaml"]


@pytest.mark.parametrize("name", sorted(fastpath.COMMANDS))
def test_typer_and_fast_path_agree_on_every_option(name, monkeypatch):
    for var in ("PRIO_COLOR", "PRIO_ENGINE", "PRIO_OUTPUT_FILE", "PRIO_CONFIG", "PRIO_STRICT"):
        monkeypatch.delenv(var, raising=False)
    typer_opts = _typer_options(name)
    cls = _options_class(name)
    t = fastpath.Table(cls.DECLS)
    fast_defaults = fastpath.parse(cls, _bare_args(name), {})  # every option at its default, as the fast path reads it
    assert fast_defaults is not None
    fast_names = set(t.long.values()) | set(t.short.values())
    assert set(typer_opts) == fast_names == set(t.flags) | set(t.multiple) | set(t.single)
    for opt, p in typer_opts.items():
        # names: every flag string leads to the same parameter
        for o in p.opts + p.secondary_opts:
            assert (t.long.get(o) if o.startswith("--") else t.short.get(o[1:])) == opt, o
        # types: a flag, a repeatable option, a choice, a number or a text
        assert (opt in t.flags) == bool(p.is_flag), opt
        assert (opt in t.multiple) == bool(p.multiple), opt
        kind = p.type_descriptor.annotation
        decl = next(d for d in t.opts if d.name == opt)
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            assert t.choices.get(opt) == tuple(m.value for m in kind), opt
            assert not p.type_descriptor.parameter_info.case_sensitive  # the fast path casefolds, as typer does here
        else:
            assert opt not in t.choices, opt
            base = typing.get_args(kind)[0] if typing.get_origin(kind) in (list, typing.Union) else kind
            assert base is (bool if p.is_flag else decl.type), (opt, kind)
        # limits: the same lower bound, and no upper one
        assert p.min == decl.min and p.max is None, opt
        # defaults
        assert _plain(p.default) == _plain(getattr(fast_defaults, opt)), opt
        # environment variables
        assert p.envvar == t.envvars.get(opt), opt


def test_validate_options_object_is_the_declaration():
    from prio.cli.validate_run import OPTIONS, ValidateOptions

    assert [f.name for f in dataclasses.fields(ValidateOptions)] == [d.name for d in OPTIONS]
    params = [p.name for p in _command("validate").params if p.name != "help"]
    assert params == [d.name for d in OPTIONS]


@pytest.mark.parametrize("text,value", [("3", 3), ("0", 0), ("120", 120), ("-1", None), ("+3", None), (" 3", None),
                                        ("03", None), ("1_000", None), ("3.0", None), ("\u0663", None), ("9" * 19, None)])
def test_the_fast_path_reads_plain_decimals_only(text, value):
    """A plain decimal within the limit is read as typer reads it; any other spelling of a
    number, and one below the limit, is left to typer (its conversion and its message)."""
    from prio.optspec import Opt

    assert fastpath._value(Opt("n", ("--n",), type=int, min=0), text) == value
    assert fastpath._value(Opt("n", ("--n",), type=int, min=1), "0") is None
    assert fastpath._value(Opt("t", ("--t",), type=float, min=0.001), "3") is None  # not an int: typer's


ANALYSIS = ("explain", "simulate", "preempt", "diff", "snapshot")


@pytest.mark.parametrize("name", ("validate",) + ANALYSIS)
def test_commands_are_derived_from_their_options_class(name):
    import importlib

    mod = importlib.import_module(f"prio.cli.{name}")
    cls = mod.Options if hasattr(mod, "Options") else mod.ValidateOptions
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    params = [p.name for p in _command(name).params if p.name != "help"]
    assert params == [f.name for f in dataclasses.fields(cls)]


@pytest.mark.parametrize("name", ("validate_run",) + ANALYSIS)
def test_runners_take_one_options_object(name):
    """A command's runner takes the options object alone: a runner that grows a list of
    positional parameters again (explain's run had 17) fails here."""
    import importlib

    mod = importlib.import_module(f"prio.cli.{name}")
    params = list(inspect.signature(mod.run).parameters)
    assert params == ["o"], (name, params)


def test_shared_options_are_declared_once():
    """explain, simulate, preempt and diff read the shared options from one declaration each:
    the same declaration (a command may reword its help or metavar, nothing else), never a
    second declaration of their own."""
    import importlib

    from prio.cli import analysis_options as shared

    seen = {}
    for name in ANALYSIS:
        mod = importlib.import_module(f"prio.cli.{name}")
        for d in mod.Options.DECLS:
            if d.name in shared.SHARED:
                base = shared.SHARED[d.name]
                assert d.but(help=base.help, metavar=base.metavar) == base, (name, d.name)
            seen.setdefault(d.name, set()).add(name)
    twice = {n for n, where in seen.items() if len(where) > 1 and n not in shared.SHARED}
    assert not twice, f"options declared in more than one command: {sorted(twice)}"


def test_every_analysis_command_takes_every_common_option():
    """One more option for explain, simulate, preempt and diff is one declaration in COMMON."""
    import importlib

    from prio.cli import analysis_options as shared

    for name in ("explain", "simulate", "preempt", "diff"):
        mod = importlib.import_module(f"prio.cli.{name}")
        names = [d.name for d in mod.Options.DECLS]
        assert all(d.name in names for d in shared.COMMON), name


@pytest.mark.parametrize("name", ("explain", "simulate", "preempt", "diff"))
def test_engine_is_a_hidden_common_option_stored_in_the_options_object(name, monkeypatch):
    """--engine auto|fast|reference (PRIO_ENGINE): parsed into the options object (test_engine_choice: it reaches the run)."""
    import importlib

    from prio.optspec import build

    mod = importlib.import_module(f"prio.cli.{name}")
    cmd = _command(name)
    head = ["old.yaml", "new.yaml"] if name == "diff" else []
    monkeypatch.delenv("PRIO_ENGINE", raising=False)
    assert build(mod.Options, cmd.make_context(name, head + ["--engine", "FAST"]).params).engine == "fast"
    assert build(mod.Options, cmd.make_context(name, list(head)).params).engine is None
    monkeypatch.setenv("PRIO_ENGINE", "reference")
    assert build(mod.Options, cmd.make_context(name, list(head)).params).engine == "reference"
    assert "--engine" not in cmd.get_help(cmd.make_context(name, list(head)))


def test_a_bad_engine_is_one_line_and_exit_2():
    from conftest import run_cli

    r = run_cli("explain", "--engine", "quick")
    assert r.exit_code == 2
    assert "Traceback" not in r.output


@pytest.mark.parametrize("value,fmt", [(None, "text"), ("", "text"), ("  ", "text"), ("JSON", "json"), ("table", "text")])
def test_validate_reads_prio_output_as_envformat_does(value, fmt, monkeypatch):
    """validate's fast path skips loading envformat when PRIO_OUTPUT is unset or blank."""
    from prio.cli import envformat, validate_run

    assert envformat.VARIABLE == "PRIO_OUTPUT"
    if value is None:
        monkeypatch.delenv("PRIO_OUTPUT", raising=False)
    else:
        monkeypatch.setenv("PRIO_OUTPUT", value)
    assert validate_run._env_format() == fmt
