"""Queue, application and ask names are printed as written: rich's :emoji: codes are not
expanded in names with colons."""
import pytest

from conftest import run_cli

COLON_QUEUES = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: "team:100:x"
"""


COLON_ASKS = """applications:
  - id: "app:smile:"
    queue: "root.team:100:x"
    asks:
      - {id: "ask:100:", priority: 3}
"""


@pytest.fixture()
def colon_names(tmp_path):
    q, a = tmp_path / "q.yaml", tmp_path / "a.yaml"
    q.write_text(COLON_QUEUES)
    a.write_text(COLON_ASKS)
    return str(q), str(a)


@pytest.mark.parametrize("args", [("explain", "-o", "table"), ("simulate", "-o", "table"),
                                  ("explain", "--pending", "-o", "table"), ("explain", "--why-ask", "ask:100:")])
def test_queue_app_and_ask_names_with_colons_stay_as_written(colon_names, args):
    # YuniKorn allows ':' in queue names; an id like app:smile: is any string.
    r = run_cli(*args, *colon_names)
    assert r.exit_code == 0, r.output
    assert "\U0001f4af" not in r.stdout and "\U0001f604" not in r.stdout, r.stdout
    if "--pending" not in args:
        assert "ask:100:" in r.stdout and "app:smile:" in r.stdout


def test_diff_table_keeps_colons(colon_names, tmp_path):
    new = tmp_path / "new.yaml"
    new.write_text(COLON_QUEUES.replace('name: "team:100:x"', 'name: "team:100:x"\n            properties: {priority.offset: "5"}'))
    r = run_cli("diff", colon_names[0], str(new), colon_names[1], "-o", "table")
    assert r.exit_code == 0, r.output
    assert "\U0001f4af" not in r.stdout and "team:100:x" in r.stdout, r.stdout
