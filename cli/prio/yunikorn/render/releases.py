"""The table "what changes by release" (docs/yunikorn.md), in Markdown, from the one place that
states the per-release rules (prio.yunikorn.releases.changes_table). tests/docs keeps the page in
step with it (PRIO_UPDATE_GOLDEN=1 writes the table into the page)."""
from __future__ import annotations

BEGIN = "<!-- releases-table: generated from prio.yunikorn.releases, do not edit by hand -->"
END = "<!-- /releases-table -->"


def markdown_table() -> str:
    """The table, between its markers."""
    from prio.yunikorn.releases import changes_table

    header, rows = changes_table()
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join([what, *cells]).replace("\n", " ") + " |" for what, cells in rows]
    return "\n".join([BEGIN, *lines, END])

