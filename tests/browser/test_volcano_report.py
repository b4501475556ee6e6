"""The HTML report of Volcano inputs in a real browser (headless Chromium, tests/chromium.py): the
view volcano/view.js draws (report/page.js calls it for the context's model 'volcano'):
simulate's config in force, its cycles with binds, evictions (preemptor and action) and
pipelined pods, each PodGroup's end phase with Volcano's condition messages, each pod's end state
or Volcano's PodScheduled message; explain's queue and job order.
Skipped outside CI without a browser (the message says how to get one); CI fails instead."""
from __future__ import annotations

import json
import os

import pytest
from test_report_pages import cells, load, write

from conftest import SHARED, run_cli

DATA = os.path.join(SHARED, "testdata", "volcano")


def table(page, id_):
    box = page.one("table", id=id_)
    return box, [cells(tr) for tr in box.one("tbody").all("tr")]


@pytest.fixture(scope="module")
def simulate_page(tmp_path_factory):
    return write(tmp_path_factory.mktemp("volcano"), "simulate.html", "simulate", "--sample", "volcano", "-o", "html")


def test_simulate_draws_the_cycles_podgroups_and_pods_of_the_json(simulate_page):
    page = load(simulate_page)
    data = json.loads(run_cli("simulate", "--sample", "volcano", "-o", "json").stdout)
    assert page.one("title").text() == "prio simulate: Volcano scheduling cycles (volcano.yaml)"
    assert page.one(id="volcano-summary").text() == f"{data['cyclesRun']} scheduling cycles ran; stopped: a cycle changed nothing."
    assert "preempt, reclaim" in page.one(id="volcano-config").text()
    box, rows = table(page, "volcano-cycles")
    events = [(c["cycle"], "bind", b["pod"]) for c in data["cycles"] for b in c["binds"]]
    assert [(int(r[0]), r[1], r[2]) for r in rows if r[1] == "bind"] == events
    evictions = [e for c in data["cycles"] for e in c["evictions"]]
    drawn = [r for r in rows if r[1] in ("preempt", "reclaim")]
    assert [(r[1], r[2], r[3]) for r in drawn] == [(e["action"], e["pod"], f"from {e['node']} for {e['preemptor']}") for e in evictions]
    _, groups = table(page, "volcano-podgroups")
    assert [(r[0], r[3]) for r in groups] == [(g["podGroup"], g["phase"]) for g in data["podGroups"]]
    box, pods = table(page, "volcano-pods")
    assert box.get("data-rows") == str(len(data["pods"])) and [r[1] for r in pods] == [p["state"] for p in data["pods"]]


def test_volcanos_messages_are_shown(tmp_path):
    path = os.path.join(DATA, "default--gang-all-or-nothing.yaml")
    if not os.path.exists(path):
        pytest.skip("../shared/testdata/volcano is absent")
    page = load(write(tmp_path, "gang.html", "simulate", path, "-o", "html"))
    data = json.loads(run_cli("simulate", path, "-o", "json").stdout)
    _, groups = table(page, "volcano-podgroups")
    unsched = [c["message"] for g in data["podGroups"] for c in g["conditions"] if c["type"] == "Unschedulable"]
    assert unsched and all(any(m in r[5] for r in groups) for m in unsched)
    _, pods = table(page, "volcano-pods")
    waiting = {p["pod"]: p["pendingMessage"] for p in data["pods"] if p["state"] == "Pending"}
    assert waiting and {r[0]: r[3] for r in pods if r[1] == "Pending"} == waiting


def test_explain_draws_the_queue_and_job_order(tmp_path):
    page = load(write(tmp_path, "explain.html", "explain", "--sample", "volcano", "-o", "html"))
    data = json.loads(run_cli("explain", "--sample", "volcano", "-o", "json").stdout)
    _, queues = table(page, "volcano-queues")
    assert [r[0] for r in queues] == [q["queue"] for q in data["queues"]]
    _, jobs = table(page, "volcano-jobs")
    assert [r[0] for r in jobs] == [j["podGroup"] for j in data["jobs"]]


def test_why_job_is_refused_with_html():
    r = run_cli("explain", "--sample", "volcano", "--why-job", "default/sweep", "-o", "html")
    assert r.exit_code == 2 and "--why-job answers in text or json" in r.stderr
