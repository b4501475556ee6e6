"""Column widths for rich tables narrower than their content (an 80-column terminal): ids and
paths never break in the middle of a name. rich shrinks every wrapping column alike and folds
`alice-report` into `alice-repor`/`t`, a header into `applicatio`/`n`; here prose (reasons,
priority changes) gives way first, down to its longest header word; then queue paths, down to
their longest name (they fold at the dots, prio.yunikorn.render.paths); then ids, which are cut with `…`
rather than broken, never below their header, keeping their end (`…report-2`: the part that
tells `alice-report-1` from `alice-report-2`). Numbers keep their width. When not even those
least widths fit, or prose would be left a column of single words, `fitted` lays each row out
as a record (one line per column: its header, a border, the value whole). rich is imported lazily."""
from __future__ import annotations

NUM, ID, PATH, TEXT = "num", "id", "path", "text"
_PROSE_MIN = 10  # a reason narrower than this is a column of single words
_ID_MIN = 10  # an id cut below this says too little to recognise
_PROSE_READ = 24  # `fitted`: prose squeezed narrower than this (when it is wider) reads as a column of words


def _natural(console, table, i: int) -> tuple[int, int]:
    """(widest cell or header, longest name or word) of column `i`, in cells."""
    from rich.measure import Measurement

    col = table.columns[i]
    opts = console.options
    cells = [col.header, *col._cells]
    widest = max((Measurement.get(console, opts, c).maximum for c in cells), default=0)
    least = max((Measurement.get(console, opts, c).minimum for c in cells), default=0)
    return widest, least


def fit(console, table, kinds, overhead=None, whole_ids=False) -> bool:
    """Give each column of `table` (kinds: NUM, ID, PATH or TEXT, in column order) a width so that
    the table fits `console.width`; nothing changes when it fits already, or when not even each
    column's least width fits (then False: rich would fold as it does; see `fitted`).
    `overhead`: the cells the table's borders and padding take (a boxed table's by default);
    `whole_ids`: ids are never cut either (a table of few, short names: PriorityClasses)."""
    n = len(table.columns)
    avail = console.width - (3 * n + 1 if overhead is None else overhead)  # a space each side of every cell, the borders
    widths, mins = [], []
    for i, kind in enumerate(kinds):
        widest, least = _natural(console, table, i)
        head = str(table.columns[i].header)
        widths.append(widest)
        if kind == NUM:
            mins.append(widest)
        elif kind == ID:
            mins.append(widest if whole_ids else min(widest, max(len(head), _ID_MIN)))
        elif kind == PATH:
            mins.append(max(min(least, 24), len(head) if " " not in head else 0))
        else:
            mins.append(min(widest, max(_PROSE_MIN, max(len(w) for w in head.split() or [""]))))
    natural = list(widths)
    table.prio_prose = None  # the narrowest prose column fit leaves, when it narrows one
    excess = sum(widths) - avail
    if excess <= 0:
        return True
    if sum(mins) > avail:
        return False  # a terminal too narrow for even that
    for group in (TEXT, PATH, ID):
        while excess > 0:
            idx = [i for i, k in enumerate(kinds) if k == group and widths[i] > mins[i]]
            if not idx:
                break
            widest = max(idx, key=lambda i: widths[i])
            widths[widest] -= 1
            excess -= 1
    table.prio_prose = min((widths[i] for i, k in enumerate(kinds) if k == TEXT and widths[i] < natural[i]), default=None)
    for i, kind in enumerate(kinds):
        col = table.columns[i]
        col.width = widths[i]
        if kind == ID:
            col.no_wrap = True
            col._cells[:] = [_tail(c, widths[i]) for c in col._cells]
    return True


# the kind of a column by its header, for tables built from (headers, rows) sections (diff,
# quota preemption): what is not named here is a number when every cell is one, else prose
_PATHS = {"queue", "leaf", "fence root", "cluster queue"}
_IDS = {"application", "ask", "allocation", "task", "node", "code", "class", "victim", "placeholder", "task group",
        "taskgroup", "workload", "job", "preemptor", "#", "before step", "step", "created (hour)"}


def kinds_of(headers, rows) -> list:
    """NUM, ID, PATH or TEXT per column of a (headers, rows) table."""
    from prio.render.align import numeric

    out = []
    for i, h in enumerate(headers):
        name = str(h).lower()
        out.append(PATH if name in _PATHS else NUM if numeric(rows, i) else ID if name in _IDS else TEXT)
    return out


def fitted(console, table, kinds, whole_ids=False, prose=_PROSE_READ):
    """What to print for `table` at `console.width`: the table itself when it fits (fit's widths
    when they make it fit, leaving no prose column narrower than `prose` cells); else one record
    per row, each cell on a line of its own after its header, whole. No id or path is broken to
    make a table fit (issue 44, item 6). Every value line starts after a border (`│`): no name
    from the input starts a line."""
    def readable(t) -> bool:
        return t.prio_prose is None or t.prio_prose >= prose

    saved = [(c.width, c.no_wrap, list(c._cells)) for c in table.columns]  # fit cuts ids: undone below

    def restore():
        for c, (w, nw, cells) in zip(table.columns, saved):
            c.width, c.no_wrap, c._cells[:] = w, nw, cells

    if fit(console, table, kinds, whole_ids=whole_ids) and readable(table):
        return table
    restore()
    return _records(table)


def _records(table):
    """`table`'s rows as records: its title, then per row a two-column grid (header, value)."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    cols = table.columns
    title = table.title
    if isinstance(title, str):
        from rich.errors import MarkupError

        try:
            title = Text.from_markup(title)  # as rich's Table reads its title
        except MarkupError:
            title = Text(title)
    parts = [title] if title else []
    for r in range(table.row_count):
        grid = Table(box=box.MINIMAL, show_header=False, show_edge=False, pad_edge=False, padding=(0, 1))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column(overflow="fold")
        for c in cols:
            grid.add_row(str(c.header), c._cells[r])
        if r:
            parts.append(Text(""))
        parts.append(grid)
    return Group(*parts)


def _tail(cell, width: int):
    """A cell's text cut to `width` cells from its end, `…` first; as it was when it fits."""
    from rich.text import Text

    text = Text.from_markup(cell) if isinstance(cell, str) else cell
    if not isinstance(text, Text) or text.cell_len <= width:
        return cell
    return Text("…") + text[len(text) - (width - 1):]
