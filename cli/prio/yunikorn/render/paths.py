"""Queue paths in rich tables: folded at the dots (root.tenants. / tenant-a.child-a-1), never in
the middle of a name while the column is as wide as the longest name; only a single name wider
than the column is folded by characters (nothing is cut). rich is imported lazily."""
from __future__ import annotations

import re

_SEGMENT = re.compile(r"[^.]*\.|[^.]+$")


def segments(path: str) -> list[str]:
    """`root.a.b` -> [`root.`, `a.`, `b`]: each name with the dot after it."""
    return _SEGMENT.findall(path) or [path]


def fold(path: str, width: int) -> list[str]:
    """The lines `path` takes in a column `width` wide: breaks only after a dot."""
    lines: list[str] = []
    cur = ""
    for seg in segments(path):
        if cur and len(cur) + len(seg) > width:
            lines.append(cur)
            cur = ""
        cur += seg
    if cur:
        lines.append(cur)
    out: list[str] = []
    for line in lines:  # a single name wider than the column: folded by characters, nothing lost
        out += [line[i:i + width] for i in range(0, len(line), width)] if len(line) > width else [line]
    return out


class DottedPath:
    """A rich renderable for a queue path: measured as (longest name, whole path) and drawn folded
    at the dots to whatever width the table gives it."""

    def __init__(self, path: str, style: str = ""):
        self.path = path
        self.style = style

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        longest = max((len(s) for s in segments(self.path)), default=0)
        return Measurement(min(longest, 24), len(self.path)).clamp(max_width=options.max_width)

    def __rich_console__(self, console, options):
        from rich.text import Text

        for line in fold(self.path, max(1, options.max_width)):
            yield Text(line, style=self.style, no_wrap=True, overflow="ignore")
