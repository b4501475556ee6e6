"""Tables on an 80-column terminal (prio.render.fit, issue 44): an id (application, ask, node) is
never broken across lines, only cut with `…` keeping its end; a header never breaks inside a
word; prose (reasons, priority changes) folds first. Tested on the cluster sample, whose ids
rich used to fold into `alice-repor` / `t` and whose header became `applicatio` / `n`."""
import json
import re

import pytest
from conftest import run_cli, sample

CLUSTER = (sample("cluster-queues.yaml"), sample("cluster-asks.yaml"))


def cells(out: str) -> list[list[str]]:
    """The cells of every table row, stripped (box-drawing borders split them)."""
    return [[c.strip() for c in re.split("[│┃]", line)[1:-1]] for line in out.splitlines() if line.startswith(("│", "┃"))]


def ids_are_whole_or_cut_at_the_front(out: str, ids: set) -> None:
    for row in cells(out):
        for c in row:
            if c and any(i != c and i.startswith(c) for i in ids) and c not in ids:  # the head of an id alone: it was broken
                pytest.fail(f"an id broken across lines: {c!r}\n{out}")
            if c.startswith("…"):
                assert any(i.endswith(c[1:]) for i in ids), c


@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_ids_never_break_at_80_columns(command):
    doc = json.loads(run_cli(command, *CLUSTER, "-o", "json").stdout)
    rows = doc.get("steps", []) + doc.get("unscheduled", []) + doc.get("asks", [])
    ids = {r[k] for r in rows for k in ("application", "ask") if k in r}
    out = run_cli(command, *CLUSTER, "-o", "table", env={"COLUMNS": "80"}).stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    ids_are_whole_or_cut_at_the_front(out, ids)
    heads = [c for row in cells(out) for c in row]
    assert "applicatio" not in heads and "n" not in heads  # the header whole
    assert "application" in heads


def test_the_end_that_tells_ids_apart_is_kept():
    out = run_cli("simulate", *CLUSTER, "-o", "table", env={"COLUMNS": "80"}).stdout
    asks = [row[3] for row in cells(out) if len(row) > 3 and row[0].isdigit()]
    assert len(set(asks)) == len(asks) == 3  # etl-merge, …-report-1, …-report-2: still three different asks


def test_a_wide_terminal_keeps_rich_s_own_layout():
    out = run_cli("simulate", *CLUSTER, "-o", "table", env={"COLUMNS": "200"}).stdout
    assert "alice-report-1" in out and "…" not in out
