"""The output options every analysis command shares: -o text is plain, --output-file,
PRIO_COLOR, PRIO_OUTPUT (a typo is an error, another command's format is ignored)."""
import json
import os

from builders import walkthrough_queues_lowered
from conftest import run_cli, run_prio, sample


def test_text_is_plain_for_the_analysis_commands(tmp_path):
    for cmd in ("explain", "simulate", "preempt"):
        text = run_cli(cmd, "-o", "text")
        assert text.exit_code == 0, text.stderr
        assert text.stdout == run_cli(cmd, "-o", "plain").stdout
    q = tmp_path / "q.yaml"
    q.write_text(walkthrough_queues_lowered())
    args = ("diff", sample("walkthrough-queues.yaml"), str(q), sample("walkthrough-asks.yaml"))
    assert run_cli(*args, "-o", "text").stdout == run_cli(*args, "-o", "plain").stdout
    from prio.render.formats import names

    assert "text" in names("explain") and "text: the same as plain" in run_prio("simulate", "--help").stdout.replace("\n", " ").replace("  ", " ")


def test_output_file_on_every_analysis_command(tmp_path):
    for cmd in ("explain", "simulate", "preempt"):
        out = tmp_path / f"{cmd}.txt"
        r = run_cli(cmd, "--output-file", str(out), "--color", "always")
        assert r.exit_code == 0 and r.stdout == "", r.stderr
        assert out.read_text() == run_cli(cmd, "-o", "plain").stdout  # plain, never coloured, in a file
        mask = os.umask(0)
        os.umask(mask)
        assert os.stat(out).st_mode & 0o777 == 0o666 & ~mask
        out = tmp_path / f"{cmd}.json"
        assert run_cli(cmd, "-o", "json", "--output-file", str(out)).exit_code == 0
        assert json.loads(out.read_text()) == json.loads(run_cli(cmd, "-o", "json").stdout)
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


def test_diff_has_the_same_output_options(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(walkthrough_queues_lowered())
    args = ("diff", sample("walkthrough-queues.yaml"), str(q), sample("walkthrough-asks.yaml"))
    assert "\x1b[" in run_cli(*args, "-o", "table", env={"PRIO_COLOR": "always"}).stdout
    out = tmp_path / "diff.txt"
    r = run_cli(*args, "--output-file", str(out))
    assert r.exit_code == 0 and r.stdout == "" and out.read_text() == run_cli(*args, "-o", "plain").stdout
    r = run_cli(*args, env={"PRIO_OUTPUT": "bogus"})
    assert r.exit_code == 2 and r.stderr.startswith("prio: PRIO_OUTPUT:")
