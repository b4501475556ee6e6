"""The HTML report's rough edges of issue 44 item 5, each in Chromium: quota-change preemption
drawn (not raw JSON in bytes and millicores), the preemptor's badge, the candidates' place in
YuniKorn's victim order, allowPreemption: false tasks, the tree pane at 1400 px, the timeline's
colour legend and priority scale; and issue 45's gang view."""
from __future__ import annotations

import re

import pytest
from test_report_pages import load, write

from builders import UNDER_ROOT
from chromium import Page
from conftest import run_cli, sample

QUEUES = UNDER_ROOT + "          - name: prod\n            resources:\n              guaranteed: {vcore: 2}\n          - name: batch\n"
# newest-mid (P5) is YuniKorn's first victim although old-low (P0) is a candidate: its victim
# order is newest first; new-mid opted out of preemption
SNAPSHOT = """nodes:
  - {name: n1, capacity: {vcore: 6}}
applications:
  - id: old
    queue: root.batch
    allocations:
      - {id: old-low, priority: 0, resources: {vcore: 2}, node: n1, createTime: "2024-05-01T08:00:00Z"}
      - {id: new-mid, priority: 5, resources: {vcore: 2}, node: n1, createTime: "2024-05-01T09:00:00Z", allowPreemption: false}
      - {id: newest-mid, priority: 5, resources: {vcore: 2}, node: n1, createTime: "2024-05-01T09:30:00Z"}
    asks: []
  - id: web
    queue: root.prod
    asks:
      - {id: web-0, priority: 10, resources: {vcore: 2}, createTime: "2024-05-01T10:00:00Z"}
"""


def whys(card) -> dict:
    return {tr.get("data-why"): " ".join(tr.text().split()) for tr in card.all("tr", cls="whyrow")}


@pytest.fixture(scope="module")
def victims_page(tmp_path_factory):
    d = tmp_path_factory.mktemp("order")
    (d / "q.yaml").write_text(QUEUES)
    (d / "s.yaml").write_text(SNAPSHOT)
    return write(d, "order.html", "preempt", str(d / "q.yaml"), str(d / "s.yaml"), "-o", "html")


def test_the_preemptors_badge_says_it_preempts_not_that_it_was_preempted(victims_page):
    card = load(victims_page).one("article", data_ask="web-0")
    badge = card.one("span", cls="outcome").text()
    assert "PREEMPTOR" in badge and "PREEMPTED" not in badge and "1 TASK" in badge


def test_the_why_line_says_why_the_victim_was_chosen_over_a_lower_priority_candidate(victims_page):
    card = load(victims_page).one("article", data_ask="web-0")
    assert [tr.get("data-verdict") for tr in card.all("tr", data_verdict=True)] == ["victim #1", "candidate", "candidate"]
    w = whys(card)
    assert "taken #1 on n1: allows preemption, not the originator, created 2024-05-01T09:30:00Z" in w["newest-mid"]
    assert "taken before old-low of lower priority: the order does not look at priority" in w["newest-mid"]
    assert "not taken (allows preemption, not the originator, created 2024-05-01T08:00:00Z)" in w["old-low"]
    assert "newest first" in card.one("p", cls="victim-order").text()


def test_a_task_with_allow_preemption_false_is_marked_as_such(victims_page):
    card = load(victims_page).one("article", data_ask="web-0")
    row = card.one("tr", data_task="new-mid")
    assert row.get("data-allow-preemption") == "false" and "no preempt" in row.text()
    assert "allowPreemption: false" in whys(card)["new-mid"]
    assert "1 task marked \u201cno preempt\u201d set allowPreemption: false" in card.one("p", cls="optout-note").text()
    assert card.one("tr", data_task="old-low").get("data-allow-preemption") is None


def test_quota_preemption_is_drawn_in_units_people_read(tmp_path):
    page = load(write(tmp_path, "quota.html", "preempt", "--sample", "quota", "-o", "html"), "tab=quota")
    q = page.one(id="quota")
    assert q.get("data-armed") == "root.tenants.team-a" and q.get("data-enabled") == "true"
    assert "After 5m YuniKorn preempts 2 running tasks" in q.text()
    row = q.one("div", cls="qrow")
    assert row.get("data-queue") == "root.tenants.team-a" and row.get("data-armed") == "true"
    res = row.one("span", cls="qres")
    assert res.one("span", cls="k").text() == "vcore" and res.one("span", cls="v").text() == "12 / 8 \u2192 8"  # usage / max -> after the victims
    assert "usage {memory: 24Gi, vcore: 12}, max {vcore: 8}, over by {vcore: 4}" in row.text()
    leaf = q.one("section", data_leaf="root.tenants.team-a")
    assert [li.get("data-allocation") for li in leaf.all("li", cls="victim")] == ["web-0", "etl-driver"]
    assert [li.get("data-allocation") for li in leaf.all("li")] == ["web-0", "etl-driver", "etl-exec-2", "etl-exec-1", "report-0", "web-1"]
    assert "Amount to free: {vcore: 4}" in leaf.text() and "freed {memory: 8Gi, vcore: 4} by web-0, etl-driver" in leaf.text()
    assert "no preempt" in leaf.one("li", data_allocation="web-0").text()
    text = q.text()
    assert not re.search(r"\b(12000|4000|8000|25769803776|8589934592)\b", text), "raw millicores or bytes on the page"
    assert page.all(data_key="quota") == []  # not the JSON as it is


def test_the_diffs_quota_preemption_is_drawn_too(tmp_path):
    old = tmp_path / "quota-old-queues.yaml"
    old.write_text(open(sample("quota-queues.yaml"), encoding="utf-8").read().replace("max: {vcore: 8} ", "max: {vcore: 16} "))
    out = str(tmp_path / "diff.html")
    r = run_cli("diff", str(old), sample("quota-queues.yaml"), sample("quota-asks.yaml"), "-o", "html", "--output-file", out)
    assert r.exit_code in (0, 1), r.stderr
    page = load(out, "tab=quota")
    assert page.one(id="tab-quota").text() == "Quota preemption (2 victims)"
    q = page.one(id="quota")
    assert "within NEW\u2019s max" in q.text() and "Queues over their new max" in q.text()
    assert [li.get("data-allocation") for li in q.all("li", cls="victim")] == ["web-0", "etl-driver"]
    assert page.all(data_key="quotaPreemption") == []


def test_the_tree_pane_does_not_clip_at_1400_px(tmp_path):
    """Every row of the queue tree fits its pane (no queue's tags, bars or why button cut off)."""
    out = write(tmp_path, "p.html", "preempt", "--sample", "preemption", "-o", "html")
    with Page(out, size=(1400, 900)) as p:
        clipped = p.js("""(function () {
          var pane = document.getElementById('queues').getBoundingClientRect(), out = [];
          document.querySelectorAll('#tree .row').forEach(function (r) {
            var b = r.getBoundingClientRect(), right = b.left;
            r.querySelectorAll('*').forEach(function (k) { right = Math.max(right, k.getBoundingClientRect().right); });
            if (right > pane.right - 2 || r.scrollWidth > r.clientWidth + 1) out.push(r.parentNode.getAttribute('data-queue'));
          });
          return out; })()""")
        assert clipped == []
        assert p.js("document.querySelectorAll('#tree .row').length") == 7


def test_ids_in_the_candidate_table_never_break(victims_page):
    with Page(victims_page, size=(900, 900)) as p:
        assert p.js("Array.prototype.every.call(document.querySelectorAll('table.cands td.id'), function (td) {"
                    " return getComputedStyle(td).whiteSpace === 'nowrap'; })")
        assert p.js("document.querySelectorAll('table.cands td.id').length") == 15


def test_the_timeline_says_colour_is_the_asks_priority_and_scales_each_line(tmp_path):
    page = load(write(tmp_path, "w.html", "simulate", "-o", "html"))
    legend = page.one(id="timeline-legend").text()
    assert "Colour: the ask\u2019s own priority" in legend and "not its place in the order" in legend
    assert "its scale, lowest to highest, at the lane\u2019s right" in legend
    tl = page.one(id="timeline")
    # each lane's queue priority over the run: lowest..highest, as the scale at its right says
    assert tl.get("data-scales").split() == ["2..10", "1001", "-997", "5..8", "4..6", "7..9", "8"]


@pytest.fixture(scope="module")
def gang_pages(tmp_path_factory):
    d = tmp_path_factory.mktemp("gangs")
    asks = d / "gang-30m.yaml"
    asks.write_text("horizon: 30m\n" + open(sample("gang-asks.yaml"), encoding="utf-8").read())
    return (write(d, "gang.html", "simulate", "--sample", "gang", "-o", "html"),
            write(d, "gang30.html", "simulate", sample("gang-queues.yaml"), str(asks), "-o", "html"))


def chips(group) -> list:
    return [(li.get("data-placeholder"), li.get("data-state")) for li in group.all("li", cls="chip")]


def test_the_gang_view_shows_each_gang_as_one_unit(gang_pages):
    page = load(gang_pages[0], "tab=gangs")
    box = page.one(id="gangs")
    assert box.get("data-gangs") == "2"
    done = box.one("article", data_gang="spark-41")
    assert done.get("data-state") == "Running" and "RUNNING" in done.one("span", cls="outcome").text()
    ex = done.one("div", data_group="executor")
    assert (ex.get("data-placeholders"), ex.get("data-allocated")) == ("4", "4")
    assert chips(ex) == [(f"tg-spark-41-executor-{n}", "replaced") for n in range(1, 5)]
    assert "minMember 4 \u00D7 {vcore: 4}" in ex.text()
    assert " ".join(ex.one("li", data_real="exec-1").text().split()) == "exec-1 placed at step 7 on node-2, in place of tg-spark-41-executor-1"
    waiting = box.one("article", data_gang="spark-42")
    assert waiting.get("data-state") == "Accepted" and "WAITING" in waiting.text()
    ex = waiting.one("div", data_group="executor")
    assert [s for _, s in chips(ex)] == ["allocated"] * 2 + ["pending"] * 6
    assert "2 of 8 placeholders held" in ex.text()
    held = ex.one("li", data_waits="GangIncomplete")
    assert held.get("data-real") == " ".join(f"exec-{n}" for n in range(1, 9))
    assert "(8 real pods) wait (GangIncomplete): gang spark-42 waits: 2 of 8 executor placeholders allocated" in " ".join(held.text().split())
    assert "the placeholder timer would fire at 600 s" in waiting.text() and "style Hard, placeholder timeout 600 s" in waiting.text()
    steps = page.one(id="steps")
    gang_col = [tr.all("td")[6].text() for tr in steps.all("tr", cls="r")]
    assert gang_col[0] == "placeholder driver" and gang_col[5] == "driver, replaces tg-spark-41-driver-1"


def test_a_picked_step_says_its_gang_part(gang_pages):
    assert "gang: placeholder driver" in load(gang_pages[0], "step=1").one(id="whyask").text()
    assert "gang: executor, replaces tg-spark-41-executor-1" in load(gang_pages[0], "step=7").one(id="whyask").text()


def test_no_queue_over_its_max_says_so_on_the_quota_tab(tmp_path):
    page = load(write(tmp_path, "p.html", "preempt", "--sample", "preemption", "-o", "html"), "tab=quota")
    assert page.one(id="tab-quota").text() == "Quota preemption (none over their max)"
    assert "No queue\u2019s running work is over its max" in page.one(id="quota").text()


def test_a_hard_timeout_fails_the_gang_and_its_placeholders_go(gang_pages):
    page = load(gang_pages[1], "tab=gangs")
    failed = page.one("article", data_gang="spark-42")
    assert failed.get("data-state") == "Failed" and "FAILED" in failed.one("span", cls="outcome").text()
    ex = failed.one("div", data_group="executor")
    assert [s for _, s in chips(ex)] == ["released"] * 2 + ["cancelled"] * 6
    ev = failed.one("li", data_event="timeout")
    assert " ".join(ev.text().split()) == ("step 14: placeholder timeout (Hard, while reserving) at 600 s: 3 allocated placeholders released, "
                                          "6 pending ones cancelled; the gang fails")
    assert failed.one("li", data_waits="GangFailed")


def test_a_big_gang_draws_the_first_300_placeholders_and_counts_the_rest(tmp_path):
    (tmp_path / "q.yaml").write_text(UNDER_ROOT + "          - name: a\n")
    (tmp_path / "s.yaml").write_text("nodes: [{name: n1, capacity: {vcore: 1000}}]\napplications:\n"
                                     "  - {id: big, queue: root.a, taskGroups: [{name: w, minMember: 400, minResource: {vcore: 1}}],\n"
                                     "     asks: [{priority: 1, resources: {vcore: 1}, taskGroup: w, count: 400}]}\n")
    page = load(write(tmp_path, "big.html", "simulate", str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml"), "-o", "html"), "tab=gangs")
    group = page.one("article", data_gang="big").one("div", data_group="w")
    assert (group.get("data-placeholders"), group.get("data-allocated")) == ("400", "400")
    assert len(group.all("li", cls="chip")) == 300 and "100 more placeholders, counted above." in group.text()
    assert len(group.one("ul", cls="reals").all("li")) == 301 and "100 more" in group.one("ul", cls="reals").text()


def test_explain_marks_a_gangs_placeholders_and_real_pods(tmp_path):
    page = load(write(tmp_path, "ge.html", "explain", "--sample", "gang", "-o", "html"))
    got = {tr.all("td")[1].text(): tr.all("td")[6].text() for tr in page.one(id="asks").all("tr", cls="r")}
    assert got["tg-spark-41-driver-1"] == "placeholder driver" and got["tg-spark-42-executor-3"] == "placeholder executor"
    assert all(v == "" for k, v in got.items() if k.startswith("etl"))
    assert sum(v.startswith("placeholder ") for v in got.values()) == 14 == len(got) - 2  # the real pods wait, held back by the shim


def test_the_diffs_gangs_that_end_otherwise_have_a_tab(tmp_path):
    """diff -o html: a gang NEW rejects (its whole request over root.spark's new max) is in a
    Gangs tab, each side's end state as the text diff says it, not the raw JSON."""
    new = tmp_path / "gang-new-queues.yaml"
    new.write_text(open(sample("gang-queues.yaml"), encoding="utf-8").read().replace(
        "          - name: spark\n", "          - name: spark\n            resources: {max: {vcore: 20}}\n"))
    out = str(tmp_path / "diff.html")
    r = run_cli("diff", sample("gang-queues.yaml"), str(new), sample("gang-asks.yaml"), "-o", "html", "--output-file", out)
    assert r.exit_code in (0, 1), r.stderr
    page = load(out, "tab=gangs")
    assert page.one(id="tab-gangs").text() == "Gangs (1)"
    rows = [" | ".join(td.text() for td in tr.all("td")) for tr in page.one(id="diff-gangs").all("tr") if tr.all("td")]
    assert rows == ["spark-42 | Accepted, real pods held, 3 held, 6 pending | not a gang here (rejected, or no task groups)"], rows
    assert page.all(data_key="gangs") == []  # not also shown as the raw JSON
