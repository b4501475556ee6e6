"""Record prio's outputs (stdout, stderr, exit code) on the benchmark inputs and the samples, and
compare a later run with the record: every speed change must keep them byte-identical. Or
compare the fast engine with the reference engine of the same checkout, job by job.

    python benchmarks/outputs.py record DIR [--asks 50000] [--queues 10000]
    python benchmarks/outputs.py compare DIR
    python benchmarks/outputs.py engines [DIR] [--asks 3000] [--queues 1000]

The inputs are generate.py's shapes at the given size (cached like run.py's, under
benchmarks/.cache), the 20-line config of run.py and every bundled sample, in every format.
record and compare run prio as the environment says (PRIO_ENGINE too, if set); compare reports
a job the record does not have (recorded before it was added) as not recorded, not as a
difference.

engines runs every simulate and explain job twice, with PRIO_ENGINE=fast and with
PRIO_ENGINE=reference, and reports each job identical or differing (stdout, stderr, exit code):
exit 1 on any difference. Its default size is small (3,000 asks in 1,000 queues: the reference
engine is the obviously correct slow one). With DIR, the two outputs of every differing job are
written there (NAME.fast.stdout, NAME.reference.stdout, ...) for a diff.
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from generate import CLUSTER_SHAPES, FENCED_SHAPES, SHAPES  # noqa: E402
from run import SMALL, inputs  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli"), "NO_COLOR": "1", "COLUMNS": "200", "TERM": "dumb"}
ENV.pop("PRIO_OUTPUT", None)
PY = sys.executable


def jobs(asks: int, queues: int, cache: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"version": ["--version"]}
    for shape in SHAPES + FENCED_SHAPES + CLUSTER_SHAPES:
        q, s = inputs(cache, shape, queues, asks)
        for fmt in ("json", "plain"):
            out[f"simulate-{shape}-{fmt}"] = ["simulate", q, s, "-o", fmt]
        out[f"explain-{shape}-json"] = ["explain", q, s, "-o", "json"]
        out[f"explain-{shape}-plain"] = ["explain", q, s, "-o", "plain"]
    # JSON under 2 MiB (read by the json module, positions on demand) and a JSON snapshot with an error
    sq, ss = inputs(cache, "capacity", 1000, 5000)
    out["simulate-small-json"] = ["simulate", sq, ss, "-o", "json"]
    out["explain-small-json"] = ["explain", sq, ss, "-o", "json"]
    bad = os.path.join(cache, "bad-snapshot.json")
    with open(bad, "w") as fh:
        json.dump({"applications": [{"id": f"a{i}", "queue": "root.x", "asks": [{"priority": "high" if i == 7 else 1}]}
                                    for i in range(10)]}, fh, indent=2)
    out["simulate-bad-snapshot"] = ["simulate", bad]
    q, _ = inputs(cache, "capacity", queues, asks)
    for fmt in ("text", "json"):
        out[f"validate-10k-{fmt}"] = ["validate", q, "-o", fmt]
    small = os.path.join(cache, "small.yaml")
    with open(small, "w") as fh:
        fh.write(SMALL)
    out["validate-20"] = ["validate", small]
    samples = sorted(os.path.basename(p).rsplit(".", 1)[0] for p in glob.glob(os.path.join(ROOT, "samples", "*")))
    for name in ("walkthrough", "batch", "pods", "armada-current", "armada-scenario", "armada-reports"):
        for cmd in ("explain", "simulate"):
            for fmt in ("json", "plain", "markdown", "table"):
                out[f"{cmd}-sample-{name}-{fmt}"] = [cmd, "--sample", name, "-o", fmt]
    for f in samples:
        path = glob.glob(os.path.join(ROOT, "samples", f + ".*"))[0]
        rel = os.path.relpath(path, ROOT)
        for fmt in ("text", "json", "sarif", "github", "gitlab", "junit", "markdown"):
            out[f"validate-{f}-{fmt}"] = ["validate", rel, "-o", fmt]
    for name in ("walkthrough", "batch"):
        out[f"explain-why-{name}"] = ["explain", "--sample", name, "--why", "root"]
        out[f"preempt-{name}"] = ["preempt", "--sample", name]
    out["simulate-nosuch"] = ["simulate", "nosuch.yaml"]
    out["validate-bad-json"] = ["validate", os.path.join(cache, "bad.json")]
    with open(os.path.join(cache, "bad.json"), "w") as fh:
        fh.write('{"partitions": [\n  {"name": "default",\n   "queues": [}\n]}\n')
    return out


def run(args: list[str], **env: str) -> dict:
    t = time.perf_counter()
    r = subprocess.run([PY, "-m", "prio", *args], env={**ENV, **env}, cwd=ROOT, capture_output=True)
    return {"rc": r.returncode, "stdout": r.stdout, "stderr": r.stderr, "time": time.perf_counter() - t}


def first_difference(a: bytes, b: bytes) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb), 1):
        if x != y:
            return f"line {i}"
    return f"line {min(len(la), len(lb)) + 1} (one is {len(la)} lines, the other {len(lb)})"


def engines(todo: dict[str, list[str]], only: str, keep: str | None) -> int:
    """Every simulate and explain job with PRIO_ENGINE=fast and =reference: how many differ."""
    source = os.path.join(ENV["PYTHONPATH"].split(os.pathsep)[0], "prio")
    if not any("PRIO_ENGINE" in open(f, encoding="utf-8", errors="replace").read()
               for f in glob.glob(os.path.join(source, "**", "*.py"), recursive=True)):
        print(f"note: nothing under {os.path.relpath(source, ROOT)} reads PRIO_ENGINE: both runs take the same engine",
              flush=True)
    bad = done = 0
    for name, args in todo.items():
        if not name.startswith(("simulate", "explain")) or not name.startswith(only):
            continue
        fast, ref = run(args, PRIO_ENGINE="fast"), run(args, PRIO_ENGINE="reference")
        done += 1
        diffs = [k for k in ("stdout", "stderr", "rc") if fast[k] != ref[k]]
        took = f"fast {fast['time']:.2f} s, reference {ref['time']:.2f} s"
        if not diffs:
            print(f"{name}: identical ({took})", flush=True)
            continue
        bad += 1
        where = [f"{k} from {first_difference(fast[k], ref[k])}" if k != "rc" else f"rc {fast['rc']} vs {ref['rc']}"
                 for k in diffs]
        print(f"{name}: DIFFERS in {', '.join(where)} ({took})", flush=True)
        if keep:
            os.makedirs(keep, exist_ok=True)
            for engine, got in (("fast", fast), ("reference", ref)):
                for k in ("stdout", "stderr"):
                    with open(os.path.join(keep, f"{name}.{engine}.{k}"), "wb") as fh:
                        fh.write(got[k])
                with open(os.path.join(keep, f"{name}.{engine}.rc"), "w") as fh:
                    fh.write(str(got["rc"]))
    print(f"{bad} of {done} differ between the engines" if bad else f"all {done} identical between the engines")
    return bad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("action", choices=("record", "compare", "engines"))
    ap.add_argument("dir", nargs="?", help="the record (record, compare); where differing outputs go (engines)")
    ap.add_argument("--asks", type=int, default=None, help="default 50,000 (record), 3,000 (engines)")
    ap.add_argument("--queues", type=int, default=None, help="default 10,000 (record), 1,000 (engines)")
    ap.add_argument("--cache", default=os.path.join(HERE, ".cache"))
    ap.add_argument("--only", default="")
    ap.add_argument("--cli", default=None, help="run the prio package under this directory (e.g. an export of main's cli/)")
    a = ap.parse_args()
    if a.cli:
        ENV["PYTHONPATH"] = os.path.abspath(a.cli)
    if a.action == "engines":
        os.makedirs(a.cache, exist_ok=True)
        todo = jobs(a.asks or 3000, a.queues or 1000, a.cache)
        sys.exit(1 if engines(todo, a.only, a.dir) else 0)
    if a.dir is None:
        ap.error(f"{a.action} needs DIR")
    a.asks, a.queues = a.asks or 50_000, a.queues or 10_000
    meta = os.path.join(a.dir, "meta.json")
    if a.action == "compare":
        with open(meta) as fh:
            m = json.load(fh)
        a.asks, a.queues = m["asks"], m["queues"]
    os.makedirs(a.dir, exist_ok=True)
    todo = jobs(a.asks, a.queues, a.cache)
    bad = done = missing = 0
    for name, args in todo.items():
        if not name.startswith(a.only):
            continue
        base = os.path.join(a.dir, name)
        if a.action == "compare" and not os.path.exists(f"{base}.rc"):
            print(f"{name}: not recorded", flush=True)
            missing += 1
            continue
        got = run(args)
        done += 1
        if a.action == "record":
            for k in ("stdout", "stderr"):
                with open(f"{base}.{k}", "wb") as fh:
                    fh.write(got[k])
            with open(f"{base}.rc", "w") as fh:
                fh.write(str(got["rc"]))
            print(f"{name}: rc {got['rc']}, {len(got['stdout'])} bytes, sha {hashlib.sha256(got['stdout']).hexdigest()[:12]}", flush=True)
        else:
            diffs = []
            for k in ("stdout", "stderr"):
                with open(f"{base}.{k}", "rb") as fh:
                    if fh.read() != got[k]:
                        diffs.append(k)
            with open(f"{base}.rc") as fh:
                if fh.read() != str(got["rc"]):
                    diffs.append("rc")
            bad += bool(diffs)
            print(f"{name}: {'DIFFERS in ' + ', '.join(diffs) if diffs else 'identical'}", flush=True)
    if a.action == "record":
        with open(meta, "w") as fh:
            json.dump({"asks": a.asks, "queues": a.queues}, fh)
    else:
        print((f"{bad} of {done} differ" if bad else f"all {done} identical")
              + (f" ({missing} not recorded)" if missing else ""))
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
