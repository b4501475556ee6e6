"""--engine / PRIO_ENGINE: which engine schedules, for debugging and bug reports; a wrong value
is bad usage."""
from conftest import run_cli


def test_every_engine_gives_the_walkthrough():
    outs = {e: run_cli("simulate", "-o", "json", env={"PRIO_ENGINE": e}) for e in ("auto", "fast", "reference")}
    outs["option"] = run_cli("simulate", "-o", "json", "--engine", "reference")
    assert all(r.exit_code == 0 for r in outs.values())
    assert len({r.stdout for r in outs.values()}) == 1
    assert '"ask": "app-1-1"' in outs["reference"].stdout


def test_the_engine_reaches_the_run(monkeypatch):
    from prio.yunikorn import reference

    took = []
    real = reference.ReferenceRun.run
    monkeypatch.setattr(reference.ReferenceRun, "run", lambda self, *a: took.append(1) or real(self, *a))
    assert run_cli("simulate", "--engine", "fast").exit_code == 0 and not took
    assert run_cli("simulate", "--engine", "reference").exit_code == 0 and took


def test_an_unknown_engine_is_bad_usage():
    r = run_cli("simulate", env={"PRIO_ENGINE": "turbo"})
    assert r.exit_code == 2
    assert "PRIO_ENGINE" in r.stderr and "'turbo'" in r.stderr and "Traceback" not in r.stderr
