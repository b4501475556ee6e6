"""Benchmarks, run by hand: each job prints prio's time next to a floor measured in the same run.

    python benchmarks/run.py [--quick] [--asks 1000000] [--queues 10000] [--fenced-asks 200000]
                             [--repeat 1] [--only PREFIX]

Jobs (issue 13), each a fresh `prio` process (startup included), best of --repeat runs:
- simulate-<shape>: `prio simulate -o json` on 10,000 queues + 1,000,000 asks, for every shape of
  generate.SHAPES, against the floor for any Python tool doing this job: load the snapshot, sort
  its asks by (priority, order), write one JSON object per ask (target <= 2x, < 1 GiB).
- explain: `prio explain -o json` on the capacity shape against `json.load` of the snapshot (<= 2x).
- validate-10k: `prio validate` on the 10,000-queue config against parsing the file with
  yaml.CSafeLoader, timed inside one process (<= 3x).
- validate-20: `prio validate` on a 20-line config against `python -c "import yaml"` (<= 3x).
- version: `prio --version` against `python -c pass` (<= 3x).
Jobs of issue 31, the HTML report on the capacity shape (docs/html-report.md):
- html-report: `prio simulate -o html --output-file` against the same run's `-o json` (the page
  embeds that document: <= 1.1x); prints the page's size.
- html-load: headless Chromium opening that page and drawing it (a screenshot once the page's
  script ran) against Chromium opening an empty page, and the page's own time to build (its
  console line); skipped, saying so, without a Chromium (PRIO_CHROMIUM, or chromium on PATH).
Jobs of issue 27, on generate.FENCED_SHAPES (100 parents x 100 leaves, a third of the parents
fenced, a fifth of the leaves with an offset, no capacity, priorities -100..100):
- simulate-fenced-pods, simulate-fenced-vcore-memory: `prio simulate -o json` on 200,000 asks
  (--fenced-asks, a fifth of --asks unless given) in 10,000 leaves (--queues), against the same
  load+sort+write floor (<= 2x).
- validate-fenced: `prio validate -o json` of that config against parsing it with
  yaml.CSafeLoader inside one process, best of 5 (or of --repeat, if more) (<= 3x).
Job of issue 28, on generate.CLUSTER_SHAPES:
- simulate-cluster: `prio simulate -o json` on the capacity shape's config and asks with 1,000
  nodes (instead of one capacity), 1,000 users and user/group limits on a tenth of the queues,
  against the same prio run on the capacity shape: the same run without nodes and limits
  (<= 3x, < 1 GiB); also prints its ratio to the load+sort+write floor.
Job of preemption inside the run, on generate.PREEMPT_SHAPES (the reference engine's alone):
- simulate-preempt: `prio simulate -o json` on 20,000 applications of one ask each in one leaf
  under a guarantee, with nodes for about half of them and preemption on (2,000 with --quick, never
  more than --asks), against the same load+sort+write floor (target: well under a minute of CPU).
Job of issue 42, on generate.KUBE_SHAPES:
- simulate-kube-predicates: `prio simulate -o json` on a cluster read from kubectl JSON: 100,000
  pods (a tenth of --asks) on 1,000 nodes with labels and taints, a third of the pods with
  selectors, GPU tolerations or zone affinity, against the same run without predicates
  (kube-plain: no labels, taints, selectors, affinity or tolerations) (<= 3x, < 1 GiB).
Job of issue 48, on generate.KUEUE_SHAPES:
- simulate-kueue: `prio simulate -o json` on one Kueue input of 30 ClusterQueues (--queues, at
  most 30) in a three-level cohort tree and 10,000 Workloads (a hundredth of --asks), a tenth
  running, preemption on: Kueue's cycles replayed to the 200-cycle limit, against parsing the file
  with yaml.CSafeLoader inside one process (target: well under a minute of CPU).
Job of issue 49, on generate.VOLCANO_SHAPES:
- simulate-volcano: `prio simulate -o json` on one YAML of Volcano objects: 1,000 queues (a tenth
  of --queues), 100,000 pods (a tenth of --asks) in PodGroups of 1-40 on 1,000 nodes, Volcano's
  default config replayed cycle by cycle until quiet, against reading the same YAML with
  PyYAML's C loader (issue 49 names the row, not a target: the figure is docs/performance.md's).
Job of issue 45, on generate.GANG_SHAPES (the reference engine's alone):
- simulate-gangs: `prio simulate -o json` on 1,000 gang applications of 100 pods (100,000
  placeholders, then 100,000 real pods taking their places; a tenth of --asks pods, in 100 fifo
  leaves) on 1,000 nodes, against the same asks without gangs (gangs-plain) (<= 3x, < 1 GiB).
Generated inputs are cached under benchmarks/.cache (gitignored; --dir to put them elsewhere).
--quick runs a tenth of the size (100,000 asks, 1,000 queues; 20,000 fenced asks) while iterating.
Every process runs with compiled bytecode, as an installed prio does (pip compiles it): the
bytecode goes under the cache dir (PYTHONPYCACHEPREFIX, never into the source tree), compiled
before the first job (compileall, untimed), even where the environment says
PYTHONDONTWRITEBYTECODE.
A row's commands run in turn, the floor first (floor, prio, floor, prio, ...: `alternated`),
best of --repeat each: this machine's speed drifts by a third over minutes, and runs of one
command after all of the other's would put that drift into their ratio.
The ratio is of wall times, as the targets are; each row also prints the best CPU times (user+sys
of the process, or of the parse for an in-process floor) and their ratio: on a busy machine wall
times wait for a core, and the two ratios part (then measure again, or read the CPU one).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate import (  # noqa: E402
    CLUSTER_SHAPES,
    FENCED_SHAPES,
    GANG_SHAPES,
    GENERATION,
    KUBE_SHAPES,
    KUEUE_SHAPES,
    PREEMPT_SHAPES,
    SHAPES,
    VOLCANO_SHAPES,
)

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

PARSE = r"""
import sys, time, yaml
t, c = time.perf_counter(), time.process_time()
yaml.load(open(sys.argv[1]), Loader=yaml.CSafeLoader)
print(time.perf_counter() - t, time.process_time() - c)
"""

PARSE_ALL = PARSE.replace("yaml.load(open(sys.argv[1]), Loader=yaml.CSafeLoader)",
                          "list(yaml.load_all(open(sys.argv[1]), Loader=yaml.CSafeLoader))")  # every document

SMALL = """\
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: system
            properties:
              priority.policy: fence
              priority.offset: "1000"
          - name: tenants
            properties:
              application.sort.policy: fair
            queues:
              - name: tenant-a
                properties:
                  priority.offset: "10"
              - name: tenant-b
                resources:
                  guaranteed: {vcore: 10, memory: 10Gi}
                  max: {vcore: 20, memory: 20Gi}
"""


def once(cmd: list[str]) -> tuple[float, float, float]:
    """One run of cmd: its wall time, the peak RSS (MiB) of the child itself and its CPU time
    (user+sys, os.wait4)."""
    with tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode not in (0, 1):
            err.seek(0)
            raise SystemExit(f"{cmd} failed: {err.read().decode()[-500:]}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def once_in_process(cmd: list[str]) -> tuple[float, float, float]:
    """One run of a floor that times itself (wall and CPU time, printed on stdout)."""
    r = subprocess.run(cmd, env=ENV, capture_output=True, text=True, check=True)
    wall, used = r.stdout.split()[-2:]
    return float(wall), 0.0, float(used)


def best(runs: list) -> tuple[float, float, float]:
    """The best wall time, the highest peak and the best CPU time of some runs."""
    return min(r[0] for r in runs), max(r[1] for r in runs), min(r[2] for r in runs)


def alternated(jobs: list, repeat: int) -> list:
    """Each job (a function making one run) run `repeat` times in turn, the first job first,
    then the next...: a machine whose speed drifts during a row slows every job of it alike,
    where runs of one job after the other's would put the drift into their ratio. The best of
    each job's runs."""
    runs: list = [[] for _ in jobs]
    for _ in range(repeat):
        for got, job in zip(runs, jobs):
            got.append(job())
    return [best(r) for r in runs]


def against(cmd: list[str], floor: list[str], repeat: int, floor_in_process: bool = False) -> tuple:
    """(prio's, the floor's) best of `repeat` runs each, alternated, the floor first."""
    measure = once_in_process if floor_in_process else once
    base, got = alternated([lambda: measure(floor), lambda: once(cmd)], repeat)
    return got, base


def row(name, prio, base, base_name, target):
    print(f"{name:28} prio {prio[0]:7.2f} s (peak {prio[1]:5.0f} MiB)   {base_name:22} {base[0]:6.2f} s   "
          f"ratio {prio[0] / base[0]:5.2f}x   target {target}   (cpu {prio[2]:.2f} s / {base[2]:.2f} s = "
          f"{prio[2] / max(base[2], 1e-6):.2f}x)", flush=True)


def chromium() -> str | None:
    return os.environ.get("PRIO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def browser_load(browser: str, page: str, repeat: int) -> tuple[float, float, float, int]:
    """Chromium opening `page` until its screenshot (taken after the page's script ran): best
    wall time, peak RSS of the browser process (MiB), CPU time, and the page's own build time in
    ms (its console line; 0 for a page without one)."""
    best = cpu = float("inf")
    peak, built = 0.0, 0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as d:
            cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={d}",
                   "--enable-logging=stderr", "--v=0", "--hide-scrollbars", "--window-size=1400,900",
                   "--virtual-time-budget=120000", f"--screenshot={os.path.join(d, 'shot.png')}", "file://" + os.path.abspath(page)]
            t = time.perf_counter()
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            err = p.stderr.read()
            _, status, usage = os.wait4(p.pid, 0)
            best = min(best, time.perf_counter() - t)
            if os.waitstatus_to_exitcode(status) != 0 or not os.path.exists(os.path.join(d, "shot.png")):
                raise SystemExit(f"chromium could not open {page}: {err[-500:]}")
            m = re.search(r"prio report: built in (\d+) ms", err)
            built = int(m.group(1)) if m else built
        peak = max(peak, usage.ru_maxrss / 1024)
        cpu = min(cpu, usage.ru_utime + usage.ru_stime)
    return best, peak, cpu, built


def inputs(root: str, shape: str, queues: int, asks: int) -> tuple[str, str]:
    """The queues.yaml and the snapshot of a shape (for KUBE_SHAPES: the directory holding
    nodes.json and pods.json; for KUEUE_SHAPES: kueue.yaml twice), generated once."""
    out = os.path.join(root, f"{shape}-{queues}q-{asks}a-v{GENERATION}")
    q, s = os.path.join(out, "queues.yaml"), out if shape in KUBE_SHAPES else os.path.join(out, "asks.json")
    if shape in KUEUE_SHAPES:
        q = s = os.path.join(out, "kueue.yaml")
    if shape in VOLCANO_SHAPES:
        q = s = os.path.join(out, "volcano.yaml")
    if not (os.path.exists(q) and os.path.exists(s)):
        print(f"generating {shape}: {queues} queues and {asks} asks in {out} ...", flush=True)
        # in a child process: a child's peak RSS (os.wait4) starts from this process's own when
        # it is spawned (vfork), so generating a million asks here would inflate every later peak
        subprocess.run([PY, os.path.join(HERE, "generate.py"), out + ".tmp", "--queues", str(queues),
                        "--asks", str(asks), "--shape", shape], check=True, stdout=subprocess.DEVNULL)
        os.replace(out + ".tmp", out)
    return q, s


def small_config(d: str) -> str:
    """validate-20's input: SMALL written under the cache dir `d`; its path."""
    small = os.path.join(d, "small.yaml")
    os.makedirs(d, exist_ok=True)
    with open(small, "w") as fh:
        fh.write(SMALL)
    return small


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--asks", type=int, default=None)
    ap.add_argument("--queues", type=int, default=None)
    ap.add_argument("--fenced-asks", type=int, default=None, help="asks of the fenced shapes (default: a fifth of --asks)")
    ap.add_argument("--quick", action="store_true", help="a tenth of the size (100,000 asks, 1,000 queues)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--only", default="", help="run the jobs whose name starts with this")
    ap.add_argument("--dir", default=os.path.join(HERE, ".cache"), help="where generated inputs are cached")
    a = ap.parse_args()
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    ENV["PYTHONPYCACHEPREFIX"] = os.path.join(a.dir, "pycache")
    subprocess.run([PY, "-m", "compileall", "-q", os.path.join(os.path.dirname(HERE), "cli", "prio")], env=ENV, check=True)
    div = 10 if a.quick else 1
    asks = a.asks or 1_000_000 // div
    queues = a.queues or 10_000 // div
    fenced = a.fenced_asks or max(1, asks // 5)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {queues} queues, {asks} asks "
          f"({fenced} in the fenced shapes)", flush=True)
    want = lambda job: job.startswith(a.only) or a.only.startswith(job)
    prio = [PY, "-m", "prio"]
    for shape in SHAPES:
        job = f"simulate-{shape}"
        if want(job):
            q, s = inputs(a.dir, shape, queues, asks)
            got, base = against(prio + ["simulate", q, s, "-o", "json"], [PY, "-c", FLOOR, s], a.repeat)
            row(job, got, base, "load+sort+write", "<= 2x, < 1 GiB")
    for shape in FENCED_SHAPES:
        job = f"simulate-{shape}"
        if want(job):
            q, s = inputs(a.dir, shape, queues, fenced)
            got, base = against(prio + ["simulate", q, s, "-o", "json"], [PY, "-c", FLOOR, s], a.repeat)
            row(job, got, base, "load+sort+write", "<= 2x")
    for shape in CLUSTER_SHAPES:
        job = f"simulate-{shape}"
        if want(job):
            q, s = inputs(a.dir, shape, queues, asks)
            cq, cs = inputs(a.dir, "capacity", queues, asks)
            base, plain, got = alternated([lambda s=s: once([PY, "-c", FLOOR, s]), lambda cq=cq, cs=cs: once(prio + ["simulate", cq, cs, "-o", "json"]),
                                           lambda q=q, s=s: once(prio + ["simulate", q, s, "-o", "json"])], a.repeat)
            row(job, got, plain, "no nodes or limits", "<= 3x, < 1 GiB")
            row("", got, base, "load+sort+write", "(for reference)")
    if want("simulate-kube-predicates"):
        pods = max(10, asks // 10)
        kube = {shape: inputs(a.dir, shape, 1, pods) for shape in KUBE_SHAPES}

        def kube_run(shape):
            q, d = kube[shape]
            return prio + ["simulate", q, os.path.join(d, "nodes.json"), os.path.join(d, "pods.json"), "-o", "json"]

        plain, got = alternated([lambda: once(kube_run("kube-plain")), lambda: once(kube_run("kube-predicates"))], a.repeat)
        row("simulate-kube-predicates", got, plain, "without predicates", "<= 3x, < 1 GiB")
    for shape in VOLCANO_SHAPES:
        job = f"simulate-{shape}"
        if want(job):
            v, _ = inputs(a.dir, shape, max(1, queues // 10), max(10, asks // 10))
            floor = "import sys, yaml; list(yaml.load_all(open(sys.argv[1]), Loader=yaml.CSafeLoader))"
            got, base = against(prio + ["simulate", v, "-o", "json"], [PY, "-c", floor, v], a.repeat)
            row(job, got, base, "yaml.CSafeLoader", "(none set)")
    if want("simulate-gangs"):
        pods = max(100, asks // 10)
        gq = {shape: inputs(a.dir, shape, 100, pods) for shape in GANG_SHAPES}

        def gang_run(shape):
            q, s = gq[shape]
            return prio + ["simulate", q, s, "-o", "json"]

        plain, got = alternated([lambda: once(gang_run("gangs-plain")), lambda: once(gang_run("gangs"))], a.repeat)
        row("simulate-gangs", got, plain, "the same asks without gangs", "<= 3x, < 1 GiB")
    for shape in PREEMPT_SHAPES:
        job = f"simulate-{shape}"
        if want(job):
            q, s = inputs(a.dir, shape, 1, min(20_000 // div, asks))
            got, base = against(prio + ["simulate", q, s, "-o", "json"], [PY, "-c", FLOOR, s], a.repeat)
            row(job, got, base, "load+sort+write", "< 60 s CPU")
    for shape in KUEUE_SHAPES:
        job = f"simulate-{shape}"
        if want(job):
            k, _ = inputs(a.dir, shape, min(30, queues), max(30, asks // 100))
            got, base = against(prio + ["simulate", k, "-o", "json"], [PY, "-c", PARSE_ALL, k], a.repeat, floor_in_process=True)
            row(job, got, base, "CSafeLoader parse", "< 60 s CPU")
    if want("explain"):
        q, s = inputs(a.dir, "capacity", queues, asks)
        got, base = against(prio + ["explain", q, s, "-o", "json"], [PY, "-c", "import json, sys; json.load(open(sys.argv[1]))", s], a.repeat)
        row("explain", got, base, "json.load", "<= 2x")
    page = os.path.join(a.dir, f"report-{queues}q-{asks}a.html")
    if want("html-report"):
        q, s = inputs(a.dir, "capacity", queues, asks)
        got, base = against(prio + ["simulate", q, s, "-o", "html", "--output-file", page],
                            prio + ["simulate", q, s, "-o", "json", "--output-file", os.path.join(a.dir, "report.json")], a.repeat)
        row("html-report", got, base, "the same -o json", "<= 1.1x")
        print(f"{'':28} page {os.path.getsize(page) / 2**20:.1f} MiB, its JSON {os.path.getsize(os.path.join(a.dir, 'report.json')) / 2**20:.1f} MiB", flush=True)
    if want("html-load"):
        browser = chromium()
        if browser is None:
            print("html-load                    skipped: no Chromium (apt-get install -y chromium, or set PRIO_CHROMIUM)", flush=True)
        else:
            if not os.path.exists(page):
                q, s = inputs(a.dir, "capacity", queues, asks)
                once(prio + ["simulate", q, s, "-o", "html", "--output-file", page])
            empty = os.path.join(a.dir, "empty.html")
            with open(empty, "w") as fh:
                fh.write("<!DOCTYPE html><title>empty</title>")
            base = browser_load(browser, empty, a.repeat)
            load = browser_load(browser, page, a.repeat)
            row("html-load", load[:3], base[:3], "Chromium, empty page", "< 20 s")
            print(f"{'':28} the page's script built it in {load[3] / 1000:.2f} s (parse of the embedded JSON included)", flush=True)
    if want("validate-10k"):
        q, _ = inputs(a.dir, "capacity", queues, asks)
        got, base = against(prio + ["validate", q], [PY, "-c", PARSE, q], a.repeat, floor_in_process=True)
        row("validate-10k", got, base, "CSafeLoader parse", "<= 3x")
    if want("validate-fenced"):
        q, _ = inputs(a.dir, FENCED_SHAPES[0], queues, fenced)
        n = max(5, a.repeat)
        got, base = against(prio + ["validate", q, "-o", "json"], [PY, "-c", PARSE, q], n, floor_in_process=True)
        row("validate-fenced", got, base, "CSafeLoader parse", "<= 3x")
    if want("validate-20"):
        got, base = against(prio + ["validate", small_config(a.dir)], [PY, "-c", "import yaml"], a.repeat)
        row("validate-20", got, base, "python -c 'import yaml'", "<= 3x")
    if want("version"):
        got, base = against(prio + ["--version"], [PY, "-c", "pass"], a.repeat)
        row("version", got, base, "python -c pass", "<= 3x")


if __name__ == "__main__":
    main()
