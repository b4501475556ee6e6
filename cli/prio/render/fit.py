"""Column widths for rich tables narrower than their content (an 80-column terminal): ids and
paths never break in the middle of a name. rich shrinks every wrapping column alike and folds
`alice-report` into `alice-repor`/`t`, a header into `applicatio`/`n`; here prose (reasons,
priority changes) gives way first, down to its longest header word; then queue paths, down to
their longest name (they fold at the dots, prio.render.paths); then ids, which are cut with `…`
rather than broken, never below their header, keeping their end (`…report-2`: the part that
tells `alice-report-1` from `alice-report-2`). Numbers keep their width. rich is imported lazily."""
from __future__ import annotations

NUM, ID, PATH, TEXT = "num", "id", "path", "text"
_PROSE_MIN = 10  # a reason narrower than this is a column of single words
_ID_MIN = 10  # an id cut below this says too little to recognise


def _natural(console, table, i: int) -> tuple[int, int]:
    """(widest cell or header, longest name or word) of column `i`, in cells."""
    from rich.measure import Measurement

    col = table.columns[i]
    opts = console.options
    cells = [col.header, *col._cells]
    widest = max((Measurement.get(console, opts, c).maximum for c in cells), default=0)
    least = max((Measurement.get(console, opts, c).minimum for c in cells), default=0)
    return widest, least


def fit(console, table, kinds) -> None:
    """Give each column of `table` (kinds: NUM, ID, PATH or TEXT, in column order) a width so that
    the table fits `console.width`; nothing changes when it fits already, or when not even each
    column's least width fits (rich then folds as it does)."""
    n = len(table.columns)
    avail = console.width - (3 * n + 1)  # a space each side of every cell, the borders
    widths, mins = [], []
    for i, kind in enumerate(kinds):
        widest, least = _natural(console, table, i)
        head = str(table.columns[i].header)
        widths.append(widest)
        if kind == NUM:
            mins.append(widest)
        elif kind == ID:
            mins.append(min(widest, max(len(head), _ID_MIN)))
        elif kind == PATH:
            mins.append(max(min(least, 24), len(head) if " " not in head else 0))
        else:
            mins.append(min(widest, max(_PROSE_MIN, max(len(w) for w in head.split() or [""]))))
    excess = sum(widths) - avail
    if excess <= 0:
        return
    if sum(mins) > avail:
        return  # a terminal too narrow for even that: rich's own folding, which keeps every character
    for group in (TEXT, PATH, ID):
        while excess > 0:
            idx = [i for i, k in enumerate(kinds) if k == group and widths[i] > mins[i]]
            if not idx:
                break
            widest = max(idx, key=lambda i: widths[i])
            widths[widest] -= 1
            excess -= 1
    for i, kind in enumerate(kinds):
        col = table.columns[i]
        col.width = widths[i]
        if kind == ID:
            col.no_wrap = True
            col._cells[:] = [_tail(c, widths[i]) for c in col._cells]


def _tail(cell, width: int):
    """A cell's text cut to `width` cells from its end, `…` first; as it was when it fits."""
    from rich.text import Text

    text = Text.from_markup(cell) if isinstance(cell, str) else cell
    if not isinstance(text, Text) or text.cell_len <= width:
        return cell
    return Text("…") + text[len(text) - (width - 1):]
