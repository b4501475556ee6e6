"""Errors, usage and help wording of the analysis commands: one line starting with prio:, plain
metavars, did-you-mean for queue and ask names, options refused where they do nothing, plurals."""
import json

import pytest

from conftest import run_cli, run_prio, sample

COMMANDS = ("explain", "simulate", "preempt", "diff", "snapshot", "rule")


def test_errors_start_with_prio_and_name_a_sample_not_its_path():
    from prio.io.package_data import samples_dir

    r = run_prio("explain", "--sample", "batch", "--partition", "nosuch")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith("prio: bundled sample batch-queues.yaml: no partition 'nosuch'"), r.stderr
    assert samples_dir() not in r.stderr
    r = run_prio("simulate", "nosuch.yaml")
    assert r.returncode == 2 and r.stderr.startswith("prio: nosuch.yaml"), r.stderr


def test_usage_errors_are_plain_one_liners():
    for args, words in ((["simulate", "--limit", "-1"], "--limit: must be at least 0"),
                        (["explain", "--limit", "x"], "--limit: must be a whole number"),
                        (["explain", "--color", "bogus"], "--color (or PRIO_COLOR): 'bogus' is not one of"),
                        (["simulate", "--timeout", "0"], "--timeout: must be at least 0.001")):
        r = run_prio(*args)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert r.stderr.startswith("prio: ") and words in r.stderr, r.stderr
        assert "Input should" not in r.stderr and "Value error" not in r.stderr


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_shows_plain_metavars(cmd):
    r = run_prio(cmd, "--help")
    assert r.returncode == 0
    for bad in ("<list[str]>", "<str>", "{", "[[", "]]"):
        assert bad not in r.stdout, (bad, r.stdout)


def test_diff_usage_line_names_its_arguments():
    assert "diff [OPTIONS] OLD NEW [INPUT]..." in run_prio("diff", "--help").stdout
    assert "rule [OPTIONS] [ID]\n" in run_prio("rule", "--help").stdout


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


def test_plurals_say_one_pod(tmp_path):
    pods = {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
         "spec": {"schedulerName": "yunikorn", "containers": [{"name": "c"}], "priority": 5}, "status": {"phase": "Pending"}}]}
    f = tmp_path / "pods.json"
    f.write_text(json.dumps(pods))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "1 pods" not in r.stderr and "1 pod " in r.stderr, r.stderr
    out = tmp_path / "snap.yaml"
    r = run_cli("snapshot", str(f), "--output-file", str(out))
    assert "1 application, 1 pending ask" in r.stderr, r.stderr


@pytest.mark.parametrize("args", [("explain", "--queue", "batch"), ("explain", "--why-ask", "j0-0"),
                                  ("explain", "--why-ask", "j0-0", "--behind", "j1-0"),
                                  ("simulate", "--steps", "2"), ("simulate", "--limit", "2")])
@pytest.mark.parametrize("scenario", ["armada-current.yaml", "armada-scenario.yaml"])
def test_yunikorn_only_options_refuse_armada_scenarios(args, scenario):
    r = run_cli(args[0], sample(scenario), *args[1:])
    assert r.exit_code == 2, r.stdout
    assert r.stderr.startswith(f"prio: {args[1]} applies to YuniKorn inputs, not Armada scenarios"), r.stderr
    assert r.stdout == ""


def test_why_still_explains_an_armada_queue():
    r = run_cli("explain", sample("armada-current.yaml"), "--why", "batch")
    assert r.exit_code == 0 and r.stdout.startswith("batch has no priorityFactor"), r.output


def test_snapshot_without_inputs_is_one_plain_line(tmp_path):
    r = run_cli("snapshot", "--output-file", str(tmp_path / "s.yaml"))
    assert r.exit_code == 2
    assert r.stderr == "prio: nothing to capture: give --yunikorn URL or input files (REST dumps, kubectl pod lists, a queue config)\n"
    assert not (tmp_path / "s.yaml").exists()
