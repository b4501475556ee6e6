"""What a Namespace's annotations do to the pods the shim sends from it: the application tags
(Context.updateApplicationTags) and, through them, the quota, guarantee and maxApps the core
sets on the dynamic queue the application lands in (PartitionContext.AddApplication)."""
from __future__ import annotations

import json

import pytest

from prio.io.gather import gather
from prio.kube import shim
from prio.yunikorn.load.assemble import build


def _pod(name, ns, cpu="1"):
    return {"kind": "Pod", "metadata": {"name": name, "namespace": ns, "uid": f"u-{name}"},
            "spec": {"schedulerName": "yunikorn", "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]},
            "status": {"phase": "Pending"}}


def _namespace(name, **annotations):
    return {"kind": "Namespace", "metadata": {"name": name, "annotations": annotations}}


def _engine(tmp_path, pods, namespaces):
    p, n = tmp_path / "pods.json", tmp_path / "namespaces.json"
    p.write_text(json.dumps({"kind": "List", "apiVersion": "v1", "items": pods}))
    n.write_text(json.dumps({"kind": "List", "apiVersion": "v1", "items": namespaces}))
    inp = gather([str(p), str(n)])
    return inp, build(inp, None)


def test_the_namespace_quota_is_the_dynamic_queues_max(tmp_path):
    inp, eng = _engine(tmp_path, [_pod("a", "analytics"), _pod("b", "web")],
                       [_namespace("analytics", **{shim.NAMESPACE_QUOTA: '{"cpu": "4", "memory": "32Gi"}',
                                                   shim.NAMESPACE_MAX_APPS: "3"}),
                        _namespace("web", **{shim.CPU_QUOTA: "2"})])
    assert inp.default_config  # no queues.yaml: the tag namespace rule places them
    q = {st.leaf.path: st.leaf for st in eng.apps}
    assert q["root.analytics"].max == {"memory": 32 * 2 ** 30, "vcore": 4000} and q["root.analytics"].maxapps == 3
    assert q["root.web"].max == {"vcore": 2000}  # the deprecated namespace.max.cpu
    tags = {a.id: a.tags for a in inp.snapshot.apps}
    assert tags["yunikorn-analytics-autogen"][shim.QUOTA_TAG] == '{"resources":{"memory":{"value":34359738368},"vcore":{"value":4000}}}'


@pytest.mark.parametrize("annotations,tag", [
    ({shim.NAMESPACE_QUOTA: '{"cpu": "4x"}'}, None),  # a quantity that does not parse: no quota at all
    ({shim.NAMESPACE_QUOTA: '{"cpu": 4}'}, None),  # not a map of strings
    ({shim.NAMESPACE_QUOTA: '{"cpu": "0"}'}, None),  # zero: no tag
    ({shim.NAMESPACE_QUOTA: '{"cpu": "1"}', shim.CPU_QUOTA: "9"}, '{"resources":{"vcore":{"value":1000}}}'),  # namespace.quota wins
])
def test_the_quota_tag_as_the_shim_makes_it(annotations, tag):
    assert shim.namespace_tags(annotations).get(shim.QUOTA_TAG) == tag


@pytest.mark.parametrize("value,kept", [("3", True), ("0", True), ("-1", False), ("x", False), ("", False)])
def test_max_apps_is_a_non_negative_integer(value, kept):
    assert (shim.MAX_APPS_TAG in shim.namespace_tags({shim.NAMESPACE_MAX_APPS: value})) == kept


def test_a_parentqueue_annotation_becomes_the_tag_a_rule_can_read(tmp_path):
    p, n, q = tmp_path / "pods.json", tmp_path / "ns.json", tmp_path / "queues.yaml"
    p.write_text(json.dumps({"kind": "List", "items": [_pod("a", "team-a")]}))
    n.write_text(json.dumps({"kind": "List", "items": [_namespace("team-a", **{shim.PARENT_QUEUE: "root.tenants"})]}))
    q.write_text("partitions:\n  - name: default\n    placementrules:\n      - name: tag\n        value: namespace\n"
                 "        create: true\n        parent:\n          name: tag\n          value: namespace.parentqueue\n"
                 "    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n          - {name: tenants, parent: true}\n")
    inp = gather([str(q), str(p), str(n)])
    assert [st.leaf.path for st in build(inp, None).apps] == ["root.tenants.team-a"]


def test_yunikorns_own_deployment_config_places_pods_in_their_namespace(tmp_path):
    """k8shim's deployments/scheduler/yunikorn-configs.yaml: one `tag namespace` rule that creates
    the queue, root open to all: every pod lands in root.<namespace>, whatever its queue label."""
    from conftest import run_cli, shared

    cm = shared("testdata", "yunikorn-configs", "06_yunikorn-k8shim__deployments__scheduler__yunikorn-configs.yaml")
    pods = [_pod("a", "team-a"), _pod("b", "team-b"), _pod("c", "team-a")]
    pods[1]["metadata"]["labels"] = {"queue": "root.elsewhere"}
    p = tmp_path / "pods.json"
    p.write_text(json.dumps({"kind": "List", "apiVersion": "v1", "items": pods}))
    r = run_cli("explain", cm, str(p), "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = {a["ask"]: a["queue"] for a in json.loads(r.stdout)["asks"]}
    assert got == {"a": "root.team-a", "b": "root.team-b", "c": "root.team-a"}
