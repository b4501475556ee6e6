"""explain and simulate keep their big objects for the process to end without freeing them
(prio.cli.lifetime): in a real prio process the output, the notes on stderr and the exit code
are as before; in-process (CliRunner, tests) nothing is kept."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli, run_prio
from prio.cli import lifetime


@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_a_real_process_ends_with_its_whole_output_and_exit_code(command):
    r = run_prio(command, "-o", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)  # complete: flushed before the process ended
    inprocess = run_cli(command, "-o", "json")
    assert json.loads(r.stdout) == json.loads(inprocess.stdout)


def test_a_refusal_after_the_inputs_were_kept_still_exits_2_with_its_message():
    r = run_prio("explain", "--queue", "root.nosuch")
    assert r.returncode == 2
    assert "no queue 'root.nosuch'" in r.stderr


def test_in_process_nothing_is_kept():
    before = len(lifetime.KEPT)
    assert run_cli("explain", "-o", "json").exit_code == 0
    assert run_cli("simulate", "-o", "json").exit_code == 0
    assert not lifetime.ACTIVE and len(lifetime.KEPT) == before == 0


def test_under_a_profiler_the_process_ends_as_usual_and_the_profile_is_written(tmp_path):
    out = tmp_path / "explain.prof"
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    r = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "prio", "explain", "-o", "json"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) and out.stat().st_size > 0


def test_a_profiler_or_tracer_keeps_the_usual_exit():
    assert lifetime.may_end_early() == (sys.getprofile() is None and sys.gettrace() is None)
    old = sys.getprofile()
    sys.setprofile(lambda *a: None)
    try:
        assert not lifetime.may_end_early()
    finally:
        sys.setprofile(old)


def test_the_collector_is_paused_for_a_command_and_back_after_it_in_process():
    import gc

    assert gc.isenabled()
    seen = []
    from prio.cli.common import guarded

    assert guarded(lambda: seen.append(gc.isenabled()) or 0) == 0
    assert seen == [False] and gc.isenabled()
    assert run_cli("simulate", "-o", "json").exit_code == 0
    assert gc.isenabled()


def test_in_the_process_own_run_the_collector_stays_off_until_the_end(monkeypatch):
    """Enabled again after a big run, its first pass would walk every object just before the
    process ends (0.7 s at a million asks)."""
    import gc

    from prio.cli.common import guarded

    monkeypatch.setattr(lifetime, "ACTIVE", True)
    try:
        assert guarded(lambda: 0) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_explain_keeps_the_parsed_snapshot_with_its_inputs_and_simulate_does_not(monkeypatch):
    """explain keeps the snapshot's parsed document too (freeing a million-ask one costs 0.2 s;
    nothing after loading would reuse its memory); simulate lets it go before its run, which
    reuses that memory for its steps."""
    import gc

    from prio.yunikorn.load.inputs import Inputs

    monkeypatch.setattr(lifetime, "ACTIVE", True)
    kept = len(lifetime.KEPT)
    try:
        assert run_cli("explain", "-o", "json").exit_code == 0
        inps = [x for x in lifetime.KEPT[kept:] if isinstance(x, Inputs)]
        assert len(inps) == 1 and len(inps[0].documents) == 1
        assert inps[0].documents[0].data["applications"]
        del lifetime.KEPT[kept:]
        assert run_cli("simulate", "-o", "json").exit_code == 0
        inps = [x for x in lifetime.KEPT[kept:] if isinstance(x, Inputs)]
        assert len(inps) == 1 and inps[0].documents == []
    finally:
        del lifetime.KEPT[kept:]
        gc.enable()  # guarded() leaves the collector off in the process's own run
