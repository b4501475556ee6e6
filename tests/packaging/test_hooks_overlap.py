"""The documented pre-commit setup validates each file once (issue 14): pre-commit runs every
hook whose `files` matches and whose `exclude` does not (re.search on the path); a user's
`files:` replaces the hook's, its `exclude` stays. Both the hooks file and the setup shown in
docs/ci.md are read; plus docs/ci.md's JUnit notes agree with what -o junit does."""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import yaml

from conftest import ROOT, run_cli

PATHS = ["queues.yaml", "deploy/queues.yaml", "deploy/yunikorn/queues.yml", "deploy/yunikorn/yunikorn-configs.yaml",
         "yunikorn-defaults-prod.yml", "deploy/yunikorn/scheduler.yaml", "k8s/yunikorn-configs.yaml", "deploy/app.yaml"]


def hooks() -> dict:
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        return {h["id"]: h for h in yaml.safe_load(fh)}


def documented_setups() -> list[list[dict]]:
    """The `hooks:` lists of every pre-commit config shown in the docs (README and docs/ci.md)."""
    out = []
    for doc in ("README.md", os.path.join("docs", "ci.md")):
        text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
        for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
            data = yaml.safe_load(block)
            if isinstance(data, dict) and "repos" in data:
                for repo in data["repos"]:
                    out.append(repo["hooks"])
    return out


def selected(hook: dict, override: dict, path: str) -> bool:
    files = override.get("files", hook.get("files", ""))
    exclude = override.get("exclude", hook.get("exclude", "^$"))
    return bool(re.search(files, path)) and not re.search(exclude, path)


def test_docs_show_a_pre_commit_setup():
    setups = documented_setups()
    assert setups and all({h["id"] for h in s} == set(hooks()) for s in setups)


def test_no_file_goes_to_both_hooks_in_the_documented_setup():
    hs = hooks()
    for setup in documented_setups():
        for path in PATHS:
            takers = [h["id"] for h in setup if selected(hs[h["id"]], h, path)]
            assert len(takers) <= 1, f"{path} is validated by {takers}: every finding would be reported twice"


def test_a_widened_configmap_hook_does_not_take_queues_yaml():
    hs = hooks()
    wide = {"files": r"\.ya?ml$"}
    for path in PATHS:
        takers = [hid for hid in hs if selected(hs[hid], wide if hid == "prio-validate-configmap" else {}, path)]
        assert len(takers) <= 1, (path, takers)
    # each file named for one hook still reaches it
    assert selected(hs["prio-validate"], wide, "deploy/queues.yaml")
    assert selected(hs["prio-validate-configmap"], wide, "deploy/yunikorn-configs.yaml")


WARNING_ONLY = "partitions:\n  - name: default\n    queues:\n      - name: root\n        properties:\n          priority.policy: fenced\n"


def test_junit_warnings_pass_unless_strict_as_docs_say(tmp_path):
    docs = " ".join(open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8").read().split())
    assert "each finding is a failing testcase" not in docs
    assert "warnings without `--strict`, infos) is a passing testcase" in docs
    p = tmp_path / "queues.yaml"
    p.write_text(WARNING_ONLY)
    r = run_cli("validate", "-o", "junit", str(p))
    assert r.exit_code == 0
    root = ET.fromstring(r.stdout)
    assert root.get("failures") == "0" and root.find(".//system-out") is not None
    r = run_cli("validate", "-o", "junit", "--strict", str(p))
    assert r.exit_code == 1
    root = ET.fromstring(r.stdout)
    assert root.get("failures") == "2" and {f.get("type") for f in root.iter("failure")} == {"warning"}
