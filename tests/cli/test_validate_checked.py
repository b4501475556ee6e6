"""validate never says "no problems" about what it did not check (issue 14): a file named
explicitly that prio does not validate is exit 2 with one line; in a directory such files are
skipped and counted in every summary; nothing checked at all is exit 2."""
import json
import os
import shutil

from conftest import run_cli, run_prio, sample, shared

QUEUES = "partitions:\n  - name: default\n    queues:\n      - name: root\n"


def mixed_dir(tmp_path):
    d = tmp_path / "deploy"
    d.mkdir()
    (d / "queues.yaml").write_text(QUEUES)
    shutil.copy(sample("walkthrough-asks.yaml"), d / "asks.yaml")
    shutil.copy(sample("pods.json"), d / "pods.json")
    return d


def test_explicit_files_prio_does_not_validate_are_exit_2_one_line_each():
    rest = shared("testdata", "yunikorn-rest", "yunikorn-site__docs__api__scheduler__queues.json")
    r = run_cli("validate", rest, sample("walkthrough-asks.yaml"), sample("pods.json"))
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert [ln.split(": not something prio validates: it holds ")[1] for ln in lines[:3]] == [
        "a YuniKorn REST queues dump (explain and simulate read it)",
        "a prio snapshot (explain and simulate read it)",
        "a pod list (explain and simulate read it)"]
    assert all(ln.startswith("prio: ") for ln in lines[:3])
    assert "no problems" not in r.stderr


def test_a_checked_file_beside_a_refused_one_is_still_reported(tmp_path):
    q = tmp_path / "queues.yaml"
    q.write_text(QUEUES.replace("name: root", "name: root\n        maxApplications: 1"))
    r = run_cli("validate", "-o", "json", str(q), sample("pods.json"))
    assert r.exit_code == 2
    doc = json.loads(r.stdout)
    assert {f["rule"] for f in doc["findings"]} >= {"PRIO001"}


def test_directory_skips_and_counts_in_every_summary(tmp_path):
    d = mixed_dir(tmp_path)
    r = run_cli("validate", str(d))
    assert r.exit_code == 0, r.stderr
    assert r.stderr.strip() == "no problems in 1 file checked, 2 skipped: not queue configs"
    j = run_cli("validate", "-o", "json", str(d))
    assert json.loads(j.stdout)["summary"] == {"files": 1, "errors": 0, "warnings": 0, "skipped": 2}
    m = run_cli("validate", "-o", "markdown", str(d))
    assert "1 file checked, 2 skipped: not queue configs" in m.stdout.splitlines()[0]
    x = run_cli("validate", "-o", "junit", str(d))
    assert 'skipped="2"' in x.stdout.splitlines()[1] and "<skipped" in x.stdout
    s = json.loads(run_cli("validate", "-o", "sarif", str(d)).stdout)
    assert s["runs"][0]["properties"]["skipped"] == 2
    v = run_cli("validate", "-v", str(d))
    assert "asks.yaml:" in v.stderr and "skipped a prio snapshot" in v.stderr


def test_nothing_checked_is_exit_2(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run_cli("validate", str(empty))
    assert r.exit_code == 2 and "nothing to check" in r.stderr and "no problems" not in r.stderr
    d = mixed_dir(tmp_path)
    os.remove(d / "queues.yaml")
    r = run_cli("validate", str(d))
    assert r.exit_code == 2
    assert f"prio: {d}: nothing to check: none of its 2 YAML/JSON files is a queue config" in r.stderr


def test_real_entry_point(tmp_path):
    d = mixed_dir(tmp_path)
    r = run_prio("validate", str(d), str(d / "pods.json"))
    assert r.returncode == 2
    assert f"prio: {d / 'pods.json'}: not something prio validates" in r.stderr
    r = run_prio("validate", str(d))
    assert r.returncode == 0 and "2 skipped: not queue configs" in r.stderr


def test_each_unreadable_input_is_reported_once_in_text_output(tmp_path):
    missing, broken = tmp_path / "missing.yaml", tmp_path / "broken.yaml"
    broken.write_text("a: [\n")
    r = run_cli("validate", str(missing), str(broken), sample("walkthrough-queues.yaml"))
    assert r.exit_code == 2
    both = r.stdout + r.stderr
    assert both.count("missing.yaml") == 1 and both.count("broken.yaml") == 1, both
    assert r.stderr.strip().splitlines()[-1] == "no problems in 1 file; 2 files could not be checked"
    assert "PRIO000" not in r.stdout
    # machine formats keep stdout for the machine: the reasons go to stderr as well
    r = run_cli("validate", "-o", "json", str(missing))
    assert r.stderr.count("missing.yaml") == 1 and "missing.yaml" in r.stdout
    out = tmp_path / "report.txt"  # text into a file: the file records it too
    r = run_cli("validate", str(missing), "--output-file", str(out))
    assert "missing.yaml: no such file" in r.stderr and "PRIO000" in out.read_text()


def test_an_empty_directory_is_nothing_checked_not_an_unreadable_file(tmp_path):
    (tmp_path / "empty").mkdir()
    r = run_cli("validate", str(tmp_path / "empty"))
    assert r.exit_code == 2
    summary = r.stderr.strip().splitlines()[-1]
    assert summary == "nothing checked: 1 directory with nothing to check", r.stderr
    assert "could not be checked" not in r.stderr and "no problems" not in r.stderr
    r = run_cli("validate", str(tmp_path / "empty"), str(tmp_path / "missing.yaml"))
    assert r.stderr.strip().splitlines()[-1] == "nothing checked: 1 file could not be checked; 1 directory with nothing to check"
