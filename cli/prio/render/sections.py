"""Sections of a report (titles, tables, lines) collected and rendered in one format: rich
tables (`table`), tabulate (`plain`, `markdown`). The backends' renderers (prio.backends)
build their text outputs with it; rich and tabulate are imported when a page is rendered."""
from __future__ import annotations

import io


class Sections:
    """Collects sections (titles, tables, lines) and renders them in one format."""

    def __init__(self, fmt: str, width: int | None):
        self.fmt = fmt
        self.width = width or 100
        self.parts: list = []

    def title(self, text: str):
        self.parts.append(("title", text))

    def table(self, title: str | None, head: list, rows: list, caption: str | None = None):
        self.parts.append(("table", (title, head, rows, caption)))

    def lines(self, lines: list[str], heading: str | None = None):
        if lines:
            self.parts.append(("lines", (heading, lines)))

    def render(self) -> str:
        if self.fmt == "table":
            return self._rich()
        return self._tabulate()

    def _rich(self) -> str:
        from rich import box
        from rich.table import Table
        from rich.text import Text

        from prio.render.align import numeric
        from prio.render.printable import Console, printable

        buf = io.StringIO()
        console = Console(file=buf, width=self.width, force_terminal=False, color_system=None, emoji=False)
        for kind, body in self.parts:
            # every title, cell and line one line of text: a name's line break written out
            if kind == "title":
                console.print(Text(printable(body), style="bold"))
            elif kind == "table":
                title, head, rows, caption = body
                # Too wide for the box? Columns a space apart instead, so names and numbers stay whole.
                need = sum(max([len(w) for w in h.split()] + [len(str(r[i])) for r in rows if i < len(r)]) for i, h in enumerate(head))
                tight = {} if need + 3 * len(head) + 1 <= (self.width or 120) else \
                    {"box": box.SIMPLE_HEAD, "padding": (0, 1), "pad_edge": False, "show_edge": False}
                t = Table(title=title and printable(title), caption=caption and printable(caption), title_justify="left",
                          caption_justify="left", **tight)
                for i, h in enumerate(head):
                    # numbers right-aligned; names (queues, jobs) kept whole when they fit in 24
                    num = numeric(rows, i)
                    name = h in ("job", "queue") or i == 0 and not num
                    longest = max([len(str(r[i])) for r in rows if i < len(r)] + [len(h)])
                    t.add_column(printable(h), justify="right" if num else "left", overflow="fold",
                                 min_width=min(longest, 24) if name else None)
                for row in rows:
                    t.add_row(*[Text(printable(str(c))) for c in row])
                console.print(t)
            else:
                heading, lines = body
                if heading:
                    console.print(Text(printable(heading), style="bold"))
                for line in lines:
                    console.print(Text(printable(line)))
        return buf.getvalue()

    def _tabulate(self) -> str:
        from prio.render.align import grid
        from prio.render.printable import cell

        md = self.fmt == "markdown"
        fmt = "github" if md else "plain"
        out: list[str] = []
        for kind, body in self.parts:
            if kind == "title":
                out.append(f"## {cell(body, fmt)}" if md else cell(body, fmt))
                out.append("")
            elif kind == "table":
                title, head, rows, caption = body
                if title:
                    out.append(f"**{cell(title, fmt)}**" if md else cell(title, fmt))
                    out.append("")
                out.append(grid(rows, head, fmt))  # plain as every other command's; grid escapes the cells
                if caption:
                    out.append("")
                    out.append(f"_{cell(caption, fmt)}_" if md else cell(caption, fmt))
                out.append("")
            else:
                heading, lines = body
                if heading:
                    out.append(f"**{cell(heading, fmt)}**" if md else cell(heading, fmt))
                    if md:
                        out.append("")
                for line in lines:
                    out.append(f"- {_md_line(line)}" if md else f"  {cell(line, fmt)}")
                out.append("")
        while out and out[-1] == "":
            out.pop()
        return "\n".join(out) + "\n"


def _md_line(s: str) -> str:
    """A line of a markdown list: markdown's escaping (prio.render.printable), and emphasis too."""
    from prio.render.printable import markdown

    return markdown(s).replace("*", "\\*").replace("_", "\\_")
