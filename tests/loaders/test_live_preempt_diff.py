"""--yunikorn on prio preempt and prio diff, and the running side of prio snapshot (nodes,
allocations, rejected applications), against the replayed YuniKorn REST API of
../shared/testdata/yunikorn-rest-live."""
import json
import os

import pytest
import yaml
from test_live import QUEUES, cases, native_args, ok_json, rejected_ids, scenario

from conftest import run_cli
from yunikorn_replay import Replay

ACTIVE = "/ws/v1/partition/default/applications/active"
NODES = "/ws/v1/partition/default/nodes"


def one_line_exit_2(r, *needles):
    assert r.exit_code == 2, r.stdout
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    for n in needles:
        assert n in r.stderr, r.stderr
    assert r.stdout == ""


def active_with(sc, edit):
    """The recorded /applications/active body of `sc`, changed by `edit(apps)`."""
    with open(os.path.join(sc, "ws", "v1", "partition", "default", "applications", "active.json"), encoding="utf-8") as fh:
        apps = json.load(fh)
    edit(apps)
    return json.dumps(apps).encode()


# ---- prio preempt --yunikorn ---------------------------------------------------------------------

@pytest.mark.parametrize("name,partition", cases())
def test_preempt_live_equals_the_native_files(name, partition):
    sc = scenario(name)
    with Replay(sc) as srv:
        live, _ = ok_json("preempt", "--yunikorn", srv.url, "--partition", partition, "-o", "json")
        assert {m for m, _, _ in srv.requests} == {"GET"}
    files, _ = ok_json("preempt", *native_args(sc, partition), "-o", "json")
    assert live == files
    assert bool(live["asks"]) == (name != "walkthrough-drained")  # the drained state has nothing pending
    assert all(a not in live["asks"] for a in rejected_ids(sc, partition))


def test_preempt_live_reads_nodes_and_running_allocations():
    sc = scenario("preemption-properties")
    with Replay(sc) as srv:
        got, r = ok_json("preempt", "--yunikorn", srv.url, "-o", "json", "-v")
        plain = run_cli("preempt", "--yunikorn", srv.url, "--ask", "dev-1-a", "-o", "plain")
    assert f"{NODES} -> 200" in r.stderr
    assert "4 running allocations" in r.stderr and "2 nodes" in r.stderr
    assert got["asks"]["batch-1-a"]["fenceRoot"] == "root.prod"
    # The running tasks are the candidates, on the nodes the server listed.
    for task, node in (("dev-1-0", "node-2"), ("batch-1-0", "node-1"), ("batch-1-1", "node-2"), ("web-1-0", "node-1")):
        assert any(ln.split()[:1] == [task] and node in ln.split() for ln in plain.stdout.splitlines()), plain.stdout


def test_preempt_live_without_a_nodes_endpoint_takes_one_node_of_the_capacity():
    sc = scenario("preemption-properties")
    with Replay(sc, drop=(NODES,)) as srv:
        got, r = ok_json("preempt", "--yunikorn", srv.url, "-o", "json")
    assert "nodes: not on this server (HTTP 404)" in r.stderr
    assert {a["node"] for a in got["asks"].values() if a["node"]} <= {"node-1"}


def test_preempt_live_allocation_on_a_node_the_server_does_not_list_is_left_out():
    sc = scenario("preemption-properties")

    def move(apps):
        for a in apps:
            for t in a.get("allocations") or ():
                if t["allocationKey"] == "web-1-0":
                    t["nodeId"] = "node-gone"

    with Replay(sc, faults={ACTIVE: ("body", active_with(sc, move), "application/json")}) as srv:
        got, r = ok_json("preempt", "--yunikorn", srv.url, "-o", "json")
    assert "left out 1 running allocation" in r.stderr and "web-1-0 (node-gone)" in r.stderr
    assert all("web-1-0" not in a["eligibleVictims"] for a in got["asks"].values())


@pytest.mark.parametrize("edit,msg", [
    (lambda t: t.update(priority="high"), "priority of allocation web-1-0 'high' is not an integer"),
    (lambda t: t.update(priority="9999999999"), "outside the int32 range"),
    (lambda t: t.update(resource={"vcore": "lots"}), "resource vcore must be an integer"),
    (lambda t: t.update(originator="yes"), "originator must be true or false"),
    (lambda t: t.update(nodeId=7), "nodeId must be a string"),
    (lambda t: t.update(allocationKey="batch-1-0"), "allocation 'batch-1-0' is listed twice"),
])
def test_preempt_live_bad_allocations_are_one_line(edit, msg):
    sc = scenario("preemption-properties")

    def apply(apps):
        for a in apps:
            for t in a.get("allocations") or ():
                if t["allocationKey"] == "web-1-0":
                    edit(t)

    with Replay(sc, faults={ACTIVE: ("body", active_with(sc, apply), "application/json")}) as srv:
        r = run_cli("preempt", "--yunikorn", srv.url, "-o", "json")
        one_line_exit_2(r, msg, srv.url + ACTIVE)


def test_preempt_live_allocations_must_be_a_list():
    sc = scenario("preemption-properties")

    def bad(apps):
        apps[0]["allocations"] = {"x": 1}

    with Replay(sc, faults={ACTIVE: ("body", active_with(sc, bad), "application/json")}) as srv:
        one_line_exit_2(run_cli("preempt", "--yunikorn", srv.url), "allocations must be a list")


@pytest.mark.parametrize("faults,drop,msg", [
    ({NODES: ("status", 500, "node store broken")}, (), "HTTP 500"),
    ({NODES: ("truncate",)}, (), "truncated body"),
    ({NODES: ("body", b'[{"nodeID": "n", "capacity": {"vcore": -1}}]', "application/json")}, (), "capacity must map resource names"),
    ({QUEUES: ("status", 403)}, (), "HTTP 403"),
    ({}, ("/ws/v1/partitions",), "HTTP 404"),
])
def test_preempt_live_faults_are_one_line(faults, drop, msg):
    with Replay(scenario("preemption-properties"), faults=faults, drop=drop) as srv:
        one_line_exit_2(run_cli("preempt", "--yunikorn", srv.url, "-o", "json"), msg, srv.url)


def test_preempt_live_options():
    with Replay(scenario("preemption-properties")) as srv:
        one_line_exit_2(run_cli("preempt", "--yunikorn", srv.url, "x.yaml"), "give no input files")
        one_line_exit_2(run_cli("preempt", "--yunikorn", srv.url, "--sample", "preemption"), "give no input files")
        one_line_exit_2(run_cli("preempt", "--yunikorn", srv.url, "--ask", "nosuch"), "no pending ask 'nosuch'")
        got, _ = ok_json("preempt", "-o", "json", env={"PRIO_YUNIKORN_URL": srv.url})
        assert "web-1-a" in got["asks"]
        assert NODES in [path for _, path, _ in srv.requests]  # read from the server PRIO_YUNIKORN_URL names
    one_line_exit_2(run_cli("preempt", "--timeout", "1"), "goes with --yunikorn")


# ---- prio snapshot: the running side, round trips through preempt ---------------------------------

@pytest.mark.parametrize("name,partition", cases())
def test_snapshot_round_trips_for_preempt(name, partition, tmp_path):
    sc = scenario(name)
    out = tmp_path / "s.yaml"
    with Replay(sc) as srv:
        live, _ = ok_json("preempt", "--yunikorn", srv.url, "--partition", partition, "-o", "json")
        r = run_cli("snapshot", "--yunikorn", srv.url, "--partition", partition, "--output-file", str(out))
        assert r.exit_code == 0, r.stderr
    back, _ = ok_json("preempt", str(out), "-o", "json")
    assert back == live


def test_snapshot_writes_nodes_and_allocations_and_says_so(tmp_path):
    sc = scenario("preemption-properties")
    out = tmp_path / "s.yaml"
    with Replay(sc) as srv:
        r = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out), "-v")
        j = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(tmp_path / "j.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert f"GET {srv.url}{NODES} -> 200" in r.stderr and "4 running allocations" in r.stderr
    assert "4 applications, 6 pending asks, 4 running allocations, 2 nodes" in r.stderr
    summary = json.loads(j.stdout)
    assert summary["runningAllocations"] == 4 and summary["nodes"] == 2
    doc = list(yaml.safe_load_all(out.read_text()))[1]
    assert doc["nodes"] == [{"name": "node-1", "capacity": {"memory": 17179869184, "vcore": 8}},
                            {"name": "node-2", "capacity": {"memory": 17179869184, "vcore": 8}}]
    batch = next(a for a in doc["applications"] if a["id"] == "batch-1")
    assert batch["allocations"] == [
        {"id": "batch-1-0", "priority": -10, "resources": {"memory": 4294967296, "vcore": 4}, "node": "node-1",
         "createTime": "2024-05-01T09:00:01Z"},
        {"id": "batch-1-1", "priority": -10, "resources": {"memory": 4294967296, "vcore": 2}, "node": "node-2",
         "createTime": "2024-05-01T09:00:02Z"}]


def test_snapshot_keeps_originator_and_allow_preemption_when_served(tmp_path):
    sc = scenario("preemption-properties")

    def flags(apps):
        for a in apps:
            for t in a.get("allocations") or ():
                if t["allocationKey"] == "batch-1-0":
                    t["originator"] = True
                if t["allocationKey"] == "batch-1-1":
                    t["preemptable"] = False

    out = tmp_path / "s.yaml"
    with Replay(sc, faults={ACTIVE: ("body", active_with(sc, flags), "application/json")}) as srv:
        assert run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out)).exit_code == 0
        live, _ = ok_json("preempt", "--yunikorn", srv.url, "-o", "json")
    doc = list(yaml.safe_load_all(out.read_text()))[1]
    batch = {t["id"]: t for t in next(a for a in doc["applications"] if a["id"] == "batch-1")["allocations"]}
    assert batch["batch-1-0"].get("originator") is True and "allowPreemption" not in batch["batch-1-0"]
    assert batch["batch-1-1"].get("allowPreemption") is False and "originator" not in batch["batch-1-1"]
    back, _ = ok_json("preempt", str(out), "-o", "json")
    assert back == live


def test_anonymize_renames_allocations_consistently(tmp_path):
    sc = scenario("preemption-properties")
    out = tmp_path / "a.yaml"
    with Replay(sc) as srv:
        live, _ = ok_json("preempt", "--yunikorn", srv.url, "-o", "json")
        assert run_cli("snapshot", "--yunikorn", srv.url, "--anonymize", "--output-file", str(out)).exit_code == 0
    text = out.read_text()
    for name in ("web-1", "batch-1", "dev-1", "dev-2", "testuser"):
        assert name not in text
    doc = list(yaml.safe_load_all(text))[1]
    ids = [t["id"] for a in doc["applications"] for t in a.get("allocations", []) + a["asks"]]
    assert len(ids) == len(set(ids)) == 10
    assert all(i.startswith(a["id"] + "-") for a in doc["applications"] for i in [t["id"] for t in a.get("allocations", [])])
    back, _ = ok_json("preempt", str(out), "-o", "json")
    # The same analysis under the new names: the renaming, read off the two files' order.
    shape = lambda res: sorted((a["outcome"], a["node"], len(a["victims"]), len(a["eligibleVictims"]), a["reason"],
                                a["fenceRoot"] and a["fenceRoot"].count(".")) for a in res["asks"].values())
    assert shape(back) == shape(live)


def test_snapshot_from_native_files_keeps_allocations_and_nodes(tmp_path):
    sc = scenario("preemption-properties")
    out = tmp_path / "s.yaml"
    want, _ = ok_json("preempt", *native_args(sc), "-o", "json")
    assert run_cli("snapshot", *native_args(sc), "--output-file", str(out)).exit_code == 0
    back, _ = ok_json("preempt", str(out), "-o", "json")
    assert back == want


def test_snapshot_from_files_names_the_applications_the_placement_rules_reject(tmp_path):
    sc = scenario("conformance-placement-00009")
    out = tmp_path / "s.yaml"
    want, _ = ok_json("simulate", *native_args(sc), "-o", "json")
    j = run_cli("snapshot", *native_args(sc), "--output-file", str(out), "-o", "json")
    assert j.exit_code == 0, j.stderr
    assert sorted(json.loads(j.stdout)["rejected"]) == sorted(rejected_ids(sc))
    text = out.read_text()
    assert "# YuniKorn rejected 4 applications (never scheduled): app00, app03, app04, app05" in text
    back, _ = ok_json("simulate", str(out), "-o", "json")
    assert back == want  # kept with the queue they asked for: rejected again, with the same reason


# ---- prio diff --yunikorn -------------------------------------------------------------------------

def _changed_config(sc, tmp_path):
    with open(os.path.join(sc, "queues.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    assert "priority.offset: '10'" in text
    new = tmp_path / "new.yaml"
    new.write_text(text.replace("priority.offset: '10'", "priority.offset: '-10'"))
    return new


def test_diff_live_equals_the_diff_on_files(tmp_path):
    sc = scenario("walkthrough")
    new = _changed_config(sc, tmp_path)
    old = os.path.join(sc, "queues.yaml")
    files, _ = ok_json("diff", old, str(new), os.path.join(sc, "snapshot.yaml"), "-o", "json")
    with Replay(sc) as srv:
        live, _ = ok_json("diff", old, str(new), "--yunikorn", srv.url, "-o", "json")
        word, _ = ok_json("diff", "live", str(new), "--yunikorn", srv.url, "-o", "json")
        fail = run_cli("diff", "live", str(new), "--yunikorn", srv.url, "--fail-on", "priority", "-o", "json")
        same, _ = ok_json("diff", "live", "live", "--yunikorn", srv.url, "-o", "json")
        assert {m for m, _, _ in srv.requests} == {"GET"}
    assert files["queues"] == [{"queue": "root.tenants.tenant-a", "before": 10, "after": -10}]
    assert live == files
    assert word == files  # live: the config the server runs, findings included
    assert fail.exit_code == 1
    assert same["queues"] == [] and same["asks"] == [] and same["findings"] == {"added": [], "removed": []}


def test_diff_live_keeps_rejected_applications_rejected(tmp_path):
    sc = scenario("conformance-placement-00009")
    with Replay(sc) as srv:
        got, _ = ok_json("diff", "live", os.path.join(sc, "queues.yaml"), "--yunikorn", srv.url, "-o", "json")
    assert got["unscheduled"] == {"added": [], "removed": []} and got["asks"] == []


def test_diff_live_from_the_environment_only_for_the_word_live(tmp_path):
    sc = scenario("walkthrough")
    new = _changed_config(sc, tmp_path)
    with Replay(sc) as srv:
        env = {"PRIO_YUNIKORN_URL": srv.url}
        got, _ = ok_json("diff", "live", str(new), "-o", "json", env=env)
        assert got["queues"] and srv.requests
        n = len(srv.requests)
        # Two files: the environment does not send prio to the network.
        files, _ = ok_json("diff", os.path.join(sc, "queues.yaml"), str(new), os.path.join(sc, "snapshot.yaml"), "-o", "json", env=env)
        assert len(srv.requests) == n and files == got


def test_diff_live_bad_usage_is_one_line(tmp_path):
    sc = scenario("walkthrough")
    new = _changed_config(sc, tmp_path)
    one_line_exit_2(run_cli("diff", "live", str(new)), "live: means the config a running YuniKorn runs")
    with Replay(sc) as srv:
        one_line_exit_2(run_cli("diff", "live", str(new), os.path.join(sc, "snapshot.yaml"), "--yunikorn", srv.url),
                        "the pending work comes from --yunikorn")
        one_line_exit_2(run_cli("diff", os.path.join(sc, "snapshot.yaml"), str(new), "--yunikorn", srv.url),
                        "OLD and NEW are queue configs (or live")
        one_line_exit_2(run_cli("diff", "live", str(tmp_path / "nosuch.yaml"), "--yunikorn", srv.url), "no such file")
    with Replay(sc, faults={"/ws/v1/partition/default/applications/active": ("status", 500)}) as srv:
        one_line_exit_2(run_cli("diff", "live", str(new), "--yunikorn", srv.url), "HTTP 500", srv.url)
    one_line_exit_2(run_cli("diff", "a.yaml", "b.yaml", "--header", "X: y"), "goes with --yunikorn")


def test_diff_live_without_a_config_endpoint_uses_the_queue_tree(tmp_path):
    sc = scenario("walkthrough")
    new = _changed_config(sc, tmp_path)
    with Replay(sc, drop=("/ws/v1/config",)) as srv:
        got, r = ok_json("diff", "live", str(new), "--yunikorn", srv.url, "-o", "json")
    assert "no config endpoint" in r.stderr
    assert {"queue": "root.tenants.tenant-a", "before": 10, "after": -10} in got["queues"]


def test_diff_live_against_a_captured_snapshot_file_uses_its_config(tmp_path):
    sc = scenario("walkthrough")
    new = _changed_config(sc, tmp_path)
    captured = tmp_path / "incident.yaml"
    with Replay(sc) as srv:
        assert run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(captured)).exit_code == 0
        want, _ = ok_json("diff", "live", str(new), "--yunikorn", srv.url, "-o", "json")
        got, r = ok_json("diff", str(captured), str(new), "--yunikorn", srv.url, "-o", "json")
    assert f"{captured}: its pending work is ignored: the server's is used (--yunikorn)" in r.stderr
    assert got["queues"] == want["queues"] and got["asks"] == want["asks"]
