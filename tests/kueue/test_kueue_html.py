"""`-o html` on Kueue inputs without a browser: simulate, explain and diff write one
self-contained page whose embedded document is exactly their -o json, with the context the page's
Kueue views draw from (the cohort tree before the replay, each workload's ClusterQueue, the pending
reasons' headlines, --why-workload for every workload, both sides' trees). What the page draws is
checked in a real browser: tests/browser/test_kueue_report.py."""
from __future__ import annotations

import json
import os

import pytest

from builders import kueue_sample_split
from conftest import ROOT, SHARED, run_cli
from htmlpage import data_and_context

SETUP, NO_RECLAIM, WORK = kueue_sample_split()
DATA = os.path.join(SHARED, "testdata", "kueue")


def page_and_json(*args):
    page = run_cli(*args, "-o", "html")
    doc = run_cli(*args, "-o", "json")
    assert page.exit_code == doc.exit_code == 0, page.stderr
    assert page.stdout.startswith("<!DOCTYPE html>") and page.stdout.rstrip().endswith("</html>")
    data, ctx = data_and_context(page.stdout)
    assert data == json.loads(doc.stdout)  # the page embeds the -o json document, whole
    return page.stdout, data, ctx


@pytest.fixture
def diff_files(tmp_path):
    for name, text in (("old.yaml", SETUP), ("new.yaml", NO_RECLAIM), ("work.yaml", WORK)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return [str(tmp_path / n) for n in ("old.yaml", "new.yaml", "work.yaml")]


def test_simulate_page_carries_the_cycles_and_the_tree_before_the_replay():
    text, data, ctx = page_and_json("simulate", "--sample", "kueue")
    assert "<title>prio simulate: Kueue admission cycles (kueue.yaml)</title>" in text
    assert (ctx["command"], ctx["model"], ctx["fairSharing"]) == ("simulate", "kueue", False)
    assert [c["cycle"] for c in data["cycles"]] == [1, 2, 3]
    assert ctx["tree"] == json.loads(run_cli("explain", "--sample", "kueue", "-o", "json").stdout)["tree"]
    assert ctx["paths"] == {"team-a": "/org/team-a", "team-b": "/org/team-b"}
    assert ctx["clusterQueueOf"]["team-b/b-borrowed"] == "team-b"  # pending at the end: the JSON says null
    assert {w["workload"]: w["clusterQueue"] for w in data["workloads"]}["team-b/b-borrowed"] is None
    assert set(ctx["reasons"]) >= {"WaitingForQuota", "ExceedsMaxQuota", "NoMatchingFlavor", "Misconfigured",
                                   "PendingEvaluation", "WaitingForPreemptedWorkloads"}
    assert "whyWorkload" not in ctx  # explain's answers, as things are before the replay


def test_explain_page_answers_why_for_every_workload():
    text, data, ctx = page_and_json("explain", "--sample", "kueue")
    assert "<title>prio explain: Kueue cohorts and queues (kueue.yaml)</title>" in text
    assert data["model"] == "kueue" and ctx["model"] == "kueue"
    assert sorted(ctx["whyWorkload"]) == ["team-a/a-1", "team-a/a-2", "team-b/b-borrowed", "team-b/b-own"]
    for key, lines in ctx["whyWorkload"].items():
        alone = json.loads(run_cli("explain", "--sample", "kueue", "-o", "json", "--why-workload", key).stdout)["why"]
        assert lines == alone, key
    assert "Kueue would preempt team-b/b-borrowed (InCohortReclamation)" in " ".join(ctx["whyWorkload"]["team-a/a-1"])


def test_diff_page_carries_both_trees(diff_files):
    text, data, ctx = page_and_json("diff", *diff_files)
    assert "<title>prio diff: Kueue setup change" in text
    assert (data["model"], ctx["model"]) == ("kueue", "kueue")
    assert [c["workload"] for c in data["workloads"]] == ["team-a/a-1", "team-a/a-2", "team-b/b-borrowed"]
    assert sorted(ctx["trees"]) == ["NEW", "OLD"]
    policy = {n["name"]: n.get("preemption", {}).get("reclaimWithinCohort") for n in ctx["trees"]["OLD"]}
    assert policy["team-a"] == "Any"
    assert {n["name"]: n.get("preemption", {}).get("reclaimWithinCohort") for n in ctx["trees"]["NEW"]}["team-a"] == "Never"
    assert (ctx["old"], ctx["new"]) == (diff_files[0], diff_files[1])
    assert [i["name"] for i in ctx["inputs"]] == diff_files  # each file once


def test_output_file_named_html_writes_the_page(tmp_path, diff_files):
    for args in (("simulate", "--sample", "kueue"), ("explain", "--sample", "kueue"), ("diff", *diff_files)):
        out = tmp_path / "report.html"
        r = run_cli(*args, "--output-file", str(out))
        assert r.exit_code == 0 and r.stdout == "", r.stderr
        assert "id=\"prio-data\"" in out.read_text() and "\"model\":\"kueue\"" in out.read_text()


def test_diff_fail_on_still_decides_the_exit_code_with_html(diff_files):
    assert run_cli("diff", *diff_files, "-o", "html", "--fail-on", "unscheduled").exit_code == 1
    assert run_cli("diff", *diff_files, "-o", "html", "--fail-on", "priority").exit_code == 0


def test_why_workload_with_html_is_one_line():
    r = run_cli("explain", "--sample", "kueue", "-o", "html", "--why-workload", "team-a/a-1")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == ("prio: --why-workload answers in text or json; -o html draws the whole report "
                                "(with --why-workload for every workload)")


def test_a_zero_weight_share_stays_json_in_the_page(tmp_path):
    """json.dumps writes an infinite share as Infinity, which the page's JSON.parse refuses: it is "+Inf"."""
    body = open(os.path.join(ROOT, "samples", "kueue.yaml"), encoding="utf-8").read().replace(
        "  name: team-b\nspec:\n", "  name: team-b\nspec:\n  fairSharing: {weight: 0}\n", 1)
    path = tmp_path / "zero.yaml"
    path.write_text("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing: {}\n---\n" + body)
    for command in ("simulate", "explain"):
        page = run_cli(command, str(path), "-o", "html").stdout
        assert "Infinity" not in page.split("<script>\n")[0]  # the two documents, before the page's script
        data, ctx = data_and_context(page)
        tree = data["tree"] if command == "explain" else ctx["tree"]
        assert {n["name"]: n["share"] for n in tree}["team-b"] == "+Inf"


@pytest.mark.skipif(not os.path.isdir(DATA), reason="../shared/testdata/kueue is absent")
@pytest.mark.parametrize("case", ["fifo--equal-creation-tie", "fairshare--hierarchical-weights", "preempt-reclaim--reclaim-any",
                                  "flavors--random-01"])
def test_recorded_scenarios_give_their_json_in_the_page(case):
    path = os.path.join(DATA, case + ".yaml")
    if not os.path.exists(path):
        pytest.skip(f"{case} is not in the corpus")
    for command in ("simulate", "explain"):
        page_and_json(command, path)


def test_a_cohort_cycle_with_html_is_still_one_line(tmp_path):
    from test_kueue_inputs import TWO_CYCLE

    path = tmp_path / "setup.yaml"
    path.write_text(TWO_CYCLE)
    for command in ("simulate", "explain"):
        r = run_cli(command, str(path), "-o", "html")
        assert r.exit_code == 2 and r.stdout == "" and "Cohort parents form a cycle" in r.stderr, r.stderr


def test_past_the_limit_the_page_gives_the_command_instead_of_every_answer(monkeypatch):
    from prio.kueue import html

    monkeypatch.setattr(html, "WHY_WORKLOADS", 3)
    _, _, ctx = page_and_json("explain", "--sample", "kueue")  # four workloads
    assert "whyWorkload" not in ctx
    assert ctx["whyNote"] == "4 workloads: run prio explain --why-workload NS/NAME for one workload"
