"""--yunikorn URL and the users: the usage YuniKorn's user/group manager tracks
(`/usage/users`, `/usage/groups`) as the starting usage of the user and group limits, an older
YuniKorn without those endpoints, and the nodes' `schedulable` (a cordoned node), against a
replayed YuniKorn REST API (tests/yunikorn_replay.py)."""
import json
import os

import pytest

from conftest import run_cli, shared
from yunikorn_replay import Replay

USERS = "/ws/v1/partition/default/usage/users"
GROUPS = "/ws/v1/partition/default/usage/groups"
CONFIG = "/ws/v1/config"
NODES = "/ws/v1/partition/default/nodes"


def scenario(name):
    return shared("testdata", "yunikorn-rest-live", name)


def _config_with(sc: str, limits: str) -> bytes:
    """The scenario's served config (YAML) with `limits` (YAML lines, 10 spaces in) on root."""
    with open(os.path.join(sc, "ws", "v1", "config.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    head = "          submitacl: '*'\n"
    assert head in text
    return text.replace(head, head + "          limits:\n" + limits, 1).encode()


def _yaml(body: bytes):
    return ("body", body, "application/x-yaml; charset=UTF-8")


def _json(data):
    return ("body", json.dumps(data).encode(), "application/json; charset=UTF-8")


def _simulate(srv, *extra):
    r = run_cli("simulate", "--yunikorn", srv.url, *extra, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout), r


def _tree(path_usage: dict, running: list) -> dict:
    """A ResourceUsageDAOInfo tree of root alone."""
    return {"queuePath": "root", "resourceUsage": path_usage, "runningApplications": running}


# A wildcard user limit of 5 pods on root of the walkthrough (11 pending asks of one pod, all of
# testuser): YuniKorn says testuser already runs 3 pods (an application of another partition).
PER_USER = "            - {limit: per-user, users: ['*'], maxresources: {pods: 5}}\n"
ELSEWHERE = [{"userName": "testuser", "queues": _tree({"pods": 3}, ["other-partition-app"])}]


def test_the_usage_yunikorn_tracks_counts_for_the_user_limit():
    sc = scenario("walkthrough")
    faults = {CONFIG: _yaml(_config_with(sc, PER_USER)), USERS: _json(ELSEWHERE)}
    with Replay(sc, faults=faults) as srv:
        got, r = _simulate(srv)
        assert {USERS, GROUPS} <= {p for _, p, _ in srv.requests}
        assert all(m == "GET" for m, _, _ in srv.requests)
    assert len(got["steps"]) == 2  # 3 of 5 pods tracked already: two more
    quota = [u for u in got["unscheduled"] if u["code"] == "UserQuota"]
    assert len(quota) == 9 and quota[0]["reason"] == "user testuser quota in root exceeded: needs pods 1, 0 of 5 left"
    # said once, with the user and what YuniKorn tracks beyond the allocations read
    assert "YuniKorn tracks more for 1 user than the running allocations read here hold (testuser: {pods: 3}, " \
           "1 running application not read here;" in r.stderr
    assert "counted for the user and group limits" in r.stderr


def test_an_older_yunikorn_without_the_usage_endpoints_still_works():
    sc = scenario("walkthrough")
    with Replay(sc, faults={CONFIG: _yaml(_config_with(sc, PER_USER))}, drop=(USERS, GROUPS)) as srv:
        got, r = _simulate(srv)
    assert len(got["steps"]) == 5  # the running allocations read (none) are all the usage
    assert f"{srv.url}{USERS} and {srv.url}{GROUPS}: not on this server (HTTP 404, an older YuniKorn)" in r.stderr
    assert "Traceback" not in r.stderr
    with Replay(sc, drop=(GROUPS,)) as srv:  # one of the two missing: the other is still read
        got, r = _simulate(srv)
    assert f"{srv.url}{GROUPS}: not on this server" in r.stderr and USERS not in r.stderr


def test_usage_the_applications_already_hold_is_not_counted_twice():
    """conformance-limits-00002: testuser runs app00 (3 cores, 7Gi); the served usage is exactly
    that. A user limit of 4 cores on root leaves 1 core, whether or not the usage is read."""
    sc = scenario("conformance-limits-00002")
    limit = "            - {limit: u, users: [testuser], maxresources: {vcore: 4}}\n"
    with Replay(sc, faults={CONFIG: _yaml(_config_with(sc, limit))}) as srv:
        served, r = _simulate(srv)
    assert "tracks more" not in r.stderr
    with Replay(sc, faults={CONFIG: _yaml(_config_with(sc, limit))}, drop=(USERS, GROUPS)) as srv:
        alone, _ = _simulate(srv)
    assert served == alone
    assert len(served["steps"]) == 1  # one ask of 500m in the 1 core left; nothing else fits
    assert "UserQuota" in {u["code"] for u in served["unscheduled"]}
    assert "user testuser quota in root exceeded: needs vcore 1, 500m of 4 left" in [u["reason"] for u in served["unscheduled"]]


def test_the_groups_usage_and_running_applications_count_for_group_maxapplications():
    """A group limit of 2 running applications on root; YuniKorn tracks one application of
    testgroup already (another partition's): one more may start."""
    sc = scenario("walkthrough")
    limit = "            - {limit: g, groups: [testgroup], maxapplications: 2}\n"
    groups = [{"groupName": "testgroup", "applications": ["elsewhere"], "queues": _tree({"pods": 1}, ["elsewhere"])}]
    users = [{"userName": "testuser", "groups": {"elsewhere": "testgroup"}, "queues": _tree({"pods": 1}, ["elsewhere"])}]
    with Replay(sc, faults={CONFIG: _yaml(_config_with(sc, limit)), USERS: _json(users), GROUPS: _json(groups)}) as srv:
        got, _ = _simulate(srv)
    apps = {s["application"] for s in got["steps"]}
    assert len(apps) == 1
    held = {u["code"] for u in got["unscheduled"]}
    assert held == {"GroupMaxApplications"}
    assert "group testgroup maxapplications 2 of root reached (2 running)" in got["unscheduled"][0]["reason"]  # elsewhere and the one started
    with Replay(sc, faults={CONFIG: _yaml(_config_with(sc, limit))}, drop=(USERS, GROUPS)) as srv:
        alone, _ = _simulate(srv)
    assert len({s["application"] for s in alone["steps"]}) == 2


@pytest.mark.parametrize("path,body,msg", [
    (USERS, {"userName": "x"}, "expected a list of usage entries"),
    (USERS, [{"queues": {}}], "[0]: a usage entry needs a userName"),
    (USERS, [{"userName": "a", "queues": {"resourceUsage": {}}}], "[0].queues: a queue entry needs a queuePath"),
    (USERS, [{"userName": "a", "queues": {"queuePath": "root", "resourceUsage": {"pods": "3"}}}],
     "[0].queues.resourceUsage: expected a map of resource name to whole number"),
    (USERS, [{"userName": "a", "queues": {"queuePath": "root", "children": [{"queuePath": "root.x", "runningApplications": "a"}]}}],
     "[0].queues.children[0].runningApplications: expected a list of application ids"),
    (USERS, [{"userName": "a", "groups": ["g"]}], "[0].groups: expected a map of application id to group name"),
    (GROUPS, [{"groupName": "g", "applications": "x"}], "[0].applications: expected a list of application ids"),
    (USERS, [{"userName": "a"}, {"userName": "a"}], "userName 'a' is listed twice"),
])
def test_a_malformed_usage_answer_is_one_line(path, body, msg):
    with Replay(scenario("walkthrough"), faults={path: _json(body)}) as srv:
        r = run_cli("simulate", "--yunikorn", srv.url, "-o", "json")
    assert r.exit_code == 2 and r.stdout == ""
    assert msg in r.stderr and f"{srv.url}{path}" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_a_usage_endpoint_failing_otherwise_is_an_error():
    with Replay(scenario("walkthrough"), faults={USERS: ("status", 500)}) as srv:
        r = run_cli("explain", "--yunikorn", srv.url)
    assert r.exit_code == 2 and f"{srv.url}{USERS}: HTTP 500" in r.stderr


def test_credentials_are_not_in_the_usage_notes():
    sc = scenario("walkthrough")
    with Replay(sc, faults={USERS: _json(ELSEWHERE)}) as srv:
        r = run_cli("simulate", "--yunikorn", srv.url, "--header", "Authorization: Bearer s3cr3t-token", "-v")
    assert r.exit_code == 0, r.stderr
    assert "s3cr3t" not in r.stderr + r.stdout


def test_snapshot_writes_users_and_groups_and_says_what_it_cannot_hold(tmp_path):
    sc = scenario("walkthrough")
    out = tmp_path / "snap.yaml"
    with Replay(sc, faults={USERS: _json(ELSEWHERE)}) as srv:
        r = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out))
    assert r.exit_code == 0, r.stderr
    text = out.read_text()
    import yaml

    doc = list(yaml.safe_load_all(text))[1]
    assert {(a["user"], tuple(a["groups"])) for a in doc["applications"]} == {("testuser", ("testgroup",))}
    assert "# YuniKorn tracked more usage for 1 user than these applications' running allocations hold" in text
    assert "tracks more for 1 user" in r.stderr  # the note, on stderr
    anon = tmp_path / "anon.yaml"
    with Replay(sc, faults={USERS: _json(ELSEWHERE)}) as srv:
        r = run_cli("snapshot", "--yunikorn", srv.url, "--anonymize", "--output-file", str(anon))
    assert r.exit_code == 0, r.stderr
    assert "testuser" not in anon.read_text() and "other-partition-app" not in anon.read_text()
    assert "testuser" not in r.stderr and "other-partition-app" not in r.stderr and "tracks more for 1 user" in r.stderr
    # recorded states: the served usage is what the applications hold: no such line
    with Replay(scenario("preemption-properties")) as srv:
        assert run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out)).exit_code == 0
    assert "tracked more usage" not in out.read_text()


# ---- nodes: `schedulable` ----------------------------------------------------------------------

def _nodes_cordoned(sc, name):
    """The scenario's node DAO list with node `name` unschedulable."""
    with open(os.path.join(sc, "ws", "v1", "partition", "default", "nodes.json"), encoding="utf-8") as fh:
        nodes = json.load(fh)
    for n in nodes:
        if n["nodeID"] == name:
            n["schedulable"] = False
    return sorted(nodes, key=lambda n: n["nodeID"])


def test_a_cordoned_node_takes_nothing_and_the_snapshot_says_so(tmp_path):
    sc = scenario("preemption-properties")
    with Replay(sc) as srv:
        plain, _ = _simulate(srv, "--no-preemption")
    assert {s["node"] for s in plain["steps"]} == {"node-1"}
    with Replay(sc, faults={NODES: _json(_nodes_cordoned(sc, "node-1"))}) as srv:
        got, r = _simulate(srv, "--no-preemption")
        assert f"{srv.url}{NODES}: node node-1 is unschedulable (cordoned or draining)" in r.stderr
        out = tmp_path / "snap.yaml"
        assert run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out)).exit_code == 0
    assert plain["steps"] and "node-1" not in {s["node"] for s in got["steps"]}
    import yaml

    doc = list(yaml.safe_load_all(out.read_text()))[1]
    assert [n.get("schedulable", True) for n in doc["nodes"]] == [False, True]
    assert "schedulable" not in doc["nodes"][1]  # written only where it is false
    back = run_cli("simulate", str(out), "--no-preemption", "-o", "json")
    assert back.exit_code == 0, back.stderr
    assert json.loads(back.stdout) == got


@pytest.mark.parametrize("value", ["no", 0, None])
def test_a_bad_schedulable_from_the_server_is_one_line(value):
    sc = scenario("preemption-properties")
    nodes = _nodes_cordoned(sc, "node-2")
    nodes[1]["schedulable"] = value
    if value is None:
        del nodes[1]["schedulable"]  # absent (an older YuniKorn): schedulable
    with Replay(sc, faults={NODES: _json(nodes)}) as srv:
        r = run_cli("simulate", "--yunikorn", srv.url, "-o", "json")
    if value is None:
        assert r.exit_code == 0, r.stderr
        return
    assert r.exit_code == 2 and "node node-2: schedulable must be true or false" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_saved_dump_without_the_usage_files_is_read_with_a_note(tmp_path):
    """A dump saved by URL (prio.yunikorn.load.restdump reads it as the server it recorded): the usage
    files are optional, as the endpoints are on a server."""
    import shutil

    sc = scenario("walkthrough")
    shutil.copytree(os.path.join(sc, "ws"), tmp_path / "ws")
    shutil.rmtree(tmp_path / "ws" / "v1" / "partition" / "default" / "usage")
    r = run_cli("simulate", str(tmp_path), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "usage/users.json and " in r.stderr and "not in the saved dump: the users' and groups' usage" in r.stderr
    assert len(json.loads(r.stdout)["steps"]) == 11


def test_diff_live_counts_the_tracked_usage_on_both_sides(tmp_path):
    sc = scenario("walkthrough")
    new = tmp_path / "new.yaml"
    new.write_bytes(_config_with(sc, PER_USER))
    with Replay(sc, faults={USERS: _json(ELSEWHERE)}) as srv:
        r = run_cli("diff", "live", str(new), "--yunikorn", srv.url, "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    added = json.loads(r.stdout)["unscheduled"]["added"]
    # the new limit holds 9 of the 11 asks: YuniKorn tracks 3 of testuser's 5 pods already
    assert len(added) == 9 and {u["code"] for u in added} == {"UserQuota"}
    assert added[0]["reason"] == "user testuser quota in root exceeded: needs pods 1, 0 of 5 left"
