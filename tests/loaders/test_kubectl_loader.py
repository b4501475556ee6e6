"""kubectl pod lists: detection, the shim's app/queue mapping, priorities through PriorityClass
resolution, Kubernetes quantities, the bundled sample, and bad input."""
from __future__ import annotations

import json
import os
import textwrap

import pytest

from conftest import ROOT, TESTS, run_cli
from prio.errors import InputError
from prio.io import yamlnodes
from prio.io.gather import gather
from prio.kube import quantity as kq
from prio.kube.priorityclass import PriorityClass
from prio.yunikorn import tree
from prio.yunikorn.engine import Engine
from prio.yunikorn.load import kubectl

HERE = TESTS
FIX = os.path.join(HERE, "fixtures", "kubectl")
SAMPLES = os.path.join(ROOT, "samples")


def fx(name):
    return os.path.join(FIX, name)


def load(path):
    with open(path, encoding="utf-8") as fh:
        return yamlnodes.load(os.path.basename(path), fh.read())[0]


def pods(path, classes=()):
    return kubectl.load_pods(os.path.basename(path), load(path), list(classes))


def doc(text, name="pods.yaml"):
    return yamlnodes.load(name, textwrap.dedent(text))[0]


def one_pod(spec_extra="", meta_extra="", status="status:\n  phase: Pending\n"):
    return ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\n" + meta_extra +
            "spec:\n  schedulerName: yunikorn\n  containers:\n  - name: c\n    image: x\n" + spec_extra + status)


# ---- detection ----------------------------------------------------------------------------

def test_detection():
    assert kubectl.is_pod_list(load(fx("pods-with-classes.yaml")).data)
    assert kubectl.is_pod_list(load(fx("podlist-api.json")).data)  # PodList items carry no kind
    assert kubectl.is_pod_list(load(fx("pod-single.yaml")).data)
    assert kubectl.is_pod_list(load(os.path.join(SAMPLES, "pods.json")).data)
    assert not kubectl.is_pod_list({"kind": "List", "items": []})
    assert not kubectl.is_pod_list({"kind": "List", "items": [{"kind": "PriorityClass"}]})
    assert not kubectl.is_pod_list({"kind": "List", "items": [{"kind": "Pod"}, {"kind": "ConfigMap"}]})
    assert not kubectl.is_pod_list({"kind": "List", "items": [{"spec": {"containers": []}}]})  # no kind in a List
    assert not kubectl.is_pod_list({"applications": []})
    assert not kubectl.is_pod_list([{"kind": "Pod"}])


# ---- mapping as the shim does it ------------------------------------------------------------------

def test_pods_with_classes_fixture():
    snap = pods(fx("pods-with-classes.yaml"))
    apps = {a.id: a for a in snap.apps}
    assert set(apps) == {"checkout-6b7f9", "etl-nightly", "node-repair", "yunikorn-dev-autogen"}
    co = apps["checkout-6b7f9"]
    assert co.queue == "root.web"
    # spec.priority as given; a created pod without spec.priority is 0 whatever its class (the
    # shim's CreatePriorityForTask never reads the class: admission fills spec.priority)
    assert [(a.id, a.priority) for a in co.asks] == [("checkout-6b7f9-x1", 5000), ("checkout-6b7f9-x2", 0)]
    assert co.asks[0].resources == {"vcore": 500, "memory": 1610612736, "pods": 1}
    assert co.asks[1].resources == co.asks[0].resources  # "0.5" == 500m, 1536Mi == 1.5Gi
    etl = apps["etl-nightly"]
    # annotations name app and queue; the bound driver counts as allocated; created without
    # spec.priority: 0, not the file's global default (batch-default, 100)
    assert etl.queue == "root.batch" and etl.state == "Running"
    assert etl.allocated == {"vcore": 1000, "memory": 1073741824, "pods": 1}
    assert [(a.id, a.priority, a.resources["memory"]) for a in etl.asks] == [("etl-nightly-0", 0, 2000000000)]
    assert apps["node-repair"].asks[0].priority == 0
    dev = apps["yunikorn-dev-autogen"]
    assert dev.queue == "" and dev.tags["namespace"] == "dev"  # no queue asked for: the placement rules decide
    assert dev.asks[0].resources == {"pods": 1}  # limits only: a created pod's limits are never read
    assert [c.name for c in snap.priority_classes] == ["web-critical", "batch-default"]
    notes = " ".join(snap.notes)
    assert "without spec.priority are priority 0" in notes and "shop/checkout-6b7f9-x2" in notes
    assert "yunikorn-<namespace>-autogen" in notes
    assert "scheduler default-scheduler: 1" in notes


def test_create_times_and_submit_time():
    snap = pods(fx("pods-with-classes.yaml"))
    etl = [a for a in snap.apps if a.id == "etl-nightly"][0]
    # the oldest pod (the running driver, 07:58) gives the submit time
    assert etl.submit_time[0] == 1717401480 * 10**9  # time keys are whole nanoseconds
    assert etl.asks[0].create_time[0] == 1717401540 * 10**9


def test_podlist_quantities_init_sidecar_overhead():
    snap = pods(fx("podlist-api.json"))
    [app] = snap.apps
    # "ml.gpu" is not fully qualified: the provided rule makes it one queue below root
    assert app.id == "train-resnet" and app.queue == "root.ml_dot_gpu" and app.queue_raw == "ml.gpu"
    t0, t1 = app.asks
    assert t0.resources == {
        "vcore": 4000 + 250,  # init container (4) beats 1.5 + 0.25 + 0.1 sidecar, plus overhead
        "memory": 12 * 2**30 + 2000 + 64 * 2**20 + 120 * 2**20,
        "nvidia.com/gpu": 2,
        "pods": 1,
    }
    assert t1.resources == {"vcore": 1500, "memory": 12 * 2**30, "nvidia.com/gpu": 2, "pods": 1}
    assert t0.priority == 0


def test_single_pod_manifest_without_status():
    snap = pods(fx("pod-single.yaml"))
    [app] = snap.apps
    assert app.asks[0].priority == 2000000000
    assert app.asks[0].resources == {"vcore": 1000, "memory": 4 * 2**30, "pods": 1}
    assert any("no status" in n for n in snap.notes)


def test_classes_argument_and_global_default():
    d = doc(one_pod(status=""))  # a manifest: admission gives it the global default
    snap = kubectl.load_pods("p.yaml", d, [PriorityClass("std", 300, True), PriorityClass("low", 10, True)])
    assert snap.apps[0].asks[0].priority == 10  # lowest of several defaults
    snap = kubectl.load_pods("p.yaml", d, [])
    assert snap.apps[0].asks[0].priority == 0  # no default: 0


def test_app_id_and_queue_precedence():
    meta = ("  labels:\n    yunikorn.apache.org/app-id: L1\n    applicationId: L3\n    spark-app-selector: L4\n"
            "    queue: root.q3\n  annotations:\n    yunikorn.apache.org/app-id: A2\n    yunikorn.apache.org/queue: root.q2\n")
    [app] = kubectl.load_pods("p", doc(one_pod(meta_extra=meta))).apps
    assert (app.id, app.queue) == ("L1", "root.q2")
    meta = "  labels:\n    applicationId: L3\n    spark-app-selector: L4\n    queue: root.q3\n  annotations:\n    yunikorn.apache.org/app-id: A2\n"
    [app] = kubectl.load_pods("p", doc(one_pod(meta_extra=meta))).apps
    assert (app.id, app.queue) == ("A2", "root.q3")
    meta = "  labels:\n    spark-app-selector: L4\n    yunikorn.apache.org/queue: Root.Q1\n"
    [app] = kubectl.load_pods("p", doc(one_pod(meta_extra=meta))).apps
    # "Root." is not "root.": not fully qualified (the core's test is case-sensitive)
    assert (app.id, app.queue, app.queue_raw) == ("L4", "root.root_dot_q1", "Root.Q1")


def test_oldest_pod_decides_the_queue():
    text = json.dumps({"kind": "List", "apiVersion": "v1", "items": [
        {"kind": "Pod", "metadata": {"name": "b", "namespace": "n", "creationTimestamp": "2024-01-01T00:00:05Z",
                                     "labels": {"applicationId": "x", "queue": "root.later"}},
         "spec": {"schedulerName": "yunikorn", "containers": []}, "status": {"phase": "Pending"}},
        {"kind": "Pod", "metadata": {"name": "a", "namespace": "n", "creationTimestamp": "2024-01-01T00:00:01Z",
                                     "labels": {"applicationId": "x", "queue": "root.first"}},
         "spec": {"schedulerName": "yunikorn", "containers": []}, "status": {"phase": "Pending"}}]})
    snap = kubectl.load_pods("p.json", yamlnodes.load("p.json", text)[0])
    [app] = snap.apps
    assert app.queue == "root.first" and [a.id for a in app.asks] == ["b", "a"]
    assert any("different queues" in n for n in snap.notes)


def test_phases_and_schedulers():
    items = []
    for i, (phase, sched, node) in enumerate([("Pending", "yunikorn", None), ("Running", "yunikorn", "n1"),
                                              ("Pending", "yunikorn", "n2"), ("Succeeded", "yunikorn", "n1"),
                                              ("Failed", "yunikorn", None), ("Pending", "default-scheduler", None)]):
        spec = {"schedulerName": sched, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}
        if node:
            spec["nodeName"] = node
        items.append({"kind": "Pod", "metadata": {"name": f"p{i}", "labels": {"applicationId": "app"}},
                      "spec": spec, "status": {"phase": phase}})
    items.append({"kind": "Pod", "metadata": {"name": "gone", "deletionTimestamp": "2024-01-01T00:00:00Z",
                                              "labels": {"applicationId": "app"}},
                  "spec": {"schedulerName": "yunikorn", "containers": []}, "status": {"phase": "Pending"}})
    text = json.dumps({"kind": "List", "items": items})
    snap = kubectl.load_pods("p.json", yamlnodes.load("p.json", text)[0])
    [app] = snap.apps
    assert [a.id for a in app.asks] == ["p0", "gone"]  # deletionTimestamp is never read: an ask until it is gone
    assert app.allocated == {"vcore": 2000, "pods": 2} and app.state == "Running"
    assert app.queue == ""
    notes = " ".join(snap.notes)
    assert "Failed: 1" in notes and "Succeeded: 1" in notes


def test_spec_priority_trusted_for_a_class_prio_was_not_shown():
    d = doc(one_pod("  priorityClassName: gold\n  priority: 777\n"))
    snap = kubectl.load_pods("p.yaml", d, [])
    assert snap.apps[0].asks[0].priority == 777
    assert any("gold" in n for n in snap.notes)


def test_other_items_skipped_and_noted():
    text = json.dumps({"kind": "List", "items": [
        {"kind": "Pod", "metadata": {"name": "a"}, "spec": {"schedulerName": "yunikorn", "containers": []}, "status": {"phase": "Pending"}},
        {"kind": "Service", "metadata": {"name": "s"}}]})
    snap = kubectl.load_pods("p.json", yamlnodes.load("p.json", text)[0])
    assert len(snap.apps) == 1 and any("1 Service" in n for n in snap.notes)


# ---- quantities -----------------------------------------------------------------------------

@pytest.mark.parametrize("name,text,want", [
    ("cpu", "500m", ("vcore", 500)), ("cpu", "2", ("vcore", 2000)), ("cpu", "0.25", ("vcore", 250)),
    ("cpu", "1.5", ("vcore", 1500)), ("cpu", "100u", ("vcore", 1)), ("cpu", "2e3", ("vcore", 2000000)),
    ("memory", "1.5Gi", ("memory", 1610612736)), ("memory", "2e3", ("memory", 2000)), ("memory", "1E3", ("memory", 1000)),
    ("memory", "128974848", ("memory", 128974848)), ("memory", "129M", ("memory", 129000000)),
    ("memory", "123Mi", ("memory", 128974848)), ("memory", "0.5", ("memory", 1)), ("memory", "1k", ("memory", 1000)),
    ("nvidia.com/gpu", "1", ("nvidia.com/gpu", 1)), ("ephemeral-storage", "1Ti", ("ephemeral-storage", 2**40)),
    ("memory", "1E", ("memory", 10**18)),
])
def test_quantities(name, text, want):
    assert kq.as_sent(name, text) == want


def test_quantities_past_int64_as_go_computes_them():
    assert kq.as_sent("memory", "10E") == ("memory", 2**63 - 1)  # Value saturates
    assert kq.as_sent("memory", "9Ei") == ("memory", 2**63 - 1)
    assert kq.as_sent("cpu", "1Ei") == ("vcore", -2**63)  # MilliValue overflows


@pytest.mark.parametrize("text", ["1GB", "1 Gi", "abc", "", "1.2.3", "-1", "1Gb"])
def test_bad_quantities(text):
    with pytest.raises(kq.QuantityError):
        kq.as_sent("memory", text)


# ---- errors, with positions -----------------------------------------------------------------------

BAD = [
    (one_pod("  priority: 3000000000\n"), [], 11, "outside the int32 range"),
    (one_pod("  priority: high\n"), [], 11, "must be an integer"),
    (one_pod("    resources:\n      requests:\n        memory: 1GB\n"), [], 13, "without a B"),
    (one_pod("    resources:\n      requests:\n        cpu: -1\n"), [], 13, "negative"),
    (one_pod("    resources: [1]\n"), [], 11, "resources must be a mapping"),
    (one_pod(meta_extra="  creationTimestamp: last tuesday\n"), [], 6, "RFC 3339"),
    ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: 5\n", [], 5, "needs a spec"),
    ("kind: List\nitems:\n- kind: Pod\n  metadata: [x]\n  spec: {containers: []}\n", [], 4, "metadata must be a mapping"),
]


REFUSED = [
    (one_pod("  priorityClassName: tier1\n  priority: 5\n", status=""), [PriorityClass("tier1", 4000)],
     "spec.priority 5 disagrees with PriorityClass 'tier1' (4000)"),
    (one_pod("  priorityClassName: tier9\n", status=""), [PriorityClass("tier1", 4000)], "'tier9' resolves to no PriorityClass"),
    (one_pod("  preemptionPolicy: Never\n  priorityClassName: tier1\n", status=""), [PriorityClass("tier1", 4000)],
     "preemptionPolicy 'Never' disagrees"),
]


@pytest.mark.parametrize("text,classes,msg", REFUSED)
def test_a_manifest_admission_refuses_is_left_out_and_named(text, classes, msg):
    """One bad pod does not refuse the input: the API server would refuse that pod alone."""
    import yaml

    fine = {"kind": "Pod", "metadata": {"name": "fine"}, "spec": {"schedulerName": "yunikorn", "containers": []},
            "status": {"phase": "Pending"}}
    listed = json.dumps({"apiVersion": "v1", "kind": "List", "items": [yaml.safe_load(text), fine]})
    snap = kubectl.load_pods("bad.json", doc(listed, "bad.json"), classes)
    assert [k.id for a in snap.apps for k in a.asks] == ["fine"]
    notes = " ".join(snap.notes)
    assert msg in notes and "refused by the API server on creation" in notes


def test_a_created_pod_of_a_class_that_is_gone_keeps_its_priority():
    snap = kubectl.load_pods("p.yaml", doc(one_pod("  priorityClassName: tier9\n  priority: 7\n")), [PriorityClass("tier1", 4000)])
    assert snap.apps[0].asks[0].priority == 7 and any("tier9" in n for n in snap.notes)


def test_a_queue_name_the_core_refuses_rejects_that_application_alone(tmp_path):
    bad = one_pod(meta_extra="  labels:\n    queue: root..a\n")
    f = tmp_path / "p.yaml"
    f.write_text(bad)
    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n")
    r = run_cli("explain", str(q), str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    [rej] = json.loads(r.stdout)["rejected"]
    assert "invalid queue name" in rej["reason"]


@pytest.mark.parametrize("text,classes,line,msg", BAD)
def test_bad_pods(text, classes, line, msg):
    with pytest.raises(InputError) as e:
        kubectl.load_pods("bad.yaml", doc(text, "bad.yaml"), classes)
    assert e.value.file == "bad.yaml" and e.value.line == line, str(e.value)
    assert msg in e.value.message, e.value.message


def test_mismatch_against_class_from_the_same_file(tmp_path):
    text = textwrap.dedent("""\
        apiVersion: v1
        kind: List
        items:
        - apiVersion: scheduling.k8s.io/v1
          kind: PriorityClass
          metadata: {name: gold}
          value: 900
        - apiVersion: v1
          kind: Pod
          metadata: {name: p, namespace: ns}
          spec:
            schedulerName: yunikorn
            priorityClassName: gold
            priority: 901
            containers: []
        """)
    p = tmp_path / "pods.yaml"
    p.write_text(text)
    inp = gather([str(p)])  # the manifest admission refuses is left out, named in a note
    assert inp.snapshot.apps == [] and any("ns/p is refused by the API server on creation: spec.priority 901 disagrees" in n
                                            for n in inp.notes)


def test_created_pod_keeps_its_priority_when_its_class_changed():
    """Admission checked the pod once, at creation; YuniKorn reads pod.spec.priority as it is."""
    snap = kubectl.load_pods("p.yaml", doc(one_pod("  priorityClassName: tier1\n  priority: 5\n"), "p.yaml"), [PriorityClass("tier1", 4000)])
    assert snap.apps[0].asks[0].priority == 5
    assert any("class has changed" in n for n in snap.notes)


# ---- the sample, end to end with the walkthrough queues -----------------------------------------

def test_sample_pods_with_walkthrough_and_classes():
    inp = gather([os.path.join(SAMPLES, "walkthrough-queues.yaml"), os.path.join(SAMPLES, "pods.json")],
                        [os.path.join(SAMPLES, "priorityclasses.yaml")])
    snap = inp.snapshot
    assert {a.id for a in snap.apps} == {"spark-etl-0001", "report-2024-05-01", "montecarlo-42", "hotfix-1187",
                                         "metrics-agent", "web-rollout-17", "nightly-cleanup"}
    root = tree.from_config(inp.config.partitions[0])
    Engine(root, snap)
    rep = {q.path: q.reported for q in root.walk()}
    assert rep["root.system.system-high"] == 5000  # tier1 + 1000
    assert rep["root.system"] == 2000000000  # the cluster-critical agent in system-normal
    assert rep["root.tenants"] == 0 and rep["root.tenants.tenant-a"] == 10
    assert rep["root.tenants.tenant-b.child-b-1"] == -100


def test_sample_pods_alone_default_queues():
    snap = pods(os.path.join(SAMPLES, "pods.json"), [])
    assert sum(len(a.asks) for a in snap.apps) == 9


# ---- anything else is an InputError, never a traceback ----------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(allow_nan=False, allow_infinity=False),
                     st.sampled_from(["", "yunikorn", "Pending", "Running", "500m", "1.5Gi", "2e3", "x", "tier1",
                                      "system-node-critical", "root.a", "2024-01-01T00:00:00Z", "Always", "Never"]))
_KEYS = st.sampled_from(["metadata", "spec", "status", "name", "namespace", "labels", "annotations", "phase",
                         "schedulerName", "priority", "priorityClassName", "containers", "initContainers", "resources",
                         "requests", "limits", "cpu", "memory", "nodeName", "overhead", "creationTimestamp", "queue",
                         "applicationId", "restartPolicy", "preemptionPolicy", "kind", "value", "globalDefault"])
_JSON = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                        st.dictionaries(_KEYS, inner, max_size=6)), max_leaves=30)
_POD = st.fixed_dictionaries({"kind": st.just("Pod"), "spec": st.dictionaries(_KEYS, _JSON, max_size=6).map(
    lambda d: {**d, "schedulerName": "yunikorn"})}, optional={"metadata": _JSON, "status": _JSON})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(st.one_of(_POD, st.fixed_dictionaries({"kind": st.just("List"), "items": st.lists(st.one_of(_POD, _JSON), max_size=4)})))
def test_fuzz_never_a_traceback(data):
    d = yamlnodes.load("f.json", json.dumps(data))[0]
    try:
        if kubectl.is_pod_list(d.data):
            kubectl.load_pods("f.json", d, [PriorityClass("tier1", 4000)])
    except InputError as e:
        assert e.file == "f.json" and e.message
