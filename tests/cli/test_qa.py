"""The release QA pass: what a demanding new user found when following the README literally
(names rich turned into emoji, closed pipes on the small commands, the JSON summary's types)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli, sample

ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
ENV.pop("PRIO_OUTPUT", None)


# ---- names are printed as written: rich's :emoji: codes are not expanded -------------------------

COLON_QUEUES = """partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: "team:100:x"
"""
COLON_ASKS = """applications:
  - id: "app:smile:"
    queue: "root.team:100:x"
    asks:
      - {id: "ask:100:", priority: 3}
"""


@pytest.fixture()
def colon_names(tmp_path):
    q, a = tmp_path / "q.yaml", tmp_path / "a.yaml"
    q.write_text(COLON_QUEUES)
    a.write_text(COLON_ASKS)
    return str(q), str(a)


@pytest.mark.parametrize("args", [("explain", "-o", "table"), ("simulate", "-o", "table"),
                                  ("explain", "--pending", "-o", "table"), ("explain", "--why-ask", "ask:100:")])
def test_queue_app_and_ask_names_with_colons_stay_as_written(colon_names, args):
    # YuniKorn allows ':' in queue names; an id like app:smile: is any string.
    r = run_cli(*args, *colon_names)
    assert r.exit_code == 0, r.output
    assert "\U0001f4af" not in r.stdout and "\U0001f604" not in r.stdout, r.stdout
    if "--pending" not in args:
        assert "ask:100:" in r.stdout and "app:smile:" in r.stdout


def test_diff_table_keeps_colons(colon_names, tmp_path):
    new = tmp_path / "new.yaml"
    new.write_text(COLON_QUEUES.replace('name: "team:100:x"', 'name: "team:100:x"\n            properties: {priority.offset: "5"}'))
    r = run_cli("diff", colon_names[0], str(new), colon_names[1], "-o", "table")
    assert r.exit_code == 0, r.output
    assert "\U0001f4af" not in r.stdout and "team:100:x" in r.stdout, r.stdout


def test_validate_text_location_on_line_100_is_file_colon_100(tmp_path):
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        queues:"]
    lines += [f"          - name: q{i}" for i in range(94)] + ["          - name: q0"]
    path = tmp_path / "q.yaml"
    path.write_text("\n".join(lines) + "\n")
    r = run_cli("validate", str(path))
    assert r.exit_code == 1
    assert r.stdout.startswith(f"{path}:100:19: error PRIO107"), r.stdout


# ---- a closed pipe, also for the short outputs: the reader is gone before prio writes ------------

def _into_closed_pipe(*args):
    r, w = os.pipe()
    os.close(r)  # the reader has gone (`| true`): the first write fails, however short the output
    try:
        p = subprocess.run([sys.executable, "-m", "prio", *args], stdout=w, stderr=subprocess.PIPE, text=True, env=ENV)
    finally:
        os.close(w)
    return p


@pytest.mark.parametrize("args", [("--version",), ("-V",), ("rule",), ("rule", "PRIO201"), ("rule", "-o", "json"),
                                  ("--help",), ("simulate", "--help"), ("simulate", "-o", "json"), ("explain",)])
def test_closed_pipe_is_quiet_and_exit_0(args):
    p = _into_closed_pipe(*args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", p.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_validate_into_a_closed_pipe_keeps_its_verdict(fmt):
    # `prio validate -o github deploy/ | head` under pipefail must still fail on errors
    p = _into_closed_pipe("validate", "-o", fmt, sample("mistakes.yaml"))
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr and "10 errors" in p.stderr
    assert _into_closed_pipe("validate", "-o", fmt, sample("walkthrough-queues.yaml")).returncode == 0


# ---- what --help and the README say about the samples and Armada ------------------------------------

def _samples():
    r = run_cli("explain", "--sample", "nosuch")
    assert r.exit_code == 2
    listed = r.stderr.split("available: ", 1)[1].rstrip(")\n")
    return [s.strip() for s in listed.split(",")]


def test_every_sample_is_named_in_help_and_readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    para = readme.split("Bundled samples", 1)[1].split("\n\n", 1)[0]
    help_text = " ".join(run_cli("explain", "--help").stdout.split()).replace("- ", "-")  # wrapped at hyphens
    for name in _samples():
        assert f"`{name}`" in para or f"samples/{name}.yaml" in para, name
        if name != "armada-queues":  # a validate input: explain refuses it
            assert name in help_text.split("--sample", 1)[1].split("--output", 1)[0], name
            assert run_cli("explain", "--sample", name, "-o", "json").exit_code == 0, name


def test_readme_never_offers_validate_a_sample_option():
    assert run_cli("validate", "--sample", "armada-queues").exit_code == 2  # validate takes files
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        para = fh.read().split("Bundled samples", 1)[1].split("\n\n", 1)[0]
    assert "takes files" in para


def test_top_level_help_does_not_call_armada_legacy_only():
    # the current scheduler is the default Armada model (README, Armada)
    out = " ".join(run_cli("--help").stdout.split())
    assert "legacy model" not in out and "Armada" in out


# ---- prio snapshot -o json: one shape, --anonymize or not ---------------------------------------

def test_snapshot_json_lists_rejected_applications_as_the_file_names_them(tmp_path):
    import yaml

    from conftest import shared

    sc = shared("testdata", "yunikorn-rest-live", "conformance-placement-00009")
    sys.path.insert(0, os.path.join(ROOT, "tests", "loaders"))
    from yunikorn_replay import Replay

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
    from conftest import shared

    sc = shared("testdata", "yunikorn-rest-live", "walkthrough")  # one node, no running allocation
    sys.path.insert(0, os.path.join(ROOT, "tests", "loaders"))
    from yunikorn_replay import Replay

    with Replay(sc) as srv:
        r = run_cli("explain", "--yunikorn", srv.url, "-v", "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "0 running allocations, 0 rejected, 1 node\n" in r.stderr, r.stderr
    assert "1 nodes" not in r.stderr


# ---- every `$ prio ...` example in the README prints what the README shows ------------------------

def _readme_examples():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        text = fh.read()
    out = []
    for block in text.split("```")[1::2]:
        lines = block.split("\n")[1:]  # after the info string
        if lines and lines[0].startswith("$ prio "):
            out.append((lines[0][2:], [ln for ln in lines[1:] if ln.strip()]))
    return out


def _matches(shown, actual, abridged):
    """The README's lines in order; a line ending in `...` matches by its start, a `...` line
    alone stands for lines left out. Unabridged examples must be the whole output."""
    if not abridged:
        return shown == actual
    i = 0
    for line in shown:
        if line.strip() == "...":
            continue
        want = line[:-3] if line.endswith("...") else line
        while i < len(actual) and not (actual[i].startswith(want) if line.endswith("...") else actual[i] == want):
            i += 1
        if i == len(actual):
            return False
        i += 1
    return True


@pytest.mark.parametrize("command,shown", _readme_examples(), ids=lambda v: v if isinstance(v, str) else "")
def test_readme_example_output(tmp_path, command, shown):
    import shlex

    os.symlink(os.path.join(ROOT, "samples"), tmp_path / "samples")
    queues = open(os.path.join(ROOT, "samples", "walkthrough-queues.yaml"), encoding="utf-8").read()
    assert 'priority.offset: "10"' in queues
    (tmp_path / "new-queues.yaml").write_text(queues.replace('priority.offset: "10"', 'priority.offset: "-10"'))
    args = shlex.split(command)[1:]
    p = subprocess.run([sys.executable, "-m", "prio", *args], capture_output=True, text=True, cwd=tmp_path,
                       env={**ENV, "COLUMNS": "120"})
    assert p.returncode in (0, 1), p.stderr
    actual = [ln.rstrip() for ln in (p.stdout + p.stderr).split("\n") if ln.strip()]
    abridged = any(ln.strip() == "..." or ln.endswith("...") for ln in shown)
    assert _matches([ln.rstrip() for ln in shown], actual, abridged), "\n".join(actual)


def test_test_files_the_docs_name_exist():
    import re

    for doc in ("README.md", os.path.join("docs", "ci.md")):
        with open(os.path.join(ROOT, doc), encoding="utf-8") as fh:
            for path in re.findall(r"`(tests/[\w/]+\.py)`", fh.read()):
                assert os.path.exists(os.path.join(ROOT, path)), (doc, path)


# ---- simulate --steps 0 stops before the first step: the asks are still pending -----------------

@pytest.mark.parametrize("fmt", ["plain", "table", "markdown"])
def test_steps_zero_is_not_nothing_to_schedule(fmt):
    r = run_cli("simulate", "--steps", "0", "-o", fmt)
    assert r.exit_code == 0, r.output
    assert "Nothing to schedule" not in r.stdout
    assert "Stopped after step 0 (--steps 0): 11 asks still pending." in r.stdout


# ---- options that do nothing for an Armada scenario are refused, not silently ignored -------------

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


# ---- --limit 0 hides rows; it does not make the pending asks disappear --------------------------

@pytest.mark.parametrize("fmt", ["plain", "table", "markdown"])
def test_limit_zero_says_how_many_rows_it_left_out(fmt):
    e = run_cli("explain", "--limit", "0", "-o", fmt)
    assert e.exit_code == 0 and "No pending asks" not in e.stdout, e.stdout
    assert "... 11 more pending asks" in e.stdout
    s = run_cli("simulate", "--limit", "0", "-o", fmt)
    assert s.exit_code == 0 and "Nothing was placed" not in s.stdout, s.stdout
    assert "... 11 more steps" in s.stdout and "priority changes" not in s.stdout  # no empty table


def test_priority_class_ranges_show_in_the_table_without_pending_asks():
    args = (sample("walkthrough-queues.yaml"), "--priority-classes", sample("priorityclasses.yaml"))
    for fmt in ("table", "plain"):
        r = run_cli("explain", *args, "-o", fmt)
        assert r.exit_code == 0 and "No pending asks" in r.stdout
        assert "PriorityClasses per queue" in r.stdout and "batch-low" in r.stdout, (fmt, r.stdout)


def test_snapshot_without_inputs_is_one_plain_line(tmp_path):
    r = run_cli("snapshot", "--output-file", str(tmp_path / "s.yaml"))
    assert r.exit_code == 2
    assert r.stderr == "prio: nothing to capture: give --yunikorn URL or input files (REST dumps, kubectl pod lists, a queue config)\n"
    assert not (tmp_path / "s.yaml").exists()


def test_validate_text_location_without_a_column(tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 500 + "]" * 500 + "\n")
    r = run_cli("validate", str(deep))
    assert r.exit_code == 2
    assert r.stdout.startswith(f"{deep}:1: error PRIO000 (unreadable-input) YAML nested more than 400 levels"), r.stdout
    assert "None" not in r.stdout


def test_pending_with_nothing_pending_says_so():
    from conftest import shared

    d = shared("testdata", "yunikorn-rest-live", "walkthrough-drained")
    for fmt in ("plain", "table", "markdown"):
        r = run_cli("explain", os.path.join(d, "queues.yaml"), os.path.join(d, "snapshot.yaml"), "--pending", "-o", fmt)
        assert r.exit_code == 0
        assert "Nothing to schedule: no pending asks." in r.stdout and "0 in the simulated order" not in r.stdout, r.stdout
