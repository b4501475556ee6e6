"""PriorityClass manifests: detection in every file shape, each rule passing and failing with
its position, the cross-file checks, and the validate command end to end."""
from __future__ import annotations

import json
import os
import textwrap

import pytest

from conftest import ROOT, TESTS
from prio.io import documents
from prio.lint import runner as checker
from prio.lint.registry import RULES
from prio.lint.rules import load_all
from prio.yunikorn.lint import priorityclass as lint
from prio.yunikorn.load import priorityclasses

HERE = TESTS
FIX = os.path.join(HERE, "fixtures", "priorityclass")
SAMPLES = os.path.join(ROOT, "samples")

load_all()


def fx(name: str) -> str:
    return os.path.join(FIX, name)


def read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def findings(text: str, name: str = "pc.yaml"):
    return checker.check_text(name, textwrap.dedent(text)).findings


def rules(text: str) -> list[str]:
    return sorted(f.rule for f in findings(text))


def pc(body: str, api: str = "scheduling.k8s.io/v1") -> str:
    return f"apiVersion: {api}\nkind: PriorityClass\n" + textwrap.dedent(body)


# ---- registry -------------------------------------------------------------------------------

def test_rules_registered_with_docs():
    ids = ["PRIO301", "PRIO302", "PRIO303", "PRIO304", "PRIO305", "PRIO306", "PRIO307", "PRIO308",
           "PRIO309", "PRIO312", "PRIO313", "PRIO314"]
    for rid in ids:
        r = RULES[rid]
        assert r.family == "priorityclass"
        assert r.name.startswith("priorityclass-")
        assert "Example" in r.doc and "Fix" in r.doc, rid
    assert RULES["PRIO302"].severity == "warning"  # the API server drops the namespace
    assert RULES["PRIO308"].severity == "warning"
    assert RULES["PRIO309"].severity == "warning"
    assert all(RULES[i].severity == "error" for i in ("PRIO301", "PRIO303", "PRIO304", "PRIO305", "PRIO306", "PRIO307"))


# ---- detection ------------------------------------------------------------------------------

def test_valid_multidoc_has_no_findings():
    assert findings(read(fx("tiers.yaml"))) == []
    assert findings(read(os.path.join(SAMPLES, "priorityclasses.yaml"))) == []


def test_list_items_are_checked_with_file_positions():
    text = read(fx("list.yaml")).replace("value: 10\n", 'value: "10"\n')
    fs = findings(text)
    assert [(f.rule, f.line, f.column) for f in fs] == [("PRIO305", 25, 10)]
    assert fs[0].path == "value"


def test_mixed_file_other_kinds_skipped_and_said_in_verbose():
    res = checker.check_text("mixed.yaml", read(fx("mixed.yaml")))
    assert res.findings == []
    assert any("Deployment" in n for n in res.notes)
    units = documents.units("mixed.yaml", read(fx("mixed.yaml")))
    assert [u.kind for u in units] == ["configmap", "queues", "priorityclass", "other"]  # the ConfigMap itself: PRIO008/009


@pytest.mark.parametrize("api", ["scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha1"])
def test_old_api_versions_detected_and_warned(api):
    fs = findings(pc("metadata:\n  name: tier1\nvalue: 4000\n", api))
    assert [(f.rule, f.severity, f.line, f.column) for f in fs] == [("PRIO314", "warning", 1, 13)]


def test_unknown_api_version_is_an_error():
    fs = findings(pc("metadata:\n  name: tier1\nvalue: 4000\n", "scheduling.k8s.io/v2"))
    assert [(f.rule, f.severity) for f in fs] == [("PRIO314", "error")]


# ---- each rule, failing and passing -----------------------------------------------------------

CASES = [
    # (rule, failing manifest body, passing manifest body)
    ("PRIO301", "metadata:\n  name: Tier_1\nvalue: 1\n", "metadata:\n  name: tier-1.example.com\nvalue: 1\n"),
    ("PRIO301", "metadata:\n  labels: {a: b}\nvalue: 1\n", "metadata:\n  name: a\nvalue: 1\n"),
    ("PRIO301", "metadata:\n  name: " + "a" * 254 + "\nvalue: 1\n", "metadata:\n  name: " + "a" * 63 + "\nvalue: 1\n"),
    ("PRIO301", "metadata:\n  name: -tier\nvalue: 1\n", "metadata:\n  name: tier\nvalue: 1\n"),
    ("PRIO302", "metadata:\n  name: tier1\n  namespace: team-a\nvalue: 1\n", "metadata:\n  name: tier1\n  namespace: \"\"\nvalue: 1\n"),
    ("PRIO303", "metadata:\n  name: system-batch\nvalue: 5000\n", "metadata:\n  name: systembatch\nvalue: 5000\n"),
    ("PRIO303", "metadata:\n  name: system-node-critical\nvalue: 2000000100\n", "metadata:\n  name: system-node-critical\nvalue: 2000001000\n"),
    ("PRIO303", "metadata:\n  name: system-cluster-critical\nvalue: 2000000000\nglobalDefault: true\n",
     "metadata:\n  name: system-cluster-critical\nvalue: 2000000000\nglobalDefault: false\n"),
    ("PRIO304", "metadata:\n  name: urgent\nvalue: 1000000001\n", "metadata:\n  name: urgent\nvalue: 1000000000\n"),
    ("PRIO305", "metadata:\n  name: a\nvalue: \"1000\"\n", "metadata:\n  name: a\nvalue: 1000\n"),
    ("PRIO305", "metadata:\n  name: a\nvalue: 2147483648\n", "metadata:\n  name: a\nvalue: -2147483648\n"),
    ("PRIO305", "metadata:\n  name: a\nvalue: 10.5\n", "metadata:\n  name: a\nvalue: 1000.0\n"),
    ("PRIO305", "metadata:\n  name: a\nvalue: true\n", "metadata:\n  name: a\nvalue: 0\n"),
    ("PRIO306", "metadata:\n  name: a\nvalue: 1\npreemptionPolicy: never\n", "metadata:\n  name: a\nvalue: 1\npreemptionPolicy: Never\n"),
    ("PRIO306", "metadata:\n  name: a\nvalue: 1\npreemptionPolicy: \"\"\n", "metadata:\n  name: a\nvalue: 1\npreemptionPolicy: PreemptLowerPriority\n"),
    ("PRIO308", "metadata:\n  name: system-node-critical\nvalue: 2000001000\n", "metadata:\n  name: node-critical\nvalue: 1000000000\n"),
    ("PRIO309", "metadata:\n  name: tier2\ndescription: second tier\n", "metadata:\n  name: tier2\nvalue: 0\n"),
    ("PRIO313", "metadata:\n  name: a\nvalue: 1\nglobaldefault: true\n", "metadata:\n  name: a\nvalue: 1\nglobalDefault: true\n"),
    ("PRIO313", "metadata:\n  name: a\nvalue: 1\nglobalDefault: \"true\"\n", "metadata:\n  name: a\nvalue: 1\nglobalDefault: false\n"),
]


@pytest.mark.parametrize("rule,bad,good", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_fails_and_passes(rule, bad, good):
    assert rule in rules(pc(bad)), rules(pc(bad))
    good_rules = rules(pc(good))
    assert rule not in good_rules
    # a correct built-in definition still gets the built-in warning, nothing else
    assert set(good_rules) <= {"PRIO308"}


def test_positions_point_at_the_offending_node():
    text = pc("""\
        metadata:
          name: urgent
          namespace: ops
        value: 1500000000
        preemptionPolicy: Sometimes
        """)
    got = [(f.rule, f.line, f.column) for f in findings(text)]
    assert got == [("PRIO302", 5, 14), ("PRIO304", 6, 8), ("PRIO306", 7, 19)]


def test_system_prefix_is_not_checked_against_the_user_ceiling():
    # a wrong system class is PRIO303 only, not also PRIO304
    assert rules(pc("metadata:\n  name: system-foo\nvalue: 2000000000\n")) == ["PRIO303"]


def test_builtin_with_wrong_value_is_an_error_not_the_warning():
    assert rules(pc("metadata:\n  name: system-cluster-critical\nvalue: 1\n")) == ["PRIO303"]


def test_builtins_file_warns_twice():
    fs = findings(read(fx("builtins.yaml")))
    assert [(f.rule, f.severity, f.line) for f in fs] == [("PRIO308", "warning", 5), ("PRIO308", "warning", 12)]


def test_messages_are_specific():
    [f] = findings(pc("metadata:\n  name: a\nvalue: 1\npreemptionPolicy: never\n"))
    assert "'Never'" in f.message and "case-sensitive" in f.message
    [f] = findings(pc("metadata:\n  name: Tier1\nvalue: 1\n"))
    assert "uppercase" in f.message


def test_non_mapping_priorityclass_document_does_not_crash():
    assert lint.lint_priority_class(documents.Document(["x"])) == []


# ---- across files ---------------------------------------------------------------------------

def units_of(*paths):
    out = []
    for p in paths:
        name = os.path.basename(p)
        out += [(name, u.doc) for u in documents.units(name, read(p)) if u.kind == "priorityclass"]
    return out


def test_two_global_defaults_across_files_name_the_winner():
    got = lint.cross_file(units_of(fx("defaults-a.yaml"), fx("defaults-b.yaml")))
    g307 = [(n, i) for n, _, i in got if i.rule == "PRIO307"]
    assert [n for n, _ in g307] == ["defaults-a.yaml", "defaults-b.yaml"]
    a_msg, b_msg = g307[0][1].message, g307[1][1].message
    assert "best-effort (10) would win" in a_msg
    assert "this one would win" in b_msg and "lowest value, 10" in b_msg
    assert all(i.path == ("globalDefault",) for _, i in g307)


def test_one_global_default_is_fine():
    got = lint.cross_file(units_of(fx("defaults-a.yaml"), fx("tiers.yaml")))
    assert [i.rule for _, _, i in got] == []


def test_three_defaults_in_one_list_and_file():
    text = "apiVersion: v1\nkind: List\nitems:\n" + "".join(
        f"- apiVersion: scheduling.k8s.io/v1\n  kind: PriorityClass\n  metadata: {{name: d{v}}}\n  value: {v}\n  globalDefault: true\n"
        for v in (300, 100, 200))
    us = [("l.yaml", u.doc) for u in documents.units("l.yaml", text)]
    got = lint.cross_file(us)
    assert len(got) == 3
    assert all("d100 (100) would win" in i.message or "this one would win" in i.message for _, _, i in got)
    assert "3 PriorityClasses are marked globalDefault" in got[0][2].message


def test_conflicting_redefinition_across_files():
    got = lint.cross_file(units_of(fx("defaults-a.yaml"), fx("defaults-b.yaml")))
    [(name, doc, issue)] = [g for g in got if g[2].rule == "PRIO312"]
    assert name == "defaults-b.yaml"
    assert "defaults-a.yaml:4" in issue.message and "prio uses 1000" in issue.message
    pos = doc.pos(issue.path)
    assert (pos.line, pos.column) == (13, 8)


def test_identical_redefinition_is_not_reported():
    got = lint.cross_file(units_of(fx("tiers.yaml"), fx("tiers.yaml")))
    assert got == []


def test_classes_from_docs_keeps_valid_classes_only():
    text = "\n---\n".join([
        pc("metadata: {name: ok}\nvalue: 5\nglobalDefault: true\npreemptionPolicy: Never\n"),
        pc("metadata: {name: Bad_Name}\nvalue: 5\n"),
        pc("metadata: {name: too-high}\nvalue: 1500000000\n"),
        pc("metadata: {name: stringy}\nvalue: \"5\"\n"),
        pc("metadata: {name: system-node-critical}\nvalue: 2000001000\n"),
        pc("metadata: {name: novalue}\n"),
        pc("metadata: {name: ok}\nvalue: 6\n"),
    ])
    us = [("f", u.doc) for u in documents.units("f", text)]
    got = priorityclasses.classes_from_docs(us)
    assert [(c.name, c.value, c.global_default, c.preemption_policy) for c in got] == [
        ("ok", 5, True, "Never"), ("novalue", 0, False, "PreemptLowerPriority")]
    # Unit objects and bare Documents are accepted too
    assert [c.name for c in priorityclasses.classes_from_docs(documents.units("f", text))] == ["ok", "novalue"]


# ---- the CLI (validate is wired for single documents) -------------------------------------------

def run_cli(args):
    from typer.testing import CliRunner

    from prio.cli.app import _register, app

    _register()
    return CliRunner().invoke(app, args)


def test_validate_json_end_to_end(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text(pc("metadata:\n  name: urgent\nvalue: 1500000000\n"))
    res = run_cli(["validate", str(p), "-o", "json"])
    assert res.exit_code == 1, res.output
    out = json.loads(res.stdout)
    [f] = out["findings"]
    assert (f["rule"], f["name"], f["severity"], f["line"], f["column"], f["path"]) == (
        "PRIO304", "priorityclass-value-above-user-max", "error", 5, 8, "value")


def test_validate_clean_classes_exit_0():
    res = run_cli(["validate", fx("tiers.yaml"), fx("list.yaml")])
    assert res.exit_code == 0, res.output
    assert res.stdout == "" and res.stderr == "no problems in 2 files\n", res.output


def test_validate_warning_only_exit_0_and_strict_1():
    assert run_cli(["validate", fx("builtins.yaml")]).exit_code == 0
    assert run_cli(["validate", "--strict", fx("builtins.yaml")]).exit_code == 1
    report = json.loads(run_cli(["validate", "-o", "json", fx("builtins.yaml")]).stdout)
    assert report["findings"] and {f["severity"] for f in report["findings"]} == {"warning"}
    assert report["summary"]["errors"] == 0


def test_rule_docs_shown_by_rule_command():
    res = run_cli(["rule", "PRIO307"])
    assert res.exit_code == 0
    assert "lowest" in res.output


# ---- anything is findings, never a traceback ----------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(allow_nan=False),
                     st.sampled_from(["", "tier1", "system-node-critical", "system-x", "Never", "PreemptLowerPriority",
                                      "A_B", "x" * 300, "100"]))
_KEYS = st.sampled_from(["metadata", "name", "namespace", "value", "globalDefault", "preemptionPolicy", "description",
                         "generateName", "labels", "extra"])
_JSON = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                        st.dictionaries(_KEYS, inner, max_size=5)), max_leaves=20)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(st.lists(st.dictionaries(_KEYS, _JSON, max_size=6).map(
    lambda d: {**d, "apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass"}), min_size=1, max_size=4))
def test_fuzz_lint_never_a_traceback(docs):
    text = "\n---\n".join(json.dumps(d) for d in docs)
    res = checker.check_text("f.yaml", text)
    assert all(f.rule.startswith("PRIO") for f in res.findings)
    us = [("f.yaml", u.doc) for u in documents.units("f.yaml", text)]
    lint.cross_file(us)
    priorityclasses.classes_from_docs(us)


def test_classes_from_a_whole_list_document():
    from prio.io import yamlnodes

    d = yamlnodes.load("list.yaml", read(fx("list.yaml")))[0]
    assert [(c.name, c.value, c.global_default) for c in priorityclasses.classes_from_docs([("list.yaml", d)])] == [
        ("high-priority", 1000000, False), ("low-priority", 10, True)]


def test_cross_check_rules_listed_by_rule_command():
    res = run_cli(["rule"])
    assert "PRIO310" in res.output and "PRIO311" in res.output
    assert run_cli(["rule", "class-order-swapped-by-offsets"]).exit_code == 0


def test_tied_defaults_say_how_the_tie_is_broken():
    text = pc("metadata: {name: b}\nvalue: 5\nglobalDefault: true\n") + "---\n" + pc("metadata: {name: a}\nvalue: 5\nglobalDefault: true\n")
    got = lint.cross_file([("t.yaml", u.doc) for u in documents.units("t.yaml", text)])
    assert "a (5) would win" in got[0][2].message and "a tie" in got[0][2].message
