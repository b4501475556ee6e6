"""Bounded work for Volcano inputs (issue 43's caps, issue 49 item 5): every field Volcano reads is
checked for type and range before the work, huge numbers are refused without an internal error,
and the pods are counted against PRIO_MAX_ASKS before one is read. Each refusal is one stderr
line naming the file and line, exit 2, for simulate and explain alike."""
from __future__ import annotations

import re

import pytest

from conftest import run_cli

BIG = "9" * 5000
BASE = """\
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {zone: a}
spec:
  taints: []
status:
  allocatable: {cpu: '4', memory: 8Gi, pods: '110'}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: hi
value: 100
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: q
spec: {weight: 2, priority: 1}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata:
  name: g
spec: {minMember: 1, queue: q}
---
apiVersion: v1
kind: Pod
metadata:
  name: g-0
  annotations:
    scheduling.k8s.io/group-name: g
spec:
  priority: 5
  nodeSelector: {zone: a}
  tolerations: []
  containers:
  - name: main
    resources:
      requests: {cpu: '1', memory: 1Gi}
"""

MUTATIONS = {
    "weight of 5000 digits": ("weight: 2", f"weight: {BIG}", "int32 range"),
    "weight not a number": ("weight: 2", "weight: abc", "must be an integer"),
    "weight a list": ("weight: 2", "weight: [1]", "must be an integer"),
    "negative weight": ("weight: 2", "weight: -1", "at least 0"),
    "queue priority of 5000 digits": ("priority: 1}", f"priority: {BIG}}}", "int32 range"),
    "minMember of 5000 digits": ("minMember: 1", f"minMember: {BIG}", "int32 range"),
    "minMember not a number": ("minMember: 1", "minMember: x", "must be an integer"),
    "negative minMember": ("minMember: 1", "minMember: -1", "at least 0"),
    "PriorityClass value of 5000 digits": ("value: 100", f"value: {BIG}", "int32 range"),
    "pod priority not a number": ("priority: 5", "priority: x", "must be an integer"),
    "cpu of 5000 digits": ("cpu: '4'", f"cpu: '{BIG}'", "outside 0 to"),
    "negative memory request": ("memory: 1Gi}", "memory: -1Gi}", "outside 0 to"),
    "pods capacity of 5000 digits": ("pods: '110'", f"pods: '{BIG}'", "outside 0 to"),
    "spec a list": ("spec: {weight: 2, priority: 1}", "spec: [1]", "expected a mapping"),
    "labels a list": ("labels: {zone: a}", "labels: [a]", "labels must be a mapping"),
    "a taint a string": ("taints: []", "taints: [x]", "a taint is a mapping"),
    "nodeSelector a list": ("nodeSelector: {zone: a}", "nodeSelector: [a]", "nodeSelector must be a mapping"),
    "tolerations a mapping": ("tolerations: []", "tolerations: {a: 1}", "tolerations must be a list"),
    "containers a mapping": ("containers:\n  - name: main\n    resources:\n      requests: {cpu: '1', memory: 1Gi}",
                             "containers: {a: 1}", "expected a list"),
    "annotations a list": ("annotations:\n    scheduling.k8s.io/group-name: g", "annotations: [g]", "expected a mapping"),
    "priorityClassName a list": ("  priority: 5\n", "  priority: 5\n  priorityClassName: [high]\n", "expected a string"),
    "priorityClassName a mapping": ("  priority: 5\n", "  priority: 5\n  priorityClassName: {a: 1}\n", "expected a string"),
}


def _refused(tmp_path, text: str, command: str, env=None):
    path = tmp_path / "objects.yaml"
    path.write_text(text)
    r = run_cli(command, str(path), "-o", "json", env=env)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in lines[0], r.stderr
    assert re.match(r"prio: .*objects\.yaml:\d+(:\d+)?: ", lines[0]), lines[0]
    assert len(lines[0]) < 300, lines[0]
    return lines[0]


def test_the_base_input_is_read(tmp_path):
    path = tmp_path / "objects.yaml"
    path.write_text(BASE)
    r = run_cli("simulate", str(path), "-o", "json")
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("command", ["simulate", "explain"])
@pytest.mark.parametrize("case", sorted(MUTATIONS))
def test_a_bad_field_is_one_line_with_its_place(tmp_path, case, command):
    old, new, said = MUTATIONS[case]
    assert old in BASE
    line = _refused(tmp_path, BASE.replace(old, new, 1), command)
    assert said in line


@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_pods_are_counted_against_the_ask_cap_before_the_work(tmp_path, command):
    pod = BASE[BASE.index("apiVersion: v1\nkind: Pod"):]
    text = BASE + "".join("---\n" + pod.replace("g-0", f"g-{i}") for i in range(1, 4))
    line = _refused(tmp_path, text, command, env={"PRIO_MAX_ASKS": "3"})
    assert "4 pods in the file, more than prio reads (3); PRIO_MAX_ASKS=N raises the cap" in line


@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_other_objects_are_counted_against_the_objects_cap_before_the_work(tmp_path, command):
    """Queues, PodGroups and nodes are counted too (PRIO_MAX_OBJECTS), the first past the cap named."""
    queue = BASE[BASE.index("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue"):BASE.index("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup")]
    text = BASE + "".join("---\n" + queue.replace("name: q\n", f"name: q{i}\n") for i in range(1, 6))
    line = _refused(tmp_path, text, command, env={"PRIO_MAX_OBJECTS": "4"})
    assert "objects besides pods in the file, more than prio reads (4); PRIO_MAX_OBJECTS=N raises the cap" in line
    assert _refused(tmp_path, text, command, env={"PRIO_MAX_OBJECTS": "4"}) == line  # the same line each time
    path = tmp_path / "objects.yaml"
    path.write_text(text)
    assert run_cli(command, str(path), "-o", "json", env={"PRIO_MAX_OBJECTS": "100"}).exit_code == 0
