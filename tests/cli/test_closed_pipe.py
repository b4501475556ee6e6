"""prio writing into a closed pipe (`| head`, `| true`): it ends quietly, with the exit code
the command would have had, however short or long its output."""
import json
import os
import subprocess
import sys

import pytest

from conftest import prio_env, sample


def _into_closed_pipe(*args):
    r, w = os.pipe()
    os.close(r)  # the reader has gone (`| true`): the first write fails, however short the output
    try:
        p = subprocess.run([sys.executable, "-m", "prio", *args], stdout=w, stderr=subprocess.PIPE, text=True, env=prio_env())
    finally:
        os.close(w)
    return p


@pytest.mark.parametrize("args", [("--version",), ("-V",), ("rule",), ("rule", "PRIO201"), ("rule", "-o", "json"),
                                  ("--help",), ("simulate", "--help"), ("simulate", "-o", "json"), ("explain",)])
def test_closed_pipe_is_quiet_and_exit_0(args):
    p = _into_closed_pipe(*args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", p.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_validate_into_a_closed_pipe_keeps_its_verdict(fmt):
    # `prio validate -o github deploy/ | head` under pipefail must still fail on errors
    p = _into_closed_pipe("validate", "-o", fmt, sample("mistakes.yaml"))
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr and "10 errors" in p.stderr
    assert _into_closed_pipe("validate", "-o", fmt, sample("walkthrough-queues.yaml")).returncode == 0


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A snapshot whose every output is far larger than a pipe's buffer."""
    apps = [{"id": f"app-{i}", "queue": f"root.q{i % 5}", "asks": [{"priority": i % 7} for _ in range(5)]} for i in range(3000)]
    path = tmp_path_factory.mktemp("big") / "big.json"
    path.write_text(json.dumps({"applications": apps}))
    return str(path)


@pytest.mark.parametrize("args", [("simulate", "-o", "json"), ("explain", "-o", "json"), ("simulate", "-o", "plain"),
                                  ("explain", "-o", "markdown"), ("simulate", "-o", "table")])
def test_closed_pipe_ends_quietly_through_the_real_entry_point(big, args):
    p = subprocess.Popen([sys.executable, "-m", "prio", *args, big], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=prio_env())
    p.stdout.readline()
    p.stdout.close()  # like `| head -1`
    err = p.stderr.read().decode()
    assert p.wait() == 0, err
    assert err == ""


# Issue 29, item 1: the exit code never depends on who reads stdout or stderr. `2>&1 | true`
# closes both; `| head -3` closes them after a few lines; both paths (the fast parser and typer).

def _shell(cmd, **env):
    """`cmd` through bash with pipefail, as a CI step runs it; prio is `python -m prio`."""
    prio = f"{sys.executable} -m prio"
    p = subprocess.run(["bash", "-c", f"set -o pipefail; {cmd.replace('prio ', prio + ' ', 1)}; echo \"rc=${{PIPESTATUS[0]}}\""],
                       capture_output=True, text=True, env=prio_env(**env), timeout=120)
    return int(p.stdout.rsplit("rc=", 1)[1])


PATHS = [{}, {"PRIO_NO_FAST_PATH": "1"}]


@pytest.mark.parametrize("env", PATHS, ids=["fast-path", "typer"])
@pytest.mark.parametrize("reader", ["| true", "| head -3", "| head -1 >/dev/null"])
@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_validate_verdict_survives_any_reader(env, reader, fmt):
    mistakes = sample("mistakes.yaml")
    assert _shell(f"prio validate -o {fmt} {mistakes} 2>&1 {reader}", **env) == 1
    assert _shell(f"prio validate -o {fmt} {sample('walkthrough-queues.yaml')} 2>&1 {reader}", **env) == 0


@pytest.mark.parametrize("env", PATHS, ids=["fast-path", "typer"])
def test_unreadable_input_keeps_2_through_a_closed_pipe(env, tmp_path):
    assert _shell(f"prio validate {tmp_path / 'missing.yaml'} 2>&1 | true", **env) == 2
    assert _shell(f"prio validate {tmp_path / 'missing.yaml'} 2>/dev/null | true", **env) == 2


def test_only_stderr_closed_keeps_the_verdict():
    assert _shell(f"prio validate {sample('mistakes.yaml')} 2>&1 >/dev/null | true") == 1


def test_diff_fail_on_keeps_its_code_through_a_closed_pipe(tmp_path):
    from builders import walkthrough_queues_lowered

    new = tmp_path / "new.yaml"
    new.write_text(walkthrough_queues_lowered())
    args = f"prio diff {sample('walkthrough-queues.yaml')} {new} {sample('walkthrough-asks.yaml')} --fail-on order"
    assert _shell(f"{args} >/dev/null") == 1
    assert _shell(f"{args} 2>&1 | true") == 1
    assert _shell(f"{args} -o markdown 2>&1 | head -1") == 1
    assert _shell(f"prio simulate {tmp_path / 'missing.yaml'} 2>&1 | true") == 2
