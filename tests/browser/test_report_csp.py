"""The report's Content-Security-Policy in Chromium (issue 43, item 7): no script and no style but
the page's own, each pinned by its SHA-256 (style-src without 'unsafe-inline'). Every sample's
report of every command that draws one opens without a single `securitypolicyviolation`, and a
style attribute or style element that reached the markup some other way is refused (the
listener sees it: the check can fail)."""
from __future__ import annotations

import json
import re

import pytest

from chromium import Page
from conftest import run_cli, sample

# a listener installed before the page's own script (CSP does not govern DevTools' init script)
LISTEN = ("window.__csp = [];"
          "document.addEventListener('securitypolicyviolation', function (e) {"
          " window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || '')); });")

PAGES = [(s, c) for s in ("walkthrough", "batch", "cluster", "gang", "preemption", "quota", "mistakes", "yunikorn-configs")
         for c in ("explain", "simulate", "preempt")] + [("kueue", "explain"), ("kueue", "simulate")]


def violations(path) -> list:
    with Page(str(path), init=LISTEN, size=(1400, 900)) as p:
        p.js("new Promise(function (r) { setTimeout(r, 300); })")
        assert p.js("document.body.getAttribute('data-errors')") == "0", p.js("document.getElementById('prio-errors').textContent")
        assert p.js("Array.isArray(window.__csp)"), "the listener was not installed"
        return p.js("window.__csp")


def page_of(tmp_path, name, *args):
    out = tmp_path / f"{name}.html"
    r = run_cli(*args, "-o", "html", "--output-file", str(out))
    if r.exit_code == 2:
        return None
    assert r.exit_code in (0, 1), r.stderr
    return out


def test_the_policy_has_no_unsafe_inline_anywhere(tmp_path):
    out = page_of(tmp_path, "w", "simulate")
    text = out.read_text()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text).group(1)
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert re.fullmatch(r"'sha256-[A-Za-z0-9+/=]{44}'", directives["style-src"]), policy
    assert "unsafe" not in policy
    assert " style=" not in text.split('<script type="application/json"')[0]  # no style attribute in the markup


@pytest.mark.parametrize("name,command", PAGES, ids=[f"{s}-{c}" for s, c in PAGES])
def test_every_samples_report_opens_without_a_csp_violation(tmp_path, name, command):
    out = page_of(tmp_path, f"{name}-{command}", command, "--sample", name)
    if out is None:
        pytest.skip(f"prio {command} does not take the {name} sample")
    assert violations(out) == []


def test_the_quota_diff_and_a_gang_timeout_open_without_a_csp_violation(tmp_path):
    old = tmp_path / "quota-old-queues.yaml"
    old.write_text(open(sample("quota-queues.yaml"), encoding="utf-8").read().replace("max: {vcore: 8} ", "max: {vcore: 16} "))
    out = page_of(tmp_path, "diff", "diff", str(old), sample("quota-queues.yaml"), sample("quota-asks.yaml"))
    assert violations(out) == []
    asks = tmp_path / "gang-30m.yaml"
    asks.write_text("horizon: 30m\n" + open(sample("gang-asks.yaml"), encoding="utf-8").read())
    out = page_of(tmp_path, "gang", "simulate", sample("gang-queues.yaml"), str(asks))
    assert violations(out) == []


def test_a_style_that_reached_the_markup_another_way_is_refused_and_seen(tmp_path):
    out = page_of(tmp_path, "w", "preempt")
    text = out.read_text()
    text = text.replace('<div id="app"', '<div id="planted" style="color: red">x</div><style>body { color: red }</style><div id="app"', 1)
    out.write_text(text)
    seen = violations(out)
    assert len(seen) == 2 and all(v.startswith("style-src") for v in seen), seen
    with Page(str(out), size=(1400, 900)) as p:  # refused, not merely reported
        assert p.js("getComputedStyle(document.getElementById('planted')).color") != "rgb(255, 0, 0)"
        assert json.loads(p.js("JSON.stringify(getComputedStyle(document.body).color)")) != "rgb(255, 0, 0)"
