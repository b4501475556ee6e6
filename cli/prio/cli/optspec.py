"""Command-line options as data (issue 27): each option is declared once, as an `Opt` (its name,
flags, type, default, choices or limit, environment variable, metavar and help), and everything
else derives from that declaration:

- the command's options object: a frozen dataclass with one field per option (`options_class`),
  the one thing a command passes to its runner;
- the typer signature (prio.cli.options.typer_command), so `--help` and typer's parsing;
- validate's fast path tables (prio.cli.validate_fast), which parse without typer.

As ruff's clap-derived `Args` structs and check-jsonschema's one `ParseResult`: the parser fills
one object, and the code that runs takes that object. No typer here (validate's fast path imports
this module: it imports nothing dataclasses does not, not even typing)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, make_dataclass


@dataclass(frozen=True)
class Opt:
    """One option. `type`: str, int, float or bool (bool: a flag, which takes no value).
    `choices`: the values the parser accepts, case-insensitively (None: any). `multiple`: the
    option repeats and collects a tuple. `min`: the smallest number accepted."""

    name: str
    flags: tuple[str, ...]
    help: str = ""
    type: type = str
    default: object = None
    multiple: bool = False
    choices: tuple[str, ...] | None = None
    min: float | None = None
    envvar: str | None = None
    metavar: str | None = None
    hidden: bool = False

    @property
    def flag(self) -> bool:
        return self.type is bool

    def but(self, **changes):
        """This declaration with another help (or metavar): one command's wording of a shared one."""
        from dataclasses import replace

        return replace(self, **changes)


@dataclass(frozen=True)
class Arg:
    """A positional argument: one value (`multiple=False`) or any number (a tuple)."""

    name: str
    metavar: str
    help: str = ""
    required: bool = False
    multiple: bool = True

    @property
    def default(self):
        return () if self.multiple else None

    but = Opt.but


def opts(*decls) -> tuple:
    """A command's arguments and options in --help order, as `Arg`s and `Opt`s."""
    names = [d.name for d in decls]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, f"declared twice: {sorted(dup)}"
    return tuple(decls)


def find(decls, name: str):
    """The declaration called `name`."""
    return next(d for d in decls if d.name == name)


def default_of(d) -> object:
    """The options object's value when the option is not given."""
    if isinstance(d, Arg):
        return d.default
    return () if d.multiple else d.default


def options_class(name: str, decls, base: type = object) -> type:
    """The frozen dataclass of a command's options: one field per declaration, in order."""
    spec = [(d.name, object, field(default=default_of(d), metadata={"decl": d})) for d in decls]
    return make_dataclass(name, spec, bases=(base,), frozen=True, namespace={"DECLS": tuple(decls)})


def build(cls: type, values: dict):
    """The options object from parsed values: a choice as its text, repeated values as a tuple,
    an argument that was not given as its default."""
    kw = {}
    for f in fields(cls):
        d = f.metadata["decl"]
        v = values.get(f.name, f.default)
        if v is None:
            v = default_of(d)
        elif isinstance(v, list):
            v = tuple(v)
        elif getattr(v, "value", None) is not None and isinstance(v, str):  # a choice's str Enum
            v = v.value
        kw[f.name] = v
    return cls(**kw)
