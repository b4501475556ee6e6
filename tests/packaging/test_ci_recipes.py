"""The CI recipes paste and run (issue 29): docs/ci.md's pre-commit config needs no repository
URL (`repo: local`, `language: python`, prio pinned to this version from PyPI) and says to run
`pre-commit install`; its hooks are the shipped ones (same ids, files, excludes, entry); the
package names its URLs. The hooks' entries run as pre-commit would run them."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import yaml
from conftest import ROOT

from prio import __version__


def _ci_md() -> str:
    with open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8") as fh:
        return fh.read()


def _local_recipe() -> dict:
    for block in re.findall(r"```yaml\n(.*?)```", _ci_md(), re.S):
        data = yaml.safe_load(block)
        if isinstance(data, dict) and any(r.get("repo") == "local" for r in data.get("repos", [])):
            return next(r for r in data["repos"] if r["repo"] == "local")
    raise AssertionError("docs/ci.md shows no `repo: local` pre-commit config")


def test_the_pre_commit_recipe_needs_no_repository_url():
    local = _local_recipe()
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        shipped = {h["id"]: h for h in yaml.safe_load(fh)}
    assert {h["id"] for h in local["hooks"]} == set(shipped)
    for h in local["hooks"]:
        assert h["language"] == "python" and h["entry"] == shipped[h["id"]]["entry"]
        assert h["additional_dependencies"] == [f"prio-scheduling=={__version__}"]  # this version, from PyPI
        for key in ("files", "exclude", "types"):
            assert h[key] == shipped[h["id"]][key], (h["id"], key)


def test_the_recipe_says_how_to_install_it():
    section = _ci_md().split("## pre-commit", 1)[1].split("\n## ", 1)[0]
    assert "pre-commit install" in section and "pre-commit run --all-files" in section


def test_the_package_names_its_urls():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as fh:  # no tomllib on 3.10
        section = fh.read().split("\n[project.urls]\n", 1)[1].split("\n[", 1)[0]
    urls = re.findall(r'^\S.*?=\s*"([^"]*)"', section, re.M)
    assert urls and all(u.startswith("https://") and "<" not in u for u in urls)


def test_the_local_hooks_run_as_pre_commit_runs_them(tmp_path):
    """Each hook's entry, then the staged files, through a real process (pre-commit's contract)."""
    (tmp_path / "queues.yaml").write_text(open(os.path.join(ROOT, "samples", "mistakes.yaml")).read())
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    for h in _local_recipe()["hooks"]:
        argv = shlex.split(h["entry"])
        assert argv[0] == "prio"
        if re.search(h["files"], "queues.yaml") and not re.search(h["exclude"], "queues.yaml"):
            p = subprocess.run([sys.executable, "-m", "prio", *argv[1:], "queues.yaml"], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=120)
            assert p.returncode == 1 and "PRIO" in p.stdout, p.stderr
