"""Topology-aware scheduling as Kueue's tas package does it (issue 48). No recorded corpus holds
TAS: every expectation here is worked out by hand from Kueue's code at the corpora's commit
(pkg/cache/scheduler/tas_flavor_snapshot.go: fillInCounts, findLevelWithFitDomains,
updateCountsToMinimumGeneric, sortedDomains, findBestFitDomainBy, notFitMessage;
pkg/scheduler/flavorassigner: the TAS step of assignFlavors, checkPodSetAndFlavorMatchForTAS),
the comment of each test naming the steps that give it."""
from __future__ import annotations

import json

import pytest
from test_kueue_schemas import conforms

from conftest import run_cli

BLOCK, RACK, HOST = "cloud.provider.com/topology-block", "cloud.provider.com/topology-rack", "kubernetes.io/hostname"
API = "apiVersion: kueue.x-k8s.io/v1beta2\n"


def topology(*levels: str, name: str = "default") -> str:
    return f"{API}kind: Topology\nmetadata: {{name: {name}}}\nspec:\n  levels:\n" + "".join(
        f"  - nodeLabel: {lv}\n" for lv in levels)


def flavor(name: str = "tas-flavor", topo: str | None = "default") -> str:
    return f"{API}kind: ResourceFlavor\nmetadata: {{name: {name}}}\n" + (f"spec: {{topologyName: {topo}}}\n" if topo else "")


def cluster_queue(name: str = "cq", flavors=("tas-flavor",), cpu: int = 100, preemption: str = "") -> str:
    fl = "".join(f"    - name: {f}\n      resources: [{{name: cpu, nominalQuota: {cpu}}}]\n" for f in flavors)
    return (f"{API}kind: ClusterQueue\nmetadata: {{name: {name}}}\nspec:\n  namespaceSelector: {{}}\n{preemption}"
            f"  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n{fl}")


def local_queue(cq: str = "cq", ns: str = "a") -> str:
    return f"{API}kind: LocalQueue\nmetadata: {{namespace: {ns}, name: queue}}\nspec: {{clusterQueue: {cq}}}\n"


def node(name: str, labels: dict, cpu: int = 4, taint: str | None = None) -> str:
    lab = ", ".join(f"{k}: {v}" for k, v in labels.items())
    t = f"spec: {{taints: [{{key: {taint}, value: 'true', effect: NoSchedule}}]}}\n" if taint else ""
    return (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels: {{{lab}, {HOST}: {name}}}\n{t}"
            f"status: {{allocatable: {{cpu: '{cpu}', memory: 16Gi, pods: '110'}}}}\n")


def rack_nodes(blocks=2, racks=2, hosts=2, cpu=None, taint=None) -> list:
    """blocks x racks x hosts nodes named b1-r1-h1...; cpu(name) -> its cpu (4 by default)."""
    out = []
    for b in range(1, blocks + 1):
        for r in range(1, racks + 1):
            for h in range(1, hosts + 1):
                n = f"b{b}-r{r}-h{h}"
                out.append(node(n, {BLOCK: f"b{b}", RACK: f"b{b}-r{r}"}, cpu(n) if cpu else 4, taint(n) if taint else None))
    return out


def workload(name: str, count: int, request: str | None, second: int, ns: str = "a", priority: int = 0,
             tolerate: str | None = None) -> str:
    tr = f"    topologyRequest: {request}\n" if request else ""
    tol = f", tolerations: [{{key: {tolerate}, operator: Exists, effect: NoSchedule}}]" if tolerate else ""
    return (f"{API}kind: Workload\nmetadata: {{namespace: {ns}, name: {name}, "
            f"creationTimestamp: '2026-01-01T00:00:{second:02d}Z'}}\nspec:\n  queueName: queue\n  priority: {priority}\n"
            f"  podSets:\n  - name: main\n    count: {count}\n{tr}"
            f"    template: {{spec: {{containers: [{{name: c, resources: {{requests: {{cpu: 1}}}}}}]{tol}}}}}\n")


def required(level: str) -> str:
    return f"{{required: {level}}}"


def preferred(level: str) -> str:
    return f"{{preferred: {level}}}"


def replay(tmp_path, *docs: str) -> dict:
    """The replay's JSON, which conforms to schemas/kueue-simulate.schema.json."""
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join(docs))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    conforms("simulate", out)
    return out


def hosts(out: dict, key: str) -> dict:
    """The workload's topology assignment as {last level value: count}, or its pending reason and message."""
    w = next(w for w in out["workloads"] if w["workload"] == key)
    if w["state"] != "Admitted":
        return {"pending": (w["pendingReason"], w["pendingMessage"])}
    ta = w["podSets"][0]["topologyAssignment"]
    return {d["values"][-1]: d["count"] for d in ta["domains"]}


BASE = [topology(BLOCK, RACK, HOST), flavor(), cluster_queue(), local_queue()]


def test_required_rack_takes_the_first_of_equal_racks_and_fills_hosts_best_fit(tmp_path):
    """findLevelWithFitDomains at the rack level: every rack has 8 free (BestFit: the first of
    the smallest that fit, by level values: b1-r1); then the hosts of b1-r1, both 4: the first
    takes 4, and the last 2 go to the best fit of what is left (b1-r1-h2)."""
    out = replay(tmp_path, *BASE, *rack_nodes(), workload("w", 6, required(RACK), 1))
    assert hosts(out, "a/w") == {"b1-r1-h1": 4, "b1-r1-h2": 2}
    ps = out["workloads"][0]["podSets"][0]
    assert ps["topologyAssignment"]["levels"] == [HOST]  # the lowest level is the hostname: only it is written


def test_best_fit_picks_the_tightest_domain_that_fits(tmp_path):
    """Racks of b1 have 2-cpu hosts (4 free a rack), b2's 4-cpu ones (8): 4 pods with a
    required rack go to the smallest rack that takes them, b1-r1, not the largest."""
    out = replay(tmp_path, *BASE, *rack_nodes(cpu=lambda n: 2 if n.startswith("b1") else 4),
                 workload("w", 4, required(RACK), 1))
    assert hosts(out, "a/w") == {"b1-r1-h1": 2, "b1-r1-h2": 2}


def test_a_required_level_that_no_domain_fits_is_topology_placement_failed(tmp_path):
    """10 pods, racks of 8: the quota fits, so the assignment turns Preempt with the message of
    the miss; on empty nodes it still misses: NoFit, reason TopologyPlacementFailed."""
    out = replay(tmp_path, *BASE, *rack_nodes(), workload("w", 10, required(RACK), 1))
    assert hosts(out, "a/w") == {"pending": (
        "TopologyPlacementFailed",
        "couldn't assign flavors to pod set main: topology \"default\" allows to fit only 8 out of 10 pod(s)")}


def test_a_preferred_level_falls_back_to_the_level_above(tmp_path):
    """Preferred rack, 10 pods: no rack takes them, the blocks (16 each) do: BestFit b1; its
    racks in order of free pods (8, 8: b1-r1 first) take 8 and 2; then their hosts."""
    out = replay(tmp_path, *BASE, *rack_nodes(), workload("w", 10, preferred(RACK), 1))
    assert hosts(out, "a/w") == {"b1-r1-h1": 4, "b1-r1-h2": 4, "b1-r2-h1": 2}


def test_a_preferred_level_beyond_every_block_spreads_over_the_top_level(tmp_path):
    """20 pods preferred in a rack: no block (16) takes them either; at the top level the
    blocks are taken in order (b1: 16, then b2's best fit for 4)."""
    out = replay(tmp_path, *BASE, *rack_nodes(), workload("w", 20, preferred(RACK), 1))
    got = hosts(out, "a/w")
    assert sum(got.values()) == 20 and {h for h in got if h.startswith("b1")} == {f"b1-r{r}-h{h}" for r in (1, 2) for h in (1, 2)}
    assert sum(v for h, v in got.items() if h.startswith("b2")) == 4


def test_unconstrained_takes_the_least_free_capacity_first(tmp_path):
    """TASProfileMixed (on): unconstrained requests sort domains by free capacity ascending and
    take the first that fits: the 2-cpu host, not a 4-cpu one."""
    nodes = rack_nodes(blocks=1, racks=1, cpu=lambda n: 2 if n.endswith("h2") else 4)
    out = replay(tmp_path, *BASE, *nodes, workload("w", 2, "{unconstrained: true}", 1))
    assert hosts(out, "a/w") == {"b1-r1-h2": 2}


def test_a_tas_only_cluster_queue_implies_an_unconstrained_request(tmp_path):
    """isTASImplied: a ClusterQueue whose every flavor is a TAS flavor places a workload without
    a topologyRequest as an unconstrained one: least free capacity first among the hosts that
    take all 3 pods (the 2-cpu host does not: the 4-cpu one does)."""
    nodes = rack_nodes(blocks=1, racks=1, cpu=lambda n: 2 if n.endswith("h2") else 4)
    out = replay(tmp_path, *BASE, *nodes, workload("w", 3, None, 1))
    assert hosts(out, "a/w") == {"b1-r1-h1": 3}
    out = replay(tmp_path, *BASE, *nodes, workload("w", 5, None, 1))  # no host takes 5: the least free first, then the rest
    assert hosts(out, "a/w") == {"b1-r1-h2": 2, "b1-r1-h1": 3}


def test_a_single_level_topology(tmp_path):
    """Levels [hostname] alone: a required hostname is one node."""
    docs = [topology(HOST), flavor(), cluster_queue(), local_queue(), node("n1", {"pool": "x"}, cpu=2),
            node("n2", {"pool": "x"}, cpu=8), workload("fits", 4, required(HOST), 1), workload("never", 9, required(HOST), 2)]
    out = replay(tmp_path, *docs)
    assert hosts(out, "a/fits") == {"n2": 4}
    assert hosts(out, "a/never")["pending"][0] == "TopologyPlacementFailed"


def test_a_topology_without_the_hostname_level_assigns_every_level(tmp_path):
    """Levels [block, rack]: a rack is a leaf holding its nodes' capacity together, and the
    assignment names both levels."""
    docs = [topology(BLOCK, RACK), flavor(), cluster_queue(), local_queue(), *rack_nodes(),
            workload("w", 10, required(BLOCK), 1)]
    out = replay(tmp_path, *docs)
    ta = out["workloads"][0]["podSets"][0]["topologyAssignment"]
    assert ta["levels"] == [BLOCK, RACK]
    assert ta["domains"] == [{"values": ["b1", "b1-r1"], "count": 8}, {"values": ["b1", "b1-r2"], "count": 2}]


def test_tainted_nodes_are_left_out_and_counted_in_the_message(tmp_path):
    """FindFeasibleNodes: an untolerated NoSchedule taint leaves a node out; notFitMessage then
    counts the nodes and the exclusions (the taint as Taint.ToString, %q-quoted)."""
    nodes = rack_nodes(blocks=1, racks=1, taint=lambda n: "spot" if n.endswith("h1") else None)
    out = replay(tmp_path, *BASE, *nodes, workload("w", 6, required(RACK), 1),
                 workload("tolerant", 6, required(RACK), 2, tolerate="spot"))
    assert hosts(out, "a/w") == {"pending": (
        "TopologyPlacementFailed", ("couldn't assign flavors to pod set main: topology \"default\" allows to fit only 4 out "
                                    "of 6 pod(s). Total nodes: 2; excluded: taint \"spot=true:NoSchedule\": 1"))}
    assert hosts(out, "a/tolerant") == {"b1-r1-h1": 4, "b1-r1-h2": 2}


def test_a_full_topology_with_free_quota_waits_for_quota_with_kueues_message(tmp_path):
    """Two ClusterQueues on the same nodes. Cycle 1: `first` takes rack b1-r1; `small`
    (unconstrained, 4 pods) was nominated on b1-r1-h1 too, no longer fits there once `first`
    is in (TASRecomputeAssignmentWithinSchedulingCycle) and is re-planned onto b1-r2.
    Cycle 2: `second` (a required rack of 8) finds 4 free in each rack: the quota fits, the
    topology does not (Preempt), empty nodes would take it, no lower-priority candidate in its
    queue: WaitingForQuota with the topology's message."""
    docs = [topology(BLOCK, RACK, HOST), flavor(), cluster_queue("cq-a", cpu=16), cluster_queue("cq-b", cpu=16),
            local_queue("cq-a", "a"), local_queue("cq-b", "b"), *rack_nodes(blocks=1),
            workload("first", 8, required(RACK), 1, priority=100), workload("second", 8, required(RACK), 2, priority=50),
            workload("small", 4, "{unconstrained: true}", 3, ns="b")]
    out = replay(tmp_path, *docs)
    assert [(c["cycle"], sorted(a["workload"] for a in c["admitted"])) for c in out["cycles"]] == [(1, ["a/first", "b/small"])]
    assert hosts(out, "a/first") == {"b1-r1-h1": 4, "b1-r1-h2": 4}
    assert hosts(out, "b/small") == {"b1-r2-h1": 4}
    assert hosts(out, "a/second") == {"pending": (
        "WaitingForQuota", ("couldn't assign flavors to pod set main: topology \"default\" allows to fit only 4 out of 8 "
                            "pod(s). Total nodes: 4; excluded: resource \"cpu\": 3"))}


@pytest.mark.parametrize("docs, message", [
    ([topology(BLOCK, RACK, HOST), flavor(), flavor("plain", None), cluster_queue(flavors=("tas-flavor", "plain")),
      local_queue(), *rack_nodes(blocks=1, racks=1), workload("w", 200, None, 1)],
     "Flavor \"tas-flavor\" supports only TopologyAwareScheduling"),
    ([topology(BLOCK, RACK, HOST), flavor(), cluster_queue(), local_queue(), *rack_nodes(blocks=1, racks=1),
      workload("w", 1, required("zone"), 1)],
     "Flavor \"tas-flavor\" does not contain the requested level"),
    ([topology(BLOCK, RACK, HOST), flavor(), flavor("plain", None), cluster_queue(flavors=("plain", "tas-flavor")),
      local_queue(), *rack_nodes(blocks=1, racks=1), workload("w", 200, required(RACK), 1)],
     "Flavor \"plain\" does not support TopologyAwareScheduling"),
])
def test_flavors_that_do_not_match_the_request_say_why(tmp_path, docs, message):
    """checkPodSetAndFlavorMatchForTAS, before the flavor's taints and node selection (200 pods:
    more than any flavor's quota, so the message keeps every flavor's reason)."""
    w = replay(tmp_path, *docs)["workloads"][0]
    assert w["state"] == "Pending" and message in w["pendingMessage"]


def test_tas_refusals_are_one_line(tmp_path):
    for bad, why in ((workload("w", 2, "{podSetSliceRequiredTopology: x, podSetSliceSize: 2}", 1), "topology slices"),
                     (flavor("other", "missing"), "names Topology missing, which is not among the inputs")):
        f = tmp_path / "k.yaml"
        f.write_text("---\n".join([*BASE, bad]))
        r = run_cli("simulate", str(f), "-o", "json")
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and why in r.stderr and "k.yaml:" in r.stderr


def test_a_borrower_is_preempted_when_the_quota_fits_and_the_nodes_do_not(tmp_path):
    """Cohort of cq-high (nominal 100, reclaimWithinCohort Any) and cq-low (nominal 4, borrowing).
    Cycle 1: `a` takes rack b1-r1; `low` (8 pods, borrowing) is re-planned onto b1-r2. Cycle 2:
    `b` (a required rack of 8) fits cq-high's quota but no rack: Preempt (empty nodes would take
    it); the candidate is the borrower `low`, and workloadFits, with its pods gone from the
    nodes, places `b`: `low` is preempted. Cycle 3: `b` is admitted on b1-r2."""
    cohort = "  cohortName: org\n"
    docs = [topology(BLOCK, RACK, HOST), flavor(),
            cluster_queue("cq-high", cpu=100, preemption=cohort + "  preemption: {reclaimWithinCohort: Any}\n"),
            cluster_queue("cq-low", cpu=4, preemption=cohort), local_queue("cq-high", "a"), local_queue("cq-low", "b"),
            *rack_nodes(blocks=1), workload("a", 8, required(RACK), 1, priority=100),
            workload("b", 8, required(RACK), 2, priority=100), workload("low", 8, "{unconstrained: true}", 3, ns="b")]
    out = replay(tmp_path, *docs)
    moves = [(c["cycle"], sorted(a["workload"] for a in c["admitted"]), [(p["workload"], p["preemptor"]) for p in c["preempted"]])
             for c in out["cycles"]]
    assert moves[:3] == [(1, ["a/a", "b/low"], []), (2, [], [("b/low", "a/b")]), (3, ["a/b"], [])]
    assert hosts(out, "a/b") == {"b1-r2-h1": 4, "b1-r2-h2": 4}


def test_the_unread_pods_of_tas_nodes_are_said_in_a_note_and_explain_evaluates_tas(tmp_path):
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join([*BASE, *rack_nodes(blocks=1, racks=1), workload("w", 10, required(RACK), 1)]))
    r = run_cli("simulate", str(f), "-o", "json")
    assert ("prio: note: the nodes of ResourceFlavor tas-flavor: other pods on topology nodes is not replayed: static and "
            "DaemonSet pods are not read") in r.stderr
    r = run_cli("explain", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    (row,) = json.loads(r.stdout)["pending"]
    assert (row["outcome"], row["reason"]) == ("waits", "TopologyPlacementFailed")
    assert "topology \"default\" allows to fit only 8 out of 10 pod(s)" in row["message"]


@pytest.mark.parametrize("bad", ["  labels: {kubernetes.io/hostname: [x]}\n", "spec: {taints: [spot]}\n"])
def test_a_malformed_node_is_skipped_in_one_note_naming_the_file(tmp_path, bad):
    """The API server refuses the Node (a label's value a list, a taint a string): it is skipped,
    one note at its file and line, and the replay is the one without it (no node: no domain)."""
    doc = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n" + bad + "status: {allocatable: {cpu: '4', pods: '110'}}\n"
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join([*BASE, workload("w", 1, required(HOST), 1), doc]))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0 and "Traceback" not in r.stderr, r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"prio: note: {f}:") and "Node n1: " in line and line.endswith("(skipped: the API server refuses this object)")
    f.write_text("---\n".join([*BASE, workload("w", 1, required(HOST), 1)]))
    assert r.stdout == run_cli("simulate", str(f), "-o", "json").stdout


def test_a_tas_flavor_without_nodes_has_no_domains(tmp_path):
    """No Node matches the flavor: findLevelWithFitDomains finds no domain at the level."""
    out = replay(tmp_path, *BASE, workload("w", 1, required(RACK), 1))
    assert hosts(out, "a/w") == {"pending": (
        "TopologyPlacementFailed", f"couldn't assign flavors to pod set main: no topology domains at level: {RACK}")}


def test_a_preemptor_holds_the_nodes_it_waits_for_within_the_cycle(tmp_path):
    """updateAssignmentForTAS and netUsage's TAS part. Cycle 1: the heads `x1`, `x2` ask for a
    level the topology lacks (NoMatchingFlavor); `low` (4 pods, borrowing) takes b1-r1-h1.
    Cycle 2: `b` (a required rack of 8) fits its quota, not the nodes (4 free): it preempts the
    borrower `low`, and its topology assignment with `low` gone (both hosts) holds the nodes in
    this cycle, the free b1-r1-h2 included. `c` (4 pods, another ClusterQueue) was nominated on
    b1-r1-h2; the nodes no longer take it, the re-plan finds none, and it waits: without the
    hold it would have been admitted there."""
    cohort = "  cohortName: org\n"
    docs = [topology(BLOCK, RACK, HOST), flavor(),
            cluster_queue("cq-high", cpu=100, preemption=cohort + "  preemption: {reclaimWithinCohort: Any}\n"),
            cluster_queue("cq-low", cpu=2, preemption=cohort), cluster_queue("cq-c", cpu=100),
            local_queue("cq-high", "a"), local_queue("cq-low", "b"), local_queue("cq-c", "c"),
            *rack_nodes(blocks=1, racks=1),
            workload("x1", 1, required("zone"), 1, priority=200), workload("b", 8, required(RACK), 2, priority=100),
            workload("low", 4, "{unconstrained: true}", 3, ns="b"),
            workload("x2", 1, required("zone"), 4, ns="c", priority=200),
            workload("c", 4, "{unconstrained: true}", 5, ns="c", priority=50)]
    out = replay(tmp_path, *docs)
    moves = [(c["cycle"], sorted(a["workload"] for a in c["admitted"]), [(p["workload"], p["preemptor"]) for p in c["preempted"]])
             for c in out["cycles"]]
    assert moves[:3] == [(1, ["b/low"], []), (2, [], [("b/low", "a/b")]), (3, ["a/b"], [])]
    states = {w["workload"]: (w["state"], w["pendingReason"]) for w in out["workloads"]}
    assert states["c/c"] == ("Pending", "WaitingForQuota") and states["a/x1"] == ("Pending", "NoMatchingFlavor")


def test_the_text_output_says_where_the_pods_go(tmp_path):
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join([*BASE, *rack_nodes(), workload("w", 6, required(RACK), 1)]))
    r = run_cli("simulate", str(f), "-o", "plain")
    assert r.exit_code == 0, r.stderr
    assert "cpu 6 in tas-flavor on b1-r1-h1 x4, b1-r1-h2 x2" in r.stdout


def test_a_hostile_hostname_never_reaches_the_terminal_raw(tmp_path):
    evil = (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: evil\n  labels: {{{BLOCK}: b1, {RACK}: r1, {HOST}: \"\\e[31mred\\nx\"}}\n"
            "status: {allocatable: {cpu: '4', pods: '110'}}\n")
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join([*BASE, evil, workload("w", 2, required(RACK), 1)]))
    for fmt in ("plain", "table", "markdown"):
        r = run_cli("simulate", str(f), "-o", fmt)
        assert r.exit_code == 0, r.stderr
        assert "\x1b" not in r.stdout and "red\nx" not in r.stdout
    assert json.loads(run_cli("simulate", str(f), "-o", "json").stdout)["workloads"][0]["podSets"][0][
        "topologyAssignment"]["domains"] == [{"values": ["\x1b[31mred\nx"], "count": 2}]


def test_diff_says_a_workload_is_placed_on_other_nodes(tmp_path):
    from test_kueue_schemas import conforms as conforms_diff

    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    w = workload("w", 6, required(RACK), 1)
    old.write_text("---\n".join([*BASE, *rack_nodes(), w]))
    new.write_text("---\n".join([*BASE, *rack_nodes(cpu=lambda n: 2 if n.startswith("b1-r1") else 4), w]))
    r = run_cli("diff", str(old), str(new), "-o", "json", "--fail-on", "order")
    d = json.loads(r.stdout)
    conforms_diff("diff", d)
    (c,) = d["workloads"]
    assert c["changes"] == ["placed on other nodes"] and r.exit_code == 1
    assert c["old"]["topology"] == {"main": {"b1-r1-h1": 4, "b1-r1-h2": 2}}
    assert c["new"]["topology"] == {"main": {"b1-r2-h1": 4, "b1-r2-h2": 2}}


def test_explain_says_where_a_fitting_workload_would_go(tmp_path):
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join([*BASE, *rack_nodes(), workload("w", 6, required(RACK), 1)]))
    r = run_cli("explain", str(f), "-o", "json")
    (row,) = json.loads(r.stdout)["pending"]
    assert row["message"] == "fits (cpu in tas-flavor on b1-r1-h1 x4, b1-r1-h2 x2)"


def test_topology_annotations_without_the_field_are_said_in_a_note(tmp_path):
    w = workload("w", 2, None, 1).replace(
        "    template: {spec:", f"    template: {{metadata: {{annotations: {{kueue.x-k8s.io/podset-required-topology: {RACK}}}}}, spec:")
    docs = [topology(BLOCK, RACK, HOST), flavor(), flavor("plain", None), cluster_queue(flavors=("plain",)), local_queue(), w]
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join(docs))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "Workload a/w: topology annotations on a workload's pod template is not replayed: Kueue's job integration" in r.stderr
    assert json.loads(r.stdout)["workloads"][0]["state"] == "Admitted"  # on the plain flavor, as Kueue's scheduler would


RUNNING = (f"{API}kind: Workload\nmetadata: {{namespace: a, name: running, creationTimestamp: '2026-01-01T00:00:00Z'}}\n"
           "spec:\n  queueName: queue\n  podSets:\n  - name: main\n    count: 6\n"
           "    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n"
           "status:\n  admission:\n    clusterQueue: cq\n    podSetAssignments:\n    - name: main\n      count: 6\n"
           "      flavors: {cpu: tas-flavor}\n      resourceUsage: {cpu: '6'}\n      topologyAssignment:\n"
           f"        levels: [{HOST}]\n        slices:\n"
           "        - domainCount: 2\n          valuesPerLevel: [{individual: {prefix: b1-r1-, roots: [h1, h2]}}]\n"
           "          podCounts: {individual: [4, 2]}\n"
           "  conditions: [{type: QuotaReserved, status: 'True', lastTransitionTime: '2026-01-01T00:00:30Z'}]\n")


def test_a_running_workloads_topology_assignment_holds_its_nodes(tmp_path):
    """The v1beta2 encoding: two domains, hostnames b1-r1-h1 and -h2 (prefix + roots), 4 and 2
    pods. A required rack of 8 then finds b1-r1 with 2 free and takes b1-r2 (BestFit among the
    racks that fit, the first by values)."""
    out = replay(tmp_path, *BASE, *rack_nodes(), RUNNING, workload("w", 8, required(RACK), 1))
    assert hosts(out, "a/running") == {"b1-r1-h1": 4, "b1-r1-h2": 2}
    assert hosts(out, "a/w") == {"b1-r2-h1": 4, "b1-r2-h2": 4}
    out = replay(tmp_path, *BASE, *rack_nodes(), RUNNING, workload("w", 2, required(RACK), 1))
    assert hosts(out, "a/w") == {"b1-r1-h2": 2}  # the tightest rack that fits: b1-r1, 2 free


@pytest.mark.parametrize("bad", ["podCounts: {individual: [4, 2]}", "valuesPerLevel: [{individual: {prefix: b1-r1-, roots: [h1, h2]}}]"])
def test_a_malformed_topology_assignment_is_one_line(tmp_path, bad):
    doc = RUNNING.replace(bad, bad.replace("[4, 2]", "[4]").replace("[h1, h2]", "[h1]"))
    f = tmp_path / "k.yaml"
    f.write_text("---\n".join([*BASE, doc]))
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and "k.yaml:" in r.stderr
    assert "Workload a/running: topologyAssignment" in r.stderr
