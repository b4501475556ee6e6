"""Usage errors and help text in prio's own words (issue 14).

Typer validates options with pydantic and formats help its own way; left alone, a user reads
`Invalid value for '-o' / '--output': Value error, 'sarf' is not one of ...`, `Input should be
greater than or equal to 0`, `{PATH}...` and `PATH <list[str]>`. `plain_usage_error` turns the
message into one plain line (with a did-you-mean for choices); `Command` is the command class
the app registers, whose arguments show their metavar only (`PATH...`, `[ID]`)."""
from __future__ import annotations

import difflib
import re

import typer.core

_RULES = (
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"must be at least \1"),
    (re.compile(r"Input should be greater than (\S+)"), r"must be more than \1"),
    (re.compile(r"Input should be less than or equal to (\S+)"), r"must be at most \1"),
    (re.compile(r"Input should be less than (\S+)"), r"must be less than \1"),
    (re.compile(r"Input should be a valid integer.*"), "must be a whole number"),
    (re.compile(r"Input should be a valid number.*"), "must be a number"),
    (re.compile(r"Input should be a valid boolean.*"), "must be true or false"),
)


def _choice(message: str) -> str | None:
    m = re.search(r"'([^']*)' is not one of ((?:'[^']*'(?:, )?)+)\.?", message)
    if not m:
        return None
    value, choices = m.group(1), re.findall(r"'([^']*)'", m.group(2))
    close = difflib.get_close_matches(value.lower(), choices, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{value!r} is not one of {', '.join(choices)}{hint}"


def plain_usage_error(message: str) -> str:
    """One plain line: `-o/--output: 'sarf' is not one of text, json, ...; did you mean 'sarif'?`."""
    msg = " ".join(message.split())
    m = re.match(r"Invalid value for ((?:'[^']*'(?: / )?)+)(?: \(env var: '([^']*)'\))?: (.*)$", msg)
    where, env, what = (m.group(1), m.group(2), m.group(3)) if m else ("", None, msg)
    where = ", ".join(w.strip("'") for w in where.split(" / ")) if where else ""
    if env:
        where += f" (or {env})"
    what = re.sub(r"^(Value error|Assertion failed), ", "", what)
    what = _choice(what) or what
    for pattern, repl in _RULES:
        what = pattern.sub(repl, what)
    what = what.rstrip(".")
    return f"{where}: {what}" if where else what


class Command(typer.core.TyperCommand):
    """A typer command whose arguments read as in a man page: `PATH...` and `[ID]` in the usage
    line, the metavar alone (no `<list[str]>`) in the arguments list."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for p in self.params:
            if getattr(p, "param_type_name", "") == "argument":
                _polish(p)


def _polish(p) -> None:
    def usage_name(p=p) -> str:
        name = p.metavar or p.name.upper()
        name = name if p.required else f"[{name}]"
        return name + ("..." if p.nargs != 1 else "")

    if hasattr(p, "_usage_display_name"):
        p._usage_display_name = usage_name
    if hasattr(p, "display_type_rich"):
        p.display_type_rich = lambda ctx: None
    if hasattr(p, "_rich_display_name"):
        p._rich_display_name = usage_name
