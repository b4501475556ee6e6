"""The project lints itself: ruff with pyproject.toml's [tool.ruff] finds nothing in cli/, tests/
and benchmarks/ (so `ruff check` at the checkout's root says the same), and the contributors'
.pre-commit-config.yaml runs the checks the suite runs (ruff, mypy, import-linter) with the
tools the test extra installs."""
import os
import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT


def test_ruff_finds_nothing():
    pytest.importorskip("ruff", reason="ruff is in the test extra: pip install -e '.[test]'")
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "cli", "tests", "benchmarks"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, f"ruff (pyproject.toml [tool.ruff]) reports:\n{r.stdout}\n{r.stderr}"


def test_ruff_would_report_what_it_is_configured_for(tmp_path):
    """The configuration is read: an unused import in a file under cli/ is a finding."""
    pytest.importorskip("ruff", reason="ruff is in the test extra")
    bad = tmp_path / "cli" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("import os\n")
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), tmp_path / "pyproject.toml")
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "cli"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and "F401" in r.stdout, r.stdout + r.stderr


def test_the_contributors_pre_commit_config_runs_the_suites_checks():
    with open(os.path.join(ROOT, ".pre-commit-config.yaml"), encoding="utf-8") as fh:
        conf = yaml.safe_load(fh)
    hooks = {h["id"]: h for repo in conf["repos"] for h in repo["hooks"]}
    assert {r["repo"] for r in conf["repos"]} == {"local"}  # nothing fetched: the test extra's tools
    assert hooks["ruff"]["entry"].startswith("ruff check")
    assert hooks["mypy"]["entry"] == "mypy" and hooks["mypy"]["pass_filenames"] is False  # pyproject's files list
    assert hooks["import-linter"]["entry"] == "lint-imports"
    assert all(h["language"] == "system" for h in hooks.values())
