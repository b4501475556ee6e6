"""The --color choice and whether to colour a stream (no typer: validate's fast path uses it)."""
from __future__ import annotations

import os
from enum import Enum


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


def use_color(choice: Color, stream) -> bool:
    if choice == Color.always:
        return True
    if choice == Color.never or os.environ.get("NO_COLOR", ""):
        return False
    return stream.isatty()
