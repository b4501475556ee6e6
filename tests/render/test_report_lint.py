"""The static check of the HTML report's script (issue 47): ESLint's recommended rules
(tests/js/eslint.config.mjs: undefined names, unused variables, redeclarations, unreachable code)
on the script exactly as the page carries it (prio.render.html.script_text: its parts, the
backends' views among them, in one function). ESLint is pinned in tests/js/package.json and
installed by .ci/run (`npm ci --prefix tests/js`); without it the test is skipped, except in CI,
where it fails."""
from __future__ import annotations

import os
import subprocess

import pytest

from conftest import ROOT

JS = os.path.join(ROOT, "tests", "js")
ESLINT = os.path.join(JS, "node_modules", ".bin", "eslint")


def _eslint(text: str) -> subprocess.CompletedProcess:
    if not os.path.exists(ESLINT):
        if os.environ.get("CI"):
            pytest.fail("ESLint is not installed: .ci/run installs it with npm ci --prefix tests/js")
        pytest.skip("ESLint not installed (npm ci --prefix tests/js)")
    return subprocess.run([ESLINT, "--config", "eslint.config.mjs", "--max-warnings", "0", "--stdin", "--stdin-filename", "report.js"],
                          input=text, cwd=JS, capture_output=True, text=True, timeout=120)


def test_the_report_script_passes_eslint():
    from prio.render.html import script_text

    r = _eslint(script_text())
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_check_bites_on_an_undefined_name_and_a_redeclaration():
    from prio.render.html import script_text

    text = script_text()
    broken = text.replace("function own() {", "function own() { undefinedHelper();", 1).replace("var VIEWS = {};", "var VIEWS = {}; var VIEWS = {};", 1)
    assert broken != text
    r = _eslint(broken)
    assert r.returncode == 1 and "no-undef" in r.stdout and "no-redeclare" in r.stdout, r.stdout
