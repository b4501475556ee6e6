"""Every field of a Kueue input given a value of the wrong type (a string, a list, a number where
the API server decodes another type) is one line at its position, exit 2, or read as Kubernetes
reads it: never "internal error" (a `metadata: x` or a `resourceUsage: [1]` once raised
AttributeError inside the loader)."""
from __future__ import annotations

import copy

import pytest
import yaml

from builders import paths_of
from conftest import run_cli, sample


def _set(o, path, value):
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = value


@pytest.mark.parametrize("wrong", ["x", [1], 7], ids=["string", "list", "number"])
def test_every_field_of_the_wrong_type_is_one_line(tmp_path, wrong):
    with open(sample("kueue.yaml"), encoding="utf-8") as fh:
        docs = [d for d in yaml.safe_load_all(fh) if d]
    f = tmp_path / "k.yaml"
    tried = 0
    for i, doc in enumerate(docs):
        for path in list(paths_of(doc))[1:]:  # (the document itself aside)
            changed = copy.deepcopy(docs)
            _set(changed[i], path, wrong)
            f.write_text(yaml.safe_dump_all(changed))
            r = run_cli("simulate", str(f))
            where = (i, path, wrong)
            assert r.exit_code in (0, 1, 2) and "internal error" not in r.stderr, (where, r.stderr[:300])
            if r.exit_code == 2:
                assert r.stderr.count("\n") == 1 and r.stderr.startswith("prio: ") and "k.yaml:" in r.stderr, (where, r.stderr)
            tried += 1
    assert tried > 100


@pytest.mark.parametrize("old,new,words", [
    ("metadata:\n  name: team-a\n", "metadata: team-a\n", "metadata must be a mapping, found 'team-a'"),
    ("cohortName: org\n  resourceGroups", "cohortName: 7\n  resourceGroups", "cohortName must be a string, found the number 7"),
    ('resourceUsage: {cpu: "2"}', "resourceUsage: [2]", "resourceUsage must be a mapping, found a list"),
    ("flavors: {cpu: default}, resourceUsage: {cpu: \"2\"}", "flavors: {cpu: 1}, resourceUsage: {cpu: \"2\"}",
     "flavors maps names to strings; cpu is the number 1"),
])
def test_the_message_names_the_field_and_what_it_holds(tmp_path, old, new, words):
    with open(sample("kueue.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    assert old in text
    f = tmp_path / "k.yaml"
    f.write_text(text.replace(old, new, 1))
    r = run_cli("simulate", str(f))  # the API server refuses the object: skipped, in one note
    (note,) = [ln for ln in r.stderr.splitlines() if ln.endswith("(skipped: the API server refuses this object)")]
    assert r.exit_code == 0 and words in note, r.stderr
