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
