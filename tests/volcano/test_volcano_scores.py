"""nodeorder's scores as Kubernetes v1.36's plugins compute them (the kube-scheduler Volcano
vendors at ed72c7c), on values worked out by hand: NodeResourcesBalancedAllocation scores the
change the pod makes to the node's balance (kubernetes#135573), LeastAllocated reads the node's
NonZeroRequested, both see pipelined pods and not the ones evicted in the session, and binpack
gives 0 to a node a requested resource would overflow."""
from __future__ import annotations

import os
import tempfile

from hypothesis import given
from hypothesis import strategies as st

from prio.io.gather import gather
from prio.volcano import load as loader
from prio.volcano import session

GI = 1024.0 ** 3


def _session(nodes: str, pods: str = "", conf: str | None = None) -> session.Session:
    docs = [nodes, "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: g}\nspec: {minMember: 1}\n"]
    if pods:
        docs.append(pods)
    if conf:
        body = "".join("    " + line + "\n" for line in conf.splitlines())
        docs.append(f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\ndata:\n  volcano-scheduler.conf: |\n{body}")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.yaml")
        with open(path, "w") as fh:
            fh.write("---\n".join(docs))
        cluster, cfg = loader.load(*gather([path]).objects[0])
    return session.Session(cluster, cfg)


def _node(name: str, cpu: str, mem: str, extra: str = "") -> str:
    return f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\nstatus: {{allocatable: {{cpu: '{cpu}', memory: {mem}{extra}}}}}\n"


def _pod(name: str, requests: str, node: str | None = None) -> str:
    on = f"  nodeName: {node}\n" if node else ""
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  annotations: {{scheduling.k8s.io/group-name: g}}\n"
            f"spec:\n  containers:\n  - name: main\n    resources: {{requests: {requests}}}\n{on}")


def test_balanced_allocation_scores_the_change_in_balance():
    # default--random-01's second pod (1 cpu, 3Gi) between n1 (4, 16Gi, empty) and n2 (8, 32Gi,
    # holding the same pod): with the pod both are at (.25, .1875) -> 96; without it n1 is
    # perfectly balanced (100), n2 at (.125, .09375) -> 98: n1 50 + (50 + 96 - 100) // 2 = 73,
    # n2 50 + (50 + 96 - 98) // 2 = 74, so the node already holding a pod wins
    req = {"cpu": 1000.0, "memory": 3 * GI}
    n1 = {"cpu": 4000.0, "memory": 16 * GI}
    n2 = {"cpu": 8000.0, "memory": 32 * GI}
    assert session._balanced_allocation(req, {}, n1) == 73
    assert session._balanced_allocation(req, dict(req), n2) == 74
    # a pod that evens the node out scores toward 100, one that unbalances it toward 50
    assert session._balanced_allocation({"cpu": 0.0, "memory": 8 * GI}, {"cpu": 4000.0}, n1) == 87  # (1, 0) -> (1, .5)
    assert session._balanced_allocation({"cpu": 0.0, "memory": 16 * GI}, {"cpu": 4000.0}, n1) == 100  # -> (1, 1)
    assert session._balanced_allocation({"cpu": 4000.0, "memory": 0.0}, {}, n1) == 50


def test_balanced_allocation_leaves_out_a_gpu_the_pod_does_not_ask_for_and_resources_the_node_lacks():
    node = {"cpu": 4000.0, "memory": 16 * GI, session.GPU: 2000.0}
    cpu_mem = {"cpu": 1000.0, "memory": 4 * GI}
    # no gpu requested: cpu and memory alone, both at .25 -> with 100, without 100 -> 75
    assert session._balanced_allocation(cpu_mem, {session.GPU: 2000.0}, node) == 75
    # gpu requested: three fractions (.25, .25, .5): std = .1178 -> 88; without: 100 -> 69
    assert session._balanced_allocation({**cpu_mem, session.GPU: 1000.0}, {}, node) == 50 + (50 + 88 - 100) // 2
    # a node without the gpu: left out, the same as cpu and memory alone
    assert session._balanced_allocation({**cpu_mem, session.GPU: 1000.0}, {}, {"cpu": 4000.0, "memory": 16 * GI}) == 75
    # a pod requesting nothing is not scored (PreScore: Skip)
    assert session._balanced_allocation({}, {}, node) == 0


def test_least_allocated_reads_the_nodes_non_zero_requests():
    # a running pod with no requests counts as 100m and 200Mi: n1 (4 cpu, 4Gi) with it, for a
    # 1 cpu 1Gi pod: cpu (4000 - 1100) * 100 // 4000 = 72, memory (4096 - 1224) * 100 // 4096 = 70,
    # (72 + 70) // 2 = 71; balanced: with (.275, .2988) -> 98, without (.025, .0488) -> 98: 75
    ssn = _session(_node("n1", "4", "4Gi"), _pod("idle", "{}", node="n1") + "---\n" + _pod("p", "{cpu: '1', memory: 1Gi}"))
    t = ssn.jobs["default/g"].tasks["default/p"]
    assert ssn.nodes["n1"].nonzero == [100.0, 200 * 1024 * 1024.0]
    assert ssn.score(t, ssn.nodes["n1"]) == 71 + 75


def test_pipelined_pods_count_and_evicted_ones_do_not():
    ssn = _session(_node("n1", "8", "16Gi"), _pod("run", "{cpu: '2', memory: 4Gi}", node="n1") + "---\n"
                   + _pod("p", "{cpu: '1', memory: 1Gi}"))
    ns = ssn.nodes["n1"]
    run = ssn.jobs["default/g"].tasks["default/run"]
    p = ssn.jobs["default/g"].tasks["default/p"]
    assert ns.requested["cpu"] == 2000.0
    ssn._set(run, "Releasing", "n1")  # evicted in this session: gone from the k8s NodeInfo
    assert ns.requested["cpu"] == 0.0 and ns.nonzero == [0.0, 0.0]
    ssn._set(p, "Pipelined", "n1")  # pipelined: added to it
    assert ns.requested["cpu"] == 1000.0 and ns.nonzero == [1000.0, GI]


def test_binpack_gives_zero_to_a_node_a_requested_resource_would_overflow():
    conf = ("actions: \"allocate\"\ntiers:\n- plugins:\n  - name: predicates\n  - name: binpack\n")
    ssn = _session(_node("n1", "4", "4Gi"), _pod("run", "{cpu: '3', memory: 1Gi}", node="n1") + "---\n"
                   + _pod("p", "{cpu: '2', memory: 1Gi}"), conf)
    t = ssn.jobs["default/g"].tasks["default/p"]
    assert ssn.score(t, ssn.nodes["n1"]) == 0.0  # cpu 5 > 4: 0 for the node, memory's share not kept
    ssn2 = _session(_node("n1", "4", "4Gi"), _pod("p", "{cpu: '2', memory: 1Gi}"), conf)
    t2 = ssn2.jobs["default/g"].tasks["default/p"]
    assert ssn2.score(t2, ssn2.nodes["n1"]) == (0.5 + 0.25) / 2 * 100


_amount = st.sampled_from([0.0, 250.0, 1000.0, 3000.0, 4000.0, 9000.0, 2 * GI, 16 * GI, 40 * GI])
_res = st.fixed_dictionaries({}, optional={"cpu": _amount, "memory": _amount, session.GPU: st.sampled_from([0.0, 1000.0, 2000.0])})


@given(_res, _res, _res)
def test_the_two_resource_balanced_score_equals_the_general_one(req, node_requested, alloc):
    assert session._balanced_allocation(req, node_requested, alloc) == session._balanced_allocation_ref(req, node_requested, alloc)
