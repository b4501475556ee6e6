"""The pure core type-checks: mypy finds no error in the files pyproject.toml's [tool.mypy] lists
(its settings are that table's, so `mypy` at the checkout's root says the same)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (the test extra installs it: pip install '.[test]')")
def test_mypy_finds_no_error_in_the_core():
    r = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, ("mypy reports errors in the type-checked core: fix the types (an annotation, "
                               "X | None where it can be None), never a bare `# type: ignore`\n" + r.stdout + r.stderr)
    assert "Success: no issues found" in r.stdout, r.stdout + r.stderr
