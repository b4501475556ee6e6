"""The CLI end to end (typer's CliRunner): goldens for every format, exit codes, bad input."""
import json
import os
import subprocess
import sys

import pytest

from builders import UNDER_ROOT
from conftest import ROOT, run_cli, run_prio, sample, shared

GOLDEN = os.path.join(ROOT, "tests", "golden")
UPDATE = os.environ.get("PRIO_UPDATE_GOLDEN") == "1"


def golden(name: str, text: str) -> None:
    path = os.path.join(GOLDEN, name)
    if UPDATE:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)
    assert os.path.exists(path), f"no golden {path} (PRIO_UPDATE_GOLDEN=1 to write it)"
    with open(path) as fh:
        assert text == fh.read(), f"output differs from {path} (PRIO_UPDATE_GOLDEN=1 to accept)"


@pytest.mark.parametrize("fmt", ["table", "json", "plain", "markdown"])
def test_simulate_walkthrough_golden(fmt):
    r = run_cli("simulate", "-o", fmt)
    assert r.exit_code == 0, r.stderr
    golden(f"simulate/walkthrough.{fmt}", r.stdout)


@pytest.mark.parametrize("fmt", ["table", "json", "plain", "markdown"])
def test_explain_walkthrough_golden(fmt):
    r = run_cli("explain", "-o", fmt)
    assert r.exit_code == 0, r.stderr
    golden(f"explain/walkthrough.{fmt}", r.stdout)


def test_simulate_json_is_the_documented_order():
    got = json.loads(run_cli("simulate", "-o", "json").stdout)
    want = json.load(open(shared("testdata", "walkthrough-order.json")))["steps"]
    assert [(s["queue"], s["priority"], [[c["queue"], c["from"], c["to"]] for c in s["changes"]]) for s in got["steps"]] == \
        [(w["queue"], w["priority"], w["changes"]) for w in want]
    assert got["unscheduled"] == []
    assert got["steps"][0] == {"step": 1, "queue": "root.system.system-high", "application": "app-1", "ask": "app-1-1",
                               "priority": 1, "changes": [{"queue": "root.system.system-high", "from": 1001, "to": None},
                                                          {"queue": "root.system", "from": 1001, "to": 10}]}


def test_simulate_explicit_files_same_as_default():
    a = run_cli("simulate", "-o", "json").stdout
    b = run_cli("simulate", sample("walkthrough-asks.yaml"), sample("walkthrough-queues.yaml"), "-o", "json").stdout
    c = run_cli("simulate", "--sample", "walkthrough", "-o", "json").stdout
    assert a == b == c


def test_simulate_steps_option():
    got = json.loads(run_cli("simulate", "--steps", "2", "-o", "json").stdout)
    assert [s["step"] for s in got["steps"]] == [1, 2]


def test_explain_json_contract_shape():
    got = json.loads(run_cli("explain", "-o", "json").stdout)
    q = {x["queue"]: x for x in got["queues"]}
    assert list(q)[:3] == ["root", "root.system", "root.system.system-normal"]  # depth first, config order
    assert q["root.tenants.tenant-a"] == {"queue": "root.tenants.tenant-a", "priority": 10, "offset": 10, "fenced": True,
                                          "sortPriority": True, "sortPolicy": "fair", "pendingAsks": 4}
    assert q["root.system.system-low"]["priority"] == -997
    a = got["asks"][0]
    assert {k: a[k] for k in ("ask", "application", "queue", "priority")} == {"ask": "app-1-1", "application": "app-1", "queue": "root.system.system-high", "priority": 1}


def test_explain_queue_and_why():
    r = run_cli("explain", "--queue", "root.tenants.tenant-b", "-o", "json")
    got = json.loads(r.stdout)
    assert [x["queue"] for x in got["queues"]] == ["root.tenants.tenant-b", "root.tenants.tenant-b.child-b-1", "root.tenants.tenant-b.child-b-2"]
    assert {a["queue"] for a in got["asks"]} == {"root.tenants.tenant-b.child-b-1", "root.tenants.tenant-b.child-b-2"}
    why = run_cli("explain", "--why", "root.tenants.tenant-a").stdout
    assert "fence" in why and "reports its offset, 10" in why and "child-a-1" in why
    assert run_cli("explain", "--why", "root.nosuch").exit_code == 2


def test_explain_config_only_and_snapshot_only():
    r = run_cli("explain", sample("walkthrough-queues.yaml"), "-o", "json")
    assert r.exit_code == 0
    assert all(q["priority"] is None for q in json.loads(r.stdout)["queues"])
    r = run_cli("explain", sample("walkthrough-asks.yaml"), "-o", "json")
    assert r.exit_code == 0
    q = {x["queue"]: x["priority"] for x in json.loads(r.stdout)["queues"]}
    assert q["root.tenants.tenant-a.child-a-1"] == 8 and q["root.tenants"] == 9  # no config: no fences


def test_wide_paths_fold_not_truncate():
    long = "root." + ".".join(f"level-{i}-with-a-long-name" for i in range(6))
    snap = json.dumps({"applications": [{"id": "x", "queue": long, "asks": [{"priority": 1}]}]})
    r = run_cli("simulate", "-", "-o", "table", input=snap, env={"COLUMNS": "60"})
    assert r.exit_code == 0, r.stderr
    assert "…" not in r.stdout
    assert "level-5-with-a-long-name" in r.stdout.replace("\n", "").replace("│", "").replace(" ", "")


def test_validate_text_and_json_golden_on_mistakes():
    r = run_cli("validate", sample("mistakes.yaml"))
    assert r.exit_code == 1
    golden("validate/mistakes.text", r.stdout.replace(sample(""), "samples/"))
    assert "10 errors, 5 warnings in 1 file" in r.stderr
    j = run_cli("validate", "-o", "json", sample("mistakes.yaml"))
    assert j.exit_code == 1
    golden("validate/mistakes.json", j.stdout.replace(sample(""), "samples/"))
    doc = json.loads(j.stdout)
    assert doc["summary"] == {"files": 1, "errors": 10, "warnings": 5, "skipped": 0}
    assert set(doc["findings"][0]) == {"rule", "name", "severity", "message", "file", "line", "column", "path"}


def test_validate_exit_codes():
    assert run_cli("validate", sample("walkthrough-queues.yaml")).exit_code == 0
    warn = "partitions: [{name: default, queues: [{name: root, queues: [{name: a, properties: {priority.offset: x}}]}]}]\n"
    assert run_cli("validate", "-", input=warn).exit_code == 0
    assert run_cli("validate", "--strict", "-", input=warn).exit_code == 1
    assert run_cli("validate", "/no/such/file").exit_code == 2
    assert run_cli("validate", "-o", "nope", sample("walkthrough-queues.yaml")).exit_code == 2


def test_validate_directory_and_configmap_lines():
    cm = shared("testdata", "yunikorn-configs", "07_yunikorn-k8shim__deployments__examples__authz__priority__yunikorn-configs.yaml")
    r = run_cli("validate", "-o", "json", cm)
    assert r.exit_code in (0, 1)
    r = run_cli("validate", "-o", "json", shared("testdata", "yunikorn-configs"))
    doc = json.loads(r.stdout)
    assert doc["summary"]["files"] == 15
    # every finding points at a real line of the file it names (ConfigMaps: the outer file)
    for f in doc["findings"]:
        lines = open(f["file"]).read().splitlines()
        assert f["line"] is not None and 1 <= f["line"] <= len(lines), f
        key = f["path"].rsplit(".", 1)[-1].split("[")[0].strip("'[]")
        if f["rule"] == "PRIO001":
            assert key in lines[f["line"] - 1], (f, lines[f["line"] - 1])


def test_rule_command():
    r = run_cli("rule")
    assert r.exit_code == 0 and "PRIO201" in r.stdout and "offset-exceeds-system-priority" in r.stdout
    one = run_cli("rule", "PRIO201")
    assert one.exit_code == 0 and "Example" in one.stdout and "Fix" in one.stdout
    assert run_cli("rule", "offset-saturates").exit_code == 0
    assert run_cli("rule", "PRIO999").exit_code == 2


def test_version_does_not_import_heavy_modules():
    code = ("import sys; sys.argv=['prio','--version']; from prio.cli.app import main; main(); "
            "bad=[m for m in ('rich','jsonschema','tabulate','yaml') if m in sys.modules]; print('HEAVY', bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")})
    assert out.stdout.startswith("prio ")
    assert "HEAVY []" in out.stdout


@pytest.mark.parametrize("cmd,word", [("validate", "--strict"), ("explain", "--why-ask"), ("simulate", "--steps"), ("rule", "ID"), ("", "Commands")])
def test_help_does_not_import_heavy_modules(cmd, word):
    argv = ["prio"] + ([cmd] if cmd else []) + ["--help"]
    code = (f"import sys; sys.argv={argv!r}\nfrom prio.cli.app import main\ntry: main()\nexcept SystemExit: pass\n"
            "print('HEAVY', [m for m in ('rich','jsonschema','tabulate','yaml') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")})
    assert word in out.stdout
    assert "HEAVY []" in out.stdout, out.stdout[-200:]


def test_json_output_escapes_unusual_ids():
    snap = json.dumps({"applications": [{"id": 'we"ird\\app ü', "queue": "root.a", "asks": [{"id": "a\nb", "priority": 1}]}]})
    for cmd in ("explain", "simulate"):
        r = run_cli(cmd, "-", "-o", "json", input=snap)
        assert r.exit_code == 0, r.stderr
        doc = json.loads(r.stdout)
        rows = doc["asks"] if cmd == "explain" else doc["steps"]
        assert rows[0]["application"] == 'we"ird\\app ü' and rows[0]["ask"] == "a\nb"


def test_narrow_tables_keep_numbers_whole():
    r = run_cli("simulate", "--sample", "batch", "-o", "table", env={"COLUMNS": "50"})
    assert "P1000" in r.stdout and "…" not in r.stdout
    r = run_cli("explain", "--sample", "batch", "-o", "table", env={"COLUMNS": "60"})
    assert "…" not in r.stdout


def test_simulate_limit_caps_rows_but_not_json():
    r = run_cli("simulate", "--limit", "3", "-o", "plain")
    assert "... 8 more steps" in r.stdout and "\n4 " not in r.stdout
    assert len(json.loads(run_cli("simulate", "--limit", "3", "-o", "json").stdout)["steps"]) == 11


def test_table_colour_only_when_asked():
    assert "\x1b[" in run_cli("simulate", "-o", "table", "--color", "always").stdout
    assert "\x1b[" not in run_cli("simulate", "-o", "table").stdout  # auto, not a terminal
    assert "\x1b[" not in run_cli("explain", "-o", "table", env={"NO_COLOR": "1"}).stdout


def test_empty_results_say_so(tmp_path):
    s = tmp_path / "s.yaml"
    s.write_text("capacity: {vcore: 1}\napplications:\n  - {id: a, queue: root.a, asks: [{priority: 1, resources: {vcore: 2}}]}\n")
    r = run_cli("simulate", str(s), "-o", "table")
    assert "Nothing was placed" in r.stdout and "Unscheduled" in r.stdout
    r = run_cli("explain", sample("walkthrough-queues.yaml"), "-o", "table")
    assert "No pending asks" in r.stdout


def test_usage_errors_are_one_line_through_the_real_entry_point():
    for args in (["simulate", "--steps", "-1"], ["explain", "--nope"], ["validate"]):
        out = run_prio(*args)
        assert out.returncode == 2, (args, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1 and out.stderr.startswith("prio: "), out.stderr
    out = run_prio()
    assert out.returncode == 0 and "Commands" in out.stdout
    out = run_prio("validate", os.path.join(ROOT, "samples", "mistakes.yaml"))
    assert out.returncode == 1


def test_simulate_json_of_more_steps_than_a_batch_holds_every_step_once(tmp_path):
    """The JSON steps are written a few thousand at a time: none lost or repeated at the seams."""
    n = 9000  # past two batches of 4096
    snap = tmp_path / "asks.json"
    snap.write_text(json.dumps({"applications": [{"id": f"a{i}", "queue": "root.q", "asks": [{"priority": i % 7}]} for i in range(n)]}))
    queues = tmp_path / "q.yaml"
    queues.write_text(UNDER_ROOT + "          - name: q\n")
    r = run_cli("simulate", str(queues), str(snap), "-o", "json")
    assert r.exit_code == 0, r.stderr
    steps = json.loads(r.stdout)["steps"]
    assert [s["step"] for s in steps] == list(range(1, n + 1))
    assert sorted(s["application"] for s in steps) == sorted(f"a{i}" for i in range(n))
