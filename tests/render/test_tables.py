"""Tables in every format: queue paths fold at dots (yunikorn/render/paths.py), numbers are right-aligned
(render/align.py), plain output has no dash rules."""
import pytest

from builders import walkthrough_queues_lowered
from conftest import run_cli, sample


def _cells(out: str, title: str) -> list[str]:
    """The text rows of a rich table (after its title), borders stripped."""
    body = out.split(title, 1)[1].split("\n\n", 1)[0]
    return [line for line in body.splitlines() if line.startswith("│")]


def test_queue_paths_fold_at_dots_at_80_columns():
    names = {"system-high", "system-normal", "system-low", "child-a-1", "child-a-2", "child-b-1", "child-b-2",
             "tenant-a", "tenant-b", "tenants", "system", "root"}
    for cmd in ("simulate", "explain"):
        out = run_cli(cmd, "-o", "table", env={"COLUMNS": "80"}).stdout
        title = "Scheduling order" if cmd == "simulate" else "Pending asks"
        for row in _cells(out, title):
            queue = row.split("│")[2].strip()
            if queue:  # every piece of a queue cell is whole names, each ending at a dot but the last
                assert all(p in names for p in queue.split(".") if p), (cmd, queue)
    out = run_cli("simulate", "-o", "table", env={"COLUMNS": "80"}).stdout
    assert "│ root.system.     │" in out or "root.system." in out and "syst\n" not in out


def test_fold_unit():
    from prio.yunikorn.render.paths import fold

    assert fold("root.tenants.tenant-a.child-a-1", 14) == ["root.tenants.", "tenant-a.", "child-a-1"]
    assert fold("root.a", 20) == ["root.a"]
    assert fold("root.averyveryverylongname", 10) == ["root.", "averyveryv", "erylongnam", "e"]  # nothing cut


def test_numbers_are_right_aligned_in_every_table():
    plain = run_cli("simulate", "-o", "plain").stdout
    assert "\n     1  root.system.system-high " in plain and "\n    10  root.tenants.tenant-b.child-b-1 " in plain
    assert "  P10  " in plain.splitlines()[3]
    per_queue = plain.split("Per queue\n")[1].splitlines()
    assert per_queue[1].endswith("        3") and per_queue[0].endswith("last step")  # placed, first, last: right
    md = run_cli("explain", "-o", "markdown").stdout
    assert "|----:|:---" in md and "-----------:|" in md  # rendered markdown keeps the alignment
    explain = run_cli("explain", "-o", "plain").stdout
    assert "\n root.system.system-low " not in explain and "-997     -1000" in explain
    preempt = run_cli("preempt", "-o", "plain").stdout
    assert "  priority  ask priority there" in preempt or "priority    ask priority there" in preempt
    from prio.render.align import colalign

    assert colalign(("q", "p", "s"), [("root.a", "P8", "n/a"), ("root.b", "-3", "4* (later)")]) == ("left", "right", "right")


def test_diff_tables_right_align_steps(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(walkthrough_queues_lowered())
    r = run_cli("diff", sample("walkthrough-queues.yaml"), str(q), sample("walkthrough-asks.yaml"), "-o", "plain")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    head = next(line for line in lines if "step before" in line)
    row = next(line for line in lines if "app-4-1" in line)
    assert row[:head.index("step before") + len("step before")].endswith(" 4")  # under the header's end
    assert row.rstrip().endswith("7    +3 (later)")


def test_armada_plain_has_no_dashes_like_the_rest():
    for args in (("explain", sample("armada-current.yaml")), ("simulate", sample("armada-current.yaml")),
                 ("explain", sample("armada-scenario.yaml")), ("simulate", sample("armada-scenario.yaml"))):
        out = run_cli(*args, "-o", "plain").stdout
        assert not any(set(line.strip()) <= {"-", " "} and line.strip() for line in out.splitlines()), args
    out = run_cli("explain", sample("armada-current.yaml"), "-o", "plain").stdout
    assert "ml-research      1         1     0.4" in out  # numbers right-aligned
    table = run_cli("explain", sample("armada-current.yaml"), "-o", "table", env={"COLUMNS": "120"}).stdout
    assert "ml-research" in table and "evict" in table  # names whole, no column cut off


def test_class_names_stay_whole_at_80_columns_while_numbers_take_their_width():
    """`system-node-crit|ical` was folded while the number columns had a column to spare."""
    out = run_cli("explain", sample("walkthrough-queues.yaml"), sample("walkthrough-asks.yaml"),
                  sample("priorityclasses.yaml"), "-o", "table", env={"COLUMNS": "80"}).stdout
    table = out.split("PriorityClasses per queue", 1)[1]
    assert "system-node-critical" in table and "system-cluster-critical" in table
    assert all(len(line) <= 80 for line in table.splitlines())
    assert "2000001000" in table  # numbers whole too


@pytest.mark.parametrize("columns", ["60", "80", "100", "200"])
def test_prio_rule_wraps_to_the_terminal(columns):
    out = run_cli("rule", env={"COLUMNS": columns}).stdout
    assert max(map(len, out.splitlines())) <= int(columns), columns
    assert "PRIO204" in out and "invalid-sort-policy" in out
    doc = run_cli("rule", "PRIO310", env={"COLUMNS": columns}).stdout
    assert all(len(line) <= int(columns) or line.startswith(" ") for line in doc.splitlines())
