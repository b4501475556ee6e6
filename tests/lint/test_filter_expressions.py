"""PRIO128 (placement-filter-list) reads a one-entry filter expression as Go's regexp does
(yunikorn/goregex.py): Go syntax Python lacks is no error, syntax Go refuses is, and no Python
warning reaches the user."""
import json

import pytest

from conftest import run_cli, run_prio

CONFIG = """\
partitions:
  - name: default
    placementrules:
      - name: provided
        filter: {{type: allow, groups: ['{entry}']}}
    queues:
      - name: root
        queues:
          - name: batch
"""


def _prio128(tmp_path, entry):
    f = tmp_path / "q.yaml"
    f.write_text(CONFIG.format(entry=entry))
    r = run_cli("validate", str(f), "-o", "json")
    return [x for x in json.loads(r.stdout)["findings"] if x["rule"] == "PRIO128"]


@pytest.mark.parametrize("entry", ["[[:alpha:]]+", "^[[:alnum:]_-]+$", "\\pL+", "(?<team>t)eam", "^\\Qa.b\\E", "^a\\z",
                                   "(?U)a+", "\\x{41}"])
def test_go_syntax_is_no_error(tmp_path, entry):
    assert _prio128(tmp_path, entry) == []


@pytest.mark.parametrize("entry", ["(?=a)b", "(?<!a)b", "(a)\\1", "a\\Z", "a**", "[b-a]"])
def test_what_go_refuses_is_an_error(tmp_path, entry):
    got = _prio128(tmp_path, entry)
    assert [(x["line"], x["path"]) for x in got] == [(5, "partitions[0].placementrules[0].filter.groups[0]")], got


def test_a_posix_class_prints_no_python_warning(tmp_path):
    f = tmp_path / "q.yaml"
    f.write_text(CONFIG.format(entry="[[:alpha:]]+"))
    r = run_prio("validate", str(f))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr == "no problems in 1 file\n" and "Warning" not in r.stdout
