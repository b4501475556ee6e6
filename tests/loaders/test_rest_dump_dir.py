"""A REST dump saved by URL (`ws/v1/partition/default/queues.json`, `applications/active.json`
one level down: ../shared/testdata/yunikorn-rest-live's layout, curl --create-dirs'): read as the
server it recorded (prio.yunikorn.load.restdump), the same answer as --yunikorn against that server; or
one line saying what is missing. Never "No pending asks" while the queues report pending work."""
import json
import os
import shutil

import pytest

from conftest import SHARED, run_cli, shared
from yunikorn_replay import Replay

LIVE = os.path.join(SHARED, "testdata", "yunikorn-rest-live")
SCENARIOS = sorted(d for d in os.listdir(LIVE) if os.path.isdir(os.path.join(LIVE, d))) if os.path.isdir(LIVE) else []


def partition_dir(scenario, *more):
    return os.path.join(shared("testdata", "yunikorn-rest-live", scenario), "ws", "v1", "partition", "default", *more)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_a_partition_folder_reads_as_the_server_it_recorded(scenario, command):
    with Replay(os.path.join(LIVE, scenario)) as srv:
        served = run_cli(command, "--yunikorn", srv.url, "-o", "json")
    saved = run_cli(command, partition_dir(scenario) + os.sep, "-o", "json")
    assert saved.exit_code == served.exit_code == 0, saved.stderr
    assert json.loads(saved.stdout) == json.loads(served.stdout)


def test_every_level_of_the_url_tree_is_the_dump():
    d = partition_dir("walkthrough")
    want = json.loads(run_cli("explain", d, "-o", "json").stdout)
    assert len(want["asks"]) == 11  # it said "No pending asks", exit 0
    for _up in (1, 2, 3):  # ws/v1/partition, ws/v1, ws
        d = os.path.dirname(d)
        r = run_cli("explain", d, "-o", "json")
        assert r.exit_code == 0, r.stderr
        assert json.loads(r.stdout) == want


def test_a_dump_without_the_applications_says_what_to_save(tmp_path):
    d = tmp_path / "default"
    os.makedirs(d / "applications")
    shutil.copy(partition_dir("walkthrough", "queues.json"), d / "queues.json")
    r = run_cli("explain", str(d))
    assert r.exit_code == 2 and r.stdout == ""
    assert "applications/active.json: not in the saved dump: save GET /ws/v1/partition/default/applications/active here" in r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_a_dump_without_the_queues_says_what_to_save(tmp_path):
    d = tmp_path / "dump"
    shutil.copytree(os.path.join(LIVE, "walkthrough", "ws"), d / "ws")
    os.remove(d / "ws" / "v1" / "partition" / "default" / "queues.json")
    r = run_cli("simulate", str(d))
    assert r.exit_code == 2 and "save GET /ws/v1/partition/default/queues here" in r.stderr, r.stderr


def test_a_queues_dump_reporting_pending_work_without_applications_is_refused():
    r = run_cli("explain", partition_dir("walkthrough", "queues.json"))
    assert r.exit_code == 2, r.stdout
    assert "the queues report pending asks (currentPriority root 1001" in r.stderr and "applications/active" in r.stderr
    drained = run_cli("explain", os.path.join(LIVE, "walkthrough-drained", "ws", "v1", "partition", "default", "queues.json"))
    assert drained.exit_code == 0 and "No pending asks" in drained.stdout  # nothing pending: true


def test_a_dump_is_read_alone():
    r = run_cli("explain", partition_dir("walkthrough"), os.path.join(LIVE, "walkthrough", "queues.yaml"))
    assert r.exit_code == 2 and "is read alone" in r.stderr


def test_a_snapshot_of_a_saved_dump_is_the_snapshot_of_the_server(tmp_path):
    with Replay(os.path.join(LIVE, "walkthrough")) as srv:
        run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(tmp_path / "served.yaml"))
    r = run_cli("snapshot", partition_dir("walkthrough"), "--output-file", str(tmp_path / "saved.yaml"))
    assert r.exit_code == 0, r.stderr
    a, b = (json.loads(run_cli("simulate", str(tmp_path / f), "-o", "json").stdout) for f in ("served.yaml", "saved.yaml"))
    assert a == b and len(a["steps"]) == 11


@pytest.mark.parametrize("cwd_up, given", [
    (4, "ws"),  # docs/live.md's way in: from the dump's top
    (3, "v1"), (2, "partition"), (1, "default"), (0, "."),
])
@pytest.mark.parametrize("command", ["explain", "simulate", "preempt", "snapshot"])
def test_a_relative_path_from_inside_the_dump_reads_it(cwd_up, given, command, tmp_path, monkeypatch):
    # A relative name has no parent in its own text ("ws"'s dirname is ""): the dump's top is
    # the working directory (or above it), not a missing path and an internal error.
    d = partition_dir("walkthrough")
    for _ in range(cwd_up):
        d = os.path.dirname(d)
    monkeypatch.chdir(d)
    out = ["--output-file", str(tmp_path / "snap.yaml")] if command == "snapshot" else ["-o", "json"]
    r = run_cli(command, given, *out)
    assert r.exit_code == 0, r.stderr
    if command in ("explain", "simulate"):
        want = json.loads(run_cli(command, partition_dir("walkthrough"), "-o", "json").stdout)
        assert json.loads(r.stdout) == want
