"""The native snapshot's application `groups` (conformance-2's addition, now in the contract)."""
from builders import UNDER_ROOT
from conftest import run_cli


def test_groups_are_read_and_a_bad_list_is_one_line(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(UNDER_ROOT + "          - {name: a}\n")
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n  - {id: x, queue: root.a, user: alice, groups: [ml, staff], asks: [{priority: 1}]}\n")
    assert run_cli("simulate", str(q), str(s), "-o", "json").exit_code == 0
    s.write_text("applications:\n  - {id: x, queue: root.a, user: alice,\n     groups: ml, asks: [{priority: 1}]}\n")
    r = run_cli("simulate", str(q), str(s), "-o", "json")
    assert r.exit_code == 2 and f"{s}:3:" in r.stderr and "groups must be a list of group names" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_placement_filter_matches_the_users_groups(tmp_path):
    """Filter.allowUser: the user name first, then each group; a user without groups is in the
    group of its own name (YuniKorn without a group resolver)."""
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    placementrules:\n"
                 "      - {name: fixed, value: root.ml, filter: {type: allow, groups: [ml]}}\n"
                 "      - {name: fixed, value: root.other}\n"
                 "    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n          - {name: ml}\n          - {name: other}\n")
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n"
                 "  - {id: a, queue: root.x, user: alice, groups: [staff, ml], asks: [{priority: 1}]}\n"
                 "  - {id: b, queue: root.x, user: bob, groups: [staff], asks: [{priority: 1}]}\n"
                 "  - {id: c, queue: root.x, user: ml, asks: [{priority: 1}]}\n")
    import json
    got = json.loads(run_cli("simulate", str(q), str(s), "-o", "json").stdout)
    assert {st["application"]: st["queue"] for st in got["steps"]} == {"a": "root.ml", "b": "root.other", "c": "root.ml"}


def test_a_rest_dump_gives_each_application_its_user_and_groups(tmp_path):
    """YuniKorn's application DAO carries `user` and `groups`: prio reads them (user and group
    limits, placement filters) and `prio snapshot` writes them."""
    import os

    from conftest import SHARED
    from yunikorn_replay import Replay

    sc = os.path.join(SHARED, "testdata", "yunikorn-rest-live", "conformance-limits-00002")
    out = tmp_path / "snap.yaml"
    with Replay(sc) as srv:
        r = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out))
    assert r.exit_code == 0, r.stderr
    import yaml

    snap = list(yaml.safe_load_all(out.read_text()))[1]
    assert {(a["user"], tuple(a.get("groups", ()))) for a in snap["applications"]} == {("testuser", ("testgroup",))}
