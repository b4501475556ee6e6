"""The HTML report with keys and the mouse, in headless Chromium driven over its DevTools pipe
(tests/chromium.py Page): the tree, the tabs and the timeline answer the keyboard; hovering a mark
shows its step, the wheel zooms, a click asks why."""
from __future__ import annotations

import pytest

from chromium import Page
from conftest import run_cli


@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory):
    out = tmp_path_factory.mktemp("keys") / "walkthrough.html"
    assert run_cli("simulate", "--output-file", str(out)).exit_code == 0
    return str(out)


def active(p, attr="data-queue"):
    return p.js(f"document.activeElement.getAttribute('{attr}')")


def test_the_tree_answers_the_arrow_keys(walkthrough):
    with Page(walkthrough) as p:
        p.js("document.querySelector('[role=treeitem]').focus()")
        p.key("ArrowDown")
        assert active(p) == "root.system"
        p.key("ArrowLeft")  # closes root.system
        assert p.js("document.activeElement.getAttribute('aria-expanded')") == "false"
        p.key("ArrowDown")
        assert active(p) == "root.tenants"  # system's children are hidden now
        p.key("ArrowUp")
        p.key("ArrowRight")  # opens it again
        p.key("ArrowRight")  # and goes to its first child
        assert active(p) == "root.system.system-normal"
        p.key("Enter")  # its --why lines
        assert "system-normal is a leaf" in p.js("document.activeElement.querySelector('.whytext').textContent")
        p.key("ArrowLeft")  # a leaf: back to its parent
        assert active(p) == "root.system"
        p.key("End")
        assert active(p) == "root.tenants.tenant-b.child-b-2"
        assert p.js("document.body.getAttribute('data-errors')") == "0"


def test_slash_searches_and_t_changes_the_theme(walkthrough):
    with Page(walkthrough) as p:
        p.js("document.body.focus()")
        p.key("/")
        assert p.js("document.activeElement.id") == "tree-search"
        for c in "low":
            p.key(c)
        p.js("new Promise(function (r) { setTimeout(r, 400); })")
        p.call("Runtime.evaluate", expression="new Promise(function (r) { setTimeout(r, 400); })", awaitPromise=True)
        assert p.js("Array.from(document.querySelectorAll('.ti.match')).map(function (e) { return e.dataset.queue; })") == [
            "root.system.system-low"]
        p.js("document.activeElement.blur()")
        p.key("t")
        assert p.js("document.documentElement.getAttribute('data-theme')") == "light"
        p.key("t")
        assert p.js("document.documentElement.getAttribute('data-theme')") == "dark"


def test_tabs_follow_the_arrow_keys(walkthrough):
    with Page(walkthrough) as p:
        p.js("document.getElementById('tab-timeline').focus()")
        p.key("ArrowRight")
        assert p.js("document.activeElement.id") == "tab-steps"
        assert p.js("document.getElementById('panel-steps').hidden") is False
        assert p.js("document.getElementById('panel-timeline').hidden") is True
        p.key("End")
        assert p.js("document.activeElement.id") == "tab-perqueue"


def test_the_timeline_answers_keys_hover_wheel_and_click(walkthrough):
    with Page(walkthrough) as p:
        p.js("document.getElementById('timeline-canvas').focus()")
        p.key("End")
        assert "Why is app-3-1 at step 11?" in p.js("document.getElementById('whyask').textContent")
        p.key("ArrowLeft")
        assert "Why is app-6-2 at step 10?" in p.js("document.getElementById('whyask').textContent")
        # hover over step 1's mark: lane 1 (system-high), x at the middle of the first step
        box = p.js("(function () { var r = document.getElementById('timeline-canvas').getBoundingClientRect(); return [r.left, r.top, r.width]; })()")
        left, top, width = box
        plot = width - 200 - 8
        x, y = left + 200 + plot * 0.5 / 11, top + 22 + 28 * 1.5
        p.mouse("mouseMoved", x, y)
        tip = p.js("document.querySelector('.tip').hidden ? '' : document.querySelector('.tip').textContent")
        assert tip.startswith("step 1\nroot.system.system-high\napp-1 / app-1-1")
        p.mouse("mousePressed", x, y, button="left", clickCount=1)
        p.mouse("mouseReleased", x, y, button="left", clickCount=1)
        assert "Why is app-1-1 at step 1?" in p.js("document.getElementById('whyask').textContent")
        before = p.js("document.querySelector('#timeline .count').textContent")
        assert before.startswith("steps 1\u201311 of 11")
        p.mouse("mouseWheel", x, y, deltaX=0, deltaY=-300)
        p.mouse("mouseWheel", x, y, deltaX=0, deltaY=-300)
        after = p.js("document.querySelector('#timeline .count').textContent")
        assert after != before and after.endswith("of 11")  # zoomed in: fewer steps in view
        p.key("0")
        assert p.js("document.querySelector('#timeline .count').textContent") == before
        assert p.js("document.body.getAttribute('data-errors')") == "0"
