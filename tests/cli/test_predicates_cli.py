"""Node predicates in prio's own inputs, end to end: the snapshot format's node labels/taints and
ask nodeSelector/affinity/tolerations/requiredNode (read, written back, anonymized), a kubectl
pod list with them, bad values refused at their line, preemption taking no victim on a node the
preemptor's predicates refuse, and the note for what is not modelled."""
import json

import yaml

from conftest import run_cli

QUEUES = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
          - name: b
"""

SNAP = """nodes:
  - name: gpu-1
    capacity: {vcore: 4, memory: 4Gi}
    labels: {pool: gpu, zone: a, gen: "7"}
    taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}, {key: spot, effect: PreferNoSchedule}]
  - name: cpu-1
    capacity: {vcore: 4, memory: 4Gi}
    labels: {pool: cpu, zone: b}
applications:
  - id: app1
    queue: root.a
    asks:
      - {id: trainer, priority: 1, resources: {vcore: 1}, nodeSelector: {pool: gpu},
         tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]}
      - {id: lost, priority: 1, resources: {vcore: 1}, nodeSelector: {pool: gpu}}
      - id: newer
        priority: 1
        resources: {vcore: 1}
        affinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{key: gen, operator: Gt, values: ["6"]}]
          preferredDuringSchedulingIgnoredDuringExecution:
            - {weight: 1, preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}}
        tolerations: [{operator: Exists}]
      - {id: plain, priority: 1, resources: {vcore: 1}}
"""


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def _simulate(*paths):
    r = run_cli("simulate", *paths, "-o", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_asks_go_only_where_their_predicates_admit_them(tmp_path):
    s = _write(tmp_path, "s.yaml", SNAP)
    for engine in ("auto", "reference"):
        got = _simulate(s, "--engine", engine)
        assert {x["ask"]: x["node"] for x in got["steps"]} == {"trainer": "gpu-1", "newer": "gpu-1", "plain": "cpu-1"}
        (lost,) = got["unscheduled"]
        assert lost["ask"] == "lost" and lost["code"] == "TaintNotTolerated"  # one node each: the plugins' order
        assert lost["codes"] == ["TaintNotTolerated", "NodeSelectorMismatch"]
        assert lost["nodes"] == [
            {"node": "gpu-1", "plugin": "TaintToleration", "reason": "node(s) had untolerated taint {nvidia.com/gpu: present}"},
            {"node": "cpu-1", "plugin": "NodeAffinity", "reason": "node(s) didn't match Pod's node affinity/selector"}]
        assert lost["reason"] == ("no node admits the pod: 0/2 nodes are available: 1 node(s) didn't match Pod's node "
                                  "affinity/selector, 1 node(s) had untolerated taint {nvidia.com/gpu: present}")


def test_why_ask_and_pending_name_the_refusing_nodes(tmp_path):
    s = _write(tmp_path, "s.yaml", SNAP)
    r = run_cli("explain", s, "--why-ask", "lost")
    assert r.exit_code == 0, r.output
    assert "  gpu-1: TaintToleration: node(s) had untolerated taint {nvidia.com/gpu: present}" in r.stdout
    assert "  cpu-1: NodeAffinity: node(s) didn't match Pod's node affinity/selector" in r.stdout
    r = run_cli("explain", s, "--pending", "-o", "json")
    assert [g["code"] for g in json.loads(r.stdout)["reasons"]] == ["TaintNotTolerated"]


def test_the_snapshot_writes_them_back_and_anonymized_they_still_answer_the_same(tmp_path):
    s = _write(tmp_path, "s.yaml", SNAP)
    q = _write(tmp_path, "q.yaml", QUEUES)
    want = _simulate(q, s)
    for extra in ((), ("--anonymize",)):
        out = tmp_path / "out.yaml"
        r = run_cli("snapshot", q, s, "--output-file", str(out), *extra)
        assert r.exit_code == 0, r.output
        doc = list(yaml.safe_load_all(out.read_text()))[1]
        assert any("taints" in n for n in doc["nodes"]) and any("nodeSelector" in a for app in doc["applications"] for a in app["asks"])
        again = _simulate(str(out))
        assert [x["ask"] for x in again["steps"]] == [x["ask"] for x in want["steps"]] or extra
        assert len(again["steps"]) == 3 and [u["code"] for u in again["unscheduled"]] == ["TaintNotTolerated"]
        if not extra:
            asks = {a["id"]: a for a in doc["applications"][0]["asks"]}
            assert asks["newer"]["affinity"]["preferredDuringSchedulingIgnoredDuringExecution"][0]["weight"] == 1
            assert asks["newer"]["tolerations"] == [{"operator": "Exists"}]
        else:
            assert "gpu-1" not in out.read_text()


def test_a_bad_value_is_one_line_at_its_place(tmp_path):
    bad = SNAP.replace("effect: NoSchedule}, {key: spot", "effect: 3}, {key: spot")
    r = run_cli("simulate", _write(tmp_path, "s.yaml", bad))
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "s.yaml:5" in r.output and "effect must be a string" in r.output
    bad = SNAP.replace("tolerations: [{operator: Exists}]", "tolerations: {operator: Exists}")
    r = run_cli("simulate", _write(tmp_path, "s2.yaml", bad))
    assert r.exit_code == 2 and "tolerations must be a list" in r.output


POD = """  - apiVersion: v1
    kind: Pod
    metadata: {{name: {name}, namespace: ml, labels: {{applicationId: {app}, queue: root.{queue}}}, creationTimestamp: "2026-01-01T00:00:0{n}Z"}}
    spec:
      schedulerName: yunikorn
      priority: {priority}
      {extra}
      containers: [{{name: c, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
    status: {{phase: {phase}}}
"""

NODES = """apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Node
    metadata: {name: gpu-1, labels: {pool: gpu}}
    spec: {taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]}
    status: {allocatable: {cpu: "4", pods: "110"}}
  - apiVersion: v1
    kind: Node
    metadata: {name: cpu-1, labels: {pool: cpu}}
    status: {allocatable: {cpu: "4", pods: "110"}}
"""


def _pods(*pods):
    return "apiVersion: v1\nkind: List\nitems:\n" + "".join(POD.format(**p) for p in pods)


def test_a_kubectl_pod_list_with_selectors_tolerations_and_pod_affinity(tmp_path):
    n = _write(tmp_path, "nodes.yaml", NODES)
    p = _write(tmp_path, "pods.yaml", _pods(
        dict(name="t", app="a1", queue="a", n=1, priority=0, cpu="1", phase="Pending",
             extra="nodeSelector: {pool: gpu}\n      tolerations: [{key: nvidia.com/gpu, operator: Exists}]"),
        dict(name="u", app="a1", queue="a", n=2, priority=0, cpu="1", phase="Pending", extra="nodeSelector: {pool: gpu}"),
        dict(name="v", app="a2", queue="a", n=3, priority=0, cpu="1", phase="Pending",
             extra="affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone}]}}")))
    r = run_cli("simulate", _write(tmp_path, "q.yaml", QUEUES), n, p, "-o", "json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert {x["ask"]: x["node"] for x in got["steps"]} == {"t": "gpu-1", "v": "cpu-1"}
    assert [(u["ask"], u["code"]) for u in got["unscheduled"]] == [("u", "TaintNotTolerated")]
    assert "1 pod uses pod (anti-)affinity, topology spread, host ports or claimed volumes" in r.stderr
    assert "ml/v" in r.stderr and r.stderr.count("anti-)affinity") == 1


def test_a_daemonset_pod_goes_on_its_required_node_or_nowhere(tmp_path):
    n = _write(tmp_path, "nodes.yaml", NODES)
    aff = ("affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
           "[{matchFields: [{key: metadata.name, operator: In, values: [NODE]}]}]}}}")
    pods = _pods(dict(name="ds-gpu", app="ds", queue="b", n=1, priority=0, cpu="1", phase="Pending", extra=aff.replace("NODE", "gpu-1")),
                 dict(name="ds-cpu", app="ds", queue="b", n=2, priority=0, cpu="1", phase="Pending", extra=aff.replace("NODE", "cpu-1")))
    pods = pods.replace("creationTimestamp", "ownerReferences: [{kind: DaemonSet, name: ds, apiVersion: apps/v1, uid: x}], creationTimestamp")
    r = run_cli("simulate", _write(tmp_path, "q.yaml", QUEUES), n, _write(tmp_path, "pods.yaml", pods), "-o", "json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert [(x["ask"], x["node"]) for x in got["steps"]] == [("ds-cpu", "cpu-1")]
    (u,) = got["unscheduled"]
    assert u["ask"] == "ds-gpu" and u["code"] == "TaintNotTolerated"
    assert u["nodes"] == [{"node": "gpu-1", "plugin": "TaintToleration", "reason": "node(s) had untolerated taint {nvidia.com/gpu: present}"},
                          {"node": "cpu-1", "plugin": "NodeAffinity", "reason": "node not eligible"}]


PREEMPT_QUEUES = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: high
            resources: {guaranteed: {vcore: 4}}
          - name: low
"""

PREEMPT_SNAP = """nodes:
  - {name: n-cpu, capacity: {vcore: 2}, labels: {pool: cpu}}
  - {name: n-gpu, capacity: {vcore: 2}, labels: {pool: gpu}}
applications:
  - id: low-app
    queue: root.low
    allocations:
      - {id: victim-cpu, priority: 0, resources: {vcore: 2}, node: n-cpu}
      - {id: victim-gpu, priority: 0, resources: {vcore: 2}, node: n-gpu, createTime: "2026-01-01T00:00:00Z"}
    asks: []
  - id: high-app
    queue: root.high
    asks:
      - {id: wants-gpu, priority: 100, resources: {vcore: 2}, nodeSelector: {pool: gpu}}
"""


def test_preemption_takes_no_victim_on_a_node_the_preemptor_may_not_use(tmp_path):
    q = _write(tmp_path, "q.yaml", PREEMPT_QUEUES)
    for pool in ("gpu", "cpu"):
        s = _write(tmp_path, "s.yaml", PREEMPT_SNAP.replace("{pool: gpu}}", "{pool: %s}}" % pool))
        steps = _simulate(q, s)["steps"]
        assert [x["preemption"] for x in steps if "preemption" in x] == [
            {"ask": "wants-gpu", "application": "high-app", "queue": "root.high", "node": f"n-{pool}", "victims": [f"victim-{pool}"]}]
        assert [(x["ask"], x["node"]) for x in steps if "ask" in x] == [("wants-gpu", f"n-{pool}")]
        r = run_cli("preempt", q, s)
        assert r.exit_code == 0, r.output
        assert f"preempts victim-{pool} (in this order) and is placed on n-{pool}" in r.stdout


def test_a_json_snapshot_of_plain_asks_writes_back(tmp_path):
    """The native loader's fast path (plain asks of a JSON snapshot) makes every field of an Ask:
    `prio snapshot` reads the gang fields and the node constraints of each."""
    s = tmp_path / "plain.json"
    s.write_text(json.dumps({"applications": [{"id": "a", "queue": "root.a", "asks": [{"priority": 1, "resources": {"vcore": 1}}]}]}))
    out = tmp_path / "out.yaml"
    r = run_cli("snapshot", str(s), "--output-file", str(out))
    assert r.exit_code == 0, r.output
    assert _simulate(str(out))["steps"][0]["ask"] == "a-1"
