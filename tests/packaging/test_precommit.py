"""`.pre-commit-hooks.yaml`: parse it, and run each hook's entry as pre-commit would (the entry's
words, then the staged file names) on positive and negative examples, through a real process."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from builders import UNDER_ROOT
from conftest import ROOT

pytestmark = pytest.mark.slow  # builds, installs or runs subprocesses: outside the inner loop

REPO = Path(ROOT)
HOOKS_FILE = REPO / ".pre-commit-hooks.yaml"
CLEAN = (REPO / "samples" / "walkthrough-queues.yaml").read_text(encoding="utf-8")
MISTAKES = (REPO / "samples" / "mistakes.yaml").read_text(encoding="utf-8")


def configmap(inner: str, name: str = "yunikorn-configs") -> str:
    body = "".join("    " + ln + "\n" if ln.strip() else "\n" for ln in inner.rstrip("\n").split("\n"))
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n  queues.yaml: |\n{body}"


DEPLOYMENT = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: yunikorn-scheduler\n"

# hook id -> (positive: files that pass, negative: files that fail); names match the hook's `files`
EXAMPLES = {
    "prio-validate": (
        {"queues.yaml": CLEAN, "deploy/prod/queues.yml": CLEAN},
        {"queues.yaml": MISTAKES, "deploy/queues.yaml": MISTAKES},
    ),
    "prio-validate-configmap": (
        {"yunikorn-configs.yaml": configmap(CLEAN), "k8s/yunikorn-defaults-prod.yml": configmap(CLEAN, "yunikorn-defaults") + DEPLOYMENT},
        {"yunikorn-configs.yaml": configmap(MISTAKES), "k8s/yunikorn-configs.yaml": DEPLOYMENT.lstrip("-\n") + "---\n" + configmap(MISTAKES)},
    ),
}
# file names a hook must not pick up
NOT_MATCHED = {
    "prio-validate": ["values.yaml", "queues.yaml.bak", "myqueues.yaml", "queues.json"],
    "prio-validate-configmap": ["configs.yaml", "queues.yaml", "yunikorn-configs.json", "a/yunikorn-configs/values.txt"],
}


def hooks() -> list[dict]:
    return yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))


def run_entry(entry: str, files: list[str], cwd: Path) -> subprocess.CompletedProcess:
    argv = shlex.split(entry)
    assert argv[0] == "prio", "hooks run the `prio` console script"
    env = {**os.environ, "PYTHONPATH": str(REPO / "cli")}
    for v in ("PRIO_OUTPUT", "PRIO_CONFIG", "PRIO_STRICT", "PRIO_OUTPUT_FILE"):
        env.pop(v, None)
    return subprocess.run([sys.executable, "-m", "prio", *argv[1:], *files], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_hooks_file_shape():
    hs = hooks()
    assert [h["id"] for h in hs] == ["prio-validate", "prio-validate-configmap"]
    for h in hs:
        assert {"id", "name", "entry", "language", "files", "types"} <= set(h)
        assert h["language"] == "python"
        assert h["types"] == ["yaml"]
        re.compile(h["files"])
        assert h.get("pass_filenames", True) is True
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^prio = "prio\.cli\.entry:main"$', pyproject, re.M), "language: python needs the prio console script"


@pytest.mark.parametrize("hook_id", sorted(EXAMPLES))
def test_files_pattern(hook_id):
    hook = {h["id"]: h for h in hooks()}[hook_id]
    pattern = re.compile(hook["files"])
    positive, negative = EXAMPLES[hook_id]
    for name in list(positive) + list(negative):
        assert pattern.search(name), f"{hook_id} should match {name}"
    for name in NOT_MATCHED[hook_id]:
        assert not pattern.search(name), f"{hook_id} should not match {name}"


@pytest.mark.parametrize("hook_id", sorted(EXAMPLES))
def test_entry_on_examples(hook_id, tmp_path):
    hook = {h["id"]: h for h in hooks()}[hook_id]
    positive, negative = EXAMPLES[hook_id]
    for kind, examples in (("positive", positive), ("negative", negative)):
        root = tmp_path / kind
        for name, text in examples.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        files = sorted(examples)
        r = run_entry(hook["entry"], files, root)
        if kind == "positive":
            assert r.returncode == 0, r.stdout + r.stderr
            assert r.stdout == ""
        else:
            assert r.returncode == 1, r.stdout + r.stderr
            for name in files:
                assert f"{name}:" in r.stdout  # file:line:col of its findings
            assert "PRIO" in r.stdout and "errors" in r.stderr
    # several staged files at once: one bad file fails the hook
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    first_pos, first_neg = sorted(positive)[0], sorted(negative)[0]
    (mixed / "ok").mkdir()
    (mixed / "ok" / first_pos).parent.mkdir(parents=True, exist_ok=True)
    (mixed / "ok" / first_pos).write_text(positive[first_pos])
    (mixed / "bad").mkdir()
    (mixed / "bad" / first_neg).parent.mkdir(parents=True, exist_ok=True)
    (mixed / "bad" / first_neg).write_text(negative[first_neg])
    assert run_entry(hook["entry"], [f"ok/{first_pos}", f"bad/{first_neg}"], mixed).returncode == 1


def test_entry_respects_inline_suppressions(tmp_path):
    hook = {h["id"]: h for h in hooks()}["prio-validate"]
    text = UNDER_ROOT + "          - name: a.b  # prio: ignore[PRIO106] legacy name\n"
    (tmp_path / "queues.yaml").write_text(text)
    r = run_entry(hook["entry"], ["queues.yaml"], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "(1 suppressed)" in r.stderr
