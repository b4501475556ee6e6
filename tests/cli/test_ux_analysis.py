"""Issue 14, the analysis half: what a new user trips over in explain, simulate, preempt, diff and
snapshot (closed pipes, one format vocabulary, help and error wording, names that almost match,
empty results, wrong inputs, structured --why-ask)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli, sample, shared

ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
ENV.pop("PRIO_OUTPUT", None)
COMMANDS = ("explain", "simulate", "preempt", "diff", "snapshot", "rule")


def prio(*args, env=None):
    return subprocess.run([sys.executable, "-m", "prio", *args], capture_output=True, text=True, env={**ENV, **(env or {})})


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A snapshot whose every output is far larger than a pipe's buffer."""
    apps = [{"id": f"app-{i}", "queue": f"root.q{i % 5}", "asks": [{"priority": i % 7} for _ in range(5)]} for i in range(3000)]
    path = tmp_path_factory.mktemp("big") / "big.json"
    path.write_text(json.dumps({"applications": apps}))
    return str(path)


# ---- a closed pipe -------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("simulate", "-o", "json"), ("explain", "-o", "json"), ("simulate", "-o", "plain"),
                                  ("explain", "-o", "markdown"), ("simulate", "-o", "table")])
def test_closed_pipe_ends_quietly_through_the_real_entry_point(big, args):
    p = subprocess.Popen([sys.executable, "-m", "prio", *args, big], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    p.stdout.readline()
    p.stdout.close()  # like `| head -1`
    err = p.stderr.read().decode()
    assert p.wait() == 0, err
    assert err == ""


# ---- errors: prio: first, never a path inside the package ----------------------------------------

def test_errors_start_with_prio_and_name_a_sample_not_its_path():
    from prio.io.package_data import samples_dir

    r = prio("explain", "--sample", "batch", "--partition", "nosuch")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith("prio: bundled sample batch-queues.yaml: no partition 'nosuch'"), r.stderr
    assert samples_dir() not in r.stderr
    r = prio("simulate", "nosuch.yaml")
    assert r.returncode == 2 and r.stderr.startswith("prio: nosuch.yaml"), r.stderr


def test_usage_errors_are_plain_one_liners():
    for args, words in ((["simulate", "--limit", "-1"], "--limit: must be 0 or more"),
                        (["explain", "--limit", "x"], "--limit: must be a whole number"),
                        (["explain", "--color", "bogus"], "--color (or PRIO_COLOR): 'bogus' is not one of"),
                        (["simulate", "--timeout", "0"], "--timeout: must be 0.001 or more")):
        r = prio(*args)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert r.stderr.startswith("prio: ") and words in r.stderr, r.stderr
        assert "Input should" not in r.stderr and "Value error" not in r.stderr


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_shows_plain_metavars(cmd):
    r = prio(cmd, "--help")
    assert r.returncode == 0
    for bad in ("<list[str]>", "<str>", "{", "[[", "]]"):
        assert bad not in r.stdout, (bad, r.stdout)


def test_diff_usage_line_names_its_arguments():
    assert "diff [OPTIONS] OLD NEW [INPUT]..." in prio("diff", "--help").stdout
    assert "rule [OPTIONS] [ID]\n" in prio("rule", "--help").stdout


# ---- one format vocabulary -----------------------------------------------------------------------

def test_text_is_plain_for_the_analysis_commands(tmp_path):
    for cmd in ("explain", "simulate", "preempt"):
        text = run_cli(cmd, "-o", "text")
        assert text.exit_code == 0, text.stderr
        assert text.stdout == run_cli(cmd, "-o", "plain").stdout
    q = tmp_path / "q.yaml"
    q.write_text(open(sample("walkthrough-queues.yaml")).read().replace("priority.offset: \"10\"", "priority.offset: \"-10\""))
    args = ("diff", sample("walkthrough-queues.yaml"), str(q), sample("walkthrough-asks.yaml"))
    assert run_cli(*args, "-o", "text").stdout == run_cli(*args, "-o", "plain").stdout
    from prio.render.formats import names

    assert "text" in names("explain") and "text: the same as plain" in prio("simulate", "--help").stdout.replace("\n", " ").replace("  ", " ")


def test_output_file_on_every_analysis_command(tmp_path):
    for cmd in ("explain", "simulate", "preempt"):
        out = tmp_path / f"{cmd}.txt"
        r = run_cli(cmd, "--output-file", str(out), "--color", "always")
        assert r.exit_code == 0 and r.stdout == "", r.stderr
        assert out.read_text() == run_cli(cmd, "-o", "plain").stdout  # plain, never coloured, in a file
        out = tmp_path / f"{cmd}.json"
        assert run_cli(cmd, "-o", "json", "--output-file", str(out)).exit_code == 0
        json.loads(out.read_text())
    # a failed run leaves no file behind
    out = tmp_path / "failed.txt"
    assert run_cli("explain", "nosuch.yaml", "--output-file", str(out)).exit_code == 2
    assert not out.exists() and os.listdir(tmp_path) == [f for f in os.listdir(tmp_path) if not f.startswith(".prio-")]
    r = run_cli("simulate", "--output-file", str(tmp_path / "nodir" / "x.txt"))
    assert r.exit_code == 2 and r.stderr.startswith("prio: ") and len(r.stderr.splitlines()) == 1


def test_prio_color_on_the_analysis_commands():
    for cmd in ("explain", "simulate", "preempt"):
        assert "\x1b[" in run_cli(cmd, "-o", "table", env={"PRIO_COLOR": "always"}).stdout
        assert "\x1b[" not in run_cli(cmd, "-o", "table", env={"PRIO_COLOR": "never"}).stdout


def test_prio_output_typo_is_an_error_another_commands_format_is_not():
    for cmd in ("explain", "simulate", "preempt"):
        r = run_cli(cmd, env={"PRIO_OUTPUT": "bogus"})
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert r.stderr.startswith("prio: PRIO_OUTPUT: unknown output format 'bogus'")
        assert run_cli(cmd, env={"PRIO_OUTPUT": "sarif"}).exit_code == 0  # validate's: not ours, ignored
        assert run_cli(cmd, "-o", "json", env={"PRIO_OUTPUT": "bogus"}).exit_code == 0  # -o wins
    assert run_cli("simulate", env={"PRIO_OUTPUT": "text"}).stdout == run_cli("simulate", "-o", "plain").stdout
    assert json.loads(run_cli("simulate", env={"PRIO_OUTPUT": "JSON"}).stdout)["steps"]
