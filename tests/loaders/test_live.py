"""--yunikorn URL and prio snapshot against a replayed YuniKorn REST API (a real HTTP server on
127.0.0.1 serving ../shared/testdata/yunikorn-rest-live at YuniKorn's paths), and every fault."""
import json
import os
import re
import socket

import pytest

from conftest import SHARED, run_cli, sample, shared
from yunikorn_replay import Replay

LIVE = os.path.join(SHARED, "testdata", "yunikorn-rest-live")
SCENARIOS = sorted(d for d in os.listdir(LIVE) if os.path.isdir(os.path.join(LIVE, d))) if os.path.isdir(LIVE) else []
MIN32 = -2147483648


def scenario(name):
    return shared("testdata", "yunikorn-rest-live", name)


def served_priorities(sc, partition="default"):
    with open(os.path.join(sc, "ws", "v1", "partition", partition, "queues.json"), encoding="utf-8") as fh:
        root = json.load(fh)
    out, stack = {}, [root]
    while stack:
        q = stack.pop()
        out[q["queuename"]] = None if q["currentPriority"] == MIN32 else q["currentPriority"]
        stack += q.get("children") or []
    return out


def manifest(sc):
    with open(os.path.join(sc, "manifest.json"), encoding="utf-8") as fh:
        return json.load(fh)


def rejected_ids(sc, partition="default"):
    with open(os.path.join(sc, "ws", "v1", "partition", partition, "applications", "rejected.json"), encoding="utf-8") as fh:
        return [a["applicationID"] for a in json.load(fh)]


def ok_json(*args, env=None):
    r = run_cli(*args, env=env)
    assert r.exit_code == 0, r.stderr + r.stdout
    return json.loads(r.stdout), r


def native_args(sc, partition="default"):
    snap = "snapshot.yaml" if partition == "default" else f"snapshot.{partition}.yaml"
    return [os.path.join(sc, "queues.yaml"), os.path.join(sc, snap)] + (["--partition", partition] if partition != "default" else [])


def cases():
    out = []
    for name in SCENARIOS:
        parts = ["default"]
        if os.path.exists(os.path.join(LIVE, name, "snapshot.gpu.yaml")):
            parts.append("gpu")
        out += [(name, p) for p in parts]
    return out or [("walkthrough", "default")]


# ---- the recorded states, end to end -------------------------------------------------------------

@pytest.mark.parametrize("name,partition", cases())
def test_queue_priorities_equal_served_current_priority(name, partition):
    sc = scenario(name)
    with Replay(sc) as srv:
        got, r = ok_json("explain", "--yunikorn", srv.url, "--partition", partition, "-o", "json")
        assert all(m == "GET" for m, _, _ in srv.requests)
    mine = {q["queue"]: q["priority"] for q in got["queues"]}
    served = served_priorities(sc, partition)
    assert mine == served
    assert "differ" not in r.stderr  # explain's own comparison with currentPriority found nothing


@pytest.mark.parametrize("name,partition", cases())
def test_live_equals_the_native_files(name, partition):
    sc = scenario(name)
    with Replay(sc) as srv:
        live_explain, _ = ok_json("explain", "--yunikorn", srv.url, "--partition", partition, "-o", "json")
        live_sim, _ = ok_json("simulate", "--yunikorn", srv.url, "--partition", partition, "-o", "json")
    file_explain, _ = ok_json("explain", *native_args(sc, partition), "-o", "json")
    file_sim, _ = ok_json("simulate", *native_args(sc, partition), "-o", "json")
    # Rejected applications: the same ones, with YuniKorn's reason, in the same order. YuniKorn
    # serves an empty queueName for them (it does not keep the queue they asked for), where the
    # native run knows the queue from the snapshot.
    for doc in (file_explain, file_sim):
        for r in doc.get("rejected", ()):
            r["queue"] = ""
    assert sorted(r["application"] for r in live_explain.get("rejected", ())) == sorted(rejected_ids(sc, partition))
    assert live_explain == file_explain
    # The unscheduled list follows the input's application order, which differs (the live
    # loader sorts YuniKorn's map order by submit time); its content must not.
    key = lambda u: (u["application"], u["ask"])
    assert sorted(live_sim.pop("unscheduled"), key=key) == sorted(file_sim.pop("unscheduled"), key=key)
    # A live server serves its nodes, so its steps name the node each ask goes to; the native
    # files give the same cluster as a `capacity` (one node) where they can.
    nodes = [s.pop("node", None) for s in live_sim["steps"]]
    file_nodes = [s.pop("node", None) for s in file_sim["steps"]]
    assert live_sim == file_sim
    assert None not in nodes
    assert file_nodes == nodes or set(file_nodes) == {None}


@pytest.mark.parametrize("name,partition", cases())
def test_snapshot_round_trips(name, partition, tmp_path):
    sc = scenario(name)
    out = tmp_path / "snap.yaml"
    with Replay(sc) as srv:
        live_explain, _ = ok_json("explain", "--yunikorn", srv.url, "--partition", partition, "-o", "json")
        live_sim, _ = ok_json("simulate", "--yunikorn", srv.url, "--partition", partition, "-o", "json")
        r = run_cli("snapshot", "--yunikorn", srv.url, "--partition", partition, "--output-file", str(out))
        assert r.exit_code == 0, r.stderr
        assert all(m == "GET" for m, _, _ in srv.requests)
    assert f"wrote {out}" in r.stderr
    back_explain, _ = ok_json("explain", str(out), "-o", "json")
    back_sim, _ = ok_json("simulate", str(out), "-o", "json")
    assert back_explain == live_explain
    assert back_sim == live_sim
    # The first document is a queues.yaml YuniKorn (and prio validate) accept.
    v = run_cli("validate", str(out), "-o", "json")
    assert json.loads(v.stdout)["summary"]["errors"] == 0, v.stdout


def test_rejected_applications_are_listed(tmp_path):
    sc = scenario("conformance-placement-00009")
    ids = rejected_ids(sc)
    assert ids
    out = tmp_path / "s.yaml"
    with Replay(sc) as srv:
        got, r = ok_json("explain", "--yunikorn", srv.url, "-o", "json")
        sim, _ = ok_json("simulate", "--yunikorn", srv.url, "-o", "json")
        plain = run_cli("simulate", "--yunikorn", srv.url, "-o", "plain")
        s = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out), "-o", "json")
    for app in ids:
        assert app in r.stderr  # named, with YuniKorn's reason
        assert all(a["application"] != app for a in got["asks"])
        assert all(st["application"] != app for st in sim["steps"])
    assert "no placement rule matched" in r.stderr
    for doc in (got, sim):  # listed like a file run lists them, with YuniKorn's own reason
        assert sorted(x["application"] for x in doc["rejected"]) == sorted(ids)
        assert all(x["queue"] == "" and x["reason"] == f"failed to place application {x['application']}: "
                   "application rejected: no placement rule matched" for x in doc["rejected"])
    assert "Rejected applications" in plain.stdout
    summary = json.loads(s.stdout)
    assert sorted(summary["rejected"]) == sorted(ids)
    # The snapshot keeps them as rejected applications (state: Rejected, YuniKorn's reason, no
    # queue: YuniKorn does not serve the one they asked for), so a round trip keeps them rejected.
    import yaml

    snap = list(yaml.safe_load_all(out.read_text()))[1]
    kept = [a for a in snap["applications"] if a.get("state") == "Rejected"]
    assert sorted(a["id"] for a in kept) == sorted(ids)
    assert all("queue" not in a and "no placement rule matched" in a["rejectedMessage"] and a["user"] == "testuser" for a in kept)
    back, _ = ok_json("explain", str(out), "-o", "json")
    back_sim, _ = ok_json("simulate", str(out), "-o", "json")
    assert back["rejected"] == got["rejected"] and back_sim["rejected"] == sim["rejected"]


def test_rejected_state_in_a_native_snapshot(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("applications:\n"
                 "  - {id: a, queue: root.x, asks: [{priority: 1}]}\n"
                 "  - {id: b, state: Rejected, rejectedMessage: 'no rule', asks: [{priority: 9}]}\n"
                 "  - {id: c, queue: root.y, state: rejected, asks: [{priority: 5}]}\n")
    got, _ = ok_json("simulate", str(f), "-o", "json")
    assert [s["application"] for s in got["steps"]] == ["a"]
    assert got["rejected"] == [{"application": "b", "queue": "", "reason": "no rule"},
                               {"application": "c", "queue": "root.y", "reason": "application c was rejected by YuniKorn (state: Rejected)"}]
    f.write_text("applications:\n  - {id: b, state: Running, asks: []}\n")
    r = run_cli("explain", str(f))
    assert r.exit_code == 2 and "application b names no queue, and without a queue config" in r.stderr


# ---- the shapes a client must handle ------------------------------------------------------------

def test_config_served_as_json_with_go_field_names():
    sc = scenario("conformance-limits-00002")
    with open(os.path.join(sc, "ws", "v1", "config.json"), "rb") as fh:
        body = fh.read()
    with Replay(sc) as srv:
        want, _ = ok_json("explain", "--yunikorn", srv.url, "-o", "json")
    with Replay(sc, faults={"/ws/v1/config": ("body", body, "application/json; charset=UTF-8")}) as srv:
        got, r = ok_json("explain", "--yunikorn", srv.url, "-o", "json", "-v")
    assert got == want
    assert "JSON, Go field names" in r.stderr


def test_a_served_config_yunikorn_would_refuse_is_noted_first():
    """live.fetch runs no lint rule: the command checks the served config (prio.yunikorn.lint.judged.check_config)
    and its note comes where the config was read, before the notes of what was fetched after it."""
    with open(sample("mistakes.yaml"), "rb") as fh:
        body = fh.read()
    with Replay(scenario("walkthrough"), faults={"/ws/v1/config": ("body", body, "application/x-yaml")}) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "-o", "json")
    notes = [line for line in r.stderr.splitlines() if line.startswith("prio: note:")]
    assert r.exit_code == 0 and len(notes) > 1
    assert notes[0].startswith(f"prio: note: {srv.url}/ws/v1/config: YuniKorn would refuse this config: line 7: PRIO131 ")


def test_config_yaml_is_asked_for_and_extra_keys_dropped(tmp_path):
    sc = scenario("walkthrough")
    out = tmp_path / "s.yaml"
    with Replay(sc) as srv:
        assert run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out)).exit_code == 0
        accepts = [h.get("Accept") for _, p, h in srv.requests if p == "/ws/v1/config"]
    assert accepts and "application/x-yaml" in accepts[0]
    text = out.read_text()
    assert "deadlock" not in text and "checksum" not in text


def test_older_yunikorn_without_the_applications_endpoint_reads_queue_by_queue(monkeypatch):
    sc = scenario("conformance-prio-00008")
    from prio.yunikorn.load import live

    monkeypatch.setattr(live, "PROGRESS_EVERY", 2)
    with Replay(sc) as srv:
        want, _ = ok_json("simulate", "--yunikorn", srv.url, "-o", "json")
    with Replay(sc, drop=("/ws/v1/partition/default/applications/active",)) as srv:
        got, r = ok_json("simulate", "--yunikorn", srv.url, "-o", "json")
        per_queue = [p for _, p, _ in srv.requests if p.endswith("/applications") and "/queue/" in p]
    assert got == want
    assert per_queue
    assert "applications/active: not on this server (HTTP 404" in r.stderr
    assert "fetched the applications of" in r.stderr  # the progress line


def test_no_config_endpoint_falls_back_to_the_queue_tree():
    sc = scenario("walkthrough")
    with Replay(sc, drop=("/ws/v1/config",)) as srv:
        got, r = ok_json("explain", "--yunikorn", srv.url, "-o", "json")
    assert {q["queue"]: q["priority"] for q in got["queues"]} == served_priorities(sc)
    assert "no config endpoint" in r.stderr


def test_snapshot_from_the_queue_tree_alone_round_trips(tmp_path):
    sc = scenario("conformance-limits-00002")
    out = tmp_path / "s.yaml"
    with Replay(sc, drop=("/ws/v1/config",)) as srv:
        live_explain, _ = ok_json("explain", "--yunikorn", srv.url, "-o", "json")
        assert run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out)).exit_code == 0
    back, _ = ok_json("explain", str(out), "-o", "json")
    assert {q["queue"]: q["priority"] for q in back["queues"]} == {q["queue"]: q["priority"] for q in live_explain["queues"]}
    assert back["asks"] == live_explain["asks"]


def test_verbose_says_what_was_fetched_from_where_and_the_shape():
    sc = scenario("preemption-properties")
    with Replay(sc) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "-o", "json", "-v")
        assert r.exit_code == 0
        for path in ("/ws/v1/partitions", "/ws/v1/config", "/ws/v1/partition/default/queues",
                     "/ws/v1/partition/default/applications/active"):
            assert f"GET {srv.url}{path} -> 200" in r.stderr
    assert "REST shape seen: current" in r.stderr and "isPreemptionFence" in r.stderr
    assert "4 active applications with 6 pending asks" in r.stderr


def test_older_shape_without_priority_fields_is_named():
    from prio.yunikorn.load.live import queue_shape

    assert "older" in queue_shape({"queuename": "root", "children": [{"queuename": "root.a"}]})
    assert "no preemption fields" in queue_shape({"queuename": "root", "isPriorityFence": False, "currentPriority": 1})
    assert "0.12" in queue_shape({"queuename": "root", "maxResource": "[memory:1 vcore:1]"})


def test_newer_queue_fields_are_read():
    sc = scenario("preemption-properties")
    from prio.io import yamlnodes
    from prio.yunikorn.load import rest

    with open(os.path.join(sc, "ws", "v1", "partition", "default", "queues.json"), encoding="utf-8") as fh:
        text = fh.read()
    infos, _ = rest.load_queues("q.json", yamlnodes.load("q.json", text)[0])
    by = {q.path: q for q in infos}
    assert by["root.prod.batch"].preemption_enabled is False
    assert by["root.prod"].preemption_fence is True
    assert by["root.prod.web"].preemption_delay == "10s"
    assert by["root.dev"].priority_sorting is False


def test_partition_choice_and_unknown_partition():
    sc = scenario("two-partitions")
    with Replay(sc) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "-o", "json")
        assert r.exit_code == 0 and "also has gpu" in r.stderr
        r = run_cli("explain", "--yunikorn", srv.url, "--partition", "nosuch", "-o", "json")
    assert r.exit_code == 2
    assert "no partition 'nosuch' on this server (partitions: default, gpu)" in r.stderr


# ---- options and environment --------------------------------------------------------------------

def test_url_from_the_environment_and_headers_sent(monkeypatch):
    sc = scenario("walkthrough")
    with Replay(sc) as srv:
        env = {"PRIO_YUNIKORN_URL": srv.url, "PRIO_YUNIKORN_HEADER": "Authorization: Bearer s3cret\nX-Team: a"}
        got, _ = ok_json("explain", "-o", "json", env=env)
        r = run_cli("simulate", "--yunikorn", srv.url, "--header", "X-Extra: 1", "-o", "json")
        assert r.exit_code == 0
        first = srv.requests[0][2]
        last = srv.requests[-1][2]
    assert got["queues"]
    assert first.get("Authorization") == "Bearer s3cret" and first.get("X-Team") == "a"
    assert last.get("X-Extra") == "1" and "Authorization" not in last


def test_yunikorn_with_input_files_is_refused():
    with Replay(scenario("walkthrough")) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "x.yaml")
        assert r.exit_code == 2 and "give no input files" in r.stderr
        assert srv.requests == []


@pytest.mark.parametrize("args,msg", [
    (["--header", "Authorization Bearer x"], "expected 'Name: value'"),
    (["--timeout", "0.5"], "goes with --yunikorn"),
    (["--yunikorn", "ftp://127.0.0.1:1"], "only http:// and https://"),
    (["--yunikorn", "http://127.0.0.1:1", "--cacert", "ca.pem"], "goes with an https:// URL"),
    (["--yunikorn", "https://127.0.0.1:1", "--cacert", "/nonexistent/ca.pem"], "no such file (--cacert)"),
])
def test_bad_options_are_one_line(args, msg):
    if "--header" in args:
        args = ["--yunikorn", "http://127.0.0.1:1"] + args
    r = run_cli("explain", *args)
    assert r.exit_code == 2, r.stdout
    assert msg in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_bad_cacert_file_is_one_line(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("not a certificate\n")
    r = run_cli("explain", "--yunikorn", "https://127.0.0.1:1", "--cacert", str(ca))
    assert r.exit_code == 2 and "not a PEM CA certificate bundle" in r.stderr


# ---- faults: every one is a single line and exit 2 ----------------------------------------------

QUEUES = "/ws/v1/partition/default/queues"


@pytest.mark.parametrize("faults,drop,msg", [
    ({QUEUES: ("status", 500, "internal failure")}, (), "HTTP 500"),
    ({QUEUES: ("status", 503)}, (), "HTTP 503"),
    ({"/ws/v1/partitions": ("status", 401)}, (), "HTTP 401"),
    ({QUEUES: ("status", 403)}, (), "HTTP 403"),
    ({}, (QUEUES,), "HTTP 404"),
    ({}, ("/ws/v1/partitions",), "HTTP 404"),
    ({QUEUES: ("truncate",)}, (), "truncated body"),
    ({QUEUES: ("ctype", "text/html; charset=utf-8")}, (), "expected JSON, the server sent text/html"),
    ({QUEUES: ("body", b'{"queuename": "root", ', "application/json")}, (), "JSON cut short"),
    ({QUEUES: ("body", b"<html>hi</html>", "application/json")}, (), "invalid JSON"),
    ({QUEUES: ("body", b'{"queuename": 5}', "application/json")}, (), "queuename"),
    ({"/ws/v1/partitions": ("body", b'{"a": 1}', "application/json")}, (), "expected a list of partitions"),
    ({"/ws/v1/partition/default/applications/active": ("body", b'[{"applicationID": "a", "queueName": "root.x", "requests": [{"priority": "high"}]}]', "application/json")}, (), "is not an integer"),
])
def test_faults(faults, drop, msg):
    with Replay(scenario("walkthrough"), faults=faults, drop=drop) as srv:
        for cmd in ("explain", "simulate"):
            r = run_cli(cmd, "--yunikorn", srv.url, "-o", "json")
            assert r.exit_code == 2, (cmd, r.stdout)
            assert msg in r.stderr, r.stderr
            assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
            assert srv.url in r.stderr  # names the URL it failed on
            assert r.stdout == ""
        assert all(m == "GET" for m, _, _ in srv.requests)


def test_404_names_the_endpoint_an_older_yunikorn_lacks():
    with Replay(scenario("walkthrough"), drop=(QUEUES,)) as srv:
        r = run_cli("explain", "--yunikorn", srv.url)
    assert r.exit_code == 2
    assert f"{srv.url}{QUEUES}: HTTP 404" in r.stderr and "older" in r.stderr


def test_credentials_never_appear_in_messages():
    with Replay(scenario("walkthrough"), faults={"/ws/v1/partitions": ("status", 401)}) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "--header", "Authorization: Bearer topsecret")
    assert r.exit_code == 2 and "topsecret" not in r.stderr and "--header" in r.stderr


def test_slow_server_times_out():
    with Replay(scenario("walkthrough"), faults={QUEUES: ("slow", 30)}) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "--timeout", "0.2")
    assert r.exit_code == 2
    assert "timed out after 0.2 s" in r.stderr and "--timeout" in r.stderr


def test_connection_refused():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    r = run_cli("explain", "--yunikorn", f"http://127.0.0.1:{port}")
    assert r.exit_code == 2
    assert "connection refused" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_redirects_are_not_followed():
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:9/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        r = run_cli("explain", "--yunikorn", f"http://127.0.0.1:{srv.server_address[1]}")
    finally:
        srv.shutdown()
        srv.server_close()
    assert r.exit_code == 2 and "redirected to http://127.0.0.1:9/elsewhere" in r.stderr


def test_the_client_sends_only_get():
    from prio.io import http

    c = http.Client("http://127.0.0.1:1")
    assert not hasattr(c, "post") and not hasattr(c, "put")
    with Replay(scenario("walkthrough")) as srv:
        ok_json("simulate", "--yunikorn", srv.url, "-o", "json")
        ok_json("explain", "--yunikorn", srv.url, "-o", "json")
        assert srv.requests and {m for m, _, _ in srv.requests} == {"GET"}


# ---- prio snapshot ------------------------------------------------------------------------------

def test_anonymize_is_consistent_and_deterministic(tmp_path):
    sc = scenario("preemption-properties")
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    with Replay(sc) as srv:
        live, _ = ok_json("simulate", "--yunikorn", srv.url, "-o", "json")
        for f in (a, b):
            assert run_cli("snapshot", "--yunikorn", srv.url, "--anonymize", "--output-file", str(f)).exit_code == 0
    text = a.read_text()
    assert text == b.read_text()
    for name in ("web-1", "batch-1", "dev-1", "dev-2", "testuser"):
        assert name not in text
    assert re.search(r"user: n\d+\n", text) and "app-1" in text
    back, _ = ok_json("simulate", str(a), "-o", "json")
    # The same schedule, under the new names (queues renamed too, one name for one name).
    shape = lambda out: [(s["step"], s["queue"].count("."), s["priority"]) for s in out["steps"]]
    assert shape(back) == shape(live)
    assert len({(s["queue"], t["queue"]) for s, t in zip(back["steps"], live["steps"])}) == len({s["queue"] for s in live["steps"]})
    assert len(back["unscheduled"]) == len(live["unscheduled"])


def test_anonymize_keeps_tie_order_with_many_apps():
    from prio.yunikorn.render.anonymize import Names

    n = Names(True)
    old = [f"z{i}" for i in range(12)]
    for a in old:
        n.see_app(a)
    n.see_ask("z0", "k")
    n.freeze()
    got = [n.app(a) for a in old]
    assert [got[old.index(a)] for a in sorted(old)] == sorted(got) and n.app("z0") == "app-01"
    assert n.ask("z0", "k") == "app-01-1"


def test_snapshot_from_rest_dumps_round_trips(tmp_path):
    sc = scenario("conformance-prio-00008")
    q = os.path.join(sc, "ws", "v1", "partition", "default", "queues.json")
    apps = os.path.join(sc, "ws", "v1", "partition", "default", "applications", "active.json")
    out = tmp_path / "s.yaml"
    want, _ = ok_json("explain", q, apps, "-o", "json")
    want_sim, _ = ok_json("simulate", q, apps, "-o", "json")
    r = run_cli("snapshot", q, apps, "--output-file", str(out))
    assert r.exit_code == 0, r.stderr
    back, _ = ok_json("explain", str(out), "-o", "json")
    back_sim, _ = ok_json("simulate", str(out), "-o", "json")
    assert {x["queue"]: x["priority"] for x in back["queues"]} == {x["queue"]: x["priority"] for x in want["queues"]}
    assert back["asks"] == want["asks"]
    assert back_sim == want_sim


def test_snapshot_from_a_config_and_pod_list_keeps_the_config_text(tmp_path):
    from conftest import sample

    out = tmp_path / "s.yaml"
    cfg = sample("batch-queues.yaml")
    asks = sample("batch-asks.yaml")
    if not os.path.exists(cfg):
        pytest.skip("no batch sample")
    want, _ = ok_json("simulate", cfg, asks, "-o", "json")
    assert run_cli("snapshot", cfg, asks, "--output-file", str(out)).exit_code == 0
    with open(cfg, encoding="utf-8") as fh:
        first_doc = fh.read().split("\n---")[0].strip()
    assert first_doc.splitlines()[-1] in out.read_text()
    back, _ = ok_json("simulate", str(out), "-o", "json")
    assert back == want


def test_snapshot_to_stdout_and_json_summary(tmp_path):
    sc = scenario("walkthrough")
    with Replay(sc) as srv:
        r = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", "-")
        j = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(tmp_path / "x.yaml"), "-o", "json")
    assert r.exit_code == 0 and r.stdout.count("\n---\n") == 1 and "applications:" in r.stdout
    s = json.loads(j.stdout)
    assert s["applications"] == 7 and s["pendingAsks"] == 11 and s["rejected"] == []


def test_snapshot_needs_an_output_file_and_never_writes_an_input(tmp_path):
    sc = scenario("walkthrough")
    r = run_cli("snapshot", os.path.join(sc, "queues.yaml"))
    assert r.exit_code == 2 and "--output-file" in r.stderr
    inp = tmp_path / "q.yaml"
    with open(os.path.join(sc, "queues.yaml"), encoding="utf-8") as fh:
        inp.write_text(fh.read())
    r = run_cli("snapshot", str(inp), "--output-file", str(inp))
    assert r.exit_code == 2 and "is one of the inputs" in r.stderr
    r = run_cli("snapshot", "--output-file", str(tmp_path / "x.yaml"))
    assert r.exit_code == 2 and "give --yunikorn URL or input files" in r.stderr


def test_failed_fetch_writes_nothing(tmp_path):
    out = tmp_path / "s.yaml"
    with Replay(scenario("walkthrough"), faults={QUEUES: ("status", 500)}) as srv:
        r = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(out))
    assert r.exit_code == 2 and not out.exists() and os.listdir(tmp_path) == []


def test_url_from_the_environment_does_not_hide_input_files():
    sc = scenario("walkthrough")
    env = {"PRIO_YUNIKORN_URL": "http://127.0.0.1:1"}  # nothing listens there
    got, _ = ok_json("explain", *native_args(sc), "-o", "json", env=env)
    assert got["queues"]
    r = run_cli("explain", "-o", "json", env=env)
    assert r.exit_code == 2 and "connection refused" in r.stderr


def test_timeout_and_cacert_from_the_environment():
    with Replay(scenario("walkthrough"), faults={QUEUES: ("slow", 30)}) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, env={"PRIO_YUNIKORN_TIMEOUT": "0.2"})
        assert r.exit_code == 2 and "timed out after 0.2 s" in r.stderr
        r = run_cli("explain", "--yunikorn", srv.url, env={"PRIO_YUNIKORN_TIMEOUT": "soon"})
        assert r.exit_code == 2 and "PRIO_YUNIKORN_TIMEOUT: must be a number" in r.stderr
    r = run_cli("explain", "--yunikorn", "https://127.0.0.1:1", env={"PRIO_YUNIKORN_CACERT": "/nonexistent/ca.pem"})
    assert r.exit_code == 2 and "no such file (--cacert)" in r.stderr
    # Set in the environment, they do not get in the way of input files.
    sc = scenario("walkthrough")
    ok_json("explain", *native_args(sc), "-o", "json", env={"PRIO_YUNIKORN_CACERT": "x.pem", "PRIO_YUNIKORN_TIMEOUT": "1"})


def test_snapshot_json_lists_rejected_applications_as_the_file_names_them(tmp_path):
    import yaml

    sc = shared("testdata", "yunikorn-rest-live", "conformance-placement-00009")
    plain, anon = tmp_path / "plain.yaml", tmp_path / "anon.yaml"
    with Replay(sc) as srv:
        a = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(plain), "-o", "json")
        b = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(anon), "--anonymize", "-o", "json")
    assert a.exit_code == 0 and b.exit_code == 0, a.stderr + b.stderr
    sa, sb = json.loads(a.stdout), json.loads(b.stdout)
    assert isinstance(sa["rejected"], list) and isinstance(sb["rejected"], list)  # never a list one time, a count the other
    assert len(sa["rejected"]) == len(sb["rejected"]) > 0
    for summary, path in ((sa, plain), (sb, anon)):
        snap = list(yaml.safe_load_all(path.read_text()))[1]
        in_file = sorted(x["id"] for x in snap["applications"] if x.get("state") == "Rejected")
        assert sorted(summary["rejected"]) == in_file
    assert not set(sa["rejected"]) & set(sb["rejected"])  # the anonymized summary leaks no real id


def test_live_verbose_counts_in_words_that_agree():
    sc = shared("testdata", "yunikorn-rest-live", "walkthrough")  # one node, no running allocation
    with Replay(sc) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "-v", "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "0 running allocations, 0 rejected, 1 node\n" in r.stderr, r.stderr
    assert "1 nodes" not in r.stderr
