"""The `pods` resource Volcano puts in every task's request (`pods: 1`, api.GetPodResourceRequest)
and in every node's allocatable (its pod limit): counted where Volcano's resource operations
count it (queue shares and deserved, drf shares, the node fit), passed over where Volcano marks
it ignored (IsEmpty, so BestEffort; the WithDimension comparisons, so a queue's allocatable check)."""
from __future__ import annotations

import os
import tempfile

from prio.io.gather import gather
from prio.volcano import load as loader
from prio.volcano import session
from prio.volcano.model import PODS, res_empty, res_le_dims


def _session(text: str) -> session.Session:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.yaml")
        with open(path, "w") as fh:
            fh.write(text)
        cluster, cfg = loader.load(*gather([path]).objects[0])
    return session.Session(cluster, cfg)


def _node(name: str, pods: int | None = None) -> str:
    limit = f", pods: '{pods}'" if pods is not None else ""
    return f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\nstatus: {{allocatable: {{cpu: '8', memory: 16Gi{limit}}}}}\n"


def _group(name: str, queue: str = "default", running: bool = False) -> str:
    return (f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {{name: {name}}}\nspec: {{minMember: 1, queue: {queue}}}\n"
            + ("status: {phase: Running}\n" if running else ""))


def _pod(name: str, group: str, requests: str = "{cpu: '1', memory: 1Gi}", node: str | None = None) -> str:
    on = f"  nodeName: {node}\n" if node else ""
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  annotations: {{scheduling.k8s.io/group-name: {group}}}\n"
            f"spec:\n  containers:\n  - name: main\n    resources: {{requests: {requests}}}\n{on}")


def test_every_request_and_node_carries_pods():
    ssn = _session("---\n".join([_node("n1"), _node("n2", 5), _group("g"), _pod("p", "g")]))
    assert ssn.jobs["default/g"].tasks["default/p"].req[PODS] == 1.0
    assert ssn.nodes["n1"].alloc[PODS] == 110.0 and ssn.nodes["n2"].alloc[PODS] == 5.0  # 110 when absent
    assert ssn.total[PODS] == 115.0


def test_pods_is_ignored_where_volcano_ignores_it():
    assert res_empty({PODS: 1.0})  # IsEmpty: a pod with no requests is BestEffort
    ssn = _session("---\n".join([_node("n1"), _group("g"), _pod("be", "g", "{}")]))
    assert ssn.jobs["default/g"].tasks["default/be"].best_effort
    # LessEqualWithDimensionAndResourcesName passes over pods in the request's dimensions
    assert res_le_dims({"cpu": 1.0, PODS: 9.0}, {"cpu": 2.0, PODS: 1.0}, {"cpu": 1.0, PODS: 1.0})
    assert not res_le_dims({"cpu": 3.0}, {"cpu": 2.0}, {"cpu": 1.0, PODS: 1.0})


def test_queue_shares_count_pods():
    # q1 runs one 1-cpu 1Gi pod and asks for another and a 2-cpu 2Gi one: the cluster holds all,
    # so its deserved is what it asks (4 cpu, 4Gi, 3 pods) and its share the largest of cpu 1/4,
    # memory 1/4 and pods 1/3 (preempt--random-06 serves its queues in this order)
    docs = [_node("n1"), "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q1}\nspec: {weight: 1}\n",
            _group("g", "q1"), _group("r", "q1", running=True),
            _pod("r-0", "r", node="n1"), _pod("g-0", "g"), _pod("g-1", "g", "{cpu: '2', memory: 2Gi}")]
    ssn = _session("---\n".join(docs))
    attr = ssn.qattr["q1"]
    assert attr["deserved"][PODS] == 3.0 and attr["allocated"][PODS] == 1.0
    assert abs(attr["share"] - 1 / 3) < 1e-9


def test_a_full_node_is_short_of_pods_and_preempt_looks_past_its_pod_count():
    docs = [_node("n1", 1), _group("r", running=True), _pod("r-0", "r", node="n1"), _group("g"), _pod("g-0", "g")]
    ssn = _session("---\n".join(docs))
    t = ssn.jobs["default/g"].tasks["default/g-0"]
    ns = ssn.nodes["n1"]
    assert ssn.fit_reasons(t, ns) == ["Insufficient pods"]  # the resource check, before the predicates plugin's
    assert not ssn.predicate(t, ns)
    assert not ssn.predicate(t, ns, check_resources=False)  # the predicates plugin: MaxTaskNum <= the node's pods
    assert ssn.predicate(t, ns, check_resources=False, preempt=True)  # Unschedulable: preempt looks past it
    ssn._set(ssn.jobs["default/r"].tasks["default/r-0"], "Releasing", "n1")  # evicted: out of the k8s NodeInfo
    assert ssn.predicate(t, ns, check_resources=False) and ssn.predicate(t, ns)


def test_capacity_lets_a_queue_reclaim_while_some_asked_dimension_is_within_deserved():
    # capacity's PreemptiveFn (LessEqualPartlyWithDimensionZeroFiltered): cpu above deserved,
    # memory within it: the queue may still reclaim; above on both, or Closed, it may not
    conf = ("actions: \"enqueue, allocate, reclaim\"\ntiers:\n- plugins:\n  - name: priority\n  - name: gang\n"
            "- plugins:\n  - name: predicates\n  - name: capacity\n")
    body = "".join("    " + line + "\n" for line in conf.splitlines())

    def ssn_for(state: str, mem: str) -> session.Session:
        docs = [_node("n1"), f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {{name: q}}\n"
                f"spec: {{deserved: {{cpu: '1', memory: 4Gi}}}}\nstatus: {{state: {state}}}\n",
                _group("g", "q"), _pod("g-0", "g", f"{{cpu: '2', memory: {mem}}}"),
                f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\ndata:\n  volcano-scheduler.conf: |\n{body}"]
        return _session("---\n".join(docs))

    ssn = ssn_for("Open", "1Gi")
    t = ssn.jobs["default/g"].tasks["default/g-0"]
    assert ssn.preemptive("q", t)  # cpu 2 > 1, memory 1Gi <= 4Gi
    ssn = ssn_for("Open", "8Gi")
    assert not ssn.preemptive("q", ssn.jobs["default/g"].tasks["default/g-0"])  # above on both
    ssn = ssn_for("Closed", "1Gi")
    assert not ssn.preemptive("q", ssn.jobs["default/g"].tasks["default/g-0"])
