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


HELP_CASES = """partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.jobs.nightly
        create: true
    queues:
      - name: root
        properties:
          application.sort.policy: FIFO
        queues:
          - name: jobs
            properties:
              application.sort.priority: "off"
              priority.policy: Default-ish
              preemption.delay: "45"
              priority.offest: "10"
          - name: team.b
      - name: analytics
"""


def _helps(tmp_path, text):
    p = tmp_path / "queues.yaml"
    p.write_text(text)
    lines = run_cli("validate", str(p)).stdout.splitlines()
    out = {}
    for i, line in enumerate(lines):
        if " PRIO" in line and not line.startswith(" "):
            rule = line.split(" PRIO", 1)[1][:3]
            out.setdefault("PRIO" + rule, []).append((line, next(h.strip() for h in lines[i + 1:] if h.strip().startswith("help: "))))
    return out


def test_help_lines_use_the_findings_own_values(tmp_path):
    helps = _helps(tmp_path, HELP_CASES)
    # the message suggests fifo: so does the help (it said `fair`, the documentation's example)
    (msg, help_), = helps["PRIO204"]
    assert "did you mean 'fifo'" in msg and help_.startswith("help: `application.sort.policy: fifo`") and "fair" not in help_
    # the queues of this config, not the example's `other`
    (msg, help_), = helps["PRIO104"]
    assert "`analytics`" in help_ and "other" not in help_
    assert helps["PRIO207"][0][1].startswith("help: `application.sort.priority: disabled`")
    assert helps["PRIO206"][0][1].startswith("help: `priority.policy: default`")
    assert helps["PRIO211"][0][1].startswith("help: `preemption.delay: 45s`")  # not the example's 30s
    assert helps["PRIO210"][0][1].startswith('help: `priority.offset: "10"`')
    assert helps["PRIO106"][0][1].startswith("help: `- name: team-b`")  # not team-a
    assert all("batch" not in h for found in helps.values() for _, h in found)


def test_help_for_a_path_below_a_leaf_names_the_leaf(tmp_path):
    text = ("partitions:\n  - name: default\n    placementrules:\n      - {name: fixed, value: root.jobs.nightly.x, create: true}\n"
            "    queues:\n      - name: root\n        queues:\n          - name: jobs\n            queues: [{name: nightly}]\n")
    (msg, help_), = _helps(tmp_path, text)["PRIO132"]
    assert "(nightly)" in msg and "make nightly a parent" in help_ and "batch" not in help_
