"""PRIO_OUTPUT, the same for every command (issue 14).

It sets the default `-o` of every command. One variable serves commands whose formats differ
(validate's `sarif` is nothing to simulate, simulate's `table` nothing to validate), so:
- a value that is one of this command's formats is its default;
- a value that is a format of another prio command only is ignored here (the command's own
  default applies), so `PRIO_OUTPUT=sarif` in a CI job does not break `prio simulate`;
- any other value is a mistake, and every command says so the same way: one line, exit 2.
`-o` on the command line always wins. Typer only, no imports of renderers: --help stays fast."""
from __future__ import annotations

import os
import sys

from prio.render.formats import FORMATS

VARIABLE = "PRIO_OUTPUT"


def all_formats() -> list[str]:
    out: list[str] = []
    for fmts in FORMATS.values():
        out += [f for f in fmts if f not in out]
    return out


def unknown(value: str) -> str:
    import difflib

    close = difflib.get_close_matches(value, all_formats(), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{VARIABLE}: unknown output format {value!r} (prio's formats: {', '.join(all_formats())}){hint}"


def env_format(formats) -> str | None:
    """This command's default from PRIO_OUTPUT, or None (unset, or another command's format).
    An unknown value ends the run: `prio: PRIO_OUTPUT: unknown output format ...`, exit 2."""
    value = os.environ.get(VARIABLE, "").strip().lower()
    if not value:
        return None
    if value in formats:
        return value
    if value in all_formats():
        return None
    sys.stderr.write(f"prio: {unknown(value)}\n")
    raise SystemExit(2)
