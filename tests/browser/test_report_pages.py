"""The HTML report in a real browser (headless Chromium, tests/chromium.py): each page builds its
tree, timeline and tables from its embedded JSON, with the right numbers, and logs no script
error. Skipped outside CI without a browser (the message says how to get one); CI fails instead."""
from __future__ import annotations

import json

import pytest

from chromium import dump_dom, parse, png_pixels, screenshot
from conftest import run_cli, sample

WALKTHROUGH_ORDER = ["app-1-1", "app-2-1", "app-2-2", "app-4-1", "app-5-1", "app-4-2", "app-5-2", "app-6-1", "app-7-1", "app-6-2", "app-3-1"]


def write(tmp_path, name, *args) -> str:
    out = str(tmp_path / name)
    r = run_cli(*args, "--output-file", out)
    assert r.exit_code in (0, 1), r.stderr
    return out


def load(path, fragment=""):
    dom, log = dump_dom(path, fragment)
    page = parse(dom)
    body = page.one("body")
    assert body.get("data-ready") == "1", f"the page's script did not finish: {log}"
    assert body.get("data-errors") == "0", page.one("div", id="prio-errors").text()
    assert not [line for line in log if "Uncaught" in line or "Error" in line], log
    return page


def cells(row):
    return [td.text() for td in row.all("td")]


def rows(table_box):
    return [cells(tr) for tr in table_box.all("tr", cls="r")]


@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory):
    return write(tmp_path_factory.mktemp("walk"), "walkthrough.html", "simulate", "-o", "html")


def test_walkthrough_steps_in_order_and_each_queue_priority(walkthrough):
    page = load(walkthrough)
    steps = rows(page.one(id="steps"))
    assert [r[0] for r in steps] == [str(n) for n in range(1, 12)]
    assert [r[3] for r in steps] == WALKTHROUGH_ORDER
    explained = json.loads(run_cli("explain", "-o", "json").stdout)["queues"]
    tree = {el.get("data-queue"): el.get("data-priority") for el in page.all(role="treeitem")}
    assert tree == {q["queue"]: "n/a" if q["priority"] is None else str(q["priority"]) for q in explained}
    assert tree["root.system.system-high"] == "1001" and tree["root.system.system-low"] == "-997"
    tl = page.one(id="timeline")
    assert (tl.get("data-steps"), tl.get("data-lanes"), tl.get("data-drawn"), tl.get("data-binned")) == ("11", "7", "11", "false")
    assert len(page.one(id="timeline-legend").all("canvas")) == 4  # four bands, each a pattern swatch with its label
    fenced = page.all(role="group", cls="fenced")
    assert sorted(g.get("data-fence").split(" only ")[1] for g in fenced) == [
        "tenant-a\u2019s offset (10) counts", "tenant-b\u2019s offset (0) counts", "tenants\u2019s offset (0) counts"]
    assert "prio 0" in page.one("footer").text() or page.one("footer").text()


def test_a_step_in_the_address_answers_why_the_ask_is_there(walkthrough):
    page = load(walkthrough, "step=5")
    why = page.one(id="whyask").text()
    assert "Why is app-5-1 at step 5?" in why
    assert "It waits behind app-4-1 (application app-4, placed at step 4)" in why
    assert "child-a-1 sorts before child-a-2" in why
    assert page.one(role="treeitem", cls="sel").get("data-queue") == "root.tenants.tenant-a.child-a-2"


def test_search_marks_matching_queues(walkthrough):
    page = load(walkthrough, "search=child-b")
    assert [el.get("data-queue") for el in page.all(role="treeitem", cls="match")] == [
        "root.tenants.tenant-b.child-b-1", "root.tenants.tenant-b.child-b-2"]


def test_batch_unscheduled_by_reason_code_and_its_tie(tmp_path):
    page = load(write(tmp_path, "batch.html", "simulate", "--sample", "batch", "-o", "html"))
    groups = {d.get("data-code"): int(d.get("data-count")) for d in page.one(id="unscheduled").all("details")}
    assert groups == {"MaxApplications": 4, "NoCapacity": 2, "QueueQuota": 1}
    assert "step 5" in page.one(id="ties").text()
    assert rows(page.one(id="steps"))[4][0] == "5*"
    web = page.one(role="treeitem", data_queue="root.prod.web")
    assert "vcore: 2 used" in web.one(cls="bars").get("title") and web.get("data-priority") == "1000"


def test_unscheduled_names_the_nodes_the_predicates_refuse(tmp_path):
    snap = tmp_path / "s.yaml"
    snap.write_text("""nodes:
  - {name: gpu-1, capacity: {vcore: 4}, taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]}
  - {name: cpu-1, capacity: {vcore: 4}, labels: {pool: cpu}}
applications:
  - {id: a, queue: root.a, asks: [{id: lost, priority: 1, resources: {vcore: 1}, nodeSelector: {pool: gpu}}]}
""")
    page = load(write(tmp_path, "pred.html", "simulate", str(snap), "-o", "html"))
    (group,) = page.one(id="unscheduled").all("details")
    assert group.get("data-code") == "TaintNotTolerated"
    (row,) = rows(group)
    assert row[-1] == ("gpu-1: TaintToleration: node(s) had untolerated taint {nvidia.com/gpu: present}; "
                       "cpu-1: NodeAffinity: node(s) didn't match Pod's node affinity/selector")


def test_preemption_checks_victims_and_candidates(tmp_path):
    page = load(write(tmp_path, "preempt.html", "preempt", "-o", "html"))
    cards = {c.get("data-ask"): c for c in page.all("article")}
    assert sorted(cards) == ["checkout-0", "training-0"]
    checkout = cards["checkout-0"]
    assert checkout.get("data-outcome") == "preempted"
    assert [li.get("data-victim") for li in checkout.one("ol").all("li")] == ["nightly-3", "nightly-1"]
    assert [tr.get("data-verdict") for tr in checkout.one("table").all("tr", data_verdict=True)][:3] == ["victim #1", "victim #2", "candidate"]
    training = cards["training-0"]
    assert training.get("data-outcome") == "not placed"
    failed = [li.text() for li in training.all("li", data_passed="false")]
    assert failed == ["ask preemptionPolicy: preemptionPolicy Never"]


def test_diff_priorities_and_moves(tmp_path):
    from builders import walkthrough_queues_lowered

    new = tmp_path / "new-queues.yaml"
    new.write_text(walkthrough_queues_lowered())
    page = load(write(tmp_path, "diff.html", "diff", sample("walkthrough-queues.yaml"), str(new), sample("walkthrough-asks.yaml"), "-o", "html"))
    assert rows(page.one(id="diff-priorities")) == [["root.tenants.tenant-a", "10", "-10", "-20 (lower)"]]
    moves = {r[0]: r[5] for r in rows(page.one(id="diff-moves"))}
    assert moves == {"app-6-1": "4 earlier", "app-6-2": "4 earlier", "app-7-1": "4 earlier", "app-4-1": "3 later",
                     "app-4-2": "3 later", "app-5-1": "3 later", "app-5-2": "3 later"}
    assert page.one(role="treeitem", data_queue="root.tenants.tenant-a").one(cls="chg").text() == "10 \u2192 -10"
    assert "7 asks move (4 later, 3 earlier)" in page.one(id="diff-summary").text()


def test_explain_tree_and_asks(tmp_path):
    page = load(write(tmp_path, "explain.html", "explain", "--sample", "batch", "-o", "html"))
    doc = json.loads(run_cli("explain", "--sample", "batch", "-o", "json").stdout)
    assert len(page.all(role="treeitem")) == len(doc["queues"])
    assert [r[1] for r in rows(page.one(id="asks"))] == [a["ask"] for a in doc["asks"]]
    why = page.one(role="treeitem", data_queue="root.research")
    assert why.one("button", cls="why")  # --why on demand


def test_ids_that_look_like_markup_stay_text(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n          - name: a\n")
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n  - id: '</script><script>document.body.dataset.owned=1</script>'\n    queue: root.a\n"
                 "    asks:\n      - {id: '<img src=x onerror=alert(1)>', priority: 5, resources: {vcore: 1}}\n")
    page = load(write(tmp_path, "x.html", "simulate", str(q), str(s), "-o", "html"))
    assert page.one("body").get("data-owned") is None and not page.all("img")
    assert rows(page.one(id="steps"))[0][2:4] == ["</script><script>document.body.dataset.owned=1</script>", "<img src=x onerror=alert(1)>"]


@pytest.mark.slow
def test_a_long_run_is_drawn_in_bins(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n"
                 + "".join(f"          - name: q{i}\n" for i in range(40)))
    apps = [{"id": f"app-{i}", "queue": f"root.q{i % 40}", "asks": [{"id": f"a{i}-{j}", "priority": (i * 7 + j) % 100, "resources": {"vcore": 1}}
                                                                 for j in range(50)]} for i in range(400)]
    s = tmp_path / "s.json"
    s.write_text(json.dumps({"applications": apps}))
    page = load(write(tmp_path, "big.html", "simulate", str(q), str(s), "-o", "html"))
    tl = page.one(id="timeline")
    assert tl.get("data-steps") == "20000" and tl.get("data-lanes") == "40" and tl.get("data-binned") == "true"
    assert int(tl.get("data-drawn")) > 40
    assert len(page.one(id="steps").all("tr", cls="r")) < 100  # virtualised: the rows in view, not 20,000


@pytest.mark.slow
def test_screenshots_are_drawn_light_and_dark(walkthrough, tmp_path):
    for theme, dark in (("light", False), ("dark", True)):
        out = str(tmp_path / f"{theme}.png")
        log = screenshot(walkthrough, out, f"theme={theme}", size=(900, 600))
        assert not [line for line in log if "Uncaught" in line], log
        w, h, px = png_pixels(out)
        assert (w, h) == (900, 600)
        colours = {p for row in px[::4] for p in row[::4]}
        assert len(colours) > 20, f"{theme}: the screenshot is (nearly) blank"
        mean = sum(sum(p) for row in px[::8] for p in row[::8]) / (3 * len(px[::8]) * len(px[0][::8]))
        assert (mean < 100) if dark else (mean > 160), f"{theme}: mean brightness {mean:.0f}"


def test_keys_the_page_does_not_know_are_shown_as_they_are(tmp_path):
    """A newer prio's JSON (a key this page does not know): its own tab, a table or a list of what it holds."""
    from prio.render.html import page as html_page

    doc = json.loads(run_cli("preempt", "-o", "json").stdout)
    doc["newer"] = {"enabled": True, "armed": [{"queue": "root.batch", "delay": "5m"}], "preempted": ["nightly-0"]}
    out = tmp_path / "newer.html"
    out.write_text("".join(html_page("preempt", [json.dumps(doc)], {"command": "preempt", "inputs": [], "notes": []})))
    page = load(str(out))
    quota = page.one(data_key="newer")
    assert page.one(id="tab-other-newer").text() == "newer"
    assert ["root.batch", "5m"] in rows(quota) and "nightly-0" in quota.text()
    assert len(page.all("article")) == 2  # the asks still drawn; no tree without a context: said


def test_a_gang_run_with_a_timeout_draws_its_allocations(tmp_path):
    """A gang scenario's steps hold placeholder releases and timeouts (no ask): the page draws the
    allocations and logs no error (the gang view: test_report_rough_edges.py)."""
    q, s = tmp_path / "q.yaml", tmp_path / "s.yaml"
    q.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues: [{name: a}]\n")
    s.write_text("horizon: 120\nnodes: [{name: n1, capacity: {vcore: 8}}]\napplications:\n"
                 "  - {id: g1, queue: root.a, gangSchedulingStyle: Hard, placeholderTimeoutInSeconds: 60,\n"
                 "     taskGroups: [{name: w, minMember: 2, minResource: {vcore: 6}}],\n"
                 "     asks: [{priority: 1, resources: {vcore: 6}, taskGroup: w, count: 2}]}\n"
                 "  - {id: a2, queue: root.a, asks: [{priority: 1, resources: {vcore: 1}}]}\n")
    page = load(write(tmp_path, "gang.html", "simulate", str(q), str(s), "-o", "html"))
    assert [r[3] for r in rows(page.one(id="steps"))] == ["tg-g1-w-1", "a2-1"]
