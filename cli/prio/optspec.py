"""Command-line options as data (issue 27): each option is declared once, as an `Opt` (its name,
flags, type, default, choices or limit, environment variable, metavar and help), and everything
else derives from that declaration:

- the command's options object: a frozen dataclass with one field per option (`options_class`),
  the one thing a command passes to its runner;
- the typer signature (prio.cli.options.typer_command), so `--help` and typer's parsing;
- the fast path's tables (prio.cli.fastpath), which parse without typer.

As ruff's clap-derived `Args` structs and check-jsonschema's one `ParseResult`: the parser fills
one object, and the code that runs takes that object. No typer here (the fast path imports
this module: it imports nothing dataclasses does not, not even typing)."""
from __future__ import annotations

from dataclasses import field, fields, make_dataclass

# The declarations are small immutable records compared by value (no dataclass or namedtuple:
# validate's fast path pays their making on every run, and they are made with no code generated).


class _Decl:
    __slots__ = ()

    def __init__(self, *args, **kw):
        names = self.__slots__
        values = dict(zip(names, args), **kw)
        for n, default in zip(names[len(names) - len(self._defaults):], self._defaults):
            values.setdefault(n, default)
        if set(values) != set(names):
            raise TypeError(f"{type(self).__name__}: {sorted(set(names) ^ set(values))}")
        for n in names:
            object.__setattr__(self, n, values[n])

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _values(self) -> tuple:
        return tuple(getattr(self, n) for n in self.__slots__)

    def __eq__(self, other):
        return type(other) is type(self) and other._values() == self._values()

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"

    def but(self, **changes):
        """This declaration with another help (or metavar): one command's wording of a shared one."""
        return type(self)(**{**dict(zip(self.__slots__, self._values())), **changes})


class Opt(_Decl):
    """One option: its parameter name, its flags ("-o", "--output") and help, then
    `type`: str, int, float or bool (bool: a flag, which takes no value); `default`; `multiple`:
    the option repeats and collects a tuple; `choices`: the values the parser accepts,
    case-insensitively (None: any); `min`: the smallest number accepted; `envvar`, `metavar`,
    `hidden`."""

    __slots__ = ("name", "flags", "help", "type", "default", "multiple", "choices", "min", "envvar", "metavar", "hidden")
    _defaults = ("", str, None, False, None, None, None, None, False)  # help ... hidden

    @property
    def flag(self) -> bool:
        return self.type is bool


class Arg(_Decl):
    """A positional argument: one value (`multiple=False`) or any number (a tuple)."""

    __slots__ = ("name", "metavar", "help", "required", "multiple")
    _defaults = ("", False, True)  # help, required, multiple

    @property
    def default(self):
        return () if self.multiple else None


class Options:
    """What every options object does alike: made from keyword values (a field not given keeps
    its declaration's default), shown with its fields. Written once here rather than generated for
    each class (start-up time)."""

    __slots__ = ()

    def __init__(self, **values):
        for f in fields(self):
            object.__setattr__(self, f.name, values.pop(f.name) if f.name in values else f.default)
        if values:
            raise TypeError(f"{type(self).__name__}: no option {sorted(values)[0]!r}")

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in fields(self))})"


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


def options_class(name: str, decls, base: type = Options) -> type:
    """The frozen dataclass of a command's options: one field per declaration, in order."""
    spec = [(d.name, object, field(default=default_of(d), metadata={"decl": d})) for d in decls]
    # A record handed to a runner, never compared or matched; __init__ and __repr__ are Options'.
    # What dataclasses would generate for them (and a docstring from the signature) is start-up
    # time validate's fast path pays on every run.
    doc = f"{name}: the options, one field per declaration (DECLS)."
    return make_dataclass(name, spec, bases=(base,), frozen=True, init=False, repr=False, eq=False, match_args=False,
                          namespace={"DECLS": tuple(decls), "__doc__": doc})


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
