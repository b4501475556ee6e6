"""kube.predicates against the shim's recorded answers: every (pod, node) pair of
../shared/testdata/yunikorn-shim/predicates (its README is the specification), and the rules one
by one where the corpus does not reach (Go's integer parsing, tolerations' corner cases)."""
import glob
import json
import os

import pytest

from conftest import shared
from prio.kube import predicates as p


def _cases():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "testdata", "yunikorn-shim", "predicates")
    return sorted(os.path.basename(f)[: -len(".predicates.json")] for f in glob.glob(os.path.join(root, "*.predicates.json")))


def _pod_constraints(pod: dict) -> p.Constraints:
    spec = pod["spec"]
    return p.constraints(spec.get("nodeSelector"), (spec.get("affinity") or {}).get("nodeAffinity"),
                         spec.get("tolerations"), spec.get("nodeName"))


def _node(n: dict):
    return (n["metadata"]["name"], p.labels(n["metadata"].get("labels")), p.taints(n["spec"].get("taints")),
            bool(n["spec"].get("unschedulable")))


@pytest.mark.parametrize("case", _cases() or ["none"])
def test_every_recorded_pair(case):
    base = shared("testdata", "yunikorn-shim", "predicates")
    pods = {f"{x['metadata']['namespace']}/{x['metadata']['name']}": x
            for x in json.load(open(os.path.join(base, case, "pods.json")))["items"]}
    nodes = {x["metadata"]["name"]: x for x in json.load(open(os.path.join(base, case, "nodes.json")))["items"]}
    pairs = json.load(open(os.path.join(base, f"{case}.predicates.json")))["pairs"]
    assert pairs
    for pair in pairs:
        node = _node(nodes[pair["node"]])
        got = p.verdict(_pod_constraints(pods[pair["pod"]]), *node)
        where = (pair["pod"], pair["node"])
        if pair["passes"]:
            assert got is None, where
        else:
            assert got is not None, where
            assert (got.stage, got.plugin, got.shim_plugin, got.reason) == (
                pair["stage"], pair["plugin"], pair["shimPlugin"], pair["reason"]), where
        assert (not node[3]) == pair["yunikornNodeSchedulable"], where


def test_the_corpus_is_all_there():
    base = shared("testdata", "yunikorn-shim", "predicates")
    assert sum(len(json.load(open(f))["pairs"]) for f in glob.glob(os.path.join(base, "*.predicates.json"))) == 200


@pytest.mark.parametrize("s,want", [("5", 5), ("+5", 5), ("-0", 0), (" 5", None), ("5 ", None), ("1_0", None),
                                    ("0x1", None), ("", None), ("9223372036854775807", 2**63 - 1),
                                    ("9223372036854775808", None), ("-9223372036854775808", -2**63), ("٣", None)])
def test_integers_parse_as_go_parseint(s, want):
    assert p.go_int(s) == want


def _gt(value, label):
    c = p.constraints(node_affinity={"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": [value]}]}]}})
    return p.verdict(c, "n", {"gen": label} if label is not None else {}, (), False)


def test_gt_needs_integers_on_both_sides():
    assert _gt("4", "5") is None
    assert _gt("5", "5") == p.SELECTOR_MISMATCH
    assert _gt("4", "5.0") == p.SELECTOR_MISMATCH
    assert _gt("4.0", "5") == p.SELECTOR_MISMATCH
    assert _gt("4", None) == p.SELECTOR_MISMATCH


def test_tolerations():
    taint = p.Taint("gpu", "yes", "NoSchedule")
    T = p.Toleration
    assert p.tolerates(T("", "Exists", "", "", None), taint)
    assert p.tolerates(T("gpu", "", "yes", "", None), taint)  # no operator is Equal
    assert not p.tolerates(T("gpu", "", "", "", None), taint)  # an absent value is ""
    assert not p.tolerates(T("gpu", "Exists", "", "NoExecute", None), taint)
    assert not p.tolerates(T("gpu", "Gt", "1", "", None), taint)  # Gt/Lt tolerate nothing
    soft = (p.Taint("spot", "true", "PreferNoSchedule"),)
    assert p.first_untolerated(soft, ()) is None


def test_a_term_without_requirements_matches_nothing_and_empty_selector_everything():
    empty_term = p.constraints(node_affinity={"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{}]}})
    assert p.verdict(empty_term, "n", {}, (), False) == p.SELECTOR_MISMATCH
    assert p.verdict(p.constraints(node_selector={}), "n", {}, (), False) is None


def test_judge_memoises_per_shape():
    class N:
        def __init__(self, name, taints=()):
            self.name, self.labels, self.taints, self.schedulable = name, {}, taints, True

    j = p.Judge([N("a"), N("b", (p.Taint("gpu", "", "NoSchedule"),))])
    assert j.passing(None) == (True, False)
    tol = p.constraints(tolerations=[{"key": "gpu", "operator": "Exists"}])
    assert j.passing(tol) is None
    assert [r[3] for r in j.refusals(None)] == ["TaintNotTolerated"]
    assert j.passing(tol, "a") == (True, False) and j.refusals(tol, "a") == (("b", "", p.OTHER_NODE.reason, "RequiredNodeMismatch"),)
    assert p.Judge([N("a")]).passing(None) is None
