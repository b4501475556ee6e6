"""Nodes and users from Kubernetes objects, read as YuniKorn's shim reports them to the core
(prio.yunikorn.load.kubectl): `kubectl get nodes` (allocatable in YuniKorn's units, cordoned nodes),
every scheduler's pods (YuniKorn's bound pods running on their nodes, the others' taking room as
foreign allocations), and the user.info annotation. Pods and nodes may come in one file or two."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli
from prio.errors import InputError
from prio.io import documents, yamlnodes
from prio.io.gather import gather
from prio.kube import shim
from prio.yunikorn.load import inputs, kubectl


def _doc(data, name="k.json"):
    return yamlnodes.load(name, json.dumps(data, indent=1))[0]


def node(name, cpu="4", memory="16Gi", extra=None, cordoned=None, capacity=None, allocatable=True):
    status = {"capacity": capacity or {"cpu": cpu, "memory": memory, "pods": "110"}}
    if allocatable:
        status["allocatable"] = {"cpu": cpu, "memory": memory, "pods": "110", **(extra or {})}
    spec = {"podCIDR": "10.244.0.0/24"}
    if cordoned is not None:
        spec["unschedulable"] = cordoned
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}, "spec": spec, "status": status}


def pod(name, cpu="1", sched="yunikorn", node_name=None, phase="Pending", app="app", annotations=None, owner=False, **meta):
    spec = {"schedulerName": sched, "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu, "memory": "1Gi"}}}]}
    if node_name:
        spec["nodeName"] = node_name
    md = {"name": name, "namespace": "ns", "labels": {"applicationId": app}, **meta}
    if annotations:
        md["annotations"] = annotations
    if owner:
        md["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": "j", "uid": "u-1", "controller": True}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec, "status": {"phase": phase}}


def listed(*items, kind="List"):
    return {"apiVersion": "v1", "kind": kind, "items": list(items)}


def gather_data(*docs) -> inputs.Inputs:
    """inputs.gather over documents written as files (one per argument)."""
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, data in enumerate(docs):
            p = os.path.join(d, f"in{i}.json")
            with open(p, "w", encoding="utf-8") as fh:
                json.dump(data, fh)
            paths.append(p)
        return gather(paths)


# ---- what a node list is ---------------------------------------------------------------------

def test_node_lists_are_recognised_by_content():
    assert documents.kind_of(listed(node("a"), node("b"))) == "nodes"
    bare = node("a")
    del bare["kind"]
    assert documents.kind_of(listed(bare, kind="NodeList")) == "nodes"  # the API's NodeList leaves out the kind
    assert documents.kind_of(node("a")) == "nodes"
    assert documents.kind_of(listed(node("a"), pod("p"))) == "pods"  # `kubectl get nodes,pods`: read together
    assert documents.kind_of(listed(bare)) == "list"  # a List's items carry their kind


# ---- nodes as the shim registers them ----------------------------------------------------------

def test_allocatable_in_yunikorn_units_and_cordons():
    n1 = node("n1", cpu="3920m", memory="15190876Ki", extra={"nvidia.com/gpu": "2", "hugepages-2Mi": "0", "ephemeral-storage": "1Ti"},
              capacity={"cpu": "4", "memory": "16102236Ki", "pods": "110"})
    n2 = node("n2", cordoned=True)
    n3 = node("n3", cordoned=False, allocatable=False, capacity={"cpu": "2", "memory": "1Gi"})
    got = kubectl.load_nodes("nodes.json", _doc(listed(n1, n2, n3)))
    assert [n.name for n in got] == ["n1", "n2", "n3"]
    # GetNodeResource: allocatable (not capacity); cpu as millicores, the rest whole units; zero pruned
    assert got[0].capacity == {"vcore": 3920, "memory": 15190876 * 1024, "pods": 110, "nvidia.com/gpu": 2, "ephemeral-storage": 2 ** 40}
    assert [n.schedulable for n in got] == [True, False, True]
    assert got[2].capacity == {"vcore": 2000, "memory": 2 ** 30}  # a manifest without allocatable: its capacity
    assert all(n.occupied == {} for n in got)


def test_a_taint_alone_is_no_cordon():
    """The shim reads spec.unschedulable (kubectl cordon sets it); a NoSchedule taint is the
    predicates' business, which prio does not model."""
    n = node("n1")
    n["spec"]["taints"] = [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]
    assert kubectl.load_nodes("n.json", _doc(n))[0].schedulable


@pytest.mark.parametrize("change,msg", [
    (lambda n: n["metadata"].pop("name"), "a Node needs a metadata.name"),
    (lambda n: n.pop("status"), "node n1: no status.allocatable, so what the node offers is unknown"),
    (lambda n: n["spec"].update(unschedulable="true"), "node n1: spec.unschedulable must be true or false, found 'true'"),
    (lambda n: n["status"]["allocatable"].update(cpu="-1"), "negative quantity '-1' for cpu"),
    (lambda n: n["status"].update(allocatable=["cpu"]), "node n1: status.allocatable must be a mapping of resource name to quantity"),
])
def test_a_node_prio_cannot_read_is_one_error_with_its_place(change, msg):
    n = node("n1")
    change(n)
    with pytest.raises(InputError) as e:
        kubectl.load_nodes("nodes.json", _doc(listed(n)))
    assert msg in e.value.message and e.value.line is not None


# ---- pods against the nodes ------------------------------------------------------------------

def test_other_schedulers_pods_take_room_on_their_nodes():
    items = [node("n1"), node("n2"),
             pod("exporter", "100m", sched="default-scheduler", node_name="n1", phase="Running"),
             pod("starting", "1", sched="default-scheduler", node_name="n1", phase="Pending"),  # bound, not running yet
             pod("leaving", "1", sched="default-scheduler", node_name="n2", phase="Running",
                 deletionTimestamp="2024-05-01T10:00:00Z"),  # still holds its room until it is gone
             pod("done", "1", sched="default-scheduler", node_name="n2", phase="Succeeded"),
             pod("waiting", "1", sched="default-scheduler"),  # not bound: takes nothing
             pod("elsewhere", "1", sched="default-scheduler", node_name="n9", phase="Running"),  # an orphan
             pod("work", "500m")]
    d = _doc(listed(*items))
    nodes = kubectl.load_nodes("k.json", d)
    snap = kubectl.load_pods("k.json", d, (), nodes)
    occupied = {n.name: n.occupied for n in snap.nodes}
    assert occupied == {"n1": {"vcore": 1100, "memory": 2 * 2 ** 30, "pods": 2}, "n2": {"vcore": 1000, "memory": 2 ** 30, "pods": 1}}
    assert snap.capacity == {"vcore": 8000, "memory": 32 * 2 ** 30, "pods": 220}  # root's max: every node, cordoned or not
    [app] = snap.apps
    assert [a.id for a in app.asks] == ["work"] and app.allocated == {}  # foreign pods belong to no application
    notes = " ".join(snap.notes)
    assert "3 pods of other schedulers bound to the nodes take room there (YuniKorn's foreign allocations), in no queue" in notes
    assert "scheduler default-scheduler: 3" in notes


def test_yunikorn_pods_bound_to_nodes_run_there():
    items = [node("n1"), node("n2"),
             pod("driver", "1", node_name="n1", phase="Running", creationTimestamp="2024-05-01T10:00:00Z",
                 annotations={shim.ALLOW_PREEMPTION: "false"}),
             pod("exec-1", "2", node_name="n2", phase="Running", creationTimestamp="2024-05-01T10:01:00Z"),
             pod("exec-2", "2", node_name="n2", phase="Pending", creationTimestamp="2024-05-01T10:02:00Z"),  # bound, starting
             pod("exec-3", "2", creationTimestamp="2024-05-01T10:03:00Z"),
             pod("lost", "2", node_name="n7", phase="Running", creationTimestamp="2024-05-01T10:04:00Z"),
             pod("job-pod", "1", node_name="n1", phase="Running", app="other", owner=True)]
    d = _doc(listed(*items))
    snap = kubectl.load_pods("k.json", d, (), kubectl.load_nodes("k.json", d))
    apps = {a.id: a for a in snap.apps}
    allocs = [(a.id, a.node, a.originator, a.allow_preemption) for a in apps["app"].allocations]
    # the oldest pod is the originator (the shim's owner reference is the pod itself)
    assert allocs == [("driver", "n1", True, False), ("exec-1", "n2", False, True), ("exec-2", "n2", False, True)]
    assert apps["app"].allocated == {"vcore": 5000, "memory": 3 * 2 ** 30, "pods": 3}
    assert [a.id for a in apps["app"].asks] == ["exec-3"]
    # the pod that created its application is the originator whatever its own owners (a Job here)
    assert [(a.id, a.originator) for a in apps["other"].allocations] == [("job-pod", True)]
    notes = " ".join(snap.notes)
    assert "pods bound to nodes the node list does not hold are left out, as the shim leaves such orphans out: n7" in notes


def test_without_nodes_a_pod_list_is_read_as_before():
    d = _doc(listed(pod("exporter", sched="default-scheduler", node_name="n1", phase="Running"),
                    pod("driver", node_name="n1", phase="Running"), pod("exec")))
    snap = kubectl.load_pods("k.json", d)
    assert snap.nodes is None and snap.capacity is None
    [app] = snap.apps
    assert app.allocated == {"vcore": 1000, "memory": 2 ** 30, "pods": 1}
    assert [(a.id, a.node) for a in app.allocations] == [("driver", "n1")]
    assert any("scheduler default-scheduler: 1" in n for n in snap.notes)


def test_pods_of_one_name_in_two_namespaces_are_two_allocations():
    a = pod("web-0", node_name="n1", phase="Running", app="a")
    b = pod("web-0", node_name="n1", phase="Running", app="b")
    b["metadata"]["namespace"] = "other"
    d = _doc(listed(node("n1"), a, b))
    snap = kubectl.load_pods("k.json", d, (), kubectl.load_nodes("k.json", d))
    assert [x.id for app in snap.apps for x in app.allocations] == ["web-0", "other/web-0"]  # keys stay unique


# ---- users ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("info,want,noted", [
    ('{"user":"alice","groups":["dev","ops"]}', ("alice", ("dev", "ops")), False),
    ('{"user":"alice"}', ("alice", ()), False),
    ('{"user":"","groups":["dev"]}', ("nobody", ("dev",)), False),  # an empty user: the default, groups kept
    (None, ("nobody", ()), False),  # no annotation: the shim's default user
    ("alice", ("nobody", ()), True),  # not JSON: the shim logs it and takes the default
    ('{"user":"alice","groups":"dev"}', ("nobody", ()), True),
    ('{"User":"dave","GROUPS":["devs"]}', ("dave", ("devs",)), False),  # Go matches key names in any case
    ('{"user":"a","user":"b"}', ("b", ()), False),  # a repeated key: the last one
    ('{"user":"a","role":"x"}', ("a", ()), False),  # unknown keys are ignored
    ("null", ("nobody", ()), False),  # decodes to nothing
    ('{"user":42}', ("nobody", ()), True),
    ('["alice"]', ("nobody", ()), True),
    ('{"user":"a","groups":null}', ("a", ()), False),
])
def test_the_user_comes_from_the_user_info_annotation(info, want, noted):
    p = pod("p", annotations={shim.USER_INFO: info} if info is not None else None)
    snap = kubectl.load_pods("k.json", _doc(listed(p)))
    assert (snap.apps[0].user, snap.apps[0].groups) == want
    assert any("user.info annotation does not decode" in n for n in snap.notes) == noted


@pytest.mark.parametrize("info,label,want", [
    (None, "carol", ("carol", ())),  # no annotation: the label, no groups
    ("", "carol", ("carol", ())),  # an empty annotation counts as none
    (None, "", ("nobody", ())),  # an empty label neither
    ('{"user":"alice","groups":["dev"]}', "carol", ("alice", ("dev",))),  # the annotation wins
    ("alice", "carol", ("nobody", ())),  # one that does not decode: the default user, the label not looked at
])
def test_without_user_info_the_username_label_names_the_user(info, label, want):
    """GetUserFromPod from v1.5.2 to v1.9.0 (every release prio knows) reads the label
    yunikorn.apache.org/username where the user.info annotation is absent or empty."""
    p = pod("p", annotations={shim.USER_INFO: info} if info is not None else None)
    p["metadata"]["labels"][shim.USER_LABEL] = label
    snap = kubectl.load_pods("k.json", _doc(listed(p)))
    assert (snap.apps[0].user, snap.apps[0].groups) == want


def test_an_applications_user_is_its_oldest_pods():
    """The shim creates the application from the first pod it sees, with that pod's user."""
    late = pod("late", creationTimestamp="2024-05-01T10:05:00Z", annotations={shim.USER_INFO: '{"user":"bob"}'})
    early = pod("early", creationTimestamp="2024-05-01T10:00:00Z", annotations={shim.USER_INFO: '{"user":"alice"}'})
    snap = kubectl.load_pods("k.json", _doc(listed(late, early)))
    assert snap.apps[0].user == "alice"


# ---- files: nodes on their own, with pods, or twice ---------------------------------------------------

def test_nodes_in_a_file_of_their_own_meet_the_pods_of_another():
    inp = gather_data(listed(pod("exporter", "100m", sched="default-scheduler", node_name="n1", phase="Running"), pod("work")),
                      listed(node("n1"), node("n2", cordoned=True)))
    snap = inp.snapshot
    assert [(n.name, n.schedulable, n.occupied.get("vcore")) for n in snap.nodes] == [("n1", True, 100), ("n2", False, None)]
    assert snap.capacity["vcore"] == 8000


def test_two_pod_lists_share_one_node_list():
    inp = gather_data(listed(pod("e1", "100m", sched="default-scheduler", node_name="n1", phase="Running"), pod("w1", app="a")),
                      listed(pod("e2", "200m", sched="other", node_name="n1", phase="Running"), pod("w2", app="b")),
                      listed(node("n1")))
    assert inp.snapshot.nodes[0].occupied["vcore"] == 300
    assert sorted(a.id for a in inp.snapshot.apps) == ["a", "b"]


def test_nodes_alone_are_a_cluster_without_work():
    inp = gather_data(listed(node("n1"), node("n2")))
    assert [n.name for n in inp.snapshot.nodes] == ["n1", "n2"] and inp.snapshot.apps == []


@pytest.mark.parametrize("docs,msg", [
    ((listed(node("n1")), listed(node("n1"))), "node n1 is listed by another input too; give each node once"),
    ((listed(node("n1"), pod("p")), {"applications": [], "nodes": [{"name": "x", "capacity": {"vcore": 1}}]}),
     "nodes are given by two inputs; give the cluster's nodes once"),
])
def test_nodes_given_twice_are_refused(docs, msg):
    with pytest.raises(InputError) as e:
        gather_data(*docs)
    assert msg in e.value.message


# ---- the native snapshot's occupied room ---------------------------------------------------------

SNAPSHOT = """\
nodes:
  - {name: a, capacity: {vcore: 4}, occupied: {vcore: 3}}
  - {name: b, capacity: {vcore: 4}}
applications:
  - id: app
    queue: root.q
    asks:
      - {id: big, priority: 0, resources: {vcore: 2}}
      - {id: small, priority: 0, resources: {vcore: 1}}
"""


def test_a_nodes_occupied_room_is_not_free(tmp_path):
    """What other schedulers' pods take on a node (the snapshot's `occupied`) is not free: node a
    has 1 of 4 cores free, so the 2-core ask goes to b. It does not move a in the node order: the
    core's foreign allocations notify no listener (Node.addAllocationInternal), so a keeps the
    score it was added with (nothing used) while b, half used now, sorts after it: with fair
    node sorting (least used first) the 1-core ask takes a's last core (as the recorded
    yunikorn-shim/e2e clusters show)."""
    f = tmp_path / "s.yaml"
    f.write_text(SNAPSHOT)
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert [(s["ask"], s["node"]) for s in json.loads(r.stdout)["steps"]] == [("big", "b"), ("small", "a")]
    f.write_text(SNAPSHOT.replace(", occupied: {vcore: 3}", ""))
    assert [(s["ask"], s["node"]) for s in json.loads(run_cli("simulate", str(f), "-o", "json").stdout)["steps"]] == [
        ("big", "a"), ("small", "b")]


def test_occupied_room_goes_through_a_snapshot_file(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(SNAPSHOT)
    out = tmp_path / "out.yaml"
    assert run_cli("snapshot", str(f), "--output-file", str(out)).exit_code == 0
    assert "  occupied: {vcore: 3}" in out.read_text()
    assert run_cli("simulate", str(out), "-o", "json").stdout == run_cli("simulate", str(f), "-o", "json").stdout


def test_a_native_snapshots_nodes_stay_beside_a_pod_list():
    """Several inputs of work are merged; the nodes of the one that lists them are kept."""
    inp = gather_data({"applications": [], "nodes": [{"name": "x", "capacity": {"vcore": 4}}]}, listed(pod("p")))
    assert [n.name for n in inp.snapshot.nodes] == ["x"] and [a.id for a in inp.snapshot.apps] == ["app"]


def test_a_terminating_pod_holds_its_node_until_it_is_gone():
    """The shim never reads deletionTimestamp: a terminating pod is reported until it is gone,
    bound to a node as an allocation there, unbound as an ask."""
    leaving = pod("leaving", "2", node_name="n1", phase="Running", deletionTimestamp="2024-05-01T10:00:00Z")
    never = pod("never", "2", deletionTimestamp="2024-05-01T10:00:00Z")
    d = _doc(listed(node("n1"), leaving, never))
    snap = kubectl.load_pods("k.json", d, (), kubectl.load_nodes("k.json", d))
    [app] = snap.apps
    assert [a.id for a in app.allocations] == ["leaving"] and [a.id for a in app.asks] == ["never"]
    assert not any("terminating" in n for n in snap.notes)
