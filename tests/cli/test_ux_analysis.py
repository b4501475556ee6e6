"""Issue 14, the analysis half: what a new user trips over in explain, simulate, preempt, diff and
snapshot (closed pipes, one format vocabulary, help and error wording, names that almost match,
empty results, wrong inputs, structured --why-ask)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli, sample, shared

ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
ENV.pop("PRIO_OUTPUT", None)
COMMANDS = ("explain", "simulate", "preempt", "diff", "snapshot", "rule")


def prio(*args, env=None):
    return subprocess.run([sys.executable, "-m", "prio", *args], capture_output=True, text=True, env={**ENV, **(env or {})})


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A snapshot whose every output is far larger than a pipe's buffer."""
    apps = [{"id": f"app-{i}", "queue": f"root.q{i % 5}", "asks": [{"priority": i % 7} for _ in range(5)]} for i in range(3000)]
    path = tmp_path_factory.mktemp("big") / "big.json"
    path.write_text(json.dumps({"applications": apps}))
    return str(path)


# ---- a closed pipe -------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("simulate", "-o", "json"), ("explain", "-o", "json"), ("simulate", "-o", "plain"),
                                  ("explain", "-o", "markdown"), ("simulate", "-o", "table")])
def test_closed_pipe_ends_quietly_through_the_real_entry_point(big, args):
    p = subprocess.Popen([sys.executable, "-m", "prio", *args, big], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    p.stdout.readline()
    p.stdout.close()  # like `| head -1`
    err = p.stderr.read().decode()
    assert p.wait() == 0, err
    assert err == ""


# ---- errors: prio: first, never a path inside the package ----------------------------------------

def test_errors_start_with_prio_and_name_a_sample_not_its_path():
    from prio.io.package_data import samples_dir

    r = prio("explain", "--sample", "batch", "--partition", "nosuch")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith("prio: bundled sample batch-queues.yaml: no partition 'nosuch'"), r.stderr
    assert samples_dir() not in r.stderr
    r = prio("simulate", "nosuch.yaml")
    assert r.returncode == 2 and r.stderr.startswith("prio: nosuch.yaml"), r.stderr


def test_usage_errors_are_plain_one_liners():
    for args, words in ((["simulate", "--limit", "-1"], "--limit: must be at least 0"),
                        (["explain", "--limit", "x"], "--limit: must be a whole number"),
                        (["explain", "--color", "bogus"], "--color (or PRIO_COLOR): 'bogus' is not one of"),
                        (["simulate", "--timeout", "0"], "--timeout: must be at least 0.001")):
        r = prio(*args)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert r.stderr.startswith("prio: ") and words in r.stderr, r.stderr
        assert "Input should" not in r.stderr and "Value error" not in r.stderr


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_shows_plain_metavars(cmd):
    r = prio(cmd, "--help")
    assert r.returncode == 0
    for bad in ("<list[str]>", "<str>", "{", "[[", "]]"):
        assert bad not in r.stdout, (bad, r.stdout)


def test_diff_usage_line_names_its_arguments():
    assert "diff [OPTIONS] OLD NEW [INPUT]..." in prio("diff", "--help").stdout
    assert "rule [OPTIONS] [ID]\n" in prio("rule", "--help").stdout


# ---- one format vocabulary -----------------------------------------------------------------------

def test_text_is_plain_for_the_analysis_commands(tmp_path):
    for cmd in ("explain", "simulate", "preempt"):
        text = run_cli(cmd, "-o", "text")
        assert text.exit_code == 0, text.stderr
        assert text.stdout == run_cli(cmd, "-o", "plain").stdout
    q = tmp_path / "q.yaml"
    q.write_text(open(sample("walkthrough-queues.yaml")).read().replace("priority.offset: \"10\"", "priority.offset: \"-10\""))
    args = ("diff", sample("walkthrough-queues.yaml"), str(q), sample("walkthrough-asks.yaml"))
    assert run_cli(*args, "-o", "text").stdout == run_cli(*args, "-o", "plain").stdout
    from prio.render.formats import names

    assert "text" in names("explain") and "text: the same as plain" in prio("simulate", "--help").stdout.replace("\n", " ").replace("  ", " ")


def test_output_file_on_every_analysis_command(tmp_path):
    for cmd in ("explain", "simulate", "preempt"):
        out = tmp_path / f"{cmd}.txt"
        r = run_cli(cmd, "--output-file", str(out), "--color", "always")
        assert r.exit_code == 0 and r.stdout == "", r.stderr
        assert out.read_text() == run_cli(cmd, "-o", "plain").stdout  # plain, never coloured, in a file
        mask = os.umask(0)
        os.umask(mask)
        assert os.stat(out).st_mode & 0o777 == 0o666 & ~mask
        out = tmp_path / f"{cmd}.json"
        assert run_cli(cmd, "-o", "json", "--output-file", str(out)).exit_code == 0
        json.loads(out.read_text())
    # a failed run leaves no file behind
    out = tmp_path / "failed.txt"
    assert run_cli("explain", "nosuch.yaml", "--output-file", str(out)).exit_code == 2
    assert not out.exists() and os.listdir(tmp_path) == [f for f in os.listdir(tmp_path) if not f.startswith(".prio-")]
    r = run_cli("simulate", "--output-file", str(tmp_path / "nodir" / "x.txt"))
    assert r.exit_code == 2 and r.stderr.startswith("prio: ") and len(r.stderr.splitlines()) == 1


def test_prio_color_on_the_analysis_commands():
    for cmd in ("explain", "simulate", "preempt"):
        assert "\x1b[" in run_cli(cmd, "-o", "table", env={"PRIO_COLOR": "always"}).stdout
        assert "\x1b[" not in run_cli(cmd, "-o", "table", env={"PRIO_COLOR": "never"}).stdout


def test_prio_output_typo_is_an_error_another_commands_format_is_not():
    for cmd in ("explain", "simulate", "preempt"):
        r = run_cli(cmd, env={"PRIO_OUTPUT": "bogus"})
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert r.stderr.startswith("prio: PRIO_OUTPUT: unknown output format 'bogus'")
        assert run_cli(cmd, env={"PRIO_OUTPUT": "sarif"}).exit_code == 0  # validate's: not ours, ignored
        assert run_cli(cmd, "-o", "json", env={"PRIO_OUTPUT": "bogus"}).exit_code == 0  # -o wins
    assert run_cli("simulate", env={"PRIO_OUTPUT": "text"}).stdout == run_cli("simulate", "-o", "plain").stdout
    assert json.loads(run_cli("simulate", env={"PRIO_OUTPUT": "JSON"}).stdout)["steps"]


# ---- did you mean --------------------------------------------------------------------------------

def test_did_you_mean_queue_and_ask_names():
    cases = ((("explain", "--why", "tenant-a"), "prio: --why: no queue 'tenant-a' in this partition; did you mean root.tenants.tenant-a?"),
             (("explain", "--queue", "child-b-1"), "--queue: no queue 'child-b-1' in this partition; did you mean root.tenants.tenant-b.child-b-1?"),
             (("explain", "--why", "root.tenats"), "did you mean root.tenants"),
             (("explain", "--why-ask", "7-1"), "prio: --why-ask: no pending ask '7-1'; did you mean app-7-1?"),
             (("explain", "--why-ask", "app-7-1", "--behind", "app1-1"), "prio: --behind: no pending ask 'app1-1'; did you mean app-1-1"),
             (("explain", "--why-ask", "app-7/app-7-2"), "did you mean app-7/app-7-1"),
             (("preempt", "--ask", "trainin-0"), "did you mean training-0?"))
    for args, words in cases:
        r = run_cli(*args)
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert words in r.stderr, (args, r.stderr)
    r = run_cli("explain", "--why", "zzz")
    assert r.exit_code == 2 and "did you mean" not in r.stderr


def test_suggestions_prefer_a_suffix_over_spelling():
    from prio.suggest import close

    paths = ["root", "root.tenants", "root.tenants.tenant-a", "root.tenants.tenant-b"]
    assert close("tenant-a", paths) == ["root.tenants.tenant-a"]
    assert close("ROOT.TENANTS", paths) == ["root.tenants"]
    assert close("tennant-b", paths)[0] == "root.tenants.tenant-b"
    assert close("x", paths) == []


# ---- --queue, the caveat, --steps and empty results ----------------------------------------------

def test_queue_narrows_the_priorityclass_table_too():
    classes = sample("priorityclasses.yaml")
    for fmt in ("plain", "table", "markdown"):
        r = run_cli("explain", "--priority-classes", classes, "--queue", "root.tenants.tenant-a", "-o", fmt)
        assert r.exit_code == 0, r.stderr
        assert "child-a-1" in r.stdout and "system-high" not in r.stdout and "tenant-b" not in r.stdout, fmt
    rows = json.loads(run_cli("explain", "--priority-classes", classes, "--queue", "tenants.tenant-a", "-o", "json").stdout)["priorityClasses"]
    assert rows and all(x["queue"].startswith("root.tenants.tenant-a") for x in rows)


def test_static_order_caveat_in_every_human_format():
    for fmt in ("plain", "markdown", "table"):
        out = run_cli("explain", "-o", fmt).stdout
        assert "Priorities change as asks are placed" in out and "prio simulate" in out.split("Priorities change")[1], fmt
    md = run_cli("explain", "-o", "markdown").stdout
    assert "|\n\nPriorities change as asks are placed: `prio simulate` shows the real order." in md  # not a table row


def test_steps_says_how_many_asks_are_still_pending():
    for fmt in ("plain", "table", "markdown"):
        out = run_cli("simulate", "--steps", "2", "-o", fmt).stdout
        assert "Stopped after step 2 (--steps 2): 9 asks still pending." in out, fmt
    r = run_cli("simulate", "--steps", "10", "-o", "json")
    assert "1 ask still pending" in r.stderr and len(json.loads(r.stdout)["steps"]) == 10
    assert "Stopped" not in run_cli("simulate", "--steps", "11", "-o", "plain").stdout  # nothing left: nothing to say


def test_empty_results_are_one_line(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("applications: []\n")
    q = sample("walkthrough-queues.yaml")
    for fmt in ("plain", "table", "markdown", "text"):
        assert run_cli("simulate", q, str(empty), "-o", fmt).stdout == "Nothing to schedule: no pending asks.\n", fmt
    out = run_cli("explain", q, str(empty), "-o", "plain").stdout
    assert out.endswith("Pending asks in the order they are considered now\nNo pending asks: every queue has no priority (n/a).\n")
    assert "#    queue" not in out
    nodes = tmp_path / "nodes.yaml"
    nodes.write_text("nodes: [{name: n1, capacity: {vcore: 4}}]\napplications: []\n")
    for fmt in ("plain", "table"):
        assert run_cli("preempt", sample("preemption-queues.yaml"), str(nodes), "-o", fmt).stdout.count("\n") == 1
    diff = run_cli("diff", q, q, sample("walkthrough-asks.yaml"), "-o", "plain")
    assert diff.stdout.count("\n") == 1 and "no change" in diff.stdout


# ---- the wrong REST endpoint, a directory --------------------------------------------------------

LIVE = ("testdata", "yunikorn-rest-live", "walkthrough", "ws", "v1")


@pytest.mark.parametrize("parts,endpoint", [
    (("partition", "default", "nodes.json"), "/ws/v1/partition/{p}/nodes"),
    (("partition", "default", "node", "node-1.json"), "/ws/v1/partition/{p}/node/{node}"),
    (("partitions.json",), "/ws/v1/partitions"),
    (("scheduler", "healthcheck.json"), "/ws/v1/scheduler/healthcheck"),
    (("clusters.json",), "/ws/v1/clusters"),
    (("partition", "default", "placementrules.json"), "/ws/v1/partition/{p}/placementrules"),
    (("scheduler", "node-utilizations.json"), "/ws/v1/scheduler/node-utilizations"),
])
def test_a_wrong_endpoint_is_named_with_the_one_to_save(parts, endpoint):
    path = shared(*LIVE, *parts)
    for cmd in ("explain", "simulate"):
        r = run_cli(cmd, path)
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert f"this is YuniKorn's {endpoint} response" in r.stderr, r.stderr
        assert "save /ws/v1/partition/{p}/queues" in r.stderr and "applications/active" in r.stderr


def test_the_json_config_and_other_endpoints():
    r = run_cli("explain", shared(*LIVE, "config.json"))
    assert r.exit_code == 2 and "/ws/v1/config answered as JSON" in r.stderr and "save its YAML answer instead" in r.stderr
    users = shared("testdata", "yunikorn-rest-live", "conformance-limits-00002", "ws", "v1", "partition", "default", "usage", "users.json")
    assert "/ws/v1/partition/{p}/usage/users response" in run_cli("explain", users).stderr
    dump = json.dumps({"timestamp": 1, "partitions": [], "applications": [{"applicationID": "a", "queueName": "root.a"}], "nodes": []})
    assert "/ws/v1/fullstatedump response" in run_cli("simulate", "-", input=dump).stderr
    from prio.io.endpoints import identify

    assert identify({"applications": []}) is None and identify([]) is None and identify([{"queuename": "root"}]) is None


def test_a_directory_is_read_file_by_file(tmp_path):
    live = os.path.dirname(shared(*LIVE, "partitions.json"))
    for f in ("partition/default/queues.json", "partition/default/applications/active.json", "partition/default/nodes.json",
              "partitions.json", "scheduler/healthcheck.json"):
        (tmp_path / os.path.basename(f)).write_text(open(os.path.join(live, f)).read())
    (tmp_path / "notes.txt").write_text("not read")
    r = run_cli("simulate", str(tmp_path), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert len(json.loads(r.stdout)["steps"]) == 11
    assert f"prio: note: {tmp_path / 'nodes.json'}: skipped: YuniKorn's /ws/v1/partition/{{p}}/nodes response" in r.stderr
    assert "healthcheck.json: skipped" in r.stderr and "notes.txt" not in r.stderr
    assert run_cli("explain", str(tmp_path), "--why", "root.system").exit_code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run_cli("explain", str(empty))
    assert r.exit_code == 2 and "a directory with no YAML or JSON files" in r.stderr and r.stderr.startswith("prio: ")
    (empty / "health.json").write_text(open(os.path.join(live, "scheduler/healthcheck.json")).read())
    r = run_cli("explain", str(empty))
    assert r.exit_code == 2 and "no input prio reads in this directory (1 YAML/JSON file skipped)" in r.stderr


# ---- --why-ask -o json ---------------------------------------------------------------------------

def why_ask(*args):
    r = run_cli("explain", *args, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_why_ask_json_has_structure():
    d = why_ask("--why-ask", "app-7-1", "--behind", "app-1-1")
    assert list(d) == ["ask", "step", "placedBefore", "waitsBehind", "partsAt", "rule", "values", "tie", "lines"]
    assert d["step"] == 9 and d["placedBefore"] == {"ask": "app-1-1", "application": "app-1", "step": 1} and d["waitsBehind"] is True
    assert d["partsAt"] == "root" and d["rule"] == "priority" and d["values"] == {"root.system": 1001, "root.tenants": 0}
    assert d["tie"] is False and "  their paths part at root, where system sorts before tenants:" in d["lines"]
    d = why_ask("--why-ask", "app-1-1", "--behind", "app-7-1")
    assert d["waitsBehind"] is False and d["partsAt"] == "root"
    d = why_ask("--why-ask", "app-1-1")
    assert d["step"] == 1 and d["rule"] == "first" and d["placedBefore"] is None
    d = why_ask("--sample", "batch", "--why-ask", "fe-1")
    assert d["partsAt"] == "root.prod" and d["rule"] == "fairShare" and d["values"]["root.prod.etl"] == 0
    d = why_ask("--sample", "batch", "--why-ask", "exec-3")
    assert d["step"] is None and d["rule"] == "neverPlaced" and d["values"]["code"] == "MaxApplications"
    d = why_ask("--why-ask", "app-2-2", "--behind", "app-2-1")  # two asks of one application
    assert d["partsAt"] == "root.system.system-normal" and d["rule"] == "askPriority" and d["values"] == {"app-2-1": 10, "app-2-2": 2}


def test_why_ask_json_inside_a_leaf(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n"
                 "          - {name: f, properties: {application.sort.priority: disabled}}\n")
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n"
                 "  - {id: F1, queue: root.f, submitTime: 5, asks: [{id: f1, priority: 1}]}\n"
                 "  - {id: F2, queue: root.f, submitTime: 5, asks: [{id: f2, priority: 5}]}\n")
    d = why_ask(str(q), str(s), "--why-ask", "f1")
    assert d["partsAt"] == "root.f" and d["rule"] == "applicationPriority" and d["values"] == {"F2": 5, "F1": 1}


# ---- tables --------------------------------------------------------------------------------------

def _cells(out: str, title: str) -> list[str]:
    """The text rows of a rich table (after its title), borders stripped."""
    body = out.split(title, 1)[1].split("\n\n", 1)[0]
    return [line for line in body.splitlines() if line.startswith("│")]


def test_queue_paths_fold_at_dots_at_80_columns():
    names = {"system-high", "system-normal", "system-low", "child-a-1", "child-a-2", "child-b-1", "child-b-2",
             "tenant-a", "tenant-b", "tenants", "system", "root"}
    for cmd in ("simulate", "explain"):
        out = run_cli(cmd, "-o", "table", env={"COLUMNS": "80"}).stdout
        title = "Scheduling order" if cmd == "simulate" else "Pending asks"
        for row in _cells(out, title):
            queue = row.split("│")[2].strip()
            if queue:  # every piece of a queue cell is whole names, each ending at a dot but the last
                assert all(p in names for p in queue.split(".") if p), (cmd, queue)
    out = run_cli("simulate", "-o", "table", env={"COLUMNS": "80"}).stdout
    assert "│ root.system.     │" in out or "root.system." in out and "syst\n" not in out


def test_fold_unit():
    from prio.render.paths import fold

    assert fold("root.tenants.tenant-a.child-a-1", 14) == ["root.tenants.", "tenant-a.", "child-a-1"]
    assert fold("root.a", 20) == ["root.a"]
    assert fold("root.averyveryverylongname", 10) == ["root.", "averyveryv", "erylongnam", "e"]  # nothing cut


def test_numbers_are_right_aligned_in_every_table():
    plain = run_cli("simulate", "-o", "plain").stdout
    assert "\n     1  root.system.system-high " in plain and "\n    10  root.tenants.tenant-b.child-b-1 " in plain
    assert "  P10  " in plain.splitlines()[3]
    per_queue = plain.split("Per queue\n")[1].splitlines()
    assert per_queue[1].endswith("        3") and per_queue[0].endswith("last step")  # placed, first, last: right
    md = run_cli("explain", "-o", "markdown").stdout
    assert "|----:|:---" in md and "-----------:|" in md  # rendered markdown keeps the alignment
    explain = run_cli("explain", "-o", "plain").stdout
    assert "\n root.system.system-low " not in explain and "-997     -1000" in explain
    preempt = run_cli("preempt", "-o", "plain").stdout
    assert "  priority  ask priority there" in preempt or "priority    ask priority there" in preempt
    from prio.render.align import colalign

    assert colalign(("q", "p", "s"), [("root.a", "P8", "n/a"), ("root.b", "-3", "4* (later)")]) == ("left", "right", "right")


def test_diff_tables_right_align_steps(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(open(sample("walkthrough-queues.yaml")).read().replace("priority.offset: \"10\"", "priority.offset: \"-10\""))
    r = run_cli("diff", sample("walkthrough-queues.yaml"), str(q), sample("walkthrough-asks.yaml"), "-o", "plain")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    head = next(line for line in lines if "step before" in line)
    row = next(line for line in lines if "app-4-1" in line)
    assert row[:head.index("step before") + len("step before")].endswith(" 4")  # under the header's end
    assert row.rstrip().endswith("7    +3 (later)")


def test_armada_plain_has_no_dashes_like_the_rest():
    for args in (("explain", sample("armada-current.yaml")), ("simulate", sample("armada-current.yaml")),
                 ("explain", sample("armada-scenario.yaml")), ("simulate", sample("armada-scenario.yaml"))):
        out = run_cli(*args, "-o", "plain").stdout
        assert not any(set(line.strip()) <= {"-", " "} and line.strip() for line in out.splitlines()), args
    out = run_cli("explain", sample("armada-current.yaml"), "-o", "plain").stdout
    assert "ml-research      1         1     0.4" in out  # numbers right-aligned
    table = run_cli("explain", sample("armada-current.yaml"), "-o", "table", env={"COLUMNS": "120"}).stdout
    assert "ml-research" in table and "evict" in table  # names whole, no column cut off


def test_plurals_say_one_pod(tmp_path):
    pods = {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
         "spec": {"schedulerName": "yunikorn", "containers": [{"name": "c"}], "priority": 5}}]}
    f = tmp_path / "pods.json"
    f.write_text(json.dumps(pods))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "1 pods" not in r.stderr and "1 pod " in r.stderr, r.stderr
    out = tmp_path / "snap.yaml"
    r = run_cli("snapshot", str(f), "--output-file", str(out))
    assert "1 application, 1 pending ask" in r.stderr, r.stderr


def test_diff_has_the_same_output_options(tmp_path):
    q = tmp_path / "q.yaml"
    q.write_text(open(sample("walkthrough-queues.yaml")).read().replace("priority.offset: \"10\"", "priority.offset: \"-10\""))
    args = ("diff", sample("walkthrough-queues.yaml"), str(q), sample("walkthrough-asks.yaml"))
    assert "\x1b[" in run_cli(*args, "-o", "table", env={"PRIO_COLOR": "always"}).stdout
    out = tmp_path / "diff.txt"
    r = run_cli(*args, "--output-file", str(out))
    assert r.exit_code == 0 and r.stdout == "" and out.read_text() == run_cli(*args, "-o", "plain").stdout
    r = run_cli(*args, env={"PRIO_OUTPUT": "bogus"})
    assert r.exit_code == 2 and r.stderr.startswith("prio: PRIO_OUTPUT:")
