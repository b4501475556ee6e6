"""`prio snapshot --anonymize` (issue 29, item 4): the anonymized file gives the same answers under
the new names on every recorded YuniKorn scenario, and holds no original name or input path."""
import glob
import json
import os
import re

import pytest
import yaml

from conftest import SHARED, run_cli

SCENARIOS = sorted(glob.glob(os.path.join(SHARED, "testdata", "yunikorn-conformance*", "scheduling", "*.queues.yaml")))
FAMILIES = {}
for _q in SCENARIOS:  # the first scenario of each family and corpus: the quick run
    FAMILIES.setdefault((os.path.basename(os.path.dirname(os.path.dirname(_q))), os.path.basename(_q).split("-")[0]), _q)
QUICK = set(FAMILIES.values())
_TOKEN = re.compile(r"[^A-Za-z0-9_\-]+")
_NEW = re.compile(r"app-\d+(-\d+)?|node-\d+|n\d+")


def _name(path):
    return os.path.basename(os.path.dirname(os.path.dirname(path))) + "/" + os.path.basename(path)[: -len(".queues.yaml")]


def _isomorphic(old, new, fwd, back, where="$"):
    """old and new are equal up to one renaming of name-like tokens (fwd and back kept consistent
    both ways): same structure, same numbers, same separators."""
    if isinstance(old, dict):
        assert isinstance(new, dict) and len(old) == len(new), where
        for (ko, vo), (kn, vn) in zip(old.items(), new.items()):
            _isomorphic(ko, kn, fwd, back, where + "." + str(ko))
            _isomorphic(vo, vn, fwd, back, where + "." + str(ko))
    elif isinstance(old, list):
        assert isinstance(new, list) and len(old) == len(new), where
        for i, (a, b) in enumerate(zip(old, new)):
            _isomorphic(a, b, fwd, back, f"{where}[{i}]")
    elif isinstance(old, str):
        assert isinstance(new, str), where
        po, pn = re.split(r"([^A-Za-z0-9_\-]+)", old), re.split(r"([^A-Za-z0-9_\-]+)", new)
        assert len(po) == len(pn), (where, old, new)
        for i, (a, b) in enumerate(zip(po, pn)):
            if i % 2:
                assert a == b, (where, old, new)  # separators
            else:
                assert fwd.setdefault(a, b) == b and back.setdefault(b, a) == a, (where, old, new, a, fwd[a], back[b])
    else:
        assert old == new, where


def _originals(queues_path, asks_path):
    """Every name the two input files hold (users, groups, applications, asks, queues, nodes,
    filter expressions), root and the wildcards left out."""
    names = set()
    conf = yaml.safe_load(open(queues_path))
    work = yaml.safe_load(open(asks_path))

    def acl(s):
        return {e for part in str(s).split(" ") for e in part.split(",")}

    def queue(q):
        names.add(str(q.get("name")))
        for k in ("adminacl", "submitacl"):
            if k in q:
                names.update(acl(q[k]))
        for lim in q.get("limits") or []:
            names.update(map(str, (lim.get("users") or []) + (lim.get("groups") or [])))
        for c in q.get("queues") or []:
            queue(c)

    def rule(r):
        if r.get("value") and str(r.get("name")).lower() == "fixed":
            names.update(str(r["value"]).split("."))
        f = r.get("filter") or {}
        names.update(map(str, (f.get("users") or []) + (f.get("groups") or [])))
        if r.get("parent"):
            rule(r["parent"])

    for p in conf.get("partitions") or []:
        for q in p.get("queues") or []:
            queue(q)
        for r in p.get("placementrules") or []:
            rule(r)
        for lim in p.get("limits") or []:
            names.update(map(str, (lim.get("users") or []) + (lim.get("groups") or [])))
    for n in work.get("nodes") or []:
        names.add(str(n["name"]))
    for a in work.get("applications") or []:
        names.add(str(a["id"]))
        names.update(str(a.get("queue") or "").split("."))
        if a.get("user"):
            names.add(str(a["user"]))
        names.update(map(str, a.get("groups") or []))
        for t in (a.get("asks") or []) + (a.get("allocations") or []):
            if t.get("id"):
                names.add(str(t["id"]))
            if t.get("node"):
                names.add(str(t["node"]))
    # A name already of the new names' shape (the corpus's nodes are node-1, node-2) may come out
    # again as the name of something else: that is no leak.
    return {n for n in names - {"", "*", "root", "None", "default", "testuser"} if not _NEW.fullmatch(n)}  # kept: root.default, the default user


# Values that are not names: the partition, rule kinds, filter types, states; under these keys
# the keys are resource types or property names.
_NOT_NAMES = {"partition", "type", "state"}
_OPAQUE = {"properties", "resources", "maxresources", "capacity", "priorityClasses", "allocated"}


def _values(node, key=None, parent_key=None):
    """The string values of a file's documents that could hold a name."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in _OPAQUE:
                continue
            if k == "name" and key in ("partitions", "placementrules", "parent"):
                continue  # a partition's name, a rule's kind
            yield from _values(v, k, key)
    elif isinstance(node, list):
        for v in node:
            yield from _values(v, key, parent_key)
    elif isinstance(node, str) and key not in _NOT_NAMES:
        yield node


def _anonymize(tmp_path, q, a, *extra):
    out = tmp_path / "anon.yaml"
    r = run_cli("snapshot", q, a, "--anonymize", "--output-file", str(out), *extra)
    assert r.exit_code == 0, r.stderr
    return out, r


def _check(tmp_path, q):
    a = q[: -len(".queues.yaml")] + ".asks.yaml"
    want = run_cli("simulate", q, a, "-o", "json")
    out, r = _anonymize(tmp_path, q, a)
    got = run_cli("simulate", str(out), "-o", "json")
    assert want.exit_code == got.exit_code, (want.stderr, got.stderr)
    fwd, back = {}, {}
    _isomorphic(json.loads(want.stdout), json.loads(got.stdout), fwd, back)
    text = out.read_text()
    originals = _originals(q, a)
    leaked = set()
    for doc in yaml.safe_load_all(text):
        for v in _values(doc):
            leaked |= set(_TOKEN.split(v)) & originals
            leaked |= {o for o in originals if len(o) > 3 and o in v}  # filter expressions, ids with dots
    assert not leaked, leaked
    comments = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert not any(os.path.basename(a)[:-len(".asks.yaml")] in c for c in comments), comments
    assert os.path.basename(q)[:-len(".queues.yaml")] not in text and os.path.basename(q)[:-len(".queues.yaml")] not in r.stderr
    for ln in text.splitlines():  # no comment of the config survives
        assert not ln.startswith("#") or ln.startswith(("# prio snapshot", "# first document", "# prio explain", "# source: (anonymized",
                                                        "# partition:", "# YuniKorn rejected")), ln


@pytest.mark.parametrize("q", sorted(QUICK), ids=_name)
def test_anonymized_snapshot_gives_the_same_steps_one_per_family(tmp_path, q):
    _check(tmp_path, q)


@pytest.mark.slow
@pytest.mark.parametrize("q", [s for s in SCENARIOS if s not in QUICK], ids=_name)
def test_anonymized_snapshot_gives_the_same_steps(tmp_path, q):
    _check(tmp_path, q)
