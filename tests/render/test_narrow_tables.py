"""Tables on an 80-column terminal (prio.yunikorn.render.fit, issue 44): an id (application, ask, node) is
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


# The other tables (issue 44, item 6): preempt's and diff's quota-preemption tables, diff's
# sections, explain --pending's, simulate's preemptions, the rejected applications, the
# PriorityClasses: at 80 and 60 columns no line is wider than the terminal and every id and queue
# path of the output is whole on one line (a table too narrow for them whole, or that would leave
# its prose a column of single words, is laid out one record per row: header │ value).
REJECTING = ("partitions:\n  - name: default\n    queues:\n      - name: root\n"
             "        queues: [{name: team-with-a-long-name}]\n")
REJECTED = ("applications:\n  - id: alice-report-application-1\n    queue: root.team-with-a-long-name\n"
            "    asks: [{id: alice-report-ask-1, priority: 1, resources: {vcore: 1}}]\n")


def quota_diff_args(tmp_path):
    old = tmp_path / "quota-old-queues.yaml"
    old.write_text(open(sample("quota-queues.yaml"), encoding="utf-8").read().replace("max: {vcore: 8} ", "max: {vcore: 16} "))
    return ("diff", str(old), sample("quota-queues.yaml"), sample("quota-asks.yaml"))


def rejecting_args(tmp_path, command):
    (tmp_path / "q.yaml").write_text(REJECTING)
    (tmp_path / "s.yaml").write_text(REJECTED)
    return (command, str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml"))


CASES = {
    "preempt-quota": (lambda tmp: ("preempt", "--sample", "quota"),
                      {"web-0", "etl-driver", "etl-exec-1", "etl-exec-2", "report-0", "web-1", "root.tenants.team-a", "2024-05-01T08:00Z"}),
    "preempt": (lambda tmp: ("preempt", "--sample", "preemption"), {"nightly-3", "nightly-1", "checkout-0", "notebook-0", "monitor-0"}),
    "diff-quota": (quota_diff_args, {"web-0", "etl-driver", "root.tenants.team-a"}),
    "pending": (lambda tmp: ("explain", "--pending", "--sample", "batch"), {"MaxApplications", "root.prod.etl", "root.research.alice", "QueueQuota"}),
    "preemptions": (lambda tmp: ("simulate", "--sample", "preemption"), {"checkout-0", "nightly-3", "root.prod"}),
    "rejected-explain": (lambda tmp: rejecting_args(tmp, "explain"), {"alice-report-application-1", "root.team-with-a-long-name"}),
    "rejected-simulate": (lambda tmp: rejecting_args(tmp, "simulate"), {"alice-report-application-1", "root.team-with-a-long-name"}),
    "priorityclasses": (lambda tmp: ("explain", sample("walkthrough-queues.yaml"), sample("walkthrough-asks.yaml"), sample("priorityclasses.yaml")),
                        {"system-node-critical", "system-cluster-critical", "batch-low"}),
}


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_other_tables_keep_ids_and_paths_whole(tmp_path, case, width):
    make, ids = CASES[case]
    r = run_cli(*make(tmp_path), "-o", "table", env={"COLUMNS": str(width)})
    assert r.exit_code in (0, 1), r.stderr
    lines = r.stdout.splitlines()
    # the tables' and records' lines (a headline is printed as one line on purpose: the terminal wraps it)
    assert max(len(line) for line in lines if re.search("[│┃─━]", line)) <= width
    for i in sorted(ids):
        assert any(i in line for line in lines), f"{i!r} not whole on any line at {width} columns:\n{r.stdout}"


def test_a_table_too_narrow_for_its_ids_becomes_records(tmp_path):
    """The quota candidates' ten columns at 80: each row one record, `header │ value`, the
    allocation and the timestamp whole, every value after the border."""
    out = run_cli("preempt", "--sample", "quota", "-o", "table", env={"COLUMNS": "80"}).stdout
    section = out.split("Candidates of root.tenants.team-a", 1)[1].split("Usage after", 1)[0]
    assert re.search(r"^allocation\s+│ web-0\s*$", section, re.M) and re.search(r"^created \(hour\) │ 2024-05-01T08:00Z\s*$", section, re.M)
    assert re.search(r"^verdict\s+│ victim #1\s*$", section, re.M)
    wide = run_cli("preempt", "--sample", "quota", "-o", "table", env={"COLUMNS": "200"}).stdout
    assert "┃ allocation" in wide  # wide enough: the table as it was


def test_prose_is_never_left_a_column_of_single_words(tmp_path):
    out = run_cli(*rejecting_args(tmp_path, "explain"), "-o", "table", env={"COLUMNS": "60"}).stdout
    section = out.split("Rejected applications", 1)[1]
    assert re.search(r"^reason\s+│ failed to place application", section, re.M)
    assert "applicatio\n" not in section and not re.search(r"│ n\s*$", section, re.M)
