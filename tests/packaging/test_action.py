"""The GitHub Action (action.yml at the root, issue 32): its metadata validates against the GitHub
Action schema check-jsonschema ships (SchemaStore's github-action.json, vendored under
tests/fixtures/schemas), its scripts take inputs only through the environment, and the scripts themselves run
here, in a scratch git repository, with prio (this checkout's) on PATH: the install step installs
what the version input says, the validate step writes SARIF, prints annotations and exits as
prio validate does."""
from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import ROOT, SHARED

ACTION = Path(ROOT) / "action.yml"

# The GitHub Action metadata schema check-jsonschema ships (SchemaStore's github-action.json),
# vendored unchanged: tests/fixtures/schemas/README.md names its source, commit and license.
SCHEMA_PATH = Path(ROOT) / "tests" / "fixtures" / "schemas" / "github-action.json"


def schema() -> dict:
    with open(SCHEMA_PATH, encoding="utf-8") as fh:
        return json.load(fh)


def action() -> dict:
    with open(ACTION, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def step(name_or_id: str) -> dict:
    return next(s for s in action()["runs"]["steps"] if name_or_id in (s.get("id"), s.get("name")))


def test_the_action_validates_against_the_github_action_schema():
    """As `check-jsonschema --builtin-schema vendor.github-actions action.yml` checks it, with the
    draft the schema declares (draft-07)."""
    s = schema()
    validator = jsonschema.validators.validator_for(s)
    assert validator is jsonschema.Draft7Validator
    validator.check_schema(s)
    assert [e.message for e in validator(s).iter_errors(action())] == []


def test_the_schema_is_the_vendored_one_and_catches_what_github_refuses():
    """The file is the one the README names (unchanged), and it refuses a composite run step
    without a shell and an unknown top-level key, as GitHub does."""
    import hashlib

    readme = (SCHEMA_PATH.parent / "README.md").read_text(encoding="utf-8")
    assert hashlib.sha256(SCHEMA_PATH.read_bytes()).hexdigest() in readme
    validator = jsonschema.Draft7Validator(schema())
    a = action()
    no_shell = {**a, "runs": {**a["runs"], "steps": [{"run": "prio --version"}]}}
    assert not validator.is_valid(no_shell)
    assert not validator.is_valid({**a, "outputz": {}})


def test_expressions_name_declared_inputs_and_steps():
    a = action()
    text = ACTION.read_text(encoding="utf-8")
    for name in re.findall(r"\$\{\{\s*inputs\.([\w-]+)\s*}}", text):
        assert name in a["inputs"], name
    ids = {s.get("id") for s in a["runs"]["steps"]}
    for sid, out in re.findall(r"steps\.([\w-]+)\.outputs\.([\w-]+)", text):
        assert sid in ids, sid
        assert f"{out}=" in step(sid)["run"], (sid, out)


def test_scripts_take_inputs_through_the_environment():
    """An input pasted into a script is a script injection (a path named `$(curl ...)`)."""
    for s in action()["runs"]["steps"]:
        assert "${{" not in s.get("run", ""), s.get("name")


def test_the_docs_page_shows_the_upload_and_the_inputs():
    page = (Path(ROOT) / "docs" / "github-action.md").read_text(encoding="utf-8")
    assert "github/codeql-action/upload-sarif" in page and "if: always()" in page
    for name in action()["inputs"]:
        assert f"`{name}`" in page, name


def _bin(tmp_path: Path, name: str, script: str) -> None:
    d = tmp_path / "bin"
    d.mkdir(exist_ok=True)
    p = d / name
    p.write_text(script)
    p.chmod(p.stat().st_mode | stat.S_IEXEC)


def _run_step(s: dict, cwd: Path, tmp_path: Path, inputs: dict, github: dict | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    """The step's script as the runner runs it (bash -e), its env filled from `inputs` and the
    `github` context (expression -> value; default: not a pull request) as the expressions
    would, prio (this checkout) on PATH; returns the process and $GITHUB_OUTPUT. The job summary
    goes to tmp_path/step_summary."""
    defaults = {k: v.get("default", "") for k, v in action()["inputs"].items()}
    values = {**defaults, **inputs}
    contexts = {"${{ github.action_path }}": ROOT, "${{ github.event.pull_request.base.sha }}": "", **(github or {})}
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRIO_")}
    for k, v in s.get("env", {}).items():
        m = re.fullmatch(r"\$\{\{\s*inputs\.([\w-]+)\s*}}", v)
        env[k] = values[m.group(1)] if m else contexts[v]
    out = tmp_path / "github_output"
    out.write_text("")
    (tmp_path / "step_summary").write_text("")
    env.update(GITHUB_OUTPUT=str(out), GITHUB_STEP_SUMMARY=str(tmp_path / "step_summary"),
               PATH=f"{tmp_path / 'bin'}{os.pathsep}{env['PATH']}",
               PRIO_OUTPUT="json", PRIO_OUTPUT_FILE=str(tmp_path / "stray"))  # the step must not be steered by these
    p = subprocess.run(["bash", "-e", "-c", s["run"]], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
    return p, outputs


@pytest.fixture
def repo(tmp_path):
    """A scratch git repository with a clean config and, under deploy/bad, one with mistakes;
    `prio` on PATH is this checkout's."""
    r = tmp_path / "repo"
    (r / "deploy" / "good").mkdir(parents=True)
    (r / "deploy" / "bad").mkdir(parents=True)
    (r / "deploy" / "good" / "queues.yaml").write_text((Path(ROOT) / "samples" / "walkthrough-queues.yaml").read_text())
    (r / "deploy" / "bad" / "queues.yaml").write_text((Path(ROOT) / "samples" / "mistakes.yaml").read_text())
    subprocess.run(["git", "init", "-q", str(r)], check=True)
    _commit(r, "configs")
    _bin(tmp_path, "prio", f"#!/bin/sh\nPYTHONPATH={os.path.join(ROOT, 'cli')} exec {sys.executable} -m prio \"$@\"\n")
    return r


def _commit(r: Path, message: str) -> str:
    """Commit everything in the scratch repository; returns the commit's id."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-C", str(r)]
    subprocess.run([*git, "add", "-A", "."], check=True)
    subprocess.run([*git, "commit", "-qm", message], check=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def _sarif_ok(text: str) -> dict:
    doc = json.loads(text)
    schema = os.path.join(SHARED, "testdata", "sarif-schema-2.1.0.json")
    if os.path.exists(schema):
        with open(schema, encoding="utf-8") as fh:
            jsonschema.validate(doc, json.load(fh))
    return doc


def test_validate_step_on_clean_configs(repo, tmp_path):
    p, outputs = _run_step(step("validate"), repo, tmp_path, {"paths": "deploy/good"})
    assert p.returncode == 0, p.stderr
    assert outputs == {"sarif-file": "prio.sarif", "exit-code": "0"}
    assert _sarif_ok((repo / "prio.sarif").read_text())["runs"][0]["results"] == []
    assert not (tmp_path / "stray").exists()


def test_validate_step_fails_on_errors_with_annotations_and_sarif(repo, tmp_path):
    p, outputs = _run_step(step("validate"), repo, tmp_path, {"paths": "deploy/good\ndeploy/bad", "sarif-file": "findings.sarif"})
    assert p.returncode == 1
    assert outputs == {"sarif-file": "findings.sarif", "exit-code": "1"}
    assert "::error file=deploy/bad/queues.yaml,line=7,col=16,title=prio PRIO131" in p.stdout
    results = _sarif_ok((repo / "findings.sarif").read_text())["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"PRIO131", "PRIO001"}


def test_validate_step_passes_args_and_keeps_paths_literal(repo, tmp_path):
    p, outputs = _run_step(step("validate"), repo, tmp_path, {"paths": "deploy/*/queues.yaml"})
    assert p.returncode == 2 and "deploy/*/queues.yaml" in p.stderr  # a glob in paths stays a word
    p, outputs = _run_step(step("validate"), repo, tmp_path, {"paths": "deploy/good/queues.yaml", "args": "--select PRIO131 --no-config"})
    assert p.returncode == 0 and outputs["exit-code"] == "0", p.stderr
    p, outputs = _run_step(step("validate"), repo, tmp_path, {"paths": "deploy/bad", "args": "--select PRIO131"})
    assert p.returncode == 1
    assert "PRIO131" in p.stdout and "PRIO001" not in p.stdout


def test_validate_step_that_cannot_run_exits_2_once(repo, tmp_path):
    p, outputs = _run_step(step("validate"), repo, tmp_path, {"paths": "deploy/nosuch.yaml"})
    assert p.returncode == 2 and outputs["exit-code"] == "2"
    assert p.stderr.count("nosuch.yaml") == 1  # one line, not one per run


def test_install_step_installs_the_actions_own_copy(repo, tmp_path):
    """A stand-in python records what pip is asked to install (the real install is the wheel
    test's); the step then runs `prio --version`. No package index: prio-scheduling is not
    published, and a `version:` input naming a release that never existed failed every run."""
    log = tmp_path / "pip.log"
    _bin(tmp_path, "python", f"#!/bin/sh\necho \"$@\" >> {log}\n")
    p, _ = _run_step(step("Install prio"), repo, tmp_path, {})
    assert p.returncode == 0, p.stderr
    args = log.read_text().split()
    assert args[:3] == ["-m", "pip", "install"] and args[-1] == ROOT
    assert "version" not in action()["inputs"]
    assert p.stdout.startswith("prio ")


# ---- the diff step: what a pull request changes, in the job summary -------------------------------

@pytest.fixture
def pull_request(repo):
    """The scratch repository with a base commit (plus pending work under work/) and a pull
    request's commit on top: tenant-a's offset lowered, a config added, one removed, a YAML file
    that is no config changed. Returns the base commit's id."""
    (repo / "work").mkdir()
    (repo / "work" / "asks.yaml").write_text((Path(ROOT) / "samples" / "walkthrough-asks.yaml").read_text())
    (repo / "deploy" / "good" / "notes.yaml").write_text("owner: platform\n")
    base = _commit(repo, "base")
    good = repo / "deploy" / "good" / "queues.yaml"
    good.write_text(good.read_text().replace('priority.offset: "10"', 'priority.offset: "-10"'))
    (repo / "deploy" / "good" / "extra.yaml").write_text((Path(ROOT) / "samples" / "walkthrough-queues.yaml").read_text())
    (repo / "deploy" / "bad" / "queues.yaml").unlink()
    (repo / "deploy" / "good" / "notes.yaml").write_text("owner: scheduling\n")
    _commit(repo, "the pull request")
    return base


PR = "${{ github.event.pull_request.base.sha }}"


def test_diff_step_summarises_each_changed_config(repo, tmp_path, pull_request):
    p, outputs = _run_step(step("diff"), repo, tmp_path, {"diff": "deploy/good\ndeploy/bad", "diff-inputs": "work/asks.yaml"},
                           {PR: pull_request})
    assert p.returncode == 0, p.stderr
    assert outputs == {"compared": "1"}
    summary = (tmp_path / "step_summary").read_text()
    assert summary.startswith(f"## prio diff against {pull_request[:12]}\n")
    changed = summary.split("### deploy/good/queues.yaml\n\n", 1)[1].split("\n### ", 1)[0]
    assert changed.startswith("**prio diff ")
    assert "| root.tenants.tenant-a | offset    |       10 |     -10 |" in changed
    assert "asks move" in changed  # simulated on work/asks.yaml
    assert "### deploy/good/extra.yaml\n\nNew: nothing to compare it with.\n" in summary
    assert "### deploy/bad/queues.yaml\n\nRemoved.\n" in summary
    assert "### deploy/good/notes.yaml\n\nprio could not compare it: prio: " in summary
    assert "::warning file=deploy/good/notes.yaml,title=prio diff::prio: " in p.stdout
    assert not (tmp_path / "stray").exists()


def test_diff_step_says_when_no_config_changed(repo, tmp_path, pull_request):
    p, outputs = _run_step(step("diff"), repo, tmp_path, {"diff": "work"}, {PR: pull_request})
    assert p.returncode == 0 and outputs == {"compared": "0"}
    assert (tmp_path / "step_summary").read_text() == f"## prio diff against {pull_request[:12]}\n\nNo queue config changed in work.\n"


@pytest.mark.parametrize("inputs,github,warning", [
    ({"diff": "deploy"}, {}, ""),  # not a pull request, no diff-base
    ({}, {PR: "0" * 40}, ""),  # no diff asked for
    ({"diff": "deploy"}, {PR: "0" * 40}, "::warning title=prio diff::the base revision is not in the checkout"),
])
def test_diff_step_with_nothing_to_compare_passes_quietly(repo, tmp_path, inputs, github, warning):
    p, outputs = _run_step(step("diff"), repo, tmp_path, inputs, github)
    assert p.returncode == 0 and outputs == {"compared": "0"}, p.stderr
    assert (tmp_path / "step_summary").read_text() == ""
    assert p.stdout.startswith(warning) if warning else p.stdout == ""


def test_diff_step_takes_diff_base_and_a_name_cannot_end_a_workflow_command(repo, tmp_path):
    """diff-base instead of a pull request's base; a changed file whose name holds a line break
    and a workflow command's separators is named escaped, never as a command of its own."""
    evil = repo / "deploy" / "good" / "x,y:z\n::error::injected.yaml"
    evil.write_text("a: 1\n")
    _commit(repo, "a file with an odd name")
    evil.write_text("a: 2\n")
    _commit(repo, "change it")
    p, outputs = _run_step(step("diff"), repo, tmp_path, {"diff": "deploy/good", "diff-base": "HEAD~1"})
    assert p.returncode == 0 and outputs == {"compared": "0"}, p.stderr
    assert not any(line.startswith("::error") for line in p.stdout.splitlines())
    assert "::warning file=deploy/good/x%2Cy%3Az%0A%3A%3Aerror%3A%3Ainjected.yaml,title=prio diff::" in p.stdout


# ---- issue 43, item 7: the Action and the docs' workflows --------------------------------------

def _workflow_yaml_of_docs() -> list:
    """Every YAML code block of the docs that is (part of) a workflow: steps with uses: or run:."""
    import yaml

    blocks = []
    for page in sorted((Path(ROOT) / "docs").rglob("*.md")):
        for block in re.findall(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            if "uses:" in block or "run:" in block:
                blocks.append((page.name, block, yaml.safe_load(block.replace("<owner>/prio@<tag>", "owner/prio@tag"))))
    return blocks


def _steps(node):
    if isinstance(node, dict):
        if "uses" in node or "run" in node:
            yield node
        for v in node.values():
            yield from _steps(v)
    elif isinstance(node, list):
        for v in node:
            yield from _steps(v)


def test_other_actions_are_pinned_by_commit_with_the_tag_in_a_comment():
    texts = [("action.yml", ACTION.read_text(encoding="utf-8"))] + [(n, b) for n, b, _ in _workflow_yaml_of_docs()]
    seen = 0
    for name, text in texts:
        for ref in re.findall(r"uses:\s*(\S+.*)", text):
            if ref.startswith(("<owner>/prio@", "./")):
                continue  # this action itself: the reader's own pin
            seen += 1
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*", ref.strip()), (name, ref)
    assert seen >= 4


def test_the_docs_workflows_pass_expressions_through_env():
    blocks = _workflow_yaml_of_docs()
    assert blocks
    for name, _, doc in blocks:
        for s in _steps(doc):
            assert "${{" not in str(s.get("run", "")), (name, s)


def test_diff_step_passes_file_names_after_the_options_and_escapes_them_in_the_summary(repo, tmp_path):
    """A changed file named like an option is a file; a name with markup or a line break is text
    in the job summary."""
    odd = ["--fail-on=findings.yaml", "x<!-- hidden.yaml"]
    for name in odd:
        (repo / name).write_text((Path(ROOT) / "samples" / "walkthrough-queues.yaml").read_text())
    _commit(repo, "odd names")
    for name in odd:
        (repo / name).write_text((Path(ROOT) / "samples" / "batch-queues.yaml").read_text())
    _commit(repo, "change them")
    p, outputs = _run_step(step("diff"), repo, tmp_path, {"diff": ".", "diff-base": "HEAD~1"})
    assert p.returncode == 0, p.stderr
    assert outputs == {"compared": "2"}, (outputs, (tmp_path / "step_summary").read_text())
    summary = (tmp_path / "step_summary").read_text()
    assert "### --fail-on=findings.yaml\n\n**prio diff" in summary
    assert "<!--" not in summary, summary
    assert "### x&lt;!-- hidden.yaml\n" in summary, summary

def test_diff_step_never_lists_its_pending_work_as_a_config(repo, tmp_path):
    """diff-inputs beside the configs (deploy/asks.yaml in diff: deploy, or a folder of them) is
    what both sides are simulated on, not a changed config: a new snapshot in a pull request
    was summarised as a config of its own."""
    asks = (Path(ROOT) / "samples" / "walkthrough-asks.yaml").read_text()
    (repo / "deploy" / "asks.yaml").write_text(asks)
    (repo / "deploy" / "work").mkdir()
    (repo / "deploy" / "work" / "more.yaml").write_text(asks)
    base = _commit(repo, "base")
    good = repo / "deploy" / "good" / "queues.yaml"
    good.write_text(good.read_text().replace('priority.offset: "10"', 'priority.offset: "-10"'))
    (repo / "deploy" / "asks.yaml").write_text(asks.replace("walkthrough", "walkthrough, again", 1))
    (repo / "deploy" / "work" / "more.yaml").write_text(asks + "\n")
    _commit(repo, "the pull request")
    p, outputs = _run_step(step("diff"), repo, tmp_path, {"diff": "deploy", "diff-inputs": "deploy/asks.yaml\ndeploy/work"},
                           {PR: base})
    assert p.returncode == 0 and outputs == {"compared": "1"}, p.stderr + p.stdout
    summary = (tmp_path / "step_summary").read_text()
    assert "### deploy/good/queues.yaml" in summary
    assert "asks.yaml" not in summary.replace("deploy/good/queues.yaml", "") and "more.yaml" not in summary, summary
