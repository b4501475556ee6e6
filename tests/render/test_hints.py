"""The help: line under each finding of validate's text output, taken from the Fix: of the rule's
documentation (render/validate/hints.py)."""
import pytest

from builders import QUEUE_A
from conftest import run_cli

WARN = QUEUE_A + "            properties: {priority.policy: fenced}\n"


@pytest.fixture
def warn_file(tmp_path):
    p = tmp_path / "queues.yaml"
    p.write_text(WARN)
    return str(p)


def test_help_line_under_each_finding_from_the_rule_fix(warn_file):
    r = run_cli("validate", warn_file)
    lines = r.stdout.splitlines()
    helps = [ln for ln in lines if ln.strip().startswith("help: ")]
    assert len(helps) == sum(1 for ln in lines if " PRIO" in ln and ": " in ln and not ln.startswith(" "))
    assert "      help: write `fence` to fence the queue, or `default` (prio rule PRIO206)" in lines or \
        any("(prio rule PRIO206)" in h for h in helps)
    assert "help:" not in run_cli("validate", "-o", "json", warn_file).stdout


def test_fix_extraction():
    from prio.lint.registry import RULES
    from prio.lint.rules import load_all
    from prio.render.validate.hints import fix_of, hint

    load_all()
    assert fix_of("What.\n\nFix: rename one.\n") == "rename one"
    assert fix_of("What.\n\nFix: spell it as YuniKorn does:\n        maxapplications: 1\n") == "spell it as YuniKorn does"
    assert fix_of("What.\n\nFix:\n    a: b\n") == ""
    assert hint(RULES["PRIO003"]) == "help: see `prio rule PRIO003` for the fix"
    assert hint(RULES["PRIO001"]) == "help: spell it as YuniKorn does (prio rule PRIO001)"
