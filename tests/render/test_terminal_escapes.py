"""Text from inputs and servers reaches a terminal as text: a tenant's application id, ask id, node
name or queue-config key cannot carry an escape sequence to the operator's terminal, in any human
format (table with and without colour, plain, markdown, validate's text, markdown, github and junit)
nor in a message on stderr. JSON keeps the real ids (its encoder escapes them)."""
from __future__ import annotations

import json
import re

import pytest

from conftest import run_cli, sample
from prio.render.printable import printable

# Clear the screen, retitle the window (OSC ... BEL), conceal text, C1 CSI, a bidi override.
CLEAR, TITLE, CONCEAL, CSI8, RLO = "\x1b[2J", "\x1b]0;pwned\x07", "\x1b[8m", "\x9b31m", "\u202e"
# rich's own colour sequences are the only escape sequences a coloured table may hold
RICH_SGR = re.compile(r"\x1b\[[0-9;]*m")


def hostile(tmp_path):
    doc = {
        "applications": [
            {"id": f"evil{CLEAR}{TITLE}app", "queue": "root.tenants.tenant-a.child-a-1",
             "asks": [{"id": f"a{CONCEAL}sk{CSI8}", "priority": 5, "resources": {"vcore": 2}}]},
            {"id": f"run{RLO}ning", "queue": "root.tenants.tenant-b",
             "allocations": [{"id": f"r{CONCEAL}1", "priority": 0, "resources": {"vcore": 1}, "node": f"n\r{CONCEAL}1"}]},
        ],
        "nodes": [{"name": f"n\r{CONCEAL}1", "capacity": {"vcore": 2}}],
    }
    p = tmp_path / "evil.json"
    p.write_text(json.dumps(doc))
    return str(p)


def assert_no_hostile(text: str, colour: bool = False):
    rest = RICH_SGR.sub("", text) if colour else text
    assert "\x1b" not in rest and "\x9b" not in rest and "\x07" not in rest and "\r" not in rest and RLO not in rest, repr(text)
    assert CONCEAL not in text


def test_printable_escapes_controls_and_keeps_ordinary_text():
    assert printable("tenant-a.child_1 ünï") == "tenant-a.child_1 ünï"
    assert printable(f"x{CLEAR}y") == "x\\x1b[2Jy"
    assert printable("a\x9bb\u202ec\x7f") == "a\\x9bb\\u202ec\\x7f"
    assert printable("a\nb\tc") == "a\\x0ab\\x09c"
    assert printable("a\nb\tc\rd", lines=True) == "a\nb\tc\\x0dd"


@pytest.mark.parametrize("command", ["explain", "simulate", "preempt"])
@pytest.mark.parametrize("fmt,colour", [("table", "never"), ("table", "always"), ("plain", "always"), ("markdown", "never")])
def test_analysis_outputs_escape_input_ids(tmp_path, command, fmt, colour):
    r = run_cli(command, sample("walkthrough-queues.yaml"), hostile(tmp_path), "-o", fmt, "--color", colour)
    assert r.exit_code == 0, r.stderr
    assert_no_hostile(r.stdout, colour=fmt == "table" and colour == "always")
    assert_no_hostile(r.stderr)
    assert "\\x1b" in r.stdout  # shown, as text


def test_json_keeps_the_real_ids(tmp_path):
    r = run_cli("simulate", sample("walkthrough-queues.yaml"), hostile(tmp_path), "-o", "json")
    assert f"evil{CLEAR}{TITLE}app" in [s["application"] for s in json.loads(r.stdout)["steps"]]


@pytest.mark.parametrize("fmt", ["table", "plain", "markdown"])
def test_diff_escapes_input_ids(tmp_path, fmt):
    r = run_cli("diff", sample("walkthrough-queues.yaml"), sample("batch-queues.yaml"), hostile(tmp_path), "-o", fmt)
    assert r.exit_code in (0, 1), r.stderr
    assert_no_hostile(r.stdout)
    assert_no_hostile(r.stderr)


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "junit"])
def test_validate_escapes_resource_names_of_the_config(tmp_path, fmt):
    p = tmp_path / "q.yaml"
    p.write_text('partitions:\n  - name: default\n    queues:\n      - name: root\n        resources:\n'
                 '          max: {"bad\\e[2Jvcore\\a": "x"}\n')
    r = run_cli("validate", str(p), "-o", fmt, "--color", "always")
    assert r.exit_code == 1, r.stdout + r.stderr
    assert "bad" in r.stdout
    assert_no_hostile(r.stdout, colour=fmt == "text")


def test_a_servers_error_text_reaches_stderr_as_text():
    from conftest import shared
    from yunikorn_replay import Replay

    live = shared("testdata", "yunikorn-rest-live", "walkthrough")
    fault = ("status", 500, f"boom{CLEAR}{TITLE}{CONCEAL}")
    with Replay(live, faults={"/ws/v1/partition/default/queues": fault}) as srv:
        r = run_cli("explain", "--yunikorn", srv.url)
    assert r.exit_code == 2
    assert "server said: boom\\x1b[2J" in r.stderr
    assert_no_hostile(r.stderr)
