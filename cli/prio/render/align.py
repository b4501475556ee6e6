"""Numbers right-aligned in every table: which columns of a table hold numbers (priorities, steps,
counts; `P8`, `+3 (later)`, `n/a` and `-` count as numbers' company), for tabulate's colalign and
rich's justify. Pure."""
from __future__ import annotations

import re

_NUMBER = re.compile(r"^[+-]?P?-?\d[\d_,]*(\.\d+)?(e[+-]?\d+)?[*!]*( \((later|earlier)\))?$")
_BLANK = {"", "n/a", "-", "unset", "not placed", "now placed", "no longer placed", "inf", "+inf", "-inf", "nan"}


def is_number(cell) -> bool:
    if isinstance(cell, bool):
        return False
    if isinstance(cell, (int, float)):
        return True
    return bool(_NUMBER.match(str(cell).strip()))


def numeric(rows, index: int) -> bool:
    """True when column `index` holds numbers (and blanks like n/a), at least one."""
    seen = False
    for r in rows:
        cell = r[index] if index < len(r) else ""
        text = str(cell).strip().lower() if not isinstance(cell, (int, float)) else None
        if text is not None and text in _BLANK:
            continue
        if not is_number(cell):
            return False
        seen = True
    return seen


def colalign(headers, rows) -> tuple:
    """tabulate's colalign: right for the number columns, left for the rest."""
    rows = list(rows)
    return tuple("right" if numeric(rows, i) else "left" for i in range(len(headers)))


def grid(rows, headers, tablefmt: str) -> str:
    """A tabulate table with the number columns right-aligned; markdown (github) as a pipe table,
    whose `---:` markers keep the alignment when rendered."""
    from tabulate import tabulate

    from prio.render.printable import cell

    # every cell and header escaped for its kind (a name's line break, control characters, markdown)
    rows = list(rows)
    align = colalign(headers, rows)
    rows = [tuple(cell(c, tablefmt) for c in r) for r in rows]
    headers = [cell(h, tablefmt) for h in headers]  # a column may be named for a queue
    fmt = "pipe" if tablefmt == "github" else tablefmt
    return tabulate(rows, headers=headers, tablefmt=fmt, disable_numparse=True, colalign=align)
