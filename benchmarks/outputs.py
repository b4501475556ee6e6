"""Record prio's outputs (stdout, stderr, exit code) on the benchmark inputs and the samples, and
compare a later run with the record: every speed change must keep them byte-identical.

    python benchmarks/outputs.py record DIR [--asks 50000] [--queues 10000]
    python benchmarks/outputs.py compare DIR

The inputs are generate.py's shapes at the given size (cached like run.py's, under
benchmarks/.cache), the 20-line config of run.py and every bundled sample, in every format.
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from generate import SHAPES  # noqa: E402
from run import SMALL, inputs  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli"), "NO_COLOR": "1", "COLUMNS": "200", "TERM": "dumb"}
ENV.pop("PRIO_OUTPUT", None)
PY = sys.executable


def jobs(asks: int, queues: int, cache: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"version": ["--version"]}
    for shape in SHAPES:
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


def run(args: list[str]) -> dict:
    r = subprocess.run([PY, "-m", "prio", *args], env=ENV, cwd=ROOT, capture_output=True)
    return {"rc": r.returncode, "stdout": r.stdout, "stderr": r.stderr}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("action", choices=("record", "compare"))
    ap.add_argument("dir")
    ap.add_argument("--asks", type=int, default=50_000)
    ap.add_argument("--queues", type=int, default=10_000)
    ap.add_argument("--cache", default=os.path.join(HERE, ".cache"))
    ap.add_argument("--only", default="")
    ap.add_argument("--cli", default=None, help="run the prio package under this directory (e.g. an export of main's cli/)")
    a = ap.parse_args()
    if a.cli:
        ENV["PYTHONPATH"] = os.path.abspath(a.cli)
    meta = os.path.join(a.dir, "meta.json")
    if a.action == "compare":
        with open(meta) as fh:
            m = json.load(fh)
        a.asks, a.queues = m["asks"], m["queues"]
    os.makedirs(a.dir, exist_ok=True)
    todo = jobs(a.asks, a.queues, a.cache)
    bad = done = 0
    for name, args in todo.items():
        if not name.startswith(a.only):
            continue
        got = run(args)
        done += 1
        base = os.path.join(a.dir, name)
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
        print(f"{bad} of {done} differ" if bad else f"all {done} identical")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
