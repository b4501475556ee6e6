"""Every command x format on hostile names (issue 43, item 2): an application id, ask id, node
name, queue name, Kueue workload or Armada queue, and the input's file name carry a newline
followed by GitHub workflow commands (`::error::`, `::stop-commands::`), markdown and HTML that
would hide the rest of a PR comment (`<!--`, a pipe, a backtick, an image), and control
characters (ESC, BEL, NUL, CR). In no output, stdout or stderr, may such a name start a line,
open markup or carry a control character: each output kind has one escaping function in
prio.render.printable, which every renderer uses."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import run_cli, sample

# what a hostile tenant puts in a name
EVIL = "x\n::error::forged\n::stop-commands::hide\r<!-- `|![i](http://e/p.png)\x1b]0;t\x07\x00\x1b[2J"
FORGED = re.compile(r"(?m)^\s*::(error::forged|stop-commands::)")
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # \t and \n are the renderers' own


def _check(text: str, fmt: str, where: str):
    assert not FORGED.search(text), (where, text)
    assert not CONTROLS.search(text), (where, repr(text[:3000]))
    if fmt == "markdown":
        # inside a code span (its fence longer than any backtick run in it) HTML is text
        prose = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", text)
        assert "<!--" not in prose and "![i](" not in prose, (where, text)
    if fmt == "junit":
        ET.fromstring(text)  # well-formed XML 1.0 (no control character, even escaped)
    if fmt in ("json", "sarif", "gitlab") and text:
        json.loads(text)


def _run(args, fmt, where):
    r = run_cli(*args, "-o", fmt)
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    if fmt != "html":
        _check(r.stdout, fmt, where + " stdout")
    _check(r.stderr, "text", where + " stderr")
    return r


@pytest.fixture
def snapshot(tmp_path):
    doc = {
        "applications": [
            {"id": f"app{EVIL}", "queue": "root.tenants.tenant-a.child-a-1", "user": f"u{EVIL}",
             "asks": [{"id": f"ask{EVIL}", "priority": 5, "resources": {"vcore": 2}}]},
            {"id": f"run{EVIL}", "queue": "root.tenants.tenant-b",
             "allocations": [{"id": f"r{EVIL}", "priority": 0, "resources": {"vcore": 1}, "node": f"n{EVIL}"}]},
            {"id": f"big{EVIL}", "queue": "root.tenants.tenant-b", "asks": [{"id": f"huge{EVIL}", "priority": 1, "resources": {"vcore": 999}}]},
        ],
        "nodes": [{"name": f"n{EVIL}", "capacity": {"vcore": 4}}],
    }
    p = tmp_path / "snap\n::error::forged.json"
    p.write_text(json.dumps(doc))
    return str(p)


ANALYSIS = ("table", "plain", "markdown", "json", "html")


@pytest.mark.parametrize("fmt", ANALYSIS)
@pytest.mark.parametrize("command", ["explain", "simulate", "preempt"])
def test_analysis_commands(snapshot, command, fmt):
    _run([command, sample("walkthrough-queues.yaml"), snapshot], fmt, f"{command} -o {fmt}")


@pytest.mark.parametrize("fmt", ANALYSIS)
def test_diff(snapshot, fmt):
    _run(["diff", sample("walkthrough-queues.yaml"), sample("batch-queues.yaml"), snapshot], fmt, f"diff -o {fmt}")


@pytest.mark.parametrize("fmt", ["plain", "json"])
def test_explain_why_ask(snapshot, fmt):
    # the id holds a / (the image's URL): no such ask, and the message says so escaped
    r = _run(["explain", sample("walkthrough-queues.yaml"), snapshot, "--why-ask", f"app{EVIL}/ask{EVIL}"], fmt, "explain --why-ask")
    assert r.exit_code == 2 and "no pending ask" in r.stderr


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_snapshot(snapshot, tmp_path, fmt):
    out = tmp_path / "out.json"
    _run(["snapshot", sample("walkthrough-queues.yaml"), snapshot, "--output-file", str(out)], fmt, f"snapshot -o {fmt}")


@pytest.fixture
def bad_config(tmp_path):
    d = tmp_path / "cfg"
    d.mkdir()
    p = d / "q\n::error::forged <!--.yaml"
    p.write_text('partitions:\n  - name: default\n    queues:\n      - name: root\n        resources:\n'
                 '          max: {"bad\\e[2J\\n::error::forged\\a<!--": "x"}\n        queues:\n          - name: team.a\n')
    return str(p)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "gitlab", "junit", "markdown"])
def test_validate(bad_config, fmt):
    r = _run(["validate", bad_config], fmt, f"validate -o {fmt}")
    assert r.exit_code == 1, r.stderr


@pytest.mark.parametrize("fmt", ["text", "github", "junit", "markdown"])
def test_validate_an_unreadable_file(tmp_path, fmt):
    p = tmp_path / "broken\n::error::forged.yaml"
    p.write_text("partitions: [\n")
    r = _run(["validate", str(p)], fmt, f"validate unreadable -o {fmt}")
    assert r.exit_code == 2


def _kueue(tmp_path) -> str:
    with open(sample("kueue.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    hostile = json.dumps(f"a-1{EVIL}")  # a JSON string is a YAML double-quoted string
    text = text.replace("name: a-1,", f"name: {hostile},")
    p = tmp_path / "kueue\n::error::forged.yaml"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("fmt", ANALYSIS)
@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_kueue(tmp_path, command, fmt):
    _run([command, _kueue(tmp_path)], fmt, f"kueue {command} -o {fmt}")


def _armada(tmp_path, name: str) -> str:
    with open(sample(name), encoding="utf-8") as fh:
        text = fh.read()
    q = "ml-research" if "current" in name else "research"
    text = re.sub(rf"\b{q}\b", json.dumps(f"{q}{EVIL}").replace("\\", "\\\\"), text)
    p = tmp_path / f"armada\n::error::forged-{name}"
    p.write_text(text.replace("\\\\", "\\"))
    return str(p)


@pytest.mark.parametrize("fmt", ("table", "plain", "markdown", "json"))
@pytest.mark.parametrize("command", ["explain", "simulate"])
@pytest.mark.parametrize("name", ["armada-current.yaml", "armada-scenario.yaml"])
def test_armada(tmp_path, command, fmt, name):
    r = _run([command, _armada(tmp_path, name)], fmt, f"armada {name} {command} -o {fmt}")
    assert r.exit_code in (0, 1), r.stderr


def test_the_fixtures_reach_the_outputs(snapshot, tmp_path):
    """The names are in the outputs (escaped): the checks above are not vacuous."""
    r = run_cli("simulate", sample("walkthrough-queues.yaml"), snapshot, "-o", "plain")
    assert "app" in r.stdout and "\\x0a::error::forged" in r.stdout, r.stdout
    r = run_cli("explain", _kueue(tmp_path), "-o", "plain")
    assert "a-1x\\x0a::error::forged" in r.stdout, r.stdout
    r = run_cli("simulate", _armada(tmp_path, "armada-current.yaml"), "-o", "plain")
    assert "ml-researchx\\x0a::error::forged" in r.stdout, r.stdout



def test_a_usage_error_quoting_an_argument_is_one_escaped_line():
    r = run_cli("validate", "--select", "PRIO1\n::error::forged", "x.yaml")
    assert r.exit_code == 2
    _check(r.stderr, "text", "usage error")
    r = run_cli("simulate", "--steps", "x\n::error::forged", sample("walkthrough-queues.yaml"))
    assert r.exit_code == 2
    _check(r.stderr, "text", "usage error")
