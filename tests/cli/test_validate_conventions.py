"""validate's and the top level's conventions: shell completion, --version, --exit-zero, plain
usage errors, info counted as info, every error line starting with prio:, did-you-mean in
.prio.yaml, BOMs, help metavars. In-process (CliRunner) and, where the entry point matters,
through the real `python -m prio`. (PRIO_OUTPUT: test_prio_output.py; --statistics and the help:
lines: tests/render/.)"""
import base64
import gzip
import json
import os
import re
import subprocess
import sys

import pytest

from builders import QUEUE_A
from conftest import ROOT, run_cli, run_prio, sample

QUEUES = QUEUE_A
WARN = QUEUES + "            properties: {priority.policy: fenced}\n"


# --- shell completion ---------------------------------------------------------------------------

def test_completion_options_and_a_real_completion():
    assert "--install-completion" in run_cli("--help").stdout
    code = "import sys; sys.argv[0] = 'prio'; from prio.cli.app import main; main()"
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli"), "_PRIO_COMPLETE": "complete_bash",
           "COMP_WORDS": "prio validate --sta", "COMP_CWORD": "2"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.stdout.split() == ["--statistics"], r.stdout + r.stderr


def test_version_is_unchanged_and_needs_no_typer_command():
    r = run_prio("--version")
    assert r.returncode == 0 and r.stdout.startswith("prio ") and r.stderr == ""
    code = ("import sys; sys.argv = ['prio', '--version']\n"
            "import prio.cli.app as a\n"
            "a.main()\n"
            "assert not a.app.registered_commands, 'prio --version built the commands'\n")
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr


# --- --exit-zero ----------------------------------------------------------------------------------

def test_exit_zero(tmp_path):
    r = run_cli("validate", "--exit-zero", sample("mistakes.yaml"))
    assert r.exit_code == 0
    assert "error PRIO" in r.stdout and "10 errors, 5 warnings in 1 file" in r.stderr  # still reported
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [\n")
    assert run_cli("validate", "--exit-zero", str(bad)).exit_code == 2  # could not run is still 2
    assert run_prio("validate", "--exit-zero", "--strict", sample("mistakes.yaml")).returncode == 0


# --- polish ----------------------------------------------------------------------------------------

def test_usage_errors_are_plain_one_liners():
    r = run_prio("validate", "-o", "sarf", sample("walkthrough-queues.yaml"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("prio: -o, --output: 'sarf' is not one of text, json, sarif")
    assert "did you mean 'sarif'?" in r.stderr and "Value error" not in r.stderr
    r = run_prio("simulate", "--limit", "-1")
    assert r.returncode == 2 and r.stderr.startswith("prio: --limit: must be at least 0")
    assert "Input should" not in r.stderr


def test_plain_usage_error_rewrites():
    from prio.cli.usage import plain_usage_error

    assert plain_usage_error("Invalid value for '--limit': Input should be a valid integer, unable to parse string as an integer") \
        == "--limit: must be a whole number"
    assert plain_usage_error("No such option: --frob") == "No such option: --frob"


def test_info_is_counted_as_info(tmp_path):
    cm = tmp_path / "cm.yaml"
    cm.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n  log.level: '-1'\n")
    r = run_cli("validate", str(cm))
    assert r.stderr.strip() == "1 info in 1 file" and "note" not in r.stderr


def test_every_error_line_starts_with_prio(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [\n")
    for argv in (("validate", str(bad)), ("explain", str(bad)), ("simulate", str(bad)), ("rule", "NOPE")):
        r = run_prio(*argv)
        assert r.returncode == 2
        frame = re.compile(r"^ +(\d+ )?\| ")  # a syntax error's code frame: the line and a caret under the column
        assert all(ln.startswith("prio: ") or frame.match(ln) for ln in r.stderr.splitlines()
                   if "could not be checked" not in ln), r.stderr


def test_settings_unknown_key_did_you_mean(tmp_path):
    cfg = tmp_path / ".prio.yaml"
    cfg.write_text("ignores: [PRIO201]\nper-path-ignores:\n  - {paths: [a], reason: r}\n")
    r = run_cli("validate", "--config", str(cfg), sample("walkthrough-queues.yaml"))
    assert r.exit_code == 2 and "unknown key 'ignores'; did you mean 'ignore'?" in r.stderr
    cfg.write_text("per-path-ignores:\n  - {paths: [a], reasons: r}\n")
    r = run_cli("validate", "--config", str(cfg), sample("walkthrough-queues.yaml"))
    assert r.exit_code == 2 and "did you mean 'reason'?" in r.stderr


@pytest.mark.parametrize("encoding,bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                                          ("utf-32-le", b"\xff\xfe\x00\x00"), ("utf-32-be", b"\x00\x00\xfe\xff")])
def test_bom_files_are_read_as_their_encoding(tmp_path, encoding, bom):
    q = tmp_path / "queues.yaml"
    q.write_bytes(bom + WARN.encode(encoding))
    r = run_cli("validate", "-o", "json", str(q))
    assert r.exit_code == 0, r.stderr
    assert {f["rule"] for f in json.loads(r.stdout)["findings"]} == {"PRIO206"}
    cfg = tmp_path / ".prio.yaml"
    cfg.write_bytes(bom + "ignore: [PRIO206]\n".encode(encoding))
    r = run_cli("validate", "-o", "json", "--config", str(cfg), str(q))
    assert r.exit_code == 0 and json.loads(r.stdout)["findings"] == [], r.stderr
    payload = base64.b64encode(gzip.compress(bom + WARN.encode(encoding))).decode()
    cm = tmp_path / "cm.yaml"
    cm.write_text(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\nbinaryData:\n  queues.yaml.gz: {payload}\n")
    r = run_cli("validate", "-o", "json", str(cm))
    assert r.exit_code == 0, r.stderr
    assert "PRIO206" in {f["rule"] for f in json.loads(r.stdout)["findings"]}


def test_help_metavars():
    v = run_cli("validate", "--help").stdout
    assert "PATH..." in v and "<list[str]>" not in v and "{PATH}" not in v
    r = run_cli("rule", "--help").stdout
    assert "[ID]" in r and "[[ID]]" not in r and "<str>" not in r
