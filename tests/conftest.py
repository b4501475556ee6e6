import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
TESTS = os.path.join(ROOT, "tests")
sys.path.insert(0, os.path.join(ROOT, "cli"))  # the source tree wins over an installed copy


@pytest.fixture(autouse=True)
def _stable_env(monkeypatch):
    # Output must not depend on the terminal the tests run in.
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("PRIO_OUTPUT", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


@pytest.fixture(autouse=True)
def _check_reference_caches(monkeypatch):
    # The reference engine compares every value it keeps between steps with the value worked
    # out from scratch, at each use (reference.CHECK_CACHES): in process, in every test.
    from prio.yunikorn import engine, reference

    monkeypatch.setattr(reference, "CHECK_CACHES", True)
    # Likewise the walk's inline headroom checks: each verdict against reference.headroom_misfit
    # and user_misfit (engine.CHECK_HEADROOM).
    monkeypatch.setattr(engine, "CHECK_HEADROOM", True)


def shared(*parts):
    """A file of ../shared (the reference test data); the test is skipped where it is absent."""
    path = os.path.join(SHARED, *parts)
    if not os.path.exists(path):
        pytest.skip(f"needs {path} (the project's shared test data beside the checkout)")
    return path


def sample(name):
    return os.path.join(ROOT, "samples", name)


def run_cli(*args, input=None, env=None):
    """Invoke the typer app in-process; returns the click Result (stdout/stderr apart). A
    YuniKorn `-o json` of explain, simulate, preempt or diff is checked against its schema
    (schemas/yunikorn-COMMAND.schema.json) on the way: every test's output keeps the contract."""
    from typer.testing import CliRunner

    from prio.cli.app import _register, app

    _register()
    r = CliRunner(env=env).invoke(app, list(args), input=input)
    if r.exit_code in (0, 1) and _json_output(args):
        check_yunikorn_json(str(args[0]), r.stdout)
    return r


SCHEMA_COMMANDS = ("explain", "simulate", "preempt", "diff")


def _json_output(args) -> bool:
    args = [str(a) for a in args]
    if not args or args[0] not in SCHEMA_COMMANDS or any(a == "--output-file" or a.startswith("--output-file=") for a in args):
        return False
    return any(a in ("-o", "--output") and b == "json" for a, b in zip(args, args[1:])) or "--output=json" in args


_VALIDATORS: dict = {}


def yunikorn_validator(command: str):
    """The Draft 2020-12 validator of schemas/yunikorn-COMMAND.schema.json (as prio ships it)."""
    if command not in _VALIDATORS:
        import json

        from jsonschema import Draft202012Validator

        from prio.io.package_data import schema_path

        with open(schema_path(f"yunikorn-{command}.schema.json"), encoding="utf-8") as fh:
            _VALIDATORS[command] = Draft202012Validator(json.load(fh))
    return _VALIDATORS[command]


def check_yunikorn_json(command: str, text: str) -> None:
    """An AssertionError when `text`, the -o json of a YuniKorn run of `command`, does not
    conform to its schema (Kueue's and Armada's have schemas of their own: they name their model,
    or are the shared contract's cycles, as Kueue's simulate)."""
    import json

    if not text.lstrip().startswith("{"):
        return
    doc = json.loads(text)
    if "model" in doc or "cyclesRun" in doc:
        return
    errors = sorted(yunikorn_validator(command).iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, f"prio {command} -o json breaks schemas/yunikorn-{command}.schema.json: " + "; ".join(
        f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:3])


def prio_env(**extra):
    """The environment of a real `python -m prio` process: this checkout's source, none of prio's
    own settings (PRIO_OUTPUT, PRIO_CONFIG, ...) from the caller's environment, then `extra`."""
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    for v in ("PRIO_OUTPUT", "PRIO_CONFIG", "PRIO_STRICT", "PRIO_OUTPUT_FILE", "GITHUB_ACTIONS"):
        env.pop(v, None)
    env.update(extra)
    return env


def run_prio(*args, env=None, cwd=None, input=None):
    """`python -m prio ARGS` in a real process, where the entry point, the exit code or the pipes
    matter; returns the CompletedProcess (text)."""
    p = subprocess.run([sys.executable, "-m", "prio", *args], capture_output=True, text=True,
                       env=prio_env(**(env or {})), cwd=cwd, input=input, timeout=120)
    if p.returncode in (0, 1) and _json_output(args):
        check_yunikorn_json(str(args[0]), p.stdout)
    return p


def peak_rss_mib(args, timeout=600) -> tuple:
    """Run `python -m prio ARGS`; (exit code, stderr, its peak resident memory in MiB). Started
    from a small intermediate process: a child forked from the big test process would count its
    pages (ru_maxrss survives exec)."""
    launcher = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
                "stderr=subprocess.PIPE); sys.stderr.write(p.stderr.decode()); "
                "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    p = subprocess.run([sys.executable, "-c", launcher, sys.executable, "-m", "prio", *args], capture_output=True, text=True,
                       env=prio_env(), timeout=timeout)
    code, kib = p.stdout.split()
    return int(code), p.stderr, int(kib) / 1024


def lint(text, name="q.yaml"):
    from prio.lint.runner import check_text

    return check_text(name, text).findings
