"""Instructions, not seconds: prio's commands on the benchmark inputs, counted by valgrind's
callgrind, for this checkout and (with --rev) a git revision side by side.

    python benchmarks/instructions.py [--rev REV] [--only PREFIX] [--queues 1000] [--asks 20000]
                                      [--fenced-asks N] [--dir DIR]

Why: this machine's timings vary by about 15% between repeats of one command
(docs/performance.md), so a change of a few per cent does not show in run.py's seconds, however
often it alternates. callgrind counts the instructions a process executes: the same count for
the same interpreter, code and inputs, whatever else the machine is doing. It is a proxy, not a
timing: it does not see cache misses or memory traffic, so a change that moves data around is
still judged by run.py. Each count is the whole process (start, imports, load, run, output), as
run.py times it: a change to the run is diluted by the rest, and the job names are run.py's.

The inputs are run.py's (generate.py's shapes, cached under benchmarks/.cache), smaller by
default (1,000 queues, 20,000 asks): under callgrind a process runs about fifty times slower.
Each command runs once uncounted before it is counted, so that its bytecode (prio's, the
standard library's, yaml's) is compiled and cached first. --rev REV checks the revision
out into a temporary worktree (`git worktree add --detach`), counts it job by job beside this
checkout, and removes the worktree at the end; the change printed is this checkout's against it.
Needs valgrind (`apt-get install -y valgrind`): without it, says so and exits 2.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate import FENCED_SHAPES, GANG_SHAPES, SHAPES  # noqa: E402
from run import PY, inputs, small_config  # noqa: E402

CHECKOUT = os.path.dirname(HERE)
COLLECTED = re.compile(r"Collected : (\d+)")


def count(tree: str, args: list[str], cache: str) -> int:
    """The instructions of `python -m prio ARGS` with the prio of `tree` (its cli/ first on
    the path), its stdout discarded. Run once uncounted first: with a bytecode prefix every
    module imported (the standard library's and yaml's too) is compiled into it by the first
    process that imports it, which would count that compilation against whichever tree came
    first."""
    env = {**os.environ, "PYTHONPATH": os.path.join(tree, "cli"), "PYTHONPYCACHEPREFIX": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([PY, "-m", "prio", *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", PY, "-m", "prio", *args],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = COLLECTED.search(r.stderr)
    if r.returncode != 0 or m is None:
        sys.exit(f"instructions.py: prio {' '.join(args)} under callgrind failed (exit {r.returncode}): {r.stderr[-500:]}")
    return int(m.group(1))


def jobs(a) -> list[tuple[str, list[str]]]:
    """run.py's jobs that callgrind can count in minutes, those --only asks for: (name, prio's
    arguments), their inputs generated (only theirs) where not cached yet."""
    def simulate(shape, asks):
        q, s = inputs(a.dir, shape, a.queues, asks)
        return ["simulate", q, s, "-o", "json"]

    table = [(f"simulate-{shape}", lambda shape=shape: simulate(shape, a.asks)) for shape in SHAPES]
    table += [(f"simulate-{shape}", lambda shape=shape: simulate(shape, a.fenced_asks)) for shape in FENCED_SHAPES]
    # run.py's simulate-gangs row counted as its two shapes (100 queues; half --asks: 10,000 by default)
    table += [(f"simulate-{shape}", lambda shape=shape: ["simulate", *inputs(a.dir, shape, 100, max(100, a.asks // 2)), "-o", "json"])
              for shape in GANG_SHAPES]
    table += [("explain", lambda: ["explain", *inputs(a.dir, "capacity", a.queues, a.asks), "-o", "json"]),
              ("validate-10k", lambda: ["validate", inputs(a.dir, "capacity", a.queues, a.asks)[0]]),
              ("validate-fenced", lambda: ["validate", inputs(a.dir, FENCED_SHAPES[0], a.queues, a.fenced_asks)[0], "-o", "json"]),
              ("validate-20", lambda: ["validate", small_config(a.dir)]),
              ("version", lambda: ["--version"])]
    return [(name, make()) for name, make in table if name.startswith(a.only) or a.only.startswith(name)]


def main() -> None:
    ap = argparse.ArgumentParser(description="prio's instructions per benchmark job, under callgrind")
    ap.add_argument("--rev", help="a git revision to count beside this checkout")
    ap.add_argument("--only", default="", help="the jobs whose name starts with this")
    ap.add_argument("--queues", type=int, default=1000)
    ap.add_argument("--asks", type=int, default=20_000)
    ap.add_argument("--fenced-asks", type=int, default=None, help="asks of the fenced shapes (default: --asks)")
    ap.add_argument("--dir", default=os.path.join(HERE, ".cache"), help="where generated inputs are cached")
    a = ap.parse_args()
    a.fenced_asks = a.fenced_asks or a.asks
    if shutil.which("valgrind") is None:
        print("instructions.py: needs valgrind (apt-get install -y valgrind)", file=sys.stderr)
        sys.exit(2)
    cache = os.path.join(a.dir, "pycache")
    todo = jobs(a)
    if not todo:
        sys.exit(f"instructions.py: no job starts with {a.only!r}")
    other = None
    if a.rev:
        known = subprocess.run(["git", "-C", CHECKOUT, "rev-parse", "--verify", "--quiet", f"{a.rev}^{{commit}}"],
                               capture_output=True, text=True)
        if known.returncode != 0:
            print(f"instructions.py: --rev {a.rev}: not a commit of this repository", file=sys.stderr)
            sys.exit(2)
        other = tempfile.mkdtemp(prefix="prio-rev-")
        os.rmdir(other)  # git worktree add makes it
        subprocess.run(["git", "-C", CHECKOUT, "worktree", "add", "--detach", "-q", other, a.rev], check=True)
    try:
        print(f"{a.queues} queues, {a.asks} asks ({a.fenced_asks} in the fenced shapes); instructions of the whole process"
              + (f"; against {a.rev}" if a.rev else ""), flush=True)
        for name, args in todo:
            here = count(CHECKOUT, args, cache)
            line = f"{name:28} {here / 1e9:8.3f} G"
            if other:
                there = count(other, args, cache)
                line += f"   {a.rev}: {there / 1e9:8.3f} G   change {100 * (here - there) / there:+6.2f}%"
            print(line, flush=True)
    finally:
        if other:
            subprocess.run(["git", "-C", CHECKOUT, "worktree", "remove", "--force", other], check=False)


if __name__ == "__main__":
    main()
