"""The --color choice and whether to colour a stream (no typer: validate's fast path uses it)."""
from __future__ import annotations

import os

CHOICES = ("auto", "always", "never")  # --color's values, auto the default


def use_color(choice: str, stream) -> bool:
    """`choice`: one of CHOICES (a str Enum member of them too)."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR", ""):
        return False
    return stream.isatty()


def __getattr__(name: str):
    """Color, the choices as a str Enum, made when asked for (an Enum costs start-up time that
    validate's fast path does not pay)."""
    if name == "Color":
        from enum import Enum

        global Color
        Color = Enum("Color", {c: c for c in CHOICES}, type=str)
        return Color
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
