"""The release path (.github/workflows/release.yml, issue 44): on a v* tag it builds the sdist and
the wheel, checks them with twine and publishes with PyPI's trusted publishing (an OIDC token,
no stored password); the tag must be the package's version. The slow test does what the build
job does, offline: both distributions built from this checkout, checked with twine where it is
installed."""
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

WORKFLOW = os.path.join(ROOT, ".github", "workflows", "release.yml")


def workflow() -> dict:
    with open(WORKFLOW, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def runs(job: dict) -> str:
    return "\n".join(s.get("run", "") for s in job["steps"])


def test_the_workflow_builds_checks_and_publishes_on_a_tag():
    w = workflow()
    on = w[True] if True in w else w["on"]  # YAML 1.1 reads the key `on` as true
    assert on["push"] == {"tags": ["v*"]}
    build, publish = w["jobs"]["build"], w["jobs"]["publish"]
    assert re.search(r"python -m build --sdist --wheel", runs(build))
    assert "twine check --strict dist/*" in runs(build)
    assert publish["needs"] == "build" and publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert publish["permissions"] == {"id-token": "write"}  # trusted publishing, nothing else
    step = next(s for s in publish["steps"] if s.get("uses", "").startswith("pypa/gh-action-pypi-publish@"))
    assert not step.get("with")  # no password, no token: PyPI trusts the workflow
    assert w["permissions"] == {"contents": "read"}


def test_the_tag_must_be_the_version():
    check = next(s for s in workflow()["jobs"]["build"]["steps"] if s.get("name") == "The tag is the version")
    assert check["env"] == {"TAG": "${{ github.ref_name }}"}  # into the script through the environment
    assert "${{" not in check["run"]
    assert "cli/prio/__init__.py" in check["run"] and f'__version__ = "{__version__}"' in open(
        os.path.join(ROOT, "cli", "prio", "__init__.py"), encoding="utf-8").read()


def test_the_readme_names_the_release_path():
    readme = " ".join(open(os.path.join(ROOT, "README.md"), encoding="utf-8").read().split())
    assert "`.github/workflows/release.yml` is the release path" in readme


@pytest.mark.slow
def test_the_build_job_builds_two_distributions_twine_accepts(tmp_path):
    dist = tmp_path / "dist"
    p = subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-t", "wheel", "-d", str(dist)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    built = sorted(os.listdir(dist))
    assert built == [f"prio_scheduling-{__version__}-py3-none-any.whl", f"prio_scheduling-{__version__}.tar.gz"]
    twine = shutil.which("twine")
    if twine is None:
        pytest.skip("twine is not installed: the workflow's check not run here")
    p = subprocess.run([twine, "check", "--strict", *(str(dist / f) for f in built)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr


def test_every_action_is_pinned_by_its_full_commit_sha_with_its_tag_in_a_comment():
    """A tag can be moved to other code; a commit cannot (issue 44, item 1): each `uses:` of the
    workflow is OWNER/NAME@<40 hex> # vX.Y.Z (the tag the SHA was read from)."""
    lines = [line for line in open(WORKFLOW, encoding="utf-8") if re.match(r"\s*(- )?uses:", line)]
    assert len(lines) == 5
    for line in lines:
        assert re.fullmatch(r"\s*(- )?uses: [\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+ \([\w/.]+\)\n", line), line
