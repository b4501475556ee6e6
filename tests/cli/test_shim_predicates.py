"""The shim's node predicates end to end, as ../shared/testdata/yunikorn-shim/predicates/README.md
("Checking prio") says: per case, `prio snapshot NAME` carries the nodes' labels and taints and
the pods' selectors, affinity and tolerations; `prio simulate` on the snapshot places a pod only
on a node YuniKorn could place it on (`yunikornCanPlace`), and a pod no node admits is pending
with, per node, the plugin and Kubernetes' message (`prio explain --why-ask POD -o json`)."""
import glob
import json
import os

import pytest

from conftest import SHARED, run_cli, shared

CASES = sorted(os.path.basename(f)[: -len(".predicates.json")]
               for f in glob.glob(os.path.join(SHARED, "testdata", "yunikorn-shim", "predicates", "*.predicates.json")))


@pytest.mark.parametrize("case", CASES or ["none"])
def test_each_case_through_the_cli(case, tmp_path):
    base = shared("testdata", "yunikorn-shim", "predicates")
    pairs = json.load(open(os.path.join(base, f"{case}.predicates.json")))["pairs"]
    pods = {f"{p['metadata']['namespace']}/{p['metadata']['name']}": p
            for p in json.load(open(os.path.join(base, case, "pods.json")))["items"]}
    snap = tmp_path / "s.yaml"
    r = run_cli("snapshot", os.path.join(base, case), "--output-file", str(snap))
    assert r.exit_code == 0, r.output
    r = run_cli("simulate", str(snap), "-o", "json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    placed = {s["ask"]: s["node"] for s in got["steps"]}
    pending = {u["ask"]: u for u in got["unscheduled"]}
    asked = 0
    for key, pod in pods.items():
        if pod["spec"].get("nodeName"):
            continue  # bound already: an allocation on its node, nothing to place (kube/test_predicates judges its pairs)
        asked += 1
        name = pod["metadata"]["name"]
        mine = [p for p in pairs if p["pod"] == key]
        can = {p["node"] for p in mine if p["yunikornCanPlace"]}
        if can:
            assert placed.get(name) in can, (key, placed.get(name), can)
            continue
        assert name in pending and name not in placed, key
        r = run_cli("explain", str(snap), "--why-ask", name, "-o", "json")
        assert r.exit_code == 0, r.output
        values = json.loads(r.stdout)["values"]
        want = [{"node": p["node"], "plugin": p["plugin"], "reason": p["reason"]} for p in mine if not p["passes"]]
        assert values["nodes"] == want, key
        assert values["code"] in values["codes"]
    assert asked or all(p["spec"].get("nodeName") for p in pods.values())
