"""PRIO_OUTPUT, one behaviour for every command: a format of the command is its default and -o
wins, another command's format is ignored, an unknown one is a one-line error with a did-you-mean,
--help says so."""
import json

import pytest

from conftest import run_cli, sample

COMMANDS = [("validate", sample("walkthrough-queues.yaml")), ("rule",), ("simulate",), ("explain",),
            ("preempt",), ("snapshot", sample("walkthrough-queues.yaml"), "--output-file", "-")]


@pytest.mark.parametrize("argv", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_unknown_prio_output_is_the_same_one_line_error_everywhere(argv):
    r = run_cli(*argv, env={"PRIO_OUTPUT": "bogus"})
    assert r.exit_code == 2
    assert r.stderr.startswith("prio: PRIO_OUTPUT: unknown output format 'bogus' (prio's formats: ")
    assert r.stderr.count("\n") == 1


def test_prio_output_typo_gets_a_did_you_mean():
    r = run_cli("simulate", env={"PRIO_OUTPUT": "jsno"})
    assert r.exit_code == 2 and "did you mean 'json'?" in r.stderr


@pytest.mark.parametrize("argv,value", [(("simulate",), "sarif"), (("explain",), "text"), (("rule",), "table"),
                                        (("validate", sample("mistakes.yaml")), "plain")])
def test_another_commands_format_is_ignored(argv, value):
    r = run_cli(*argv, env={"PRIO_OUTPUT": value})
    assert r.exit_code in (0, 1), r.stderr
    assert r.stdout and not r.stdout.lstrip().startswith(("{", "["))


@pytest.mark.parametrize("argv", [("validate", sample("walkthrough-queues.yaml")), ("rule",), ("simulate",)])
def test_a_format_of_the_command_is_its_default_and_o_wins(argv):
    assert json.loads(run_cli(*argv, env={"PRIO_OUTPUT": "JSON"}).stdout) is not None
    r = run_cli(*argv, "-o", "markdown", env={"PRIO_OUTPUT": "json"})
    assert not r.stdout.lstrip().startswith(("{", "["))


@pytest.mark.parametrize("cmd", ["validate", "rule"])
def test_help_documents_prio_output(cmd):
    text = " ".join(run_cli(cmd, "--help").stdout.split())
    assert "PRIO_OUTPUT sets the default when it names one of these; a format of other prio commands only is ignored" in text
