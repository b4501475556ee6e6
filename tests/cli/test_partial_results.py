"""What --steps, --limit, --queue and inputs with nothing pending leave out is said, never
silently dropped: "N asks still pending", "... N more", one line for an empty result."""
import json
import os

import pytest

from conftest import run_cli, sample


@pytest.mark.parametrize("fmt", ["plain", "table", "markdown"])
def test_steps_zero_is_not_nothing_to_schedule(fmt):
    r = run_cli("simulate", "--steps", "0", "-o", fmt)
    assert r.exit_code == 0, r.output
    assert "Nothing to schedule" not in r.stdout
    assert "Stopped after step 0 (--steps 0): 11 asks still pending." in r.stdout


@pytest.mark.parametrize("fmt", ["plain", "table", "markdown"])
def test_limit_zero_says_how_many_rows_it_left_out(fmt):
    e = run_cli("explain", "--limit", "0", "-o", fmt)
    assert e.exit_code == 0 and "No pending asks" not in e.stdout, e.stdout
    assert "... 11 more pending asks" in e.stdout
    s = run_cli("simulate", "--limit", "0", "-o", fmt)
    assert s.exit_code == 0 and "Nothing was placed" not in s.stdout, s.stdout
    assert "... 11 more steps" in s.stdout and "priority changes" not in s.stdout  # no empty table


def test_priority_class_ranges_show_in_the_table_without_pending_asks():
    args = (sample("walkthrough-queues.yaml"), "--priority-classes", sample("priorityclasses.yaml"))
    for fmt in ("table", "plain"):
        r = run_cli("explain", *args, "-o", fmt)
        assert r.exit_code == 0 and "No pending asks" in r.stdout
        assert "PriorityClasses per queue" in r.stdout and "batch-low" in r.stdout, (fmt, r.stdout)


def test_pending_with_nothing_pending_says_so():
    from conftest import shared

    d = shared("testdata", "yunikorn-rest-live", "walkthrough-drained")
    for fmt in ("plain", "table", "markdown"):
        r = run_cli("explain", os.path.join(d, "queues.yaml"), os.path.join(d, "snapshot.yaml"), "--pending", "-o", fmt)
        assert r.exit_code == 0
        assert "Nothing to schedule: no pending asks." in r.stdout and "0 in the simulated order" not in r.stdout, r.stdout


def test_queue_narrows_the_priorityclass_table_too():
    classes = sample("priorityclasses.yaml")
    for fmt in ("plain", "table", "markdown"):
        r = run_cli("explain", "--priority-classes", classes, "--queue", "root.tenants.tenant-a", "-o", fmt)
        assert r.exit_code == 0, r.stderr
        assert "child-a-1" in r.stdout and "system-high" not in r.stdout and "tenant-b" not in r.stdout, fmt
    rows = json.loads(run_cli("explain", "--priority-classes", classes, "--queue", "tenants.tenant-a", "-o", "json").stdout)["priorityClasses"]
    assert rows and all(x["queue"].startswith("root.tenants.tenant-a") for x in rows)


def test_static_order_caveat_in_every_human_format():
    for fmt in ("plain", "markdown", "table"):
        out = run_cli("explain", "-o", fmt).stdout
        assert "Priorities change as asks are placed" in out and "prio simulate" in out.split("Priorities change")[1], fmt
    md = run_cli("explain", "-o", "markdown").stdout
    assert "|\n\nPriorities change as asks are placed: `prio simulate` shows the real order." in md  # not a table row


def test_steps_says_how_many_asks_are_still_pending():
    for fmt in ("plain", "table", "markdown"):
        out = run_cli("simulate", "--steps", "2", "-o", fmt).stdout
        assert "Stopped after step 2 (--steps 2): 9 asks still pending." in out, fmt
    r = run_cli("simulate", "--steps", "10", "-o", "json")
    assert "1 ask still pending" in r.stderr and len(json.loads(r.stdout)["steps"]) == 10
    assert "Stopped" not in run_cli("simulate", "--steps", "11", "-o", "plain").stdout  # nothing left: nothing to say


def test_empty_results_are_one_line(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("applications: []\n")
    q = sample("walkthrough-queues.yaml")
    for fmt in ("plain", "table", "markdown", "text"):
        assert run_cli("simulate", q, str(empty), "-o", fmt).stdout == "Nothing to schedule: no pending asks.\n", fmt
    out = run_cli("explain", q, str(empty), "-o", "plain").stdout
    assert out.endswith("Pending asks in the order they are considered now\nNo pending asks: every queue has no priority (n/a).\n")
    assert "#    queue" not in out
    nodes = tmp_path / "nodes.yaml"
    nodes.write_text("nodes: [{name: n1, capacity: {vcore: 4}}]\napplications: []\n")
    for fmt in ("plain", "table"):
        assert run_cli("preempt", sample("preemption-queues.yaml"), str(nodes), "-o", fmt).stdout.count("\n") == 1
    diff = run_cli("diff", q, q, sample("walkthrough-asks.yaml"), "-o", "plain")
    assert diff.stdout.count("\n") == 1 and "no change" in diff.stdout
