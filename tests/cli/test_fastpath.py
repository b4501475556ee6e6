"""The console script's fast path (prio.cli.fastpath; issue 13 for validate, issue 27 for
simulate, explain, preempt and diff): it parses a command's arguments without typer when it can
read them exactly, and hands everything else to the typer app. Both paths must answer byte for
byte the same: a matrix of argument shapes per command (every option, long, short, clustered,
`--opt=value`, `--`, `-`, repeated, combined, numbers, the environment variables typer reads,
errors, help) runs through the fast path (the console script's entry point) and through the
typer app alone (prio.cli.app.main), comparing stdout, stderr, the exit code and any file
written. Each case also says whether the fast path must take it (so a fast path that always
gives up cannot pass)."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, sample
from prio.cli import fastpath

CLEAN = """\
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
            queues:
              - name: tenant-a
                properties:
                  priority.offset: "10"
"""

WARN = """\
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: a
            properties:
              priority.policy: fenced
"""

ENV_VARS = ("PRIO_OUTPUT", "PRIO_OUTPUT_FILE", "PRIO_CONFIG", "PRIO_STRICT", "PRIO_COLOR", "NO_COLOR",
            "GITHUB_ACTIONS", "PRIO_NO_FAST_PATH", "_PRIO_COMPLETE", "PRIO_ENGINE", "PRIO_YUNIKORN_URL",
            "PRIO_YUNIKORN_HEADER", "PRIO_YUNIKORN_CACERT", "PRIO_YUNIKORN_TIMEOUT")
FORMATS = ("text", "json", "sarif", "github", "gitlab", "junit", "markdown", "auto")

# (the command, args after it, environment, stdin, True when the fast path must take the run itself)
CASES: list[tuple[str, list[str], dict, str, bool]] = []


def case(args, env=None, stdin="", fast=True, command="validate"):
    CASES.append((command, list(args), dict(env or {}), stdin, fast))


# paths, stdin, directories, missing and broken files
for paths in (["clean.yaml"], ["mistakes.yaml"], ["warn.yaml"], ["broken.yaml"], ["nope.yaml"], ["dir"],
              ["clean.yaml", "mistakes.yaml"], ["clean.yaml", "clean.yaml"], [""], ["pcs.yaml"]):
    case(paths)
case(["-"], stdin=open(sample("mistakes.yaml"), encoding="utf-8").read())
case(["clean.yaml", "-"], stdin=WARN)
case(["-"], stdin="partitions: [\n")
case(["--", "-q.yaml"])
case(["--", "clean.yaml", "--strict"])
case(["--", "--", "clean.yaml"])
case(["--", "-"], stdin=CLEAN)
case(["clean.yaml", "--"])
# every format, each way of saying it
for f in FORMATS:
    case(["mistakes.yaml", "-o", f])
    case(["-o", f, "warn.yaml"])
    case([f"--output={f}", "mistakes.yaml"])
    case(["--output", f, "clean.yaml"])
    case([f"-o{f}", "mistakes.yaml"])
    case(["mistakes.yaml", "-o", f.upper()])
    case(["mistakes.yaml", "-o", f, "--statistics"])
case(["mistakes.yaml", "-o", "\u017farif"])  # casefolds to sarif, as typer's choice does
case(["mistakes.yaml", "-o", "bad", "-o", "json"])  # the last one wins; only it is checked
case(["mistakes.yaml", "-o", "json", "-o", "text"])
case(["-o", "yaml", "clean.yaml"], fast=False)
case(["-o", "", "clean.yaml"], fast=False)
case(["clean.yaml", "-o"], fast=False)
case(["-o", "-q", "clean.yaml"], fast=False)
case(["-o=json", "clean.yaml"], fast=False)
case(["--output", "--", "clean.yaml"], fast=False)
# flags, alone, repeated, clustered
for flag in ("--strict", "-q", "--quiet", "-v", "--verbose", "--statistics", "--exit-zero", "--no-config"):
    for target in ("mistakes.yaml", "warn.yaml", "clean.yaml"):
        case([target, flag])
    case([flag, flag, "warn.yaml"])
for combo in (["-qv"], ["-vq"], ["-qojson"], ["-qo", "json"], ["-vqo", "sarif"], ["--strict", "-q"],
              ["--strict", "--exit-zero"], ["--strict", "--quiet", "--verbose", "--statistics"]):
    case(["warn.yaml", "mistakes.yaml", *combo])
for bad in (["-vx"], ["--strict=1"], ["--quiet=yes"], ["-q=1"], ["-quiet"], ["-x"], ["-1"], ["--nope"],
            ["--outp", "json"], ["--stat"], ["-q.yaml"], ["--no-config=1"]):
    case(["clean.yaml", *bad], fast=False)
# rules: --select / --ignore
for sel in (["--select", "PRIO1"], ["--select=PRIO131,PRIO003"], ["--select", "PRIO131", "--select", "PRIO003"],
            ["--select", "PRIO131 PRIO003"], ["--ignore", "PRIO131"], ["--ignore=placement-missing-queue"],
            ["--select", "PRIO1", "--ignore", "PRIO131"], ["--select", "nope"], ["--ignore", "PRIO9999"],
            ["--select", ""], ["--select", "ALL"]):
    case(["mistakes.yaml", *sel])
case(["mistakes.yaml", "--select"], fast=False)
case(["mistakes.yaml", "--select", "-PRIO1"], fast=False)
case(["mistakes.yaml", "--select=-PRIO1"])
# settings: --config / --no-config / PRIO_CONFIG
for cfg in (["--config", "settings.yaml"], ["--config=settings.yaml"], ["--config", "bad-settings.yaml"],
            ["--config", "missing.yaml"], ["--config", "settings.yaml", "--no-config"], ["--config="],
            ["--config", "bad-settings.yaml", "--config", "settings.yaml"]):
    case(["mistakes.yaml", *cfg])
for value in ("settings.yaml", "bad-settings.yaml", "missing.yaml", ""):
    case(["mistakes.yaml"], {"PRIO_CONFIG": value})
    case(["mistakes.yaml", "--no-config"], {"PRIO_CONFIG": value})
    case(["mistakes.yaml", "--config", "settings.yaml"], {"PRIO_CONFIG": value})
# the YuniKorn release: --yunikorn-version, PRIO_YUNIKORN_VERSION, --upgrade-to
for rel in (["--yunikorn-version", "1.5"], ["--yunikorn-version=1.8.0"], ["--yunikorn-version", "2.0"],
            ["--yunikorn-version", "1.8", "--upgrade-to", "1.9"], ["--upgrade-to=1.6"], ["--upgrade-to", "bogus"]):
    case(["mistakes.yaml", *rel])
case(["mistakes.yaml"], {"PRIO_YUNIKORN_VERSION": "1.6"})
case(["mistakes.yaml", "--yunikorn-version"], fast=False)
# PriorityClasses
for pcs in (["--priority-classes", "pcs.yaml"], ["--priority-classes=pcs.yaml"],
            ["--priority-classes", "pcs.yaml", "--priority-classes", "pcs.yaml"], ["--priority-classes", "nope.yaml"],
            ["--priority-classes", "clean.yaml"]):
    case(["clean.yaml", *pcs])
# colour: --color, PRIO_COLOR, NO_COLOR
for c in ("always", "never", "auto", "ALWAYS", "Never"):
    case(["mistakes.yaml", "--color", c])
    case(["mistakes.yaml", f"--color={c}", "-o", "github"])
    case(["mistakes.yaml"], {"PRIO_COLOR": c})
    case(["mistakes.yaml", "--color", "never"], {"PRIO_COLOR": c})
    case(["mistakes.yaml", "--color", c, "--output-file", "out.txt"])
case(["mistakes.yaml", "--color", "always"], {"NO_COLOR": "1"})
case(["mistakes.yaml"], {"NO_COLOR": "1", "PRIO_COLOR": "always"})
case(["mistakes.yaml", "--color", "bogus"], fast=False)
case(["mistakes.yaml"], {"PRIO_COLOR": "bogus"}, fast=False)
case(["mistakes.yaml", "--color", "always"], {"PRIO_COLOR": "bogus"})  # the command line wins
case(["mistakes.yaml"], {"PRIO_COLOR": ""})
# output files: --output-file / PRIO_OUTPUT_FILE
for of in (["--output-file", "out.txt"], ["--output-file=out.txt"], ["--output-file", "-"], ["--output-file="],
           ["--output-file", "nodir/out.txt"], ["--output-file", "out.txt", "--output-file", "out2.txt"],
           ["--output-file", "out.txt", "-o", "json", "-q"], ["--output-file=-x.txt"]):
    case(["mistakes.yaml", *of])
case(["mistakes.yaml", "--output-file", "--help"], fast=False)
for value in ("envout.txt", "", "-", "nodir/x.txt"):
    case(["mistakes.yaml"], {"PRIO_OUTPUT_FILE": value})
    case(["mistakes.yaml", "--output-file", "out.txt"], {"PRIO_OUTPUT_FILE": value})
# strictness from PRIO_STRICT, as typer reads a boolean variable
for value in ("1", "true", "TRUE", "tRuE", "yes", "Y", "on", "t", "0", "false", "No", "off", "f", "n", " 1 ", "",
              "  "):
    case(["warn.yaml"], {"PRIO_STRICT": value})
    case(["warn.yaml", "--strict"], {"PRIO_STRICT": value})
for value in ("maybe", "2", "yes please", "\uff54rue"):
    case(["warn.yaml"], {"PRIO_STRICT": value}, fast=False)
    case(["warn.yaml", "--strict"], {"PRIO_STRICT": value})  # the command line wins: no variable read
# PRIO_OUTPUT and GITHUB_ACTIONS
for value in ("json", "SARIF", "table", "bogus", "", "auto"):
    case(["mistakes.yaml"], {"PRIO_OUTPUT": value})
    case(["mistakes.yaml", "-o", "text"], {"PRIO_OUTPUT": value})
case(["mistakes.yaml"], {"GITHUB_ACTIONS": "true", "PRIO_OUTPUT": "auto"})
case(["mistakes.yaml", "-o", "auto"], {"GITHUB_ACTIONS": "true"})
# help, completion, missing arguments: typer's own
for h in (["--help"], ["-h"], ["clean.yaml", "--help"], ["-qh", "clean.yaml"], []):
    case(h, fast=False)
case(["--strict"], fast=False)
case(["-o", "json"], fast=False)
case(["clean.yaml"], {"_PRIO_COMPLETE": "bash_complete"}, fast=False)
case(["clean\udcff.yaml"], fast=False)  # not UTF-8: left to typer


# The analysis commands: simulate, explain, preempt and diff on small inputs.
INPUTS = {"simulate": ["q.yaml", "s.yaml"], "explain": ["q.yaml", "s.yaml"], "preempt": ["pq.yaml", "ps.yaml"],
          "diff": ["q.yaml", "q2.yaml", "s.yaml"]}
def _long_options(command):
    return fastpath.Table(fastpath.command(command)[0].DECLS).long


for cmd, inputs in INPUTS.items():
    def acase(args, env=None, stdin="", fast=True, cmd=cmd):
        known = _long_options(cmd)
        if all(a.split("=")[0] in known for a in args if a.startswith("--") and a != "--") or not fast:
            case(args, env, stdin, fast, command=cmd)
    acase(inputs)
    acase([*inputs, "-v"])
    acase(["--verbose", *inputs, "--partition", "default"])
    acase([*inputs, "--partition=nope"])
    for f in ("json", "plain", "markdown", "table", "JSON", "bogus"):
        acase([*inputs, "-o", f])
        acase([f"-o{f}", *inputs])
    acase([*inputs, "-vojson"])
    acase([*inputs, "--output", "plain"])
    acase([*inputs, "--output-file", "out.txt"])
    acase([*inputs, "--output-file=out.json", "-o", "json"])
    acase([*inputs, "--output-file", inputs[0]])  # refused: never over an input
    acase([*inputs], {"PRIO_OUTPUT_FILE": "env.txt"})
    acase([*inputs, "--priority-classes", "pcs.yaml"])
    acase([*inputs, "--priority-classes=pcs.yaml", "--priority-classes", "pcs.yaml"])
    for c in ("always", "never", "Auto"):
        acase([*inputs, "--color", c])
        acase([*inputs], {"PRIO_COLOR": c})
    acase([*inputs, "--color", "bogus"], fast=False)
    acase([*inputs], {"PRIO_COLOR": "bogus"}, fast=False)
    for e in ("fast", "REFERENCE", "auto"):
        acase([*inputs, "--engine", e])
        acase([*inputs], {"PRIO_ENGINE": e})
    acase([*inputs, "--engine", "quick"], fast=False)
    for v in ("1.5", "1.8.0", "nope"):
        acase([*inputs, "--yunikorn-version", v])
    acase([*inputs], {"PRIO_YUNIKORN_VERSION": "1.7"})
    acase([*inputs], {"PRIO_OUTPUT": "json"})
    acase([*inputs, "nope.yaml"])
    acase(["--", *inputs])
    acase([*inputs, "--kube", "--context", "x", "--namespace", "y"], {"PATH": ""})  # no kubectl: one line, exit 2
    acase([*inputs, "--kube", "--yunikorn-namespace", "y"], {"PATH": ""})
    acase([*inputs, "--yunikorn", "http://127.0.0.1:9", "--header", "X-A: 1", "--cacert", "nope.pem"])
    acase([*inputs, "--timeout", "1"], fast=False)  # a float: typer reads it
    for bad in (["--nope"], ["-x"], ["--verbose=1"], ["-o"], ["--partition"], ["--help"], ["-h"]):
        acase([*inputs, *bad], fast=False)
for cmd in ("simulate", "explain"):
    case(["q.yaml", "s.yaml", "--limit", "2"], command=cmd)
    case(["q.yaml", "s.yaml", "--limit=0", "-o", "plain"], command=cmd)
    for bad in ("-1", "03", "+2", "1_0", "x", ""):
        case(["q.yaml", "s.yaml", "--limit", bad], fast=False, command=cmd)
    case([], command=cmd)  # no input: the bundled sample
    case(["--sample", "batch"], command=cmd)
    case(["--sample", "nope"], command=cmd)
    case(["--sample", "armada-scenario", "--armada-model", "legacy", "--armada-decay", "document",
          "--armada-weighting", "legacy"], command=cmd)
case(["q.yaml", "s.yaml", "--steps", "3"], command="simulate")
case(["q.yaml", "s.yaml", "--steps=0", "--no-preemption"], command="simulate")
case(["q.yaml", "s.yaml", "--steps", "-3"], fast=False, command="simulate")
case(["--sample", "armada-scenario", "--rounds", "2", "--seed", "7"], command="simulate")
case(["--sample", "armada-scenario", "--rounds", "0"], fast=False, command="simulate")  # below the limit: typer's message
case(["q.yaml", "s.yaml", "--steps", "2", "--limit", "1"], command="simulate")
for extra in (["--queue", "root.tenants"], ["--why", "root.tenants.tenant-a"], ["--pending"], ["--pending", "--limit", "1"],
              ["--why-ask", "nope"], ["--why-workload", "a/b"], ["--why-job", "a/b"], ["--behind", "x"]):
    case(["q.yaml", "s.yaml", *extra], command="explain")
case(["--sample", "walkthrough", "--why-ask", "a1"], command="explain")
case(["--sample", "volcano", "--why-job", "default/nope"], command="explain")
case(["pq.yaml", "ps.yaml", "--ask", "nope"], command="preempt")
case([], command="preempt")
case(["--sample", "preemption", "-o", "json"], command="preempt")
case(["q.yaml", "q2.yaml", "s.yaml", "--fail-on", "priority,order"], command="diff")
case(["q.yaml", "q2.yaml", "s.yaml", "--fail-on=bogus"], command="diff")
case(["q.yaml", "q2.yaml"], command="diff")
case(["q.yaml"], fast=False, command="diff")  # NEW missing: typer's message
case([], fast=False, command="diff")
case(["-", "q2.yaml", "s.yaml"], stdin=CLEAN, command="diff")


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    (tmp_path / "clean.yaml").write_text(CLEAN)
    (tmp_path / "warn.yaml").write_text(WARN)
    (tmp_path / "-q.yaml").write_text(WARN)
    (tmp_path / "broken.yaml").write_text("partitions: [\n")
    shutil.copy(sample("mistakes.yaml"), tmp_path / "mistakes.yaml")
    shutil.copy(sample("priorityclasses.yaml"), tmp_path / "pcs.yaml")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "a.yaml").write_text(CLEAN)
    (tmp_path / "dir" / "b.yaml").write_text(WARN)
    (tmp_path / "settings.yaml").write_text("ignore: [PRIO131]\nseverity:\n  PRIO204: error\n")
    (tmp_path / "bad-settings.yaml").write_text("select: [NOPE]\n")
    shutil.copy(sample("walkthrough-queues.yaml"), tmp_path / "q.yaml")
    shutil.copy(sample("walkthrough-asks.yaml"), tmp_path / "s.yaml")
    (tmp_path / "q2.yaml").write_text(open(sample("walkthrough-queues.yaml"), encoding="utf-8").read().replace('"1000"', '"10"'))
    shutil.copy(sample("preemption-queues.yaml"), tmp_path / "pq.yaml")
    shutil.copy(sample("preemption-asks.yaml"), tmp_path / "ps.yaml")
    monkeypatch.chdir(tmp_path)
    for k in ENV_VARS:
        monkeypatch.delenv(k, raising=False)
    return tmp_path


def _invoke(main, command, args, env, stdin, root, monkeypatch) -> tuple:
    """Run `prio COMMAND ARGS` in this process through `main`; stdout, stderr, exit code and the
    files it wrote."""
    before = {p for p in _files(root)}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdout, sys.stderr, sys.stdin, sys.argv
    streams = (io.TextIOWrapper(out, encoding="utf-8", write_through=True),
               io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True))
    sys.stdout, sys.stderr = streams
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    sys.argv = ["prio", command, *args]
    from prio.cli import lifetime

    # entry.main marks the process as prio's own (lifetime.ACTIVE) when typer takes the
    # arguments: undone after the test, or later in-process runs would keep their objects
    monkeypatch.setattr(lifetime, "ACTIVE", lifetime.ACTIVE)
    monkeypatch.setattr(lifetime, "KEPT", [])
    monkeypatch.setattr(lifetime, "may_end_early", lambda: False)  # never os._exit out of the test process
    import gc

    collecting = gc.isenabled()  # a run of prio's own leaves the collector off (guard.py): restored below
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        if collecting:
            gc.enable()
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr, sys.stdin, sys.argv = saved
        result = out.getvalue(), err.getvalue()
        for stream in streams:
            stream.detach()
        for k in env:
            monkeypatch.delenv(k, raising=False)
    written = {}
    for p in sorted(set(_files(root)) - before):
        with open(p, "rb") as fh:
            written[os.path.relpath(p, root)] = fh.read()
        os.unlink(p)
    return result + (code, written)


def _files(root):
    for d, _dirs, files in os.walk(root):
        for f in files:
            yield os.path.join(d, f)


def _ids():
    return [f"{i}:{c}:{' '.join(a)}:{e}" for i, (c, a, e, _s, _f) in enumerate(CASES)]


def _options_class(command):
    return fastpath.command(command)[0]


@pytest.mark.parametrize("command,args,env,stdin,fast", CASES, ids=_ids())
def test_fast_path_answers_as_typer(command, args, env, stdin, fast, workdir, monkeypatch):
    from prio.cli import app as app_mod
    from prio.cli import entry

    environ = {**{k: v for k, v in os.environ.items() if k not in ENV_VARS}, **env}
    assert (fastpath.parse(_options_class(command), args, environ) is not None) == fast, "the fast path should " + (
        "take" if fast else "leave to typer") + f" {command} {args} {env}"
    typer_path = _invoke(app_mod.main, command, args, env, stdin, workdir, monkeypatch)
    fast_path = _invoke(entry.main, command, args, env, stdin, workdir, monkeypatch)
    assert fast_path[2] == typer_path[2], (fast_path, typer_path)
    assert fast_path[1] == typer_path[1]
    assert fast_path[0] == typer_path[0]
    assert fast_path[3] == typer_path[3]


@pytest.mark.parametrize("command", sorted(fastpath.COMMANDS))
def test_the_matrix_covers_every_option(command):
    t = fastpath.Table(_options_class(command).DECLS)
    mine = [(a, e, f) for c, a, e, _s, f in CASES if c == command]
    used = {a.split("=")[0] for args, _e, _f in mine for a in args if a.startswith("--")}
    assert set(t.long) <= used
    short = {a[1] for args, _e, _f in mine for a in args if re.fullmatch(r"-[a-z]", a)}
    assert set(t.short) <= short
    assert set(t.envvars.values()) <= {k for _a, e, _f in mine for k in e}
    assert sum(f for *_x, f in mine) > 40 and sum(not f for *_x, f in mine) > 8


@pytest.mark.parametrize("command", sorted(fastpath.COMMANDS))
def test_the_fast_path_knows_the_options_typer_declares(command):
    """Adding an option to a fast command without teaching the fast path fails here."""
    import typer.main

    from prio.cli.app import _register, app

    _register()
    t = fastpath.Table(_options_class(command).DECLS)
    cmd = typer.main.get_command(app).commands[command]
    long_, short, flags, multiple, single, envvars = {}, {}, set(), set(), set(), {}
    for p in cmd.params:
        if p.param_type_name != "option":
            assert p.name in {a.name for a in t.args}
            continue
        if p.name == "help":
            continue
        for o in p.opts + p.secondary_opts:
            (long_ if o.startswith("--") else short)[o.lstrip("-") if not o.startswith("--") else o] = p.name
        (flags if p.is_flag else multiple if p.multiple else single).add(p.name)
        if p.envvar:
            envvars[p.name] = p.envvar
    assert long_ == t.long
    assert short == t.short
    assert flags == set(t.flags) and multiple == set(t.multiple) and single == set(t.single)
    assert envvars == t.envvars


def _process(args, env, stdin=b"", cwd=None, command="validate"):
    full = {**{k: v for k, v in os.environ.items() if k not in ENV_VARS}, "PYTHONPATH": os.path.join(ROOT, "cli"),
            "COLUMNS": "120", **env}
    r = subprocess.run([sys.executable, "-m", "prio", command, *args], input=stdin, capture_output=True,
                       env=full, cwd=cwd)
    return r.stdout, r.stderr, r.returncode


@pytest.mark.parametrize("args,env,stdin", [
    (["mistakes.yaml"], {}, b""),
    (["-", "-o", "json", "--strict"], {"PRIO_COLOR": "always"}, WARN.encode()),
    (["mistakes.yaml", "--output-file", "out.txt", "-qv"], {"PRIO_STRICT": "yes"}, b""),
    (["--help"], {}, b""),
    (["clean.yaml", "--nope"], {}, b""),
], ids=["plain", "stdin", "file", "help", "unknown"])
def test_both_paths_as_processes(args, env, stdin, workdir):
    """The real console entry (python -m prio), with and without PRIO_NO_FAST_PATH."""
    fast = _process(args, env, stdin, cwd=workdir)
    written = (workdir / "out.txt").read_bytes() if (workdir / "out.txt").exists() else None
    typer_path = _process(args, {**env, "PRIO_NO_FAST_PATH": "1"}, stdin, cwd=workdir)
    assert fast == typer_path
    if written is not None:
        assert (workdir / "out.txt").read_bytes() == written


def test_a_clean_config_loads_no_typer_click_rich_jsonschema_or_pydantic(workdir):
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    env.pop("PRIO_NO_FAST_PATH", None)
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "prio", "validate", "clean.yaml"],
                       capture_output=True, text=True, env=env, cwd=workdir)
    assert r.returncode == 0, r.stderr
    loaded = {line.rsplit("|", 1)[1].strip().split(".")[0] for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "prio" in loaded and "yaml" in loaded
    heavy = loaded & {"typer", "click", "rich", "jsonschema", "pydantic", "pydantic_core", "tabulate"}
    assert not heavy, heavy
    forced = subprocess.run([sys.executable, "-X", "importtime", "-m", "prio", "validate", "clean.yaml"],
                            capture_output=True, text=True, env={**env, "PRIO_NO_FAST_PATH": "1"}, cwd=workdir)
    assert "typer" in forced.stderr  # the switch takes the typer path


@pytest.mark.parametrize("command,args", [
    ("simulate", ["q.yaml", "s.yaml", "-o", "json"]),
    ("explain", ["q.yaml", "s.yaml", "--pending", "--output-file", "out.txt"]),
    ("preempt", ["pq.yaml", "ps.yaml", "-o", "json"]),
    ("diff", ["q.yaml", "q2.yaml", "s.yaml", "--fail-on", "priority"]),
    ("simulate", ["q.yaml", "s.yaml", "--steps", "-1"]),
], ids=["simulate", "explain-file", "preempt", "diff", "simulate-typer-error"])
def test_analysis_commands_as_processes(command, args, workdir):
    """The real console entry for the analysis commands, with and without PRIO_NO_FAST_PATH:
    the same output, messages, exit code and file."""
    fast = _process(args, {}, cwd=workdir, command=command)
    written = (workdir / "out.txt").read_bytes() if (workdir / "out.txt").exists() else None
    typer_path = _process(args, {"PRIO_NO_FAST_PATH": "1"}, cwd=workdir, command=command)
    assert fast == typer_path
    assert fast[0] or fast[1] or written  # it said (or wrote) something
    if written is not None:
        assert (workdir / "out.txt").read_bytes() == written


def test_a_simulation_loads_no_typer_click_or_pydantic(workdir):
    """simulate (and explain, preempt, diff) on a small input: no typer, click or pydantic
    (their import cost about as much as the whole run)."""
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    env.pop("PRIO_NO_FAST_PATH", None)
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "prio", "simulate", "q.yaml", "s.yaml", "-o", "json"],
                       capture_output=True, text=True, env=env, cwd=workdir)
    assert r.returncode == 0, r.stderr
    loaded = {line.rsplit("|", 1)[1].strip().split(".")[0] for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "prio" in loaded and "yaml" in loaded
    heavy = loaded & {"typer", "click", "pydantic", "pydantic_core"}
    assert not heavy, heavy


def test_a_simulation_into_a_pipe_pays_only_for_what_it_uses(workdir):
    """The walkthrough's simulate -o json into a pipe (every ask placed, every key known): no
    shutil (the terminal's width; it imports bz2 and lzma), no difflib (a message's suggestion),
    and none of reasons' patterns compiled (only a pending ask needs them): 7 ms of every run's
    start, 5% of a small benchmark's budget."""
    code = ("import sys, runpy; sys.argv = ['prio', 'simulate', 'q.yaml', 's.yaml', '-o', 'json']\n"
            "import prio.cli.lifetime as lt\n"
            "def end(code):\n"
            "    from prio.yunikorn import reasons\n"
            "    print('LOADED', sorted(m for m in ('shutil', 'difflib', 'bz2', 'lzma') if m in sys.modules), sorted(vars(reasons._P)), file=sys.stderr)\n"
            "    sys.exit(code)\n"
            "lt.end = end\n"
            "runpy.run_module('prio', run_name='__main__')\n")
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    env.pop("COLUMNS", None)  # (which would answer the width without a look at the terminal)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert '"steps"' in r.stdout or '"step"' in r.stdout
    assert "LOADED [] []" in r.stderr, r.stderr


def test_reasons_compile_a_pattern_when_first_used_and_know_no_other():
    from prio.yunikorn import reasons

    fresh = reasons._Patterns()
    assert fresh.fit.match("does not fit the cluster capacity: needs vcore 1, 0 of 16 left")
    assert "fit" in vars(fresh) and len(vars(fresh)) == 1  # compiled once, then an attribute
    with pytest.raises(AttributeError):
        _ = fresh.nope


_PREDICATES, _CONFIGMAP, _SHIM = "prio.kube.predicates", "prio.kube.configmap", "prio.kube.shim"


@pytest.mark.parametrize("args,lazy", [
    (["simulate", "q.yaml", "s.yaml", "-o", "json"], (_PREDICATES, _CONFIGMAP, _SHIM)),
    (["explain", "q.yaml", "s.yaml", "-o", "json"], (_PREDICATES, _CONFIGMAP, _SHIM)),
    (["validate", "clean.yaml"], (_PREDICATES, _SHIM)),  # (the ConfigMap rules, loaded with every rule, read the names)
    (["validate", "mistakes.yaml"], (_PREDICATES, _SHIM)),
], ids=["simulate", "explain", "validate-clean", "validate-findings"])
def test_a_run_without_nodes_or_cluster_objects_imports_no_node_predicates(args, lazy, workdir):
    """A config and a snapshot without nodes (or a config alone): the node predicates
    (kube.predicates, imported by a run with nodes or constraints), the shim's rules (kube.shim,
    by a run with pods or PriorityClasses) and, for explain and simulate, the shim's ConfigMap
    names (kube.configmap, by a file of ConfigMaps, Namespaces or Lists) are not imported."""
    code = (f"import sys, runpy; sys.argv = ['prio', *{args!r}]\n"
            "import prio.cli.lifetime as lt\n"
            "def end(code):\n"
            f"    print('LOADED', sorted(m for m in {lazy!r} if m in sys.modules), file=sys.stderr)\n"
            "    sys.exit(code)\n"
            "lt.end = end\n"
            "runpy.run_module('prio', run_name='__main__')\n")
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=workdir)
    assert r.returncode in (0, 1), r.stderr
    assert "LOADED []" in r.stderr, r.stderr
