"""-o html without a browser: the page embeds the command's own -o json document, fetches nothing,
carries the context its views need, and is chosen by --output-file NAME.html. (What the page draws
is checked in a real browser: tests/browser.)"""
from __future__ import annotations

import json

import pytest

from conftest import run_cli, sample
from htmlpage import data_and_context


def lowered(tmp_path) -> str:
    from builders import walkthrough_queues_lowered

    p = tmp_path / "new-queues.yaml"
    p.write_text(walkthrough_queues_lowered())
    return str(p)


CASES = {
    "simulate": lambda t: ["simulate"],
    "simulate batch": lambda t: ["simulate", "--sample", "batch"],
    "simulate cluster": lambda t: ["simulate", "--sample", "cluster"],
    "explain": lambda t: ["explain", "--sample", "batch"],
    "preempt": lambda t: ["preempt"],
    "diff": lambda t: ["diff", sample("walkthrough-queues.yaml"), lowered(t), sample("walkthrough-asks.yaml")],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_page_embeds_the_json_document(case, tmp_path):
    args = CASES[case](tmp_path)
    page = run_cli(*args, "-o", "html")
    doc = run_cli(*args, "-o", "json")
    assert page.exit_code == doc.exit_code == 0, page.stderr
    data, ctx = data_and_context(page.stdout)
    assert data == json.loads(doc.stdout)
    assert ctx["command"] == args[0] and ctx["prio"] and ctx["generated"].endswith("Z")
    assert page.stdout.startswith("<!DOCTYPE html>") and page.stdout.rstrip().endswith("</html>")


def test_nothing_is_fetched(tmp_path):
    page = run_cli("simulate", "--sample", "batch", "-o", "html").stdout
    head = page.split('<script type="application/json"', 1)[0]
    assert "Content-Security-Policy" in head and "default-src 'none'" in head
    script = page.rsplit("<script>", 1)[1]
    for never in ("<link", " src=", "url(", "@import", "http://", "https://", "fetch(", "XMLHttpRequest", "import(", "WebSocket"):
        assert never not in head and never not in script, never


def test_markup_in_ids_cannot_end_the_data(tmp_path):
    from prio.render.html import embed, page

    assert "<" not in embed('{"a": "</script><!-- x"}')
    doc = {"steps": [{"ask": "</script><script>alert(1)</script>"}]}
    text = "".join(page("simulate", [json.dumps(doc)], {"command": "simulate", "inputs": [{"name": "</title><b>"}]}))
    assert text.count("</script>") == 3  # the two data elements and the page's script: nothing else closes one
    assert "</title><b>" not in text
    data, ctx = data_and_context(text)
    assert data == doc and ctx["inputs"][0]["name"] == "</title><b>"


def test_assets_cannot_close_their_element():
    from prio.render.html import script_parts, style_parts

    assert len(script_parts()) >= 4  # the core, YuniKorn's views, the backends' views, the page
    assert len(style_parts()) >= 2  # report.css and a backend's own
    assert all("</script" not in part.lower() for part in script_parts())
    assert all("</style" not in part.lower() for part in style_parts())


def test_output_file_named_html_writes_the_page(tmp_path, monkeypatch):
    out = tmp_path / "report.html"
    assert run_cli("simulate", "--output-file", str(out)).exit_code == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    monkeypatch.setenv("PRIO_OUTPUT", "json")  # the name on the command line beats the environment
    assert run_cli("explain", "--output-file", str(out)).exit_code == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert run_cli("explain", "-o", "plain", "--output-file", str(out)).exit_code == 0  # -o beats the name
    assert not out.read_text().startswith("<")
    other = tmp_path / "report.txt"
    monkeypatch.delenv("PRIO_OUTPUT")
    assert run_cli("preempt", "--output-file", str(other)).exit_code == 0
    assert not other.read_text().startswith("<")


@pytest.mark.parametrize("args, flag", [
    (["explain", "--why", "root"], "--why"),
    (["explain", "--why-ask", "app-1-1"], "--why-ask"),
    (["explain", "--pending"], "--pending"),
])
def test_single_answers_refuse_html(args, flag):
    r = run_cli(*args, "-o", "html")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"prio: {flag} answers in text or json; -o html draws the whole report (with --why for every queue)\n"


@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_armada_scenarios_refuse_html(command):
    r = run_cli(command, "--sample", "armada-scenario", "-o", "html")
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith("prio: -o html draws YuniKorn inputs")


def test_armada_keeps_its_formats():
    from prio.armada.render import FORMATS as ARMADA
    from prio.render.formats import FORMATS

    assert "html" not in ARMADA and all("html" in FORMATS[c] for c in ("explain", "simulate", "preempt", "diff"))


def test_the_context_carries_tree_why_and_answers(tmp_path):
    _, ctx = data_and_context(run_cli("simulate", "-o", "html").stdout)
    tree = {q["queue"]: q for q in ctx["tree"]["queues"]}
    assert tree["root.tenants.tenant-a"]["why"][-1].startswith("its parent root.tenants is fenced")
    assert tree["root.tenants.tenant-a"]["fenced"] and tree["root.tenants.tenant-a"]["depth"] == 2
    assert len(ctx["whyAsk"]) == 11
    assert ctx["whyAsk"]["app-5/app-5-1"] == run_cli("explain", "--why-ask", "app-5/app-5-1").stdout.rstrip("\n").split("\n")
    assert ctx["codes"]["QueueQuota"] == "Not enough queue quota"
    assert [i["name"] for i in ctx["inputs"]] == ["bundled sample walkthrough-queues.yaml", "bundled sample walkthrough-asks.yaml"]
    # a bundled sample's file time is when prio was installed, not when the data was: not said
    assert all(i.get("bundled") is True and "modified" not in i for i in ctx["inputs"])
    (tmp_path / "q.yaml").write_text(open(sample("walkthrough-queues.yaml"), encoding="utf-8").read())
    _, ctx = data_and_context(run_cli("simulate", str(tmp_path / "q.yaml"), sample("walkthrough-asks.yaml"), "-o", "html").stdout)
    assert [("bundled" in i, "modified" in i) for i in ctx["inputs"]] == [(False, True), (True, False)], ctx["inputs"]


def test_the_tree_has_resources_and_the_state_before_the_run():
    _, ctx = data_and_context(run_cli("simulate", "--sample", "batch", "-o", "html").stdout)
    web = next(q for q in ctx["tree"]["queues"] if q["queue"] == "root.prod.web")
    assert web["resources"]["vcore"] == {"usage": 2000, "usageShown": "2"}
    assert web["pendingAsks"] == 3  # before the run placed them
    prod = next(q for q in ctx["tree"]["queues"] if q["queue"] == "root.prod")
    assert prod["resources"]["memory"]["maxShown"] == "48Gi" and prod["resources"]["vcore"]["guaranteedShown"] == "8"


def test_notes_said_on_stderr_are_in_the_header():
    r = run_cli("simulate", "--steps", "3", "-o", "html")
    _, ctx = data_and_context(r.stdout)
    assert "note: Stopped after step 3 (--steps 3): 8 asks still pending." in ctx["notes"]
    assert "prio: note: Stopped after step 3" in r.stderr  # still said there too
    assert ctx["whyAsk"] == {}  # --why-ask answers of the whole run would not match the steps shown


def test_many_queues_leave_why_to_the_command(monkeypatch):
    from prio.yunikorn import records

    monkeypatch.setattr(records, "WHY_QUEUES", 3)
    _, ctx = data_and_context(run_cli("explain", "-o", "html").stdout)
    assert "why" not in ctx["tree"]["queues"][0] and "prio explain --why QUEUE" in ctx["tree"]["whyNote"]


def test_preempt_context_lists_checks_and_candidates():
    _, ctx = data_and_context(run_cli("preempt", "-o", "html").stdout)
    training = next(a for a in ctx["preempt"] if a["ask"] == "training-0")
    assert {"check": "ask preemptionPolicy", "passed": False, "detail": "preemptionPolicy Never"} in training["checks"]
    checkout = next(a for a in ctx["preempt"] if a["ask"] == "checkout-0")
    assert [c["verdict"] for c in checkout["candidates"]][:2] == ["victim #1", "victim #2"]


def test_diff_context_has_both_trees(tmp_path):
    _, ctx = data_and_context(run_cli("diff", sample("walkthrough-queues.yaml"), lowered(tmp_path), sample("walkthrough-asks.yaml"), "-o", "html").stdout)
    old = {q["queue"]: q["priority"] for q in ctx["trees"]["OLD"]["queues"]}
    new = {q["queue"]: q["priority"] for q in ctx["trees"]["NEW"]["queues"]}
    assert (old["root.tenants.tenant-a"], new["root.tenants.tenant-a"]) == (10, -10)
    assert ctx["old"] == "bundled sample walkthrough-queues.yaml"


def test_a_live_report_names_the_server_and_when_it_was_read(tmp_path):
    from conftest import shared
    from yunikorn_replay import Replay

    sc = shared("testdata", "yunikorn-rest-live", "walkthrough")
    new = tmp_path / "new.yaml"
    new.write_text(open(sample("walkthrough-queues.yaml")).read().replace('priority.offset: "10"', 'priority.offset: "-10"'))
    with Replay(sc) as srv:
        page = run_cli("simulate", "--yunikorn", srv.url, "-o", "html")
        doc = run_cli("simulate", "--yunikorn", srv.url, "-o", "json")
        diff = run_cli("diff", "live", str(new), "--yunikorn", srv.url, "-o", "html")
        assert {m for m, _, _ in srv.requests} == {"GET"}
    data, ctx = data_and_context(page.stdout)
    assert data == json.loads(doc.stdout) and ctx["live"] == srv.url and ctx["read"].endswith("Z") and ctx["inputs"] == []
    assert diff.exit_code == 0, diff.stderr
    _, dctx = data_and_context(diff.stdout)
    assert dctx["live"] == srv.url and sorted(dctx["trees"]) == ["NEW", "OLD"]


def test_a_url_is_shown_without_its_credentials():
    from prio.cli.htmlreport import _url

    assert _url("https://alice:secret@yk.example:9443/x") == "https://yk.example:9443/x"
    assert _url("http://localhost:9080") == "http://localhost:9080"


def test_diff_computes_the_trees_only_for_its_page(tmp_path, monkeypatch):
    """The sides' queue trees are taken for -o html alone: a json diff (after a page, in the same
    process) never draws one it does not show."""
    from prio.yunikorn import records

    args = CASES["diff"](tmp_path)
    page = run_cli(*args, "-o", "html")
    assert page.exit_code == 0 and sorted(data_and_context(page.stdout)[1]["trees"]) == ["NEW", "OLD"]

    def drawn(*a, **k):
        raise AssertionError("a queue tree drawn for a diff without its page")

    monkeypatch.setattr(records, "queue_tree", drawn)
    got = run_cli(*args, "-o", "json")
    assert got.exit_code == 0, got.stderr
    assert run_cli(*args, "-o", "html").exit_code != 0  # the patch does reach the sides


def test_the_policy_pins_the_pages_own_script_by_hash_not_unsafe_inline():
    """issue 43, item 7: a script element that reached the page any other way would not run."""
    import base64
    import hashlib
    import re

    page = run_cli("simulate", "--sample", "batch", "-o", "html").stdout
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    want = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == f"'sha256-{want}'", policy
    assert "unsafe-inline" not in directives["script-src"] and "unsafe-eval" not in policy
    assert page.count("<script>") == 1  # one script to run: the data elements are JSON
