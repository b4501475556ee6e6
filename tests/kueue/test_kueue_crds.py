"""The vendored Kueue CRD schemas (cli/prio/kueue/crds/): what they are (manifest.json: source,
commit, sha256; the licence beside them), that they are Kueue's at the corpora's commit, and
that the check built on them (prio.kueue.crd) is built only when a Kueue object is checked."""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, sample, shared

CRDS = os.path.join(ROOT, "cli", "prio", "kueue", "crds")


def _manifest() -> dict:
    with open(os.path.join(CRDS, "manifest.json"), encoding="utf-8") as fh:
        return json.load(fh)


def test_every_vendored_file_is_in_the_manifest_with_its_sha256():
    m = _manifest()
    files = sorted(f for f in os.listdir(CRDS) if f.endswith(".json") and f != "manifest.json")
    assert files == sorted(m["files"])
    for name, entry in m["files"].items():
        with open(os.path.join(CRDS, name), "rb") as fh:
            assert hashlib.sha256(fh.read()).hexdigest() == entry["sha256"], name
        assert entry["commit"] == m["commit"]
        assert re.fullmatch(r"config/components/crd/bases/kueue\.x-k8s\.io_\w+\.yaml", entry["source"])
        assert re.fullmatch(r"[0-9a-f]{64}", entry["sourceSha256"])


def test_the_licence_and_notice_are_shipped_with_them():
    with open(os.path.join(CRDS, "LICENSE"), encoding="utf-8") as fh:
        text = fh.read()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    with open(os.path.join(CRDS, "NOTICE"), encoding="utf-8") as fh:
        notice = fh.read()
    assert "kubernetes-sigs/kueue" in notice and "LICENSE" in notice and "manifest.json" in notice
    assert _manifest()["licence"].startswith("Apache-2.0")


def test_they_are_kueues_at_the_commit_the_corpora_were_recorded_at():
    with open(shared("testdata", "kueue", "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    assert f"commit `{_manifest()['commit']}`" in readme


def test_every_kind_the_check_reads_is_vendored_in_the_version_prio_reads():
    from prio.kueue import crd as kueue_crd

    kinds = {e["kind"] for e in _manifest()["files"].values() if e["version"] == kueue_crd.VERSION}
    assert kinds == set(kueue_crd.PLURALS)
    assert os.path.samefile(kueue_crd._DIR, CRDS)


@pytest.mark.skipif(not os.environ.get("KUEUE_GIT"), reason="KUEUE_GIT: a clone of kubernetes-sigs/kueue")
def test_the_vendoring_script_reproduces_every_file():
    sys.path.insert(0, os.path.dirname(__file__))
    import vendor_crds

    for name, body in vendor_crds.vendor(os.environ["KUEUE_GIT"], _manifest()["commit"]).items():
        with open(os.path.join(CRDS, name), "rb") as fh:
            assert fh.read() == body, name


def test_the_schema_reads_as_the_api_server_reads_it():
    """Nulls are absent; an object with properties is closed; a quantity is an integer or a string."""
    from prio.kueue.crd import violations

    cq = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "a"},
          "spec": {"cohortName": None, "namespaceSelector": {},
                   "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
                       {"name": "default", "resources": [{"name": "cpu", "nominalQuota": 4, "borrowingLimit": "2"}]}]}]}}
    assert violations("ClusterQueue", cq) == []
    cq["spec"]["cohort"] = "org"
    cq["spec"]["queueingStrategy"] = "Fifo"
    cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = [4]  # PRIO608's, not checked here
    cq["status"] = {"conditions": [{"type": "Active"}]}  # the CRD requires a reason: not a keyword the lint reports
    found = [(v.path, v.keyword) for v in violations("ClusterQueue", cq)]
    assert found == [(("spec",), "additionalProperties"), (("spec", "queueingStrategy"), "enum")]
    assert violations("Node", {"kind": "Node"}) == []  # not a Kueue CRD: nothing to say


def _modules_after(argv):
    code = (f"import sys; sys.argv={argv!r}\nfrom prio.cli.entry import main\ntry: main()\nexcept SystemExit: pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith(('prio.', 'jsonschema'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")})
    return next(line for line in out.stdout.splitlines() if line.startswith("LOADED"))


def test_the_check_is_built_only_when_a_kueue_object_is_validated():
    loaded = _modules_after(["prio", "validate", sample("walkthrough-queues.yaml")])
    assert "'prio.kueue.crd'" not in loaded, loaded
    loaded = _modules_after(["prio", "validate", sample("kueue.yaml")])
    assert "'prio.kueue.crd'" in loaded and "'jsonschema'" not in loaded, loaded  # valid: no jsonschema


def _corpus_objects():
    import glob

    import yaml

    files = sorted(glob.glob(os.path.join(os.path.dirname(shared("testdata", "kueue", "README.md")), "*.yaml")))[:20]
    files.append(sample("kueue.yaml"))
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for d in yaml.safe_load_all(fh):
                if isinstance(d, dict) and d.get("kind") in ("ClusterQueue", "Cohort", "LocalQueue", "ResourceFlavor",
                                                             "WorkloadPriorityClass", "Workload", "Topology"):
                    yield d


def test_the_jsonschema_free_check_agrees_with_jsonschema_on_kueue_objects():
    """schemacheck.valid(closed=True) says valid exactly where jsonschema on the structural schema
    finds nothing, on the lint's checked keywords and on the whole vendored schema: the recorded
    objects, and each made wrong one way."""
    import copy

    from jsonschema import Draft7Validator

    from prio.kueue import crd as kueue_crd
    from prio.lint.schemacheck import valid

    seen = 0
    for obj in _corpus_objects():
        kind = obj["kind"]
        wrong = []
        for key, value in (("spec", {"nosuch": 1}), ("spec", {"queueingStrategy": "Fifo"}), ("spec", {"stopPolicy": 3}),
                           ("spec", {"podSets": [{"name": "main", "count": "x"}] * 20})):
            w = copy.deepcopy(obj)
            w.setdefault(key, {}).update(value)
            wrong.append(w)
        whole = Draft7Validator(kueue_crd.structural(kueue_crd.schema(kind)))
        for data in [obj] + wrong:
            errors = list(kueue_crd.validator(kind).iter_errors(data))  # the keywords the lint reports
            assert valid(data, kueue_crd.schema(kind), closed=True, only=kueue_crd.CHECKED) == (not errors), (data, errors[:1])
            assert valid(data, kueue_crd.checked(kind), closed=True) == (not errors), (data, errors[:1])
            errors = list(whole.iter_errors(data))  # and every keyword of the schema
            assert valid(data, kueue_crd.schema(kind), closed=True) == (not errors), (data, errors[:1])
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("kind,where,n,what", [("ClusterQueue", "spec.resourceGroups", 16, "resourceGroups"),
                                                ("Cohort", "spec.resourceGroups[].flavors[].resources", 64, "resources"),
                                                ("Workload", "spec.podSets", 18, "podSets")])
def test_the_loader_takes_the_crds_numbers_from_the_vendored_schema(monkeypatch, kind, where, n, what):
    """A list's maxItems and an integer's range are the vendored CRD's (prio.kueue.crd.field),
    not numbers of the loader's own: a CRD that allowed fewer would refuse fewer."""
    from prio.errors import APIRefusal
    from prio.kueue import crd
    from prio.kueue.load import _at_most, _Reader

    assert crd.field(kind, where)["maxItems"] == n
    assert crd.integer_range("Workload", "spec.podSets[].count") == (0, 2**31 - 1)
    assert crd.integer_range("Workload", "spec.podSets[].minCount") == (1, 2**31 - 1)
    assert crd.integer_range("WorkloadPriorityClass", "value") == (-2**31, 2**31 - 1)

    class Doc:
        def pos(self, path, at):
            return None

    r = _Reader("f.yaml", Doc())
    assert _at_most(r, (), [1] * n, kind, where, what) == [1] * n
    narrower = dict(crd.field(kind, where), maxItems=n - 1)
    monkeypatch.setattr(crd, "field", lambda k, w: narrower)
    with pytest.raises(APIRefusal, match=f"{n} {what}: the API server refuses more than {n - 1}"):
        _at_most(r, (), [1] * n, kind, where, what)


# The loader's hand-written shape table before it was derived from the vendored schemas (as of
# 5d8b228): the derived one must hold every field of it with the same shape (it holds more: every
# field of the CRD), or a field the loader reads would lose its check.
_TOLERATIONS = [{"key": "str", "operator": "str", "value": "str", "effect": "str"}]
_TERMS = [{"matchExpressions": [{"key": "str", "operator": "str", "values": ["str"]}]}]
_CONTAINERS = [{"resources": {"requests": {}, "limits": {}}}]
_POD_SPEC = {"containers": _CONTAINERS, "initContainers": _CONTAINERS, "overhead": {}, "nodeSelector": "strmap",
             "tolerations": _TOLERATIONS, "priorityClassName": "str",
             "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": _TERMS}}}}
_HAND_WRITTEN = {
    "ResourceFlavor": {"spec": {"nodeLabels": "strmap", "nodeTaints": [{"key": "str", "value": "str", "effect": "str"}],
                                "tolerations": _TOLERATIONS}},
    "Cohort": {"spec": {"parentName": "str"}},
    "ClusterQueue": {"spec": {"cohortName": "str", "namespaceSelector": {}, "queueingStrategy": "str", "stopPolicy": "str",
                              "preemption": {"withinClusterQueue": "str", "reclaimWithinCohort": "str",
                                             "borrowWithinCohort": {"policy": "str"}},
                              "flavorFungibility": {"whenCanBorrow": "str", "whenCanPreempt": "str", "preference": "str"}}},
    "LocalQueue": {"spec": {"stopPolicy": "str"}},
    "WorkloadPriorityClass": {},
    "Workload": {"spec": {"queueName": "str", "priorityClassRef": {"name": "str", "kind": "str"},
                          "podSets": [{"name": "str", "template": {"spec": _POD_SPEC}}]},
                 "status": {"conditions": [{"type": "str"}],
                            "admission": {"clusterQueue": "str",
                                          "podSetAssignments": [{"name": "str", "flavors": "strmap", "resourceUsage": {}}]}}},
}


def _holds(derived, old, where: str) -> None:
    if old == "str" or old == "strmap":
        assert derived == old, where
    elif isinstance(old, list):
        assert isinstance(derived, list), where
        _holds(derived[0], old[0], where + "[]")
    else:
        assert isinstance(derived, dict), where
        for k, sub in old.items():
            assert k in derived, f"{where}.{k}"
            _holds(derived[k], sub, f"{where}.{k}")


@pytest.mark.parametrize("kind", sorted(_HAND_WRITTEN))
def test_the_loaders_shapes_derived_from_the_schema_hold_the_hand_written_table(kind):
    from prio.kueue import crd

    _holds(crd.shape(kind), _HAND_WRITTEN[kind], kind)


def test_the_loaders_shapes_require_what_spec_requires_and_leave_quantities_and_status_to_the_reads():
    """The exceptions prio.kueue.load states: a quantity (int-or-string) has no shape (the
    recorded weight: 0.5 is read as Kubernetes decodes it), integers neither, status requires
    nothing, a defaulted field is never required."""
    from prio.kueue import crd

    entry = crd.shape("ClusterQueue")["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]
    assert entry == {"name": "str", "!": ("name", "nominalQuota")}
    assert crd.shape("ClusterQueue")["spec"]["fairSharing"] == {}
    assert "count" not in crd.shape("Workload")["spec"]["podSets"][0]

    def requires(node) -> bool:
        if isinstance(node, list):
            return any(requires(x) for x in node)
        return isinstance(node, dict) and ("!" in node or any(requires(v) for v in node.values()))

    assert all(not requires(crd.shape(k).get("status")) for k in crd.PLURALS)
    assert crd._refusing({"properties": {"a": {"type": "string", "default": "x"}, "b": {"type": "string"}},
                          "required": ["a", "b"]})["required"] == ["b"]


_OBJECTS: list = []


def _objects() -> list:
    if not _OBJECTS:
        _OBJECTS.extend(_corpus_objects())
    return _OBJECTS


_VALUES = [None, "", "x", "64GB", "8", 0, -1, 1, 3, 2**40, 0.5, True, [], ["x"], [1], {}, {"a": "b"}, {"a": 1}]


def _mutated(obj: dict, draws) -> dict:
    """obj with a few of its fields set to other values (of another type, range or length),
    removed, or new ones beside them."""
    import copy

    from builders import paths_of

    out = copy.deepcopy(obj)
    for pick, value, how in draws:
        paths = [p for p in paths_of(out) if p]
        path = paths[pick % len(paths)]
        parent = out
        for p in path[:-1]:
            parent = parent[p]
        if how == "drop" and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == "beside" and isinstance(parent, dict):
            parent["nosuch"] = copy.deepcopy(value)
        else:
            parent[path[-1]] = copy.deepcopy(value)
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(_VALUES),
                                                 st.sampled_from(["set", "drop", "beside"])), min_size=1, max_size=3))
def test_the_refusals_fast_yes_agrees_with_jsonschema_and_the_loader_refuses_what_spec_breaks(which, draws):
    """crd.refusals (PRIO622): its jsonschema-free yes (schemacheck.valid on the REFUSING schema)
    exactly where jsonschema finds nothing, on recorded objects changed a few ways; and the loader,
    whose shapes come from the same schema, never fails otherwise than by one line (an InputError)."""
    from prio.errors import InputError
    from prio.io.document import Document
    from prio.kueue import crd
    from prio.kueue import load as loader
    from prio.lint.schemacheck import valid

    objs = _objects()
    kind = objs[which % len(objs)]["kind"]  # (checked as its kind, whatever the change did to `kind`)
    obj = _mutated(objs[which % len(objs)], draws)
    data = crd.unnulled(obj)
    errors = list(crd._refusing_validator(kind).iter_errors(data))
    assert valid(data, crd.refusing(kind)) == (not errors), (data, errors[:1])
    assert (crd.refusals(kind, obj) == []) == (not errors)
    for v in crd.refusals(kind, obj):
        assert crd.said(v).startswith(v.path[0] if v.path else "<root>")
    try:
        loader.load([("f.yaml", Document(obj))])
    except InputError:
        pass
