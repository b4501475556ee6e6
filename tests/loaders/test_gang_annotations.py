"""A cluster's gang annotations as the shim reads them (issue 45): every application of
../shared/testdata/yunikorn-shim/pods/ whose originator pod carries
`yunikorn.apache.org/task-groups` gets the task groups the shim's GetTaskGroupsFromAnnotation
decoded (none where it refused the annotation), with minResource in YuniKorn's units plus the
`pods: 1` the shim adds to every pod, and the style and timeout of GetSchedulingPolicyParam;
none with the shim's disableGangScheduling."""
import json
import os

import pytest

import shim_pods
from prio.kube import quantity as kq
from prio.kube import shim

GANG_CASES = [c for c in shim_pods.cases()
              if any(a.get("taskGroups") or a.get("taskGroupsError")
                     for a in json.load(open(os.path.join(shim_pods.CORPUS, c + ".shim.json")))["applications"])]


def _expected(groups) -> list:
    out = []
    for g in groups or ():
        res = {"pods": 1}
        for k, v in (g["MinResource"] or {}).items():
            key, value = kq.as_sent(k, v)
            res[key] = value
        out.append({"name": g["Name"], "minMember": g["MinMember"], "minResource": {k: v for k, v in res.items() if v}})
    return out


@pytest.mark.parametrize("case", GANG_CASES or ["(absent)"])
def test_task_groups_as_the_shim_decodes_them(case):
    if case == "(absent)":
        pytest.skip("the shim corpus is absent")
    with open(os.path.join(shim_pods.CORPUS, case + ".shim.json")) as f:
        rec = json.load(f)
    work = shim_pods.prio_view(case)["work"]
    apps = {a["id"]: a for a in work["applications"]}
    for a in rec["applications"]:
        got = apps.get(a["applicationId"])
        if got is None:
            continue
        groups = [{**g, "minResource": shim_pods._resources(g["minResource"])} for g in got.get("taskGroups") or ()]
        # with disableGangScheduling the shim decodes nothing (getAppMetadata), and sets no task-groups tag
        want = _expected(a.get("taskGroups")) if shim.TASK_GROUPS in a["tags"] else []
        assert groups == want, (a["applicationId"], a.get("taskGroupsError"))
        if a.get("taskGroupsError") and shim.TASK_GROUPS in a["tags"]:  # the shim's error, less the annotation it quotes
            why = shim.decode_task_groups(a["tags"][shim.TASK_GROUPS])[1]
            assert a["taskGroupsError"] in (why, f"{why}, {a['tags'][shim.TASK_GROUPS]}"), a["applicationId"]
        if groups:
            params = a["schedulingPolicyParameters"]
            assert got["gangSchedulingStyle"] == params["gangSchedulingStyle"]
            assert got.get("placeholderTimeoutInSeconds", 0) == max(params["timeoutSeconds"], 0)


@pytest.mark.parametrize("text, groups", [
    ('[{"name": "a", "minMember": 2, "minResource": {"cpu": "500m", "memory": "1Gi"}}]',
     [("a", 2, {"pods": 1, "vcore": 500, "memory": 1 << 30})]),
    ('[{"Name": "a", "MINMEMBER": 1, "minResource": {"cpu": 1}}]', [("a", 1, {"pods": 1, "vcore": 1000})]),
    ('[{"name": "a", "minMember": 1, "minResource": {"cpu": "1", "vcore": "1"}}]', []),  # cpu and vcore collide
    ('[{"name": "a", "minMember": 1, "minResource": {"pods": "2"}}]', []),  # pods is the shim's own
    ('[{"name": "a", "minMember": 0, "minResource": {"cpu": "1"}}]', []),
    ('[{"name": "a", "minMember": -1, "minResource": {"cpu": "1"}}]', []),
    ('[{"name": "a", "minMember": 1.5, "minResource": {"cpu": "1"}}]', []),
    ('[{"name": "", "minMember": 1, "minResource": {"cpu": "1"}}]', []),
    ('[{"name": "a", "minMember": 1}]', []),
    ('[{"name": "a", "minMember": 1, "minResource": {"cpu": "-1"}}]', []),
    ('[{"name": "a", "minMember": 1, "minResource": {"cpu": "lots"}}]', []),
    ("not json", []),
    ("", []),
])
def test_task_groups_annotation_rules(text, groups):
    assert shim.task_groups(text) == groups


@pytest.mark.parametrize("text, want", [
    ("placeholderTimeoutInSeconds=60 gangSchedulingStyle=Hard", ("Hard", 60)),
    ("gangSchedulingStyle=hard", ("Soft", 0)),  # the values are case-sensitive
    ("placeholderTimeoutInSeconds=soon", ("Soft", 0)),
    ("placeholderTimeoutInSeconds=30  gangSchedulingStyle=Hard x=1=2", ("Hard", 30)),  # malformed parts skipped
    (None, ("Soft", 0)),
])
def test_scheduling_policy_parameters(text, want):
    assert shim.scheduling_policy(text) == want


@pytest.mark.parametrize("text, why", [
    ('[{"name": "", "minMember": 1, "minResource": {"cpu": "1"}}]', "can't get taskGroup Name from pod annotation"),
    ('[{"name": "a", "minMember": 1}]', "can't get taskGroup MinResource from pod annotation"),
    ('[{"name": "a", "minResource": {"cpu": "1"}}]', "can't get taskGroup MinMember from pod annotation"),
    ('[{"name": "a", "minMember": -2, "minResource": {"cpu": "1"}}]', "minMember cannot be negative"),
    ('[{"name": "a", "minMember": 1, "minResource": {"memory": "-1"}}]', "minResource 'memory' in taskGroup 'a' cannot be negative"),
    ('[{"name": "a", "minMember": 1, "minResource": {"cpu": "1", "vcore": "1"}}]',
     "minResource 'vcore' in taskGroup 'a' collides with another resource under canonical key 'vcore'"),
    ('[{"name": "a", "minMember": 2, "minResource": {"cpu": "5000000000000000"}}]',
     "minResource 'cpu' in taskGroup 'a' overflows int64 when scaled by minMember 2"),
    ('[{"name": "a", "minMember": 1, "minResource": {"memory": "4Ei"}}, {"name": "b", "minMember": 1, "minResource": {"memory": "5Ei"}}]',
     "aggregate placeholder request for 'memory' overflows int64 across taskGroups"),
    # decoding comes first: a type error in a later group wins over a missing name in the first
    ('[{"name": "", "minMember": 1, "minResource": {}}, {"name": "b", "minMember": "2", "minResource": {}}]',
     "task group 2: minMember is not an int32"),
    ('{"name": "a"}', "not a JSON list of task groups"),
    ("[{", None),
])
def test_why_the_shim_refuses_an_annotation(text, why):
    groups, got = shim.decode_task_groups(text)
    assert groups == []
    if why is None:
        assert got.startswith("not JSON: ")
    else:
        assert got == why


def test_annotations_the_shim_takes_give_no_reason():
    assert shim.decode_task_groups(None) == ([], None)
    assert shim.decode_task_groups("null") == ([], None)
    # a null quantity is zero (Quantity.UnmarshalJSON), an empty minResource is one
    assert shim.decode_task_groups('[{"name": "a", "minMember": 1, "minResource": {"cpu": null}}]') == ([("a", 1, {"pods": 1, "vcore": 0})], None)
    assert shim.decode_task_groups('[{"name": "a", "minMember": 1, "minResource": {}}]') == ([("a", 1, {"pods": 1})], None)


BAD_POD = """apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata:
      name: driver
      namespace: spark
      labels: {applicationId: app-1}
      annotations:
        yunikorn.apache.org/task-groups: '[{"name": "exec", "minMember": 0, "minResource": {"cpu": "1"}}]'
    spec:
      schedulerName: yunikorn
      containers: [{name: c, resources: {requests: {cpu: "1"}}}]
"""


def test_an_annotation_the_shim_refuses_is_said_where_pods_are_read_and_linted(tmp_path):
    """simulate reads the pod as the shim does (no task groups: an ordinary pod, placed) and says
    why in a note naming PRIO804; validate reports PRIO804 at the annotation; a pod list whose
    annotations decode is checked and clean."""
    from conftest import run_cli

    f = tmp_path / "pods.yaml"
    f.write_text(BAD_POD)
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert [s["ask"] for s in json.loads(r.stdout)["steps"]] == ["driver"]
    assert "(PRIO804; the shim records a TaskGroupsError event): spark/driver (can't get taskGroup MinMember from pod annotation)" in r.stderr
    v = run_cli("validate", "-o", "json", str(f))
    assert v.exit_code == 1
    (finding,) = json.loads(v.stdout)["findings"]
    assert (finding["rule"], finding["line"]) == ("PRIO804", 11)
    assert "pod spark/driver: the shim cannot decode" in finding["message"]
    f.write_text(BAD_POD.replace('"minMember": 0', '"minMember": 1'))
    v = run_cli("validate", str(f))
    assert v.exit_code == 0 and "no problems in 1 file" in v.stderr


PENDING_PLACEHOLDER_PODS = """apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata:
      name: driver
      namespace: spark
      uid: u-driver
      labels: {applicationId: app-1}
      annotations:
        yunikorn.apache.org/task-groups: '[{"name": "exec", "minMember": 2, "minResource": {"cpu": "1"}}]'
        yunikorn.apache.org/task-group-name: exec
    spec:
      schedulerName: yunikorn
      containers: [{name: c, resources: {requests: {cpu: "1"}}}]
  - apiVersion: v1
    kind: Pod
    metadata:
      name: tg-app-1-exec-k2xq9d7f0a
      namespace: spark
      labels: {applicationId: app-1}
      ownerReferences: [{apiVersion: v1, kind: Pod, name: driver, uid: u-driver}]
      annotations:
        internal.yunikorn.apache.org/placeholder: "true"
        yunikorn.apache.org/task-group-name: exec
    spec:
      schedulerName: yunikorn
      containers: [{name: c, resources: {requests: {cpu: "1"}}}]
  - apiVersion: v1
    kind: Node
    metadata: {name: node-1}
    status: {allocatable: {cpu: "4", pods: "10"}}
"""


def test_pending_placeholder_pods_keep_their_names(tmp_path):
    """A pending placeholder pod of the export is one the shim made: it keeps its pod name (the
    shim's random suffix) in the steps and the gang summary; only the placeholder the export
    lacks gets prio's name tg-APP-GROUP-n."""
    from conftest import run_cli

    f = tmp_path / "pods.yaml"
    f.write_text(PENDING_PLACEHOLDER_PODS)
    r = run_cli("simulate", str(f), "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert [(s["ask"], s.get("placeholder"), s.get("replaces")) for s in got["steps"]] == [
        ("tg-app-1-exec-k2xq9d7f0a", True, None), ("tg-app-1-exec-1", True, None),
        ("driver", None, "tg-app-1-exec-1")]  # (replacement walks the placeholders by id)
    assert got["gangs"][0]["placeholdersHeld"] == ["tg-app-1-exec-k2xq9d7f0a"]
