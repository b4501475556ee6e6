"""The documentation site (issue 32): `mkdocs build --strict` passes (no broken link, anchor or
nav entry), every page of the nav exists, and the rule reference has one page per rule of the
registry with the rule's own documentation, so `prio rule ID` and the site never disagree.

The build needs the `docs` extra (mkdocs). Without it the test is skipped outside CI and fails
in CI (CI=true): .ci/run installs the extra, and the site is part of what CI proves."""
from __future__ import annotations

import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from chromium import in_ci
from conftest import ROOT, prio_env

HOOK = os.path.join(ROOT, "docs", "_hooks", "rules.py")


def _need_mkdocs() -> None:
    if importlib.util.find_spec("mkdocs") is None:
        how = "pip install -e '.[docs]'"
        if in_ci():
            pytest.fail(f"mkdocs is missing in CI: {how}")
        pytest.skip(f"mkdocs is not installed: {how}")


def _build(config: str, site: str, cwd: str = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config, "-d", site],
                          capture_output=True, text=True, cwd=cwd, env=prio_env(), timeout=300)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    _need_mkdocs()
    out = str(tmp_path_factory.mktemp("site"))
    p = _build(os.path.join(ROOT, "mkdocs.yml"), out)
    assert p.returncode == 0, p.stderr
    assert "WARNING" not in p.stderr, p.stderr
    return out


def _nav_pages(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _nav_pages(v)
    elif isinstance(node, list):
        for v in node:
            yield from _nav_pages(v)


def _config() -> dict:
    class Loader(yaml.SafeLoader):  # mkdocs.yml may use !ENV and the like: not this one, but safe
        pass
    with open(os.path.join(ROOT, "mkdocs.yml"), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=Loader)


def test_the_site_builds_strictly_and_every_nav_page_is_there(site):
    for page in _nav_pages(_config()["nav"]):
        stem = page[:-3]
        built = os.path.join(site, stem[:-5] if stem.endswith("index") else stem, "index.html")
        assert os.path.exists(built), page


def test_every_page_in_docs_is_in_the_nav():
    """A page left out of the nav is a page nobody finds (the generated rule pages are reached
    from the rules index)."""
    pages = set(_nav_pages(_config()["nav"]))
    docs = os.path.join(ROOT, "docs")
    for dirpath, dirnames, files in os.walk(docs):
        dirnames[:] = [d for d in dirnames if not d.startswith("_")]
        for f in files:
            if f.endswith(".md"):
                rel = os.path.relpath(os.path.join(dirpath, f), docs).replace(os.sep, "/")
                assert rel in pages, f"docs/{rel} is not in mkdocs.yml's nav"


def test_one_page_per_rule_from_the_registry(site):
    from prio.lint.rules import all_rules

    rules = all_rules()
    with open(os.path.join(site, "rules", "index.html"), encoding="utf-8") as fh:
        index = fh.read()
    for r in rules.values():
        with open(os.path.join(site, "rules", r.id, "index.html"), encoding="utf-8") as fh:
            page = fh.read()
        text = "".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())  # compared without spaces
        assert f"{r.id}{r.name}" in text, r.id
        assert "".join(r.summary.replace("`", "").split()) in text, r.id
        assert f'href="{r.id}/"' in index, r.id


def _hook():
    spec = importlib.util.spec_from_file_location("prio_docs_rules_hook", HOOK)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_rules_examples_become_code_blocks():
    pytest.importorskip("mkdocs")
    from prio.lint.registry import by_name_or_id

    text = _hook().rule_markdown(by_name_or_id("PRIO003"))
    assert text.startswith("# PRIO003 wrong-type\n")
    assert "```yaml\nnodesortpolicy: fair\n```" in text
    assert "```yaml\nnodesortpolicy:\n  type: fair\n```" in text
    assert "prio rule PRIO003" in text


def test_every_rule_target_has_words_for_the_reader():
    pytest.importorskip("mkdocs")
    from prio.lint.registry import TARGETS

    assert set(_hook().WHERE) == set(TARGETS)


@pytest.mark.slow
def test_a_broken_link_fails_the_build(tmp_path):
    _need_mkdocs()
    shutil.copytree(os.path.join(ROOT, "docs"), tmp_path / "docs")
    shutil.copy(os.path.join(ROOT, "mkdocs.yml"), tmp_path / "mkdocs.yml")
    with open(tmp_path / "docs" / "index.md", "a", encoding="utf-8") as fh:
        fh.write("\nSee [the missing page](nosuch.md#nowhere).\n")
    p = _build(str(tmp_path / "mkdocs.yml"), str(tmp_path / "site"), cwd=str(tmp_path))
    assert p.returncode != 0 and "nosuch.md" in p.stderr
