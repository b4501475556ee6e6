"""Benchmarks, run by hand: each prints prio's time next to a baseline measured in the same run.

    python benchmarks/run.py [--asks 1000000] [--queues 10000] [--only validate|explain|simulate]

- validate: `prio validate` on a 10,000-queue config vs parsing the same file with
  yaml.CSafeLoader (target: within 4x, under 3 s).
- explain: `prio explain -o json` on the config plus a 1,000,000-ask snapshot vs loading the
  snapshot file alone with json.load (target: under 10 s).
- simulate: `prio simulate -o json` vs the floor for any Python tool doing this job: load the
  snapshot, sort its asks by (priority, order), write one JSON object per ask with json.dumps
  (target: within 3x, under 60 s, peak memory under 2 GiB).
Every figure is wall-clock time of a fresh process (startup included), best of --repeat runs.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate import generate  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(HERE), "cli")}
PY = sys.executable

FLOOR = r"""
import json, sys
data = json.load(open(sys.argv[1]))
asks = []
n = 0
for app in data["applications"]:
    for a in app["asks"]:
        n += 1
        asks.append((-a.get("priority", 0), n, app["id"], app["queue"], a))
asks.sort(key=lambda t: (t[0], t[1]))
w = sys.stdout.write
for p, n, app, queue, a in asks:
    w(json.dumps({"step": n, "queue": queue, "application": app, "ask": f"{app}-{n}", "priority": -p}) + "\n")
"""


def timed(cmd: list[str], repeat: int) -> tuple[float, float]:
    """Best wall time and the peak RSS (MiB) of the child."""
    best = float("inf")
    peak = 0.0
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = time.perf_counter()
        r = subprocess.run(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        best = min(best, time.perf_counter() - t)
        if r.returncode not in (0, 1):
            raise SystemExit(f"{cmd} failed: {r.stderr.decode()[-500:]}")
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, before / 1024)
    return best, peak


def row(name, prio, base, base_name, target):
    print(f"{name:9} prio {prio[0]:7.2f} s (peak {prio[1]:6.0f} MiB)   {base_name} {base[0]:6.2f} s   ratio {prio[0] / base[0]:5.2f}x   target {target}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--asks", type=int, default=1_000_000)
    ap.add_argument("--queues", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--only", choices=("validate", "explain", "simulate"))
    ap.add_argument("--dir", default=None, help="reuse/keep generated inputs here")
    a = ap.parse_args()
    out = a.dir or tempfile.mkdtemp(prefix="prio-bench-")
    q, s = os.path.join(out, "queues.yaml"), os.path.join(out, "asks.json")
    if not (os.path.exists(q) and os.path.exists(s)):
        print(f"generating {a.queues} queues and {a.asks} asks in {out} ...", flush=True)
        generate(out, a.queues, a.asks)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    if a.only in (None, "validate"):
        base = timed([PY, "-c", f"import yaml; yaml.load(open({q!r}), Loader=yaml.CSafeLoader)"], a.repeat)
        row("validate", timed([PY, "-m", "prio", "validate", q], a.repeat), base, "CSafeLoader parse", "<= 4x, < 3 s")
    if a.only in (None, "explain"):
        base = timed([PY, "-c", f"import json; json.load(open({s!r}))"], a.repeat)
        row("explain", timed([PY, "-m", "prio", "explain", q, s, "-o", "json"], a.repeat), base, "json.load", "< 10 s")
    if a.only in (None, "simulate"):
        base = timed([PY, "-c", FLOOR, s], a.repeat)
        row("simulate", timed([PY, "-m", "prio", "simulate", q, s, "-o", "json"], a.repeat), base, "floor script", "<= 3x, < 60 s, < 2 GiB")


if __name__ == "__main__":
    main()
