"""The copy-paste CI examples (docs/ci.md, and the README once they are pasted there): each YAML
block is parsed, each `prio validate` command line in it is run exactly as written on a small
repository, and what it writes is checked as the CI system would read it."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

REPO = Path(ROOT)
DOCS = [REPO / "docs" / "ci.md", REPO / "README.md"]
SARIF_SCHEMA = REPO.parent / "shared" / "testdata" / "sarif-schema-2.1.0.json"
_BLOCK = re.compile(r"^```ya?ml\n(.*?)^```", re.M | re.S)


def blocks(path: Path) -> list[dict]:
    """The YAML code blocks of a markdown file that run `prio validate`, parsed."""
    if not path.exists():
        return []
    out = []
    for m in _BLOCK.finditer(path.read_text(encoding="utf-8")):
        text = textwrap.dedent(m.group(1))
        if "prio validate" in text:
            out.append(yaml.safe_load(text))
    return out


def commands(node) -> list[str]:
    """Every shell line starting with `prio validate` in a parsed workflow or job."""
    found = []
    if isinstance(node, dict):
        for v in node.values():
            found += commands(v)
    elif isinstance(node, list):
        for v in node:
            found += commands(v)
    elif isinstance(node, str):
        found += [ln.strip() for ln in node.splitlines() if ln.strip().startswith("prio validate")]
    return found


def github_workflows():
    return [b for p in DOCS for b in blocks(p) if isinstance(b, (dict, list)) and _is_github(b)]


def _is_github(b) -> bool:
    return (isinstance(b, dict) and "jobs" in b) or (isinstance(b, list) and all(isinstance(s, dict) and ("run" in s or "uses" in s) for s in b))


def gitlab_jobs():
    out = []
    for p in DOCS:
        for b in blocks(p):
            if isinstance(b, dict) and "jobs" not in b:
                out += [job for job in b.values() if isinstance(job, dict) and "script" in job]
    return out


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A checkout with a queues.yaml that has mistakes and a clean ConfigMap under deploy/yunikorn/."""
    d = tmp_path / "deploy" / "yunikorn"
    d.mkdir(parents=True)
    (d / "queues.yaml").write_text((REPO / "samples" / "mistakes.yaml").read_text(encoding="utf-8"))
    inner = (REPO / "samples" / "walkthrough-queues.yaml").read_text(encoding="utf-8")
    body = "".join("    " + ln + "\n" if ln.strip() else "\n" for ln in inner.rstrip("\n").split("\n"))
    (d / "yunikorn-configs.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n  queues.yaml: |\n" + body)
    return tmp_path


def run(cmd: str, cwd: Path, extra_env: dict) -> subprocess.CompletedProcess:
    argv = shlex.split(cmd)
    assert argv[:2] == ["prio", "validate"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRIO_") and k not in ("GITHUB_ACTIONS", "GITHUB_WORKSPACE", "CI_PROJECT_DIR")}
    env.update(extra_env, PYTHONPATH=str(REPO / "cli"))
    return subprocess.run([sys.executable, "-m", "prio", *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def output_file(cmd: str) -> str | None:
    argv = shlex.split(cmd)
    return argv[argv.index("--output-file") + 1] if "--output-file" in argv else None


def test_the_examples_exist():
    assert github_workflows(), "no GitHub Actions example"
    assert gitlab_jobs(), "no GitLab CI example"


def test_github_actions_sarif_upload(workspace):
    full = [w for w in github_workflows() if isinstance(w, dict)]
    assert full
    for wf in full:
        for job in wf["jobs"].values():
            steps = job["steps"]
            prio_steps = [s for s in steps if commands(s.get("run", ""))]
            uploads = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif")]
            assert prio_steps and uploads
            assert job["permissions"]["security-events"] == "write"
            for up in uploads:
                assert up["if"] == "always()", "the upload must run when prio fails the step"
                assert steps.index(up) > steps.index(prio_steps[0])
            for step in prio_steps:
                for cmd in commands(step["run"]):
                    r = run(cmd, workspace, {"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace)})
                    assert r.returncode == 1, r.stderr  # the sample has errors: the step fails...
                    out = output_file(cmd)
                    assert out and any(up["with"]["sarif_file"] == out for up in uploads)
                    text = (workspace / out).read_text(encoding="utf-8")  # ...and the report is there to upload
                    assert r.stdout == ""
                    _check_sarif(text)


def _check_sarif(text: str) -> None:
    doc = json.loads(text)
    results = doc["runs"][0]["results"]
    assert results and {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"deploy/yunikorn/queues.yaml"}
    if SARIF_SCHEMA.exists():
        import jsonschema

        schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
        jsonschema.validators.validator_for(schema)(schema).validate(doc)


def test_github_actions_annotations(workspace):
    snippets = [w for w in github_workflows() if isinstance(w, list)]
    assert snippets
    for steps in snippets:
        for step in steps:
            for cmd in commands(step.get("run", "")):
                r = run(cmd, workspace, {"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace)})
                assert r.returncode == 1
                assert "::group::deploy/yunikorn/queues.yaml" in r.stdout
                assert re.search(r"^::error file=deploy/yunikorn/queues.yaml,line=\d+,col=\d+,title=prio PRIO\d+ ", r.stdout, re.M)
                assert "errors" in r.stderr


def test_gitlab_code_quality(workspace):
    for job in gitlab_jobs():
        reports = job["artifacts"]["reports"]
        assert job["artifacts"]["when"] == "always", "keep the report when prio fails the job"
        cmds = commands(job["script"])
        assert cmds
        for cmd in cmds:
            r = run(cmd, workspace, {"GITLAB_CI": "true", "CI_PROJECT_DIR": str(workspace)})
            assert r.returncode == 1, r.stderr
            out = output_file(cmd)
            assert out == reports["codequality"]
            issues = json.loads((workspace / out).read_text(encoding="utf-8"))
            assert issues and all(i["location"]["path"] == "deploy/yunikorn/queues.yaml" for i in issues)
            assert all({"description", "check_name", "fingerprint", "severity"} <= set(i) for i in issues)
            assert len({i["fingerprint"] for i in issues}) == len(issues)
