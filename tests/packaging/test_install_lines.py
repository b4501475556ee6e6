"""Every install line in the docs installs this tool: a path or VCS URL of this repository (what
works today: prio-scheduling is not published yet), or the distribution named in pyproject.toml
(free on PyPI: PyPI's `prio` is an unrelated C extension), and then a requirement a wheel built
from this checkout satisfies (resolved offline by pip against that wheel alone). A recipe that
installs another project, or a version that never existed, is the worst first impression there is."""
from __future__ import annotations

import glob
import os
import re
import shlex

import pytest

from conftest import ROOT

INSTALL = re.compile(r"(?:\buv\s+pip|\bpipx|\bpip3?|-m\s+pip)\s+install\b(?P<rest>[^\n`&|;]*)")


def distribution() -> str:
    text = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    return re.search(r'^name = "([^"]+)"$', text, re.M).group(1)


def doc_files() -> list[str]:
    return [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "CONTRIBUTING.md"), os.path.join(ROOT, ".pre-commit-hooks.yaml"),
            os.path.join(ROOT, "action.yml")] + sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))


def install_targets(text: str):
    for m in INSTALL.finditer(text):
        words = [w for w in shlex.split(m.group("rest").strip(), comments=True) if not w.startswith("-")]
        yield m.group(0).strip(), words


def checkout_form(word: str) -> bool:
    """A path of the checkout, or a VCS URL of the repository: what installs today."""
    return word.startswith((".", "/", "$")) or word.startswith("git+") and "<" not in word


def installs_this_tool(word: str, dist: str) -> bool:
    if checkout_form(word):
        return True
    name = re.split(r"[\[<>=!~ ;]", word, maxsplit=1)[0]
    return name.lower().replace("_", "-") == dist


def named_requirements() -> list:
    """(file, line, requirement) of every install line that names the distribution instead of a
    checkout: each must resolve from this checkout's wheel."""
    dist = distribution()
    return [(os.path.relpath(path, ROOT), line, w) for path in doc_files()
            for line, words in install_targets(open(path, encoding="utf-8").read())
            for w in words if not checkout_form(w) and installs_this_tool(w, dist)]


def test_the_distribution_name_is_not_pypis_prio():
    assert distribution() != "prio"
    assert distribution() == "prio-scheduling"


def test_every_install_line_installs_this_tool():
    dist = distribution()
    seen = 0
    for path in doc_files():
        for line, words in install_targets(open(path, encoding="utf-8").read()):
            assert words, f"{os.path.relpath(path, ROOT)}: {line!r} installs nothing"
            for w in words:
                assert installs_this_tool(w, dist), f"{os.path.relpath(path, ROOT)}: {line!r} installs {w!r}, not {dist}"
            seen += 1
    assert seen >= 5  # README's quickstart and CI recipes, docs/ci.md's recipes


def test_what_installs_today_is_the_checkout():
    """Until the first release, the lines a reader pastes first (getting started, the index,
    docs/ci.md's recipes, kubectl's page) install from a checkout or a git URL; a line naming
    the distribution is said to be for after the release (README)."""
    for line in named_requirements():
        assert line[0] == "README.md", line
    readme = " ".join(open(os.path.join(ROOT, "README.md"), encoding="utf-8").read().split())
    assert "After the first release, `pip install prio-scheduling` installs it." in readme
    assert "it is not published yet" in readme


@pytest.mark.slow
def test_every_named_requirement_resolves_from_the_wheel(tmp_path):
    """pip, offline (--no-index), with the wheel built from this checkout as the only package:
    every requirement the docs name must be satisfied by it (a version that never existed, or
    an extra the wheel lacks, fails)."""
    import subprocess
    import sys

    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "--no-build-isolation", "-q", "-w", str(dist)],
                   check=True, capture_output=True)
    reqs = named_requirements()
    assert reqs  # the README's line for after the release
    for where, line, req in reqs:
        p = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "--no-deps", "--ignore-installed",
                            "--find-links", str(dist), "-q", "--report", str(tmp_path / "r.json"), req],
                           capture_output=True, text=True)
        assert p.returncode == 0, (where, line, p.stderr)
        import json

        assert [i["metadata"]["name"] for i in json.load(open(tmp_path / "r.json"))["install"]] == [distribution()], (where, line)
    bad = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "--no-deps", "--ignore-installed",
                          "--find-links", str(dist), "-q", f"{distribution()}==0.9.0"], capture_output=True, text=True)
    assert bad.returncode != 0  # the check can fail: a version the wheel is not


def test_the_checker_catches_pypis_prio():
    dist = distribution()
    bad = "      - run: pip install prio\n    - pipx install prio==0.2\n"
    assert [all(installs_this_tool(w, dist) for w in words) for _, words in install_targets(bad)] == [False, False]
    good = "pip install . && pip install '.[test]' && uv pip install prio-scheduling[test]\n"
    assert all(all(installs_this_tool(w, dist) for w in words) for _, words in install_targets(good))


def test_the_command_stays_prio():
    text = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    assert re.search(r'^prio = "prio\.cli\.entry:main"$', text, re.M)
