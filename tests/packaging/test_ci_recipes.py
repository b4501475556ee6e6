"""The CI recipes paste and run (issues 29, 44): docs/ci.md's pre-commit config takes the hooks of
prio's repository itself (`repo:` and `rev:`, no package index: prio-scheduling is not published)
and says to run `pre-commit install`; the hooks it names are the shipped ones; pre-commit runs
that config with the checkout as `repo:` (slow; pre-commit is in the test extra); the package
names its URLs."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT
from prio import __version__


def _ci_md() -> str:
    with open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8") as fh:
        return fh.read()


def _shipped() -> dict:
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        return {h["id"]: h for h in yaml.safe_load(fh)}


def _recipe() -> dict:
    """The repository entry of docs/ci.md's `.pre-commit-config.yaml`."""
    for block in re.findall(r"```yaml\n(.*?)```", _ci_md(), re.S):
        data = yaml.safe_load(block)
        if isinstance(data, dict) and data.get("repos"):
            return data["repos"][0]
    raise AssertionError("docs/ci.md shows no pre-commit config")


def test_the_pre_commit_recipe_takes_the_hooks_of_the_repository():
    r = _recipe()
    assert r["repo"] != "local" and r["rev"] == f"v{__version__}"  # this version's release tag (or a commit)
    assert [h["id"] for h in r["hooks"]] == list(_shipped())
    for h in r["hooks"]:
        assert set(h) == {"id"}  # language, entry, files: the repository's .pre-commit-hooks.yaml
        assert "additional_dependencies" not in h


def test_the_recipe_says_how_to_install_it():
    section = _ci_md().split("## pre-commit", 1)[1].split("\n## ", 1)[0]
    assert "pre-commit install" in section and "pre-commit run --all-files" in section


def test_the_package_names_its_urls():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as fh:  # no tomllib on 3.10
        section = fh.read().split("\n[project.urls]\n", 1)[1].split("\n[", 1)[0]
    urls = re.findall(r'^\S.*?=\s*"([^"]*)"', section, re.M)
    assert urls and all(u.startswith("https://") and "<" not in u for u in urls)


@pytest.mark.slow
def test_pre_commit_runs_the_recipe_from_the_checkout(tmp_path):
    """The recipe as a user pastes it, `repo:` the checkout and `rev:` its commit: pre-commit
    clones it, installs that copy and runs the hooks on a config with mistakes (fails) and a
    clean one (passes). Skipped without pre-commit outside CI, failed in CI."""
    # the test extra installs it beside this Python (CI runs .venv/bin/python, .venv/bin not on PATH)
    beside = os.path.join(os.path.dirname(sys.executable), "pre-commit")
    exe = beside if os.path.exists(beside) else shutil.which("pre-commit")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("pre-commit is not installed (it is in the test extra)")
        pytest.skip("needs pre-commit (pip install '.[test]')")
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    repo = tmp_path / "project"
    repo.mkdir()
    config = dict(_recipe(), repo=ROOT, rev=rev)
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [config]}))
    (repo / "queues.yaml").write_text(open(os.path.join(ROOT, "samples", "mistakes.yaml")).read())
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A", "."], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRIO_", "PYTHONPATH"))}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "cache")
    run = lambda: subprocess.run([exe, "run", "--all-files"], cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    p = run()
    assert p.returncode == 1 and "PRIO131" in p.stdout, p.stdout + p.stderr
    (repo / "queues.yaml").write_text(open(os.path.join(ROOT, "samples", "walkthrough-queues.yaml")).read())
    p = run()
    assert p.returncode == 0, p.stdout + p.stderr
