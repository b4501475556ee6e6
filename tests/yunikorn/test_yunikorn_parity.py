"""Edge cases where YuniKorn's code decides, each once found wrong in prio (fixtures/parity)."""
import json
import os

import pytest

from conftest import ROOT, run_cli

FIX = os.path.join(ROOT, "tests", "fixtures", "parity")


def rules(name):
    r = run_cli("validate", "-o", "json", os.path.join(FIX, name))
    assert r.exit_code in (0, 1), r.stderr
    return sorted({f["rule"] for f in json.loads(r.stdout)["findings"]})


@pytest.mark.parametrize("name,want", [
    ("b3.yaml", ["PRIO117", "PRIO121"]),  # partition limits are validated as root's limits
    ("b4.yaml", ["PRIO123"]),  # ancestor limits carry down as a component-wise minimum
    ("b5.yaml", ["PRIO123"]),
    ("p1.yaml", []),  # a queue with children but no parent flag: not found, create: true is fine
    ("p2.yaml", []),  # `Fixed` is not `fixed` to the validator's static path check
    ("p3.yaml", ["PRIO130"]),  # root is forced to be a parent
    ("pf.yaml", ["PRIO133"]),  # the runtime lowercases the fixed value before its root test
    ("b1.yaml", []),  # quoted YAML 1.1 booleans and null decode into Go bools
    ("d1.yaml", []),  # 1e3 is a float go-yaml truncates into uint64
    ("d2.yaml", ["PRIO003"]),  # 1:30 is not sexagesimal to go-yaml; 0o17 is 15
    ("b2.yaml", []),  # null list items are dropped
    ("n1.yaml", ["PRIO106", "PRIO117", "PRIO126"]),  # Go's $ does not match before a newline
    ("a1.yaml", ["PRIO125"]),  # " * " splits into three parts at queue creation
    ("l1.yaml", ["PRIO212"]),  # no queue-max check for a queue named root (root.root): YuniKorn accepts, prio warns the limit is out of reach
    ("l2.yaml", ["PRIO115"]),  # DeepEqual: a missing list is not an empty list
    ("pb.yaml", ["PRIO211"]),  # ParseUint takes no sign
])
def test_validate_parity(name, want):
    assert rules(name) == want


def test_raw_template_with_zero_max_is_not_empty():
    r = run_cli("explain", os.path.join(FIX, "t1.yaml"), os.path.join(FIX, "t1s.yaml"), "-o", "json")
    q = {x["queue"]: x for x in json.loads(r.stdout)["queues"]}
    assert q["root.p.dyn"]["offset"] == 0 and q["root.p.dyn"]["sortPolicy"] == "fifo"


def test_root_root_has_no_resources():
    r = run_cli("simulate", os.path.join(FIX, "rr.yaml"), os.path.join(FIX, "rrs.yaml"), "-o", "json")
    got = json.loads(r.stdout)
    assert len(got["steps"]) == 1 and got["unscheduled"] == []


def sim(*names):
    r = run_cli("simulate", *[os.path.join(FIX, n) for n in names], "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_stopped_queues_are_not_scheduled():
    got = sim("rq-stopped.json", "ra.json")
    assert [s["queue"] for s in got["steps"]] == ["root.b"]
    assert "Stopped" in got["unscheduled"][0]["reason"]


def test_rest_queue_usage_counts_for_fair_share():
    # root.a already runs 80% of its guarantee per the queues dump, root.b nothing
    assert [s["queue"] for s in sim("rq.json", "ra.json")["steps"]] == ["root.b", "root.a"]


def test_rest_times_keep_their_nanoseconds():
    assert [s["application"] for s in sim("rq-stopped.json", "ra-ns.json")["steps"]] == ["app-early", "app-late"]


def test_pod_size_as_the_shim_computes_it():
    # a sidecar keeps running beside a later init container (1 + 3 cores), pod-level requests win
    got = sim("q-max.yaml", "pods-res.yaml")
    assert got["steps"] == []
    assert {u["ask"]: u["reason"] for u in got["unscheduled"]} == {
        "sidecar-then-init": "does not fit max of root.a: needs vcore 4, 3500m of 3500m left",
        "podlevel": "does not fit max of root.a: needs vcore 4, 3500m of 3500m left"}


def test_priority_classes_read_as_kubectl_reads_them():
    assert rules("pc-yes.yaml") == []  # globalDefault: yes is a boolean to go-yaml v2
    assert rules("pc-1e3.yaml") == []
    got = sim("pc-1e3.yaml", "pod-tier1.yaml")
    assert got["steps"][0]["priority"] == 1000
    got = sim("cm-pc.yaml", "pod-tier1.yaml")  # a class after a ConfigMap in the same file
    assert got["steps"][0]["priority"] == 4000


def test_running_pods_keep_their_priority():
    r = run_cli("explain", os.path.join(FIX, "pods-live.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    [ask] = json.loads(r.stdout)["asks"]
    assert ask["ask"] == "p1" and ask["priority"] == 4000  # what admission gave it, not tier1's 5000 now
    assert "team-a/p1 (4000, class tier1 now 5000)" in r.stderr, r.stderr


def test_saturation_names_the_bound_it_crosses_where_it_first_does():
    r = run_cli("validate", "-o", "json", os.path.join(FIX, "saturate.yaml"))
    got = {(f["line"], f["message"].split(": a pod")[0]): f["message"] for f in json.loads(r.stdout)["findings"] if f["rule"] == "PRIO202"}
    assert list(got) == [(7, "root.d"), (10, "root.d.e"), (12, "root.n")]
    assert "a pod of priority 0 gives 2200001000, which saturates at 2147483647" in got[(7, "root.d")]  # not for 1e9: saturated in e already
    assert "saturates at 2147483647" in got[(10, "root.d.e")]
    assert "saturates at -2147483648" in got[(12, "root.n")] and "nothing pending" in got[(12, "root.n")]


def test_review_regressions(tmp_path):
    # an Armada scenario labelled armada-legacy is recognised
    sc = open(os.path.join(ROOT, "samples", "armada-scenario.yaml")).read().replace("model: armada", "model: armada-legacy")
    r = run_cli("explain", "-", "-o", "json", input=sc)
    assert r.exit_code == 0 and json.loads(r.stdout)["model"] == "armada-legacy"
    # a typed PriorityClassList is read as kubectl reads it: globalDefault: yes is true
    pcl = ("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClassList\nitems:\n"
           "  - metadata: {name: low}\n    value: 10\n    globalDefault: yes\n")
    assert rules_of_text(pcl) == []
    # explain's "N more" counts only asks it would list (an ask with no resources is never considered)
    snap = "applications:\n  - {id: a, queue: root.x, asks: [{priority: 1, resources: {}}, {priority: 2}]}\n"
    r = run_cli("explain", "-", "-o", "plain", input=snap)
    assert "more pending asks" not in r.stdout
    # a recursive alias inside a ConfigMap block points into the outer file
    cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yunikorn-configs}\ndata:\n  queues.yaml: |\n    a: &x\n      b: *x\n"
    r = run_cli("validate", "-", input=cm)
    assert r.exit_code == 2 and r.stderr.startswith("prio: <stdin>:6:8:")  # the anchor, in the outer file


def rules_of_text(text):
    r = run_cli("validate", "-o", "json", "-", input=text)
    return sorted({f["rule"] for f in json.loads(r.stdout)["findings"]})
