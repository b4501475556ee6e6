"""validate's text format: the location of a finding is file:line:col, file:line where there
is no column."""
from conftest import run_cli


def test_validate_text_location_on_line_100_is_file_colon_100(tmp_path):
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    lines += [f"          - name: q{i}" for i in range(94)] + ["          - name: q0"]
    path = tmp_path / "q.yaml"
    path.write_text("\n".join(lines) + "\n")
    r = run_cli("validate", str(path))
    assert r.exit_code == 1
    assert r.stdout.startswith(f"{path}:100:19: error PRIO107"), r.stdout


def test_validate_text_location_without_a_column(tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 500 + "]" * 500 + "\n")
    out = tmp_path / "report.txt"  # a text report records unreadable inputs as PRIO000 (on a terminal: stderr's line)
    r = run_cli("validate", str(deep), "--output-file", str(out))
    assert r.exit_code == 2
    text = out.read_text()
    assert text.startswith(f"{deep}:1: error PRIO000 (unreadable-input) YAML nested more than 400 levels"), text
    assert "None" not in text and r.stderr.startswith(f"prio: {deep}:1: YAML nested")
