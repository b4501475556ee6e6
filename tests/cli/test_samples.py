"""The bundled samples: each loads, and the batch sample's order is hand-checked."""
import json
import os

from conftest import ROOT, run_cli


def test_batch_sample_order_and_reasons():
    got = json.loads(run_cli("simulate", "--sample", "batch", "-o", "json").stdout)
    steps = [(s["application"], s["ask"]) for s in got["steps"]]
    # prod (offset 100) beats fenced research; in prod web and etl tie at 1000, etl has the lower
    # fair share (web already runs 2 of prod's 12 cores); etl-adhoc carries the 1000 ask.
    assert steps[0] == ("etl-adhoc", "exec")
    assert steps[1:4] == [("web-frontend", "fe-1"), ("web-frontend", "fe-2"), ("web-frontend", "fe-3")]
    # etl's maxapplications 2: adhoc and backfill run, nightly waits
    assert steps[4:6] == [("etl-backfill", "exec-1"), ("etl-backfill", "exec-2")]
    un = {(u["application"], u["ask"]): u["reason"] for u in got["unscheduled"]}
    assert un[("etl-nightly", "driver")].startswith("maxapplications 2 of root.prod.etl")
    assert un[("notebook-alice", "kernel-3")] == "does not fit max of root.research.alice: needs vcore 2, 0 of 4 left"
    assert "cluster capacity" in un[("sweep-bob", "trial-3")]


def test_every_sample_loads():
    for name in sorted(os.listdir(os.path.join(ROOT, "samples"))):
        path = os.path.join(ROOT, "samples", name)
        r = run_cli("validate", "-o", "json", path)
        if "asks" in name or name in ("pods.json", "armada-scenario.yaml", "armada-reports.yaml"):
            # explain/simulate inputs: named explicitly, validate refuses them with one line (issue 14)
            assert r.exit_code == 2 and "not something prio validates" in r.stderr, (name, r.stderr)
            continue
        assert r.exit_code in (0, 1), (name, r.stderr)
        report = json.loads(r.stdout)  # read and checked: no unreadable-input entry
        assert report["summary"]["files"] == 1 and not [f for f in report["findings"] if f["rule"] == "PRIO000"], name


def test_cluster_sample_places_on_nodes_and_holds_users_to_their_limits():
    """samples/cluster-*: three nodes, a running task, two users under a wildcard user limit
    (the docs' worked example, docs/nodes-and-limits.md)."""
    got = json.loads(run_cli("simulate", "--sample", "cluster", "-o", "json").stdout)
    # binpacking: the ETL merge (7 cores) fits only the empty node-2; alice's first ask goes to
    # the most used node with room (node-1, 4 of 8 in use), her second to node-3
    assert [(s["ask"], s["node"]) for s in got["steps"]] == [
        ("etl-merge", "node-2"), ("alice-report-1", "node-1"), ("alice-report-2", "node-3")]
    codes = {u["ask"]: (u["code"], u["reason"]) for u in got["unscheduled"]}
    assert codes["alice-report-3"] == ("UserQuota", "user alice quota in root.analytics exceeded: needs vcore 3, 0 of 6 left")
    assert codes["bob-notebook-2"][0] == "UserQuota"  # 12 cores: over bob's 6 before any node is looked at
    assert codes["bob-notebook-1"][0] == "NoNodeRoom" and "reservation of node-3" in codes["bob-notebook-1"][1]
    table = run_cli("simulate", "--sample", "cluster", "-o", "plain").stdout
    assert "node" in table.splitlines()[1] and "node-2" in table.splitlines()[2]
