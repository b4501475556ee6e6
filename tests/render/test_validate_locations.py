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
    r = run_cli("validate", str(deep))
    assert r.exit_code == 2
    assert r.stdout.startswith(f"{deep}:1: error PRIO000 (unreadable-input) YAML nested more than 400 levels"), r.stdout
    assert "None" not in r.stdout
