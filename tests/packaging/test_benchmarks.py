"""The benchmark scripts still run (tiny sizes: speed is measured by hand, not in tests)."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow  # builds, installs or runs subprocesses: outside the inner loop


def test_benchmark_script_runs_and_prints_ratios(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run.py"), "--queues", "30", "--asks", "300",
                        "--dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = [l for l in r.stdout.splitlines() if "ratio" in l]
    assert [l.split()[0] for l in lines] == ["simulate-capacity", "simulate-nocap-pods", "simulate-nocap-vcore-memory",
                                          "simulate-equal-priorities", "explain", "validate-10k", "validate-20", "version"]


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
