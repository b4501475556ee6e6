import os
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


def shared(*parts):
    """A file of ../shared (the reference test data); the test is skipped where it is absent."""
    path = os.path.join(SHARED, *parts)
    if not os.path.exists(path):
        pytest.skip(f"needs {path} (the project's shared test data beside the checkout)")
    return path


def sample(name):
    return os.path.join(ROOT, "samples", name)


def run_cli(*args, input=None, env=None):
    """Invoke the typer app in-process; returns the click Result (stdout/stderr apart)."""
    from typer.testing import CliRunner

    from prio.cli.app import _register, app

    _register()
    return CliRunner(env=env).invoke(app, list(args), input=input)


def lint(text, name="q.yaml"):
    from prio.lint.runner import check_text

    return check_text(name, text).findings
