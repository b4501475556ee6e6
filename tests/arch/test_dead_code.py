"""No dead code: vulture finds nothing unused in cli/prio beyond tests/vulture_whitelist.py (its
settings are pyproject.toml's [tool.vulture], so `vulture` at the checkout's root says the same)."""
from __future__ import annotations

import os
import runpy
import subprocess
import sys

from conftest import ROOT


def test_vulture_finds_nothing_unused():
    r = subprocess.run([sys.executable, "-m", "vulture"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, ("vulture reports unused code: remove it, or add it to tests/vulture_whitelist.py "
                               "with why it stays\n" + r.stdout + r.stderr)


def test_every_whitelist_entry_still_exists():
    runpy.run_path(os.path.join(ROOT, "tests", "vulture_whitelist.py"))
