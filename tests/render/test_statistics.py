"""validate --statistics: a count per rule instead of the findings, most first, in text and JSON
(and no other format)."""
import json

from builders import QUEUE_A
from conftest import run_cli, sample

QUEUES = QUEUE_A


def test_statistics_text_and_json():
    r = run_cli("validate", "--statistics", sample("mistakes.yaml"))
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert len(lines) == 15 and lines[0].split() == ["1", "PRIO001", "error", "unknown-key"]
    assert "|" not in r.stdout and "^" not in r.stdout  # counts instead of the findings
    j = run_cli("validate", "--statistics", "-o", "json", sample("mistakes.yaml"))
    rows = json.loads(j.stdout)
    assert rows[0] == {"rule": "PRIO001", "name": "unknown-key", "severity": "error", "count": 1}
    assert sum(r["count"] for r in rows) == 15


def test_statistics_counts_most_first(tmp_path):
    p = tmp_path / "q.yaml"
    p.write_text(QUEUES + "            properties: {priority.policy: fenced}\n          - name: b\n"
                 "            properties: {priority.policy: fenced}\n")
    rows = json.loads(run_cli("validate", "--statistics", "-o", "json", str(p)).stdout)
    assert rows[0]["rule"] == "PRIO206" and rows[0]["count"] == 2


def test_statistics_refuses_other_formats():
    r = run_cli("validate", "--statistics", "-o", "sarif", sample("mistakes.yaml"))
    assert r.exit_code == 2 and r.stderr.startswith("prio: --statistics")
