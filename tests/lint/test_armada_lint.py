"""Lint of Armada's own queue definitions (armadaproject.io/v1beta1 Queue)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from prio.armada.lint import lint_queue_document
from prio.armada.load_queues import is_queue_manifest
from prio.io.yamlnodes import load
from prio.lint.registry import CHECKS, RULES

ROOT = Path(ROOT)


def lint(text: str):
    out = []
    for doc in load("q.yaml", text):
        for issue in lint_queue_document(doc):
            pos = doc.pos(issue.path, issue.at)
            out.append((issue.rule, pos.line, pos.column, issue.message))
    return out


def rules(text: str):
    return sorted({r for r, *_ in lint(text)})


HEAD = "apiVersion: armadaproject.io/v1beta1\nkind: Queue\n"


def test_rules_are_declared_and_documented():
    ids = [f"PRIO4{n:02d}" for n in range(1, 11)]
    for rid in ids:
        rule = RULES[rid]
        assert rule.family == "armada"
        assert rule.summary and "Example" in rule.doc and "Fix" in rule.doc
    assert RULES["PRIO401"].name == "armada-priority-factor-below-one" and RULES["PRIO401"].severity == "error"
    assert RULES["PRIO402"].name == "armada-resource-limits-ignored" and RULES["PRIO402"].severity == "warning"
    assert RULES["PRIO403"].name == "armada-unknown-key" and RULES["PRIO403"].severity == "warning"
    assert len(CHECKS["armada-queue"]) == 10


def test_sample_queue_file_only_warns_about_resource_limits():
    docs = load("armada-queues.yaml", (ROOT / "samples" / "armada-queues.yaml").read_text())
    assert len(docs) == 3 and all(is_queue_manifest(d.data) for d in docs)
    found = [(i.rule, d.pos(i.path, i.at).line) for d in docs for i in lint_queue_document(d)]
    assert found == [("PRIO402", 25)]


def test_clean_queue_has_no_findings():
    assert lint(HEAD + "name: a\npriorityFactor: 1\ncordoned: false\nlabels: {team: data}\n"
                "retryPolicies: [default]\n"
                "ResourceLimitsByPriorityClassName: {armada-default: {maximumResourceFraction: {cpu: 0.5}}}\n") == []


@pytest.mark.parametrize("body, line, col", [
    ("name: a\npriorityFactor: 0.5\n", 4, 17),
    ("name: a\npriorityFactor: 0\n", 4, 17),
    ("name: a\n", 1, 1),
    ("name: a\npriorityFactor:\n", 4, 16),
])
def test_priority_factor_below_one(body, line, col):
    found = lint(HEAD + body)
    assert [(r, ln, c) for r, ln, c, _ in found] == [("PRIO401", line, col)]


def test_factor_of_exactly_one_is_fine():
    assert lint(HEAD + "name: a\npriorityFactor: 1.0\n") == []


def test_resource_limits_ignored():
    found = lint(HEAD + "name: a\npriorityFactor: 1\nresourceLimits:\n  cpu: 0.2\n  memory: 0.1\n")
    assert [(r, ln, c) for r, ln, c, _ in found] == [("PRIO402", 5, 1)]
    assert "ResourceLimitsByPriorityClassName" in found[0][3]


def test_unknown_keys_warn_with_hints():
    found = lint(HEAD + "name: a\npriorityFactor: 1\npriorityFactr: 2\nuserOwners: [bob]\nmetadata: {name: a}\n")
    assert [(r, ln) for r, ln, _, _ in found] == [("PRIO403", 5), ("PRIO403", 6), ("PRIO403", 7)]
    assert "did you mean 'priorityFactor'" in found[0][3]
    assert "permissions" in found[1][3]
    assert "top level" in found[2][3]


def test_keys_match_without_regard_to_case_like_encoding_json():
    assert lint(HEAD + "name: a\nPriorityFactor: 2\nresourceLimitsByPriorityClassName: {}\n") == []
    assert rules(HEAD + "name: a\nPriorityFactor: 0.5\n") == ["PRIO401"]


def test_invalid_header():
    found = lint("apiVersion: armadaproject.io/v1\nkind: queue\nname: a\npriorityFactor: 1\n")
    assert [(r, ln) for r, ln, _, _ in found] == [("PRIO404", 1), ("PRIO404", 2)]
    assert "did you mean Queue" in found[1][3]
    assert rules("apiVersion: armadaproject.io/v1beta1\nname: a\npriorityFactor: 1\n") == ["PRIO404"]


def test_retry_policy_is_not_linted_as_a_queue():
    assert lint("apiVersion: armadaproject.io/v1beta1\nkind: RetryPolicy\nname: r\nrules: []\n") == []


def test_missing_name_warns():
    assert rules(HEAD + "priorityFactor: 1\n") == ["PRIO405"]
    assert rules(HEAD + "name: \"\"\npriorityFactor: 1\n") == ["PRIO405"]


def test_wrong_types():
    found = lint(HEAD + "name: a\npriorityFactor: \"2\"\nlabels: {tier: 1}\ncordoned: \"no\"\npermissions: submit\n")
    assert sorted((r, ln) for r, ln, _, _ in found) == [("PRIO406", 4), ("PRIO406", 5), ("PRIO406", 6), ("PRIO406", 7)]


def test_permission_subject_kind_and_verbs():
    found = lint(HEAD + "name: a\npriorityFactor: 1\npermissions:\n"
                 "  - subjects: [{kind: group, name: g}, {kind: User, name: u}]\n"
                 "    verbs: [submit, cancle, \"*\"]\n")
    assert [(r, ln, c) for r, ln, c, _ in found] == [("PRIO407", 6, 23), ("PRIO408", 7, 21), ("PRIO408", 7, 29)]
    assert "did you mean Group" in found[0][3]
    assert "did you mean 'cancel'" in found[1][3]


def test_empty_label():
    assert rules(HEAD + "name: a\npriorityFactor: 1\nlabels: {team: \"\"}\n") == ["PRIO409"]


def test_list_and_duplicates():
    text = ("apiVersion: v1\nkind: List\nitems:\n"
            "  - {apiVersion: armadaproject.io/v1beta1, kind: Queue, name: a, priorityFactor: 1}\n"
            "  - {name: a, priorityFactor: 0.5}\n")
    assert is_queue_manifest(load("q.yaml", text)[0].data)
    found = lint(text)
    assert [(r, ln) for r, ln, _, _ in found] == [("PRIO401", 5), ("PRIO410", 5)]


def test_queue_list_kind_and_bare_list():
    text = ("apiVersion: armadaproject.io/v1beta1\nkind: QueueList\nqueues:\n"
            "  - {name: a, priorityFactor: 1, weight: 2}\n")
    assert rules(text) == ["PRIO403"]
    bare = "- {apiVersion: armadaproject.io/v1beta1, kind: Queue, name: a, priorityFactor: 1}\n"
    assert is_queue_manifest(load("q.yaml", bare)[0].data) and lint(bare) == []


def test_detection():
    assert not is_queue_manifest({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass"})
    assert not is_queue_manifest({"partitions": []})
    assert not is_queue_manifest({"model": "armada"})
    assert not is_queue_manifest([])
    assert is_queue_manifest({"apiVersion": "armadaproject.io/v1", "kind": "Queue"})


def test_validate_reads_a_list_of_armada_queues_as_one_manifest(tmp_path):
    """A `kind: List` of Queues, and a bare list of them, are linted as one Armada manifest (as
    the loader reads them): a name defined twice across items is PRIO410, and an item without its
    own apiVersion/kind is not taken for a YuniKorn queues.yaml."""
    from conftest import run_cli

    lst = tmp_path / "list.yaml"
    lst.write_text("apiVersion: v1\nkind: List\nitems:\n"
                   "  - {apiVersion: armadaproject.io/v1beta1, kind: Queue, name: a, priorityFactor: 1}\n"
                   "  - {apiVersion: armadaproject.io/v1beta1, kind: Queue, name: a, priorityFactor: 2}\n")
    bare = tmp_path / "bare.yaml"
    bare.write_text("- {apiVersion: armadaproject.io/v1beta1, kind: Queue, name: a, priorityFactor: 1}\n"
                    "- {name: b, priorityFactor: 1}\n")
    import json

    r = run_cli("validate", "--no-config", "-o", "json", str(lst), str(bare))
    rules = {(f["file"].rsplit("/", 1)[-1], f["rule"]) for f in json.loads(r.stdout)["findings"]}
    assert ("list.yaml", "PRIO410") in rules
    assert not any(rule.startswith(("PRIO0", "PRIO1")) for _, rule in rules), rules
