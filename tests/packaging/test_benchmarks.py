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
