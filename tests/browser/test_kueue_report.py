"""The HTML report of Kueue inputs in a real browser (headless Chromium, tests/chromium.py):
simulate's cycles per ClusterQueue with cohort paths, its end state with pending reasons and
messages; explain's cohort tree with quotas, usage and borrowing, and the pending workloads in
Kueue's order with why; diff's workloads that end differently. Skipped outside CI without a
browser (the message says how to get one); CI fails instead."""
from __future__ import annotations

import json
import os

import pytest
from test_report_pages import load, rows, write

from chromium import Page
from conftest import ROOT, SHARED, run_cli

KUEUE = os.path.join(SHARED, "testdata", "kueue")
SAMPLE = os.path.join(ROOT, "samples", "kueue.yaml")


@pytest.fixture(scope="module")
def simulate_page(tmp_path_factory):
    return write(tmp_path_factory.mktemp("kueue"), "simulate.html", "simulate", "--sample", "kueue", "-o", "html")


@pytest.fixture(scope="module")
def explain_page(tmp_path_factory):
    return write(tmp_path_factory.mktemp("kueue"), "explain.html", "explain", "--sample", "kueue", "-o", "html")


def events(section):
    """(ClusterQueue, event, workload) of a cycle's section, in the page's order."""
    return [(cq.get("data-cq"), li.get("data-event"), li.get("data-workload")) for cq in section.all("div", cls="cq") for li in cq.all("li")]


def test_cycles_per_cluster_queue_with_cohort_paths(simulate_page):
    page = load(simulate_page)
    assert page.one("title").text() == "prio simulate: Kueue admission cycles (kueue.yaml)"
    box = page.one(id="cycles")
    assert (box.get("data-run"), box.get("data-stop")) == ("3", "noPendingHeads")
    cycles = {s.get("data-cycle"): s for s in page.all("section", cls="cycle")}
    assert sorted(cycles) == ["1", "2", "3"]
    assert events(cycles["1"]) == [("team-b", "preempted", "team-b/b-borrowed")]
    assert events(cycles["2"]) == [("team-a", "admitted", "team-a/a-1")]
    assert events(cycles["3"]) == [("team-a", "admitted", "team-a/a-2")]
    assert cycles["1"].one("a", cls="cqlink").text() == "/org/team-b"
    one = cycles["1"].one("li").text()
    assert "PREEMPTED" in one and "for team-a/a-1 (InCohortReclamation)" in one and "preemptee path: /org/team-b" in one
    assert "cpu 4 in default" in cycles["2"].one("li").text()
    assert "3 scheduling cycles ran; stopped: no ClusterQueue has a workload left to try" in page.one(id="kueue-summary").text()


def test_end_state_pending_reasons_and_messages(simulate_page):
    page = load(simulate_page)
    doc = json.loads(run_cli("simulate", "--sample", "kueue", "-o", "json").stdout)
    end = rows(page.one(id="kueue-end"))
    assert [r[0] for r in end] == [w["workload"] for w in doc["workloads"]]
    by = {r[0]: r for r in end}
    assert by["team-b/b-borrowed"][1:6] == ["/org/team-b", "0", "Pending", "WaitingForQuota",
                                            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 2 more needed"]
    assert by["team-b/b-borrowed"][6] == "1\u00d7"
    assert by["team-b/b-own"][3:6] == ["Admitted", "running from the start", "cpu 2 in default"]
    assert by["team-a/a-1"][4] == "cycle 2"
    groups = {d.get("data-reason"): d for d in page.one(id="kueue-pending").all("details")}
    assert list(groups) == ["WaitingForQuota"] and groups["WaitingForQuota"].get("data-count") == "1"
    assert "fits the quota in principle, but not now" in groups["WaitingForQuota"].one("summary").text()
    assert rows(page.one(id="kueue-preemptions"))[0][:5] == ["1", "team-b/b-borrowed", "/org/team-b", "team-a/a-1", "InCohortReclamation"]
    per = {r[0]: r[1:] for r in rows(page.one(id="kueue-perqueue"))}
    assert per == {"/org/team-a": ["2", "0", "0", "0", "2\u20133"], "/org/team-b": ["0", "1", "1", "1", ""]}


def test_the_cohort_tree_shows_quota_usage_and_borrowing(simulate_page):
    page = load(simulate_page)
    items = {el.get("data-queue"): el for el in page.all(role="treeitem")}
    assert list(items) == ["/org", "/org/team-a", "/org/team-b"]
    b = items["/org/team-b"]
    bar = b.one(cls="bar")
    assert bar.get("data-borrowing") == "true"
    assert bar.get("title") == "cpu in default: 6 used of nominal 2 (4 borrowed), borrowing limit 4, 0 available"
    a = items["/org/team-a"]
    assert a.one(cls="bar").get("data-borrowing") is None and "reclaim Any" in a.text()
    assert "cohort" in items["/org"].text()


def test_a_tie_kueue_leaves_to_map_order_is_said_and_linked(tmp_path):
    path = os.path.join(KUEUE, "fifo--equal-creation-tie.yaml")
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/kueue is absent")
    doc = json.loads(run_cli("simulate", path, "-o", "json").stdout)
    ties = [c["cycle"] for c in doc["cycles"] if c.get("tie")]
    assert ties
    page = load(write(tmp_path, "tie.html", "simulate", path, "-o", "html"), f"cycle={ties[0]}")
    assert "Where Kueue itself is nondeterministic" in page.one(id="ties").text()
    assert [a.get("href") for a in page.one(id="ties").all("a")] == [f"#cycle={c}" for c in ties]
    sel = page.one("section", cls="sel")
    assert sel.get("data-cycle") == str(ties[0]) and sel.get("data-tie") == "true"


def test_explain_pending_workloads_in_order_with_why(explain_page):
    page = load(explain_page, "workload=team-a/a-1")
    assert page.one("title").text() == "prio explain: Kueue cohorts and queues (kueue.yaml)"
    doc = json.loads(run_cli("explain", "--sample", "kueue", "-o", "json").stdout)
    pend = rows(page.one(id="kueue-pending"))
    assert [r[2] for r in pend] == [p["workload"] for p in doc["pending"]]
    assert pend[0][:6] == ["/org/team-a", "1", "team-a/a-1", "0", "\u26a0 would preempt", "WaitingForPreemptedWorkloads"]
    assert "(victims: team-b/b-borrowed InCohortReclamation)" in pend[0][6]
    assert pend[1][4] == "\u2713 fits"
    why = page.one(id="kueue-why")
    assert why.get("data-workload") == "team-a/a-1"
    assert "Kueue would preempt team-b/b-borrowed (InCohortReclamation)" in why.text()
    assert page.one(role="treeitem", cls="sel").get("data-queue") == "/org/team-a"


def test_explain_quota_table_and_tree_lines(explain_page):
    page = load(explain_page, "queue=team-b")
    quotas = rows(page.one(id="kueue-quotas"))
    by = {r[0].strip(): r for r in quotas}
    # name, resource, nominal, borrowing limit, lending limit, usage, borrowed, lendable, available
    assert by["team-b"][1:9] == ["cpu in default", "2", "4", "\u2013", "6", "4", "2", "0"]
    assert by["org/"][1:3] == ["cpu in default", "0"]
    assert page.one(role="treeitem", cls="sel").get("data-queue") == "/org/team-b"


def test_fair_sharing_weights_and_shares(tmp_path):
    path = os.path.join(KUEUE, "fairshare--hierarchical-weights.yaml")
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/kueue is absent")
    doc = json.loads(run_cli("explain", path, "-o", "json").stdout)
    page = load(write(tmp_path, "fair.html", "explain", path, "-o", "html"))
    items = {el.get("data-queue"): el for el in page.all(role="treeitem")}
    assert sorted(items) == sorted(n["path"] for n in doc["tree"])
    weighted = [n for n in doc["tree"] if n["share"] is not None]
    assert weighted and all(f"w {n['weight']:g}, share" in items[n["path"]].text() for n in weighted)


def test_diff_workloads_that_end_differently(tmp_path):
    from builders import kueue_sample_split

    SETUP, NO_RECLAIM, WORK = kueue_sample_split()
    for name, text in (("old.yaml", SETUP), ("new.yaml", NO_RECLAIM), ("work.yaml", WORK)):
        (tmp_path / name).write_text(text)
    page = load(write(tmp_path, "diff.html", "diff", *(str(tmp_path / n) for n in ("old.yaml", "new.yaml", "work.yaml")), "-o", "html"))
    assert page.one("title").text().startswith("prio diff: Kueue setup change")
    got = {r[0]: r[1:] for r in rows(page.one(id="kueue-diff-workloads"))}
    assert got["team-a/a-1"] == ["newly pending", "Admitted to team-a (cycle 2: cpu in default)",
                                 "Pending: WaitingForQuota (couldn't assign flavors to pod set main: insufficient unused quota for cpu in "
                                 "flavor default, 2 more needed)"]
    assert got["team-b/b-borrowed"][0] == "newly admitted, preempted less often"
    assert got["team-b/b-borrowed"][2] == "Admitted to team-b (from the start: cpu in default)"
    summary = page.one(id="diff-summary").text()
    assert "3 of 4 workloads end differently (1 newly admitted, 1 newly pending, 0 preempted more often)" in summary
    assert "OLD: 3 cycles" in summary and "NEW: 2 cycles" in summary
    assert [el.get("data-queue") for el in page.all(role="treeitem")] == ["/org", "/org/team-a", "/org/team-b"]


def test_names_that_look_like_markup_stay_text(tmp_path):
    text = open(SAMPLE, encoding="utf-8").read().replace("name: a-2,", "name: '<img src=x onerror=document.body.dataset.owned=1>',")
    assert "<img" in text
    path = tmp_path / "x.yaml"
    path.write_text(text)
    page = load(write(tmp_path, "x.html", "simulate", str(path), "-o", "html"))
    assert page.one("body").get("data-owned") is None and not page.all("img")
    assert "team-a/<img src=x onerror=document.body.dataset.owned=1>" in [r[0] for r in rows(page.one(id="kueue-end"))]


def test_the_cohort_tree_answers_the_keys_and_a_row_click_asks_why(explain_page):
    with Page(explain_page) as p:
        p.js("document.querySelector('[role=treeitem]').focus()")
        assert p.js("document.activeElement.getAttribute('data-queue')") == "/org"
        p.key("ArrowDown")
        assert p.js("document.activeElement.getAttribute('data-queue')") == "/org/team-a"
        p.key("Enter")  # the quota lines
        lines = p.js("document.activeElement.querySelector('.whytext').textContent")
        assert "cpu in default: nominal 6" in lines and "reclaimWithinCohort Any" in lines
        p.js("document.querySelector('#kueue-pending tr.r[data-i=\"1\"]').click()")
        assert p.js("document.getElementById('kueue-why').getAttribute('data-workload')") == "team-a/a-2"
        assert "nothing is ahead of it" not in p.js("document.getElementById('kueue-why').textContent")
        assert p.js("document.body.getAttribute('data-errors')") == "0"
