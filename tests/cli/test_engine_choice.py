"""PRIO_ENGINE: which engine schedules, for debugging and bug reports; a wrong value is bad usage."""
from conftest import run_cli


def test_every_engine_gives_the_walkthrough():
    outs = {e: run_cli("simulate", "-o", "json", env={"PRIO_ENGINE": e}) for e in ("auto", "fast", "reference", "")}
    assert all(r.exit_code == 0 for r in outs.values())
    assert len({r.stdout for r in outs.values()}) == 1
    assert '"ask": "app-1-1"' in outs["reference"].stdout


def test_an_unknown_engine_is_one_clear_line_and_exit_2():
    r = run_cli("simulate", env={"PRIO_ENGINE": "turbo"})
    assert r.exit_code == 2
    assert "PRIO_ENGINE" in r.stderr and "auto, fast, reference" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
