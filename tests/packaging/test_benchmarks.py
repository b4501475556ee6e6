"""The benchmark scripts still run (tiny sizes: speed is measured by hand, not in tests)."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT

# The generation generate.py names its cached inputs by (bumped when the same arguments make
# other inputs): read from the script, so a bump does not rewrite these tests.
with open(os.path.join(ROOT, "benchmarks", "generate.py"), encoding="utf-8") as _fh:
    GEN = int(next(ln.split("=")[1].split("#")[0] for ln in _fh if ln.startswith("GENERATION =")))

pytestmark = pytest.mark.slow  # builds, installs or runs subprocesses: outside the inner loop


def test_benchmark_script_runs_and_prints_ratios(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run.py"), "--queues", "30", "--asks", "300",
                        "--dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    # a shape's second floor prints on an indented continuation row: one name per shape
    lines = [l for l in r.stdout.splitlines() if "ratio" in l and not l.startswith(" ")]
    assert any(l.startswith(" ") and "ratio" in l and "load+sort+write" in l for l in r.stdout.splitlines())
    import shutil

    browser = os.environ.get("PRIO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert [l.split()[0] for l in lines] == ["simulate-capacity", "simulate-nocap-pods", "simulate-nocap-vcore-memory",
                                          "simulate-equal-priorities", "simulate-fenced-pods", "simulate-fenced-vcore-memory",
                                          "simulate-cluster", "simulate-kube-predicates", "simulate-volcano", "simulate-gangs", "simulate-preempt", "simulate-kueue", "explain", "html-report"] + (["html-load"] if browser else []) + [
                                          "validate-10k", "validate-fenced", "validate-20", "version"]
    assert "page " in r.stdout and ("built it in" in r.stdout if browser else "html-load                    skipped: no Chromium" in r.stdout)
    assert "30 queues, 300 asks (60 in the fenced shapes)" in r.stdout
    assert sorted(p.name for p in tmp_path.glob("preempt-*")) == [f"preempt-1q-300a-v{GEN}"]  # never more than --asks


def test_benchmark_only_selects_the_fenced_jobs(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run.py"), "--queues", "30", "--asks", "300",
                        "--fenced-asks", "90", "--only", "simulate-fenced", "--dir", str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert [l.split()[0] for l in r.stdout.splitlines() if "ratio" in l] == ["simulate-fenced-pods", "simulate-fenced-vcore-memory"]
    assert sorted(p.name for p in tmp_path.glob("fenced-*")) == [f"fenced-pods-30q-90a-v{GEN}", f"fenced-vcore-memory-30q-90a-v{GEN}"]


def test_each_shape_gives_the_priorities_its_docstring_names(tmp_path):
    """equal-priorities: every ask at 0 (it once fell into the no-capacity branch, -100..100)."""
    import json

    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        from generate import generate
    finally:
        sys.path.pop(0)
    seen = {}
    for shape in ("nocap-pods", "equal-priorities"):
        _, snap = generate(str(tmp_path / shape), queues=30, asks=400, shape=shape)
        with open(snap) as fh:
            data = json.load(fh)
        seen[shape] = {a["priority"] for app in data["applications"] for a in app["asks"]}
        assert "capacity" not in data
    assert seen["equal-priorities"] == {0}
    assert len(seen["nocap-pods"]) > 50 and all(-100 <= p <= 100 for p in seen["nocap-pods"])


def test_the_fenced_shapes_are_issue_27s(tmp_path):
    """100 parents x 100 leaves, a third of the parents fenced, a fifth of the leaves with an
    offset, no capacity, priorities -100..100; pods or vcore+memory asks; one config for both."""
    import json

    import yaml

    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        from generate import generate
    finally:
        sys.path.pop(0)
    configs = set()
    for shape, types in (("fenced-pods", set()), ("fenced-vcore-memory", {"vcore", "memory"})):
        cfg, snap = generate(str(tmp_path / shape), queues=10_000, asks=3000, shape=shape)
        with open(cfg) as fh:
            configs.add(fh.read())
            fh.seek(0)
            (root,) = yaml.safe_load(fh)["partitions"][0]["queues"]
        parents = root["queues"]
        leaves = [l for p in parents for l in p["queues"]]
        assert len(parents) == 100 and all(len(p["queues"]) == 100 for p in parents)
        assert [p.get("properties") for p in parents].count({"priority.policy": "fence"}) == 34
        assert all(p.get("properties") in (None, {"priority.policy": "fence"}) for p in parents)
        offsets = [int(l["properties"]["priority.offset"]) for l in leaves if l.get("properties")]
        assert len(offsets) == 2000 and 0 not in offsets and all(-10 <= o <= 10 for o in offsets)
        assert all(set(l.get("properties") or {}) <= {"priority.offset"} for l in leaves)
        with open(snap) as fh:
            data = json.load(fh)
        asks = [a for app in data["applications"] for a in app["asks"]]
        assert "capacity" not in data and len(asks) == 3000
        assert len({a["priority"] for a in asks}) > 150 and all(-100 <= a["priority"] <= 100 for a in asks)
        assert all(set(a.get("resources", {})) == types for a in asks)
    assert len(configs) == 1


def test_the_bound_schedules_exactly_what_prio_does(tmp_path):
    """benchmarks/bound.py is a floor under prio's scheduling run only if it does the same work:
    on the nocap-pods shape it must give prio's steps and priority changes, step for step."""
    import json

    dump = tmp_path / "bound.jsonl"
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "bound.py"), "--queues", "300", "--asks", "6000",
                        "--dir", str(tmp_path), "--dump", str(dump)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines()[-1].startswith("bound nocap-pods: 6000 steps in ")
    (cfg,) = tmp_path.glob("nocap-pods-*/queues.yaml")
    out = subprocess.run([sys.executable, "-m", "prio", "simulate", str(cfg), str(cfg.parent / "asks.json"), "-o", "json"],
                         capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")})
    assert out.returncode == 0, out.stderr[-2000:]
    steps = json.loads(out.stdout)["steps"]
    want = [[s["step"], s["queue"], s["application"], s["ask"], s["priority"],
             [[c["queue"], c["from"], c["to"]] for c in s["changes"]]] for s in steps]
    got = [json.loads(line) for line in dump.read_text().splitlines()]
    assert len(got) == 6000 and got == want
    assert sum(1 for s in want if s[5]) > 1000  # the priority walk up the path is exercised


def test_outputs_engines_mode_runs_both_engines_and_compares(tmp_path):
    """outputs.py engines: each simulate/explain job with PRIO_ENGINE=fast and =reference,
    identical or not per job, exit 1 on any difference (a stand-in prio that prints the engine)."""
    script = os.path.join(ROOT, "benchmarks", "outputs.py")
    cache = str(tmp_path / "cache")
    r = subprocess.run([sys.executable, script, "engines", "--asks", "60", "--queues", "30", "--cache", cache,
                        "--only", "simulate-fenced"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    jobs = [l.split(":")[0] for l in r.stdout.splitlines() if ": identical (fast " in l]
    assert jobs == ["simulate-fenced-pods-json", "simulate-fenced-pods-plain",
                    "simulate-fenced-vcore-memory-json", "simulate-fenced-vcore-memory-plain"]
    assert r.stdout.splitlines()[-1] == "all 4 identical between the engines"

    fake = tmp_path / "cli" / "prio"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "__main__.py").write_text("import os, sys\nprint(os.environ['PRIO_ENGINE'])\n"
                                      "sys.exit(os.environ['PRIO_ENGINE'] == 'reference' and 'explain' in sys.argv)\n")
    keep = tmp_path / "differ"
    r = subprocess.run([sys.executable, script, "engines", str(keep), "--asks", "60", "--queues", "30", "--cache", cache,
                        "--cli", str(tmp_path / "cli"), "--only", "explain-fenced-pods"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert [l.split(" (fast ")[0] for l in lines if "DIFFERS" in l] == [
        f"explain-fenced-pods-{fmt}: DIFFERS in stdout from line 1, rc 0 vs 1" for fmt in ("json", "plain")]
    assert lines[-1] == "2 of 2 differ between the engines"
    assert (keep / "explain-fenced-pods-json.fast.stdout").read_text() == "fast\n"
    assert (keep / "explain-fenced-pods-json.reference.stdout").read_text() == "reference\n"
    assert (keep / "explain-fenced-pods-json.reference.rc").read_text() == "1"


def test_a_rows_commands_run_in_turn_and_each_keeps_its_best():
    """run.alternated: floor, prio, floor, prio, ... (a drifting machine slows both alike), and
    each job's best wall and CPU time and its highest peak."""
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        import run
    finally:
        sys.path.pop(0)
    order = []
    floor = iter([(2.0, 10.0, 1.5), (1.0, 30.0, 1.2), (3.0, 20.0, 0.9)])
    prio = iter([(5.0, 7.0, 4.0), (6.0, 9.0, 3.0), (4.0, 8.0, 5.0)])
    got = run.alternated([lambda: order.append("floor") or next(floor), lambda: order.append("prio") or next(prio)], 3)
    assert order == ["floor", "prio"] * 3
    assert got == [(1.0, 30.0, 0.9), (4.0, 9.0, 3.0)]


STUB_VALGRIND = """#!/bin/sh
# a stand-in for valgrind: runs the command after its options, then reports a count that tells
# this checkout's prio (STUB_HERE) from another
while [ "${1#--}" != "$1" ]; do shift; done
"$@" > /dev/null || exit $?
if [ "$PYTHONPATH" = "$STUB_HERE" ]; then n=1000000000; else n=800000000; fi
echo "==1== Collected : $n" >&2
"""


def _stub_env(tmp_path, valgrind: bool = True) -> dict:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if valgrind:
        stub = bin_dir / "valgrind"
        stub.write_text(STUB_VALGRIND)
        stub.chmod(0o755)
    env = {**os.environ, "STUB_HERE": os.path.join(ROOT, "cli")}
    env["PATH"] = str(bin_dir) + os.pathsep + (env["PATH"] if valgrind else os.path.dirname(sys.executable))
    return env


def _worktrees() -> list[str]:
    return subprocess.run(["git", "-C", ROOT, "worktree", "list"], capture_output=True, text=True, check=True).stdout.splitlines()


def test_instructions_counts_each_job_here_and_at_a_revision(tmp_path):
    """benchmarks/instructions.py with a stand-in valgrind that really runs each prio command:
    the jobs asked for, this checkout's count beside the revision's (its own prio, from a
    worktree removed at the end) and the change between them."""
    before = _worktrees()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "instructions.py"), "--queues", "30", "--asks", "300",
                        "--only", "simulate-fenced", "--rev", "HEAD", "--dir", str(tmp_path / "cache")],
                       capture_output=True, text=True, timeout=300, env=_stub_env(tmp_path))
    assert r.returncode == 0, r.stderr[-2000:]
    rows = [l.split() for l in r.stdout.splitlines() if l.startswith("simulate-")]
    assert [row[0] for row in rows] == ["simulate-fenced-pods", "simulate-fenced-vcore-memory"]
    assert all(row[1:] == ["1.000", "G", "HEAD:", "0.800", "G", "change", "+25.00%"] for row in rows), r.stdout
    assert "30 queues, 300 asks (300 in the fenced shapes)" in r.stdout and "against HEAD" in r.stdout
    assert _worktrees() == before
    # only the inputs of the jobs asked for are generated
    assert sorted(p.name for p in (tmp_path / "cache").glob("*-v*")) == [f"fenced-pods-30q-300a-v{GEN}", f"fenced-vcore-memory-30q-300a-v{GEN}"]


def test_instructions_counts_validate_of_the_small_config(tmp_path):
    """validate-20, the row nearest its target, is counted too: run.py's 20-line config,
    written under --dir."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "instructions.py"), "--only", "validate-20",
                        "--dir", str(tmp_path / "cache")], capture_output=True, text=True, timeout=300, env=_stub_env(tmp_path))
    assert r.returncode == 0, r.stderr[-2000:]
    assert [l.split()[:3] for l in r.stdout.splitlines() if l.startswith("validate")] == [["validate-20", "1.000", "G"]], r.stdout
    assert (tmp_path / "cache" / "small.yaml").read_text().startswith("partitions:")


def test_instructions_without_valgrind_says_so(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "instructions.py"), "--only", "version"],
                       capture_output=True, text=True, timeout=60, env=_stub_env(tmp_path, valgrind=False))
    assert r.returncode == 2 and "needs valgrind" in r.stderr


def test_instructions_refuses_an_unknown_revision_in_one_line(tmp_path):
    before = _worktrees()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "instructions.py"), "--only", "version",
                        "--rev", "no-such-revision", "--dir", str(tmp_path / "cache")],
                       capture_output=True, text=True, timeout=60, env=_stub_env(tmp_path))
    assert r.returncode == 2 and r.stderr.strip() == "instructions.py: --rev no-such-revision: not a commit of this repository"
    assert _worktrees() == before
