"""The caps on the work a small input asks for (prio.io.caps, issue 43 item 1): each is checked
before the work and refused with one line naming the input, exit 2; the environment raises it.
Hostile fixtures: a 5 KB snapshot of 50 asks of count 10,000,000, an Armada file of 2,000 jobs of
count 100,000, a gzip bomb in a ConfigMap's binaryData (as a file and through --kube), a
payload larger than the cap (refused, never cut)."""
from __future__ import annotations

import base64
import gzip
import json
import os
import time

import pytest

from conftest import run_cli, sample
from prio.yunikorn.load.native import MAX_COUNT


def _one_line(r, *words):
    """Exit 2 and one line (validate adds its summary line, `nothing checked: ...`)."""
    assert r.exit_code == 2, (r.stdout[-500:], r.stderr)
    lines = [ln for ln in r.stderr.splitlines() if not ln.startswith("nothing checked:")]
    assert len(lines) == 1 and r.stderr.startswith("prio: "), r.stderr
    for w in words:
        assert w in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def _snapshot(apps: int, asks: int, count: int) -> str:
    return json.dumps({"applications": [
        {"id": f"app-{i}", "queue": "root.tenant-a", "asks": [{"priority": 1, "count": count} for _ in range(asks)]}
        for i in range(apps)]})


@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_a_small_snapshot_of_huge_counts_is_refused_before_expanding(tmp_path, command):
    snap = tmp_path / "bomb.json"
    snap.write_text(_snapshot(1, 50, 10_000_000))
    assert snap.stat().st_size < 5000
    started = time.monotonic()
    r = run_cli(command, sample("walkthrough-queues.yaml"), str(snap))
    _one_line(r, "bomb.json", "asks in total", "PRIO_MAX_ASKS=N raises the cap")
    assert time.monotonic() - started < 10


def test_the_total_is_capped_across_applications_and_the_environment_raises_it(tmp_path, monkeypatch):
    snap = tmp_path / "asks.json"
    snap.write_text(_snapshot(3, 1, 2))  # 6 asks
    monkeypatch.setenv("PRIO_MAX_ASKS", "5")
    _one_line(run_cli("simulate", sample("walkthrough-queues.yaml"), str(snap)), "asks.json", "6 asks in total", "more than prio reads (5)")
    monkeypatch.setenv("PRIO_MAX_ASKS", "6")
    assert run_cli("simulate", sample("walkthrough-queues.yaml"), str(snap)).exit_code in (0, 1)
    snap.write_text(_snapshot(6, 1, 1))  # asks of count 1 count too
    monkeypatch.setenv("PRIO_MAX_ASKS", "5")
    _one_line(run_cli("simulate", sample("walkthrough-queues.yaml"), str(snap)), "asks.json", "6 asks in total")


@pytest.mark.parametrize("raw", ["lots", "0", "-3", "1e9", "99999999999999999999999"])
def test_a_cap_that_is_no_number_is_refused(tmp_path, monkeypatch, raw):
    monkeypatch.setenv("PRIO_MAX_ASKS", raw)
    _one_line(run_cli("simulate", sample("walkthrough-queues.yaml"), sample("walkthrough-asks.yaml")),
              "PRIO_MAX_ASKS", "must be a whole number above 0")


def test_a_rest_answer_of_huge_pending_counts_is_refused(tmp_path):
    apps = [{"applicationID": f"a{i}", "queueName": "root.tenant-a", "partition": "default",
             "requests": [{"allocationKey": f"k{j}", "priority": "1", "pendingCount": 9_000_000,
                           "resource": {"vcore": 1}} for j in range(50)]} for i in range(1)]
    f = tmp_path / "apps.json"
    f.write_text(json.dumps(apps))
    started = time.monotonic()
    r = run_cli("simulate", sample("walkthrough-queues.yaml"), str(f))
    _one_line(r, "apps.json", "asks in total", "PRIO_MAX_ASKS")
    assert time.monotonic() - started < 10


def _armada(current: bool) -> str:
    head = sample("armada-current.yaml" if current else "armada-scenario.yaml")
    with open(head, encoding="utf-8") as fh:
        text = fh.read()
    text = text[:text.index("\njobs:")]
    queue = "analytics"
    jobs = "".join(f"  - {{queue: {queue}, requests: {{cpu: '1', memory: 1Gi}}, count: 100000}}\n" for _ in range(2000))
    return text + "\njobs:\n" + jobs


@pytest.mark.parametrize("current", [True, False], ids=["current", "legacy"])
def test_an_armada_file_of_huge_counts_is_refused_before_expanding(tmp_path, current):
    f = tmp_path / "armada.yaml"
    f.write_text(_armada(current))
    started = time.monotonic()
    r = run_cli("simulate", str(f))
    _one_line(r, "armada.yaml", "jobs in total", "PRIO_MAX_JOBS=N raises the cap")
    assert time.monotonic() - started < 20


CONFIG = "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n          - name: a\n"


def _configmap(payload: bytes) -> str:
    b64 = base64.b64encode(gzip.compress(payload, 9)).decode()
    return ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n  namespace: yunikorn\n"
            f"binaryData:\n  queues.yaml.gz: {b64}\n")


def test_a_gzip_bomb_in_binary_data_is_refused_without_unpacking_it(tmp_path):
    f = tmp_path / "bomb.yaml"
    f.write_text(_configmap(CONFIG.encode() + b"#" + b" " * (400 * 1024 * 1024) + b"\n"))  # 400 MiB unpacked
    assert f.stat().st_size < 1024 * 1024
    started = time.monotonic()
    r = run_cli("validate", str(f))
    _one_line(r, "bomb.yaml", "binaryData.queues.yaml.gz unpacks to more than 16777216 bytes", "PRIO_MAX_UNPACKED_BYTES=N")
    assert time.monotonic() - started < 10


def test_a_payload_over_the_cap_is_refused_not_cut_and_the_environment_raises_it(tmp_path, monkeypatch):
    f = tmp_path / "cm.yaml"
    # a valid config followed by a comment: cut at the cap it would still parse, and pass silently
    f.write_text(_configmap(CONFIG.encode() + b"# " + b"x" * 5000 + b"\n"))
    assert run_cli("validate", str(f)).exit_code == 0
    monkeypatch.setenv("PRIO_MAX_UNPACKED_BYTES", "1000")
    _one_line(run_cli("validate", str(f)), "cm.yaml", "unpacks to more than 1000 bytes")
    monkeypatch.setenv("PRIO_MAX_UNPACKED_BYTES", "10000")
    assert run_cli("validate", str(f)).exit_code == 0


def test_two_gzip_members_are_read_as_gzip_reads_them(tmp_path):
    f = tmp_path / "cm.yaml"
    payload = base64.b64encode(gzip.compress(CONFIG[:40].encode()) + gzip.compress(CONFIG[40:].encode())).decode()
    f.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n"
                 f"binaryData:\n  queues.yaml.gz: {payload}\n")
    r = run_cli("validate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    f.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n"
                 f"binaryData:\n  queues.yaml.gz: {base64.b64encode(gzip.compress(CONFIG.encode())[:-12]).decode()}\n")
    _one_line(run_cli("validate", str(f)), "cm.yaml", "not base64 gzip")


def test_an_input_over_the_byte_cap_names_the_variable_that_raises_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIO_MAX_INPUT_BYTES", "100")
    _one_line(run_cli("simulate", sample("walkthrough-queues.yaml"), sample("walkthrough-asks.yaml")),
              "walkthrough-", "prio reads at most 100 bytes", "PRIO_MAX_INPUT_BYTES=N raises the cap")
    monkeypatch.delenv("PRIO_MAX_INPUT_BYTES")
    monkeypatch.setenv("PRIO_MAX_CONFIG_BYTES", "100")
    _one_line(run_cli("validate", sample("walkthrough-queues.yaml")), "walkthrough-queues.yaml", "PRIO_MAX_CONFIG_BYTES")


def test_through_kube_a_configmap_bomb_is_refused(tmp_path, monkeypatch):
    """A ConfigMap well under Kubernetes' 1 MiB that unpacks to 300 MiB, served by a kubectl."""
    cm = {"apiVersion": "v1", "kind": "List", "items": [{
        "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "yunikorn-configs", "namespace": "yunikorn"},
        "binaryData": {"queues.yaml.gz": base64.b64encode(gzip.compress(CONFIG.encode() + b"#" + b" " * (300 * 1024 * 1024), 9)).decode()}}]}
    (tmp_path / "cm.json").write_text(json.dumps(cm))
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "kubectl"
    exe.write_text(f"#!/bin/sh\ncase \"$*\" in *configmap*) cat {tmp_path / 'cm.json'};; "
                   "*) echo '{\"kind\": \"List\", \"items\": []}';; esac\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    assert (tmp_path / "cm.json").stat().st_size < 1024 * 1024
    started = time.monotonic()
    r = run_cli("simulate", "--kube")
    _one_line(r, "unpacks to more than")
    assert time.monotonic() - started < 20


# The caps hold over every input of a run (several snapshots, REST dumps and pod lists merge into
# one analysis), checked before the work; Kueue's objects are counted too.

def _native(path, prefix: str, apps: int, count: int = 1):
    path.write_text(json.dumps({"applications": [
        {"id": f"{prefix}{i}", "queue": "root.tenant-a", "asks": [{"priority": 1, "count": count}]} for i in range(apps)]}))
    return str(path)


def test_the_asks_cap_is_on_the_total_of_every_input(tmp_path, monkeypatch):
    one, two = _native(tmp_path / "one.json", "a", 3), _native(tmp_path / "two.json", "b", 3)
    monkeypatch.setenv("PRIO_MAX_ASKS", "5")
    for command in ("simulate", "explain", "preempt"):
        _one_line(run_cli(command, sample("walkthrough-queues.yaml"), one, two), "two.json",
                  "6 asks in total with the 3 of the inputs before it", "more than prio reads (5)")
    monkeypatch.setenv("PRIO_MAX_ASKS", "6")
    assert run_cli("simulate", sample("walkthrough-queues.yaml"), one, two).exit_code == 0


def test_an_input_of_huge_counts_after_another_is_refused_before_expanding(tmp_path, monkeypatch):
    one = _native(tmp_path / "one.json", "a", 40)
    two = _native(tmp_path / "two.json", "b", 1, count=MAX_COUNT)
    monkeypatch.setenv("PRIO_MAX_ASKS", str(MAX_COUNT))  # each file alone is within the cap
    assert run_cli("simulate", sample("walkthrough-queues.yaml"), one).exit_code == 0
    started = time.monotonic()
    _one_line(run_cli("simulate", sample("walkthrough-queues.yaml"), one, two), "two.json",
              f"{MAX_COUNT + 40} asks in total with the 40 of the inputs before it, counts expanded")
    assert time.monotonic() - started < 10


def test_rest_dumps_and_pod_lists_count_with_the_snapshots_before_them(tmp_path, monkeypatch):
    from conftest import TESTS

    rest = os.path.join(TESTS, "fixtures", "rest", "apps-group-a.json")
    pods = os.path.join(TESTS, "fixtures", "kubectl", "pods-with-classes.yaml")
    one = _native(tmp_path / "one.json", "a", 2)
    monkeypatch.setenv("PRIO_MAX_ASKS", "2")
    _one_line(run_cli("simulate", one, rest), "apps-group-a.json", "asks in total with the 2 of the inputs before it")
    _one_line(run_cli("simulate", sample("walkthrough-queues.yaml"), one, pods), "pods-with-classes.yaml",
              "pods in total with the 2 of the inputs before it", "PRIO_MAX_ASKS=N raises the cap")


def test_a_pod_list_is_counted_before_a_pod_is_read(tmp_path, monkeypatch):
    pods = sample("pods.json")
    with open(pods, encoding="utf-8") as fh:
        n = len(json.load(fh)["items"])
    monkeypatch.setenv("PRIO_MAX_ASKS", str(n - 1))
    _one_line(run_cli("simulate", pods), "pods.json", f"{n} pods in total, more than prio reads ({n - 1})")
    monkeypatch.setenv("PRIO_MAX_ASKS", str(n))
    assert run_cli("simulate", pods).exit_code in (0, 1)


def test_node_lists_are_counted_over_every_input(tmp_path, monkeypatch):
    from conftest import TESTS

    nodes = os.path.join(TESTS, "fixtures", "kube-cluster", "nodes.json")
    with open(nodes, encoding="utf-8") as fh:
        listed = json.load(fh)
    half = dict(listed, items=listed["items"][:2])
    rest = dict(listed, items=listed["items"][2:])
    (tmp_path / "a.json").write_text(json.dumps(half))
    (tmp_path / "b.json").write_text(json.dumps(rest))
    pods = os.path.join(TESTS, "fixtures", "kube-cluster", "pods.json")
    monkeypatch.setenv("PRIO_MAX_OBJECTS", "3")
    _one_line(run_cli("simulate", pods, str(tmp_path / "a.json"), str(tmp_path / "b.json")), "b.json",
              "4 nodes in total with the 2 of the inputs before it", "PRIO_MAX_OBJECTS=N raises the cap")


def _kueue_copy(tmp_path, name: str) -> str:
    with open(sample("kueue.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    (tmp_path / name).write_text(text)
    return str(tmp_path / name)


def test_kueue_objects_are_counted_over_every_file_before_one_is_read(tmp_path, monkeypatch):
    import yaml

    f = _kueue_copy(tmp_path, "kueue.yaml")
    with open(f, encoding="utf-8") as fh:
        n = sum(1 for d in yaml.safe_load_all(fh) if d)
    monkeypatch.setenv("PRIO_MAX_OBJECTS", str(n - 1))
    _one_line(run_cli("simulate", f), "kueue.yaml", f"{n} Kueue objects in total, more than prio reads ({n - 1})",
              "PRIO_MAX_OBJECTS=N raises the cap")
    monkeypatch.setenv("PRIO_MAX_OBJECTS", str(n))
    assert run_cli("simulate", f).exit_code == 0
    extra = tmp_path / "more.yaml"
    extra.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: spare\n")
    _one_line(run_cli("simulate", f, str(extra)), "more.yaml", f"{n + 1} Kueue objects in total with the {n} of the inputs before it")


@pytest.mark.parametrize("where,many,words", [
    # (each podSet with its template, which the CRD requires: else that is the first refusal)
    ("  podSets:\n  - name: main\n    count: 1\n    template: {spec: {containers: [{name: c, image: busybox, resources: "
     "{requests: {cpu: 2}}}]}}\n", 19, "19 podSets: the API server refuses more than 18 (Kueue's CRD)"),
    ("      resources:\n      - name: cpu\n        nominalQuota: 6\n", 65, "65 resources: the API server refuses more than 64"),
])
def test_kueue_lists_longer_than_its_crd_allows_are_skipped(tmp_path, where, many, words):
    """The API server refuses the object: simulate skips it, in one note (tests/kueue/test_kueue_skipped.py)."""
    with open(sample("kueue.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    assert where in text
    head, item = where.split("\n", 1)
    first, rest = item.split("\n", 1)
    items = "".join(first.replace("main", f"p{i}").replace("cpu", f"r{i}") + "\n" + rest for i in range(many))
    f = tmp_path / "k.yaml"
    f.write_text(text.replace(where, head + "\n" + items, 1))
    r = run_cli("simulate", str(f))
    (note,) = [ln for ln in r.stderr.splitlines() if ln.endswith("(skipped: the API server refuses this object)")]
    assert r.exit_code == 0 and "k.yaml:" in note and words in note, r.stderr


def test_a_rest_dump_read_as_a_server_counts_its_queues_and_applications(tmp_path, monkeypatch):
    """The reading of --yunikorn (a dump saved by URL is read as the server it recorded)."""
    import shutil

    from conftest import shared

    top = tmp_path / "dump"
    shutil.copytree(os.path.join(shared("testdata", "yunikorn-rest-live", "walkthrough"), "ws"), top / "ws")
    d = top / "ws" / "v1" / "partition" / "default"
    active = d / "applications" / "active.json"
    apps = json.loads(active.read_text())
    more = [dict(a, applicationID=f"{a['applicationID']}-{i}") for i in range(3) for a in apps]
    active.write_text(json.dumps(apps + more))  # 12 queues, 28 applications
    assert run_cli("simulate", str(d)).exit_code == 0
    monkeypatch.setenv("PRIO_MAX_OBJECTS", "11")
    _one_line(run_cli("simulate", str(d)), "queues.json", "12 queues in the dump, more than prio reads (11)", "PRIO_MAX_OBJECTS=N")
    monkeypatch.setenv("PRIO_MAX_OBJECTS", "20")
    _one_line(run_cli("simulate", str(d)), "applications/active", "28 applications, more than prio reads (20)", "PRIO_MAX_OBJECTS=N")
