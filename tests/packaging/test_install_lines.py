"""Every install line in the docs installs this tool: the distribution named in pyproject.toml
(free on PyPI: PyPI's `prio` is an unrelated C extension), or a path or VCS URL of this
repository. A recipe that installs another project is the worst first impression there is."""
from __future__ import annotations

import glob
import os
import re
import shlex

from conftest import ROOT

INSTALL = re.compile(r"(?:\buv\s+pip|\bpipx|\bpip3?|-m\s+pip)\s+install\b(?P<rest>[^\n`&|;]*)")


def distribution() -> str:
    text = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    return re.search(r'^name = "([^"]+)"$', text, re.M).group(1)


def doc_files() -> list[str]:
    return [os.path.join(ROOT, "README.md"), os.path.join(ROOT, ".pre-commit-hooks.yaml")] + \
        sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def install_targets(text: str):
    for m in INSTALL.finditer(text):
        words = [w for w in shlex.split(m.group("rest").strip()) if not w.startswith("-")]
        yield m.group(0).strip(), words


def installs_this_tool(word: str, dist: str) -> bool:
    if word.startswith((".", "/")) or word.startswith("git+") and "<" not in word:
        return True  # a path of the checkout, or a VCS URL
    name = re.split(r"[\[<>=!~ ;]", word, maxsplit=1)[0]
    return name.lower().replace("_", "-") == dist


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


def test_the_checker_catches_pypis_prio():
    dist = distribution()
    bad = "      - run: pip install prio\n    - pipx install prio==0.2\n"
    assert [all(installs_this_tool(w, dist) for w in words) for _, words in install_targets(bad)] == [False, False]
    good = "pip install . && pip install '.[test]' && uv pip install prio-scheduling[test]\n"
    assert all(all(installs_this_tool(w, dist) for w in words) for _, words in install_targets(good))


def test_the_command_stays_prio():
    text = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    assert re.search(r'^prio = "prio\.cli\.entry:main"$', text, re.M)
