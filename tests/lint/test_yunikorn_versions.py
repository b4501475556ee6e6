"""prio validate --yunikorn-version V against what each YuniKorn release did with the same config:
../shared/testdata/yunikorn-versions (60 configs x 5 releases, recorded from each release's own code;
its README is the specification). For every config and release:

- the verdict: refused means at least one error finding and exit 1, accepted none and exit 0;
- where the release refuses it only when it builds the partition or on a config update, or its
  decoder panics, the error says so; where its error says what the newest's does not (its own rule
  or its own wording), prio's errors say it in YuniKorn's words;
- for an accepted config: PRIO210 names exactly the keys the release ignores (by YAML path), no key
  the release reads, and the value warnings name exactly the values it replaces by its default."""
import json
import os
import re

import pytest

from conftest import SHARED, run_cli, shared

CORPUS = os.path.join(SHARED, "testdata", "yunikorn-versions")
RELEASES = ("1.5", "1.6", "1.7", "1.8", "1.9")
# The warnings for a property value YuniKorn replaces by its default (or, for stateaware, by fifo).
VALUE_RULES = ("PRIO203", "PRIO204", "PRIO205", "PRIO206", "PRIO207", "PRIO211")
LEAF_ONLY = ("application.sort.policy", "preemption.delay")  # the properties only leaf queues parse


def _cases():
    path = os.path.join(CORPUS, "manifest.json")
    if not os.path.exists(path):
        return [pytest.param({"file": "(corpus absent)"}, "1.9", id="(corpus absent)")]
    with open(path) as f:
        entries = json.load(f)
    return [pytest.param(e, v, id=f"{e['file']}-{v}") for e in entries for v in RELEASES]


def _error_lines(error: str) -> set:
    """YuniKorn's error as the lines that say something: no "yaml: unmarshal errors:" heading, no
    "line N: " or "configured queue creation failed: " prefix."""
    out = set()
    for line in error.split("\n"):
        line = re.sub(r"^(line \d+: |configured queue creation failed: )", "", line.strip())
        if line and line != "yaml: unmarshal errors:":
            out.add(line)
    return out


def _own_error_lines(entry, release) -> set:
    """The lines of `release`'s error the newest release does not say (its own rule or wording)."""
    newest = entry["versions"][RELEASES[-1]]
    return _error_lines(entry["versions"][release]["error"]) - _error_lines(newest["error"] if newest["verdict"] == "reject" else "")


def _validate(entry, release):
    path = shared("testdata", "yunikorn-versions", entry["file"])
    r = run_cli("validate", "--no-config", "--yunikorn-version", release, path, "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    return r, json.loads(r.stdout)["findings"]


@pytest.mark.parametrize("entry,release", _cases())
def test_each_release_verdict(entry, release):
    r, findings = _validate(entry, release)
    want = entry["versions"][release]
    errors = [f for f in findings if f["severity"] == "error"]
    if want["verdict"] == "reject":
        assert errors and r.exit_code == 1, f"YuniKorn {release} refuses it at {want['stage']}: {want['error']}"
        said = " ".join(f["message"] for f in errors)
        if want["stage"] in ("partition", "reload"):
            # the validator (and the admission webhook) pass these: the message says where it fails
            assert any(w in said for w in ("creat", "reload", "builds")), errors
        if want["stage"] == "panic":
            assert "panic" in said, errors
        for line in _own_error_lines(entry, release):  # the release's own words, where they are its own
            assert line in said, f"YuniKorn {release} says {line!r}; prio: {said}"
        return
    assert not errors and r.exit_code == 0, f"YuniKorn {release} accepts it: {errors}"
    ignored = sorted(f["path"] for f in findings if f["rule"] == "PRIO210")
    assert ignored == sorted(p["path"] for p in want["ignoredProperties"]), findings
    read = {p["path"] for p in want["readProperties"]}
    assert not read & set(ignored)
    # a value the release replaces: the warning is at the key that sets it (an inherited value:
    # where the config sets it), once however many leaves inherit it. A value only leaves parse,
    # set on a parent no configured leaf inherits it from, is warned about too: the dynamic
    # queues below will parse it (the recording shows no leaf reading it).
    defaulted = {p["path"] for p in want["defaultedProperties"]}
    warned = {f["path"] for f in findings if f["rule"] in VALUE_RULES}
    assert defaulted <= warned, findings
    on_parents = {p["path"] for p in want["readProperties"] if p["key"] in LEAF_ONLY and p["in"] == "properties"
                  and not want["queues"].get(p["queue"], {}).get("leaf", True)}
    assert warned - defaulted <= on_parents, findings


ROOT_TEMPLATE_FAILS = """partitions:
- name: default
  queues:
  - name: root
    properties:
      application.sort.policy: Fair
      priority.offest: "3"
    queues:
    - name: a
      parent: true
      childtemplate:
        properties: {bogus.key: x}
        resources: {max: {vcore: abc}}
      properties: {other.key: y}
    childtemplate:
      properties: {bogus2: x}
      resources: {max: {vcore: abc}}
"""


def test_what_a_failed_child_template_drops_in_1_5(tmp_path):
    """1.5's applyConf drops a child template that does not parse and stops: the template's
    properties are never read, and on root (which merges no parent's) neither are its own. So
    nothing is said of them; root.a's own properties it still takes (mergeProperties)."""
    (tmp_path / "q.yaml").write_text(ROOT_TEMPLATE_FAILS, encoding="utf-8")
    r = run_cli("validate", "--no-config", "--yunikorn-version", "1.5", str(tmp_path / "q.yaml"), "-o", "json")
    found = json.loads(r.stdout)["findings"]
    assert r.exit_code == 0
    assert sorted((f["rule"], f["severity"], f["line"]) for f in found) == [
        ("PRIO136", "warning", 13), ("PRIO136", "warning", 17), ("PRIO210", "warning", 14)]
    assert "nor root's properties" in next(f["message"] for f in found if f["line"] == 17)
    later = run_cli("validate", "--no-config", "--yunikorn-version", "1.6", str(tmp_path / "q.yaml"), "-o", "json")
    assert later.exit_code == 1  # from 1.6 the config is refused, and every property is judged
    assert {f["line"] for f in json.loads(later.stdout)["findings"] if f["rule"] in ("PRIO204", "PRIO210")} == {6, 7, 12, 14, 16}


@pytest.mark.parametrize("text,panics", [
    ("partitions:\n  - &b {name: default, queues: [{name: root}]}\n  - <<: *b\n    name: x\n    ? [a, b]\n    : c\n", True),
    # the key that is not a scalar is in what is merged: decoded into the struct's string names, no hash
    ("partitions:\n  - &b {name: default, queues: [{name: root}], ? [a, b] : c}\n  - <<: *b\n    name: x\n", False),
    ("partitions:\n  - name: x\n    ? [a, b]\n    : c\n", False),  # no merge at all
])
def test_the_merge_panic_of_1_5_to_1_7(tmp_path, text, panics):
    """go-yaml v3.0.1 hashes the keys of a mapping that holds a << merge: one that is not a scalar
    panics; every release refuses the config either way (1.8's v3.0.4 turns it into an error)."""
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    for release in RELEASES:
        r = run_cli("validate", "--no-config", "--yunikorn-version", release, str(tmp_path / "q.yaml"), "-o", "json")
        said = " ".join(f["message"] for f in json.loads(r.stdout)["findings"] if f["severity"] == "error")
        assert r.exit_code == 1 and ("panics" in said) == (panics and release in ("1.5", "1.6", "1.7")), (release, said)
