"""prio.kube.shim: what YuniKorn's Kubernetes shim makes of a pod's fields, rule by rule."""
from __future__ import annotations

import pytest

from prio.kube import shim


@pytest.mark.parametrize("labels,annotations,want", [
    ({"yunikorn.apache.org/app-id": "L1", "applicationId": "L3"}, {"yunikorn.apache.org/app-id": "A2"}, ("L1", False)),
    ({"applicationId": "L3", "spark-app-selector": "L4"}, {"yunikorn.apache.org/app-id": "A2"}, ("A2", False)),
    ({"applicationId": "", "spark-app-selector": "L4"}, {}, ("L4", False)),  # an empty value falls through
    ({"applicationid": "x"}, {}, ("yunikorn-ns-autogen", True)),  # label keys are case-sensitive
    ({"applicationId": "job-uniqueautogen"}, {}, ("job-uid-1", False)),
    ({"applicationId": "x-uniqueautogen-uniqueautogen"}, {}, ("x-uniqueautogen-uid-1", False)),  # replaced once
])
def test_application_id(labels, annotations, want):
    assert shim.app_id(labels, annotations, "ns", "uid-1", False) == want


def test_generated_ids_are_cut_as_the_shim_cuts_them():
    long_ns = "n" * 70
    assert shim.generated_app_id(long_ns, "uid", False) == f"yunikorn-{long_ns}-autogen"[:63]
    assert shim.generated_app_id(long_ns, "0123-4567", True) == ("n" * 26 + "-0123-4567")[:63]
    assert shim.generated_app_id("ns", "", True) == "ns-uniqueautogen"  # no uid yet (admission)


@pytest.mark.parametrize("value,want", [("true", True), ("True", True), ("1", True), ("t", True), ("yes", False),
                                        ("false", False), ("", False), (None, False)])
def test_the_placeholder_flag_is_go_parse_bool(value, want):
    assert shim.placeholder({} if value is None else {shim.PLACEHOLDER: value}) is want


@pytest.mark.parametrize("pod,cls,want", [("true", {shim.ALLOW_PREEMPTION: "false"}, True), ("false", None, False),
                                          ("TRUE", {shim.ALLOW_PREEMPTION: "false"}, False), (None, {shim.ALLOW_PREEMPTION: "False"}, True),
                                          (None, None, True)])
def test_allow_preemption_from_the_pod_then_its_class(pod, cls, want):
    assert shim.allow_preempt_self({} if pod is None else {shim.ALLOW_PREEMPTION: pod}, cls) is want


def test_a_daemonset_pods_required_node_is_its_last_metadata_name_match():
    spec = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1", "n2"]}]},
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n3"]}]}]}}}}
    assert shim.required_node(spec, [{"kind": "DaemonSet", "uid": "d"}]) == "n3"
    assert shim.required_node(spec, [{"kind": "ReplicaSet", "uid": "r"}]) == ""  # only a DaemonSet's pods
    assert shim.required_node({}, [{"kind": "DaemonSet"}]) == ""


def test_settings_from_the_configmaps():
    assert shim.settings({shim.GENERATE_UNIQUE_APP_IDS: "true", shim.DISABLE_GANG: "1"}) == {
        "generateUniqueAppIds": True, "disableGangScheduling": True}
    assert shim.settings({shim.GENERATE_UNIQUE_APP_IDS: "yes"}) == {"generateUniqueAppIds": False, "disableGangScheduling": False}
